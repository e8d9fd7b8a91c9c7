package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/rules"
)

// How long the tests wait for a page comes from what the app and the game
// promise, never from a guess, so that a slow machine makes a test slower
// but never fails it, and a page that breaks a promise fails it.
var (
	// answeredWithin is how long a page waits for the API's answer before it
	// gives the request up and tries again: TIMEOUT_MS of frontend/js/api.js.
	answeredWithin = requestTimeout("../js/api.js")
	// shownWithin is how long a page takes to show a change of the game: its
	// next poll (a phone's period is the longest, httpapi.PhoneEvery), then
	// the answer to it. A page that acted shows its answer sooner.
	shownWithin = httpapi.PhoneEvery + answeredWithin
)

// requestTimeout reads the request timeout the app's pages keep.
func requestTimeout(file string) time.Duration {
	src, err := os.ReadFile(file)
	if err != nil {
		panic(fmt.Sprintf("the app's request timeout: %v", err))
	}
	m := regexp.MustCompile(`const TIMEOUT_MS = (\d+);`).FindSubmatch(src)
	if m == nil {
		panic(file + " keeps no TIMEOUT_MS")
	}
	ms, _ := strconv.Atoi(string(m[1]))
	return time.Duration(ms) * time.Millisecond
}

// stepWithin is how long the step the public view v shows may last before
// every page shows the next one: until its deadline, the hand-over after it,
// and the time a page takes to show that. A step with no deadline ends at a
// tap, which the test makes, and pages show the hand-over it starts at once.
func stepWithin(v rules.View, now time.Time) time.Duration {
	d := shownWithin + time.Duration(v.Rules.HandOver)*time.Second
	if e := v.Phase.EndsAt; e != nil && e.After(now) {
		d += e.Sub(now)
	}
	return d
}

// waitStep waits until a page shows what script checks, which comes with
// the game's next step at the latest: as long as the step the server shows
// now may last (stepWithin).
func (g *game) waitStep(p *page, what, script string) {
	g.t.Helper()
	p.waitWithin(what, script, stepWithin(g.view(""), time.Now()))
}

// waitUntil waits until cond holds on the server, after a tap: for the
// app's answer to it, and as long as a page takes to show a change.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	bound := shownWithin
	for deadline := time.Now().Add(bound); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", bound, what)
		}
	}
}
