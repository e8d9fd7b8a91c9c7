package ratings_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
)

var t0 = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

var host = rules.Actor{Host: true}

// withSiteDeal is a preset's rules with mafiaratings' deal: ten players, six
// citizens, the Sheriff, two mafia and the Don; every other card off, and the
// options that need one.
func withSiteDeal(tb testing.TB, preset string) rules.Options {
	tb.Helper()
	o, err := rules.Preset(preset)
	if err != nil {
		tb.Fatal(err)
	}
	o.MinPlayers, o.MaxPlayers, o.Mafia = 10, 10, 3
	o.Don, o.Sheriff = true, true
	o.Doctor, o.Lover, o.Advocate, o.Cinderella, o.Maniac = false, false, false, false, false
	o.DoctorVictims, o.DoctorOncePerPlayer, o.DoctorNamesPatient, o.LoneManiacApart = false, false, false, false
	if err := o.Validate(); err != nil {
		tb.Fatalf("%s with the site's deal: %v", preset, err)
	}
	return o
}

// game is a game under way, every choice drawn by rapid.
type game struct {
	t   *rapid.T
	s   rules.State
	now time.Time
}

// newGame deals a game of ten to the rules o, the seats drawn from rapid's
// seed.
func newGame(t *rapid.T, o rules.Options, moderator string) *game {
	lobby, err := rules.New("RATING", o, moderator, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if lobby, _, err = rules.Join(lobby, fmt.Sprintf("Player %d", i+1), t0); err != nil {
			t.Fatal(err)
		}
	}
	start := rules.Action{Type: rules.ActStart}
	start.Deal[0], start.Deal[1] = rapid.Byte().Draw(t, "seed"), rapid.Byte().Draw(t, "seed2")
	g := &game{t: t, s: lobby, now: t0}
	g.apply(host, start)
	return g
}

func (g *game) apply(actor rules.Actor, a rules.Action) {
	n, err := rules.Apply(g.s, actor, a, g.now)
	if err != nil {
		g.t.Fatalf("%+v %s %s in %s (day %d, night %d): %v", actor, a.Type, a.Target, g.s.Phase.Name, g.s.Day, g.s.Night, err)
	}
	g.s = n
}

func (g *game) legal(actor rules.Actor, typ rules.ActionType) (rules.Option, bool) {
	opts := rules.Legal(g.s, actor)
	i := slices.IndexFunc(opts, func(o rules.Option) bool { return o.Type == typ })
	if i < 0 {
		return rules.Option{}, false
	}
	return opts[i], true
}

// play plays the game to its end: the players take random legal actions
// (the black players mostly agree on their shot), the clock runs on, and the
// host moves the game on, and warns and removes players now and then: during
// the speeches mostly, but at night and in the votes too.
func (g *game) play() protocol.Protocol {
	t := g.t
	for i := 0; g.s.Phase.Name != rules.PhaseGameOver; i++ {
		if i == 4000 {
			t.Fatalf("no winner after %d steps", i)
		}
		g.s = rules.Advance(g.s, g.now)
		var actors []rules.Actor
		for _, p := range g.s.Players {
			if len(rules.Legal(g.s, rules.Actor{Player: p.ID})) > 0 {
				actors = append(actors, rules.Actor{Player: p.ID})
			}
		}
		if len(actors) == 0 || rapid.IntRange(0, 15).Draw(t, "host") == 0 {
			g.hostTurn()
			continue
		}
		actor := rapid.SampledFrom(actors).Draw(t, "actor")
		o := rapid.SampledFrom(rules.Legal(g.s, actor)).Draw(t, "option")
		a := rules.Action{Type: o.Type}
		if len(o.Targets) > 0 {
			a.Target = rapid.SampledFrom(o.Targets).Draw(t, "target")
			for _, c := range g.s.Choices {
				if o.Type == rules.ActKill && slices.Contains(o.Targets, c.Target) && rapid.IntRange(0, 3).Draw(t, "follow") > 0 {
					a.Target = c.Target
				}
			}
		}
		switch o.Type {
		case rules.ActVote:
			if o.Abstain && rapid.IntRange(0, 4).Draw(t, "abstain") == 0 {
				a.Target = ""
			}
		case rules.ActVoteAll:
			yes := rapid.Bool().Draw(t, "yes")
			a.Yes = &yes
		case rules.ActTestament:
			a.Verdict = rapid.SampledFrom(o.Verdicts).Draw(t, "verdict")
		case rules.ActBestMove:
			a.Target = ""
			a.Targets = rapid.SliceOfNDistinct(rapid.SampledFrom(o.Targets), 1, min(o.Max, len(o.Targets)), rapid.ID).Draw(t, "named")
		}
		g.apply(actor, a)
	}
	return protocol.Of(g.s)
}

// hostTurn is the host's move, or the clock's.
func (g *game) hostTurn() {
	t := g.t
	speeches := g.s.Phase.Name == rules.PhaseDay && !g.s.Phase.Closing && g.s.Phase.Paused == 0
	odds := 6
	if speeches {
		odds = 1
	}
	switch rapid.IntRange(0, 9).Draw(t, "move") {
	case 0:
		if o, ok := g.legal(host, rules.ActWarn); ok && rapid.IntRange(0, odds-1).Draw(t, "now") == 0 {
			a := rules.Action{Type: rules.ActWarn, Target: rapid.SampledFrom(o.Targets).Draw(t, "warned")}
			if len(o.Fouls) > 0 && rapid.Bool().Draw(t, "named") {
				a.Foul = rapid.SampledFrom(o.Fouls).Draw(t, "foul")
			}
			g.apply(host, a)
			return
		}
	case 1:
		if o, ok := g.legal(host, rules.ActRemove); ok && rapid.IntRange(0, 4*odds-1).Draw(t, "remove") == 0 {
			a := rules.Action{Type: rules.ActRemove, Target: rapid.SampledFrom(o.Targets).Draw(t, "removed")}
			if len(o.Fouls) > 0 && rapid.Bool().Draw(t, "named") {
				a.Foul = rapid.SampledFrom(o.Fouls).Draw(t, "foul")
			}
			g.apply(host, a)
			return
		}
	}
	if g.s.Moderator == rules.ModeratorHost {
		g.apply(host, rules.Action{Type: rules.ActAdvance, Now: true})
		return
	}
	g.now = g.now.Add(time.Duration(rapid.IntRange(1, 40).Draw(t, "seconds")) * time.Second)
}

// failer is what export needs of a test: *testing.T and *rapid.T.
type failer interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// export converts p and runs the site's checks over the JSON: it fails on a
// refusal or an issue, and returns the game.
func export(tb failer, p protocol.Protocol, opts ...ratings.Option) ratings.Game {
	tb.Helper()
	g, err := ratings.MafiaRatings(p, opts...)
	if err != nil {
		tb.Fatalf("game %s (%s): %v", p.Code, p.Rules.Preset, err)
	}
	mustPass(tb, g)
	return g
}

// mustPass fails unless the site's checks pass g with no issue.
func mustPass(tb failer, g ratings.Game) {
	tb.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		tb.Fatal(err)
	}
	issues, err := validate(data)
	if err != nil || len(issues) > 0 {
		tb.Fatalf("the site's checks: %v, issues %q\n%s", err, issues, data)
	}
}
