package seating

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// drawPlan draws a plan that Draw accepts: 1 to 5 tables of 3 to 12 seats (a range of
// up to four), as many players as fill them at their smallest up to ten more than at
// their largest, and 1 to 8 rounds.
func drawPlan(t *rapid.T) Plan {
	tables := rapid.IntRange(1, 5).Draw(t, "tables")
	lo := rapid.IntRange(3, 10).Draw(t, "min")
	hi := rapid.IntRange(lo, lo+4).Draw(t, "max")
	return Plan{
		Players:  rapid.IntRange(tables*lo, tables*hi+10).Draw(t, "players"),
		Tables:   tables,
		MinSeats: lo,
		MaxSeats: hi,
		Rounds:   rapid.IntRange(1, 8).Draw(t, "rounds"),
	}
}

func TestDrawProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := drawPlan(t)
		o := Options{Seed: rapid.Uint64().Draw(t, "seed"), Steps: rapid.IntRange(1, 20_000).Draw(t, "steps")}
		s := mustDraw(t, p, o)
		checkFair(t, s)
		games := s.Games()
		lo, hi := games[0], games[0]
		for _, g := range games {
			lo, hi = min(lo, g), max(hi, g)
		}
		if hi-lo > 1 {
			t.Fatalf("games range from %d to %d", lo, hi)
		}
		out := make([]int, p.Players) // turns at sitting out, after each round
		for ri, r := range s.Rounds {
			for _, q := range r.SitOut {
				out[q]++
			}
			lo, hi := out[0], out[0]
			for _, c := range out {
				lo, hi = min(lo, c), max(hi, c)
			}
			if hi-lo > 1 {
				t.Fatalf("after round %d some have sat out %d times, some %d", ri+1, hi, lo)
			}
		}
		if again := mustDraw(t, p, o); !reflect.DeepEqual(s, again) {
			t.Fatal("the same plan and options drew two evenings")
		}
		got := s.Score()
		if got.Pairs < 0 || got.Seats < 0 || got.Tables < 0 {
			t.Fatalf("negative score %+v", got)
		}
		r, err := Random(p, o.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if got.Total() > r.Score().Total() {
			t.Fatalf("drawn %+v, random %+v", got, r.Score())
		}
		checkEncoding(t, s)
	})
}

// TestChangeProperties applies a few random changes to a drawn evening: each keeps the
// rounds before it and every invariant.
func TestChangeProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := drawPlan(t)
		s := mustDraw(t, p, Options{Seed: rapid.Uint64().Draw(t, "seed"), Steps: 2000})
		for i := range rapid.IntRange(1, 6).Draw(t, "changes") {
			from := rapid.IntRange(0, len(s.Rounds)).Draw(t, "from")
			var next Schedule
			var err error
			switch rapid.IntRange(0, 3).Draw(t, "change") {
			case 0:
				a := rapid.IntRange(0, s.Players-1).Draw(t, "a")
				b := rapid.IntRange(0, s.Players-1).Draw(t, "b")
				if a == b {
					continue
				}
				next, err = s.Swap(a, b, from)
			case 1:
				next, err = s.Absent(rapid.IntRange(0, s.Players-1).Draw(t, "absent"), from)
				if err != nil && errorsIsTooFew(err) {
					continue // fewer players than one table holds: the evening stops
				}
			case 2:
				next, _, err = s.Late(from)
			case 3:
				var moved int
				next, moved, err = s.Improve(from, Options{Seed: uint64(i), Steps: 2000})
				if err == nil {
					if n := moves(s, next, from); n != moved {
						t.Fatalf("Improve says %d seats moved, %d did", moved, n)
					}
					if next.Score().Total() > s.Score().Total() {
						t.Fatalf("Improve made the score worse: %v from %v", next.Score().Total(), s.Score().Total())
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFair(t, next)
			checkKept(t, s, next, from)
			checkEncoding(t, next)
			s = next
		}
	})
}

func checkEncoding(t *rapid.T, s Schedule) {
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Schedule
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Fatalf("decoded %+v, want %+v", got, s)
	}
}

// TestUnmarshalNeverPanics: whatever bytes come from storage, UnmarshalBinary returns a
// valid schedule or an error.
func TestUnmarshalNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s Schedule
		b := rapid.SliceOfN(rapid.Byte(), 0, 64).Draw(t, "bytes")
		if rapid.Bool().Draw(t, "versioned") && len(b) > 0 {
			b[0] = encodingVersion
		}
		if s.UnmarshalBinary(b) == nil {
			if err := s.validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnmarshalMutated: a stored schedule with a byte changed decodes to a valid
// schedule or not at all.
func TestUnmarshalMutated(t *testing.T) {
	s := mustDraw(t, sportSitOut, Options{Seed: 1, Steps: 1000})
	good, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		b := append([]byte(nil), good...)
		for range rapid.IntRange(1, 3).Draw(t, "changes") {
			b[rapid.IntRange(0, len(b)-1).Draw(t, "at")] = rapid.Byte().Draw(t, "byte")
		}
		var got Schedule
		if got.UnmarshalBinary(b) == nil {
			if err := got.validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
