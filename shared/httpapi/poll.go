package httpapi

import (
	"time"

	"citysleeps/shared/rules"
)

// How long a client should wait before its next poll, by what it is waiting for.
// Every view carries the hint as pollAfterMs (and the X-Poll-After-Ms header,
// which a 304 carries too). The numbers trade how quickly a screen follows the
// table against requests per game, which the bench measures and AWS bills.
const (
	// pollSoon: this viewer is awaited (a night task, their speech, their vote) or
	// a deadline is near. A tap shows on the other phones within a second.
	pollSoon = 700 * time.Millisecond
	// pollLobby: players join in a burst while the shared screen shows the QR
	// code; each name should appear there and on the other phones at once.
	pollLobby = 1000 * time.Millisecond
	// pollGame: in play, waiting for others. Other players' taps, votes and the
	// end of a speech show within about two seconds.
	pollGame = 1500 * time.Millisecond
	// pollPaused: only the host's "resume" changes a paused game.
	pollPaused = 3000 * time.Millisecond
	// pollOver: a finished game never changes again; the slow poll only notices
	// that the page is still open.
	pollOver = 10 * time.Second

	// nearDeadline: within this of a deadline every viewer polls soon, so the
	// screens move on together when the time is up.
	nearDeadline = 5 * time.Second
	// deadlineSlack: a poll capped by a deadline comes this long after it, so
	// that the server sees the deadline passed and applies it.
	deadlineSlack = 100 * time.Millisecond
	// pollMin is the shortest hint ever given.
	pollMin = 250 * time.Millisecond
)

// pollAfter is the hint for viewer, whose view is v, at now.
func pollAfter(v rules.View, player bool, now time.Time) time.Duration {
	switch {
	case v.Phase.Name == rules.PhaseGameOver || v.Winner != nil:
		return pollOver
	case v.Phase.Name == rules.PhaseLobby:
		return pollLobby
	case v.Phase.Paused:
		return pollPaused
	}
	d := pollGame
	if player && awaited(v.Actions) {
		d = pollSoon
	}
	// Deadlines move the game on by themselves only when the app moderates; a
	// human moderator moves it with "advance".
	if v.Moderator == rules.ModeratorApp && v.Phase.EndsAt != nil {
		left := v.Phase.EndsAt.Sub(now)
		if left <= nearDeadline {
			d = min(d, pollSoon)
		}
		if left > 0 && left+deadlineSlack < d {
			d = left + deadlineSlack
		}
	}
	return max(d, pollMin)
}

// awaited reports whether the actions include one the table waits for: any but
// the optional ones a player may take at any time of the day.
func awaited(actions []rules.Option) bool {
	for _, o := range actions {
		switch o.Type {
		case rules.ActReveal, rules.ActWithdraw, rules.ActLeave:
		default:
			return true
		}
	}
	return false
}
