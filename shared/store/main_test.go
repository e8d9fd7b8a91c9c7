package store_test

import (
	"fmt"
	"os"
	"testing"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/harness/localdynamo/localdynamotest"
)

// TestMain runs the tests, or plays the child of TestBoltCrash when the
// environment says so, and stops dynalite if a test started it.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	code := m.Run()
	if err := shared.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// shared is the package's one dynalite server.
var shared localdynamotest.Shared

// dynalite returns the package's dynalite server, starting it on first use; it
// fails tb if dynalite cannot start (never skips).
func dynalite(tb testing.TB) *localdynamo.Server {
	tb.Helper()
	return shared.Get(tb)
}
