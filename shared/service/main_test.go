package service_test

import (
	"fmt"
	"log/slog"
	"os"
	"testing"

	"citysleeps/infra/harness/localdynamo/localdynamotest"
	"citysleeps/shared/store"
)

// quiet drops the service's logs in tests that provoke failures on purpose.
var quiet = slog.New(slog.DiscardHandler)

// TestMain runs the tests and stops dynalite if a test started it.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := dynalite.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// dynalite is the package's one dynalite server.
var dynalite localdynamotest.Shared

// dynamo returns a store on the package's dynalite server, starting it on first
// use. It fails tb if dynalite cannot start: these tests never skip.
func dynamo(tb testing.TB, opts ...store.DynamoOptions) store.Store {
	tb.Helper()
	srv := dynalite.Get(tb)
	return store.NewDynamo(srv.Client(), srv.Table, opts...)
}
