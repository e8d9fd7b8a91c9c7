package rules

import (
	"errors"
	"slices"
	"testing"
	"time"
)

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

// TestHandOver: a step that a tap or the moderator ends early (the last "Thank
// you", the last vote, the last night tap, "next") stays, closing, for
// Options.HandOver seconds while the table hears what comes; nobody can act in
// it; the clock then opens the next step exactly as the deadline would have,
// in either way of moderating.
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
	// The host may end it, or move a seat to another device, which changes
	// nothing of the step.
	if o := Legal(l, Actor{Host: true}); len(o) != 2 || o[0].Type != ActAdvance || o[1].Type != ActReseat {
		t.Errorf("the host may %v in the hand-over, want only to end it or move a seat", o)
	}
	if o := Legal(l, Actor{Player: "p1"}); len(o) != 0 {
		t.Errorf("a player may %v in the hand-over", o)
	}
	if n := Advance(l, t0.Add(h)); n.Phase.Name != PhaseNight || n.Night != 1 || !n.Phase.EndsAt.Equal(t0.Add(h+seconds(n.Rules.Night))) {
		t.Errorf("after the start's hand-over: %s night %d until %v", n.Phase.Name, n.Night, n.Phase.EndsAt)
	}
	// A human moderator's table has the hand-over too: after a tap, and after
	// the moderator's "next"; the clock opens the next step at its end, which
	// is the only thing the clock does in a moderated game.
	mod := sport10(t)
	mod.s.Moderator = ModeratorHost
	mod.quietNight()
	s, err = Apply(mod.s, Actor{Player: id(1)}, Action{Type: ActEndSpeech}, mod.now)
	if err != nil || !s.Phase.Closing || !s.Phase.EndsAt.Equal(mod.now.Add(h)) || !NextDeadline(s).Equal(mod.now.Add(h)) {
		t.Fatalf("moderated Thank you: closing %v until %v, %v", s.Phase.Closing, s.Phase.EndsAt, err)
	}
	if n := Advance(s, mod.now.Add(h)); n.speaker() != id(2) || !NextDeadline(n).IsZero() {
		t.Errorf("moderated, after the hand-over: speaker %s, next deadline %v", n.speaker(), NextDeadline(n))
	}
	mod.s = s
	mod.tick(h)
	mod.s, err = Apply(mod.s, Actor{Host: true}, Action{Type: ActAdvance}, mod.now)
	if err != nil || !mod.s.Phase.Closing || mod.s.speaker() != id(2) || !mod.s.Phase.EndsAt.Equal(mod.now.Add(h)) {
		t.Fatalf("moderator's next: closing %v, speaker %s until %v, %v", mod.s.Phase.Closing, mod.s.speaker(), mod.s.Phase.EndsAt, err)
	}
	// A "next" pressed on a page that had not yet seen the step end does not cut
	// the hand-over short; one that asks for it (now) does.
	if _, err := Apply(mod.s, Actor{Host: true}, Action{Type: ActAdvance}, mod.now.Add(time.Second)); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("a second next in the hand-over: %v, want it refused", err)
	}
	if now, err := Apply(mod.s, Actor{Host: true}, Action{Type: ActAdvance, Now: true}, mod.now.Add(time.Second)); err != nil || now.Phase.Closing || now.speaker() != id(3) {
		t.Errorf("next with now in the hand-over: closing %v, speaker %s, %v", now.Phase.Closing, now.speaker(), err)
	}
	// Long after the speech's time is up the moderator's next still hands over
	// for the whole hand-over.
	mod.tick(h)
	mod.tick(5 * time.Minute)
	if mod.s.speaker() != id(3) {
		t.Fatalf("moderated: the clock moved a step by its deadline: speaker %s", mod.s.speaker())
	}
	late2, err := Apply(mod.s, Actor{Host: true}, Action{Type: ActAdvance}, mod.now)
	if err != nil || !late2.Phase.EndsAt.Equal(mod.now.Add(h)) {
		t.Errorf("moderator's next after the time is up: until %v, %v", late2.Phase.EndsAt, err)
	}
	// handOver 0: no hand-over.
	z := newGame(t, PresetSport, 10, func(o *Options) { o.HandOver = 0 }, Don, Mafia, Mafia, Sheriff)
	z.quietNight()
	if s, err := Apply(z.s, Actor{Player: id(1)}, Action{Type: ActEndSpeech}, z.now); err != nil || s.Phase.Closing || s.speaker() != id(2) {
		t.Errorf("handOver 0: closing %v, speaker %s, %v", s.Phase.Closing, s.speaker(), err)
	}
}

