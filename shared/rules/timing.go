package rules

import "time"

// Timing is all a client needs to time its polls, and it is the same for every
// viewer: it comes from public state alone (the phase's deadline, whether a
// hand-over is running, the rules' hand-over), never from a role, a night
// choice or a victim, so that how often a phone asks says nothing a player
// may not know.
type Timing struct {
	// Over: the game has ended and will not change again.
	Over bool
	// Hold: a hand-over is running (a step closing, or a paused step about to
	// go on): nobody acts, and the game moves on at Due.
	Hold bool
	// Due is when the clock next moves the game by itself (NextDeadline);
	// zero when only an action can.
	Due time.Time
	// HandOver is the rules' hand-over (Options.HandOver).
	HandOver time.Duration
}

// TimingOf returns the timing of s as stored; apply Advance first for the
// timing at a later moment.
func TimingOf(s State) Timing {
	return Timing{
		Over:     s.Phase.Name == PhaseGameOver,
		Hold:     s.Phase.Closing || s.Phase.Resuming,
		Due:      NextDeadline(s),
		HandOver: seconds(s.Rules.HandOver),
	}
}
