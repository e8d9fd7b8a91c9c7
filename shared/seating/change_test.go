package seating

import (
	"errors"
	"testing"
)

var (
	sportSitOut = Plan{Players: 45, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 9}
	classic40   = Plan{Players: 40, Tables: 4, MinSeats: 5, MaxSeats: 20, Rounds: 6}
)

func TestSwap(t *testing.T) {
	s := mustDraw(t, sportEvening, Options{Seed: 1, Steps: 50_000})
	const a, b, from = 3, 17, 4
	got, err := s.Swap(a, b, from)
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	for ri := from; ri < len(s.Rounds); ri++ {
		for p := range s.Players {
			want := s.Place(ri, p)
			switch p {
			case a:
				want = s.Place(ri, b)
			case b:
				want = s.Place(ri, a)
			}
			if got := got.Place(ri, p); got != want {
				t.Errorf("round %d, player %d: %+v, want %+v", ri+1, p, got, want)
			}
		}
	}
}

// TestSwapTurns swaps a player who has sat out with one who has not yet: taking the
// other's turns as they are would give one of them two turns and the other none, so
// the turns are put right, and the games stay even.
func TestSwapTurns(t *testing.T) {
	s := mustDraw(t, sportSitOut, Options{Seed: 2, Steps: 50_000})
	const from = 3
	a, b := s.Rounds[0].SitOut[0], s.Rounds[from+1].SitOut[0]
	got, err := s.Swap(a, b, from)
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	if games := got.Games(); games[a] != 8 || games[b] != 8 {
		t.Errorf("games after the swap: %d and %d, want 8 each", games[a], games[b])
	}
}

// TestAbsentSitOutTakesSeat: with players sitting out, one of them takes each seat the
// absent player leaves, and nobody else moves.
func TestAbsentSitOutTakesSeat(t *testing.T) {
	s := mustDraw(t, sportSitOut, Options{Seed: 3, Steps: 50_000})
	const p, from = 11, 3
	got, err := s.Absent(p, from)
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	want := 0
	for ri := from; ri < len(s.Rounds); ri++ {
		if got.Place(ri, p) != (Place{}) {
			t.Errorf("round %d: the absent player is at %+v", ri+1, got.Place(ri, p))
		}
		if s.Place(ri, p).SitsOut {
			want++ // only p changes
		} else {
			want += 2 // p, and who takes p's seat
			filler := got.Rounds[ri].Tables[s.Place(ri, p).Table-1][s.Place(ri, p).Seat-1]
			if !s.Place(ri, filler).SitsOut {
				t.Errorf("round %d: p's seat went to %d, who was to play", ri+1, filler)
			}
		}
	}
	if n := moves(s, got, from); n != want {
		t.Errorf("%d places changed, want %d", n, want)
	}
}

// TestAbsentShrinksTable: when everyone plays and the rules allow a game of nine, the
// absent player's table plays with nine, the player in its last seat taking the empty
// one.
func TestAbsentShrinksTable(t *testing.T) {
	s := mustDraw(t, classic40, Options{Seed: 4, Steps: 50_000})
	const p, from = 5, 2
	got, err := s.Absent(p, from)
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	want := 0
	for ri := from; ri < len(s.Rounds); ri++ {
		was := s.Place(ri, p)
		for t2, table := range got.Rounds[ri].Tables {
			size := 10
			if t2 == was.Table-1 {
				size = 9
			}
			if len(table) != size {
				t.Errorf("round %d: table %d has %d seats, want %d", ri+1, t2+1, len(table), size)
			}
		}
		want++
		if was.Seat != 10 {
			want++
			last := s.Rounds[ri].Tables[was.Table-1][9]
			if got.Place(ri, last) != was {
				t.Errorf("round %d: the last seat's player is at %+v, want %+v", ri+1, got.Place(ri, last), was)
			}
		}
	}
	if n := moves(s, got, from); n != want {
		t.Errorf("%d places changed, want %d", n, want)
	}
}

// TestAbsentClosesTable: 39 players cannot fill four sport tables; three play and nine
// sit out in turn.
func TestAbsentClosesTable(t *testing.T) {
	s := mustDraw(t, sportEvening, Options{Seed: 5, Steps: 50_000})
	const from = 6
	got, err := s.Absent(0, from)
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	for ri := from; ri < len(s.Rounds); ri++ {
		r := got.Rounds[ri]
		open := 0
		for _, table := range r.Tables {
			if len(table) > 0 {
				open++
			}
		}
		if open != 3 || len(r.SitOut) != 9 {
			t.Errorf("round %d: %d tables open, %d sit out", ri+1, open, len(r.SitOut))
		}
	}
	// Two more gone, and the evening cannot go on at all with fewer than ten.
	few := s
	for p := range 31 {
		var err error
		if few, err = few.Absent(p, from); err != nil {
			if !errors.Is(err, ErrTooFewPlayers) || p != 30 {
				t.Fatalf("absent %d: %v", p, err)
			}
		}
	}
}

