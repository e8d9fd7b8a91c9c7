package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkApply measures one action in a 10-player game: a vote in a full vote.
func BenchmarkApply(b *testing.B) {
	g := sport10(b)
	g.quietNight()
	g.speeches(map[int]int{1: 5, 2: 6})
	s := g.s
	a := Action{Type: ActVote, Target: id(6)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(s, Actor{Player: id(3)}, a, g.now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkView measures one player's view in the middle of a 10-player game.
func BenchmarkView(b *testing.B) {
	g := sport10(b)
	g.quietNight()
	g.speeches(map[int]int{1: 5, 2: 6})
	g.vote(map[int]int{1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 6, 8: 6, 9: 6, 10: 6})
	g.lastWords()
	b.ReportAllocs()
	for b.Loop() {
		_ = ViewOf(g.s, Viewer{Player: id(2)}, g.now)
	}
}

// BenchmarkGame plays a whole random 10-player sport game with simple bots.
func BenchmarkGame(b *testing.B) {
	b.ReportAllocs()
	actions := 0
	for i := 0; b.Loop(); i++ {
		_, n := PlayRandom(b, PresetSport, 10, uint64(i))
		actions += n
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// PlayRandom plays a game to its end with bots that take a random legal action,
// the black team agreeing on one target; it returns the final state and the number
// of actions applied.
func PlayRandom(tb testing.TB, preset string, n int, seed uint64) (State, int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	o, _ := Preset(preset)
	s, _ := New("BENCH1", o, ModeratorApp, "en", t0)
	for i := range n {
		s, _, _ = Join(s, fmt.Sprintf("P%d", i), t0)
	}
	now := t0
	start := Action{Type: ActStart}
	start.Deal[0] = byte(seed)
	s, err := Apply(s, Actor{Host: true}, start, now)
	if err != nil {
		tb.Fatal(err)
	}
	count := 1
	for s.Phase.Name != PhaseGameOver {
		if count > 5000 {
			tb.Fatal("game did not end")
		}
		acted := false
		for _, p := range rng.Perm(len(s.Players)) {
			actor := Actor{Player: s.Players[p].ID}
			opts := Legal(s, actor)
			if len(opts) == 0 {
				continue
			}
			o := opts[rng.IntN(len(opts))]
			a := Action{Type: o.Type}
			if len(o.Targets) > 0 {
				a.Target = o.Targets[rng.IntN(len(o.Targets))]
				for _, c := range s.Choices {
					if o.Type == ActKill && c.Type == ActKill && slices.Contains(o.Targets, c.Target) {
						a.Target = c.Target
					}
				}
			}
			if o.Type == ActVoteAll {
				yes := rng.IntN(2) == 0
				a.Yes = &yes
			}
			if o.Type == ActTestament {
				a.Verdict = "mafia"
			}
			if s, err = Apply(s, actor, a, now); err != nil {
				tb.Fatalf("%s: %v", a.Type, err)
			}
			count++
			acted = true
			break
		}
		if !acted {
			now = now.Add(time.Minute)
			s = Advance(s, now)
		}
	}
	return s, count
}
