package service_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// roster returns n distinct names.
func roster(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Player %d", i+1)
	}
	return out
}

// classicEvening is the request of a small evening whose games end quickly: a
// person moderates, so each table's referee token, its games' host token,
// sees the cards and can remove the black players (endRound).
func classicEvening(tables, rounds, players int) service.EveningRequest {
	return service.EveningRequest{Preset: rules.PresetClassic, Moderator: rules.ModeratorHost,
		Tables: tables, Rounds: rounds, Players: roster(players)}
}

// mustEvening makes an evening or fails tb.
func mustEvening(tb testing.TB, svc *service.Service, req service.EveningRequest) service.EveningCreated {
	tb.Helper()
	c, err := svc.CreateEvening(context.Background(), req)
	if err != nil {
		tb.Fatalf("create evening %+v: %v", req, err)
	}
	return c
}

// mustActEvening applies an organiser's action or fails tb.
func mustActEvening(tb testing.TB, svc *service.Service, code, token, typ string) evening.View {
	tb.Helper()
	v, err := svc.ActEvening(context.Background(), code, token, service.EveningAction{ID: servicetest.ActionID(), Type: typ})
	if err != nil {
		tb.Fatalf("%s in evening %s: %v", typ, code, err)
	}
	return v
}

// tester is what these helpers need of a test: a *testing.T, or a
// *rapid.T inside a property.
type tester interface {
	Helper()
	Fatalf(format string, args ...any)
}

// endRound ends every game of the round in play, each with its table's
// referee token from v, the organiser's view.
func endRound(tb tester, svc servicetest.Client, v evening.View) {
	tb.Helper()
	for _, t := range v.Rounds[v.Round-1].Tables {
		if t.Game == "" {
			continue
		}
		if err := servicetest.EndByRemovals(svc, t.Game, servicetest.Referee(v, t.Table)); err != nil {
			tb.Fatalf("%v", err)
		}
	}
}

// wantStandings checks that the evening's standings are exactly the fold of
// its games' protocols, each game once, as scored by the evening's table with
// the referee's extras the view shows at each game: scored again from the
// protocol here, where the evening adds them to the result it recorded, so the
// two ways must agree. v must show every round's points (not hidden).
func wantStandings(tb tester, svc *service.Service, v evening.View) {
	tb.Helper()
	want, err := servicetest.ProtocolStandings(v, func(game string) (protocol.Protocol, error) {
		return svc.Protocol(context.Background(), game, "")
	})
	if err != nil {
		tb.Fatalf("%v", err)
	}
	if fmt.Sprint(v.Standings) != fmt.Sprint(want) {
		tb.Fatalf("standings:\n got %+v\nwant %+v", v.Standings, want)
	}
}

