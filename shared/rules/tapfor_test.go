package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// tapFor is the moderator's tap for seat, as its phone would send typ on
// target (0: none).
func tapFor(seat int, typ ActionType, target int) Action {
	tap := &Tap{Type: typ}
	if target > 0 {
		tap.Target = id(target)
	}
	return Action{Type: ActTapFor, Target: id(seat), Tap: tap}
}

// tappedAsPhone returns an error unless every view of byMod at now is the view
// of byPhone, JSON byte for byte and with the same timing, but the
// moderator's, whose story tells besides who made the taps (EvTappedFor).
func tappedAsPhone(byPhone, byMod State, now time.Time) error {
	for _, v := range viewers(byPhone) {
		vp, vm := ViewOf(byPhone, v, now), ViewOf(byMod, v, now)
		if v.Host {
			for _, w := range []*View{&vp, &vm} {
				w.Events = slices.DeleteFunc(w.Events, func(e Event) bool { return e.Type == EvTappedFor })
			}
		}
		jp, err := json.Marshal(vp)
		if err != nil {
			return err
		}
		jm, err := json.Marshal(vm)
		if err != nil {
			return err
		}
		if !bytes.Equal(jp, jm) || vp.Timing != vm.Timing {
			return fmt.Errorf("%+v: after the moderator's tap\n%s\nafter the phone's\n%s", v, jm, jp)
		}
	}
	return nil
}

// TestTapForIsTheSeatsOwnTap (issue 28): in a game a person moderates, the
// moderator taps for seats whose phones died in night 2 — a black player's
// shot, the Sheriff's check, a citizen's sleep, the last tap of the wake, and
// the Don's check in the second wake — and the game goes on exactly as if the
// phones had tapped: every view but the moderator's is the same, byte for
// byte, at every tap, in the hand-overs and into the morning; the pending
// count drops by one at each tap; the Sheriff's answer is in the Sheriff's
// own view. The moderator's story alone tells, before each of those taps,
// that the moderator made it.
func TestTapForIsTheSeatsOwnTap(t *testing.T) {
	phone, mod := sport10(t), sport10(t)
	for _, g := range []*game{phone, mod} {
		g.s.Moderator = ModeratorHost
		g.quietNight()
		g.skipDay()
		g.want(PhaseNight)
	}
	var tapped []string
	tap := func(seat int, typ ActionType, target int, byMod bool) {
		t.Helper()
		a := Action{Type: typ}
		if target > 0 {
			a.Target = id(target)
		}
		byPhone, err := Apply(phone.s, Actor{Player: id(seat)}, a, phone.now)
		if err != nil {
			t.Fatalf("seat %d's phone: %s: %v", seat, typ, err)
		}
		actor := Actor{Player: id(seat)}
		if byMod {
			actor, a = Actor{Host: true}, tapFor(seat, typ, target)
			tapped = append(tapped, id(seat))
		}
		pending := ViewOf(mod.s, Public, mod.now).Phase.Pending
		next, err := Apply(mod.s, actor, a, mod.now)
		if err != nil {
			t.Fatalf("%+v: %s for seat %d: %v", actor, a.Type, seat, err)
		}
		if got := ViewOf(next, Public, mod.now).Phase.Pending; got != pending-1 {
			t.Errorf("seat %d's tap: pending %d, was %d", seat, got, pending)
		}
		if err := tappedAsPhone(byPhone, next, mod.now); err != nil {
			t.Fatalf("seat %d's %s: %v", seat, typ, err)
		}
		phone.s, mod.s = byPhone, next
		if next.Phase.Closing {
			phone.tick(next.Phase.EndsAt.Sub(phone.now))
			mod.tick(next.Phase.EndsAt.Sub(mod.now))
			if err := tappedAsPhone(phone.s, mod.s, mod.now); err != nil {
				t.Fatalf("after the hand-over: %v", err)
			}
		}
	}
	tap(1, ActKill, 7, false)
	tap(2, ActKill, 7, true)
	tap(3, ActKill, 7, false)
	tap(4, ActCheck, 1, true)
	tap(5, ActSleep, 0, true)
	for seat := 6; seat <= 9; seat++ {
		tap(seat, ActSleep, 0, false)
	}
	tap(10, ActSleep, 0, true) // the wake's last tap ends it
	if mod.s.Phase.Name != PhaseNight || mod.s.Phase.Wake != 2 {
		t.Fatalf("after the first wake: %s wake %d", mod.s.Phase.Name, mod.s.Phase.Wake)
	}
	tap(1, ActCheck, 4, true) // R-SPORT-11: the Don's check, in the second wake
	for seat := 2; seat <= 10; seat++ {
		tap(seat, ActSleep, 0, false)
	}
	mod.want(PhaseLastWord)
	mod.wantDead(7)
	if c := mod.s.player(id(4)).Checks; len(c) != 1 || c[0].Target != id(1) || !c[0].Yes {
		t.Errorf("R-SPORT-12: the Sheriff's checks %+v", c)
	}
	var told []string
	for _, e := range mod.s.Events {
		if e.Type == EvTappedFor {
			if e.To != ToMod || e.Night != 2 {
				t.Errorf("the line %+v is not the moderator's, of night 2", e)
			}
			told = append(told, e.Target)
		}
	}
	if !slices.Equal(told, tapped) {
		t.Errorf("the moderator's story tells the taps for %v, want %v", told, tapped)
	}
}

