package httpapi

import (
	"time"

	"citysleeps/shared/rules"
)

// The poll policy: how long a client waits before its next poll. It is the one
// place that decides it; every view carries the hint as pollAfterMs and every
// answer to a poll, 304s included, as the X-Poll-After-Ms header, and clients
// follow it (backing off only on errors, and slowing down while hidden).
//
// The hint comes from rules.Timing, which holds public facts only (deadlines,
// hand-overs, the rules' hand-over), and from whether the viewer is a phone or a
// screen, which is public too: two players' phones always get the same hint, so
// how often a phone asks tells nobody what its holder is or what the night
// holds.
//
// Every step that ends before its deadline (a tap, the moderator's "next") is
// followed by a hand-over (rules.Options.HandOver), and a paused step goes on
// after one. Phones poll a little more often than a hand-over lasts, so at least
// one poll falls inside each; it learns when the hand-over ends, and the next poll
// comes just after, so the next step opens on every phone and screen at the same
// moment. A step that ends by its deadline needs no hand-over: the deadline is in
// every view, and every client polls just after it. Screens (the shared screen,
// the host's and the moderator's console) follow the table as it happens, so
// they poll faster: a nomination or a vote shows there within a few seconds.
// Polls are most of what a game costs on AWS (an API Gateway request each).
const (
	// handOverMargin: phones poll this much more often than a hand-over lasts,
	// so that a poll falls inside it with room for the request's own time.
	handOverMargin = 600 * time.Millisecond
	// pollNoHandOver: without a hand-over (handOver 0) a step opens the moment a
	// tap ends the last one; phones poll this often to see it soon after.
	pollNoHandOver = time.Second
	// pollScreen: how often a screen polls.
	pollScreen = 2200 * time.Millisecond
	// pollOver: a finished game changes once more at most, when its table
	// plays again (View.Next) and every page follows it; meanwhile the pages
	// poll slowly.
	pollOver = 10 * time.Second
	// deadlineSlack: a poll for a deadline comes this long after it, so that the
	// view shows the step the deadline brings.
	deadlineSlack = 150 * time.Millisecond
	// pollMin is the shortest hint ever given.
	pollMin = 250 * time.Millisecond
)

// pollAfter is the hint for a client whose game has timing t at now; screen
// is true for the shared screen (no token, or the host's when the app
// moderates).
func pollAfter(t rules.Timing, screen bool, now time.Time) time.Duration {
	if t.Over {
		return pollOver
	}
	every := pollNoHandOver
	if t.HandOver > 0 {
		every = max(t.HandOver-handOverMargin, pollMin)
	}
	if screen {
		every = min(every, pollScreen)
	}
	if !t.Due.IsZero() {
		// In a hand-over nothing changes until it ends: wait for its end.
		if left := t.Due.Sub(now) + deadlineSlack; t.Hold || left < every {
			return max(left, pollMin)
		}
	}
	return every
}

// isScreen reports whether viewer v of a game with moderator polls as the
// shared screen: one with no token, or the host's page when the app moderates
// (it is the shared screen with the controls). A person's console polls as a
// phone: the moderator follows the table, not the screen's tallies.
func isScreen(v rules.Viewer, moderator string) bool {
	return v.Player == "" && (!v.Host || moderator == rules.ModeratorApp)
}

// pollHeader names the header that carries the hint on every answer to a poll.
const pollHeader = "X-Poll-After-Ms"