// TestEveningPlays: an evening on the memory store and on bbolt, from its
// roster to its standings: phones take names, the first round draws the
// seating and makes a game a table with everyone seated and given a game
// token, the next round waits until every table is over, and the standings
// are the sum of the games' points.
func TestEveningPlays(t *testing.T) {
	bolt, err := store.OpenBolt(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	for name, st := range map[string]store.Store{"memory": store.NewMemory(), "bolt": bolt} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			svc := service.New(st, service.WithLogger(quiet))
			c := mustEvening(t, svc, classicEvening(2, 2, 11))
			org := c.OrganizerToken
			if c.Evening.Version != 1 || !c.Evening.Organizer || len(c.Evening.Players) != 11 || c.Evening.Quality != nil {
				t.Fatalf("new evening: %+v", c.Evening)
			}
			anna, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 3"})
			if err != nil || anna.PlayerID != "p3" || anna.Evening.You == nil || anna.Evening.You.Table != 0 {
				t.Fatalf("join Player 3: %+v, %v", anna, err)
			}
			if _, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 3"}); !errors.Is(err, service.ErrConflict) || service.As(err).Code != "name_taken" {
				t.Fatalf("Player 3 again: %v, want 409 name_taken", err)
			}
			late, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Late Lena"})
			if err != nil || late.PlayerID != "p12" {
				t.Fatalf("a late player before the draw: %+v, %v", late, err)
			}

			v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
			if v.Round != 1 || len(v.Rounds) != 2 || v.Quality == nil || v.Quality.Score > v.Quality.Random {
				t.Fatalf("round 1: %+v", v)
			}
			mine, err := svc.ReadEvening(ctx, c.Code, anna.Token)
			if err != nil {
				t.Fatal(err)
			}
			you := mine.You
			if you == nil || you.Game == "" || you.GameToken == "" || you.Table < 1 || you.Seat < 1 {
				t.Fatalf("Player 3's place: %+v", you)
			}
			if got := v.Rounds[0].Tables[you.Table-1].Players[you.Seat-1]; got != "p3" {
				t.Fatalf("table %d seat %d holds %s, not p3", you.Table, you.Seat, got)
			}
			gv, err := svc.Read(ctx, you.Game, you.GameToken)
			if err != nil || gv.You == nil || gv.You.ID != fmt.Sprintf("p%d", you.Seat) || gv.Players[you.Seat-1].Name != "Player 3" {
				t.Fatalf("Player 3's game with the game token: %+v, %v", gv.You, err)
			}
			for _, table := range v.Rounds[0].Tables {
				gv, err := svc.Read(ctx, table.Game, servicetest.Referee(v, table.Table))
				if err != nil || !gv.Viewer.Host || len(gv.Players) != len(table.Players) || gv.Moderator != rules.ModeratorHost {
					t.Fatalf("game %s as its host, with its table's referee token: %+v, %v", table.Game, gv.Viewer, err)
				}
				if _, err := svc.Read(ctx, table.Game, org); !errors.Is(err, service.ErrUnauthorized) {
					t.Fatalf("game %s read with the organiser's token: %v, want 401: only the table's referee token hosts it", table.Game, err)
				}
			}

			// The next round waits for the tables: refused, nothing changed.
			_, err = svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: "again", Type: service.ActStartRound})
			if service.As(err).Code != "table_playing" || !errors.Is(err, service.ErrConflict) {
				t.Fatalf("round 2 while round 1 plays: %v, want 409 table_playing", err)
			}
			if after, _ := svc.ReadEvening(ctx, c.Code, ""); after.Version != v.Version || after.Round != 1 {
				t.Fatalf("a refused round changed the evening: version %d → %d", v.Version, after.Version)
			}

			endRound(t, svc, v)
			pub, err := svc.ReadEvening(ctx, c.Code, "")
			if err != nil {
				t.Fatal(err)
			}
			if pub.Version != v.Version || len(pub.Standings) != 12 {
				t.Fatalf("read after round 1: version %d (want %d: a read writes nothing), %d standings", pub.Version, v.Version, len(pub.Standings))
			}
			wantStandings(t, svc, pub)

			id := servicetest.ActionID()
			v2, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: id, Type: service.ActStartRound})
			if err != nil || v2.Round != 2 {
				t.Fatalf("round 2: %+v, %v", v2.Round, err)
			}
			again, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: id, Type: service.ActStartRound})
			if err != nil || again.Version != v2.Version || fmt.Sprint(again.Rounds) != fmt.Sprint(v2.Rounds) {
				t.Fatalf("round 2 sent again: %v, version %d → %d", err, v2.Version, again.Version)
			}
			endRound(t, svc, v2)
			end := mustActEvening(t, svc, c.Code, org, service.ActRecord)
			if end.Version != v2.Version+1 {
				t.Fatalf("record wrote version %d, want %d", end.Version, v2.Version+1)
			}
			wantStandings(t, svc, end)
			if _, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: "r3", Type: service.ActStartRound}); service.As(err).Code != "evening_over" {
				t.Fatalf("a third round of two: %v, want evening_over", err)
			}
		})
	}
}

