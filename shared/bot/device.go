package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"citysleeps/shared/rules"
)

// A Device is one client at a table on a clock of its own, run as the page
// runs: it polls when the server says, makes up its mind on what it sees,
// waits as long as a person would, and acts. Devices play whole evenings, each
// phone, shared screen and console on its own loop: the load run on the wall
// clock, the simulated real games on a virtual one. A Driver plays a game as
// rounds of Device turns instead (Turn), off the clock, so that a test can
// stop it at the moment it looks at.
type Device struct {
	Conn  Conn
	Clock Clock
	// Mind decides what the device's holder does; nil only watches (a shared
	// screen beside a person's console).
	Mind Mind
	// Pace is when a person carries out what the Mind chose; nil is at once.
	Pace Pace
}

// Clock is the time a Device lives by.
type Clock interface {
	Now() time.Time
	// Sleep waits until the given time and reports false if ctx ended first.
	Sleep(ctx context.Context, until time.Time) bool
}

// Conn is a Device's line to its game, with a page's manners: ETags, the
// server's poll hint, backoff after failures, retries with the same action id.
type Conn interface {
	// Poll reads the view (the last one again when it has not changed) and
	// how long to wait before the next poll. An error ends the Device.
	Poll(ctx context.Context) (v rules.View, wait time.Duration, err error)
	// Act sends a. When the game applies it, ok holds and v and wait are the
	// answer's, as for a poll; ok is false when the game refused it (it had
	// moved on) or never gave a final answer. An error ends the Device.
	Act(ctx context.Context, a rules.Action) (v rules.View, wait time.Duration, ok bool, err error)
}

// Mind decides what a Device's holder does.
type Mind interface {
	// Decide is asked on every view the Device gets while nothing is planned.
	Decide(v rules.View) (rules.Action, bool)
	// Acted is told of each of the holder's own actions that the game applied,
	// with the view it was chosen in.
	Acted(chosenIn rules.View, a rules.Action)
}

// Pace is when a person carries out a, chosen in view v of a step they first
// saw at since: the moment, or false when they would not before the clock
// ends the step. It may block, and return the moment it unblocked (the load
// run holds a table's voters until all are ready, as a vote opens at a table).
type Pace func(ctx context.Context, v rules.View, a rules.Action, since time.Time) (time.Time, bool)

// plan is an action decided and waiting for its moment.
type plan struct {
	action   rules.Action
	at       time.Time
	chosenIn rules.View
}

// Play runs the device from view v, with the next poll wait away, until it
// sees the game over; it returns the last view it got. A plan lasts as long
// as the step it was made in and the views still offer it: a view of another
// step, or one that no longer offers the action (its target was taken out),
// drops it, and the Mind decides again.
func (d *Device) Play(ctx context.Context, v rules.View, wait time.Duration) (rules.View, error) {
	var (
		next      *plan
		step      string
		stepSince time.Time
	)
	for {
		if v.Winner != nil {
			return v, nil
		}
		now := d.Clock.Now()
		if s := Step(v); s != step {
			step, stepSince, next = s, now, nil
		}
		if next != nil && !Offers(v, next.action) {
			next = nil // the game moved on within the step (a target gone)
		}
		if next == nil && d.Mind != nil {
			if a, ok := d.Mind.Decide(v); ok {
				at := now
				if d.Pace != nil {
					at, ok = d.Pace(ctx, v, a, stepSince)
				}
				if ok {
					next = &plan{action: a, at: at, chosenIn: v}
				}
			}
		}
		poll := now.Add(wait)
		if next != nil && !next.at.After(poll) {
			p := *next
			next = nil
			if !d.Clock.Sleep(ctx, p.at) {
				return v, ctx.Err()
			}
			av, aw, ok, err := d.Conn.Act(ctx, p.action)
			if err != nil {
				return v, err
			}
			if ok {
				d.Mind.Acted(p.chosenIn, p.action)
				v, wait = av, aw
				continue
			}
		}
		if !d.Clock.Sleep(ctx, poll) {
			return v, ctx.Err()
		}
		var err error
		if v, wait, err = d.Conn.Poll(ctx); err != nil {
			return v, err
		}
	}
}

// Turn is one turn of the device off the clock: it reads the view and, if
// its Mind decides on an action, takes it at once. It returns the view after
// (the action's answer, or what it read) and whether it acted. A Driver plays
// games as rounds of turns.
func (d *Device) Turn(ctx context.Context) (rules.View, bool, error) {
	v, _, err := d.Conn.Poll(ctx)
	if err != nil || v.Winner != nil || d.Mind == nil {
		return v, false, err
	}
	a, ok := d.Mind.Decide(v)
	if !ok {
		return v, false, nil
	}
	av, _, ok, err := d.Conn.Act(ctx, a)
	if !ok {
		return v, false, err
	}
	d.Mind.Acted(v, a)
	return av, true, nil
}

// Step names the instance of a step that a view shows: a night, a speech, a
// vote. Every step that opens sets a new deadline, so the deadline tells two
// votes over the same candidates apart.
func Step(v rules.View) string {
	ends := ""
	if v.Phase.EndsAt != nil {
		ends = v.Phase.EndsAt.UTC().Format(time.RFC3339Nano)
	}
	speaker := ""
	if v.Phase.Speaker != nil {
		speaker = *v.Phase.Speaker
	}
	return fmt.Sprintf("%s|%d|%d|%s|%s|%s|%s", v.Phase.Name, v.Phase.Day, v.Phase.Night, v.Phase.Reason,
		strings.Join(v.Phase.Candidates, ","), speaker, ends)
}

// Offers reports whether view v offers action a: its type, and its target
// among the type's targets.
func Offers(v rules.View, a rules.Action) bool {
	o, ok := option(v, a.Type)
	return ok && (a.Target == "" || slices.Contains(o.Targets, a.Target))
}

// Player is the Mind of a player's seat: Choose, with a person's constancy. It
// makes up its mind once for what each step offers (a speaker who means to
// talk to the end does not reconsider at every poll, but does when a target
// is taken out), again after each of its own actions, and never offers the
// game again an action it took in the same step.
type Player struct {
	Rand    *rand.Rand
	decided string             // the step and offers of the last decision
	doneIn  string             // the step of done
	done    []rules.ActionType // actions applied in step doneIn
}

// Decide is Mind's.
func (p *Player) Decide(v rules.View) (rules.Action, bool) {
	step := Step(v)
	seen := step + fmt.Sprint(v.Actions)
	if seen == p.decided {
		return rules.Action{}, false
	}
	p.decided = seen
	if step == p.doneIn {
		v.Actions = slices.DeleteFunc(slices.Clone(v.Actions), func(o rules.Option) bool { return slices.Contains(p.done, o.Type) })
	}
	return Choose(v, p.Rand)
}

// Acted is Mind's.
func (p *Player) Acted(chosenIn rules.View, a rules.Action) {
	if step := Step(chosenIn); step != p.doneIn {
		p.doneIn, p.done = step, nil
	}
	p.done = append(p.done, a.Type)
	p.decided = ""
}

// WallClock is the clock of a load run: real time.
var WallClock Clock = wall{}

type wall struct{}

func (wall) Now() time.Time { return time.Now() }

func (wall) Sleep(ctx context.Context, until time.Time) bool {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
