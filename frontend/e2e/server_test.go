package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"citysleeps/infra/server/site"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// testServer is the local server as infra/server builds it — the API over the
// service over the embedded bolt store, and the static frontend — with a recorder
// in front of the API that keeps every response, so that the tests can check what
// went over the network to each phone.
type testServer struct {
	URL string
	svc *service.Service
	rec *recorder
}

func startServer(t *testing.T) *testServer {
	t.Helper()
	return startServerAt(t, nil)
}

// startServerAt is startServer on the clock now (nil: the real one). The API's
// Date header follows it too, so that the pages count down on the game's time.
func startServerAt(t *testing.T, now func() time.Time) *testServer {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts := []service.Option{service.WithLogger(quiet)}
	if now != nil {
		opts = append(opts, service.WithClock(now))
	}
	svc := service.New(st, opts...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	api := httpapi.New(httpapi.Config{Games: svc, PublicURL: base, Logger: quiet, Now: now})
	rec := &recorder{tokens: map[string]string{}, blocked: map[string]bool{}, now: now}
	mux := http.NewServeMux()
	mux.Handle("/api/", rec.wrap(api))
	mux.Handle("/", site.Handler(os.DirFS(frontendDir(t))))
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	srv.Start()
	t.Cleanup(srv.Close)
	return &testServer{URL: base, svc: svc, rec: rec}
}

// frontendDir is the frontend/ directory: this package lives in frontend/e2e.
func frontendDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Fatalf("no frontend/index.html next to the e2e package: %v", err)
	}
	return dir
}

// view reads the game as the holder of token sees it, straight from the service
// (not over HTTP, so it is not recorded as a phone's traffic).
func (s *testServer) view(t *testing.T, code, token string) rules.View {
	t.Helper()
	v, err := s.svc.Read(context.Background(), code, token)
	if err != nil {
		t.Fatalf("read game %s: %v", code, err)
	}
	return v
}

// act applies an action as the holder of token, straight through the service.
func (s *testServer) act(t *testing.T, code, token string, a rules.Action) rules.View {
	t.Helper()
	v, err := s.svc.Act(context.Background(), code, token, a)
	if err != nil {
		t.Fatalf("%s in game %s: %v", a.Type, code, err)
	}
	return v
}

// exchange is one API response as it went over the network.
type exchange struct {
	Method, Path string
	Token        string // the bearer token of the request, "" for none
	Status       int
	Body         []byte // as the page reads it: inflated if it was sent gzipped
	Gzipped      bool
}

type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
	tokens    map[string]string // player token -> player id; host token -> "host"
	blocked   map[string]bool   // tokens whose requests fail as a dropped connection
	now       func() time.Time  // the server's clock, when it is not the real one
}

func (r *recorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		token := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
		r.mu.Lock()
		blocked := token != "" && r.blocked[token]
		r.mu.Unlock()
		if blocked {
			// A dead network: the connection drops with no answer.
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		}
		if r.now != nil {
			w.Header().Set("Date", r.now().UTC().Format(http.TimeFormat))
		}
		cw := &captureWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(cw, req)
		ex := exchange{Method: req.Method, Path: req.URL.Path, Token: token, Status: cw.status, Body: cw.buf.Bytes()}
		if cw.Header().Get("Content-Encoding") == "gzip" {
			// The browser asked for gzip and reads the view inflated; so does the
			// leak check.
			zr, err := gzip.NewReader(bytes.NewReader(ex.Body))
			if err == nil {
				ex.Body, err = io.ReadAll(zr)
			}
			if err != nil {
				panic(fmt.Sprintf("a gzipped answer to %s %s does not inflate: %v", req.Method, req.URL.Path, err))
			}
			ex.Gzipped = true
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.exchanges = append(r.exchanges, ex)
		if req.Method == http.MethodPost && cw.status == http.StatusCreated {
			var created struct {
				HostToken string `json:"hostToken"`
				PlayerID  string `json:"playerId"`
				Token     string `json:"token"`
			}
			if json.Unmarshal(ex.Body, &created) == nil {
				if created.HostToken != "" {
					r.tokens[created.HostToken] = "host"
				}
				if created.Token != "" {
					r.tokens[created.Token] = created.PlayerID
				}
			}
		}
	})
}

func (r *recorder) block(token string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.blocked[token] = on
}

// since returns the exchanges recorded from index i on, and the next index.
func (r *recorder) since(i int) ([]exchange, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]exchange(nil), r.exchanges[i:]...)
	return out, len(r.exchanges)
}

func (r *recorder) viewer(token string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tokens[token]
}

type captureWriter struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (w *captureWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *captureWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	return w.ResponseWriter.Write(b)
}
