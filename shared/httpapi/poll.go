package httpapi

import (
	"time"

	"citysleeps/shared/rules"
)

// How long a client should wait before its next poll, by the view's pace
// (rules.Pace). Every view carries the hint as pollAfterMs; after a 304 a client
// keeps the hint of the view it has, capped by its deadline. Polls are most of
// what a game costs on AWS (an API Gateway request each), so a client polls
// often only while another's tap may soon ask it to act; otherwise it waits for
// the deadline that will next move the game, or many seconds.
const (
	// handOverMargin: a client Steps steps away from being asked polls this much
	// more often than Steps hand-overs, so that one poll falls inside the
	// hand-over before its step and the next comes as the step opens.
	handOverMargin = 600 * time.Millisecond
	// pollUrgent: without a hand-over (a human moderator, or handOver 0) a tap
	// opens the next step at once; a player it may ask polls this often, to see
	// it within about a second.
	pollUrgent = 900 * time.Millisecond
	// pollActing: the viewer has something to do; their own action returns the
	// next view, and what others do meanwhile changes little for them. A human
	// moderator may move on at any moment, so their players look more often.
	pollActing          = 10 * time.Second
	pollActingModerated = 2500 * time.Millisecond
	// pollWatching: the shared screen follows the table: taps, nominations,
	// joins. A moderator's console shows the night's choices as they come.
	pollWatching          = 4 * time.Second
	pollWatchingModerated = 1500 * time.Millisecond
	// pollIdle: nothing others do soon asks this viewer anything; the deadline
	// cuts the wait short.
	pollIdle = 20 * time.Second
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
	app := v.Moderator == rules.ModeratorApp
	handOver := time.Duration(v.Rules.HandOver) * time.Second
	p := v.Pace
	var d time.Duration
	switch {
	case p.Steps > 0 && app && handOver > 0:
		d = time.Duration(p.Steps)*handOver - handOverMargin
	case p.Steps > 0:
		d = time.Duration(p.Steps) * pollUrgent
	case p.Acting && app:
		d = pollActing
	case p.Acting:
		d = pollActingModerated
	default:
		d = pollIdle
	}
	if p.Watching {
		w := pollWatching
		if !app {
			w = pollWatchingModerated
		}
		d = min(d, w)
	}
	d = min(d, pollIdle)
	// Deadlines move the game on by themselves only when the app moderates; a
	// human moderator moves it with "advance".
	if app && v.Phase.EndsAt != nil {
		if left := v.Phase.EndsAt.Sub(now) + deadlineSlack; left < d {
			d = left
		}
	}
	return max(d, pollMin)
}
