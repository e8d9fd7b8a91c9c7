package rules

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// asBefore returns an error unless every view of after, at afterAt, is the
// view of before at beforeAt: the same step with the same time left, the same
// seats, cards and options, and the same story but for the "corrected" lines,
// which must be exactly want. The host's offer of a correction is left out:
// it is what changes.
func asBefore(before State, beforeAt time.Time, after State, afterAt time.Time, want []Decision) error {
	for _, v := range viewers(before) {
		vb, va := ViewOf(before, v, beforeAt), ViewOf(after, v, afterAt)
		var told []Decision
		va.Events = slices.DeleteFunc(va.Events, func(e Event) bool {
			if e.Type == EvCorrected {
				told = append(told, Decision{Type: ActionType(e.Result), Target: e.Target})
				return true
			}
			return false
		})
		vb.Events = slices.DeleteFunc(vb.Events, func(e Event) bool { return e.Type == EvCorrected })
		if !slices.Equal(told, want) {
			return fmt.Errorf("%+v: the story tells the corrections %v, want %v", v, told, want)
		}
		for _, w := range []*View{&vb, &va} {
			w.Actions = slices.DeleteFunc(w.Actions, func(o Option) bool { return o.Type == ActCorrect })
			w.Timing = Timing{}
		}
		later := func(at *time.Time) *time.Time { // as far away from afterAt as at was from beforeAt
			if at == nil {
				return nil
			}
			t := afterAt.Add(at.Sub(beforeAt))
			return &t
		}
		vb.Phase.EndsAt = later(vb.Phase.EndsAt)
		if vb.You != nil {
			you := *vb.You
			you.ShootBy, vb.You = later(you.ShootBy), &you
		}
		if !reflect.DeepEqual(va, vb) {
			return fmt.Errorf("%+v: the game is not as it was\nbefore %+v\nafter  %+v", v, vb, va)
		}
	}
	return nil
}

// correctable offers: the decisions the host may take back now, the next first.
func undoes(s State) []Decision {
	for _, o := range Legal(s, Actor{Host: true}) {
		if o.Type == ActCorrect {
			return o.Undoes
		}
	}
	return nil
}

// TestCorrectionTakesBackTheLastThree: a moderator who warns the wrong player,
// skips a speech and removes the wrong player takes all three back, newest
// first, a minute apart: every view is what it was before the first, the
// speaker with the time he had left, and the story says "corrected by the
// moderator" three times and nothing else; a fourth correction is refused with
// a conflict and changes nothing (R-SPORT-16's fouls are the moderator's).
func TestCorrectionTakesBackTheLastThree(t *testing.T) {
	g := sport10(t)
	g.s.Moderator = ModeratorHost
	g.quietNight()
	g.want(PhaseDay)
	g.tick(10 * time.Second)
	before, beforeAt := g.s, g.now

	g.host(Action{Type: ActWarn, Target: id(5), Foul: "abuse"})
	g.host(Action{Type: ActAdvance})
	g.host(Action{Type: ActRemove, Target: id(7)})
	if got, want := undoes(g.s), []Decision{{ActRemove, id(7)}, {ActAdvance, ""}, {ActWarn, id(5)}}; !slices.Equal(got, want) {
		t.Fatalf("the host may take back %v, want %v", got, want)
	}
	for range 3 {
		g.tick(time.Minute)
		g.host(Action{Type: ActCorrect})
	}
	if err := asBefore(before, beforeAt, g.s, g.now, []Decision{{ActRemove, id(7)}, {ActAdvance, ""}, {ActWarn, id(5)}}); err != nil {
		t.Fatal(err)
	}
	err := g.apply(Actor{Host: true}, Action{Type: ActCorrect})
	if !errors.Is(err, ErrWrongPhase) {
		t.Fatalf("a fourth correction: %v, want %v", err, ErrWrongPhase)
	}
}

