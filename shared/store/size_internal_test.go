package store

import (
	"testing"
	"time"
)

// TestNumberSize checks numberSize against DynamoDB's sizing of numbers (as
// dynalite implements it): one byte per two significant digits, aligned on
// base-100 pairs, plus one.
func TestNumberSize(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want int
	}{
		{0, 1}, {1, 2}, {9, 2}, {10, 2}, {12, 2}, {99, 2}, {100, 2}, {101, 3},
		{120, 3}, {123, 3}, {1000, 2}, {1200, 2}, {1234, 3}, {12345, 4},
		{1764547200, 5}, {1764547201, 6}, {-5, 3}, {-1234, 4},
	} {
		if got := numberSize(tc.n); got != tc.want {
			t.Errorf("numberSize(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

func TestItemSize(t *testing.T) {
	it := Item{Code: "K7QX2M", Version: 17, State: make([]byte, 1000), ExpiresAt: time.Unix(1764547200, 0)}
	// code: 4+6, version: 7+2, state: 5+1000, expiresAt: 9+5.
	if got, want := ItemSize(it), 10+9+1005+14; got != want {
		t.Errorf("ItemSize = %d, want %d", got, want)
	}
}

func TestEpochSecondsRoundsUp(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want int64
	}{
		{time.Unix(100, 0), 100},
		{time.Unix(100, 1), 101},
		{time.Unix(100, 999_999_999), 101},
	} {
		if got := epochSeconds(tc.t); got != tc.want {
			t.Errorf("epochSeconds(%v) = %d, want %d", tc.t, got, tc.want)
		}
	}
	if !expired(100, time.Unix(100, 0)) || expired(100, time.Unix(99, 999_999_999)) {
		t.Error("a game must expire exactly at its expiry second")
	}
}
