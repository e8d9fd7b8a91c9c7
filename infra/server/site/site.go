// Package site serves the static frontend on the local server: the files that
// make the site (Files) and the app's page for its routes, with the site's
// security headers. In AWS the same files are copied to the bucket CloudFront
// serves (the Makefile's upload, which a test holds to Files), and CloudFront
// sends the same Content-Security-Policy (CSP).
package site

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// CSP is the Content-Security-Policy of the static site: everything from the
// site's own origin, images also as data: URLs, no inline or foreign script, no
// plugins, no framing. CloudFront sends the same policy (template.yaml; a test
// compares them).
const CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Files is what the static site is made of, as paths in the frontend/
// directory: files, and directories (ending in "/") all of whose files belong
// to it. The rest of frontend/ (the browser tests' Go code, the unit tests,
// README.md, package.json) is not the site: Handler does not serve it, and the
// Makefile's upload does not copy it to the bucket (a test holds the two to
// this list).
var Files = []string{"index.html", "favicon.svg", "css/", "js/"}

// Has reports whether name, a clean slash-separated path in frontend/, is a
// file of the site: one of Files or under one of its directories.
func Has(name string) bool {
	for _, s := range Files {
		if name == s || strings.HasSuffix(s, "/") && strings.HasPrefix(name, s) {
			return true
		}
	}
	return false
}

// Handler serves the frontend from fsys (the frontend/ directory): the site's files
// as they are, and the app's index.html for the pages that have no file
// of their own: "/", "/new", "/join/{CODE}" and any other path whose last
// segment has no file extension. Nothing else is served: no file outside
// Files, no dotfile, no directory listing. Only GET and HEAD are allowed.
func Handler(fsys fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		siteHeaders(w.Header())
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		for _, seg := range strings.Split(name, "/") {
			if strings.HasPrefix(seg, ".") {
				http.NotFound(w, r)
				return
			}
		}
		fi, err := fs.Stat(fsys, name)
		switch {
		case err == nil && !fi.IsDir() && Has(name):
		case appPage(name):
			name = "index.html"
		default:
			http.NotFound(w, r)
			return
		}
		serveFile(w, r, fsys, name)
	})
}

// appPage reports whether a path that is not a file of the site is a page of
// the single-page app.
func appPage(name string) bool {
	return name == "" || name == "new" || strings.HasPrefix(name, "join/") || !strings.Contains(path.Base(name), ".")
}

func serveFile(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) {
	f, err := fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			http.NotFound(w, r)
			return
		}
		http.Error(w, "cannot read file", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		http.NotFound(w, r)
		return
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "cannot read file", http.StatusInternalServerError)
			return
		}
		rs = bytes.NewReader(data)
	}
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), rs)
}

// siteHeaders are the security headers of every static response. Pages are
// revalidated on each load (no-cache), so a new frontend shows at once.
func siteHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-cache")
}
