package evening_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// scored is result with FIIM's auto-bonus on every seat, as scoring.Game
// gives a game scored without extras: the base an extra is added to.
func scored(code string) scoring.Result {
	r := result(code, 10)
	for i := range r.Seats {
		r.Seats[i].Points.AutoBonus = 30
		r.Seats[i].Points.Total += 30
	}
	return r
}

// recordScored records the game code, scored by scored.
func recordScored(tb testing.TB, s evening.State, code string) evening.State {
	tb.Helper()
	s, _, err := evening.Record(s, scored(code))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// totals are the standings' points by player.
func totals(tb testing.TB, s evening.State, v evening.Viewer) map[string]scoring.Points {
	tb.Helper()
	out := map[string]scoring.Points{}
	for _, st := range must[evening.View](tb)(evening.ViewOf(s, v)).Standings {
		out[st.Player] = st.Points.Total
	}
	return out
}

// TestExtras: an extra counts the same entered before its game is recorded or
// after; one a player a game, the last replacing the one before, 0 taking it
// away; everything out of bounds or of the evening refused, nothing changed.
func TestExtras(t *testing.T) {
	s := must[evening.State](t)(evening.Draw(mustNew(t, 2, 2, 20)))
	s = must[evening.State](t)(evening.StartRound(s, 0, []string{"GAME1A", "GAME1B"}))
	s = recordScored(t, s, "GAME1B")
	seated := must[[][]string](t)(evening.Seated(s, 0))
	a, b := seated[0][3], seated[1][0] // seat 4 of GAME1A (in play), seat 1 of GAME1B (recorded)
	extraA := evening.Extra{Game: "GAME1A", Player: a, Points: 50, Reason: "  found the Don on day 1 \n"}
	extraB := evening.Extra{Game: "GAME1B", Player: b, Points: -30, Reason: "spoke out of turn"}

	before := must[evening.State](t)(evening.SetExtra(s, extraA))
	before = recordScored(t, before, "GAME1A")
	before = must[evening.State](t)(evening.SetExtra(before, extraB))
	after := recordScored(t, s, "GAME1A")
	after = must[evening.State](t)(evening.SetExtra(after, extraB))
	after = must[evening.State](t)(evening.SetExtra(after, extraA))
	got, want := totals(t, before, evening.Public), totals(t, after, evening.Public)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("an extra before its game is recorded and after give other standings:\n%v\n%v", got, want)
	}
	plain := totals(t, recordScored(t, s, "GAME1A"), evening.Public)
	if got[a] != plain[a]+50 || got[b] != plain[b]-30 || got[seated[0][0]] != plain[seated[0][0]] {
		t.Errorf("with extras %s has %s, %s has %s; without, %s and %s", a, got[a], b, got[b], plain[a], plain[b])
	}

	v := must[evening.View](t)(evening.ViewOf(before, evening.Public))
	if e := v.Rounds[0].Tables[0].Extras; len(e) != 1 || e[0].Player != a || e[0].Reason != "found the Don on day 1" || e[0].Points != 50 {
		t.Errorf("GAME1A's extras in the public view: %+v, want %s's with its reason trimmed", e, a)
	}

	// One a player a game: the last replaces it; 0 takes it away, without a reason.
	s2 := must[evening.State](t)(evening.SetExtra(before, evening.Extra{Game: "GAME1A", Player: a, Points: 70, Reason: "and the sheriff"}))
	if len(s2.Extras) != 2 || totals(t, s2, evening.Public)[a] != plain[a]+70 {
		t.Errorf("a second extra for %s in GAME1A: %+v", a, s2.Extras)
	}
	s2 = must[evening.State](t)(evening.SetExtra(s2, evening.Extra{Game: "GAME1A", Player: a}))
	if len(s2.Extras) != 1 || totals(t, s2, evening.Public)[a] != plain[a] {
		t.Errorf("an extra of 0 for %s in GAME1A: %+v", a, s2.Extras)
	}

	for _, tc := range []struct {
		name string
		e    evening.Extra
		want *rules.Error
	}{
		{"a game not of the evening", evening.Extra{Game: "NOTOUR", Player: a, Points: 10, Reason: "r"}, rules.ErrBadTarget},
		{"a game not started", evening.Extra{Game: "", Player: a, Points: 10, Reason: "r"}, rules.ErrBadTarget},
		{"a player of the other table", evening.Extra{Game: "GAME1A", Player: b, Points: 10, Reason: "r"}, rules.ErrBadTarget},
		{"no such player", evening.Extra{Game: "GAME1A", Player: "p99", Points: 10, Reason: "r"}, rules.ErrBadTarget},
		{"beyond the bound", evening.Extra{Game: "GAME1A", Player: a, Points: 71, Reason: "r"}, evening.ErrInvalidExtra},
		{"below the bound", evening.Extra{Game: "GAME1A", Player: a, Points: -71, Reason: "r"}, evening.ErrInvalidExtra},
		{"no reason", evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: "  "}, evening.ErrInvalidExtra},
		{"a reason too long", evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: strings.Repeat("я", scoring.MaxReason+1)}, evening.ErrInvalidExtra},
		{"a reason of four-byte characters", evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: strings.Repeat("🎲", scoring.MaxReasonBytes/4+1)}, evening.ErrInvalidExtra},
		{"a pile of accents", evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: "good g\u0301\u0302\u0303ame"}, evening.ErrInvalidExtra},
		{"a direction mark", evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: "good \u202egame"}, evening.ErrInvalidExtra},
		{"a control character", evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: "good\x07game"}, evening.ErrInvalidExtra},
	} {
		n, err := evening.SetExtra(before, tc.e)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want.Code)
		}
		if !reflect.DeepEqual(n, before) {
			t.Errorf("%s: refused, yet the evening changed", tc.name)
		}
	}
	if _, err := evening.SetExtra(before, evening.Extra{Game: "GAME1A", Player: a, Points: 70, Reason: strings.Repeat("я", scoring.MaxReason)}); err != nil {
		t.Errorf("the longest reason and the bound: %v", err)
	}

	// The evening's reasons hold MaxReasons bytes: the extra that would pass
	// them is refused, one that fits is taken, and one that replaces
	// another counts without the reason it replaces.
	full := before
	full.Extras = nil
	for left := evening.MaxReasons - 10; left > 0; left -= scoring.MaxReasonBytes {
		full.Extras = append(full.Extras, evening.Extra{Game: "GAME1B", Player: fmt.Sprintf("p%d", len(full.Extras)+1), Points: 10,
			Reason: strings.Repeat("r", min(left, scoring.MaxReasonBytes))})
	}
	if _, err := evening.SetExtra(full, evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: strings.Repeat("r", 11)}); !errors.Is(err, evening.ErrInvalidExtra) {
		t.Errorf("a reason past the evening's %d bytes: %v", evening.MaxReasons, err)
	}
	filled, err := evening.SetExtra(full, evening.Extra{Game: "GAME1A", Player: a, Points: 10, Reason: strings.Repeat("r", 10)})
	if err != nil {
		t.Fatalf("a reason that fills the evening's %d bytes: %v", evening.MaxReasons, err)
	}
	if _, err := evening.SetExtra(filled, evening.Extra{Game: "GAME1A", Player: a, Points: 20, Reason: strings.Repeat("s", 10)}); err != nil {
		t.Errorf("a reason in place of one as long, the evening full: %v", err)
	}
}

