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

// Static serves the frontend from fsys (the frontend/ directory): files as they
// are, a directory's index.html, and the app's index.html for the pages that
// have no file of their own: "/new", "/join/{CODE}" and any other path whose
// last segment has no file extension. Dotfiles and directory listings are not
// served. Only GET and HEAD are allowed.
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
		if name == "" {
			name = "index.html"
		}
		if fi, err := fs.Stat(fsys, name); err == nil && fi.IsDir() {
			name = path.Join(name, "index.html")
		} else if err != nil && appPage(name) {
			name = "index.html"
		}
		serveFile(w, r, fsys, name)
	})
}

// appPage reports whether a path with no file is a page of the single-page app.
func appPage(name string) bool {
	return name == "new" || strings.HasPrefix(name, "join/") || !strings.Contains(path.Base(name), ".")
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
