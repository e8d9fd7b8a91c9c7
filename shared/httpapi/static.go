package httpapi

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// SiteCSP is the Content-Security-Policy of the static site: everything from the
// site's own origin, images also as data: URLs, no inline or foreign script, no
// plugins, no framing. CloudFront sends the same policy (template.yaml; a test
// compares them).
const SiteCSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// apiCSP is the Content-Security-Policy of API responses: JSON and the QR
// code's SVG need nothing at all.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// Site is what the static site is made of, as paths in the frontend/
// directory: files, and directories (ending in "/") all of whose files belong
// to it. The rest of frontend/ (the browser tests' Go code, the unit tests,
// README.md, package.json) is not the site: Static does not serve it, and the
// Makefile's upload does not copy it to the bucket (a test holds the two to
// this list).
var Site = []string{"index.html", "favicon.svg", "css/", "js/"}

// onSite reports whether name, a cleaned path in fsys, is one of Site's files.
func onSite(name string) bool {
	for _, s := range Site {
		if name == s || strings.HasSuffix(s, "/") && strings.HasPrefix(name, s) {
			return true
		}
	}
	return false
}

// Static serves the frontend from fsys (the frontend/ directory): the files of
// Site as they are, and the app's index.html for the pages that have no file
// of their own: "/", "/new", "/join/{CODE}" and any other path whose last
// segment has no file extension. Nothing else is served: no file outside
// Site, no dotfile, no directory listing. Only GET and HEAD are allowed.
func Static(fsys fs.FS) http.Handler {
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
		case err == nil && !fi.IsDir() && onSite(name):
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
	h.Set("Content-Security-Policy", SiteCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-cache")
}

// apiHeaders are the security headers of every API response. Views hold secrets
// for one viewer, so nothing is stored by any cache (clients revalidate with
// If-None-Match themselves).
func apiHeaders(h http.Header) {
	h.Set("Content-Security-Policy", apiCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}
