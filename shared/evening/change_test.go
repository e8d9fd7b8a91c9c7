package evening_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// seatings returns who sits where in every round of a drawn evening.
func seatings(tb testing.TB, s evening.State) [][][]string {
	tb.Helper()
	out := make([][][]string, s.Rounds)
	for r := range out {
		out[r] = must[[][]string](tb)(evening.Seated(s, r))
	}
	return out
}

// playedRound1 is a drawn evening of 2 sport tables over 3 rounds with round 1
// started and table 2's game recorded: what a change must leave as it is.
func playedRound1(tb testing.TB, players int) evening.State {
	tb.Helper()
	s := must[evening.State](tb)(evening.Draw(mustNew(tb, 2, 3, players)))
	s = must[evening.State](tb)(evening.StartRound(s, 0, []string{"GAME1A", "GAME1B"}))
	return must[evening.State](tb)(record(s, "GAME1B"))
}

// record records the game code, scored by result.
func record(s evening.State, code string) (evening.State, error) {
	s, _, err := evening.Record(s, result(code, 10))
	return s, err
}

// unchangedBefore fails tb unless after keeps before's rounds up to round
// (from 0, excluded), its games and its recorded results, so its standings.
func unchangedBefore(tb testing.TB, before, after evening.State, round int) {
	tb.Helper()
	if got, was := seatings(tb, after)[:round], seatings(tb, before)[:round]; !reflect.DeepEqual(got, was) {
		tb.Errorf("rounds started changed: %v, were %v", got, was)
	}
	if !reflect.DeepEqual(after.Played, before.Played) || !reflect.DeepEqual(after.Results, before.Results) {
		tb.Errorf("games or results changed: %v %v, were %v %v", after.Played, after.Results, before.Played, before.Results)
	}
	standings := func(s evening.State) []scoring.Standing {
		return must[evening.View](tb)(evening.ViewOf(s, evening.Public)).Standings
	}
	if got, was := standings(after), standings(before); !reflect.DeepEqual(got, was) {
		tb.Errorf("standings changed: %+v, were %+v", got, was)
	}
}

// seatedIn returns the rounds (from 0) in which id sits at a table.
func seatedIn(tb testing.TB, s evening.State, id string) []int {
	tb.Helper()
	var out []int
	for r, tables := range seatings(tb, s) {
		for _, table := range tables {
			if slices.Contains(table, id) {
				out = append(out, r)
			}
		}
	}
	return out
}

func TestChangesBeforeTheDraw(t *testing.T) {
	s := mustNew(t, 2, 3, 21)
	if _, err := evening.Swap(s, "p1", "p2"); !errors.Is(err, evening.ErrNotDrawn) {
		t.Errorf("a swap before the draw: %v, want not_drawn", err)
	}
	s, id, err := evening.Late(s, "Zoe")
	if err != nil || id != "p22" || s.Players[21].Joined || s.Drawn() {
		t.Fatalf("Zoe comes late: %q, %+v, %v; want p22 on the roster, not taken by a phone", id, s.Players[21], err)
	}
	if _, _, err := evening.Late(s, "Player 3"); !errors.Is(err, evening.ErrNameTaken) {
		t.Errorf("a late name already on the roster: %v, want name_taken", err)
	}
	s = must[evening.State](t)(evening.Absent(s, "p4"))
	if !s.Players[3].Absent || len(s.Players) != 22 || s.Players[4].ID != "p5" {
		t.Fatalf("p4 absent: %+v; want the name marked, and no id moved", s.Players[3:5])
	}
	if _, _, err := evening.Join(s, "Player 4"); !errors.Is(err, evening.ErrAbsent) {
		t.Errorf("a phone takes an absent name: %v, want player_absent", err)
	}
	if _, id, err := evening.Join(s, "Zoe"); err != nil || id != "p22" {
		t.Errorf("a phone takes Zoe: %q, %v", id, err)
	}

	s = must[evening.State](t)(evening.Draw(s))
	if got := seatedIn(t, s, "p4"); len(got) != 0 {
		t.Errorf("p4, absent before the draw, plays rounds %v", got)
	}
	if got := seatedIn(t, s, "p22"); len(got) != 3 {
		t.Errorf("Zoe plays rounds %v, want all 3 (21 present at 20 seats, each sits out once at most)", got)
	}
	v := must[evening.View](t)(evening.ViewOf(s, evening.Public))
	for _, r := range v.Rounds {
		if len(r.SitOut) != 1 || slices.Contains(r.SitOut, "p4") {
			t.Errorf("round %d sits out %v: want one of the 21 present", r.Round, r.SitOut)
		}
	}
	if q := v.Quality; q == nil || q.Score > q.Random {
		t.Errorf("quality %+v: scored as if p4 played, or worse than by lot", q)
	}
}

