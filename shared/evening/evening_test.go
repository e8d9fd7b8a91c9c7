package evening_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Player %d", i+1)
	}
	return out
}

func preset(tb testing.TB, name string) rules.Options {
	tb.Helper()
	o, err := rules.Preset(name)
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// mustNew makes an evening of sport tables or fails tb.
func mustNew(tb testing.TB, tables, rounds, players int) evening.State {
	tb.Helper()
	s, err := evening.New("EVNING", evening.Settings{Rules: preset(tb, rules.PresetSport), Moderator: rules.ModeratorApp,
		Lang: "en", Tables: tables, Rounds: rounds, Names: names(players), Seed: 7})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// must returns v or fails tb on err.
func must[V any](tb testing.TB) func(v V, err error) V {
	return func(v V, err error) V {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}

// result is a game of the evening scored: seat k's player is the game's
// "pk", and wins a point if its seat is odd.
func result(code string, seats int) scoring.Result {
	r := scoring.Result{Code: code, Winner: rules.Town}
	for k := 1; k <= seats; k++ {
		p := scoring.Parts{}
		if k%2 == 1 {
			p.Win, p.Total = scoring.Point, scoring.Point
		}
		r.Seats = append(r.Seats, scoring.SeatResult{Seat: k, Player: fmt.Sprintf("p%d", k), Name: fmt.Sprintf("seat %d", k),
			Role: rules.Citizen, Team: rules.Town, Won: k%2 == 1, Points: p})
	}
	return r
}

func TestNew(t *testing.T) {
	sport := preset(t, rules.PresetSport)
	for _, tc := range []struct {
		name string
		set  evening.Settings
		want *rules.Error
	}{
		{"no tables", evening.Settings{Rules: sport, Tables: 0, Rounds: 1}, &rules.Error{Kind: rules.Invalid, Code: "invalid"}},
		{"eleven tables", evening.Settings{Rules: sport, Tables: 11, Rounds: 1}, &rules.Error{Kind: rules.Invalid, Code: "invalid"}},
		{"no rounds", evening.Settings{Rules: sport, Tables: 1, Rounds: 0}, &rules.Error{Kind: rules.Invalid, Code: "invalid"}},
		{"thirteen rounds", evening.Settings{Rules: sport, Tables: 1, Rounds: 13}, &rules.Error{Kind: rules.Invalid, Code: "invalid"}},
		{"a name twice", evening.Settings{Rules: sport, Tables: 1, Rounds: 1, Names: append(names(10), "Player 4")}, evening.ErrNameTaken},
		{"too many", evening.Settings{Rules: sport, Tables: 1, Rounds: 1, Names: names(evening.MaxRoster + 1)}, evening.ErrRosterFull},
	} {
		_, err := evening.New("EVNING", tc.set)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want.Code)
		}
	}
	for _, n := range []int{0, 19, 20, 23} {
		s, err := evening.New("EVNING", evening.Settings{Rules: sport, Tables: 2, Rounds: 3, Names: names(n)})
		if err != nil || len(s.Players) != n || s.Drawn() || s.Rules.DrawSeats {
			t.Errorf("%d names: %+v, %v; want them all, no seating yet, and no seats drawn at the deal", n, s.Players, err)
		}
		// Those who join by phone may fill the tables yet; the first round
		// finds whether they did.
		_, err = evening.Draw(s)
		if small := n < 20; errors.Is(err, evening.ErrRosterSmall) != small {
			t.Errorf("%d names for two sport tables, the first round: %v; want roster_too_small %v", n, err, small)
		}
	}
}

func TestJoin(t *testing.T) {
	s := mustNew(t, 2, 3, 20)
	s, id, err := evening.Join(s, "Player 4")
	if err != nil || id != "p4" || !s.Players[3].Joined {
		t.Fatalf("Player 4 joins: %q, %v", id, err)
	}
	if _, _, err := evening.Join(s, "Player 4"); !errors.Is(err, evening.ErrNameTaken) {
		t.Fatalf("Player 4 again: %v, want name_taken", err)
	}
	s, id, err = evening.Join(s, "Late before the draw")
	if err != nil || id != "p21" || len(s.Players) != 21 {
		t.Fatalf("a late player before the draw: %q, %v", id, err)
	}

	s = must[evening.State](t)(evening.Draw(s))
	round1 := must[[][]string](t)(evening.Seated(s, 0))
	s = must[evening.State](t)(evening.StartRound(s, 0, []string{"GAME1A", "GAME1B"}))
	// The draw closed the roster to the phones' new names: a name on it is
	// still a phone's to take, a new one is the organiser's to let in.
	if _, _, err := evening.Join(s, "A stranger after the draw"); !errors.Is(err, evening.ErrRosterClosed) {
		t.Fatalf("a new name after the draw: %v, want roster_closed", err)
	}
	if _, id, err := evening.Join(s, "Player 7"); err != nil || id != "p7" {
		t.Fatalf("a name on the roster after the draw: %q, %v", id, err)
	}
	if _, err := evening.CloseRoster(s); !errors.Is(err, evening.ErrRosterShut) {
		t.Errorf("close a closed roster: %v", err)
	}
	s = must[evening.State](t)(evening.OpenRoster(s))
	if _, err := evening.OpenRoster(s); !errors.Is(err, evening.ErrRosterOpen) {
		t.Errorf("open an open roster: %v", err)
	}
	s, id, err = evening.Join(s, "Late after round 1")
	if err != nil || id != "p22" {
		t.Fatalf("a late player in round 1, the roster opened: %q, %v", id, err)
	}
	if got := must[[][]string](t)(evening.Seated(s, 0)); !slices.EqualFunc(got, round1, slices.Equal) {
		t.Errorf("a late player changed the round in play: %v, was %v", got, round1)
	}
	seated := 0
	for r := 1; r < 3; r++ {
		for _, table := range must[[][]string](t)(evening.Seated(s, r)) {
			if slices.Contains(table, id) {
				seated++
			}
		}
	}
	if seated != 2 {
		t.Errorf("the late player plays %d of the 2 rounds left, want both (they have played the fewest)", seated)
	}
}

// TestRounds: the seating is drawn once, the same for the same roster and
// seed; a round starts when the last is over and recorded, never twice;
// every game is recorded once, under the evening's ids.
func TestRounds(t *testing.T) {
	s := mustNew(t, 2, 2, 20)
	if r, err := evening.NextRound(s); err != nil || r != 0 {
		t.Fatalf("first round: %d, %v", r, err)
	}
	s = must[evening.State](t)(evening.Draw(s))
	again := must[evening.State](t)(evening.Draw(mustNew(t, 2, 2, 20)))
	if !slices.Equal(s.Schedule, again.Schedule) || s.Random != again.Random {
		t.Fatal("the same roster and seed drew two seatings")
	}
	if _, err := evening.StartRound(s, 1, []string{"A", "B"}); !errors.Is(err, evening.ErrTablePlaying) {
		t.Errorf("round 2 first: %v", err)
	}
	s = must[evening.State](t)(evening.StartRound(s, 0, []string{"GAME1A", "GAME1B"}))
	if _, err := evening.StartRound(s, 0, []string{"GAME1C", "GAME1D"}); !errors.Is(err, evening.ErrTablePlaying) {
		t.Errorf("round 1 twice: %v", err)
	}
	if _, err := evening.NextRound(s); !errors.Is(err, evening.ErrTablePlaying) {
		t.Errorf("round 2 while round 1 plays: %v", err)
	}
	if got := evening.Pending(s); len(got) != 2 || got[1] != (evening.Game{Code: "GAME1B", Round: 0, Table: 1}) {
		t.Errorf("pending: %+v", got)
	}

	seated := must[[][]string](t)(evening.Seated(s, 0))
	s, recorded, err := evening.Record(s, result("GAME1B", 10))
	if err != nil || !recorded || !s.Recorded("GAME1B") {
		t.Fatalf("record GAME1B: %v, %v", recorded, err)
	}
	if g := s.Results[0]; g.Number != 2 || !slices.Equal(g.Players, seated[1]) {
		t.Errorf("GAME1B recorded as game %d of %v, want game 2 of %v", g.Number, g.Players, seated[1])
	}
	if tables := must[evening.View](t)(evening.ViewOf(s, evening.Public)).Rounds[0].Tables; tables[0].Over || !tables[1].Over {
		t.Errorf("a table's game over in the view: %v and %v, want only GAME1B's", tables[0].Over, tables[1].Over)
	}
	if s2, recorded, err := evening.Record(s, result("GAME1B", 10)); err != nil || recorded || len(s2.Results) != 1 {
		t.Errorf("GAME1B again: recorded %v, %d results, %v; want it counted once", recorded, len(s2.Results), err)
	}
	if _, _, err := evening.Record(s, result("NOTOUR", 10)); err == nil {
		t.Error("a game not of the evening was recorded")
	}
	// A game with a player the seating did not make is over but left out of
	// the standings, with why, and the evening goes on (its next round).
	odd, recorded, err := evening.Record(s, result("GAME1A", 11))
	if err != nil || !recorded || len(odd.Results) != len(s.Results) || !odd.Recorded("GAME1A") {
		t.Errorf("a game with a player the evening did not seat: recorded %v, %d results, %v", recorded, len(odd.Results), err)
	}
	if tb := must[evening.View](t)(evening.ViewOf(odd, evening.Public)).Rounds[0].Tables[0]; !tb.Over || !strings.Contains(tb.Uncounted, "the seating 10") {
		t.Errorf("the uncounted game in the view: over %v, %q", tb.Over, tb.Uncounted)
	}
	if r, err := evening.NextRound(odd); err != nil || r != 1 {
		t.Errorf("round 2 after an uncounted game: %d, %v", r, err)
	}
	s = must[evening.State](t)(func() (evening.State, error) {
		s, _, err := evening.Record(s, result("GAME1A", 10))
		return s, err
	}())
	if r, err := evening.NextRound(s); err != nil || r != 1 {
		t.Fatalf("round 2 after round 1: %d, %v", r, err)
	}
	s = must[evening.State](t)(evening.StartRound(s, 1, []string{"GAME2A", "GAME2B"}))
	if _, err := evening.NextRound(s); !errors.Is(err, evening.ErrEveningOver) {
		t.Errorf("round 3 of 2 while round 2 plays: %v", err)
	}
	for _, code := range []string{"GAME2A", "GAME2B"} {
		s, _, _ = evening.Record(s, result(code, 10))
	}
	if _, err := evening.NextRound(s); !errors.Is(err, evening.ErrEveningOver) {
		t.Errorf("round 3 of 2: %v", err)
	}
	v := must[evening.View](t)(evening.ViewOf(s, evening.Public))
	points := scoring.Points(0)
	for _, st := range v.Standings {
		points += st.Points.Total
		if st.Games != 2 {
			t.Errorf("%s played %d games, want 2", st.Player, st.Games)
		}
	}
	if points != 4*5*scoring.Point {
		t.Errorf("the standings hold %s points, want 20: 5 a game", points)
	}
}

func TestView(t *testing.T) {
	s := mustNew(t, 2, 3, 21)
	v := must[evening.View](t)(evening.ViewOf(s, evening.Viewer{Organizer: true}))
	if !v.Organizer || v.Quality != nil || len(v.Rounds) != 0 || v.You != nil || v.RoundCount != 3 || v.Tables != 2 {
		t.Fatalf("before the draw: %+v", v)
	}
	s = must[evening.State](t)(evening.Draw(s))
	s = must[evening.State](t)(evening.StartRound(s, 0, []string{"GAME1A", "GAME1B"}))
	pub := must[evening.View](t)(evening.ViewOf(s, evening.Public))
	if pub.Organizer || pub.You != nil || pub.Round != 1 || len(pub.Rounds) != 3 {
		t.Fatalf("public view: %+v", pub)
	}
	if q := pub.Quality; q == nil || q.Score > q.Random {
		t.Errorf("quality %+v: the drawn seating scores worse than by lot", q)
	}
	if r := pub.Rounds[0]; r.Tables[0].Game != "GAME1A" || len(r.Tables[0].Players) != 10 || len(r.SitOut) != 1 || pub.Rounds[1].Tables[0].Game != "" {
		t.Errorf("round 1: %+v; round 2: %+v", r, pub.Rounds[1])
	}
	out := pub.Rounds[0].SitOut[0]
	for _, p := range s.Players {
		you := must[evening.View](t)(evening.ViewOf(s, evening.Viewer{Player: p.ID})).You
		switch {
		case you == nil || you.PlayerID != p.ID || you.Name != p.Name:
			t.Fatalf("%s's view: %+v", p.ID, you)
		case p.ID == out && (you.Table != 0 || you.Game != ""):
			t.Errorf("%s sits out, yet has table %d", p.ID, you.Table)
		case p.ID != out && pub.Rounds[0].Tables[you.Table-1].Players[you.Seat-1] != p.ID:
			t.Errorf("%s is told table %d seat %d, which holds another", p.ID, you.Table, you.Seat)
		case p.ID != out && you.Game != pub.Rounds[0].Tables[you.Table-1].Game:
			t.Errorf("%s is told game %s at table %d", p.ID, you.Game, you.Table)
		}
	}
}

// TestRosterCap: the roster holds MaxRoster players present, and a name
// marked absent gives its place up; MaxNames bounds the names in all, so that
// the stored evening keeps its size.
func TestRosterCap(t *testing.T) {
	s := mustNew(t, 2, 3, evening.MaxRoster)
	if _, _, err := evening.Join(s, "One too many"); !errors.Is(err, evening.ErrRosterFull) {
		t.Fatalf("a name past %d present: %v, want roster_full", evening.MaxRoster, err)
	}
	for i := range evening.MaxRoster {
		if i%2 == 0 {
			s = must[evening.State](t)(evening.Absent(s, fmt.Sprintf("p%d", i+1)))
		}
	}
	for i := 0; len(s.Present()) < evening.MaxRoster; i++ {
		var err error
		if s, _, err = evening.Join(s, fmt.Sprintf("Guest %d", i)); err != nil {
			t.Fatalf("guest %d with %d present of %d names: %v", i, len(s.Present()), len(s.Players), err)
		}
	}
	for len(s.Players) < evening.MaxNames {
		s = must[evening.State](t)(evening.Absent(s, s.Present()[0]))
		var err error
		if s, _, err = evening.Join(s, fmt.Sprintf("Guest %d", len(s.Players))); err != nil {
			t.Fatalf("a guest in place of one who left, %d names: %v", len(s.Players), err)
		}
	}
	s = must[evening.State](t)(evening.Absent(s, s.Present()[0]))
	if _, _, err := evening.Join(s, "Past every name"); !errors.Is(err, evening.ErrRosterFull) {
		t.Errorf("a name past %d names in all: %v, want roster_full", evening.MaxNames, err)
	}
}
