package servicetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"citysleeps/shared/store"
)

// ErrInjected is the transient failure a Faulty store makes up.
var ErrInjected = errors.New("servicetest: injected transient store failure")

// Faults says how often a Faulty store misbehaves; each is a share of calls, 0 to 1.
type Faults struct {
	// Conflict: an Update fails with store.ErrConflict without writing, as if
	// another writer had just got in.
	Conflict float64
	// Before: a call fails with ErrInjected without reaching the store (a
	// connection refused, a throttled request).
	Before float64
	// After: a Create or Update is written, yet reports ErrInjected (a timeout
	// after the database committed): the caller cannot tell it from Before.
	After float64
}

// FaultCounts are the faults a Faulty store has injected so far.
type FaultCounts struct {
	Calls, Conflict, Before, After int
}

// Faulty wraps a Store and injects conflicts and transient failures, drawn from a
// seeded generator so that a failing run can be repeated (with one goroutine; with
// several, which call gets which fault depends on scheduling).
type Faulty struct {
	store.Store
	faults Faults

	mu     sync.Mutex
	rng    *rand.Rand
	counts FaultCounts
}

var _ store.Store = (*Faulty)(nil)

// NewFaulty returns st wrapped to inject faults f, drawn from seed.
func NewFaulty(st store.Store, seed uint64, f Faults) *Faulty {
	return &Faulty{Store: st, faults: f, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Counts returns the faults injected so far.
func (f *Faulty) Counts() FaultCounts {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts
}

type fault int

const (
	none fault = iota
	conflict
	before
	after
)

// draw picks the fault for one call; write says whether the call writes.
func (f *Faulty) draw(write, update bool) fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts.Calls++
	x := f.rng.Float64()
	if update {
		if x < f.faults.Conflict {
			f.counts.Conflict++
			return conflict
		}
		x -= f.faults.Conflict
	}
	if x < f.faults.Before {
		f.counts.Before++
		return before
	}
	x -= f.faults.Before
	if write && x < f.faults.After {
		f.counts.After++
		return after
	}
	return none
}

// Create passes the call on, or fails it before or after it is written.
func (f *Faulty) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	switch f.draw(true, false) {
	case before:
		return fmt.Errorf("create game %q: %w", code, ErrInjected)
	case after:
		if err := f.Store.Create(ctx, code, state, expiresAt); err != nil {
			return err
		}
		return fmt.Errorf("create game %q: %w", code, ErrInjected)
	}
	return f.Store.Create(ctx, code, state, expiresAt)
}

// Get passes the call on, or fails it.
func (f *Faulty) Get(ctx context.Context, code string, consistent bool) (store.Item, error) {
	if f.draw(false, false) == before {
		return store.Item{}, fmt.Errorf("get game %q: %w", code, ErrInjected)
	}
	return f.Store.Get(ctx, code, consistent)
}

// Update passes the call on, or fails it with a conflict, or before or after it
// is written.
func (f *Faulty) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
	switch f.draw(true, true) {
	case conflict:
		return 0, fmt.Errorf("update game %q: injected: %w", code, store.ErrConflict)
	case before:
		return 0, fmt.Errorf("update game %q: %w", code, ErrInjected)
	case after:
		if _, err := f.Store.Update(ctx, code, expected, state, expiresAt); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("update game %q: %w", code, ErrInjected)
	}
	return f.Store.Update(ctx, code, expected, state, expiresAt)
}