// TestCorrectionKeepsToTheLastThree: after four decisions, three can be taken
// back; the oldest is final.
func TestCorrectionKeepsToTheLastThree(t *testing.T) {
	g := sport10(t)
	g.s.Moderator = ModeratorHost
	g.quietNight()
	for seat := 5; seat <= 8; seat++ {
		g.host(Action{Type: ActWarn, Target: id(seat)})
	}
	for range MaxCorrections {
		g.host(Action{Type: ActCorrect})
	}
	if g.s.player(id(5)).Warnings != 1 || g.s.player(id(6)).Warnings != 0 {
		t.Fatalf("warnings after three corrections: #5 %d, #6 %d; want 1, 0", g.s.player(id(5)).Warnings, g.s.player(id(6)).Warnings)
	}
	if len(undoes(g.s)) != 0 {
		t.Fatal("a fourth decision back is offered")
	}
}

// TestCorrectionClosedByOthers: once someone else has acted since (a
// nomination, a vote, a night tap) or the morning has come, a correction is
// refused with a conflict, changes nothing and is no longer offered.
func TestCorrectionClosedByOthers(t *testing.T) {
	refused := func(t *testing.T, g *game) {
		t.Helper()
		if u := undoes(g.s); len(u) != 0 {
			t.Fatalf("a correction is still offered: %v", u)
		}
		if err := g.apply(Actor{Host: true}, Action{Type: ActCorrect}); !errors.Is(err, ErrWrongPhase) {
			t.Fatalf("correct: %v, want %v", err, ErrWrongPhase)
		}
	}
	for name, then := range map[string]func(g *game){
		"a nomination": func(g *game) {
			g.host(Action{Type: ActWarn, Target: id(3)})
			speaker := g.s.player(g.s.speaker()).Seat
			g.do(speaker, ActNominate, speaker%10+1)
		},
		"a vote": func(g *game) {
			g.speeches(map[int]int{2: 5, 3: 6})
			g.want(PhaseVote)
			g.host(Action{Type: ActWarn, Target: id(8)})
			g.do(1, ActVote, 5)
		},
		"a night tap": func(g *game) {
			g.skipDay()
			g.want(PhaseNight)
			g.host(Action{Type: ActWarn, Target: id(8)})
			g.do(8, ActSleep, 0)
		},
		"the morning": func(g *game) {
			g.skipDay()
			g.want(PhaseNight)
			for night := g.s.Night; g.s.Night == night && g.s.Phase.Name == PhaseNight; {
				g.host(Action{Type: ActAdvance})
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			g := sport10(t)
			g.s.Moderator = ModeratorHost
			g.quietNight()
			then(g)
			refused(t, g)
		})
	}
}

// TestCorrectionOfTheAppsHost: when the app moderates, the host's screen takes
// back a pause, the step going on with the time it had, and a skipped speech,
// the speaker back at their minute with what was left of it.
func TestCorrectionOfTheAppsHost(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.tick(20 * time.Second)
	before, beforeAt := g.s, g.now
	g.host(Action{Type: ActPause})
	g.tick(5 * time.Minute)
	g.host(Action{Type: ActCorrect})
	if err := asBefore(before, beforeAt, g.s, g.now, []Decision{{ActPause, ""}}); err != nil {
		t.Fatal(err)
	}
	before, beforeAt = g.s, g.now
	g.host(Action{Type: ActAdvance})
	g.tick(15 * time.Second)
	g.host(Action{Type: ActCorrect})
	if err := asBefore(before, beforeAt, g.s, g.now, []Decision{{ActPause, ""}, {ActAdvance, ""}}); err != nil {
		t.Fatal(err)
	}
}

