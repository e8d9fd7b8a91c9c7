package rules

import (
	"slices"
	"time"
)

// Pace says how soon a viewer's screen may change in a way that matters to them,
// so that a client polls fast only when it must: a player whom another's tap may
// ask to act learns of it in time, and everyone else polls rarely. Most of what a
// game costs on AWS is these polls.
type Pace struct {
	// Acting: the game waits for this viewer now; their own action brings the
	// next view.
	Acting bool
	// Watching: a screen that follows the table as it happens: the shared
	// screen, a moderator, the lobby's list of names.
	Watching bool
	// Steps: the game asks this viewer to act once this many more steps have
	// ended, and others' taps may end them; 0 if not within paceLookahead steps.
	// With a hand-over (Options.HandOver) each step a tap ends lasts at least
	// the hand-over, so a client that polls a little more often than Steps
	// hand-overs sees the step that asks it as it opens.
	Steps int
}

// paceLookahead is how many steps ahead PaceOf looks.
const paceLookahead = 4

// PaceOf returns viewer v's pace in s at now.
func PaceOf(s State, v Viewer, now time.Time) Pace {
	s = Advance(s, now)
	switch {
	case s.Phase.Name == PhaseGameOver:
		return Pace{}
	case s.Phase.Paused > 0:
		// Only the host's "resume" moves the game, and it asks at once, with no
		// hand-over, whatever it asked before the pause.
		return Pace{Watching: true}
	case v.Host || v.Player == "":
		return Pace{Watching: true}
	case s.player(v.Player) == nil:
		return Pace{}
	case s.Phase.Name == PhaseLobby:
		// Names come and go, and the host's start asks everyone for a night task.
		return Pace{Watching: true, Steps: 1}
	case awaits(Legal(s, Actor{Player: v.Player})):
		return Pace{Acting: true}
	case s.Phase.Name == PhaseNight && s.Rules.DoctorVictims && s.roleAlive(Doctor) && s.player(v.Player).Alive:
		// The Doctor's step, a night task for every living player, follows any
		// night with a victim (R-MANIAC-07); the victims are not known until
		// the night's tasks are in, so looking ahead cannot tell.
		return Pace{Steps: 1}
	}
	// Play the next steps as if each ended now and see which one first asks
	// something of this viewer: taps and the clock lead to the same steps.
	next := s.clone()
	for k := 1; k <= paceLookahead; k++ {
		next.timeout(now)
		if next.Phase.Name == PhaseGameOver {
			break
		}
		if awaits(Legal(next, Actor{Player: v.Player})) {
			return Pace{Steps: k}
		}
	}
	return Pace{}
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
