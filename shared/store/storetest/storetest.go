// Package storetest is the conformance suite every store.Store passes: the
// embedded stores and DynamoDB (through dynalite) alike, so that what works
// locally behaves the same in production.
//
// Use it from a test:
//
//	func TestMemory(t *testing.T) {
//		storetest.RunConformance(t, func(t *testing.T) store.Store { return store.NewMemory() })
//	}
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/store"
)

// RunConformance runs the whole suite against stores made by newStore, which
// is called once per subtest and must return an empty store (or one in which
// the codes the suite uses are free).
func RunConformance(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"CreateThenGet", testCreateThenGet},
		{"GetMissing", testGetMissing},
		{"CreateTaken", testCreateTaken},
		{"UpdateIncrementsVersion", testUpdateIncrementsVersion},
		{"UpdateConflict", testUpdateConflict},
		{"UpdateMissing", testUpdateMissing},
		{"ExpiredIsMissing", testExpiredIsMissing},
		{"UpdateToPastExpiry", testUpdateToPastExpiry},
		{"ExpiryRoundsUpToSecond", testExpiryRoundsUp},
		{"RacingUpdatesOneWins", testRacingUpdates},
		{"TooLarge", testTooLarge},
		{"EmptyState", testEmptyState},
		{"NoAliasing", testNoAliasing},
		{"BadArguments", testBadArguments},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newStore(t))
		})
	}
}

// future is an expiry comfortably ahead, in whole seconds so it round-trips exactly.
func future() time.Time { return time.Now().Add(48 * time.Hour).Truncate(time.Second) }

// past is an expiry that has passed.
func past() time.Time { return time.Now().Add(-time.Hour).Truncate(time.Second) }

// state makes a recognisable state of n bytes.
func state(tag string, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + len(tag))
	}
	copy(b, tag)
	return b
}

// mustGet loads code consistently, failing the test on any error.
func mustGet(t *testing.T, s store.Store, code string) store.Item {
	t.Helper()
	it, err := s.Get(context.Background(), code, true)
	if err != nil {
		t.Fatalf("Get(%q): %v", code, err)
	}
	return it
}

// mustCreate creates a game, failing the test on any error.
func mustCreate(t *testing.T, s store.Store, code string, st []byte, exp time.Time) {
	t.Helper()
	if err := s.Create(context.Background(), code, st, exp); err != nil {
		t.Fatalf("Create(%q): %v", code, err)
	}
}

// mustUpdate updates a game, failing the test unless it gets version want.
func mustUpdate(t *testing.T, s store.Store, code string, expected int64, st []byte, exp time.Time) {
	t.Helper()
	got, err := s.Update(context.Background(), code, expected, st, exp)
	if err != nil {
		t.Fatalf("Update(%q, %d): %v", code, expected, err)
	}
	if got != expected+1 {
		t.Fatalf("Update(%q, %d) = version %d, want %d", code, expected, got, expected+1)
	}
}

// wantItem checks a loaded item.
func wantItem(t *testing.T, got store.Item, code string, version int64, st []byte, exp time.Time) {
	t.Helper()
	if got.Code != code || got.Version != version || !bytes.Equal(got.State, st) || !got.ExpiresAt.Equal(exp) {
		t.Fatalf("got item {%q v%d %d bytes expires %v}, want {%q v%d %d bytes expires %v}",
			got.Code, got.Version, len(got.State), got.ExpiresAt, code, version, len(st), exp)
	}
}

// wantErr checks that err wraps target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got error %v, want %v", what, err, target)
	}
}

func testCreateThenGet(t *testing.T, s store.Store) {
	exp := future()
	st := state("hello", 300)
	mustCreate(t, s, "CREATE", st, exp)
	for _, consistent := range []bool{true, false} {
		it, err := s.Get(context.Background(), "CREATE", consistent)
		if err != nil {
			t.Fatalf("Get(consistent=%v): %v", consistent, err)
		}
		wantItem(t, it, "CREATE", 1, st, exp)
	}
}

func testGetMissing(t *testing.T, s store.Store) {
	it, err := s.Get(context.Background(), "NOSUCH", true)
	wantErr(t, "Get of a missing game", err, store.ErrNotFound)
	if it.Code != "" || it.Version != 0 || it.State != nil {
		t.Errorf("Get of a missing game returned a non-zero item %+v", it)
	}
	_, err = s.Get(context.Background(), "NOSUCH", false)
	wantErr(t, "eventually consistent Get of a missing game", err, store.ErrNotFound)
}

