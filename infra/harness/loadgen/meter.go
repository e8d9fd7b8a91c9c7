package loadgen

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/store"
)

// Request kinds, as the meter files them.
const (
	KindCreate  = "create"
	KindJoin    = "join"
	KindPoll304 = "poll304"
	KindPoll200 = "poll200"
	KindAction  = "action"
	KindOther   = "other" // errors, health checks, anything else
	// KindEveningRead and KindEveningWrite are an evening's own routes
	// (/api/evenings…) answered 2xx: its reads (the phones looking for their
	// table, the TV), and its writes (made, joined, its rounds started and
	// recorded), so that its requests are timed and billed apart from its
	// games'.
	KindEveningRead  = "evening_read"
	KindEveningWrite = "evening_write"
)

// Meter wraps a store.Store and, together with its Handler, measures what each
// kind of request costs in the store: calls, DynamoDB capacity units (as
// DynamoDB bills them for the item sizes seen), time spent in the store, and
// conflicts. It also remembers when each version of each game was written, so
// that bots can tell how long a change took to reach them. It is safe for
// concurrent use.
type Meter struct {
	st store.Store

	mu        sync.Mutex
	kinds     map[string]*KindCost
	server    map[string]*Latencies  // time in the handler, per kind
	conflicts int64                  // Update calls refused with store.ErrConflict
	failures  int64                  // other store errors (not found excluded)
	itemMax   int                    // largest item written, in bytes (store.ItemSize)
	itemLast  map[string]int         // last item size per game
	commits   map[string][]time.Time // per game, index = version: when it was written
	hookRead  float64                // units reported by the DynamoDB store's Capacity hook
	hookWrite float64
	hookCalls int64
}

// KindCost is what one kind of request cost, summed.
type KindCost struct {
	Requests   int64
	HandlerNs  int64 // time in the handler outside the store
	StoreNs    int64 // time in store calls
	StoreCalls int64
	ReadUnits  float64
	WriteUnits float64
	Bytes      int64 // response bytes, headers included
	// LogBytes and LogEvents are the log lines the handler wrote (its JSON
	// request line and any warning), as the functions write them to
	// CloudWatch Logs (LogHandler), the newline left out.
	LogBytes  int64
	LogEvents int64
}

// add sums o into c.
func (c *KindCost) add(o KindCost) {
	c.Requests += o.Requests
	c.HandlerNs += o.HandlerNs
	c.StoreNs += o.StoreNs
	c.StoreCalls += o.StoreCalls
	c.ReadUnits += o.ReadUnits
	c.WriteUnits += o.WriteUnits
	c.Bytes += o.Bytes
	c.LogBytes += o.LogBytes
	c.LogEvents += o.LogEvents
}

// NewMeter wraps st.
func NewMeter(st store.Store) *Meter {
	return &Meter{st: st, kinds: map[string]*KindCost{}, server: map[string]*Latencies{}, itemLast: map[string]int{}, commits: map[string][]time.Time{}}
}

var _ store.Store = (*Meter)(nil)

// Capacity is a store.Capacity hook that adds up what the DynamoDB store reports.
func (m *Meter) Capacity(op string, readUnits, writeUnits float64) {
	m.mu.Lock()
	m.hookRead += readUnits
	m.hookWrite += writeUnits
	m.hookCalls++
	m.mu.Unlock()
}

// HookUnits returns the units the DynamoDB store reported through Capacity.
func (m *Meter) HookUnits() (read, write float64, calls int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hookRead, m.hookWrite, m.hookCalls
}

type tallyKey struct{}

// tally is one request's share of store use; the Handler files it under a kind.
type tally struct {
	mu        sync.Mutex
	calls     int64
	ns        int64
	read      float64
	write     float64
	logBytes  int64
	logEvents int64
}

func (m *Meter) charge(ctx context.Context, start time.Time, read, write float64) {
	t, _ := ctx.Value(tallyKey{}).(*tally)
	if t == nil {
		return
	}
	t.mu.Lock()
	t.calls++
	t.ns += int64(time.Since(start))
	t.read += read
	t.write += write
	t.mu.Unlock()
}

// readUnits is what DynamoDB bills for reading an item of size bytes: one unit
// per started 4 KB, half that when eventually consistent; a missing item
// still costs the minimum.
func readUnits(size int, consistent bool) float64 {
	u := math.Max(1, math.Ceil(float64(size)/4096))
	if !consistent {
		u /= 2
	}
	return u
}