// TestLateSportTable: a 41st player at sport tables plays every round from arriving,
// and in each of those rounds one other player sits out, a different one each time.
func TestLateSportTable(t *testing.T) {
	s := mustDraw(t, sportEvening, Options{Seed: 6, Steps: 50_000})
	const from = 5
	got, late, err := s.Late(from)
	if err != nil {
		t.Fatal(err)
	}
	if late != 40 || got.Players != 41 {
		t.Fatalf("late player %d of %d", late, got.Players)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	seen := map[int]bool{}
	for ri := range got.Rounds {
		place := got.Place(ri, late)
		if ri < from {
			if place != (Place{}) {
				t.Errorf("round %d: the late player is at %+v before arriving", ri+1, place)
			}
			continue
		}
		if place.Table == 0 {
			t.Errorf("round %d: the late player does not play", ri+1)
		}
		out := got.Rounds[ri].SitOut
		if len(out) != 1 || seen[out[0]] {
			t.Errorf("round %d: %v sit out", ri+1, out)
		} else {
			seen[out[0]] = true
			if s.Place(ri, out[0]) != place {
				t.Errorf("round %d: the late player took %+v, not the seat of %d", ri+1, place, out[0])
			}
		}
	}
	if n := moves(s, got, from); n != 2*(len(s.Rounds)-from) {
		t.Errorf("%d places changed, want 2 a round", n)
	}
}

// TestLateGrowsTable: where the rules allow eleven at a table, the late player gets a
// new seat and nobody moves.
func TestLateGrowsTable(t *testing.T) {
	s := mustDraw(t, classic40, Options{Seed: 7, Steps: 50_000})
	const from = 3
	got, late, err := s.Late(from)
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, s, got, from)
	for ri := from; ri < len(s.Rounds); ri++ {
		if place := got.Place(ri, late); place.Seat != 11 || got.Rounds[ri].SitOut != nil {
			t.Errorf("round %d: the late player is at %+v", ri+1, place)
		}
	}
	if n := moves(s, got, from); n != len(s.Rounds)-from {
		t.Errorf("%d places changed, want only the late player's", n)
	}
}

func TestImprove(t *testing.T) {
	s := mustDraw(t, classic40, Options{Seed: 8, Steps: 50_000})
	const from = 2
	changed, err := s.Absent(9, from)
	if err != nil {
		t.Fatal(err)
	}
	changed, _, err = changed.Late(from)
	if err != nil {
		t.Fatal(err)
	}
	got, moved, err := changed.Improve(from, Options{Seed: 1, Steps: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	checkFair(t, got)
	checkKept(t, changed, got, from)
	if n := moves(changed, got, from); n != moved {
		t.Errorf("Improve says %d seats moved, %d did", moved, n)
	}
	if moved == 0 || got.Score().Total() >= changed.Score().Total() {
		t.Errorf("Improve moved %d seats, score %v from %v", moved, got.Score().Total(), changed.Score().Total())
	}
	// A drawn evening is hard to improve by better swaps alone; whatever Improve
	// returns is no worse.
	again, moved, err := got.Improve(from, Options{Seed: 2, Steps: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	if again.Score().Total() > got.Score().Total() || moves(got, again, from) != moved {
		t.Errorf("second Improve: score %v from %v, moved %d", again.Score().Total(), got.Score().Total(), moved)
	}
}

func TestChangesRefuse(t *testing.T) {
	s := mustDraw(t, sportEvening, Options{Seed: 1, Steps: 1000})
	if _, err := s.Swap(1, 1, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("swap a player with himself: %v", err)
	}
	if _, err := s.Swap(1, 40, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("swap with no such player: %v", err)
	}
	if _, err := s.Absent(-1, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("absent: no such player: %v", err)
	}
	if _, _, err := s.Late(11); !errors.Is(err, ErrInvalid) {
		t.Errorf("late after the evening: %v", err)
	}
	if _, _, err := s.Improve(-1, Options{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("improve from round -1: %v", err)
	}
	broken := s.clone()
	broken.Rounds[0].Tables[0][0] = broken.Rounds[0].Tables[1][0]
	if _, err := broken.Absent(1, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("a player seated twice: %v", err)
	}
}

// TestChangesLeaveTheOriginal: a change returns a new schedule and the old one stays
// as it was.
func TestChangesLeaveTheOriginal(t *testing.T) {
	s := mustDraw(t, sportSitOut, Options{Seed: 9, Steps: 1000})
	keep, _ := s.MarshalBinary()
	s.Swap(1, 2, 0)
	s.Absent(3, 0)
	s.Late(0)
	s.Improve(0, Options{Steps: 1000})
	if now, _ := s.MarshalBinary(); string(now) != string(keep) {
		t.Error("a change altered the schedule it was given")
	}
}