// nightTwo is a sport game a person moderates in the first wake of night 2,
// where seat 5 has slept (its phone tapped) and the moderator has removed
// seat 9.
func nightTwo(t *testing.T) *game {
	g := sport10(t)
	g.s.Moderator = ModeratorHost
	g.quietNight()
	g.skipDay()
	g.want(PhaseNight)
	g.do(5, ActSleep, 0)
	g.host(Action{Type: ActRemove, Target: id(9)})
	return g
}

// TestTapForOffersEachSeatItsPhonesTaps (issue 28): in a night wake of a game
// a person moderates, the host's view offers a tap for each living seat that
// has not tapped yet, in seat order, each with what that seat's phone is
// offered; none for a seat that tapped or left. Nothing is offered where the
// app moderates, by day, in the wake's hand-over or while it is paused.
func TestTapForOffersEachSeatItsPhonesTaps(t *testing.T) {
	g := nightTwo(t)
	o, ok := hostOption(g.s, ActTapFor)
	want := []string{id(1), id(2), id(3), id(4), id(6), id(7), id(8), id(10)}
	if !ok || !slices.Equal(o.Targets, want) || len(o.Taps) != len(want) {
		t.Fatalf("the moderator is offered %+v, want a tap for %v", o, want)
	}
	for i, seat := range o.Taps {
		if seat.Target != want[i] || fmt.Sprint(seat.Actions) != fmt.Sprint(Legal(g.s, Actor{Player: seat.Target})) {
			t.Errorf("the tap for %s offers %+v, its phone %+v", seat.Target, seat.Actions, Legal(g.s, Actor{Player: seat.Target}))
		}
	}
	app := g.s
	app.Moderator = ModeratorApp
	for name, s := range map[string]State{"app": app, "paused": pausedAt(t, g), "hand-over": wakeOver(t, g)} {
		if o, ok := hostOption(s, ActTapFor); ok {
			t.Errorf("%s: the host is offered %+v", name, o)
		}
	}
	g.sleepNight()
	g.lastWords()
	if o, ok := hostOption(g.s, ActTapFor); ok {
		t.Errorf("by day the host is offered %+v", o)
	}
}

