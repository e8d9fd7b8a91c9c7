package site

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Compression, as CloudFront's (Compress: true on the site's behaviour): a
// text file of 1,000 bytes or more goes brotli-compressed to a browser that
// takes br, else gzipped to one that takes gzip. (Browsers offer br over
// https only: a phone on `make run`'s plain http gets gzip.)

// minCompress is the smallest file compressed: CloudFront compresses from
// 1,000 bytes.
const minCompress = 1000

// compressible reports whether a file of this name is text worth compressing.
func compressible(name string) bool {
	switch path.Ext(name) {
	case ".html", ".js", ".css", ".svg", ".json", ".txt":
		return true
	}
	return false
}

// encoding picks the response's Content-Encoding from the request's
// Accept-Encoding: "br", "gzip", or "" for none.
func encoding(r *http.Request) string {
	br, gz := false, false
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				continue
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "br":
			br = true
		case "gzip", "x-gzip":
			gz = true
		}
	}
	switch {
	case br:
		return "br"
	case gz:
		return "gzip"
	}
	return ""
}

// compressed is what a content (by its ETag) compresses to, in each
// encoding, worked out once per process: the site's files are few, and the
// same for every server a process starts (the browser tests start many).
var compressed sync.Map // etag + " " + encoding -> *packed

type packed struct {
	once sync.Once
	data []byte
}

// compress is data in encoding enc, at the best compression: it is done
// once for each content.
func compress(data []byte, tag, enc string) []byte {
	v, _ := compressed.LoadOrStore(tag+" "+enc, &packed{})
	p := v.(*packed)
	p.once.Do(func() {
		var buf bytes.Buffer
		switch enc {
		case "br":
			w := brotli.NewWriterLevel(&buf, brotli.BestCompression)
			w.Write(data)
			w.Close()
		case "gzip":
			w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			w.Write(data)
			w.Close()
		}
		p.data = buf.Bytes()
	})
	return p.data
}

// warm compresses the built site's files ahead of the first request: gzip
// first, which a phone on make run's http takes.
func warm(b *Built) {
	for _, enc := range []string{"gzip", "br"} {
		for name, data := range b.Files {
			if compressible(name) && len(data) >= minCompress {
				compress(data, etag(data), enc)
			}
		}
	}
}

// serveBytes answers with the file name's content data, compressed where the
// browser takes it, with an ETag (a 304 for a browser that has it) and the
// Cache-Control given.
func serveBytes(w http.ResponseWriter, r *http.Request, name string, data []byte, cacheControl string) {
	h := w.Header()
	h.Set("Cache-Control", cacheControl)
	if ctype := mime.TypeByExtension(path.Ext(name)); ctype != "" {
		h.Set("Content-Type", ctype)
	} else {
		h.Set("Content-Type", http.DetectContentType(data))
	}
	tag := etag(data)
	enc := ""
	if compressible(name) && len(data) >= minCompress {
		h.Add("Vary", "Accept-Encoding")
		enc = encoding(r)
	}
	if enc != "" {
		body := compress(data, tag, enc)
		tag = strings.TrimSuffix(tag, `"`) + "-" + enc + `"`
		h.Set("ETag", tag)
		h.Set("Content-Encoding", enc)
		if matches(r.Header.Get("If-None-Match"), tag) {
			h.Del("Content-Type")
			h.Del("Content-Encoding")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
		return
	}
	h.Set("ETag", tag)
	http.ServeContent(w, r, name, noTime, bytes.NewReader(data))
}

// noTime: the files are told apart by their ETags, not by a date.
var noTime time.Time

// matches reports whether an If-None-Match header names tag (weakly, as a GET
// compares them).
func matches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