// TestResumeHandOver: a pause stops the clock at once; "resume" gives every
// screen a hand-over to count down, and the step goes on at its end with the
// time it had left, in either way of moderating.
func TestResumeHandOver(t *testing.T) {
	for _, mod := range []string{ModeratorApp, ModeratorHost} {
		g := sport10(t)
		g.s.Moderator = mod
		g.quietNight()
		h := seconds(g.s.Rules.HandOver)
		g.tick(20 * time.Second)
		paused, err := Apply(g.s, Actor{Host: true}, Action{Type: ActPause}, g.now)
		if err != nil || paused.Phase.Paused != 40*time.Second || !NextDeadline(paused).IsZero() {
			t.Fatalf("%s: paused with %v left, next deadline %v, %v", mod, paused.Phase.Paused, NextDeadline(paused), err)
		}
		later := g.now.Add(time.Hour)
		s, err := Apply(paused, Actor{Host: true}, Action{Type: ActResume}, later)
		if err != nil || !s.Phase.Resuming || !s.Phase.EndsAt.Equal(later.Add(h)) || len(Legal(s, Actor{Player: id(1)})) != 0 {
			t.Fatalf("%s: resuming %v until %v, speaker may %v, %v", mod, s.Phase.Resuming, s.Phase.EndsAt, Legal(s, Actor{Player: id(1)}), err)
		}
		v := ViewOf(s, Public, later)
		if v.Phase.Paused || !v.Phase.Resuming || v.Phase.PausedLeftMs != 40_000 || !v.Timing.Hold {
			t.Errorf("%s: the resuming view %+v, timing %+v", mod, v.Phase, v.Timing)
		}
		s = Advance(s, later.Add(h))
		if s.Phase.Resuming || s.Phase.Paused != 0 || !s.Phase.EndsAt.Equal(later.Add(h+40*time.Second)) || s.speaker() != id(1) {
			t.Errorf("%s: after the hand-over: resuming %v, paused %v, until %v, speaker %s", mod, s.Phase.Resuming, s.Phase.Paused, s.Phase.EndsAt, s.speaker())
		}
		if !slices.ContainsFunc(Legal(s, Actor{Player: id(1)}), func(o Option) bool { return o.Type == ActEndSpeech }) {
			t.Errorf("%s: the speaker cannot end the speech after the resume", mod)
		}
	}
}

// TestWakes: a night wakes the table once, or twice where a role acts twice or
// on the first wake's outcome (the Don's check, R-SPORT-11; the Doctor's save,
// R-MANIAC-07), and the second wake is held even when that role has left.
func TestWakes(t *testing.T) {
	for preset, want := range map[string]int{PresetClassic: 1, PresetSport: 2, PresetParty: 1, PresetManiac: 2} {
		o, err := Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		if o.Wakes() != want {
			t.Errorf("%s: %d wakes, want %d", preset, o.Wakes(), want)
		}
	}
	// R-SPORT-02: the meeting night has one wake.
	g := sport10(t)
	g.wake(nil)
	g.lastWords()
	g.want(PhaseDay)
	g.skipDay()
	g.want(PhaseNight)
	g.host(Action{Type: ActRemove, Target: id(1)}) // the Don leaves the game
	g.wake(map[int]string{2: "kill:5", 3: "kill:5"})
	if g.s.Phase.Name != PhaseNight || g.s.Phase.Wake != 2 {
		t.Fatalf("R-SPORT-11: no second wake without the Don: %s wake %d", g.s.Phase.Name, g.s.Phase.Wake)
	}
	g.wake(nil)
	g.wantDead(5)
}

// TestOneTapPerWake: at night every living player taps exactly once a wake,
// whatever their role, and each tap moves the public pending count by one: the
// number of taps says nothing about who holds which card.
func TestOneTapPerWake(t *testing.T) {
	for _, preset := range []string{PresetClassic, PresetSport, PresetParty, PresetManiac} {
		g := newGame(t, preset, 10, nil, Don, Mafia, Mafia, Sheriff, Doctor, Maniac, Advocate, Cinderella)
		if preset != PresetSport && preset != PresetManiac {
			g = newGame(t, preset, 10, nil, Mafia, Mafia, Mafia, Sheriff)
		}
		for g.s.Phase.Name != PhaseNight || g.s.Night < 2 {
			switch g.s.Phase.Name {
			case PhaseNight:
				g.wake(nil)
			case PhaseVote:
				for _, p := range g.s.living() {
					if len(Legal(g.s, Actor{Player: p.ID})) > 0 && g.s.Phase.Name == PhaseVote {
						g.do(p.Seat, ActVote, 0)
					}
				}
			default:
				g.speeches(nil)
				g.lastWords()
			}
		}
		for g.s.Phase.Name == PhaseNight {
			wake := g.s.Phase.Wake
			for _, p := range g.s.living() {
				before := ViewOf(g.s, Public, g.now).Phase.Pending
				opts := Legal(g.s, Actor{Player: p.ID})
				if len(opts) == 0 {
					t.Fatalf("%s wake %d: %s has no tap", preset, wake, p.Role)
				}
				o := opts[0] // the role's act where it has one, else sleep
				a := Action{Type: o.Type}
				if len(o.Targets) > 0 {
					a.Target = o.Targets[len(o.Targets)-1]
				}
				if err := g.apply(Actor{Player: p.ID}, a); err != nil {
					t.Fatalf("%s wake %d: %s %s: %v", preset, wake, p.Role, a.Type, err)
				}
				if g.s.Phase.Name != PhaseNight || g.s.Phase.Wake != wake {
					break // the last tap closed the wake
				}
				if after := ViewOf(g.s, Public, g.now).Phase.Pending; after != before-1 || len(Legal(g.s, Actor{Player: p.ID})) != 0 {
					t.Fatalf("%s wake %d: a %s's tap moved pending %d → %d and left %v", preset, wake, p.Role, before, after, Legal(g.s, Actor{Player: p.ID}))
				}
			}
		}
	}
}

// TestLobbyFull: every view of a lobby with as many players as the rules
// take says it is full, and a seat given up opens it again.
func TestLobbyFull(t *testing.T) {
	s := newLobby(t)
	if !ViewOf(s, Public, t0).Phase.Full {
		t.Fatal("ten at a sport table, yet the public view is not full")
	}
	if _, _, err := Join(s, "Late", t0); !errors.Is(err, ErrTableFull) {
		t.Fatalf("a join to a full table: %v", err)
	}
	s, err := Apply(s, Actor{Player: "p3"}, Action{Type: ActLeave}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if ViewOf(s, Public, t0).Phase.Full {
		t.Fatal("nine at a sport table, yet the view says full")
	}
}
