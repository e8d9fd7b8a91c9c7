package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBoltGroupCommit: writes of different games that arrive while a
// transaction is being written share the next one, each with its own answer:
// nine updates queued behind a held write take one transaction together, a
// stale one among them is refused alone, and every acknowledged write is
// there after the file is reopened.
func TestBoltGroupCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	b, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exp := time.Now().Add(time.Hour)
	for i := range 10 {
		if err := b.Create(ctx, fmt.Sprintf("GAME%02d", i), []byte("v1"), exp); err != nil {
			t.Fatal(err)
		}
	}
	var txs atomic.Int32
	held, release := make(chan struct{}), make(chan struct{})
	b.beforeTx = func() {
		if txs.Add(1) == 1 {
			close(held)
			<-release
		}
	}
	errs := make([]error, 10)
	var wg sync.WaitGroup
	update := func(i int, expected int64) {
		wg.Go(func() {
			_, errs[i] = b.Update(ctx, fmt.Sprintf("GAME%02d", i), expected, []byte("v2"), exp)
		})
	}
	update(0, 1)
	<-held // game 0's transaction is being written
	for i := 1; i < 10; i++ {
		expected := int64(1)
		if i == 5 {
			expected = 7 // stale
		}
		update(i, expected)
	}
	for queued := 0; queued < 9; {
		time.Sleep(time.Millisecond)
		b.wmu.Lock()
		queued = len(b.pending)
		b.wmu.Unlock()
	}
	close(release)
	wg.Wait()
	if n := txs.Load(); n != 2 {
		t.Errorf("%d write transactions for ten updates, want 2 (one held, one for the nine queued behind it)", n)
	}
	for i, err := range errs {
		if want := i == 5; errors.Is(err, ErrConflict) != want || (!want && err != nil) {
			t.Errorf("update of game %d: %v", i, err)
		}
	}
	b.beforeTx = nil
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err = OpenBolt(path); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := range 10 {
		it, err := b.Get(ctx, fmt.Sprintf("GAME%02d", i), true)
		want, state := int64(2), "v2"
		if i == 5 {
			want, state = 1, "v1"
		}
		if err != nil || it.Version != want || string(it.State) != state {
			t.Errorf("game %d after reopening: version %d %q, %v; want %d %q", i, it.Version, it.State, err, want, state)
		}
	}
}
