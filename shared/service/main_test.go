package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"

	"citysleeps/infra/localdynamo"
	"citysleeps/shared/store"
)

// quiet drops the service's logs in tests that provoke failures on purpose.
var quiet = slog.New(slog.DiscardHandler)

// TestMain runs the tests and stops dynalite if a test started it.
func TestMain(m *testing.M) {
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

// dynamo returns a store on the package's one dynalite server, starting it on
// first use. It fails tb if dynalite cannot start: these tests never skip.
func dynamo(tb testing.TB, opts ...store.DynamoOptions) store.Store {
	tb.Helper()
	dynaliteOnce.Do(func() {
		dynaliteSrv, dynaliteErr = localdynamo.Start(context.Background())
	})
	if dynaliteErr != nil {
		tb.Fatalf("dynalite is needed for this test (run `npm ci` at the repository root): %v", dynaliteErr)
	}
	return store.NewDynamo(dynaliteSrv.Client(), dynaliteSrv.Table, opts...)
}
