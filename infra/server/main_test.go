package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/httpapi/apitest"
)

// serve runs the server on a free port until the returned stop is called, and
// returns its local URL and what it printed.
func serve(t testing.TB, env map[string]string) (url string, out *syncBuffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, func(k string) string { return env[k] }, out, ready) }()
	select {
	case url = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v\n%s", err, out)
	case <-time.After(time.Minute): // it starts in milliseconds: only a hang waits a minute
		cancel()
		t.Fatal("server did not start within a minute")
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server stopped with %v", err)
		}
	}
	t.Cleanup(stop)
	return url, out, stop
}

func TestServerKeepsGamesAcrossRestarts(t *testing.T) {
	data, site := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte("<title>City Sleeps</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PORT": "0", "DATA_DIR": data, "FRONTEND_DIR": site, "PUBLIC_URL": "http://192.0.2.1:9999"}
	url, out, stop := serve(t, env)
	if !strings.Contains(out.String(), url) || !strings.Contains(out.String(), "City Sleeps is running") {
		t.Errorf("printed %q; want the URL %s", out, url)
	}
	c := &apitest.Client{TB: t, T: apitest.URLTransport(strings.Replace(url, "localhost", "127.0.0.1", 1), nil)}
	cr := c.Create(map[string]string{"preset": "classic"})
	if cr.JoinURL != "http://192.0.2.1:9999/join/"+cr.Code {
		t.Errorf("joinUrl %q", cr.JoinURL)
	}
	j := c.Join(cr.Code, "Аня")
	// The frontend and its pages, with the site's headers.
	for _, path := range []string{"/", "/join/" + cr.Code, "/new"} {
		res := c.Do(apitest.Request{Method: "GET", Path: path})
		if res.Status != 200 || !bytes.Contains(res.Body, []byte("City Sleeps")) || res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d %q", path, res.Status, res.Body)
		}
	}
	stop()

	url, _, _ = serve(t, env)
	c.T = apitest.URLTransport(strings.Replace(url, "localhost", "127.0.0.1", 1), nil)
	v, _ := c.Read(cr.Code, j.Token)
	if v.You == nil || v.You.ID != j.PlayerID || v.Version != 2 {
		t.Fatalf("after a restart: you %v, version %d; want the game as it was", v.You, v.Version)
	}
}

func TestServerRateLimit(t *testing.T) {
	url, _, _ := serve(t, map[string]string{"PORT": "0", "DATA_DIR": t.TempDir(), "RATE_LIMIT": "1"})
	tr := apitest.URLTransport(strings.Replace(url, "localhost", "127.0.0.1", 1), nil)
	limited := false
	for range 10 {
		res, err := tr(apitest.Request{Method: "GET", Path: "/api/health"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("10 requests at once at RATE_LIMIT=1 were all served")
	}
}

func TestConfigure(t *testing.T) {
	for _, env := range []map[string]string{{"PORT": "http"}, {"PORT": "70000"}, {"RATE_LIMIT": "-1"}, {"PUBLIC_URL": "mafia.test"}, {"LOG_LEVEL": "loud"}} {
		if _, err := configure(func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
	c, err := configure(func(string) string { return "" })
	if err != nil || c.port != "8080" || c.dataDir != ".data" || c.rate != 50 {
		t.Errorf("defaults %+v, %v", c, err)
	}
	if ip, ok := lanAddress(); ok && (!ip.Is4() || ip.IsLoopback()) {
		t.Errorf("LAN address %v", ip)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNonCanonicalAPIPaths: an API path written in another than its clean
// form is answered as the API answers an unknown path, a 404 with the API's
// headers, never a redirect without them (issue 29).
func TestNonCanonicalAPIPaths(t *testing.T) {
	url, _, _ := serve(t, map[string]string{"PORT": "0", "DATA_DIR": t.TempDir()})
	base := strings.Replace(url, "localhost", "127.0.0.1", 1)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"//api/games/ABCDEF", "/api/./games/ABCDEF", "/api/games/ABCDEF/../ABCDEF", "/api//health", "/api/health/"} {
		res, err := client.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error struct{ Code string } `json:"error"`
		}
		err = json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || err != nil || e.Error.Code != "not_found" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: %d, error %q (%v), nosniff %q: want the API's 404", p, res.StatusCode, e.Error.Code, err, res.Header.Get("X-Content-Type-Options"))
		}
	}
	res, err := client.Get(base + "/api/health")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the clean path: %v %v", res, err)
	}
	res.Body.Close()
}
