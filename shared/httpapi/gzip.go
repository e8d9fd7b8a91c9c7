package httpapi

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"

	"citysleeps/shared/reuse"
)

// gzipMin is the smallest body worth compressing: below it the gzip header and
// the client's work outweigh the bytes saved.
const gzipMin = 1024

// gzipWriters keeps compressors for the next answer (package reuse says why
// not a sync.Pool); Reset points one at its new output.
var gzipWriters = reuse.New(16, func() *gzip.Writer {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
})

// acceptsGzip reports whether the request's Accept-Encoding lists gzip with a
// non-zero weight. Browsers always send it.
func acceptsGzip(r *http.Request) bool {
	for _, h := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(h, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0" {
				return true
			}
		}
	}
	return false
}

// writeJSONBody sends a JSON body, gzipped when the client takes it and the
// body is large: a view shrinks to about a third, and every byte out of AWS is
// billed.
func writeJSONBody(w http.ResponseWriter, r *http.Request, status int, data []byte) {
	w.Header().Add("Vary", "Accept-Encoding")
	if !compresses(r, len(data)) {
		writeRaw(w, status, "application/json", data)
		return
	}
	writeGzip(w, status, gzipped(data))
}

// compresses reports whether a body of n bytes goes to r's client gzipped.
func compresses(r *http.Request, n int) bool { return n >= gzipMin && acceptsGzip(r) }

// gzipped is data as one gzip member whose header has no optional field, as
// padGzip expects.
func gzipped(data []byte) []byte {
	var b bytes.Buffer
	zw := gzipWriters.Get()
	zw.Reset(&b)
	zw.Write(data)
	zw.Close()
	gzipWriters.Put(zw)
	return b.Bytes()
}

// writeGzip sends z, a gzipped JSON body.
func writeGzip(w http.ResponseWriter, status int, z []byte) {
	w.Header().Set("Content-Encoding", "gzip")
	writeRaw(w, status, "application/json", z)
}
