package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestHandler(t *testing.T) {
	site := fstest.MapFS{
		"index.html":      {Data: []byte("<!doctype html><title>City Sleeps</title>")},
		"js/ui.js":        {Data: []byte("console.log(1)")}, // no js/app.js: nothing to bundle
		"css/site.css":    {Data: []byte("body{}")},
		"docs/index.html": {Data: []byte("docs")},
		".env":            {Data: []byte("SECRET=1")},
		"js/.hidden.js":   {Data: []byte("secret")},
		// What frontend/ holds beside the site (issue 12).
		"e2e/game_test.go":  {Data: []byte("package e2e")},
		"test/i18n.test.js": {Data: []byte("import test")},
		"README.md":         {Data: []byte("# frontend")},
		"package.json":      {Data: []byte(`{"private":true}`)},
		"favicon.svg":       {Data: []byte("<svg/>")},
	}
	h := Handler(site)
	tests := []struct {
		method, path string
		status       int
		body, ctype  string
	}{
		{"GET", "/", 200, "City Sleeps", "text/html; charset=utf-8"},
		{"GET", "/index.html", 200, "City Sleeps", "text/html; charset=utf-8"},
		{"GET", "/join/K7QX2M", 200, "City Sleeps", "text/html; charset=utf-8"},
		{"GET", "/new", 200, "City Sleeps", "text/html; charset=utf-8"},
		{"GET", "/host", 200, "City Sleeps", "text/html; charset=utf-8"},
		{"GET", "/js/ui.js", 200, "console.log", "text/javascript; charset=utf-8"},
		{"GET", "/css/site.css", 200, "body", "text/css; charset=utf-8"},
		{"GET", "/favicon.svg", 200, "<svg", "image/svg+xml"},
		{"GET", "/docs/", 200, "City Sleeps", ""},       // an app page, not a directory's index
		{"GET", "/docs/index.html", 404, "", ""},        // not part of the site
		{"GET", "/e2e/game_test.go", 404, "", ""},       // the browser tests
		{"GET", "/test/i18n.test.js", 404, "", ""},      // the unit tests
		{"GET", "/README.md", 404, "", ""},              // the frontend's notes
		{"GET", "/package.json", 404, "", ""},           // the test runner's
		{"GET", "/js/../package.json", 404, "", ""},     // cleaned, still not the site
		{"GET", "/e2e/", 200, "City Sleeps", ""},        // no listing: an app page
		{"GET", "/index.html/", 200, "City Sleeps", ""}, // cleaned to index.html
		{"GET", "/js/missing.js", 404, "", ""},
		{"GET", "/.env", 404, "", ""},
		{"GET", "/js/.hidden.js", 404, "", ""},
		{"GET", "/../../js/ui.js", 200, "console.log", ""},   // cleaned to /js/ui.js
		{"GET", "/../../etc/passwd", 200, "City Sleeps", ""}, // an app page: never the file
		{"HEAD", "/", 200, "", ""},
		{"POST", "/", 405, "", ""},
	}
	for _, tc := range tests {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.body) {
			t.Errorf("%s %s: %d %.40q, want %d %q", tc.method, tc.path, w.Code, w.Body.String(), tc.status, tc.body)
		}
		if tc.ctype != "" && w.Header().Get("Content-Type") != tc.ctype {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, w.Header().Get("Content-Type"), tc.ctype)
		}
		for k, want := range map[string]string{"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
			if got := w.Header().Get(k); got != want {
				t.Errorf("%s %s: %s %q", tc.method, tc.path, k, got)
			}
		}
	}
	// Without a frontend, pages are 404s.
	w := httptest.NewRecorder()
	Handler(fstest.MapFS{}).ServeHTTP(w, httptest.NewRequest("GET", "/join/ABC", nil))
	if w.Code != http.StatusNotFound {
		t.Errorf("no frontend: %d", w.Code)
	}
}