// TestHiddenStandings: hidden, the public's standings are those before the
// round in play, whatever its games bring (points, extras, a game counted);
// the organiser's are whole; shown, everyone's are the organiser's.
func TestHiddenStandings(t *testing.T) {
	org := evening.Viewer{Organizer: true}
	s := must[evening.State](t)(evening.Draw(mustNew(t, 2, 3, 21)))
	if _, err := evening.ShowStandings(s); !errors.Is(err, evening.ErrStandingsShown) {
		t.Errorf("show while shown: %v", err)
	}
	s = must[evening.State](t)(evening.StartRound(s, 0, []string{"GAME1A", "GAME1B"}))
	s = recordScored(t, recordScored(t, s, "GAME1A"), "GAME1B")
	asItStood := must[evening.View](t)(evening.ViewOf(s, evening.Public)).Standings
	s = must[evening.State](t)(evening.StartRound(s, 1, []string{"GAME2A", "GAME2B"}))
	s = recordScored(t, s, "GAME2A") // one table of the round ends before the other is hidden

	s = must[evening.State](t)(evening.HideStandings(s))
	if _, err := evening.HideStandings(s); !errors.Is(err, evening.ErrStandingsHidden) {
		t.Errorf("hide twice: %v", err)
	}
	s = recordScored(t, s, "GAME2B")
	player := must[[][]string](t)(evening.Seated(s, 1))[0][0]
	s = must[evening.State](t)(evening.SetExtra(s, evening.Extra{Game: "GAME2A", Player: player, Points: 70, Reason: "the final's best"}))

	for _, v := range []evening.Viewer{evening.Public, {Player: player}} {
		view := must[evening.View](t)(evening.ViewOf(s, v))
		if !reflect.DeepEqual(view.Standings, asItStood) || view.HiddenFrom != 2 {
			t.Errorf("%+v sees, while hidden from round %d:\n%+v\nwant the standings before round 2:\n%+v", v, view.HiddenFrom, view.Standings, asItStood)
		}
		if e := view.Rounds[1].Tables[0].Extras; e != nil {
			t.Errorf("%+v sees round 2's extras while hidden: %+v", v, e)
		}
	}
	// The record is the public's: no game of the hidden round in it.
	for _, g := range must[evening.RecordSheet](t)(evening.RecordOf(s)).Games {
		if g.Round == 2 {
			t.Errorf("the record holds game %s of round 2 while its standings are hidden", g.Game)
		}
	}
	whole := must[evening.View](t)(evening.ViewOf(s, org))
	games := 0
	for _, st := range whole.Standings {
		games += st.Games
	}
	if whole.HiddenFrom != 2 || games != 40 || len(whole.Rounds[1].Tables[0].Extras) != 1 {
		t.Errorf("the organiser's view while hidden: from %d, %d games counted, extras %+v; want 40 and the extra", whole.HiddenFrom, games, whole.Rounds[1].Tables[0].Extras)
	}

	shown := must[evening.State](t)(evening.ShowStandings(s))
	// Shown, the record has every game, the extra in its seat's points.
	withExtra := false
	for _, g := range must[evening.RecordSheet](t)(evening.RecordOf(shown)).Games {
		for _, seat := range g.Seats {
			if g.Game == "GAME2A" && seat.Player == player {
				withExtra = seat.Points.Extra == 70
			}
		}
	}
	if !withExtra {
		t.Errorf("the record's seat of %s at GAME2A does not carry the extra", player)
	}
	pub := must[evening.View](t)(evening.ViewOf(shown, evening.Public))
	if !reflect.DeepEqual(pub.Standings, whole.Standings) || pub.HiddenFrom != 0 || len(pub.Rounds[1].Tables[0].Extras) != 1 {
		t.Errorf("shown, the public sees %+v (from %d), want the organiser's %+v", pub.Standings, pub.HiddenFrom, whole.Standings)
	}

	// Between rounds the hidden round is the next; once every game is recorded, none is left.
	between := must[evening.State](t)(evening.HideStandings(shown))
	if *between.HiddenFrom != 2 || !reflect.DeepEqual(must[evening.View](t)(evening.ViewOf(between, evening.Public)).Standings, whole.Standings) {
		t.Errorf("hidden between rounds 2 and 3: from %d, or the standings of rounds played changed", *between.HiddenFrom)
	}
	last := must[evening.State](t)(evening.StartRound(shown, 2, []string{"GAME3A", "GAME3B"}))
	last = recordScored(t, recordScored(t, last, "GAME3A"), "GAME3B")
	if _, err := evening.HideStandings(last); !errors.Is(err, evening.ErrEveningOver) {
		t.Errorf("hide with every game recorded: %v, want evening_over", err)
	}
}
