package rules

import (
	"reflect"
	"testing"
)

// closing applies a tap that ends a step and returns the state in its hand-over.
func (g *game) closing(seat int, a Action) State {
	g.t.Helper()
	actor := Actor{Player: id(seat)}
	if seat == 0 {
		actor = Actor{Host: true}
	}
	s, err := Apply(g.s, actor, a, g.now)
	if err != nil || !s.Phase.Closing {
		g.t.Fatalf("%s: closing %v, %v", a.Type, s.Phase.Closing, err)
	}
	return s
}

// nextOf is the next step every viewer is told of in s, failing the test if two
// viewers are told different things.
func nextOf(t *testing.T, s State) *Step {
	t.Helper()
	want := ViewOf(s, Public, t0).Phase.Next
	for _, p := range s.Players {
		if got := ViewOf(s, Viewer{Player: p.ID}, t0).Phase.Next; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s is told %+v, the table %+v", p.ID, got, want)
		}
	}
	return want
}

// TestNextStep: in the hand-over after a tap every screen is told what comes
// (R-SPORT-03 the next speaker, R-SPORT-05 the vote), and nothing the table may
// not know yet: after a night neither who died nor who speaks first, after a vote
// not how it went.
func TestNextStep(t *testing.T) {
	l := newLobby(t)
	l, err := Apply(l, Actor{Host: true}, Action{Type: ActStart}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if n := nextOf(t, l); n == nil || *n != (Step{Name: PhaseNight, Wake: 1}) {
		t.Errorf("after the start: %+v, want the night's first wake", n)
	}

	g := sport10(t)
	if n := ViewOf(g.s, Public, g.now).Phase.Next; n != nil {
		t.Errorf("an open step tells the next: %+v", n)
	}
	for _, p := range g.s.living() {
		if p.Seat != 10 {
			g.do(p.Seat, ActSleep, 0)
		}
	}
	// The last night task: morning comes, and nothing of what the night did.
	if n := nextOf(t, g.closing(10, Action{Type: ActSleep})); n == nil || *n != (Step{Name: StepMorning}) {
		t.Errorf("after the night: %+v, want only the morning", n)
	}
	g.quietNight()
	// Thank you: the next speaker's minute.
	g.do(1, ActNominate, 7)
	if n := nextOf(t, g.closing(1, Action{Type: ActEndSpeech})); n == nil || *n != (Step{Name: PhaseDay, Speaker: id(2)}) {
		t.Errorf("after seat 1's Thank you: %+v, want seat 2's speech", n)
	}
	g.do(1, ActEndSpeech, 0)
	g.do(2, ActNominate, 8)
	for seat := 2; seat < 10; seat++ {
		g.do(seat, ActEndSpeech, 0)
	}
	// The last speech: the vote on the nominees.
	if n := nextOf(t, g.closing(10, Action{Type: ActEndSpeech})); n == nil || *n != (Step{Name: PhaseVote}) {
		t.Errorf("after the last speech: %+v, want the vote", n)
	}
	g.do(10, ActEndSpeech, 0)
	for seat := 1; seat < 10; seat++ {
		target := 7
		if seat > 5 {
			target = 8
		}
		g.do(seat, ActVote, target)
	}
	// The last vote: the count, not its result (a tie here, and a car crash).
	last := g.closing(10, Action{Type: ActVote, Target: id(8)})
	if n := nextOf(t, last); n == nil || *n != (Step{Name: StepCount}) {
		t.Errorf("after the last vote: %+v, want the count", n)
	}
	g.s = last
	g.tick(seconds(g.s.Rules.HandOver))
	g.want(PhaseDefence)
	if n := nextOf(t, g.closing(7, Action{Type: ActEndSpeech})); n == nil || *n != (Step{Name: PhaseDefence, Speaker: id(8), Reason: ReasonCarCrash}) {
		t.Errorf("after the first defence: %+v, want seat 8's defence", n)
	}

	// A night of two wakes (the Don's check, R-SPORT-11): the first leads to the
	// second, whatever was done in it; the second to the morning.
	w := sport10(t)
	w.quietNight()
	w.skipDay()
	w.want(PhaseNight)
	w.do(1, ActKill, 5)
	w.do(2, ActKill, 5)
	for seat := 3; seat < 10; seat++ {
		w.do(seat, ActSleep, 0)
	}
	if n := nextOf(t, w.closing(10, Action{Type: ActSleep})); n == nil || *n != (Step{Name: PhaseNight, Wake: 2}) {
		t.Errorf("after the first wake: %+v, want the second", n)
	}
	w.do(10, ActSleep, 0)
	for seat := 1; seat < 10; seat++ {
		w.do(seat, ActSleep, 0)
	}
	if n := nextOf(t, w.closing(10, Action{Type: ActSleep})); n == nil || *n != (Step{Name: StepMorning}) {
		t.Errorf("after the second wake: %+v, want only the morning", n)
	}
}
