package seating

import (
	"math"
	"testing"
)

// sameRounds returns a schedule of rounds equal rounds, each seating players
// 0..tables*seats-1 at tables tables of seats seats in order.
func sameRounds(tables, seats, rounds int) Schedule {
	s := Schedule{Players: tables * seats, MinSeats: seats, MaxSeats: seats}
	for range rounds {
		r := Round{Tables: make([][]int, tables)}
		for t := range r.Tables {
			for k := range seats {
				r.Tables[t] = append(r.Tables[t], t*seats+k)
			}
		}
		s.Rounds = append(s.Rounds, r)
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScorePerfect(t *testing.T) {
	// One game of ten: every pair meets once, the mean; every deviation of seats is
	// below 1 (0.9 at the seat taken, 0.1 elsewhere), so include/seating.php calls it
	// perfect.
	if got := sameRounds(1, 10, 1).Score(); got != (Score{}) {
		t.Errorf("one game of ten: %+v, want 0", got)
	}
	// Three games of ten at once: the same for tables (2/3 and 1/3).
	if got := sameRounds(3, 10, 1).Score(); got.Tables != 0 || got.Seats != 0 {
		t.Errorf("one round of three tables: %+v, want seats and tables 0", got)
	}
	// The affine plane of order 3: nine players at three tables of three over four
	// rounds, every pair together exactly once.
	plane := Schedule{Players: 9, MinSeats: 3, MaxSeats: 3}
	for slope := range 4 {
		r := Round{Tables: make([][]int, 3)}
		for x := range 3 {
			for y := range 3 {
				line := x // slope 3 stands for the vertical lines
				if slope < 3 {
					line = (y - slope*x + 9) % 3
				}
				r.Tables[line] = append(r.Tables[line], 3*x+y)
			}
		}
		plane.Rounds = append(plane.Rounds, r)
	}
	if err := plane.validate(); err != nil {
		t.Fatal(err)
	}
	if got := plane.Score().Pairs; got != 0 {
		t.Errorf("affine plane: pairs %v, want 0", got)
	}
}

func TestScoreByHand(t *testing.T) {
	// Ten players in the same seats twice. Pairs: all meet twice, the mean: 0. Seats:
	// every player has 2 games in one seat where 0.2 are expected and 0 in nine:
	// singles 4 × (w × 1.8² + (16 − w) × 0.2²) = 12.8w + 2.56 (the weights add up to
	// 4+3+2+7 = 16), pairs of seats 2 × (1.6² + 4 × 0.4²) = 6.4, halves 1² + 1² = 2;
	// over the ten seats 12.8 × 16 + 10 × 10.96 = 314.4. One table: tables 0.
	if got := sameRounds(1, 10, 2).Score(); !near(got.Pairs, 0) || !near(got.Seats, 314.4) || got.Tables != 0 {
		t.Errorf("ten players twice: %+v, want seats 314.4", got)
	}
	// Thirty players at three tables, twice the same. Pairs: 135 pairs meet twice and
	// 300 never, 270 meetings over 435 pairs: 135×2² − 270²/435. Seats: three times the
	// above. Tables: everyone twice at one table where 2/3 are expected and never at
	// the other two: (4/3)² + 2 × (2/3)² = 8/3, times 30 = 80.
	got := sameRounds(3, 10, 2).Score()
	want := Score{Pairs: 540 - 270.0*270/435, Seats: 3 * 314.4, Tables: 80}
	if !near(got.Pairs, want.Pairs) || !near(got.Seats, want.Seats) || !near(got.Tables, want.Tables) {
		t.Errorf("thirty players twice: %+v, want %+v", got, want)
	}
	if !near(got.Total(), want.Pairs+want.Seats+want.Tables) {
		t.Errorf("Total %v", got.Total())
	}
}

func TestScoreOfNothing(t *testing.T) {
	if got := (Schedule{}).Score(); got != (Score{}) {
		t.Errorf("empty schedule: %+v", got)
	}
}
