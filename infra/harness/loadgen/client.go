package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"strconv"
	"time"

	"citysleeps/shared/httpapi/body"
)

// The API's bodies (package body), under the names the bots use.
type (
	View     = body.View
	Created  = body.Created
	Joined   = body.Joined
	APIError = body.Error
)

// Response is one answer from the API.
type Response struct {
	Status     int
	Body       []byte
	ETag       string
	RetryAfter string
	Bytes      int // body and headers, roughly as sent
	Took       time.Duration
}

// ErrorCode returns the error code of an error response, or "".
func (r Response) ErrorCode() string {
	var e APIError
	if json.Unmarshal(r.Body, &e) != nil {
		return ""
	}
	return e.Error.Code
}

// CheckLoopback refuses a base URL whose host is not a loopback address: this
// tool sends traffic to this machine only.
func CheckLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("loadgen: bad URL %q: %w", base, err)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	a, err := netip.ParseAddr(host)
	if err != nil || !a.IsLoopback() {
		return fmt.Errorf("loadgen: %q is not a loopback address: this tool talks to 127.0.0.1 or ::1 only", host)
	}
	return nil
}

// SourceAddr is the loopback address bot number i sends from. Every bot has its
// own, as every phone does, so the server's per-client rate limit sees a
// table of phones and not one flooding client. All of 127.0.0.0/8 is loopback.
func SourceAddr(i int) netip.Addr {
	a := i / 250
	return netip.AddrFrom4([4]byte{127, byte(10 + a/256%200), byte(a % 256), byte(i%250 + 1)})
}

// Client sends API requests from one source address, the way the frontend does
// (JSON bodies, Bearer tokens, If-None-Match), and records what they cost.
type Client struct {
	base string
	hc   *http.Client
	m    *Metrics
}

// NewClient returns a client of the server at base sending from src (the zero
// Addr: any). m may be nil.
func NewClient(base string, src netip.Addr, m *Metrics) *Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if src.IsValid() {
		d.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
	}
	tr := &http.Transport{
		DialContext:         d.DialContext,
		MaxIdleConns:        4,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		// Bots take views plain, so that bytes per poll are the view's own;
		// the real games (PlayReal) take gzip as browsers do.
		DisableCompression: true,
	}
	return &Client{base: base, hc: &http.Client{Transport: tr, Timeout: 10 * time.Second}, m: m}
}

// Close closes the client's idle connections.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// Do sends one request. kind names it in the metrics ("" records nothing).
// A transport error is returned as such; any HTTP answer is a Response.
func (c *Client) Do(ctx context.Context, kind, method, path, token string, body []byte, etag string) (Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return Response{}, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	start := time.Now()
	var gotConn, wrote, firstByte time.Time
	reused := true
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn:              func(i httptrace.GotConnInfo) { gotConn, reused = time.Now(), i.Reused },
		WroteRequest:         func(httptrace.WroteRequestInfo) { wrote = time.Now() },
		GotFirstResponseByte: func() { firstByte = time.Now() },
	}))
	resp, err := c.hc.Do(req)
	if err != nil {
		if c.m != nil && kind != "" {
			c.m.transportError(kind)
		}
		return Response{}, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil {
		if c.m != nil && kind != "" {
			c.m.transportError(kind)
		}
		return Response{}, err
	}
	r := Response{Status: resp.StatusCode, Body: data, ETag: resp.Header.Get("ETag"),
		RetryAfter: resp.Header.Get("Retry-After"), Took: took}
	r.Bytes = len(data) + len("HTTP/1.1 200 OK\r\n\r\n")
	for k, vs := range resp.Header {
		for _, v := range vs {
			r.Bytes += len(k) + len(v) + 4
		}
	}
	if c.m != nil && kind != "" {
		c.m.response(kind, r)
		if !reused {
			c.m.NewConns.Add(1)
		}
		if took > 100*time.Millisecond {
			// Where the time went: getting a connection, the server's answer,
			// or reading the body.
			phase := "server"
			switch {
			case gotConn.Sub(start) > took/2:
				phase = "connect"
			case firstByte.Sub(wrote) < took/2:
				phase = "client"
			}
			c.m.Slow.Add(kind+" "+phase, 1)
		}
	}
	return r, nil
}

// JSON sends v as the JSON body of a request.
func (c *Client) JSON(ctx context.Context, kind, method, path, token string, v any) (Response, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return Response{}, err
	}
	return c.Do(ctx, kind, method, path, token, body, "")
}

// retryable reports whether an answer is worth sending again with the same
// action id: no answer at all, 429 (rate limited) or 5xx (busy, unavailable).
func retryable(r Response, err error) bool {
	return err != nil || r.Status == http.StatusTooManyRequests || r.Status >= 500
}

// retryWait is how long to wait before try number try (from 1) of a request,
// honouring a Retry-After in seconds: like the frontend's sendAction, 400 ms
// doubling, here capped at 4 s.
func retryWait(r Response, try int) time.Duration {
	d := min(400*time.Millisecond<<min(try-1, 4), 4*time.Second)
	if s, err := strconv.Atoi(r.RetryAfter); err == nil && s >= 0 {
		d = max(d, time.Duration(s)*time.Second)
	}
	return d
}
