package rules

import (
	"errors"
	"testing"
	"time"
)

// TestPace: a client polls often only while others' taps may soon ask it to
// act, counted in steps; the shared screen follows the table; the player asked
// now acts; everyone else waits.
func TestPace(t *testing.T) {
	g := sport10(t)
	pace := func(v Viewer) Pace { return PaceOf(g.s, v, g.now) }
	// Night: everyone has a task.
	if p := pace(Viewer{Player: id(5)}); p != (Pace{Acting: true}) {
		t.Errorf("night, a citizen with his task: %+v", p)
	}
	g.quietNight()
	// Day 1, seat 1 speaks: seat 2 is one step away, seat 3 two, seat 7 more
	// than the lookahead; the shared screen and the host watch.
	for seat, want := range map[int]Pace{1: {Acting: true}, 2: {Steps: 1}, 3: {Steps: 2}, 5: {Steps: 4}, 7: {}} {
		if p := pace(Viewer{Player: id(seat)}); p != want {
			t.Errorf("day 1, seat %d: %+v, want %+v", seat, p, want)
		}
	}
	for _, v := range []Viewer{Public, {Host: true}} {
		if p := pace(v); p != (Pace{Watching: true}) {
			t.Errorf("%+v: %+v", v, p)
		}
	}
	// The last speech: the vote opens for everyone one step on.
	g.do(1, ActNominate, 7)
	for g.s.speaker() != id(10) {
		g.do(g.s.player(g.s.speaker()).Seat, ActEndSpeech, 0)
	}
	g.do(10, ActNominate, 8)
	if p := pace(Viewer{Player: id(4)}); p != (Pace{Steps: 1}) {
		t.Errorf("last speech, a voter: %+v", p)
	}
	// The hand-over after "Thank you": nobody acts, the vote is one step on.
	s, err := Apply(g.s, Actor{Player: id(10)}, Action{Type: ActEndSpeech}, g.now)
	if err != nil {
		t.Fatal(err)
	}
	if p := PaceOf(s, Viewer{Player: id(4)}, g.now); p != (Pace{Steps: 1}) {
		t.Errorf("hand-over before the vote: %+v", p)
	}
	// Paused: nothing moves until the host resumes, which asks at once.
	g.host(Action{Type: ActPause})
	if p := pace(Viewer{Player: id(4)}); p != (Pace{Watching: true}) {
		t.Errorf("paused: %+v", p)
	}
	// R-MANIAC-07: in a night the Doctor's step may follow, every living player
	// who has done their task is one step from the next.
	m := newGame(t, PresetManiac, 10, nil, Don, Mafia, Sheriff, Doctor, Maniac)
	m.quietNight() // the introductions' night
	m.speeches(nil)
	m.want(PhaseNight)
	m.do(7, ActSleep, 0)
	if p := PaceOf(m.s, Viewer{Player: id(7)}, m.now); p != (Pace{Steps: 1}) {
		t.Errorf("maniac night, a citizen asleep: %+v", p)
	}
	// The lobby: the names on the list, and the start one step away.
	l := newLobby(t)
	if p := PaceOf(l, Viewer{Player: "p1"}, t0); p != (Pace{Watching: true, Steps: 1}) {
		t.Errorf("lobby: %+v", p)
	}
}

