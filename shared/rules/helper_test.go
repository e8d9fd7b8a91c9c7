package rules

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

// game is a scripted game: a state, a clock and helpers that fail the test on any
// unexpected refusal.
type game struct {
	t   testing.TB
	s   State
	now time.Time
}

// newGame seats n players named after their seats (p1 sits in seat 1), starts the
// game and deals roles in seat order; missing roles are citizens.
func newGame(t testing.TB, preset string, n int, tweak func(*Options), roles ...Role) *game {
	t.Helper()
	o, err := Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	o.DrawSeats = false
	if tweak != nil {
		tweak(&o)
	}
	s, err := New("TEST01", o, ModeratorApp, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if s, _, err = Join(s, fmt.Sprintf("Player %d", i+1), t0); err != nil {
			t.Fatal(err)
		}
	}
	g := &game{t: t, s: s, now: t0}
	g.host(Action{Type: ActStart})
	for i := range g.s.Players {
		g.s.Players[i].Role = Citizen
		if i < len(roles) {
			g.s.Players[i].Role = roles[i]
		}
	}
	return g
}

// sport10 is the usual sport deal: seat 1 Don, 2-3 mafia, 4 Sheriff, the rest citizens.
func sport10(t testing.TB) *game {
	return newGame(t, PresetSport, 10, nil, Don, Mafia, Mafia, Sheriff)
}

func id(seat int) string { return fmt.Sprintf("p%d", seat) }

func (g *game) tick(d time.Duration) { g.now = g.now.Add(d); g.s = Advance(g.s, g.now) }

func (g *game) apply(actor Actor, a Action) error {
	g.t.Helper()
	before := g.s
	n, err := Apply(g.s, actor, a, g.now)
	if err != nil {
		if !equalState(n, before) {
			g.t.Fatalf("%s refused but the state changed", a.Type)
		}
		return err
	}
	g.s = n
	// A step a tap completed closes for the hand-over (Options.HandOver); the
	// scripts go on from the step it opens.
	if g.s.Phase.Closing || g.s.Phase.Resuming {
		g.tick(g.s.Phase.EndsAt.Sub(g.now))
	}
	return nil
}

func (g *game) host(a Action) {
	g.t.Helper()
	if err := g.apply(Actor{Host: true}, a); err != nil {
		g.t.Fatalf("host %s: %v", a.Type, err)
	}
}

func (g *game) do(seat int, typ ActionType, target int) {
	g.t.Helper()
	a := Action{Type: typ}
	if target > 0 {
		a.Target = id(target)
	}
	if err := g.apply(Actor{Player: id(seat)}, a); err != nil {
		g.t.Fatalf("seat %d %s %d in %s: %v", seat, typ, target, g.s.Phase.Name, err)
	}
}

func (g *game) refuse(seat int, a Action, want error) {
	g.t.Helper()
	err := g.apply(Actor{Player: id(seat)}, a)
	if !errors.Is(err, want) {
		g.t.Fatalf("seat %d %s: got %v, want %v", seat, a.Type, err, want)
	}
}

// night plays a night: acts maps a seat to its acts as "type:target" pairs,
// played in the order given, each in the first wake that offers it; every other
// living player sleeps in each wake.
func (g *game) night(acts map[int][]string) {
	g.t.Helper()
	g.want(PhaseNight)
	todo := map[int][]string{}
	for seat, list := range acts {
		todo[seat] = slices.Clone(list)
	}
	night := g.s.Night
	for g.s.Phase.Name == PhaseNight && g.s.Night == night {
		wake := g.s.Phase.Wake
		for seat := range len(g.s.Players) + 1 {
			if len(todo[seat]) == 0 {
				continue
			}
			kind, target, _ := strings.Cut(todo[seat][0], ":")
			typ := ActionType(kind)
			if !slices.ContainsFunc(Legal(g.s, Actor{Player: id(seat)}), func(o Option) bool { return o.Type == typ }) {
				continue
			}
			var n int
			fmt.Sscan(target, &n)
			g.do(seat, typ, n)
			todo[seat] = todo[seat][1:]
		}
		g.sleepRest()
		if g.s.Phase.Name == PhaseNight && g.s.Night == night && g.s.Phase.Wake == wake {
			g.t.Fatalf("night %d wake %d did not end", night, wake)
		}
	}
	for seat, list := range todo {
		if len(list) > 0 {
			g.t.Fatalf("seat %d never got to %v in night %d", seat, list, night)
		}
	}
}

// wake plays the current wake of the night only: acts maps a seat to its one
// act of this wake, "type:target"; every other living player sleeps.
func (g *game) wake(acts map[int]string) {
	g.t.Helper()
	g.want(PhaseNight)
	night, wake := g.s.Night, g.s.Phase.Wake
	for seat := range len(g.s.Players) + 1 {
		if a, ok := acts[seat]; ok {
			kind, target, _ := strings.Cut(a, ":")
			typ := ActionType(kind)
			var n int
			fmt.Sscan(target, &n)
			g.do(seat, typ, n)
		}
	}
	g.sleepRest()
	if g.s.Phase.Name == PhaseNight && g.s.Night == night && g.s.Phase.Wake == wake {
		g.t.Fatalf("night %d wake %d did not end", night, wake)
	}
}

