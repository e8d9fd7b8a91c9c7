package rules

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// viewers are everyone who looks at s: the shared screen, the host (who, in a
// game a person moderates, is the moderator and sees everything) and each seat.
func viewers(s State) []Viewer {
	out := []Viewer{Public, {Host: true}}
	for _, p := range s.Players {
		out = append(out, Viewer{Player: p.ID})
	}
	return out
}

// movedOnly returns an error unless after is before with seat id moved to
// another device at now: every view of it is the view of before but for the
// story, which has the seat's earlier "moved" line gone and one new line at
// its end, the same for everyone. Before is seen as the clock has moved it
// (Move applies what fell due first, and stores it).
func movedOnly(before, after State, id string, now time.Time) error {
	before = Advance(before, now)
	line := Event{Type: EvMoved, Target: id, Day: after.Day, Night: after.Night}
	for _, v := range viewers(before) {
		vb, va := ViewOf(before, v, now), ViewOf(after, v, now)
		want := append(slices.DeleteFunc(slices.Clone(vb.Events), func(e Event) bool { return e.Type == EvMoved && e.Target == id }), line)
		if !reflect.DeepEqual(va.Events, want) {
			return fmt.Errorf("%+v: the story after the move is %+v, want %+v", v, va.Events, want)
		}
		vb.Events, va.Events = nil, nil
		if !reflect.DeepEqual(va, vb) {
			return fmt.Errorf("%+v: the move changed the view\nbefore %+v\nafter  %+v", v, vb, va)
		}
	}
	return nil
}

// TestMoveChangesOnlyTheStory: a seat moved to another device at night, with
// choices made and a check answered, and again in a vote, with its ballot
// cast and a foul against it, keeps everything it had: every view, the
// moderator's too, is as it was but for one line of the story, and moving the
// seat again leaves one line, not two.
func TestMoveChangesOnlyTheStory(t *testing.T) {
	for _, mod := range []string{ModeratorApp, ModeratorHost} {
		t.Run(mod, func(t *testing.T) { moveTwice(t, mod) })
	}
}