// TestEveningRefusals: bad settings, rosters and tokens are refused with a
// clear error.
func TestEveningRefusals(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	for _, tc := range []struct {
		name string
		req  service.EveningRequest
		kind service.Kind
		code string
	}{
		{"no tables", service.EveningRequest{Preset: "sport", Tables: 0, Rounds: 1}, service.ErrInvalid, "invalid"},
		{"11 tables", service.EveningRequest{Preset: "sport", Tables: 11, Rounds: 1}, service.ErrInvalid, "invalid"},
		{"13 rounds", service.EveningRequest{Preset: "sport", Tables: 1, Rounds: 13}, service.ErrInvalid, "invalid"},
		{"unknown preset", service.EveningRequest{Preset: "chess", Tables: 1, Rounds: 1}, service.ErrInvalid, "invalid"},
		{"name twice", service.EveningRequest{Preset: "classic", Tables: 1, Rounds: 1, Players: append(roster(5), "Player 2")}, service.ErrConflict, "name_taken"},
		{"bad name", service.EveningRequest{Preset: "classic", Tables: 1, Rounds: 1, Players: append(roster(5), "")}, service.ErrInvalid, "name_empty"},
		{"look-alike names", service.EveningRequest{Preset: "classic", Tables: 1, Rounds: 1, Players: append(roster(5), "Anna", "\u0410nna")}, service.ErrConflict, "name_lookalike"},
	} {
		_, err := svc.CreateEvening(ctx, tc.req)
		if !errors.Is(err, tc.kind) || service.As(err).Code != tc.code {
			t.Errorf("%s: %v, want %s %s", tc.name, err, tc.kind, tc.code)
		}
	}

	// A roster typed in short of the tables is made (phones may fill it)
	// and refused at the first round, nothing changed.
	short := mustEvening(t, svc, service.EveningRequest{Preset: "sport", Tables: 2, Rounds: 1, Players: roster(19)})
	if _, err := svc.ActEvening(ctx, short.Code, short.OrganizerToken, service.EveningAction{ID: "r1", Type: service.ActStartRound}); !errors.Is(err, service.ErrConflict) || service.As(err).Code != "roster_too_small" {
		t.Errorf("the first round of 19 for two sport tables: %v, want 409 roster_too_small", err)
	}
	if v, _ := svc.ReadEvening(ctx, short.Code, ""); v.Version != short.Evening.Version || v.Round != 0 {
		t.Errorf("a refused first round changed the evening: version %d, round %d", v.Version, v.Round)
	}

	c := mustEvening(t, svc, classicEvening(1, 1, 6))
	other := mustEvening(t, svc, classicEvening(1, 1, 6))
	p, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 1"})
	if err != nil {
		t.Fatal(err)
	}
	start := service.EveningAction{ID: "go", Type: service.ActStartRound}
	for _, tc := range []struct {
		name, token string
		a           service.EveningAction
		kind        service.Kind
		code        string
	}{
		{"no token", "", start, service.ErrUnauthorized, "unauthorized"},
		{"forged token", "AAAAAAAAAAAAAAAAAAAAAAAA", start, service.ErrUnauthorized, "unauthorized"},
		{"another evening's token", other.OrganizerToken, start, service.ErrUnauthorized, "unauthorized"},
		{"a player's token", p.Token, start, service.ErrForbidden, "not_organizer"},
		{"unknown action", c.OrganizerToken, service.EveningAction{ID: "x", Type: "deal"}, service.ErrInvalid, "unknown_action"},
		{"no id", c.OrganizerToken, service.EveningAction{Type: service.ActStartRound}, service.ErrInvalid, "invalid"},
	} {
		_, err := svc.ActEvening(ctx, c.Code, tc.token, tc.a)
		if !errors.Is(err, tc.kind) || service.As(err).Code != tc.code {
			t.Errorf("%s: %v, want %s %s", tc.name, err, tc.kind, tc.code)
		}
	}
	if v, err := svc.ReadEvening(ctx, c.Code, c.OrganizerToken); err != nil || v.Version != 2 || v.Round != 0 {
		t.Errorf("after the refusals: version %d round %d, %v; want version 2 (one join), round 0", v.Version, v.Round, err)
	}
	if _, err := svc.ReadEvening(ctx, c.Code, other.OrganizerToken); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("read with another evening's token: %v", err)
	}
	if _, err := svc.ReadEvening(ctx, "ZZZZZZ", ""); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("read of no evening: %v", err)
	}
	if _, err := svc.Read(ctx, c.Code, ""); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("the evening's code read as a game's: %v, want not found (the keys differ)", err)
	}
}

