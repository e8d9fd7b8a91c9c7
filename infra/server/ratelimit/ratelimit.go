// Package ratelimit is the local server's per-address limit: a token bucket for
// each client address. In AWS the edge and API Gateway limit instead
// (template.yaml), so no Lambda function runs this.
package ratelimit

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Config sets a per-client token bucket: each client (by IP address) may
// send Burst requests at once and PerSecond on average.
type Config struct {
	PerSecond float64
	Burst     int
	// Now replaces the clock in tests.
	Now func() time.Time
}

// Default is the local server's limit. A phone polls about once a second
// and a browser test drives ten phones from one address, so the limit is far
// above honest use and stops only a runaway client or a flood.
var Default = Config{PerSecond: 50, Burst: 100}

// limiterIdle is how long a client's bucket is kept after its last request; a
// full bucket holds nothing worth keeping.
const limiterIdle = time.Minute

// Wrap wraps next with a per-client rate limit: a client over it is answered by
// refuse, told how long until it may send again, and next is not called. The
// local server, which faces clients directly, refuses with the API's own 429
// (httpapi.TooManyRequests). The client is the connection's IP address;
// X-Forwarded-For is not trusted.
func Wrap(next http.Handler, cfg Config, refuse func(w http.ResponseWriter, wait time.Duration)) http.Handler {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	l := &limiter{cfg: cfg, buckets: map[string]*bucket{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wait, ok := l.allow(clientIP(r)); !ok {
			refuse(w, wait)
			return
		}
		next.ServeHTTP(w, r)
	})
}

type limiter struct {
	cfg       Config
	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// allow takes a token from key's bucket; when there is none it says how long
// until there is one.
func (l *limiter) allow(key string) (time.Duration, bool) {
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > limiterIdle {
		for k, b := range l.buckets {
			if now.Sub(b.last) > limiterIdle {
				delete(l.buckets, k)
			}
		}
		l.lastSweep = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: float64(l.cfg.Burst), last: now}
		l.buckets[key] = b
	}
	if el := now.Sub(b.last); el > 0 {
		b.tokens = min(float64(l.cfg.Burst), b.tokens+el.Seconds()*l.cfg.PerSecond)
		b.last = now
	}
	if b.tokens < 1 {
		if l.cfg.PerSecond <= 0 {
			return time.Hour, false
		}
		return time.Duration((1 - b.tokens) / l.cfg.PerSecond * float64(time.Second)), false
	}
	b.tokens--
	return 0, true
}

// clientIP is the address of the connection's far end, without the port.
func clientIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}
