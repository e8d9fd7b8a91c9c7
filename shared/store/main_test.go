package store_test

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"citysleeps/infra/localdynamo"
)

// TestMain runs the tests, or plays the child of TestBoltCrash when the
// environment says so, and stops dynalite if a test started it.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	code := m.Run()
	if dynaliteSrv != nil {
		if err := dynaliteSrv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

var (
	dynaliteOnce sync.Once
	dynaliteSrv  *localdynamo.Server
	dynaliteErr  error
)

// dynalite returns the package's one dynalite server, starting it on first
// use; it fails tb if dynalite cannot start (never skips).
func dynalite(tb testing.TB) *localdynamo.Server {
	tb.Helper()
	dynaliteOnce.Do(func() {
		dynaliteSrv, dynaliteErr = localdynamo.Start(tb.Context())
	})
	if dynaliteErr != nil {
		tb.Fatalf("dynalite is needed for this test: %v", dynaliteErr)
	}
	return dynaliteSrv
}