// TestEveningSize: a club's long evening, 40 players with names of the
// longest length, in two-byte letters, at 4 sport tables over 10 rounds,
// every game played to its end and recorded, fits its one item with room to
// spare (DynamoDB's 400 KB).
func TestEveningSize(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	svc := service.New(st, service.WithLogger(quiet))
	names := make([]string, 40)
	for i := range names {
		names[i] = fmt.Sprintf("Игрок клуба номер %06d", i+1) // rules.MaxName letters
	}
	const rounds = 10
	c := mustEvening(t, svc, service.EveningRequest{Preset: rules.PresetSport, Moderator: rules.ModeratorHost,
		Tables: 4, Rounds: rounds, Players: names})
	for _, n := range names {
		if _, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: n}); err != nil {
			t.Fatal(err)
		}
	}
	for range rounds {
		endRound(t, svc, mustActEvening(t, svc, c.Code, c.OrganizerToken, service.ActStartRound))
	}
	v := mustActEvening(t, svc, c.Code, c.OrganizerToken, service.ActRecord)
	wantStandings(t, svc, v)
	it, err := st.Get(ctx, "evening/"+c.Code, true)
	if err != nil {
		t.Fatal(err)
	}
	size := store.ItemSize(it)
	t.Logf("an evening of 40 players, 4 tables, %d rounds, all %d games recorded: %d bytes stored (%.1f%% of %d)",
		rounds, 4*rounds, size, 100*float64(size)/store.MaxItemSize, store.MaxItemSize)
	if size > store.MaxItemSize/10 {
		t.Errorf("%d bytes: over a tenth of the item's limit", size)
	}
}

// TestPropertyEveningStandings: over random evenings (tables, rounds, roster)
// on the memory store, bbolt or DynamoDB's API (dynalite), wrapped to inject version conflicts and
// failures before and after writes, the tables of a round end at the same moment while others read the
// evening and record it, all at once, every request retried as a client
// retries it. At the end the standings are exactly the fold of every game's
// protocol, each game counted once: none lost, none twice.
func TestPropertyEveningStandings(t *testing.T) {
	bolt, err := store.OpenBolt(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	stores := map[string]store.Store{"memory": store.NewMemory(), "bolt": bolt, "dynamo": dynamo(t)}
	rapid.Check(t, func(rt *rapid.T) {
		ctx := context.Background()
		tables := rapid.IntRange(1, 3).Draw(rt, "tables")
		rounds := rapid.IntRange(1, 3).Draw(rt, "rounds")
		players := rapid.IntRange(5*tables, 7*tables).Draw(rt, "players")
		readers := rapid.IntRange(1, 4).Draw(rt, "readers")
		base := stores[rapid.SampledFrom([]string{"memory", "bolt", "dynamo"}).Draw(rt, "store")]
		faulty := servicetest.NewFaulty(base, rapid.Uint64().Draw(rt, "faults"),
			servicetest.Faults{Conflict: 0.3, Before: 0.05, After: 0.05})
		svc := service.New(faulty, service.WithLogger(quiet))
		games := service.New(base, service.WithLogger(quiet)) // the tables play on a sound store
		var c service.EveningCreated
		retry(rt, func() (err error) {
			c, err = svc.CreateEvening(ctx, classicEvening(tables, rounds, players))
			return err
		})
		org := c.OrganizerToken
		var v evening.View
		for r := range rounds {
			id := servicetest.ActionID()
			retry(rt, func() (err error) {
				v, err = svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: id, Type: service.ActStartRound})
				return err
			})
			if v.Round != r+1 {
				rt.Fatalf("round %d started, the view says %d", r+1, v.Round)
			}
			var wg sync.WaitGroup
			errs := make(chan error, len(v.Rounds[r].Tables)+3*readers)
			for _, table := range v.Rounds[r].Tables {
				wg.Go(func() { errs <- servicetest.EndByRemovals(games, table.Game, servicetest.Referee(v, table.Table)) })
			}
			for k := range readers {
				wg.Go(func() {
					for range 3 {
						errs <- retried(func() error {
							if k%2 == 0 {
								_, err := svc.ReadEvening(ctx, c.Code, "")
								return err
							}
							_, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: servicetest.ActionID(), Type: service.ActRecord})
							return err
						})
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					rt.Fatalf("round %d: %v", r+1, err)
				}
			}
		}
		retry(rt, func() (err error) {
			v, err = svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: servicetest.ActionID(), Type: service.ActRecord})
			return err
		})
		wantStandings(rt, games, v)
		played := 0
		for _, s := range v.Standings {
			played += s.Games
		}
		if played != players*rounds {
			rt.Fatalf("%d games played in the standings, want %d (%d players, %d rounds, everyone plays)", played, players*rounds, players, rounds)
		}
	})
}