// writeUnits is what DynamoDB bills for writing an item: one unit per started
// KB of the larger of the old and the new item, refused conditional writes included.
func writeUnits(size int) float64 { return math.Max(1, math.Ceil(float64(size)/1024)) }

// Create passes the call on and records the item written.
func (m *Meter) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	start := time.Now()
	err := m.st.Create(ctx, code, state, expiresAt)
	size := store.ItemSize(store.Item{Code: code, Version: 1, State: state, ExpiresAt: expiresAt})
	m.charge(ctx, start, 0, writeUnits(size))
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil {
		m.written(code, 1, size)
	} else if !errors.Is(err, store.ErrExists) {
		m.failures++
	}
	return err
}

// Get passes the call on and charges the read.
func (m *Meter) Get(ctx context.Context, code string, consistent bool) (store.Item, error) {
	start := time.Now()
	it, err := m.st.Get(ctx, code, consistent)
	size := 0
	if err == nil {
		size = store.ItemSize(it)
	}
	m.charge(ctx, start, readUnits(size, consistent), 0)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		m.mu.Lock()
		m.failures++
		m.mu.Unlock()
	}
	return it, err
}

// Update passes the call on, charges the write and counts conflicts.
func (m *Meter) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
	start := time.Now()
	v, err := m.st.Update(ctx, code, expected, state, expiresAt)
	size := store.ItemSize(store.Item{Code: code, Version: expected + 1, State: state, ExpiresAt: expiresAt})
	m.mu.Lock()
	old := m.itemLast[code]
	switch {
	case err == nil:
		m.written(code, v, size)
	case errors.Is(err, store.ErrConflict):
		m.conflicts++
	case !errors.Is(err, store.ErrNotFound):
		m.failures++
	}
	m.mu.Unlock()
	m.charge(ctx, start, 0, writeUnits(max(old, size)))
	return v, err
}

// written records a stored version; m.mu is held.
func (m *Meter) written(code string, version int64, size int) {
	m.itemMax = max(m.itemMax, size)
	m.itemLast[code] = size
	c := m.commits[code]
	for int64(len(c)) <= version {
		c = append(c, time.Time{})
	}
	c[version] = time.Now()
	m.commits[code] = c
}

// Committed returns when version of the game code was written, if known.
func (m *Meter) Committed(code string, version int64) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.commits[code]
	if version < 0 || version >= int64(len(c)) || c[version].IsZero() {
		return time.Time{}, false
	}
	return c[version], true
}

// ItemSize returns the last size of the game code's item and the largest item
// written so far, in bytes as DynamoDB counts them.
func (m *Meter) ItemSize(code string) (last, largest int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.itemLast[code], m.itemMax
}

// Conflicts returns the version conflicts and other failures the store returned.
func (m *Meter) Conflicts() (conflicts, failures int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.conflicts, m.failures
}

// Kinds returns a copy of the costs per kind of request.
func (m *Meter) Kinds() map[string]KindCost {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]KindCost, len(m.kinds))
	for k, v := range m.kinds {
		out[k] = *v
	}
	return out
}

// ServerTimes returns the distribution of the time the handler took, per kind
// of request: the server's share of the latency the clients saw.
func (m *Meter) ServerTimes() map[string]Summary {
	m.mu.Lock()
	ls := make(map[string]*Latencies, len(m.server))
	for k, l := range m.server {
		ls[k] = l
	}
	m.mu.Unlock()
	out := make(map[string]Summary, len(ls))
	for k, l := range ls {
		out[k] = l.Summary()
	}
	return out
}

// ServerTime is the distribution of the time the handler took over the
// requests of every kind in kinds together: an evening's own requests, or its
// games', whose percentiles cannot be read off the kinds' apart.
func (m *Meter) ServerTime(kinds ...string) Summary {
	m.mu.Lock()
	var d []time.Duration
	for _, k := range kinds {
		if l := m.server[k]; l != nil {
			l.mu.Lock()
			d = append(d, l.d...)
			l.mu.Unlock()
		}
	}
	m.mu.Unlock()
	return Summarize(d)
}

// Reset forgets everything measured so far (between the warm-up and the run).
func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.kinds = map[string]*KindCost{}
	m.server = map[string]*Latencies{}
	m.conflicts, m.failures, m.itemMax = 0, 0, 0
	m.hookRead, m.hookWrite, m.hookCalls = 0, 0, 0
}

