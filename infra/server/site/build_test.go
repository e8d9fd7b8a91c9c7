package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// miniSite is a frontend of the real one's shape: the app with a screen of
// its own, a module of the other screens and two languages loaded when asked
// for, a module all of them share.
func miniSite() fstest.MapFS {
	long := strings.Repeat("the city falls asleep; ", 80) // compressed: over 1,000 bytes
	return fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><title>City Sleeps</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/css/app.css">
<script type="module" src="/js/app.js"></script>`)},
		"favicon.svg":          {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		"css/app.css":          {Data: []byte("body { color: #eee; background: #101014 }\n")},
		"js/app.js":            {Data: []byte("import { say } from './shared.js';\nimport { player } from './player.js';\nexport const lang = (l) => l === 'ru' ? import('./locales/ru.js') : import('./locales/en.js');\nexport const others = () => import('./others.js');\nsay(player());\n")},
		"js/player.js":         {Data: []byte("export function player() { return 'PLAYER_SCREEN'; }\n")},
		"js/shared.js":         {Data: []byte("export function say(s) { console.log(s, '" + long + "'); }\n")},
		"js/others.js":         {Data: []byte("import { say } from './shared.js';\nexport function host() { say('HOST_SCREEN'); }\n")},
		"js/locales/en.js":     {Data: []byte("export default { 'app.title': 'ENGLISH_TITLE' };\n")},
		"js/locales/ru.js":     {Data: []byte("export default { 'app.title': 'Город засыпает' };\n")},
		"test/i18n.test.js":    {Data: []byte("import test from 'node:test'")},
		"e2e/browser_test.go":  {Data: []byte("package e2e")},
		"js/unused/notes.html": {Data: []byte("not the site's")},
	}
}

func TestBuild(t *testing.T) {
	b, err := Build(miniSite())
	if err != nil {
		t.Fatal(err)
	}
	index := string(b.Files["index.html"])
	ref := func(pattern string) string {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(index)
		if m == nil {
			t.Fatalf("index.html has no %s: %s", pattern, index)
		}
		if _, ok := b.Files[m[1]]; !ok {
			t.Fatalf("index.html names %s, which the build did not make", m[1])
		}
		return m[1]
	}
	entry := ref(`<script type="module" src="/(assets/app-[A-Z0-9]+\.js)"></script>`)
	ref(`<link rel="stylesheet" href="/(assets/app-[A-Z0-9]+\.css)">`)
	shared := ref(`<link rel="modulepreload" href="/(assets/chunk-[A-Z0-9]+\.js)">`)
	if strings.Contains(index, "/js/") || strings.Contains(index, "/css/") || strings.Contains(index, "/favicon.svg") {
		t.Errorf("the built index.html still names a source file: %s", index)
	}
	if !strings.Contains(index, `href="data:image/svg+xml;base64,`) {
		t.Errorf("the icon is not in the page: %s", index)
	}
	// What the app's page loads: the app with its screen, and what it
	// shares with the other screens; not those screens, nor a language.
	page := string(b.Files[entry]) + string(b.Files[shared])
	if !strings.Contains(page, "PLAYER_SCREEN") || !strings.Contains(page, "the city falls asleep") {
		t.Errorf("the app's files lack its screen or what it shares:\n%s", page)
	}
	for _, other := range []string{"HOST_SCREEN", "ENGLISH_TITLE", "Город засыпает"} {
		if strings.Contains(page, other) {
			t.Errorf("the app's own files hold %q, which should come only when asked for", other)
		}
	}
	var names []string
	for name := range b.Files {
		names = append(names, name)
		if name != "index.html" && name != "favicon.svg" && !regexp.MustCompile(`^assets/[a-z]+-[A-Z0-9]{8}\.(js|css)$`).MatchString(name) {
			t.Errorf("built %s: neither a page nor a hashed file", name)
		}
	}
	for _, want := range []string{"assets/others-", "assets/en-", "assets/ru-"} {
		if !slicesHasPrefix(names, want) {
			t.Errorf("no %s*: a file of its own for each screen module and language; built %v", want, names)
		}
	}
	if !strings.Contains(string(b.Files[entry]), `import("./others-`) {
		t.Errorf("the app does not import the other screens by their hashed name: %s", b.Files[entry])
	}

	// A change to one module renames its file and every file that names it,
	// and no other.
	changed := miniSite()
	changed["js/others.js"] = &fstest.MapFile{Data: []byte("import { say } from './shared.js';\nexport function host() { say('HOST_SCREEN, changed'); }\n")}
	b2, err := Build(changed)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b2.Files[entry]; ok {
		t.Errorf("the app's file kept its name %s though the name of a file it imports changed", entry)
	}
	if _, ok := b2.Files[shared]; !ok {
		t.Errorf("the shared file %s was renamed though it did not change", shared)
	}
}