// retried runs a request until it passes or fails for good, as a client
// retries it: again at once after busy or unavailable.
func retried(req func() error) error {
	var err error
	for range 100 {
		if err = req(); !servicetest.IsRetryable(err) {
			break
		}
	}
	return err
}

// retry is retried, failing tb if the request fails for good.
func retry(tb tester, req func() error) {
	tb.Helper()
	if err := retried(req); err != nil {
		tb.Fatalf("%v", err)
	}
}

// TestEveningRosterChanges: the organiser's swap, absent and late through
// ActEvening, before the draw and between rounds, each applied once by its
// id; the rounds started and the standings never change, and a refused
// change stores nothing.
func TestEveningRosterChanges(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(1, 3, 8))
	act := func(a service.EveningAction) (evening.View, error) {
		return svc.ActEvening(ctx, c.Code, c.OrganizerToken, a)
	}
	mustAct := func(a service.EveningAction) evening.View {
		t.Helper()
		v, err := act(a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		return v
	}
	wantRefused := func(a service.EveningAction, code string) {
		t.Helper()
		refusedEvening(t, svc, c.Code, c.OrganizerToken, a, code)
	}

	// Before the draw: a late name on the roster, an absent one marked out, no swap.
	v := mustAct(service.EveningAction{ID: "late1", Type: service.ActLate, Name: "Zoe"})
	if p := v.Players[8]; p.ID != "p9" || p.Name != "Zoe" || p.Joined {
		t.Fatalf("Zoe late: %+v", p)
	}
	v = mustAct(service.EveningAction{ID: "gone1", Type: service.ActAbsent, Player: "p2"})
	if again := mustAct(service.EveningAction{ID: "gone1", Type: service.ActAbsent, Player: "p2"}); again.Version != v.Version || !v.Players[1].Absent {
		t.Errorf("absent p2 resent: version %d, was %d; p2 %+v", again.Version, v.Version, v.Players[1])
	}
	wantRefused(service.EveningAction{ID: "sw0", Type: service.ActSwap, Players: []string{"p1", "p3"}}, "not_drawn")
	if j, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Zoe"}); err != nil || j.PlayerID != "p9" {
		t.Errorf("a phone takes Zoe: %+v, %v", j, err)
	}

	v = mustActEvening(t, svc, c.Code, c.OrganizerToken, service.ActStartRound)
	for _, r := range v.Rounds {
		if slices.Contains(r.Tables[0].Players, "p2") || !slices.Contains(r.Tables[0].Players, "p9") {
			t.Errorf("round %d seats %v: want Zoe, not p2", r.Round, r.Tables[0].Players)
		}
	}
	endRound(t, svc, v)
	played := mustAct(service.EveningAction{ID: "rec", Type: service.ActRecord})

	// Between rounds: each change from round 2 on only.
	a, b := played.Rounds[1].Tables[0].Players[0], played.Rounds[1].Tables[0].Players[1]
	v = mustAct(service.EveningAction{ID: "sw1", Type: service.ActSwap, Players: []string{a, b}})
	if got := v.Rounds[1].Tables[0].Players; got[0] != b || got[1] != a {
		t.Errorf("round 2 after swapping %s and %s: %v", a, b, got)
	}
	v = mustAct(service.EveningAction{ID: "gone2", Type: service.ActAbsent, Player: "p5"})
	v = mustAct(service.EveningAction{ID: "late2", Type: service.ActLate, Name: "Yuri"})
	for r := 1; r < 3; r++ {
		if got := v.Rounds[r].Tables[0].Players; slices.Contains(got, "p5") || !slices.Contains(got, "p10") {
			t.Errorf("round %d seats %v: want Yuri (p10), not p5", r+1, got)
		}
	}
	if fmt.Sprint(v.Rounds[0]) != fmt.Sprint(played.Rounds[0]) || fmt.Sprint(v.Standings) != fmt.Sprint(played.Standings) {
		t.Errorf("round 1 or the standings changed:\n%+v\n%+v\nwere\n%+v\n%+v", v.Rounds[0], v.Standings, played.Rounds[0], played.Standings)
	}
	if v.Quality == nil {
		t.Error("no quality after the changes")
	}
	wantStandings(t, svc, v)

	p, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ActEvening(ctx, c.Code, p.Token, service.EveningAction{ID: "x", Type: service.ActAbsent, Player: "p3"}); service.As(err).Code != "not_organizer" {
		t.Errorf("a player marks another absent: %v", err)
	}
	for _, tc := range []struct {
		a    service.EveningAction
		code string
	}{
		{service.EveningAction{ID: "r1", Type: service.ActSwap, Players: []string{"p1"}}, "bad_field"},
		{service.EveningAction{ID: "r2", Type: service.ActSwap, Players: []string{"p1", "p1"}}, "bad_target"},
		{service.EveningAction{ID: "r3", Type: service.ActSwap, Players: []string{"p1", "p42"}}, "bad_target"},
		{service.EveningAction{ID: "r4", Type: service.ActSwap, Players: []string{"p1", "p5"}}, "player_absent"},
		{service.EveningAction{ID: "r5", Type: service.ActAbsent}, "bad_field"},
		{service.EveningAction{ID: "r6", Type: service.ActAbsent, Player: "p2"}, "player_absent"},
		{service.EveningAction{ID: "r7", Type: service.ActLate, Name: ""}, "name_empty"},
		{service.EveningAction{ID: "r8", Type: service.ActLate, Name: "Player 3"}, "name_taken"},
	} {
		wantRefused(tc.a, tc.code)
	}

	for range 2 {
		v = mustActEvening(t, svc, c.Code, c.OrganizerToken, service.ActStartRound)
		endRound(t, svc, v)
	}
	wantRefused(service.EveningAction{ID: "late3", Type: service.ActLate, Name: "Ann"}, "evening_over")
	wantRefused(service.EveningAction{ID: "sw3", Type: service.ActSwap, Players: []string{"p1", "p3"}}, "evening_over")
}