// hostOption is the host's option of type typ in s, if any.
func hostOption(s State, typ ActionType) (Option, bool) {
	opts := Legal(s, Actor{Host: true})
	i := slices.IndexFunc(opts, func(o Option) bool { return o.Type == typ })
	if i < 0 {
		return Option{}, false
	}
	return opts[i], true
}

// wakeOver is g's game in the hand-over that ends the wake: every seat still to
// tap has slept.
func wakeOver(t *testing.T, g *game) State {
	t.Helper()
	s := g.s
	for _, p := range s.living() {
		if !slices.Contains(s.Done, p.ID) {
			var err error
			if s, err = Apply(s, Actor{Player: p.ID}, Action{Type: ActSleep}, g.now); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !s.Phase.Closing {
		t.Fatalf("every seat tapped, and the wake is not over: %+v", s.Phase)
	}
	return s
}

// TestTapForRefusals (issue 28): the moderator's tap for a seat is refused,
// changing nothing, for a seat that has tapped, by its phone or by the
// moderator; for a seat out of the game; outside a wake that waits for taps
// (by day, in its hand-over, paused, in the lobby); where the app moderates;
// from a player; for no seat at the table; and, as the seat's phone would be,
// with no tap, a tap that is no player's, an act the seat's card has not or a
// target its act may not take.
func TestTapForRefusals(t *testing.T) {
	g := nightTwo(t)
	tapped := g.s
	var err error
	if tapped, err = Apply(tapped, Actor{Host: true}, tapFor(6, ActSleep, 0), g.now); err != nil {
		t.Fatal(err)
	}
	app := g.s
	app.Moderator = ModeratorApp
	day := sport10(t)
	day.s.Moderator = ModeratorHost
	day.quietNight()
	lobby := newLobby(t)
	lobby.Moderator = ModeratorHost
	host := Actor{Host: true}
	for _, c := range []struct {
		name  string
		s     State
		actor Actor
		a     Action
		want  error
	}{
		{"tapped by its phone", g.s, host, tapFor(5, ActSleep, 0), ErrAlreadyActed},
		{"tapped by the moderator", tapped, host, tapFor(6, ActSleep, 0), ErrAlreadyActed},
		{"a seat removed", g.s, host, tapFor(9, ActSleep, 0), ErrDead},
		{"by day", day.s, host, tapFor(3, ActSleep, 0), ErrWrongPhase},
		{"in the wake's hand-over", wakeOver(t, g), host, tapFor(3, ActSleep, 0), ErrWrongPhase},
		{"paused", pausedAt(t, g), host, tapFor(3, ActSleep, 0), ErrPaused},
		{"in the lobby", lobby, host, tapFor(3, ActSleep, 0), ErrWrongPhase},
		{"the app moderates", app, host, tapFor(3, ActKill, 7), ErrNotHost},
		{"a player", g.s, Actor{Player: id(3)}, tapFor(3, ActKill, 7), ErrNotHost},
		{"no such seat", g.s, host, tapFor(11, ActSleep, 0), ErrBadTarget},
		{"no tap", g.s, host, Action{Type: ActTapFor, Target: id(3)}, ErrBadField},
		{"a host's action", g.s, host, tapFor(3, ActAdvance, 0), ErrBadField},
		{"an act of another card", g.s, host, tapFor(6, ActKill, 7), ErrNotYourRole},
		{"a target the act may not take", g.s, host, tapFor(3, ActKill, 3), ErrBadTarget},
	} {
		n, err := Apply(c.s, c.actor, c.a, g.now)
		if !errors.Is(err, c.want) || !equalState(n, c.s) {
			t.Errorf("%s: %v, want %v (state unchanged: %v)", c.name, err, c.want, equalState(n, c.s))
		}
	}
	over := g.s
	over.Phase, over.Winner = Phase{Name: PhaseGameOver}, Town
	if _, err := Apply(over, host, tapFor(3, ActSleep, 0), g.now); !errors.Is(err, ErrGameOver) {
		t.Errorf("after the end: %v", err)
	}
}