// TestCorrectedRemovalKeepsTheCardShown: a removal under open roles
// (R-CLASSIC-03) shows the card to everyone; taking the removal back brings
// the player back, and the card stays face up, since everyone has seen it.
func TestCorrectedRemovalKeepsTheCardShown(t *testing.T) {
	g := newGame(t, PresetClassic, 10, nil, Mafia, Mafia, Mafia, Sheriff)
	g.s.Moderator = ModeratorHost
	g.quietNight()
	g.host(Action{Type: ActRemove, Target: id(2)})
	g.host(Action{Type: ActCorrect})
	p := g.s.player(id(2))
	if !p.Alive || !p.Shown {
		t.Fatalf("#2 after the correction: alive %v, card shown %v; want both", p.Alive, p.Shown)
	}
	if role := ViewOf(g.s, Public, g.now).Players[1].Role; role != Mafia {
		t.Fatalf("the shared screen shows #2 as %q, want the card seen, %q", role, Mafia)
	}
}

// TestPropertyCorrections: in random games of every preset, at a random
// moment, one to three random decisions of the host taken back one by one give
// every viewer the game as it was before them, and nothing else: no card, no
// check, no night choice shown that was not shown before (the views compared
// are the whole per-viewer views).
func TestPropertyCorrections(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawLobby(t, "PROP02")
		now := t0
		start := Action{Type: ActStart}
		start.Deal[0] = rapid.Byte().Draw(t, "seed")
		s = mustApply(t, s, Actor{Host: true}, start, now)
		for range rapid.IntRange(0, 120).Draw(t, "prefix") {
			if s.Phase.Name == PhaseGameOver {
				return
			}
			actor, a, ok := legalAction(t, s)
			if !ok || actor.Host {
				now = now.Add(time.Duration(rapid.IntRange(1, 30).Draw(t, "secs")) * time.Second)
				s = Advance(s, now)
				continue
			}
			s = mustApply(t, s, actor, a, now)
		}
		s = Advance(s, now)
		if s.Phase.Name == PhaseGameOver {
			return
		}
		before, beforeAt := s, now
		var made []Decision
		for range rapid.IntRange(1, MaxCorrections).Draw(t, "decisions") {
			if s = Advance(s, now); s.Phase.Name == PhaseGameOver || s.Day != before.Day {
				return // the clock brought the morning or the end: the decisions are final
			}
			opts := slices.DeleteFunc(Legal(s, Actor{Host: true}), func(o Option) bool { return !correctable[o.Type] })
			if len(opts) == 0 {
				break
			}
			o := rapid.SampledFrom(opts).Draw(t, "decision")
			a := Action{Type: o.Type, Now: o.Type == ActAdvance}
			if len(o.Targets) > 0 {
				a.Target = rapid.SampledFrom(o.Targets).Draw(t, "target")
			}
			if o.Type == ActManiacSide {
				a.Side = rapid.SampledFrom([]ManiacSide{ManiacAlone, ManiacMafia}).Draw(t, "side")
			}
			next, err := Apply(s, Actor{Host: true}, a, now)
			if err != nil {
				t.Fatalf("host %s: %v", a.Type, err)
			}
			if s.Phase.Name == PhaseLobby || next.Phase.Name == PhaseGameOver || next.Day != before.Day {
				break // the deal's hand-over, the end or the morning: nothing to take back
			}
			s = next
			d := Decision{Type: a.Type}
			if a.Type == ActWarn || a.Type == ActRemove {
				d.Target = a.Target
			}
			made = append(made, d)
			now = now.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "later")) * time.Second)
		}
		if s = Advance(s, now); s.Phase.Name == PhaseGameOver || s.Day != before.Day {
			return // the clock brought the morning or the end: the decisions are final
		}
		var told []Decision
		for i := len(made) - 1; i >= 0; i-- {
			s = mustApply(t, s, Actor{Host: true}, Action{Type: ActCorrect}, now)
			told = append(told, made[i])
		}
		if err := asBefore(seen(before, s), beforeAt, s, now, told); err != nil {
			t.Fatal(err)
		}
	})
}

// seen is before with the cards turned face up, in the order after's story
// tells it, that are face up in after: a removal under open roles, taken back,
// leaves its card so.
func seen(before, after State) State {
	before = before.clone()
	for _, e := range after.Events {
		if q := before.player(e.Target); e.Type == EvRole && q != nil && !q.Shown {
			before.showCard(q)
		}
	}
	return before
}
