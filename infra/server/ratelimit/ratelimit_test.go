package ratelimit

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestWrap: each address has its own bucket of Burst requests, refilled at
// PerSecond; a request over it goes to refuse with the wait until the next
// token, and idle buckets are forgotten.
func TestWrap(t *testing.T) {
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	var waited time.Duration
	refuse := func(w http.ResponseWriter, wait time.Duration) {
		waited = wait
		w.WriteHeader(429)
	}
	h := Wrap(ok, Config{PerSecond: 2, Burst: 3, Now: clock}, refuse)
	get := func(ip string) int {
		r := httptest.NewRequest("GET", "/api/health", nil)
		r.RemoteAddr = ip + ":5555"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	for i := range 3 {
		if code := get("10.0.0.1"); code != 204 {
			t.Fatalf("request %d: %d", i, code)
		}
	}
	if code := get("10.0.0.1"); code != 429 || waited != 500*time.Millisecond {
		t.Fatalf("over the burst: %d, wait %v", code, waited)
	}
	if code := get("10.0.0.2"); code != 204 {
		t.Errorf("another client: %d", code)
	}
	now = now.Add(500 * time.Millisecond)
	if code := get("10.0.0.1"); code != 204 {
		t.Errorf("after a refill: %d", code)
	}
	if code := get("10.0.0.1"); code != 429 {
		t.Errorf("one token a half second: %d", code)
	}
	// Idle buckets are forgotten.
	l := &limiter{cfg: Config{PerSecond: 1, Burst: 1, Now: clock}, buckets: map[string]*bucket{}}
	l.allow("a")
	l.allow("b")
	now = now.Add(2 * limiterIdle)
	l.allow("c")
	if len(l.buckets) != 1 {
		t.Errorf("%d buckets kept, want 1", len(l.buckets))
	}
}
