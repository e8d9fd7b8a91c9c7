package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// slowStore wraps a Store and, drawn from a seeded generator, makes some calls
// slow and some time out: a timeout waits, then fails with an error that wraps
// context.DeadlineExceeded (as the AWS SDK's does), either before the call
// reaches the store or after a write has been made, so that the caller cannot
// tell whether it happened.
type slowStore struct {
	store.Store
	slow, timeout float64       // shares of calls
	delay         time.Duration // the longest added latency

	mu     sync.Mutex
	rng    *rand.Rand
	counts map[string]int
}

func newSlowStore(st store.Store, seed uint64, slow, timeout float64, delay time.Duration) *slowStore {
	return &slowStore{Store: st, slow: slow, timeout: timeout, delay: delay,
		rng: rand.New(rand.NewPCG(seed, 11)), counts: map[string]int{}}
}

// errTimeout is what a timed-out store call returns.
var errTimeout = fmt.Errorf("injected store timeout: %w", context.DeadlineExceeded)

// draw returns the latency to add and whether the call times out, and if so
// whether after the write.
func (s *slowStore) draw(write bool) (time.Duration, bool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.rng.Float64()
	switch {
	case x < s.timeout:
		after := write && s.rng.IntN(2) == 0
		s.counts[fmt.Sprintf("timeout (after write %v)", after)]++
		return s.delay, true, after
	case x < s.timeout+s.slow:
		s.counts["slow"]++
		return time.Duration(s.rng.Int64N(int64(s.delay))), false, false
	}
	return 0, false, false
}

func (s *slowStore) Get(ctx context.Context, code string, consistent bool) (store.Item, error) {
	d, fail, _ := s.draw(false)
	time.Sleep(d)
	if fail {
		return store.Item{}, errTimeout
	}
	return s.Store.Get(ctx, code, consistent)
}

func (s *slowStore) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
	d, fail, after := s.draw(true)
	time.Sleep(d)
	if fail && !after {
		return 0, errTimeout
	}
	v, err := s.Store.Update(ctx, code, expected, state, expiresAt)
	if fail && err == nil {
		return 0, errTimeout
	}
	return v, err
}

func (s *slowStore) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	d, fail, after := s.draw(true)
	time.Sleep(d)
	if fail && !after {
		return errTimeout
	}
	err := s.Store.Create(ctx, code, state, expiresAt)
	if fail && err == nil {
		return errTimeout
	}
	return err
}

// TestFaultStore plays games on a store that fails part of the time: injected
// version conflicts, transient failures before and after a write
// (servicetest.Faulty), slow calls and timeouts before and after a write, all
// from fixed seeds. The service retries what it can; what reaches the clients
// must be a clear 503, which they retry with the same action id, and every game
// must end with nothing lost and nothing applied twice.
func TestFaultStore(t *testing.T) {
	t.Parallel()
	var faulty *servicetest.Faulty
	var slow *slowStore
	target, err := Start(context.Background(), TargetOptions{Store: StoreBolt, Dir: t.TempDir(), RateLimit: true,
		Wrap: func(st store.Store) store.Store {
			faulty = servicetest.NewFaulty(st, 7, servicetest.Faults{Conflict: 0.05, Before: 0.05, After: 0.03})
			slow = newSlowStore(faulty, 8, 0.10, 0.03, 30*time.Millisecond)
			return slow
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	rep := play(t, target.URL, target, Config{Games: scale(2, 12), Presets: []string{rules.PresetSport, rules.PresetManiac}, FirstSource: 20000, Seed: 5})
	slow.mu.Lock()
	t.Logf("injected: %+v, %v; clients saw %d answers 503 and re-sent %d actions: %v",
		faulty.Counts(), slow.counts, rep.Answers503, sum(rep.ActionRetries), rep.ActionRetries)
	slow.mu.Unlock()
	requireIntact(t, rep)
	if rep.Answers503 == 0 {
		t.Error("no client saw a 503: the faults never reached them")
	}
	for k, n := range rep.Statuses {
		f := strings.Fields(k)
		if len(f) >= 2 && f[1] >= "500" && (f[1] != "503" || len(f) < 3 || (f[2] != "unavailable" && f[2] != "busy")) {
			t.Errorf("%d answers %q: a failing store must give a clear 503 (unavailable or busy)", n, k)
		}
	}
	if rep.Check.Misreported != 0 {
		t.Errorf("%d actions were applied although a retry was told they were refused", rep.Check.Misreported)
	}
}