// refusedEvening fails t unless the organiser's action a is refused with
// code and leaves the evening as it was.
func refusedEvening(t *testing.T, svc *service.Service, code, token string, a service.EveningAction, want string) {
	t.Helper()
	ctx := context.Background()
	before, _ := svc.ReadEvening(ctx, code, token)
	if _, err := svc.ActEvening(ctx, code, token, a); service.As(err) == nil || service.As(err).Code != want {
		t.Errorf("%+v: %v, want %s", a, err, want)
	}
	if after, _ := svc.ReadEvening(ctx, code, token); after.Version != before.Version {
		t.Errorf("%+v refused, yet the evening went from version %d to %d", a, before.Version, after.Version)
	}
}

// standingOf is the player's total in the view's standings.
func standingOf(v evening.View, player string) scoring.Points {
	for _, st := range v.Standings {
		if st.Player == player {
			return st.Points.Total
		}
	}
	return 0
}

// TestEveningExtras: the referee's extra points through ActEvening: entered
// while the game plays or after it is recorded, the standings are the same,
// and always the games' protocols scored with their extras; each applied once
// by its id; out of bounds or of the evening, refused, nothing changed.
func TestEveningExtras(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(2, 2, 12))
	org := c.OrganizerToken
	act := func(a service.EveningAction) evening.View {
		t.Helper()
		v, err := svc.ActEvening(ctx, c.Code, org, a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		return v
	}
	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	g1, g2 := v.Rounds[0].Tables[0], v.Rounds[0].Tables[1]
	extra := service.EveningAction{ID: "x1", Type: service.ActExtra, Game: strings.ToLower(g1.Game), Player: g1.Players[3],
		Points: 50, Reason: " found the Don on day 1 "}

	before := act(extra) // while the game plays
	if e := before.Rounds[0].Tables[0].Extras; len(e) != 1 || e[0].Game != g1.Game || e[0].Reason != "found the Don on day 1" {
		t.Fatalf("the extra in the view: %+v", e)
	}
	if again := act(extra); again.Version != before.Version {
		t.Errorf("the extra sent again wrote version %d, was %d", again.Version, before.Version)
	}
	endRound(t, svc, v)
	withBefore := mustActEvening(t, svc, c.Code, org, service.ActRecord)
	wantStandings(t, svc, withBefore)

	act(service.EveningAction{ID: "x0", Type: service.ActExtra, Game: g1.Game, Player: g1.Players[3]}) // 0 takes it away
	plain := mustActEvening(t, svc, c.Code, org, service.ActRecord)
	wantStandings(t, svc, plain)
	if got, was := standingOf(withBefore, g1.Players[3]), standingOf(plain, g1.Players[3]); got != was+50 {
		t.Errorf("%s has %s with the extra, %s without", g1.Players[3], got, was)
	}
	extra.ID = "x2"
	withAfter := act(extra) // after the game is recorded
	if fmt.Sprint(withAfter.Standings) != fmt.Sprint(withBefore.Standings) {
		t.Errorf("the extra after the game was recorded:\n%+v\nbefore:\n%+v", withAfter.Standings, withBefore.Standings)
	}
	act(service.EveningAction{ID: "x3", Type: service.ActExtra, Game: g2.Game, Player: g2.Players[0], Points: -70, Reason: "a vote spoiled"})
	last := act(service.EveningAction{ID: "x4", Type: service.ActExtra, Game: g2.Game, Player: g2.Players[0], Points: -20, Reason: "on second thought"})
	if e := last.Rounds[0].Tables[1].Extras; len(e) != 1 || e[0].Points != -20 {
		t.Errorf("a second extra for %s in %s: %+v, want it in place of the first", g2.Players[0], g2.Game, e)
	}
	wantStandings(t, svc, last)

	// The worst move takes the player's auto-bonus in that game away, with
	// or without points; taken back (no points, no worst move), it is gone.
	worst := act(service.EveningAction{ID: "w1", Type: service.ActExtra, Game: g2.Game, Player: g2.Players[1], WorstMove: true, Reason: "shot his own Don"})
	wantStandings(t, svc, worst)
	bonus := scoring.FIIM().AutoBonus.Points
	if got, was := standingOf(worst, g2.Players[1]), standingOf(last, g2.Players[1]); bonus <= 0 || got != was-bonus {
		t.Errorf("%s has %s after a worst move, %s before; want the auto-bonus %s less", g2.Players[1], got, was, bonus)
	}
	if back := act(service.EveningAction{ID: "w2", Type: service.ActExtra, Game: g2.Game, Player: g2.Players[1]}); standingOf(back, g2.Players[1]) != standingOf(last, g2.Players[1]) {
		t.Errorf("the worst move taken back: %s, want %s", standingOf(back, g2.Players[1]), standingOf(last, g2.Players[1]))
	}

	p, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 1"})
	if err != nil {
		t.Fatal(err)
	}
	if pub, _ := svc.ReadEvening(ctx, c.Code, p.Token); fmt.Sprint(pub.Rounds[0].Tables) != fmt.Sprint(last.Rounds[0].Tables) {
		t.Errorf("a player's view of the extras: %+v, the organiser's %+v", pub.Rounds[0].Tables, last.Rounds[0].Tables)
	}
	for _, tc := range []struct {
		a    service.EveningAction
		code string
	}{
		{service.EveningAction{ID: "r1", Type: service.ActExtra, Game: g1.Game, Player: g1.Players[0], Points: 71, Reason: "r"}, "invalid_extra"},
		{service.EveningAction{ID: "r2", Type: service.ActExtra, Game: g1.Game, Player: g1.Players[0], Points: -71, Reason: "r"}, "invalid_extra"},
		{service.EveningAction{ID: "r3", Type: service.ActExtra, Game: g1.Game, Player: g1.Players[0], Points: 10}, "invalid_extra"},
		{service.EveningAction{ID: "r4", Type: service.ActExtra, Game: g1.Game, Player: g1.Players[0], Points: 10, Reason: strings.Repeat("a", 201)}, "invalid_extra"},
		{service.EveningAction{ID: "r5", Type: service.ActExtra, Game: "ZZZZZZ", Player: g1.Players[0], Points: 10, Reason: "r"}, "bad_target"},
		{service.EveningAction{ID: "r6", Type: service.ActExtra, Game: g1.Game, Player: g2.Players[0], Points: 10, Reason: "r"}, "bad_target"},
		{service.EveningAction{ID: "r7", Type: service.ActExtra, Player: g1.Players[0], Points: 10, Reason: "r"}, "bad_field"},
		{service.EveningAction{ID: "r8", Type: service.ActExtra, Game: g1.Game, Points: 10, Reason: "r"}, "bad_field"},
		{service.EveningAction{ID: "r10", Type: service.ActExtra, Game: g1.Game, Player: g1.Players[0], WorstMove: true}, "invalid_extra"},
	} {
		refusedEvening(t, svc, c.Code, org, tc.a, tc.code)
	}
	if _, err := svc.ActEvening(ctx, c.Code, p.Token, service.EveningAction{ID: "r9", Type: service.ActExtra, Game: g1.Game,
		Player: g1.Players[0], Points: 10, Reason: "r"}); service.As(err).Code != "not_organizer" {
		t.Errorf("a player enters an extra: %v", err)
	}
}

