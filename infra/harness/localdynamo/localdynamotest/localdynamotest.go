// Package localdynamotest starts dynalite (package localdynamo) for tests:
// one server per test, or one shared by a whole test binary, and a throttling
// endpoint in front of one. Tests that need dynalite fail without it; they
// never skip.
//
//	srv := localdynamotest.MustStart(t) // stopped when the test ends
//	st := store.NewDynamo(srv.Client(), srv.Table)
package localdynamotest

import (
	"context"
	"sync"
	"testing"

	"citysleeps/infra/harness/localdynamo"
)

// MustStart is localdynamo.Start for tests: it fails tb at once if dynalite cannot start,
// and stops the server when tb's test ends.
func MustStart(tb testing.TB) *localdynamo.Server {
	tb.Helper()
	s, err := localdynamo.Start(context.Background())
	if err != nil {
		tb.Fatalf("start dynalite: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Stop(); err != nil {
			tb.Errorf("stop dynalite: %v", err)
		}
	})
	return s
}

// Shared is one dynalite server for a whole test binary, started by the first
// test that needs it: starting one per test would cost seconds each. A package's
// TestMain calls Stop after m.Run.
type Shared struct {
	once sync.Once
	srv  *localdynamo.Server
	err  error
}

// Get returns the shared server, starting it on first use. It fails tb if
// dynalite cannot start: tests that need it never skip.
func (s *Shared) Get(tb testing.TB) *localdynamo.Server {
	tb.Helper()
	s.once.Do(func() { s.srv, s.err = localdynamo.Start(context.Background()) })
	if s.err != nil {
		tb.Fatalf("dynalite is needed for this test (run `npm ci` at the repository root, or make test): %v", s.err)
	}
	return s.srv
}

// Stop stops the shared server if a test started it.
func (s *Shared) Stop() error {
	if s.srv == nil {
		return nil
	}
	return s.srv.Stop()
}
