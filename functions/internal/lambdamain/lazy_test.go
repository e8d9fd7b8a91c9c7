package lambdamain

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// TestLazy: a store that cannot be built is 503 unavailable without its
// details, the next request builds it again, and once built it is kept.
func TestLazy(t *testing.T) {
	builds := 0
	fail := true
	games := service.New(&lazyStore{build: func(context.Context) (store.Store, error) {
		builds++
		if fail {
			return nil, errors.New("dial tcp 10.1.2.3:443: secret-internal-host unreachable")
		}
		return store.NewMemory(), nil
	}}, service.WithLogger(slog.New(slog.DiscardHandler)))
	h := httpapi.New(httpapi.Config{Games: games, Logger: slog.New(slog.DiscardHandler)})
	create := func() (int, string) {
		r := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"preset":"sport"}`))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		body, _ := io.ReadAll(w.Body)
		return w.Code, string(body)
	}
	code, body := create()
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e); code != http.StatusServiceUnavailable || e.Error.Code != "unavailable" {
		t.Fatalf("store not built: %d %s", code, body)
	}
	if strings.Contains(body, "secret") {
		t.Errorf("internal detail sent: %s", body)
	}
	failed := builds // the service tries a failing store again within a request
	fail = false
	for range 2 {
		if code, body := create(); code != http.StatusCreated {
			t.Fatalf("store built: %d %s", code, body)
		}
	}
	if failed < 1 || builds != failed+1 {
		t.Errorf("%d builds, %d of them failed; want the next request to build it once, and the one after to keep it", builds, failed)
	}
}