func TestSwap(t *testing.T) {
	before := playedRound1(t, 20) // everyone plays every round: a swap is an exchange
	was := seatings(t, before)
	a, b := was[1][0][0], was[1][1][9]
	after := must[evening.State](t)(evening.Swap(before, a, b))
	unchangedBefore(t, before, after, 1)
	got := seatings(t, after)
	for r := 1; r < 3; r++ {
		for ti, table := range was[r] {
			for k, p := range table {
				want := p
				switch p {
				case a:
					want = b
				case b:
					want = a
				}
				if got[r][ti][k] != want {
					t.Errorf("round %d table %d seat %d: %s, want %s", r+1, ti+1, k+1, got[r][ti][k], want)
				}
			}
		}
	}
	if reflect.DeepEqual(must[evening.View](t)(evening.ViewOf(after, evening.Public)).Rounds,
		must[evening.View](t)(evening.ViewOf(before, evening.Public)).Rounds) {
		t.Error("the view shows the seating before the swap")
	}
}

func TestAbsent(t *testing.T) {
	before := playedRound1(t, 21)
	id := seatings(t, before)[0][0][3] // plays round 1
	after := must[evening.State](t)(evening.Absent(before, id))
	unchangedBefore(t, before, after, 1)
	if got := seatedIn(t, after, id); !slices.Equal(got, []int{0}) {
		t.Errorf("%s, absent after round 1, plays rounds %v; want round 1 only", id, got)
	}
	v := must[evening.View](t)(evening.ViewOf(after, evening.Public))
	for _, r := range v.Rounds[1:] {
		if len(r.SitOut) != 0 || len(r.Tables[0].Players)+len(r.Tables[1].Players) != 20 {
			t.Errorf("round %d: %+v; want the 20 left all seated", r.Round, r)
		}
	}
	if !v.Players[slices.IndexFunc(v.Players, func(p evening.Player) bool { return p.ID == id })].Absent {
		t.Errorf("the view does not show %s absent", id)
	}
}

func TestLate(t *testing.T) {
	before := playedRound1(t, 20)
	after, id, err := evening.Late(before, "Zoe")
	if err != nil || id != "p21" || after.Players[20].Joined {
		t.Fatalf("Zoe late after round 1: %q, %v", id, err)
	}
	unchangedBefore(t, before, after, 1)
	if got := seatedIn(t, after, id); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("Zoe plays rounds %v, want 2 and 3", got)
	}
	taken, got, err := evening.Join(after, "Zoe")
	if err != nil || got != id || !taken.Players[20].Joined || !slices.Equal(taken.Schedule, after.Schedule) {
		t.Errorf("a phone takes Zoe: %q, %v; want %s, seated as she was", got, err, id)
	}
}