func testCreateTaken(t *testing.T, s store.Store) {
	exp := future()
	mustCreate(t, s, "TAKEN", state("first", 10), exp)
	mustUpdate(t, s, "TAKEN", 1, state("second", 10), exp)
	err := s.Create(context.Background(), "TAKEN", state("intruder", 10), exp)
	wantErr(t, "Create on a taken code", err, store.ErrExists)
	wantItem(t, mustGet(t, s, "TAKEN"), "TAKEN", 2, state("second", 10), exp)
}

func testUpdateIncrementsVersion(t *testing.T, s store.Store) {
	exp := future()
	mustCreate(t, s, "VERS", state("v1", 50), exp)
	for v := int64(1); v < 12; v++ {
		st := state(fmt.Sprintf("v%d", v+1), 50+int(v))
		exp := exp.Add(time.Duration(v) * time.Minute)
		mustUpdate(t, s, "VERS", v, st, exp)
		wantItem(t, mustGet(t, s, "VERS"), "VERS", v+1, st, exp)
	}
}

func testUpdateConflict(t *testing.T, s store.Store) {
	exp := future()
	mustCreate(t, s, "CONFL", state("v1", 20), exp)
	mustUpdate(t, s, "CONFL", 1, state("v2", 20), exp)
	for _, stale := range []int64{1, 3, 0, -1} {
		v, err := s.Update(context.Background(), "CONFL", stale, state("lost", 20), exp.Add(time.Hour))
		wantErr(t, fmt.Sprintf("Update from version %d when 2 is stored", stale), err, store.ErrConflict)
		if v != 0 {
			t.Errorf("failed Update returned version %d, want 0", v)
		}
	}
	wantItem(t, mustGet(t, s, "CONFL"), "CONFL", 2, state("v2", 20), exp)
}

func testUpdateMissing(t *testing.T, s store.Store) {
	_, err := s.Update(context.Background(), "GHOST", 1, state("x", 5), future())
	wantErr(t, "Update of a missing game", err, store.ErrNotFound)
	_, err = s.Get(context.Background(), "GHOST", true)
	wantErr(t, "Get after a failed Update of a missing game", err, store.ErrNotFound)
}

func testExpiredIsMissing(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustCreate(t, s, "OLD", state("old game", 40), past())
	_, err := s.Get(ctx, "OLD", true)
	wantErr(t, "Get of an expired game", err, store.ErrNotFound)
	_, err = s.Get(ctx, "OLD", false)
	wantErr(t, "eventually consistent Get of an expired game", err, store.ErrNotFound)
	_, err = s.Update(ctx, "OLD", 1, state("revived", 40), future())
	wantErr(t, "Update of an expired game", err, store.ErrNotFound)

	exp := future()
	mustCreate(t, s, "OLD", state("new game", 40), exp)
	wantItem(t, mustGet(t, s, "OLD"), "OLD", 1, state("new game", 40), exp)
}

func testUpdateToPastExpiry(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustCreate(t, s, "ENDING", state("live", 40), future())
	mustUpdate(t, s, "ENDING", 1, state("over", 40), past())
	_, err := s.Get(ctx, "ENDING", true)
	wantErr(t, "Get of a game updated to a past expiry", err, store.ErrNotFound)
	exp := future()
	mustCreate(t, s, "ENDING", state("again", 40), exp)
	wantItem(t, mustGet(t, s, "ENDING"), "ENDING", 1, state("again", 40), exp)
}

func testExpiryRoundsUp(t *testing.T, s store.Store) {
	exp := future().Add(250 * time.Millisecond)
	mustCreate(t, s, "ROUND", state("r", 8), exp)
	got := mustGet(t, s, "ROUND")
	if want := exp.Truncate(time.Second).Add(time.Second); !got.ExpiresAt.Equal(want) {
		t.Fatalf("ExpiresAt = %v, want %v (rounded up to the second)", got.ExpiresAt, want)
	}
}

