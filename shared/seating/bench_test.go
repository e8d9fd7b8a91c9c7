package seating

import (
	"os"
	"testing"
)

// The evenings of the benchmarks: 40 players at 4 sport tables over 10 rounds, the one
// the package is tuned for, and 20 at 2 over 4.
var (
	sportEvening = Plan{Players: 40, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 10}
	smallEvening = Plan{Players: 20, Tables: 2, MinSeats: 10, MaxSeats: 10, Rounds: 4}
)

// The benchmarks report the Score of the draws (the mean over the seeds 1..b.N) and its
// parts, and that of Random with the same seeds. Measured on one core (-cpu=1) of a
// 2-core virtual machine (AMD, Go 1.26):
//
//	evening   budget                time      score  random   (seed 1; mean of seeds 1–20)
//	40×4×10   default, 1.6M steps   83 ms     728    4746     (719; 4836)
//	40×4×10   5 s, 100M steps       5.1 s     720
//	40×4×10   a minute, 1.2G steps  67 s      718
//	20×2×4    default, 0.5M steps   29 ms     157.9  841      (157.9; 810)
//	20×2×4    a minute, 1.2G steps  78 s      157.9
//
// Longer searches gain little: for 40×4×10 the pairs alone cannot score below 526.15
// (any two rounds of 4 tables of 10 share at least 32 pairs, so the sum of the squared
// meetings is at least 10×180 + 90×32), and the draws trade some of that for tables
// (about 600 pairs + 100 tables). For 20×2×4 the same bound, 157.89, is reached.

// BenchmarkDraw40x4x10 draws sportEvening with the default budget.
func BenchmarkDraw40x4x10(b *testing.B) {
	benchmarkDraw(b, sportEvening, 0)
}

// BenchmarkDraw20x2x4 is the small evening: 20 players at 2 sport tables over 4 rounds.
func BenchmarkDraw20x2x4(b *testing.B) {
	benchmarkDraw(b, smallEvening, 0)
}

// BenchmarkDraw35x4x8 is a classic evening with tables of different sizes (9, 9, 9, 8).
func BenchmarkDraw35x4x8(b *testing.B) {
	benchmarkDraw(b, Plan{Players: 35, Tables: 4, MinSeats: 5, MaxSeats: 20, Rounds: 8}, 0)
}

// BenchmarkDraw45x4x9 is an evening where five players sit out every round.
func BenchmarkDraw45x4x9(b *testing.B) {
	benchmarkDraw(b, Plan{Players: 45, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 9}, 0)
}

// minuteSteps is about a minute of the search for sportEvening on one core of this
// decade's machines; fiveSecondSteps about five seconds.
const (
	minuteSteps     = 1_200_000_000
	fiveSecondSteps = minuteSteps / 12
)

// BenchmarkDrawMinute runs the same search as Draw with a budget of about a minute
// (with SEATING_MINUTE=1) or, by default, five seconds (half a second with
// -short, make test's pass that only keeps it working), for the evenings of
// BenchmarkDraw40x4x10 and BenchmarkDraw20x2x4, so that its Score shows what the
// default budget leaves on the table. Run it with -benchtime=1x; the metric "steps"
// says which budget ran.
func BenchmarkDrawMinute(b *testing.B) {
	steps := fiveSecondSteps
	switch {
	case os.Getenv("SEATING_MINUTE") == "1":
		steps = minuteSteps
	case testing.Short():
		steps = fiveSecondSteps / 10
	}
	b.Run("40x4x10", func(b *testing.B) { benchmarkDraw(b, sportEvening, steps) })
	b.Run("20x2x4", func(b *testing.B) { benchmarkDraw(b, smallEvening, steps) })
}

func benchmarkDraw(b *testing.B, p Plan, steps int) {
	var drawn, random Score
	seeds := 0
	for b.Loop() {
		seeds++
		s, err := Draw(p, Options{Seed: uint64(seeds), Steps: steps})
		if err != nil {
			b.Fatal(err)
		}
		drawn = drawn.plus(s.Score())
	}
	for seed := range seeds {
		r, err := Random(p, uint64(seed+1))
		if err != nil {
			b.Fatal(err)
		}
		random = random.plus(r.Score())
	}
	k := float64(seeds)
	b.ReportMetric(drawn.Total()/k, "score")
	b.ReportMetric(drawn.Pairs/k, "pairs")
	b.ReportMetric(drawn.Seats/k, "seats")
	b.ReportMetric(drawn.Tables/k, "tables")
	b.ReportMetric(random.Total()/k, "random-score")
	if steps == 0 {
		steps = defaultSteps(p.Players, p.Rounds)
	}
	b.ReportMetric(float64(steps), "steps")
}

func (s Score) plus(t Score) Score {
	return Score{Pairs: s.Pairs + t.Pairs, Seats: s.Seats + t.Seats, Tables: s.Tables + t.Tables}
}
