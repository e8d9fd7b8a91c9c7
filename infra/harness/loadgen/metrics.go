package loadgen

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
)

// Metrics are what the clients saw, for the report. Safe for concurrent use.
type Metrics struct {
	Create, Join, Poll, Poll304, Poll200, Action, Final Latencies

	// Statuses counts answers by "kind status [error code]".
	Statuses Counter
	// TransportErrors counts requests that got no HTTP answer, by kind.
	TransportErrors Counter
	// PollBytes are the bytes of each poll's answer (headers included);
	// PollBodyBytes the body alone.
	PollBytes, PollBodyBytes Mean
	// ActionRetries counts actions sent again with the same id, by the status
	// that made the bot retry; RetryAfter counts answers with a Retry-After.
	ActionRetries Counter
	RetryAfter    atomic.Int64
	// PlayerEvery and ScreenEvery are the intervals (real-cadence ms, before any
	// speed-up) that players and shared screens waited between polls.
	PlayerEvery, ScreenEvery Mean
	// NoticeEarly and NoticeLate bound how long, in real-cadence time, a player
	// took to see a change that asked them to act: from the write of the version
	// they saw (early) or of the first version after the one they had (late),
	// or from the deadline that moved the game, if that came later.
	NoticeEarly, NoticeLate Latencies
	// NewConns counts requests that opened a new connection.
	NewConns atomic.Int64
	// Slow counts requests over 100 ms by kind and by where the time went:
	// "connect" (waiting for a connection), "server" (from the request written
	// to the first byte of the answer) or "client" (the rest).
	Slow Counter
	// SlowNotice counts the changes that took a player who must act more than
	// 2 s (real cadence) to see, by "phase before→phase after (action offered)".
	SlowNotice Counter
}

// transportError counts a request that got no answer.
func (m *Metrics) transportError(kind string) {
	m.TransportErrors.Add(kind, 1)
}

// response records one answer.
func (m *Metrics) response(kind string, r Response) {
	key := fmt.Sprintf("%s %d", kind, r.Status)
	if r.Status >= 400 {
		key += " " + r.ErrorCode()
	}
	m.Statuses.Add(key, 1)
	if r.RetryAfter != "" {
		m.RetryAfter.Add(1)
	}
	ok := r.Status < 400
	switch kind {
	case "create":
		if ok {
			m.Create.Add(r.Took)
		}
	case "join":
		if ok {
			m.Join.Add(r.Took)
		}
	case "poll":
		if !ok {
			return
		}
		m.Poll.Add(r.Took)
		if r.Status == http.StatusNotModified {
			m.Poll304.Add(r.Took)
		} else {
			m.Poll200.Add(r.Took)
		}
		m.PollBytes.Add(float64(r.Bytes))
		m.PollBodyBytes.Add(float64(len(r.Body)))
	case "action":
		// Every answered action: refusals are as fast a path as any.
		if r.Status < 500 && r.Status != http.StatusTooManyRequests {
			m.Action.Add(r.Took)
		}
	case "final":
		if ok {
			m.Final.Add(r.Took)
		}
	}
}

// notice records how long a change took to reach a player who must act.
func (m *Metrics) notice(early, late time.Duration) {
	m.NoticeEarly.Add(early)
	m.NoticeLate.Add(late)
}
