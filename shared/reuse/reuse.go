// Package reuse keeps a few large, costly values, such as deflate's
// compressors (about 700 KB each), for the next request to take again.
//
// It is a bounded free list rather than a sync.Pool on purpose: a
// sync.Pool is emptied by the garbage collector, so a server that answers
// a poll now and then makes a new compressor for most of them, and under
// the race detector a sync.Pool drops a quarter of what it is given, which
// made the race-mode tests that play whole games spend half their time
// making compressors.
//
//	var writers = reuse.New(16, func() *gzip.Writer { … })
//	w := writers.Get()
//	defer writers.Put(w)
package reuse

// List is a free list of at most its size values. It is safe for
// concurrent use. Whoever takes a value resets it before use: a list holds
// buffers, never what was in them.
type List[T any] struct {
	free  chan T
	fresh func() T
}

// New returns a list that keeps up to size values, and makes a new one with
// fresh when none is free.
func New[T any](size int, fresh func() T) *List[T] {
	return &List[T]{free: make(chan T, size), fresh: fresh}
}

// Get takes a free value, or makes one.
func (l *List[T]) Get() T {
	select {
	case v := <-l.free:
		return v
	default:
		return l.fresh()
	}
}

// Put gives v back for reuse; when the list is full, v is left to the
// garbage collector.
func (l *List[T]) Put(v T) {
	select {
	case l.free <- v:
	default:
	}
}
