package rules

import (
	"slices"
	"time"
)

// Pace says how soon a viewer's screen may change in a way that matters to them,
// so that a client polls fast only when it must: a player who is about to be asked
// to act sees it within a second, and everyone else polls rarely. Most of what a
// game costs on AWS is these polls.
type Pace int

// The paces, slowest first.
const (
	// PaceIdle: nobody but the clock (or the host) can change what this viewer
	// needs; the client may wait for the deadline.
	PaceIdle Pace = iota
	// PaceActing: the viewer has something to do; their own action brings the
	// next view, and the others' acts do not change what they must do.
	PaceActing
	// PaceWatching: others are acting now and this screen shows it as it
	// happens: the shared screen, a moderator.
	PaceWatching
	// PaceUrgent: others are acting now, and their act may hand this viewer
	// something to do (the next speaker, the vote about to open, the night that
	// is about to fall).
	PaceUrgent
)

// PaceOf returns viewer v's pace in s at now.
func PaceOf(s State, v Viewer, now time.Time) Pace {
	s = Advance(s, now)
	switch {
	case s.Phase.Name == PhaseGameOver || s.Phase.Paused > 0:
		return PaceIdle
	case s.Phase.Name == PhaseLobby:
		// Names come and go on every screen, and the host's start asks everyone
		// for a night task.
		return PaceWatching
	}
	me := ""
	if !v.Host {
		me = v.Player
	}
	if me != "" && s.player(me) == nil {
		return PaceIdle
	}
	if me != "" && awaits(Legal(s, Actor{Player: me})) {
		return PaceActing
	}
	// A human moderator may end any step at any moment; otherwise only players
	// who are awaited (and the clock) move the game.
	others := s.Moderator == ModeratorHost || slices.ContainsFunc(s.Players, func(p Player) bool {
		return p.ID != me && awaits(Legal(s, Actor{Player: p.ID}))
	})
	switch {
	case !others:
		return PaceIdle
	case me == "":
		return PaceWatching
	}
	// Play the next step as the clock would end it and see whether it asks
	// something of this viewer: the others' acts lead to the same step.
	next := s.clone()
	next.timeout(now)
	if awaits(Legal(next, Actor{Player: me})) {
		return PaceUrgent
	}
	return PaceIdle
}

// awaits reports whether opts include one the table waits for: any but the
// optional ones a player may take at any time (raise a hand, reveal, withdraw,
// leave the lobby).
func awaits(opts []Option) bool {
	return slices.ContainsFunc(opts, func(o Option) bool {
		switch o.Type {
		case ActReveal, ActWithdraw, ActLeave, ActRaiseHand:
			return false
		}
		return true
	})
}