func slicesHasPrefix(names []string, prefix string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

func TestBuildErrors(t *testing.T) {
	bare := miniSite()
	bare["js/player.js"] = &fstest.MapFile{Data: []byte("import 'left-pad';\nexport function player() {}\n")}
	noScript := miniSite()
	noScript["index.html"] = &fstest.MapFile{Data: []byte("<title>City Sleeps</title>")}
	broken := miniSite()
	broken["js/player.js"] = &fstest.MapFile{Data: []byte("export function player( {\n")}
	for name, src := range map[string]fstest.MapFS{"a package import": bare, "no script tag": noScript, "a syntax error": broken} {
		if _, err := NewHandler(src); err == nil {
			t.Errorf("%s: built", name)
		}
		w := httptest.NewRecorder()
		Handler(src).ServeHTTP(w, httptest.NewRequest("GET", "/join/K7QX2M", nil))
		if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), "build the site") {
			t.Errorf("%s: %d %q, want a 500 that says why", name, w.Code, w.Body.String())
		}
	}
}

// TestServeBuilt: the hashed files are kept a year, the pages revalidated
// (ETag, 304), text compressed as CloudFront compresses it: brotli where the
// browser takes it, else gzip, nothing under 1,000 bytes.
func TestServeBuilt(t *testing.T) {
	src := miniSite()
	b, err := Build(src)
	if err != nil {
		t.Fatal(err)
	}
	h := Handler(src)
	do := func(method, path string, header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	var shared, entry string
	for name := range b.Files {
		switch {
		case strings.HasPrefix(name, "assets/chunk-"):
			shared = name
		case strings.HasPrefix(name, "assets/app-") && strings.HasSuffix(name, ".js"):
			entry = name
		}
	}
	for _, path := range []string{"/", "/join/K7QX2M", "/index.html", "/new"} {
		w := do("GET", path)
		if w.Code != 200 || w.Body.String() != string(b.Files["index.html"]) {
			t.Errorf("GET %s: %d %.60q, want the built index.html", path, w.Code, w.Body.String())
		}
		if cc, tag := w.Header().Get("Cache-Control"), w.Header().Get("ETag"); cc != CacheRevalidate || tag == "" {
			t.Errorf("GET %s: Cache-Control %q, ETag %q", path, cc, tag)
		}
		if again := do("GET", path, "If-None-Match", w.Header().Get("ETag")); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Errorf("GET %s again with its ETag: %d, want 304", path, again.Code)
		}
		if w.Header().Get("Content-Security-Policy") != CSP {
			t.Errorf("GET %s: no CSP", path)
		}
	}
	w := do("GET", "/"+entry)
	if w.Code != 200 || w.Header().Get("Cache-Control") != CacheImmutable || w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("GET %s: %d, Cache-Control %q, Content-Type %q", entry, w.Code, w.Header().Get("Cache-Control"), w.Header().Get("Content-Type"))
	}
	// The source modules are still there, as they are, for the browser tests.
	if w := do("GET", "/js/shared.js"); w.Code != 200 || w.Header().Get("Cache-Control") != CacheRevalidate || !strings.Contains(w.Body.String(), "export function say") {
		t.Errorf("GET /js/shared.js: %d, Cache-Control %q", w.Code, w.Header().Get("Cache-Control"))
	}
	for _, path := range []string{"/test/i18n.test.js", "/e2e/browser_test.go", "/assets/missing-AAAAAAAA.js", "/assets/"} {
		if w := do("GET", path); w.Code == 200 && w.Body.String() != string(b.Files["index.html"]) {
			t.Errorf("GET %s: %d %.60q", path, w.Code, w.Body.String())
		}
	}

	// Compression.
	want := b.Files[shared]
	for _, tc := range []struct{ accept, enc string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip, deflate", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"gzip;q=0", ""},
		{"", ""},
		{"identity", ""},
	} {
		w := do("GET", "/"+shared, "Accept-Encoding", tc.accept)
		if got := w.Header().Get("Content-Encoding"); got != tc.enc {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.enc)
		}
		if w.Header().Get("Vary") != "Accept-Encoding" || w.Header().Get("Cache-Control") != CacheImmutable {
			t.Errorf("Accept-Encoding %q: Vary %q, Cache-Control %q", tc.accept, w.Header().Get("Vary"), w.Header().Get("Cache-Control"))
		}
		var r io.Reader = w.Body
		switch tc.enc {
		case "br":
			r = brotli.NewReader(w.Body)
		case "gzip":
			gr, err := gzip.NewReader(w.Body)
			if err != nil {
				t.Fatal(err)
			}
			r = gr
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Accept-Encoding %q: the body reads as %d bytes (%v), want the file's %d", tc.accept, len(got), err, len(want))
		}
		if tc.enc != "" {
			if n := w.Body.Len(); n >= len(want) {
				t.Errorf("%s: %d bytes, not under the file's %d", tc.enc, n, len(want))
			}
			again := do("GET", "/"+shared, "Accept-Encoding", tc.accept, "If-None-Match", w.Header().Get("ETag"))
			if again.Code != http.StatusNotModified {
				t.Errorf("%s again with its ETag %s: %d", tc.enc, w.Header().Get("ETag"), again.Code)
			}
		}
	}
	// Small files go as they are.
	if w := do("GET", "/favicon.svg", "Accept-Encoding", "gzip, br"); w.Header().Get("Content-Encoding") != "" || w.Header().Get("Cache-Control") != CacheRevalidate {
		t.Errorf("favicon.svg: Content-Encoding %q, Cache-Control %q", w.Header().Get("Content-Encoding"), w.Header().Get("Cache-Control"))
	}
	if w := do("HEAD", "/"+shared, "Accept-Encoding", "gzip"); w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
	}
}

