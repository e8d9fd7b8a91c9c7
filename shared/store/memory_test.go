package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"citysleeps/shared/store"
	"citysleeps/shared/store/storetest"
)

func TestMemoryConformance(t *testing.T) {
	storetest.RunConformance(t, func(t *testing.T) store.Store { return store.NewMemory() })
}

// TestMemoryFakeClock shows a service test with a clock of its own: expiry
// follows SetNow, not the wall clock.
func TestMemoryFakeClock(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2020, 1, 1, 12, 0, 0, 0, time.UTC)
	m := store.NewMemory()
	m.SetNow(func() time.Time { return now })
	if err := m.Create(ctx, "CLOCK", []byte("s"), now.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Get(ctx, "CLOCK", true); err != nil {
		t.Fatalf("Get before the fake expiry: %v", err)
	}
	now = now.Add(48 * time.Hour)
	if _, err := m.Get(ctx, "CLOCK", true); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get at the fake expiry: got %v, want ErrNotFound", err)
	}
	if n, err := m.DeleteExpired(ctx); err != nil || n != 1 {
		t.Fatalf("DeleteExpired = %d, %v; want 1, nil", n, err)
	}
}

func TestMemoryCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := store.NewMemory()
	if err := m.Create(ctx, "CTX", nil, time.Now().Add(time.Hour)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Create with a canceled context: got %v, want context.Canceled", err)
	}
}