func testRacingUpdates(t *testing.T, s store.Store) {
	const racers = 16
	exp := future()
	mustCreate(t, s, "RACE", state("start", 100), exp)
	var (
		wg      sync.WaitGroup
		start   = make(chan struct{})
		errs    = make([]error, racers)
		winners []int
		mu      sync.Mutex
	)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			v, err := s.Update(context.Background(), "RACE", 1, state(fmt.Sprintf("racer %d", i), 100), exp)
			errs[i] = err
			if err == nil {
				if v != 2 {
					t.Errorf("racer %d won with version %d, want 2", i, v)
				}
				mu.Lock()
				winners = append(winners, i)
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if len(winners) != 1 {
		t.Fatalf("%d racers won (%v), want exactly 1; errors: %v", len(winners), winners, errs)
	}
	for i, err := range errs {
		if i != winners[0] && !errors.Is(err, store.ErrConflict) {
			t.Errorf("racer %d: got %v, want ErrConflict", i, err)
		}
	}
	wantItem(t, mustGet(t, s, "RACE"), "RACE", 2, state(fmt.Sprintf("racer %d", winners[0]), 100), exp)
}

// stateFitting returns the state size that makes an item of exactly
// store.MaxItemSize bytes at the given code, version and expiry.
func stateFitting(code string, version int64, exp time.Time) int {
	return store.MaxItemSize - store.ItemSize(store.Item{Code: code, Version: version, ExpiresAt: exp})
}

func testTooLarge(t *testing.T, s store.Store) {
	ctx := context.Background()
	exp := future()

	// Exactly at the limit is stored; one byte more is refused.
	n := stateFitting("BIG", 1, exp)
	mustCreate(t, s, "BIG", state("at limit", n), exp)
	wantItem(t, mustGet(t, s, "BIG"), "BIG", 1, state("at limit", n), exp)

	err := s.Create(ctx, "BIGGER", state("over", stateFitting("BIGGER", 1, exp)+1), exp)
	wantErr(t, "Create one byte over the limit", err, store.ErrTooLarge)
	_, err = s.Get(ctx, "BIGGER", true)
	wantErr(t, "Get after a refused Create", err, store.ErrNotFound)

	err = s.Create(ctx, "HUGE", state("huge", 2*store.MaxItemSize), exp)
	wantErr(t, "Create twice over the limit", err, store.ErrTooLarge)

	// An Update over the limit is refused and changes nothing; at the limit it is stored.
	_, err = s.Update(ctx, "BIG", 1, state("grown", stateFitting("BIG", 2, exp)+1), exp)
	wantErr(t, "Update one byte over the limit", err, store.ErrTooLarge)
	wantItem(t, mustGet(t, s, "BIG"), "BIG", 1, state("at limit", n), exp)
	mustUpdate(t, s, "BIG", 1, state("grown", stateFitting("BIG", 2, exp)), exp)
}

func testEmptyState(t *testing.T, s store.Store) {
	exp := future()
	mustCreate(t, s, "EMPTY", nil, exp)
	if it := mustGet(t, s, "EMPTY"); it.Version != 1 || len(it.State) != 0 {
		t.Fatalf("got v%d with %d bytes, want v1 with an empty state", it.Version, len(it.State))
	}
	mustUpdate(t, s, "EMPTY", 1, []byte{}, exp)
	if it := mustGet(t, s, "EMPTY"); it.Version != 2 || len(it.State) != 0 {
		t.Fatalf("got v%d with %d bytes, want v2 with an empty state", it.Version, len(it.State))
	}
}

func testNoAliasing(t *testing.T, s store.Store) {
	exp := future()
	st := state("mine", 30)
	mustCreate(t, s, "ALIAS", st, exp)
	st[0] = 'X' // the caller reuses its buffer
	got := mustGet(t, s, "ALIAS")
	wantItem(t, got, "ALIAS", 1, state("mine", 30), exp)
	got.State[1] = 'Y' // the caller scribbles on what it read
	wantItem(t, mustGet(t, s, "ALIAS"), "ALIAS", 1, state("mine", 30), exp)
}

func testBadArguments(t *testing.T, s store.Store) {
	ctx := context.Background()
	if err := s.Create(ctx, "", state("x", 1), future()); err == nil {
		t.Error("Create with an empty code succeeded")
	}
	if err := s.Create(ctx, "NOEXP", state("x", 1), time.Time{}); err == nil {
		t.Error("Create with a zero expiry succeeded")
	}
	if _, err := s.Get(ctx, "", true); err == nil {
		t.Error("Get with an empty code succeeded")
	}
	mustCreate(t, s, "ARGS", state("x", 1), future())
	if _, err := s.Update(ctx, "ARGS", 1, state("y", 1), time.Time{}); err == nil {
		t.Error("Update with a zero expiry succeeded")
	}
	if _, err := s.Update(ctx, "", 1, state("y", 1), future()); err == nil {
		t.Error("Update with an empty code succeeded")
	}
	if it := mustGet(t, s, "ARGS"); it.Version != 1 {
		t.Errorf("after refused updates, version %d, want 1", it.Version)
	}
}
