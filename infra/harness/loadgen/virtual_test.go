package loadgen

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestVirtualClockTakesTurns: goroutines on the virtual clock run one at a
// time in the order of virtual time (ties in the order they went to sleep),
// callbacks interleave with them, and run says why it stopped and leaves no
// goroutine asleep.
func TestVirtualClockTakesTurns(t *testing.T) {
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	c := newVirtualClock(start)
	ctx, stop := context.WithCancel(context.Background())
	var got []string
	note := func(who string) { got = append(got, fmt.Sprintf("%s@%v", who, c.Now().Sub(start))) }
	ended := 0
	sleeper := func(who string, naps ...time.Duration) func() {
		return func() {
			defer func() { ended++ }()
			note(who)
			for _, d := range naps {
				if !c.Sleep(ctx, c.Now().Add(d)) {
					return
				}
				note(who)
			}
		}
	}
	c.goAt(start, sleeper("a", 3*time.Second, 2*time.Second))
	c.goAt(start.Add(time.Second), sleeper("b", 2*time.Second, time.Hour))
	c.at(start.Add(4*time.Second), func() { note("callback") })
	err := c.run(context.Background(), func() bool { return false }, start.Add(time.Minute), stop)
	want := []string{"a@0s", "b@1s", "a@3s", "b@3s", "callback@4s", "a@5s"}
	if !slices.Equal(got, want) {
		t.Errorf("turns %v, want %v", got, want)
	}
	if !errors.Is(err, errOverTime) {
		t.Errorf("run: %v, want %v (b sleeps past the limit)", err, errOverTime)
	}
	if ended != 2 {
		t.Errorf("%d of 2 goroutines ended", ended)
	}

	c = newVirtualClock(start)
	ctx, stop = context.WithCancel(context.Background())
	c.goAt(start, func() { c.Sleep(ctx, start.Add(time.Second)) })
	if err := c.run(context.Background(), func() bool { return false }, start.Add(time.Minute), stop); !errors.Is(err, errStalled) {
		t.Errorf("run with nothing left to happen: %v, want %v", err, errStalled)
	}
	c = newVirtualClock(start)
	ctx, stop = context.WithCancel(context.Background())
	c.goAt(start, func() { c.Sleep(ctx, start.Add(time.Second)) })
	if err := c.run(context.Background(), func() bool { return true }, start.Add(time.Minute), stop); err != nil || !c.Now().Equal(start) {
		t.Errorf("run until done: %v at %v, want nil at the start", err, c.Now())
	}
}