func moveTwice(t *testing.T, moderator string) {
	g := sport10(t)
	g.s.Moderator = moderator
	g.quietNight()
	g.speeches(nil)
	g.want(PhaseNight)
	for _, a := range []struct {
		seat int
		typ  ActionType
		to   int
	}{{1, ActKill, 6}, {2, ActKill, 6}, {4, ActCheck, 1}} {
		g.do(a.seat, a.typ, a.to)
	}
	if len(g.s.player(id(4)).Checks) != 1 || len(g.s.Choices) != 3 {
		t.Fatalf("night 2: checks %+v, choices %+v", g.s.player(id(4)).Checks, g.s.Choices)
	}
	moved, err := Move(g.s, id(4), "", g.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := movedOnly(g.s, moved, id(4), g.now); err != nil {
		t.Error(err)
	}
	g.s = moved

	g.sleepNight()
	g.lastWords()
	g.host(Action{Type: ActWarn, Target: id(4)})
	g.speeches(map[int]int{4: 1, 7: 2})
	g.want(PhaseVote)
	g.do(4, ActVote, 1)
	g.do(5, ActVote, 2)
	again, err := Move(g.s, id(4), "", g.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := movedOnly(g.s, again, id(4), g.now); err != nil {
		t.Error(err)
	}
	if n := len(slices.DeleteFunc(slices.Clone(again.Events), func(e Event) bool { return e.Type != EvMoved })); n != 1 {
		t.Errorf("after two moves of one seat the story tells %d", n)
	}
	p := again.player(id(4))
	if p.Seat != 4 || p.Name != "Player 4" || p.Role != Sheriff || p.Warnings != 1 || len(p.Checks) != 1 || !again.hasBallot(id(4)) {
		t.Errorf("the moved seat is %+v, ballot %v", p, again.hasBallot(id(4)))
	}
}

// TestMoveRefusals: a seat that is not at the table, and a game that is over,
// are refused, with the state as it was.
func TestMoveRefusals(t *testing.T) {
	g := sport10(t)
	for _, who := range []string{"", "p0", "p11", "host"} {
		if n, err := Move(g.s, who, "", g.now); !errors.Is(err, ErrBadTarget) || !equalState(n, g.s) {
			t.Errorf("move %q: %v", who, err)
		}
	}
	over := g.s
	over.Phase, over.Winner = Phase{Name: PhaseGameOver}, Town
	if n, err := Move(over, id(1), "", g.now); !errors.Is(err, ErrGameOver) || !equalState(n, over) {
		t.Errorf("move after the end: %v", err)
	}
}

// TestReseatIsTheHostsAlone: the host may move any seat, the dead ones too
// (a last word, a half vote), in every step, a hand-over and a pause too, and
// it changes nothing of the game; a player may not, nor name a seat that is
// not at the table; nobody may once the game is over.
func TestReseatIsTheHostsAlone(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.host(Action{Type: ActRemove, Target: id(9)})
	for _, step := range []struct {
		name string
		s    State
	}{{"day", g.s}, {"paused", pausedAt(t, g)}, {"hand-over", closingAt(t, g)}} {
		o := slices.IndexFunc(Legal(step.s, Actor{Host: true}), func(o Option) bool { return o.Type == ActReseat })
		if o < 0 || len(Legal(step.s, Actor{Host: true})[o].Targets) != 10 {
			t.Errorf("%s: the host's options %+v", step.name, Legal(step.s, Actor{Host: true}))
			continue
		}
		n, err := Apply(step.s, Actor{Host: true}, Action{Type: ActReseat, Target: id(9)}, g.now)
		if err != nil || !equalState(n, step.s) {
			t.Errorf("%s: reseat the removed seat 9: %v", step.name, err)
		}
	}
	g.refuse(4, Action{Type: ActReseat, Target: id(4)}, ErrNotHost)
	if _, err := Apply(g.s, Actor{Host: true}, Action{Type: ActReseat, Target: "p11"}, g.now); !errors.Is(err, ErrBadTarget) {
		t.Errorf("reseat of no seat: %v", err)
	}
	over := g.s
	over.Phase, over.Winner = Phase{Name: PhaseGameOver}, Town
	if _, err := Apply(over, Actor{Host: true}, Action{Type: ActReseat, Target: id(1)}, g.now); !errors.Is(err, ErrGameOver) {
		t.Errorf("reseat after the end: %v", err)
	}
}

// pausedAt is g's game paused by the host now.
func pausedAt(t *testing.T, g *game) State {
	t.Helper()
	s, err := Apply(g.s, Actor{Host: true}, Action{Type: ActPause}, g.now)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// closingAt is g's game in the hand-over after the speaker's "thank you".
func closingAt(t *testing.T, g *game) State {
	t.Helper()
	s, err := Apply(g.s, Actor{Player: g.s.speaker()}, Action{Type: ActEndSpeech}, g.now)
	if err != nil || !s.Phase.Closing {
		t.Fatalf("end of speech: %v, closing %v", err, s.Phase.Closing)
	}
	return s
}

// TestMoveInTheLobby: a seat moved in the lobby takes the new device's key, so
// that a ban refuses the phone in use; its line goes when the seat leaves, and
// every lobby line goes at the deal.
func TestMoveInTheLobby(t *testing.T) {
	s := newLobby(t)
	s, err := Move(s, id(2), "new-phone", t0)
	if err != nil || s.player(id(2)).Device != "new-phone" || !slices.ContainsFunc(s.Events, func(e Event) bool { return e.Type == EvMoved }) {
		t.Fatalf("move in the lobby: %v, device %q, story %+v", err, s.player(id(2)).Device, s.Events)
	}
	banned, err := Apply(s, Actor{Host: true}, Action{Type: ActBan, Target: id(2)}, t0)
	if err != nil || !slices.Contains(banned.Banned, "new-phone") || slices.ContainsFunc(banned.Events, func(e Event) bool { return e.Target == id(2) }) {
		t.Errorf("ban after the move: %v, banned %v, story %+v", err, banned.Banned, banned.Events)
	}
	started, err := Apply(s, Actor{Host: true}, Action{Type: ActStart}, t0)
	if err != nil || slices.ContainsFunc(started.Events, func(e Event) bool { return e.Type == EvMoved || e.Type == EvJoined }) {
		t.Errorf("the deal keeps lobby lines: %v, %+v", err, started.Events)
	}
}

// TestMoveDuringAPause: a seat moved while the game is paused is told after
// the pause, which still leaves no trace once the game resumes.
func TestMoveDuringAPause(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	paused := pausedAt(t, g)
	moved, err := Move(paused, id(3), "", g.now)
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := Apply(moved, Actor{Host: true}, Action{Type: ActResume}, g.now)
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(g.s.Events), Event{Type: EvMoved, Target: id(3), Day: g.s.Day, Night: g.s.Night})
	if !reflect.DeepEqual(resumed.Events, want) {
		t.Errorf("after the pause the story is %+v, want %+v", resumed.Events, want)
	}
}

// TestCondenseForgetsMoves: a story told more briefly tells no moves, of the
// current round neither, and keeps the rest of the round.
func TestCondenseForgetsMoves(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	s := g.s
	for _, seat := range []int{3, 7} {
		var err error
		if s, err = Move(s, id(seat), "", g.now); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(Condense(s, 0), s) {
		t.Error("level 0 changed the story")
	}
	for level := 1; level <= CondenseLevels; level++ {
		c := Condense(s, level)
		if slices.ContainsFunc(c.Events, func(e Event) bool { return e.Type == EvMoved }) {
			t.Errorf("level %d tells a move: %+v", level, c.Events)
		}
	}
	if got := Condense(s, 1).Events; !reflect.DeepEqual(got, g.s.Events) {
		t.Errorf("level 1 tells %+v, want the story without its moves %+v", got, g.s.Events)
	}
}