// newLobby is a sport lobby with ten players.
func newLobby(t *testing.T) State {
	o, err := Preset(PresetSport)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New("TEST01", o, ModeratorApp, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if s, _, err = Join(s, "Player "+string(rune('A'+i)), t0); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestHandOver: a step that a tap completes early (the last "Thank you", the
// last vote, the last night task) stays, closing, for Options.HandOver seconds
// while the app announces what comes; nobody can act in it; the clock then
// opens the next step exactly as the deadline would have. A human moderator's
// table moves on at once.
func TestHandOver(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	start := g.now
	s, err := Apply(g.s, Actor{Player: id(1)}, Action{Type: ActEndSpeech}, start.Add(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	h := seconds(g.s.Rules.HandOver)
	end := start.Add(10*time.Second + h)
	if !s.Phase.Closing || !s.Phase.EndsAt.Equal(end) || s.speaker() != id(1) || !ViewOf(s, Viewer{Player: id(2)}, end.Add(-time.Millisecond)).Phase.Closing {
		t.Fatalf("after Thank you: closing %v until %v, speaker %s; want the hand-over until %v", s.Phase.Closing, s.Phase.EndsAt, s.speaker(), end)
	}
	for _, a := range []struct {
		seat int
		a    Action
	}{{1, Action{Type: ActNominate, Target: id(5)}}, {1, Action{Type: ActEndSpeech}}, {2, Action{Type: ActEndSpeech}}} {
		if _, err := Apply(s, Actor{Player: id(a.seat)}, a.a, start.Add(11*time.Second)); err == nil {
			t.Errorf("seat %d %s accepted in the hand-over", a.seat, a.a.Type)
		}
		if o := Legal(s, Actor{Player: id(a.seat)}); len(o) != 0 {
			t.Errorf("seat %d may %v in the hand-over", a.seat, o)
		}
	}
	if n := Advance(s, end.Add(-time.Millisecond)); n.speaker() != id(1) {
		t.Errorf("seat 2 spoke before the hand-over ended")
	}
	n := Advance(s, end)
	if n.Phase.Closing || n.speaker() != id(2) || !n.Phase.EndsAt.Equal(end.Add(60*time.Second)) || n.Ticks != s.Ticks+1 {
		t.Errorf("after the hand-over: closing %v, speaker %s until %v; want seat 2 for a full minute", n.Phase.Closing, n.speaker(), n.Phase.EndsAt)
	}
	// A speech with less left than the hand-over keeps its own deadline.
	late := start.Add(59 * time.Second)
	if s, err := Apply(g.s, Actor{Player: id(1)}, Action{Type: ActEndSpeech}, late); err != nil || !s.Phase.EndsAt.Equal(start.Add(60*time.Second)) {
		t.Errorf("Thank you a second before the end: deadline %v, %v", s.Phase.EndsAt, err)
	}
	// The last vote closes the vote after the hand-over, counted as the deadline
	// would count it.
	v := sport10(t)
	v.quietNight()
	v.do(1, ActNominate, 7)
	v.do(1, ActEndSpeech, 0)
	v.do(2, ActNominate, 8)
	v.speeches(nil)
	v.want(PhaseVote)
	for seat := 1; seat < 10; seat++ {
		v.do(seat, ActVote, 7)
	}
	last, err := Apply(v.s, Actor{Player: id(10)}, Action{Type: ActVote, Target: id(8)}, v.now)
	if err != nil || !last.Phase.Closing || last.Phase.Name != PhaseVote {
		t.Fatalf("the last vote: %v, phase %s closing %v", err, last.Phase.Name, last.Phase.Closing)
	}
	if after := Advance(last, v.now.Add(h)); after.player(id(7)).Alive || after.Phase.Name != PhaseLastWord {
		t.Errorf("after the hand-over seat 7 should be out with a last word: %s", after.Phase.Name)
	}
	// The start: the cards are dealt at once; nobody joins, leaves or is seated
	// in the hand-over; then the night falls.
	l := newLobby(t)
	l, err = Apply(l, Actor{Host: true}, Action{Type: ActStart}, t0)
	if err != nil || !l.Phase.Closing || l.Phase.Name != PhaseLobby || l.Players[0].Role == "" {
		t.Fatalf("started: %v, phase %s closing %v, role %q", err, l.Phase.Name, l.Phase.Closing, l.Players[0].Role)
	}
	if _, _, err := Join(l, "Late", t0); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("joined in the hand-over: %v", err)
	}
	if o := Legal(l, Actor{Host: true}); len(o) != 1 || o[0].Type != ActAdvance {
		t.Errorf("the host may %v in the hand-over, want only to move on", o)
	}
	if o := Legal(l, Actor{Player: "p1"}); len(o) != 0 {
		t.Errorf("a player may %v in the hand-over", o)
	}
	if n := Advance(l, t0.Add(h)); n.Phase.Name != PhaseNight || n.Night != 1 || !n.Phase.EndsAt.Equal(t0.Add(h+seconds(n.Rules.Night))) {
		t.Errorf("after the start's hand-over: %s night %d until %v", n.Phase.Name, n.Night, n.Phase.EndsAt)
	}
	// A human moderator's table: no hand-over.
	mod := sport10(t)
	mod.s.Moderator = ModeratorHost
	mod.quietNight()
	if s, err := Apply(mod.s, Actor{Player: id(1)}, Action{Type: ActEndSpeech}, mod.now); err != nil || s.Phase.Closing || s.speaker() != id(2) {
		t.Errorf("moderated: closing %v, speaker %s, %v", s.Phase.Closing, s.speaker(), err)
	}
	// handOver 0: no hand-over.
	z := newGame(t, PresetSport, 10, func(o *Options) { o.HandOver = 0 }, Don, Mafia, Mafia, Sheriff)
	z.quietNight()
	if s, err := Apply(z.s, Actor{Player: id(1)}, Action{Type: ActEndSpeech}, z.now); err != nil || s.Phase.Closing || s.speaker() != id(2) {
		t.Errorf("handOver 0: closing %v, speaker %s, %v", s.Phase.Closing, s.speaker(), err)
	}
}
