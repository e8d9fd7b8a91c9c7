package ratings_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/bot"
	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// refusals are the reasons a preset's game with the site's deal may still be
// refused, by what happened in it: the party Commissar's reveal (R-PARTY-04)
// and double death (R-PARTY-08), the maniac Sheriff's shot (R-MANIAC-05).
var refusals = map[string][]string{
	rules.PresetSport:   nil,
	rules.PresetClassic: nil,
	rules.PresetParty:   {"left named by the Commissar who showed his card", "killed by the double death"},
	rules.PresetManiac:  {"killed by the Sheriff's shot", `night act "shoot"`},
}

// botGame plays one game of preset with the site's deal to its end through
// the service, bots in every seat and a clock that stands still (the host moves the
// game on), and returns its protocol.
func botGame(t *testing.T, preset, moderator string, seed uint64) protocol.Protocol {
	t.Helper()
	ctx := context.Background()
	clock := func() time.Time { return t0 }
	st := store.NewMemory()
	st.SetNow(clock)
	// The deal and the codes from the seed too, so that a seed is one game
	// on every run: drawn afresh, the party's eight games were now and then
	// all refused for what happened in them, and the test failed by chance.
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	copy(key[8:], preset+moderator)
	svc := service.New(st, service.WithLogger(slog.New(slog.DiscardHandler)), service.WithClock(clock),
		service.WithRand(rand.NewChaCha8(key)))
	opts, err := json.Marshal(withSiteDeal(t, preset))
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(ctx, service.CreateRequest{Preset: preset, Options: opts, Moderator: moderator})
	if err != nil {
		t.Fatal(err)
	}
	d := &bot.Driver{Table: svc, Seats: bot.Seats{Code: c.Code, Host: c.HostToken}, Rand: rand.New(rand.NewPCG(seed, 7))}
	for i := range 10 {
		j, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: fmt.Sprintf("Player %d", i+1)})
		if err != nil {
			t.Fatal(err)
		}
		d.Seats.Players = append(d.Seats.Players, j.Token)
	}
	if _, err := svc.Act(ctx, c.Code, c.HostToken, rules.Action{ID: bot.ActionID(), Type: rules.ActStart}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Protocol(ctx, c.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBotGamesExport: real games of every preset with the site's deal,
// played by bots through the service, with the app and with a person
// moderating, export as games the site's checks pass with no issue, unless
// something the site has no words for happened in them (refusals). Each
// preset exports some of them.
func TestBotGamesExport(t *testing.T) {
	for _, preset := range []string{rules.PresetClassic, rules.PresetSport, rules.PresetParty, rules.PresetManiac} {
		t.Run(preset, func(t *testing.T) {
			exported := 0
			for _, moderator := range []string{rules.ModeratorApp, rules.ModeratorHost} {
				for seed := range uint64(4) {
					p := botGame(t, preset, moderator, seed)
					g, err := ratings.MafiaRatings(p)
					if u, ok := ratings.AsUnsupported(err); ok {
						if !slices.ContainsFunc(refusals[preset], func(r string) bool { return strings.Contains(u.Reason, r) }) {
							t.Errorf("%s seed %d: refused: %v", moderator, seed, err)
						}
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					mustPass(t, g)
					if preset == rules.PresetSport && len(g.Omitted) > 0 {
						t.Errorf("%s seed %d: sport left out %+v", moderator, seed, g.Omitted)
					}
					exported++
				}
			}
			t.Logf("%d of 8 exported", exported)
			if exported == 0 {
				t.Errorf("no %s game exported", preset)
			}
		})
	}
}
