package httpapi

import (
	"time"

	"citysleeps/shared/rules"
)

// How long a client should wait before its next poll, by the view's pace
// (rules.Pace). Every view carries the hint as pollAfterMs; after a 304 a client
// keeps the hint of the view it has, capped by its deadline. Polls are most of what a game
// costs on AWS (an API Gateway request each), so a client polls fast only while
// another's tap may hand it something to do; otherwise it waits for the deadline
// that will next move the game, or a few seconds.
const (
	// pollUrgent: another player's tap may ask something of this viewer (the next
	// speaker, the vote about to open): they see it within about a second.
	pollUrgent = 900 * time.Millisecond
	// pollActing: the viewer has something to do; their own action returns the
	// next view, and what others do meanwhile changes little for them.
	pollActing = 2500 * time.Millisecond
	// pollWatching: the shared screen and the moderator follow the table as it
	// happens: taps, nominations, joins.
	pollWatching = 1500 * time.Millisecond
	// pollIdle: only the clock or the host can change what this viewer needs;
	// the deadline cuts the wait short.
	pollIdle = 8 * time.Second
	// pollOver: a finished game never changes again; the slow poll only notices
	// that the page is still open.
	pollOver = 30 * time.Second

	// deadlineSlack: a poll capped by a deadline comes this long after it, so
	// that the view shows the step the deadline brings.
	deadlineSlack = 150 * time.Millisecond
	// pollMin is the shortest hint ever given.
	pollMin = 250 * time.Millisecond
)

// pollAfter is the hint for a viewer whose view is v, at now.
func pollAfter(v rules.View, now time.Time) time.Duration {
	if v.Phase.Name == rules.PhaseGameOver {
		return pollOver
	}
	d := map[rules.Pace]time.Duration{rules.PaceUrgent: pollUrgent, rules.PaceActing: pollActing,
		rules.PaceWatching: pollWatching, rules.PaceIdle: pollIdle}[v.Pace]
	// Deadlines move the game on by themselves only when the app moderates; a
	// human moderator moves it with "advance".
	if v.Moderator == rules.ModeratorApp && v.Phase.EndsAt != nil {
		if left := v.Phase.EndsAt.Sub(now) + deadlineSlack; left < d {
			d = left
		}
	}
	return max(d, pollMin)
}
