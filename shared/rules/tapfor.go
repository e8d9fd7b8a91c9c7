package rules

import "slices"

// Tapping for a seat (issue 28): a phone that dies in the middle of a night
// wake of a game a person moderates need not hold the wake up until the seat
// moves to another phone. Its player tells the moderator their choice, as at
// a table without phones, and the moderator, who sees every card anyway, taps
// it on the console (ActTapFor). The tap is the seat's own: it is offered and
// checked as the seat's phone's would be, and it does what that tap does (the
// pending count, the wake's end, a check's answer in the seat's own story, a
// shot the black team sees), so that no other view tells it from a tap of the
// phone. Only the moderator's story, and from it the protocol, says who
// made it (EvTappedFor). Where the app moderates, the host sees no card and
// must not be told one: the seat moves to another phone instead (ActReseat).

// Tap is a seat's one tap of a night wake as its phone sends it: an act of its
// role with its target ({"type": "kill", "target": "p6"}), or "sleep".
type Tap struct {
	Type   ActionType `json:"type"`
	Target string     `json:"target,omitempty"`
}

// action is the tap as the seat's own action.
func (t Tap) action() Action { return Action{Type: t.Type, Target: t.Target} }

// SeatTaps is what one seat may tap now, as its phone is offered it: the
// moderator's "tap_for" lists it for every seat still to tap, so that the
// console draws the seat's choice from it as the phone does.
type SeatTaps struct {
	Target  string   `json:"target"`
	Actions []Option `json:"actions"`
}

// tapForOption offers the moderator, in a night wake of a game a person
// moderates, the tap of each living seat that has not tapped yet, with what
// that seat's phone is offered. stepOptions asks for it only while the wake
// waits for taps: not in its hand-over, nor paused.
func (s *State) tapForOption() []Option {
	if s.Moderator != ModeratorHost || s.Phase.Name != PhaseNight {
		return nil
	}
	o := Option{Type: ActTapFor}
	for _, p := range s.living() {
		if !slices.Contains(s.Done, p.ID) {
			o.Targets = append(o.Targets, p.ID)
			o.Taps = append(o.Taps, SeatTaps{Target: p.ID, Actions: s.playerOptions(p)})
		}
	}
	if o.Targets == nil {
		return nil
	}
	return []Option{o}
}

// checkTapFor checks a "tap_for" while the moderator is offered one (o): the
// seat must be one still to tap, and its tap is refused as the seat's phone's
// would be, for the same reason.
func (s *State) checkTapFor(o Option, a Action) error {
	switch {
	case !slices.Contains(o.Targets, a.Target):
		return s.tapForRefusal(a)
	case a.Tap == nil || !playerActions[a.Tap.Type]:
		return refusal(ErrBadField, `tap_for needs tap: the seat's own night tap, as {"type": "kill", "target": "p6"} or {"type": "sleep"}`)
	}
	return s.check(Actor{Player: a.Target}, a.Tap.action())
}

// errTapForApp refuses a tap for a seat where the app moderates: its host sees
// no card, and a tap would tell them one.
var errTapForApp = refusal(ErrNotHost, "tap_for: only a person who moderates taps for a seat; where the app moderates, move the seat to another phone (reseat)")

// tapForRefusal says why the moderator may not tap for a.Target now: the app
// moderates, the game is paused, no wake waits for taps, or the seat is no
// one's, is out of the game, or has tapped in this wake already.
func (s *State) tapForRefusal(a Action) error {
	p := s.player(a.Target)
	switch {
	case s.Moderator != ModeratorHost:
		return errTapForApp
	case s.Phase.Paused > 0:
		return ErrPaused
	case s.Phase.Name != PhaseNight || s.Phase.Closing:
		return refusal(ErrWrongPhase, "tap_for: only in a night wake that waits for taps")
	case p == nil:
		return refusal(ErrBadTarget, "tap_for: there is no such seat at the table")
	case !p.Alive:
		return refusal(ErrDead, "tap_for: that seat is out of the game and has no tap")
	}
	return refusal(ErrAlreadyActed, "tap_for: that seat has tapped in this wake already")
}
