package seating

import (
	"errors"
	"slices"
)

// tester is what the helpers need of a *testing.T or a *rapid.T.
type tester interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func mustDraw(tb tester, p Plan, o Options) Schedule {
	tb.Helper()
	s, err := Draw(p, o)
	if err != nil {
		tb.Fatalf("Draw(%+v): %v", p, err)
	}
	return s
}

// alwaysHere returns the players present (seated or sitting out) in every round.
func alwaysHere(s Schedule) []int {
	count := make([]int, s.Players)
	for _, r := range s.Rounds {
		for _, table := range r.Tables {
			for _, p := range table {
				count[p]++
			}
		}
		for _, p := range r.SitOut {
			count[p]++
		}
	}
	var here []int
	for p, c := range count {
		if c == len(s.Rounds) {
			here = append(here, p)
		}
	}
	return here
}

// checkFair fails t unless s is valid, in every round nobody who has played more games
// so far plays while someone who has played fewer sits out, and the players present all
// evening play the same number of games give or take one.
func checkFair(t tester, s Schedule) {
	t.Helper()
	if err := s.validate(); err != nil {
		t.Fatal(err)
	}
	games := make([]int, s.Players)
	for ri, r := range s.Rounds {
		most := -1
		for _, table := range r.Tables {
			for _, p := range table {
				most = max(most, games[p])
			}
		}
		for _, p := range r.SitOut {
			if games[p] < most {
				t.Fatalf("round %d: player %d sits out with %d games while someone with %d plays", ri+1, p, games[p], most)
			}
		}
		for _, table := range r.Tables {
			for _, p := range table {
				games[p]++
			}
		}
	}
	here := alwaysHere(s)
	if len(here) == 0 {
		return
	}
	var counts []int
	for _, p := range here {
		counts = append(counts, games[p])
	}
	if lo, hi := slices.Min(counts), slices.Max(counts); hi-lo > 1 {
		t.Fatalf("games of the players present all evening range from %d to %d", lo, hi)
	}
}

// checkKept fails t unless the rounds of after before from are those of before.
func checkKept(t tester, before, after Schedule, from int) {
	t.Helper()
	for ri := range from {
		b, a := before.Rounds[ri], after.Rounds[ri]
		if !slices.EqualFunc(b.Tables, a.Tables, slices.Equal) || !slices.Equal(b.SitOut, a.SitOut) {
			t.Fatalf("round %d changed, though the change was from round %d", ri+1, from+1)
		}
	}
}

// moves counts the players, once for each round from from on, whose place in after is
// not their place in before.
func moves(before, after Schedule, from int) int {
	n := 0
	for ri := from; ri < len(after.Rounds); ri++ {
		for p := range max(before.Players, after.Players) {
			if before.Place(ri, p) != after.Place(ri, p) {
				n++
			}
		}
	}
	return n
}

func errorsIsTooFew(err error) bool { return errors.Is(err, ErrTooFewPlayers) }