// TestEveningHiddenStandings: hidden for the final round, the public and the
// players see the standings as they stood before it, whatever its games and
// extras bring, and its games are left out of the public export; the
// organiser sees them whole; shown, everyone does.
func TestEveningHiddenStandings(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(2, 2, 12))
	org := c.OrganizerToken
	p, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 2"})
	if err != nil {
		t.Fatal(err)
	}
	refusedEvening(t, svc, c.Code, org, service.EveningAction{ID: "s0", Type: service.ActShowStandings}, "standings_shown")
	endRound(t, svc, mustActEvening(t, svc, c.Code, org, service.ActStartRound))
	mustActEvening(t, svc, c.Code, org, service.ActRecord)
	asItStood, err := svc.ReadEvening(ctx, c.Code, "")
	if err != nil {
		t.Fatal(err)
	}

	hidden := mustActEvening(t, svc, c.Code, org, service.ActHideStandings)
	if hidden.HiddenFrom != 2 {
		t.Errorf("hidden between rounds 1 and 2: from round %d, want 2", hidden.HiddenFrom)
	}
	refusedEvening(t, svc, c.Code, org, service.EveningAction{ID: "h2", Type: service.ActHideStandings}, "standings_hidden")
	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	endRound(t, svc, v)
	final := v.Rounds[1].Tables[0]
	whole, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: "x1", Type: service.ActExtra, Game: final.Game,
		Player: final.Players[0], Points: 70, Reason: "the final's best"})
	if err != nil {
		t.Fatal(err)
	}
	wantStandings(t, svc, whole)
	for _, token := range []string{"", p.Token} {
		got, err := svc.ReadEvening(ctx, c.Code, token)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Standings) != fmt.Sprint(asItStood.Standings) || got.HiddenFrom != 2 || got.Rounds[1].Tables[0].Extras != nil {
			t.Errorf("while hidden, token %q sees from round %d:\n%+v\nextras %+v\nwant the standings after round 1:\n%+v",
				token, got.HiddenFrom, got.Standings, got.Rounds[1].Tables[0].Extras, asItStood.Standings)
		}
	}
	if fmt.Sprint(whole.Standings) == fmt.Sprint(asItStood.Standings) {
		t.Error("the organiser's standings did not count the final round")
	}
	shown := mustActEvening(t, svc, c.Code, org, service.ActShowStandings)
	pub, err := svc.ReadEvening(ctx, c.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(pub.Standings) != fmt.Sprint(shown.Standings) || pub.HiddenFrom != 0 || len(pub.Rounds[1].Tables[0].Extras) != 1 {
		t.Errorf("shown, the public sees %+v, want the organiser's %+v", pub.Standings, shown.Standings)
	}
	refusedEvening(t, svc, c.Code, org, service.EveningAction{ID: "h3", Type: service.ActHideStandings}, "evening_over")
}
