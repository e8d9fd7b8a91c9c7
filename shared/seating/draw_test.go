package seating

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestDraw(t *testing.T) {
	plans := []Plan{
		{Players: 40, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 10},
		{Players: 45, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 9}, // 5 sit out, each once
		{Players: 43, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 7}, // 3 sit out; games 6 or 7
		{Players: 35, Tables: 4, MinSeats: 5, MaxSeats: 20, Rounds: 8},  // 9, 9, 9, 8
		{Players: 20, Tables: 2, MinSeats: 10, MaxSeats: 10, Rounds: 4},
		{Players: 12, Tables: 1, MinSeats: 10, MaxSeats: 10, Rounds: 6},
		{Players: 10, Tables: 1, MinSeats: 10, MaxSeats: 10, Rounds: 1},
	}
	for _, p := range plans {
		o := Options{Seed: 7, Steps: 200_000}
		s := mustDraw(t, p, o)
		checkFair(t, s)
		if s.Players != p.Players || len(s.Rounds) != p.Rounds || s.Tables() != p.Tables {
			t.Fatalf("%+v: drew %d players, %d rounds, %d tables", p, s.Players, len(s.Rounds), s.Tables())
		}
		if games := s.Games(); slices.Max(games)-slices.Min(games) > 1 {
			t.Errorf("%+v: games %v", p, games)
		}
		// Turns at sitting out: after every round the counts differ by at most one.
		out := make([]int, p.Players)
		for ri, r := range s.Rounds {
			for _, q := range r.SitOut {
				out[q]++
			}
			if slices.Max(out)-slices.Min(out) > 1 {
				t.Errorf("%+v: after round %d players have sat out %v times", p, ri+1, out)
			}
		}
		if again := mustDraw(t, p, o); !reflect.DeepEqual(s, again) {
			t.Errorf("%+v: two draws with one seed differ", p)
		}
		r, err := Random(p, o.Seed)
		if err != nil {
			t.Fatal(err)
		}
		checkFair(t, r)
		if s.Score().Total() > r.Score().Total() {
			t.Errorf("%+v: drawn %+v, worse than random %+v", p, s.Score(), r.Score())
		}
	}
}

func TestDrawEveryonePlays(t *testing.T) {
	s := mustDraw(t, Plan{Players: 35, Tables: 4, MinSeats: 5, MaxSeats: 20, Rounds: 3}, Options{Seed: 1, Steps: 10_000})
	for ri, r := range s.Rounds {
		var sizes []int
		for _, table := range r.Tables {
			sizes = append(sizes, len(table))
		}
		if !slices.Equal(sizes, []int{9, 9, 9, 8}) || r.SitOut != nil {
			t.Errorf("round %d: tables of %v, %v sit out", ri+1, sizes, r.SitOut)
		}
	}
}

func TestDrawSeeds(t *testing.T) {
	a := mustDraw(t, sportEvening, Options{Seed: 1, Steps: 10_000})
	b := mustDraw(t, sportEvening, Options{Seed: 2, Steps: 10_000})
	if reflect.DeepEqual(a, b) {
		t.Error("two seeds drew the same evening")
	}
}

// TestDrawDefault draws the benchmark's evening with the default budget: the draw
// scores a fraction of a random seating.
func TestDrawDefault(t *testing.T) {
	s := mustDraw(t, sportEvening, Options{Seed: 1})
	r, _ := Random(sportEvening, 1)
	if got, random := s.Score().Total(), r.Score().Total(); got > random/4 {
		t.Errorf("default draw scores %v, random %v", got, random)
	}
}

func TestDrawRefuses(t *testing.T) {
	tests := []struct {
		plan Plan
		err  error
	}{
		{Plan{Players: 30, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 10}, ErrTooFewPlayers},
		{Plan{Players: 40, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 0}, ErrInvalid},
		{Plan{Players: 40, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: RoundLimit + 1}, ErrInvalid},
		{Plan{Players: 40, Tables: 0, MinSeats: 10, MaxSeats: 10, Rounds: 10}, ErrInvalid},
		{Plan{Players: 40, Tables: 4, MinSeats: 10, MaxSeats: 9, Rounds: 10}, ErrInvalid},
	}
	for _, tt := range tests {
		if _, err := Draw(tt.plan, Options{}); !errors.Is(err, tt.err) {
			t.Errorf("Draw(%+v): %v, want %v", tt.plan, err, tt.err)
		}
		if _, err := Random(tt.plan, 0); !errors.Is(err, tt.err) {
			t.Errorf("Random(%+v): %v, want %v", tt.plan, err, tt.err)
		}
	}
}

func TestPlace(t *testing.T) {
	s := mustDraw(t, Plan{Players: 12, Tables: 1, MinSeats: 10, MaxSeats: 10, Rounds: 2}, Options{Seed: 3, Steps: 1000})
	for ri, r := range s.Rounds {
		for k, p := range r.Tables[0] {
			if got := s.Place(ri, p); got != (Place{Table: 1, Seat: k + 1}) {
				t.Errorf("round %d, player %d: %+v, want seat %d", ri, p, got, k+1)
			}
		}
		for _, p := range r.SitOut {
			if got := s.Place(ri, p); got != (Place{SitsOut: true}) {
				t.Errorf("round %d, player %d: %+v, want sits out", ri, p, got)
			}
		}
	}
	if got := s.Place(2, 0); got != (Place{}) {
		t.Errorf("round out of range: %+v", got)
	}
}
