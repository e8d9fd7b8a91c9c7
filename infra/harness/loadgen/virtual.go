package loadgen

import (
	"container/heap"
	"context"
	"errors"
	"time"
)

// virtualClock is the time of a simulated evening (bot.Clock): the devices of
// a table run on goroutines of their own but take turns, one at a time, in
// the order of virtual time, so that a seed replays a game exactly and three
// quarters of an hour pass in a second. Nothing else runs while a turn is
// taken, so the turn's goroutine may use the table's state freely.
type virtualClock struct {
	now   time.Time
	seq   int
	queue wakes
	// turn is handed back to run by the goroutine whose turn ends (it sleeps
	// or returns).
	turn chan struct{}
}

// wake is a moment in the queue: fn runs on run's goroutine, either the
// callback of at or the hand-over of the turn to a sleeping goroutine.
type wake struct {
	at     time.Time
	seq    int
	fn     func()
	device bool // fn hands the turn to a goroutine
}

type wakes []wake

func (w wakes) Len() int { return len(w) }
func (w wakes) Less(i, j int) bool {
	if !w[i].at.Equal(w[j].at) {
		return w[i].at.Before(w[j].at)
	}
	return w[i].seq < w[j].seq
}
func (w wakes) Swap(i, j int) { w[i], w[j] = w[j], w[i] }
func (w *wakes) Push(x any)   { *w = append(*w, x.(wake)) }
func (w *wakes) Pop() any {
	old := *w
	x := old[len(old)-1]
	*w = old[:len(old)-1]
	return x
}

func newVirtualClock(start time.Time) *virtualClock {
	return &virtualClock{now: start, turn: make(chan struct{})}
}

func (c *virtualClock) push(at time.Time, device bool, fn func()) {
	c.seq++
	heap.Push(&c.queue, wake{at: at, seq: c.seq, fn: fn, device: device})
}

// Now is bot.Clock's.
func (c *virtualClock) Now() time.Time { return c.now }

// at runs fn at virtual time when, on run's goroutine.
func (c *virtualClock) at(when time.Time, fn func()) { c.push(when, false, fn) }

// handOver returns the wake of a goroutine parked on ch: it gives the turn to
// it and waits until the turn comes back.
func (c *virtualClock) handOver(ch chan struct{}) func() {
	return func() {
		close(ch)
		<-c.turn
	}
}

// Sleep is bot.Clock's: the turn ends until the given time.
func (c *virtualClock) Sleep(ctx context.Context, until time.Time) bool {
	if ctx.Err() != nil {
		return false
	}
	ch := make(chan struct{})
	c.push(until, true, c.handOver(ch))
	c.turn <- struct{}{}
	<-ch
	return ctx.Err() == nil
}

// goAt starts fn on a goroutine of its own at virtual time when.
func (c *virtualClock) goAt(when time.Time, fn func()) {
	ch := make(chan struct{})
	c.push(when, true, c.handOver(ch))
	go func() {
		<-ch
		fn()
		c.turn <- struct{}{}
	}()
}

// The ways run ends without the game over.
var (
	errStalled  = errors.New("nothing is left to happen")
	errOverTime = errors.New("still going at the time limit")
)

// run takes the queue in order until done holds (nil), nothing is left to
// happen (errStalled), the next moment is past limit (errOverTime) or ctx
// ends (its error). Then it
// cancels the devices' context (stop) and lets every goroutine still asleep
// take its last turn, so that none is left behind.
func (c *virtualClock) run(ctx context.Context, done func() bool, limit time.Time, stop context.CancelFunc) error {
	var err error
	for {
		if err = ctx.Err(); err != nil {
			break
		}
		if c.queue.Len() == 0 {
			err = errStalled
			break
		}
		w := heap.Pop(&c.queue).(wake)
		if w.at.After(limit) {
			heap.Push(&c.queue, w)
			err = errOverTime
			break
		}
		c.now = maxTime(c.now, w.at)
		w.fn()
		if done() {
			break
		}
	}
	stop()
	for c.queue.Len() > 0 {
		if w := heap.Pop(&c.queue).(wake); w.device {
			w.fn()
		}
	}
	return err
}