// TestBuildTheFrontend: the real frontend builds, and a phone that scans a
// join link gets what the join page needs and nothing else: the app and the
// player's screen, not the other screens, and no language but the one it
// asks for; all of it, gzipped, under the 60 KB of issue 28.
func TestBuildTheFrontend(t *testing.T) {
	src := os.DirFS("../../../frontend")
	b, err := Build(src)
	if err != nil {
		t.Fatal(err)
	}
	index := string(b.Files["index.html"])
	phone := []string{"index.html"}
	for _, m := range regexp.MustCompile(`(?:src|href)="/(assets/[^"]+)"`).FindAllStringSubmatch(index, -1) {
		phone = append(phone, m[1])
	}
	code := ""
	for _, name := range phone[1:] {
		if strings.HasSuffix(name, ".js") {
			code += string(b.Files[name])
		}
	}
	if !strings.Contains(code, "seat_code") {
		t.Errorf("the page's own modules (%v) lack the player's screen", phone)
	}
	if strings.Contains(code, "host_lobby") {
		t.Errorf("the page's own modules (%v) hold the host's screen", phone)
	}
	en, err := fs.ReadFile(src, "js/locales/en.js")
	if err != nil {
		t.Fatal(err)
	}
	if tagline := regexp.MustCompile(`'app.tagline': '([^']+)'`).FindSubmatch(en); tagline == nil || strings.Contains(code, string(tagline[1])) {
		t.Errorf("the page's own modules hold English, or en.js has no tagline")
	}
	langs := 0
	for name, data := range b.Files {
		if regexp.MustCompile(`^assets/(en|ru|uk|ro)-`).MatchString(name) {
			langs++
			if name[len("assets/"):len("assets/")+2] == "en" {
				phone = append(phone, name)
			}
			if !bytes.HasPrefix(data, []byte("var ")) && !bytes.Contains(data, []byte("export")) {
				t.Errorf("%s is not a module", name)
			}
		}
	}
	if langs != 4 {
		t.Errorf("%d files of languages, want one for each of the four", langs)
	}
	total := 0
	for _, name := range phone {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b.Files[name])
		zw.Close()
		total += buf.Len()
	}
	if total > 60_000 {
		t.Errorf("a phone's first load is %d bytes gzipped (%v), over 60 KB", total, phone)
	}
	t.Logf("a phone's first load: %v, %d bytes gzipped", phone, total)
}
