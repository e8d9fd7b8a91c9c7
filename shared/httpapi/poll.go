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
// What the cadence is held to (the real-game simulator measures it, and the
// bill follows from it, as polls are most of what a game costs on AWS):
//   - a change everyone may see (a nomination, a vote mark, a pause, a join, a
//     hand-over starting) shows on every phone within PhoneEvery, and on the
//     shared screen and the moderator's console within screenEvery;
//   - a step opens on every phone and screen at the same moment. Every step
//     that ends before its deadline (a tap, the moderator's "next") is followed
//     by a hand-over (rules.Options.HandOver), and a paused step goes on after
//     one; every client polls at least once inside it (a phone's period is
//     never longer than the hand-over), learns when it ends and comes again just
//     after. A step that ends by its deadline needs no hand-over: the deadline
//     is in every view, and every client polls just after it.
const (
	// PhoneEvery is the longest a phone goes between two polls while the
	// game is in play: a change everyone may see reaches it within this long
	// (exported for the browser tests, which wait no longer than the app
	// promises).
	PhoneEvery = 3 * time.Second
	// screenEvery is the same for the shared screen and the moderator's
	// console, which the table watches as things happen.
	screenEvery = 1150 * time.Millisecond
	// requestTime is what a poll's own round trip adds to the wait the hint
	// gives (a client counts the wait from the answer's arrival), so the hint
	// is this much shorter than the period it aims at.
	requestTime = 100 * time.Millisecond
	// pollNoHandOver: without a hand-over (handOver 0) a step opens the moment a
	// tap ends the last one; phones poll this often to see it soon after.
	pollNoHandOver = time.Second
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
// is true for the shared screen and the moderator's console (isScreen).
func pollAfter(t rules.Timing, screen bool, now time.Time) time.Duration {
	if t.Over {
		return pollOver
	}
	every := pollNoHandOver
	if t.HandOver > 0 {
		every = min(PhoneEvery, t.HandOver)
	}
	if screen {
		every = min(every, screenEvery)
	}
	every = max(every-requestTime, pollMin)
	if !t.Due.IsZero() {
		// In a hand-over nothing changes until it ends: wait for its end.
		if left := t.Due.Sub(now) + deadlineSlack; t.Hold || left < every {
			return max(left, pollMin)
		}
	}
	return every
}

// eveningPollAfter is the hint for a client of an evening (its page, the
// TV's standings): a phone's period in a game, for every viewer alike, so a
// round started shows every player their table as soon as a lobby change
// shows in a game; and the slow pace of a game over once the evening's last
// game is counted (service.EveningRevision.Over), when only the organiser's
// extra points can change it.
func eveningPollAfter(over bool) time.Duration {
	if over {
		return pollOver
	}
	return PhoneEvery - requestTime
}

// isScreen reports whether viewer v polls as a screen: the shared screen (no
// token), the host's page when the app moderates (the shared screen with the
// controls) and a person's console, from which the moderator runs the table as
// it happens.
func isScreen(v rules.Viewer) bool { return v.Player == "" }

// pollHeader names the header that carries the hint on every answer to a poll.
const pollHeader = "X-Poll-After-Ms"
