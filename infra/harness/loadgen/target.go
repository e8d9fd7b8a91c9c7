package loadgen

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/server/localserver"
	"citysleeps/infra/server/ratelimit"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// Store backends a Target can run on.
const (
	StoreBolt   = "bolt"   // the embedded on-disk store of the local server
	StoreDynamo = "dynamo" // the DynamoDB store, on dynalite started on loopback
	StoreMemory = "memory" // the in-memory store (tests)
)

// TargetOptions say what server Start runs.
type TargetOptions struct {
	// Store is StoreBolt, StoreDynamo or StoreMemory.
	Store string
	// Dir holds the bolt file; empty: a temporary directory, removed by Close.
	Dir string
	// Dynamo is a dynalite already running; nil starts one (for StoreDynamo).
	Dynamo *localdynamo.Server
	// RateLimit puts the local server's per-client limit (ratelimit.Default)
	// in front of the API, as infra/server does.
	RateLimit bool
	// Wrap, if set, wraps the store under the meter (fault injection in tests).
	Wrap func(store.Store) store.Store
	// Logger receives the server's logs; nil keeps warnings and errors only,
	// counted but not printed (see Target.Logged).
	Logger *slog.Logger
	// BillLogs has the server write its log lines as the deployed functions
	// do (one JSON request line each, with its metrics) into the meter
	// (Meter.LogHandler), as well as counting the warnings, so that a bill
	// of the run (Bill) counts their CloudWatch Logs ingestion. Ignored
	// when Logger is set.
	BillLogs bool
}

// Target is an API server on a loopback port, built in this process the way
// infra/server builds it (service.New on a store, httpapi.New, the per-client
// limit), with a Meter around the store and the handler.
type Target struct {
	// URL is the server's base URL, http://127.0.0.1:<port>.
	URL string
	// Name says what it runs on, for reports.
	Name string
	// Meter measures the store and the requests.
	Meter *Meter
	// Logged counts log records of level warning or above, by message.
	Logged *Counter

	srv     *http.Server
	served  chan error
	closers []func() error
}

// Start runs a Target. Close stops it and what it started.
func Start(ctx context.Context, o TargetOptions) (t *Target, err error) {
	t = &Target{Logged: &Counter{}}
	defer func() {
		if err != nil {
			t.Close()
		}
	}()
	var st store.Store
	switch o.Store {
	case StoreBolt:
		dir := o.Dir
		if dir == "" {
			if dir, err = os.MkdirTemp("", "loadgen-bolt-"); err != nil {
				return nil, err
			}
			t.closers = append(t.closers, func() error { return os.RemoveAll(dir) })
		}
		b, err := store.OpenBolt(filepath.Join(dir, "games.db"))
		if err != nil {
			return nil, err
		}
		t.closers = append(t.closers, b.Close)
		st, t.Name = b, "bolt (embedded store, fsync per write)"
	case StoreDynamo:
		srv := o.Dynamo
		if srv == nil {
			if srv, err = localdynamo.Start(ctx); err != nil {
				return nil, fmt.Errorf("start dynalite: %w", err)
			}
			t.closers = append(t.closers, srv.Stop)
		}
		t.Meter = NewMeter(nil)
		st = store.NewDynamo(srv.Client(), srv.Table, store.DynamoOptions{Capacity: t.Meter.Capacity})
		t.Name = "dynamo (DynamoDB store on dynalite " + srv.Endpoint + ")"
	case StoreMemory:
		st, t.Name = store.NewMemory(), "memory"
	default:
		return nil, fmt.Errorf("loadgen: unknown store %q (bolt, dynamo or memory)", o.Store)
	}
	if o.Wrap != nil {
		st = o.Wrap(st)
	}
	if t.Meter == nil {
		t.Meter = NewMeter(st)
	} else {
		t.Meter.st = st
	}
	logger := o.Logger
	metrics := ""
	switch {
	case logger == nil && o.BillLogs:
		logger = slog.New(slog.NewMultiHandler(&countingHandler{c: t.Logged}, t.Meter.LogHandler()))
		metrics = LogMetricsNamespace
	case logger == nil:
		logger = slog.New(&countingHandler{c: t.Logged})
	}
	games := service.New(t.Meter, service.WithLogger(logger), service.WithLocalLocks())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t.URL = "http://" + ln.Addr().String()
	api := httpapi.New(httpapi.Config{Games: games, PublicURL: t.URL, Logger: logger, Metrics: metrics})
	if o.RateLimit {
		api = ratelimit.Wrap(api, ratelimit.Default, httpapi.TooManyRequests)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", t.Meter.Handler(api))
	t.srv = localserver.New(mux, logger)
	t.served = make(chan error, 1)
	go func() { t.served <- t.srv.Serve(ln) }()
	return t, nil
}

// Close stops the server and whatever Start started, last first.
func (t *Target) Close() error {
	var errs []error
	if t.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		errs = append(errs, t.srv.Shutdown(ctx))
		cancel()
		if err := <-t.served; !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
		t.srv = nil
	}
	for i := len(t.closers) - 1; i >= 0; i-- {
		errs = append(errs, t.closers[i]())
	}
	t.closers = nil
	return errors.Join(errs...)
}

// countingHandler is a slog.Handler that counts records of level warning and
// above by message, and drops the rest: a load run logs thousands of lines
// otherwise, and the report says how many there were.
type countingHandler struct{ c *Counter }

func (h *countingHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.c.Add(r.Level.String()+": "+r.Message, 1)
	return nil
}

func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }
