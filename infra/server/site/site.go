// Package site builds the static frontend (Build: bundled, minified, named by
// content hash) and serves it on the local server: the built site, the app's
// page for its routes and the files that make the site (Files), with the
// site's security headers, each file's Cache-Control (CacheControl), and
// compressed as CloudFront compresses. In AWS the built site is copied to the
// bucket CloudFront serves (make upload, with sitebuild), with the same
// Cache-Control, and CloudFront sends the same Content-Security-Policy (CSP).
package site

import (
	"errors"
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
// README.md, package.json) is not the site: Handler does not serve it. Build
// makes the deployed site of them (make upload copies that, not these).
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

// Handler serves the frontend from fsys (the frontend/ directory): the site
// built from it (Build: index.html naming the bundled, hashed files, and
// those files under Assets), the app's index.html for the pages that have no
// file of their own: "/", "/new", "/join/{CODE}" and any other path whose last
// segment has no file extension, and the site's own files as they are (the
// modules the browser tests import; no built page names them). Nothing else is
// served: no file outside Files, no dotfile, no directory listing. Only GET
// and HEAD are allowed. Responses are compressed as CloudFront compresses
// them (compress.go). A site that does not build answers every request with
// a 500 that says why (NewHandler returns the error instead).
func Handler(fsys fs.FS) http.Handler {
	h, err := NewHandler(fsys)
	if err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			siteHeaders(w.Header())
			http.Error(w, err.Error(), http.StatusInternalServerError)
		})
	}
	return h
}

// NewHandler is Handler, with the build's error, if any.
func NewHandler(fsys fs.FS) (http.Handler, error) {
	built, err := Build(fsys)
	if err != nil {
		return nil, err
	}
	if built != nil {
		go warm(built) // compressed before the first phone asks
	}
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
		if built != nil {
			if data, ok := built.Files[name]; ok {
				serveBytes(w, r, name, data, CacheControl(name))
				return
			}
		}
		fi, err := fs.Stat(fsys, name)
		switch {
		case err == nil && !fi.IsDir() && Has(name):
		case appPage(name):
			name = "index.html"
			if built != nil {
				serveBytes(w, r, name, built.Files[name], CacheRevalidate)
				return
			}
		default:
			http.NotFound(w, r)
			return
		}
		serveFile(w, r, fsys, name)
	}), nil
}

// appPage reports whether a path that is not a file of the site is a page of
// the single-page app.
func appPage(name string) bool {
	return name == "" || name == "new" || strings.HasPrefix(name, "join/") || !strings.Contains(path.Base(name), ".")
}

func serveFile(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			http.NotFound(w, r)
			return
		}
		http.Error(w, "cannot read file", http.StatusInternalServerError)
		return
	}
	serveBytes(w, r, name, data, CacheRevalidate)
}

// siteHeaders are the security headers of every static response. What is not
// a hashed file is revalidated on each load (no-cache), so a new frontend
// shows at once; serveBytes says how long a file is kept.
func siteHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", CacheRevalidate)
}