// TestChangeRefusals: every refused change leaves the evening as it was.
func TestChangeRefusals(t *testing.T) {
	s := playedRound1(t, 21)
	s = must[evening.State](t)(evening.Absent(s, "p9"))
	over := s
	for r, codes := range [][]string{{"GAME1A"}, {"GAME2A", "GAME2B"}, {"GAME3A", "GAME3B"}} {
		if r > 0 {
			over = must[evening.State](t)(evening.StartRound(over, r, codes))
		}
		if r < 2 {
			for _, code := range codes {
				over = must[evening.State](t)(record(over, code))
			}
		}
	}
	for _, tc := range []struct {
		name   string
		s      evening.State
		change func(evening.State) (evening.State, error)
		want   *rules.Error
	}{
		{"swap with no such player", s, func(s evening.State) (evening.State, error) { return evening.Swap(s, "p1", "p99") }, rules.ErrBadTarget},
		{"swap with no id", s, func(s evening.State) (evening.State, error) { return evening.Swap(s, "", "p1") }, rules.ErrBadTarget},
		{"swap a name, not an id", s, func(s evening.State) (evening.State, error) { return evening.Swap(s, "Player 1", "p2") }, rules.ErrBadTarget},
		{"swap a player with themselves", s, func(s evening.State) (evening.State, error) { return evening.Swap(s, "p3", "p3") }, rules.ErrBadTarget},
		{"swap an absent player", s, func(s evening.State) (evening.State, error) { return evening.Swap(s, "p9", "p3") }, evening.ErrAbsent},
		{"absent twice", s, func(s evening.State) (evening.State, error) { return evening.Absent(s, "p9") }, evening.ErrAbsent},
		{"absent, no such player", s, func(s evening.State) (evening.State, error) { return evening.Absent(s, "p0") }, rules.ErrBadTarget},
		{"late, a name on the roster", s, func(s evening.State) (evening.State, error) {
			s, _, err := evening.Late(s, "Player 2")
			return s, err
		}, evening.ErrNameTaken},
		{"swap, every round started", over, func(s evening.State) (evening.State, error) { return evening.Swap(s, "p1", "p2") }, evening.ErrEveningOver},
		{"absent, every round started", over, func(s evening.State) (evening.State, error) { return evening.Absent(s, "p1") }, evening.ErrEveningOver},
		{"late, every round started", over, func(s evening.State) (evening.State, error) {
			s, _, err := evening.Late(s, "Zoe")
			return s, err
		}, evening.ErrEveningOver},
	} {
		got, err := tc.change(tc.s)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want.Code)
		}
		if !reflect.DeepEqual(got, tc.s) {
			t.Errorf("%s: the refusal changed the evening", tc.name)
		}
	}
}

// TestEveningTake: a place moved to another phone (Take) is a present
// player's: a name typed in counts as taken by a phone from then on, one a
// phone took stays as it was, and no player or one who left is refused, the
// evening unchanged. Here checks the same.
func TestEveningTake(t *testing.T) {
	s := mustNew(t, 1, 2, 10)
	s = must[evening.State](t)(evening.Absent(s, "p2"))
	joined, id, err := evening.Join(s, s.Name("p3"))
	if err != nil || id != "p3" {
		t.Fatalf("join p3: %s, %v", id, err)
	}
	if again := must[evening.State](t)(evening.Take(joined, "p3")); !reflect.DeepEqual(again, joined) {
		t.Errorf("a place a phone took changed when it moved")
	}
	typed := must[evening.State](t)(evening.Take(joined, "p4"))
	if !typed.Players[3].Joined || joined.Players[3].Joined {
		t.Errorf("p4 after the move %+v, before %+v: want taken after, and the state before untouched", typed.Players[3], joined.Players[3])
	}
	if _, _, err := evening.Join(typed, typed.Name("p4")); !errors.Is(err, evening.ErrNameTaken) {
		t.Errorf("a phone takes a moved name by name: %v", err)
	}
	for id, want := range map[string]error{"p2": evening.ErrAbsent, "p42": rules.ErrBadTarget, "": rules.ErrBadTarget} {
		if got, err := evening.Take(joined, id); !errors.Is(err, want) || !reflect.DeepEqual(got, joined) {
			t.Errorf("take %q: %v, want %v and nothing changed", id, err, want)
		}
		if err := joined.Here(id); !errors.Is(err, want) {
			t.Errorf("here %q: %v, want %v", id, err, want)
		}
	}
	if err := joined.Here("p1"); err != nil {
		t.Errorf("p1 here: %v", err)
	}
}
