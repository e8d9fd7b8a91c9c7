package loadgen

import (
	"math"
	"slices"
	"sync"
	"time"
)

// Latencies collects request durations and answers percentiles. It is safe for
// concurrent use.
type Latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

// Add records one duration.
func (l *Latencies) Add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// Summary is the distribution of a set of durations, in milliseconds.
type Summary struct {
	N    int     `json:"n"`
	Mean float64 `json:"meanMs"`
	P50  float64 `json:"p50Ms"`
	P95  float64 `json:"p95Ms"`
	P99  float64 `json:"p99Ms"`
	Max  float64 `json:"maxMs"`
}

// Summary returns the distribution of what was added so far.
func (l *Latencies) Summary() Summary {
	l.mu.Lock()
	d := slices.Clone(l.d)
	l.mu.Unlock()
	return Summarize(d)
}

// Summarize returns the distribution of d (which it sorts).
func Summarize(d []time.Duration) Summary {
	if len(d) == 0 {
		return Summary{}
	}
	slices.Sort(d)
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	ms := func(x time.Duration) float64 { return float64(x) / float64(time.Millisecond) }
	return Summary{
		N:    len(d),
		Mean: ms(sum) / float64(len(d)),
		P50:  ms(Percentile(d, 50)),
		P95:  ms(Percentile(d, 95)),
		P99:  ms(Percentile(d, 99)),
		Max:  ms(d[len(d)-1]),
	}
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method: the smallest value with at least p% of the values at or
// below it. It returns 0 for an empty slice.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// Counter is a set of named counts, safe for concurrent use.
type Counter struct {
	mu sync.Mutex
	m  map[string]int64
}

// Add adds n to the count of key.
func (c *Counter) Add(key string, n int64) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]int64{}
	}
	c.m[key] += n
	c.mu.Unlock()
}

// Get returns the count of key.
func (c *Counter) Get(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

// Map returns a copy of every count.
func (c *Counter) Map() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int64, len(c.m))
	for k, v := range c.m {
		out[k] = v
	}
	return out
}

// Mean is a running mean, safe for concurrent use.
type Mean struct {
	mu  sync.Mutex
	n   int64
	sum float64
	max float64
}

// Add adds one value.
func (m *Mean) Add(x float64) {
	m.mu.Lock()
	m.n++
	m.sum += x
	m.max = max(m.max, x)
	m.mu.Unlock()
}

// Value returns the mean, the count and the largest value.
func (m *Mean) Value() (mean float64, n int64, maxValue float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.n == 0 {
		return 0, 0, 0
	}
	return m.sum / float64(m.n), m.n, m.max
}
