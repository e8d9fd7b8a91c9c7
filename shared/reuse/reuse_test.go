package reuse

import (
	"sync"
	"testing"
)

func TestListReusesUpToItsSize(t *testing.T) {
	made := 0
	l := New(2, func() *int { made++; v := made; return &v })
	a, b, c := l.Get(), l.Get(), l.Get()
	if made != 3 {
		t.Fatalf("made %d for three gets of an empty list, want 3", made)
	}
	l.Put(a)
	l.Put(b)
	l.Put(c) // the list is full: c is dropped
	got := map[*int]bool{l.Get(): true, l.Get(): true}
	if !got[a] || !got[b] || made != 3 {
		t.Fatalf("got back %v (a %p, b %p), made %d: want a and b again, nothing new", got, a, b, made)
	}
	if l.Get() == c || made != 4 {
		t.Fatalf("a dropped value came back, or nothing new was made (%d)", made)
	}
}

func TestListConcurrentUse(t *testing.T) {
	l := New(4, func() []byte { return make([]byte, 8) })
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				b := l.Get()
				b[0]++ // the race detector sees two holders of one value
				l.Put(b)
			}
		})
	}
	wg.Wait()
}