// countingWriter counts the bytes of a response and remembers its status.
type countingWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *countingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
		// The status line and the headers, as HTTP/1.1 sends them.
		n := int64(len("HTTP/1.1 200 OK\r\n\r\n"))
		for k, vs := range w.Header() {
			for _, v := range vs {
				n += int64(len(k) + len(v) + 4)
			}
		}
		n += int64(len("Date: Mon, 02 Jan 2006 15:04:05 GMT\r\n"))
		w.bytes += n
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *countingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.bytes += int64(len(b))
	return w.ResponseWriter.Write(b)
}

// Handler wraps the API handler so that each request's store use is filed
// under its kind (a 304 poll, a full poll, an action, a join, a create).
func (m *Meter) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := &tally{}
		cw := &countingWriter{ResponseWriter: w}
		start := time.Now()
		next.ServeHTTP(cw, r.WithContext(context.WithValue(r.Context(), tallyKey{}, t)))
		total := time.Since(start)
		kind := kindOf(r, cw.status)
		t.mu.Lock()
		defer t.mu.Unlock()
		m.mu.Lock()
		defer m.mu.Unlock()
		k := m.kinds[kind]
		if k == nil {
			k = &KindCost{}
			m.kinds[kind] = k
		}
		l := m.server[kind]
		if l == nil {
			l = &Latencies{}
			m.server[kind] = l
		}
		l.Add(total)
		k.add(KindCost{Requests: 1, HandlerNs: int64(total) - t.ns, StoreNs: t.ns, StoreCalls: t.calls,
			ReadUnits: t.read, WriteUnits: t.write, Bytes: cw.bytes, LogBytes: t.logBytes, LogEvents: t.logEvents})
	})
}

// kindOf names the kind of a request by its route and answer.
func kindOf(r *http.Request, status int) string {
	p := strings.TrimSuffix(r.URL.Path, "/")
	if strings.HasPrefix(p, "/api/evenings") && status >= 200 && status < 300 {
		if r.Method == http.MethodGet {
			return KindEveningRead
		}
		return KindEveningWrite
	}
	parts := strings.Split(strings.TrimPrefix(p, "/api/games"), "/")
	ok := status >= 200 && status < 300
	switch {
	case r.Method == http.MethodPost && p == "/api/games" && ok:
		return KindCreate
	case r.Method == http.MethodPost && len(parts) == 3 && parts[2] == "players" && ok:
		return KindJoin
	case r.Method == http.MethodGet && len(parts) == 2 && status == http.StatusNotModified:
		return KindPoll304
	case r.Method == http.MethodGet && len(parts) == 2 && ok:
		return KindPoll200
	case r.Method == http.MethodPost && len(parts) == 3 && parts[2] == "actions" && ok:
		return KindAction
	}
	return KindOther
}

// LogHandler is a slog.Handler that writes each record as the functions do
// (httpapi.NewLogHandler) and files its size under the request whose
// context it was logged with (its kind's LogBytes and LogEvents), to bill
// CloudWatch Logs ingestion. The lines themselves are dropped.
func (m *Meter) LogHandler() slog.Handler {
	s := &logSink{}
	return &logMeter{sink: s, h: httpapi.NewLogHandler(s)}
}

// logSink counts what a JSON handler writes; its mutex makes a record's
// formatting and its count one step.
type logSink struct {
	mu sync.Mutex
	n  int
}

func (s *logSink) Write(p []byte) (int, error) {
	s.n += len(p)
	return len(p), nil
}

type logMeter struct {
	sink *logSink
	h    slog.Handler
}

func (l *logMeter) Enabled(ctx context.Context, level slog.Level) bool {
	return l.h.Enabled(ctx, level)
}

func (l *logMeter) Handle(ctx context.Context, r slog.Record) error {
	l.sink.mu.Lock()
	l.sink.n = 0
	err := l.h.Handle(ctx, r)
	n := int64(l.sink.n)
	l.sink.mu.Unlock()
	if t, _ := ctx.Value(tallyKey{}).(*tally); t != nil && n > 0 {
		t.mu.Lock()
		t.logBytes += n - 1 // the newline ends the event; CloudWatch keeps the message
		t.logEvents++
		t.mu.Unlock()
	}
	return err
}

func (l *logMeter) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logMeter{sink: l.sink, h: l.h.WithAttrs(attrs)}
}

func (l *logMeter) WithGroup(name string) slog.Handler {
	return &logMeter{sink: l.sink, h: l.h.WithGroup(name)}
}
