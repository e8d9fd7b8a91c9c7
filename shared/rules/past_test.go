package rules

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestPropertyPastKeepsTheStory plays random games of every preset twice over:
// once as they are, and once told more briefly now and then, at any level that
// keeps the past (Condense up to 8), as the store does with a long game. The two
// games take the same actions the same way, and the brief one's History is the
// whole story, to the byte the store would keep.
func TestPropertyPastKeepsTheStory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		full := drawLobby(t, "PAST01")
		now := t0
		start := Action{Type: ActStart}
		start.Deal[0] = rapid.Byte().Draw(t, "seed")
		full = mustApply(t, full, Actor{Host: true}, start, now)
		brief := full
		for i := 0; full.Phase.Name != PhaseGameOver && i < 3000; i++ {
			if rapid.IntRange(0, 5).Draw(t, "condense") == 0 {
				brief = Condense(brief, rapid.IntRange(1, 8).Draw(t, "level"))
			}
			actor, a, ok := legalAction(t, full)
			if !ok {
				now = now.Add(time.Duration(full.Rules.Night) * time.Second)
				full, brief = Advance(full, now), Advance(brief, now)
				if full.Moderator == ModeratorHost {
					a, actor, ok = Action{Type: ActAdvance, Now: true}, Actor{Host: true}, true
				}
			}
			if ok {
				full = mustApply(t, full, actor, a, now)
				brief = mustApply(t, brief, actor, a, now)
			}
			if full.Phase.Name != brief.Phase.Name || full.Night != brief.Night || full.Day != brief.Day {
				t.Fatalf("told briefly, the game went elsewhere: %s %d/%d, not %s %d/%d",
					brief.Phase.Name, brief.Day, brief.Night, full.Phase.Name, full.Day, full.Night)
			}
		}
		history, from := History(brief)
		if from != 0 {
			t.Fatalf("the history is whole only from night %d", from)
		}
		if got, want := mustJSON(t, history), mustJSON(t, full.Events); got != want {
			t.Fatalf("the history of the brief game differs from the story:\n%s\nwant\n%s", got, want)
		}
	})
}

// TestPastOfEveryField: every field an event may carry, every kind of ballot
// and a best move's players, reads back as it was written.
func TestPastOfEveryField(t *testing.T) {
	events := []Event{
		{Type: EvStarted},
		{Day: 2, Night: 3, Type: EvKilled, Target: "p12", Result: CauseManiac, Rule: "R-MANIAC-06"},
		{Night: 1, Type: EvAct, Actor: "p3", Target: "p4", Result: "kill", To: ToMod, Rule: "R-MANIAC-03"},
		{Night: 2, Type: EvShot, Actor: "p3", Target: "p4", To: ToMafia},
		{Night: 2, Type: EvChecked, Actor: "p4", Target: "p1", Result: "black", To: "p4"},
		{Day: 1, Night: 1, Type: EvRole, Target: "p9", Role: Sheriff},
		{Day: 1, Night: 1, Type: EvWarned, Target: "p2", Result: "3", Foul: FoulWords},
		{Day: 1, Night: 1, Type: EvVoted, Ballots: []Ballot{{Voter: "p1", Target: "p2"}, {Voter: "p3"}, {Voter: "p10", Target: "p2", Missing: true}, {Voter: "p4", Target: "p5", Half: true}}},
		{Day: 1, Night: 1, Type: EvVoted, Result: string(ReasonCarCrash), Ballots: []Ballot{{Voter: "p1", Yes: true}, {Voter: "p2"}}},
		{Day: 1, Night: 2, Type: EvBestMove, Actor: "p5", Targets: []string{"p10", "p1", "p7"}},
		{Day: 3, Night: 3, Type: EvGameOver, Result: string(Town), Rule: "R-SPORT-14"},
	}
	var s State
	s.Events, s.Night = events, 4
	s.keepPast()
	s.Events = nil
	got, from := History(s)
	if from != 0 || mustJSON(t, got) != mustJSON(t, events) {
		t.Fatalf("read back %+v (whole from %d), want %+v", got, from, events)
	}
	if js := mustJSON(t, s.Past); len(js) != len(s.Past)+2 {
		t.Errorf("the past %s is escaped in JSON as %s", s.Past, js)
	}
}