// sleepNight makes every living player sleep through what is left of the night,
// wake by wake.
func (g *game) sleepNight() {
	g.t.Helper()
	night := g.s.Night
	for g.s.Phase.Name == PhaseNight && g.s.Night == night {
		g.sleepRest()
	}
}

// sleepRest makes every living player who has not tapped in this wake sleep.
func (g *game) sleepRest() {
	g.t.Helper()
	wake, night := g.s.Phase.Wake, g.s.Night
	for _, p := range g.s.Players {
		if g.s.Phase.Name == PhaseNight && g.s.Phase.Wake == wake && g.s.Night == night && p.Alive && !slices.Contains(g.s.Done, p.ID) {
			g.do(p.Seat, ActSleep, 0)
		}
	}
}

// speeches lets every speaker of the current speech phase speak; noms maps a seat
// to the seat it nominates.
func (g *game) speeches(noms map[int]int) {
	g.t.Helper()
	phase := g.s.Phase.Name
	for g.s.speaker() != "" && g.s.Phase.Name == phase {
		p := g.s.player(g.s.speaker())
		if t, ok := noms[p.Seat]; ok && g.s.Phase.Name == PhaseDay {
			g.do(p.Seat, ActNominate, t)
		}
		g.do(p.Seat, ActEndSpeech, 0)
	}
}

// vote casts the ballots: votes maps a voter seat to a target seat (0 abstains).
func (g *game) vote(votes map[int]int) {
	g.t.Helper()
	g.want(PhaseVote)
	for voter, target := range votes {
		g.do(voter, ActVote, target)
	}
}

func (g *game) voteAll(yes ...int) {
	g.t.Helper()
	g.want(PhaseVoteAll)
	for _, p := range g.s.living() {
		y := slices.Contains(yes, p.Seat)
		if err := g.apply(Actor{Player: p.ID}, Action{Type: ActVoteAll, Yes: &y}); err != nil {
			g.t.Fatal(err)
		}
		if g.s.Phase.Name != PhaseVoteAll {
			return
		}
	}
}

func (g *game) want(phase PhaseName) {
	g.t.Helper()
	if g.s.Phase.Name != phase {
		g.t.Fatalf("phase %s, want %s (last events %v)", g.s.Phase.Name, phase, g.lastEvents(6))
	}
}

func (g *game) alive(seat int) bool { return g.s.player(id(seat)).Alive }

func (g *game) wantAlive(seats ...int) {
	g.t.Helper()
	for _, seat := range seats {
		if !g.alive(seat) {
			g.t.Errorf("seat %d is dead, want alive", seat)
		}
	}
}

func (g *game) wantDead(seats ...int) {
	g.t.Helper()
	for _, seat := range seats {
		if g.alive(seat) {
			g.t.Errorf("seat %d is alive, want dead", seat)
		}
	}
}

func (g *game) wantWinner(w Team) {
	g.t.Helper()
	g.want(PhaseGameOver)
	if g.s.Winner != w {
		g.t.Fatalf("winner %q, want %q", g.s.Winner, w)
	}
}

// hasEvent reports whether an event of type typ (with target seat, if > 0, and
// result, if not empty) was logged.
func (g *game) hasEvent(typ EventType, target int, result string) bool {
	for _, e := range g.s.Events {
		if e.Type == typ && (target == 0 || e.Target == id(target)) && (result == "" || e.Result == result) {
			return true
		}
	}
	return false
}

func (g *game) wantEvent(typ EventType, target int, result string) {
	g.t.Helper()
	if !g.hasEvent(typ, target, result) {
		g.t.Fatalf("no %s event for seat %d result %q; last events %v", typ, target, result, g.lastEvents(10))
	}
}

func (g *game) lastEvents(n int) []string {
	var out []string
	for _, e := range g.s.Events[max(0, len(g.s.Events)-n):] {
		out = append(out, fmt.Sprintf("%s(%s>%s %s)", e.Type, e.Actor, e.Target, e.Result))
	}
	return out
}

// skipDay ends the current day with nobody nominated.
func (g *game) skipDay() {
	g.t.Helper()
	g.speeches(nil)
}

// toDay plays the current night with no acts and lets every last word be said.
func (g *game) quietNight() {
	g.t.Helper()
	g.night(nil)
	g.lastWords()
}

func (g *game) lastWords() {
	g.t.Helper()
	for g.s.Phase.Name == PhaseLastWord {
		g.do(g.s.player(g.s.speaker()).Seat, ActEndSpeech, 0)
	}
}

func equalState(a, b State) bool { return reflect.DeepEqual(a, b) }
