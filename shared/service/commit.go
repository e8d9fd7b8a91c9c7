package service

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// maxBatch bounds the requests one write carries. A table seats at most 30
// players and the host, so a whole table acting at once fits in one batch; the
// bound keeps a batch's work, and the wait of whoever queues behind it, finite.
const maxBatch = 64

// request is a write of a game waiting in the game's queue for its batch.
type request struct {
	// ctx is the sender's; the batch runs on its values, not its cancellation.
	ctx   context.Context
	op    string
	apply step

	// Set by the batch before done is closed: the game as the batch left it,
	// and the request's own refusal or the batch's failure.
	out  outcome
	err  error
	done chan struct{}
}

// write runs a request that may change the game, fn, and returns the game as it
// left it.
//
// Without local locks (the Lambda functions) it is one read-apply-write cycle of
// its own, and the version check settles races with other requests.
//
// With local locks the writes of a game go through the game's queue: the request
// that finds no write of its game in flight writes at once, alone; the ones that
// arrive meanwhile wait, and when the write lands they go together, in arrival
// order, as one batch: one load, each request applied on the state the previous
// ones left, and one store write for all of them (see commit). On the embedded
// store every write is an fsync, and a burst of votes then costs two of them
// instead of one per vote.
//
// A request whose ctx ends while it waits returns at once with ErrUnavailable;
// its batch may still apply it, which is safe because a client resends an action
// with its id, and the resend is answered as a replay.
func (s *Service) write(ctx context.Context, op, code string, fn step) (outcome, error) {
	if s.queues == nil {
		return s.loop(ctx, op, code, fn)
	}
	r := &request{ctx: ctx, op: op, apply: fn, done: make(chan struct{})}
	s.queueMu.Lock()
	waiting, busy := s.queues[code]
	if busy {
		s.queues[code] = append(waiting, r)
	} else {
		s.queues[code] = nil
	}
	s.queueMu.Unlock()
	if !busy {
		s.lead(code, []*request{r})
		return r.out, r.err
	}
	select {
	case <-r.done:
		return r.out, r.err
	case <-ctx.Done():
		return outcome{}, fail(ErrUnavailable, "the request was cancelled or timed out", ctx.Err())
	}
}

// lead writes a batch of the game, then hands the requests that queued meanwhile
// to a new goroutine as the next batch, so that the caller who led gets its
// answer without waiting for writes after its own. If none queued, the game's
// queue is gone and its next write leads again.
func (s *Service) lead(code string, batch []*request) {
	s.commit(code, batch)
	if next := s.next(code); len(next) > 0 {
		go s.lead(code, next)
	}
}

// next takes the requests queued for the game, at most maxBatch, in arrival
// order; if there are none, it removes the game's queue, so that the map holds
// only games with a write in flight.
func (s *Service) next(code string) []*request {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	waiting := s.queues[code]
	if len(waiting) == 0 {
		delete(s.queues, code)
		return nil
	}
	n := min(len(waiting), maxBatch)
	s.queues[code] = waiting[n:]
	return waiting[:n]
}

// commit runs one read-apply-write cycle for a batch: each request's step in
// arrival order, on the state the previous ones left. A refused request keeps its
// own error and leaves the state as it was; the game is written once if any
// request changed it, and not at all if none did. Every request that was not
// refused then answers from the game after the whole batch. A conflict or a
// transient store failure reapplies the whole batch to a fresh load (loop), and
// a failure that ends the cycle fails every request of the batch, refused or not:
// a refusal decided on state that was never stored does not stand either.
//
// The batch is the work of everyone in it, so the store calls do not end when the
// first sender goes away: they run without its cancellation, bounded by
// maxRetries and the budget of one request (WithBudget). A panic fails the batch with
// ErrInternal rather than leave its senders waiting and the game's queue without
// a writer for good, or end the process from a goroutine nothing recovers.
func (s *Service) commit(code string, batch []*request) {
	op := batch[0].op
	if len(batch) > 1 {
		op = "batch"
	}
	ctx := context.WithoutCancel(batch[0].ctx)
	var out outcome
	var err error
	defer func() {
		if p := recover(); p != nil {
			s.log.ErrorContext(ctx, "service: panic", "op", op, "code", code, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fail(ErrInternal, "internal error", fmt.Errorf("panic: %v", p))
		}
		for _, r := range batch {
			r.out = out
			if err != nil {
				r.err = err
			}
			close(r.done)
		}
	}()
	out, err = s.loop(ctx, op, code, func(env *envelope, now time.Time, try int) (bool, error) {
		changed := false
		for _, r := range batch {
			c, err := r.apply.run(env, now, try)
			r.err = err
			changed = changed || c
		}
		return changed, nil
	})
}
