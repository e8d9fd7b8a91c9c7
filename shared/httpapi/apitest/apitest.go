// Package apitest drives the HTTP API the way clients do, for tests and tools:
// over an in-process handler, a URL, or anything else that carries a request
// (the Lambda runtime test sends API Gateway events). Play plays whole games
// through it with bots (package bot), as the frontend would.
//
//	tr := apitest.HandlerTransport(httpapi.New(httpapi.Config{Games: svc}))
//	res := apitest.Play(t, tr, apitest.Game{Preset: "sport", Players: 10, Seed: 1})
package apitest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"citysleeps/shared/bot"
	"citysleeps/shared/httpapi/body"
	"citysleeps/shared/rules"
)

// Request is one API request.
type Request struct {
	Method string
	Path   string
	Token  string // sent as "Authorization: Bearer <token>" when not empty
	Body   []byte
	// Header holds more headers. A body is sent as application/json unless
	// Header names another Content-Type, or holds an empty one: then the
	// request has no Content-Type at all.
	Header http.Header
}

// Response is what came back.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Transport carries one request to the API.
type Transport func(Request) (Response, error)

// header is the request's headers with the token and content type added.
func (r Request) header() http.Header {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if r.Token != "" {
		h.Set("Authorization", "Bearer "+r.Token)
	}
	ct, named := h["Content-Type"]
	switch {
	case named && len(ct) == 1 && ct[0] == "":
		h.Del("Content-Type")
	case r.Body != nil && !named:
		h.Set("Content-Type", "application/json")
	}
	return h
}

// HandlerTransport serves requests with h in-process.
func HandlerTransport(h http.Handler) Transport {
	return func(req Request) (Response, error) {
		var body io.Reader
		if req.Body != nil {
			body = bytes.NewReader(req.Body)
		}
		r := httptest.NewRequest(req.Method, req.Path, body)
		r.Header = req.header()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return Response{Status: w.Code, Header: w.Header(), Body: w.Body.Bytes()}, nil
	}
}

// URLTransport sends requests to the server at base, such as http://127.0.0.1:8080.
func URLTransport(base string, client *http.Client) Transport {
	if client == nil {
		client = http.DefaultClient
	}
	return func(req Request) (Response, error) {
		var body io.Reader
		if req.Body != nil {
			body = bytes.NewReader(req.Body)
		}
		r, err := http.NewRequest(req.Method, base+req.Path, body)
		if err != nil {
			return Response{}, err
		}
		r.Header = req.header()
		resp, err := client.Do(r)
		if err != nil {
			return Response{}, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		return Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, err
	}
}

// The API's bodies (package body), under the names the tests use.
type (
	View      = body.View
	Created   = body.Created
	Joined    = body.Joined
	Next      = body.Next
	ErrorBody = body.Error
)

// Client makes API calls through a Transport and fails tb on surprises.
type Client struct {
	TB testing.TB
	T  Transport
	// Requests counts the requests sent.
	Requests int
}

// Do sends a request and returns the response; a transport failure fails the test.
func (c *Client) Do(req Request) Response {
	c.TB.Helper()
	c.Requests++
	res, err := c.T(req)
	if err != nil {
		c.TB.Fatalf("%s %s: %v", req.Method, req.Path, err)
	}
	return res
}

// JSON sends a request with v as its JSON body (nil: no body).
func (c *Client) JSON(method, path, token string, v any) Response {
	c.TB.Helper()
	var body []byte
	if v != nil {
		var err error
		if body, err = json.Marshal(v); err != nil {
			c.TB.Fatal(err)
		}
	}
	return c.Do(Request{Method: method, Path: path, Token: token, Body: body})
}

// Expect fails the test unless res has the status, and decodes its body into out
// (if not nil).
func (c *Client) Expect(res Response, status int, out any) {
	c.TB.Helper()
	if res.Status != status {
		c.TB.Fatalf("status %d, want %d; body: %s", res.Status, status, res.Body)
	}
	if out != nil {
		if err := json.Unmarshal(res.Body, out); err != nil {
			c.TB.Fatalf("decode %s: %v", res.Body, err)
		}
	}
}

// ExpectError fails the test unless res is an error with the status and code.
func (c *Client) ExpectError(res Response, status int, code string) {
	c.TB.Helper()
	var e ErrorBody
	c.Expect(res, status, &e)
	if e.Error.Code != code || e.Error.Message == "" {
		c.TB.Fatalf("error %q (%q), want code %q; status %d", e.Error.Code, e.Error.Message, code, res.Status)
	}
}

// Create opens a game and returns the 201's body.
func (c *Client) Create(req any) Created {
	c.TB.Helper()
	var out Created
	c.Expect(c.JSON("POST", "/api/games", "", req), http.StatusCreated, &out)
	return out
}

// Join seats a player and returns the 201's body.
func (c *Client) Join(code, name string) Joined {
	c.TB.Helper()
	var out Joined
	c.Expect(c.JSON("POST", "/api/games/"+code+"/players", "", map[string]string{"name": name}), http.StatusCreated, &out)
	return out
}

// Again opens the next game of a finished one, as its host, and returns the
// 201's body.
func (c *Client) Again(code, host string) Next {
	c.TB.Helper()
	var out Next
	c.Expect(c.Do(Request{Method: "POST", Path: "/api/games/" + code + "/next", Token: host}), http.StatusCreated, &out)
	return out
}

// Read returns the view of token's holder ("" is public) and its ETag.
func (c *Client) Read(code, token string) (View, string) {
	c.TB.Helper()
	var out View
	res := c.Do(Request{Method: "GET", Path: "/api/games/" + code, Token: token})
	c.Expect(res, http.StatusOK, &out)
	return out, res.Header.Get("ETag")
}

// Act sends one action and returns the response, whatever its status.
func (c *Client) Act(code, token string, a rules.Action) Response {
	c.TB.Helper()
	return c.JSON("POST", "/api/games/"+code+"/actions", token, a)
}

// MustAct sends one action that must succeed and returns the view after it.
func (c *Client) MustAct(code, token string, a rules.Action) View {
	c.TB.Helper()
	var out View
	c.Expect(c.Act(code, token, a), http.StatusOK, &out)
	return out
}

// Game says what game Play plays.
type Game struct {
	Preset    string
	Moderator string // "" is app
	Players   int
	Seed      uint64 // for the bots' choices
	// MaxActions bounds the game; 0 is 5000.
	MaxActions int
}

// Result is how a played game went.
type Result struct {
	Code     string
	Winner   rules.Team
	Actions  int // actions applied
	Advances int // host "advance"s the bots needed (nobody could act)
	Requests int // requests sent in all
	NotMod   int // 304s seen
	Version  int64
	Days     int
	Nights   int
	Phases   map[rules.PhaseName]int // how often each phase was seen
}

// table is the API as a bot.Table: a refused action is an error.
type table struct{ *Client }

// Read returns the view of token's holder.
func (t table) Read(_ context.Context, code, token string) (rules.View, error) {
	v, _ := t.Client.Read(code, token)
	return v.View, nil
}

// Act sends one action and returns the view after it.
func (t table) Act(_ context.Context, code, token string, a rules.Action) (rules.View, error) {
	res := t.Client.Act(code, token, a)
	var out View
	if res.Status != http.StatusOK {
		return out.View, fmt.Errorf("status %d: %s", res.Status, res.Body)
	}
	err := json.Unmarshal(res.Body, &out)
	return out.View, err
}

// Play creates a game, seats the players, starts it and plays it to its end
// with a bot in every seat (bot.Driver), one round at a time. Before each
// round it checks that a repeated read with the ETag gets 304.
func Play(tb testing.TB, tr Transport, g Game) Result {
	tb.Helper()
	c := &Client{TB: tb, T: tr}
	req := map[string]any{"preset": g.Preset}
	if g.Moderator != "" {
		req["moderator"] = g.Moderator
	}
	cr := c.Create(req)
	d := &bot.Driver{Table: table{c}, Seats: bot.Seats{Code: cr.Code, Host: cr.HostToken}, Rand: rand.New(rand.NewPCG(g.Seed, 42))}
	for i := 1; i <= g.Players; i++ {
		d.Seats.Players = append(d.Seats.Players, c.Join(cr.Code, "Player "+strconv.Itoa(i)).Token)
	}
	c.MustAct(cr.Code, cr.HostToken, rules.Action{ID: bot.ActionID(), Type: rules.ActStart})
	maxActions := cmp.Or(g.MaxActions, 5000)
	res := Result{Code: cr.Code, Phases: map[rules.PhaseName]int{}}
	ctx := context.Background()
	for d.Actions < maxActions {
		pub, etag := c.Read(cr.Code, "")
		res.Phases[pub.Phase.Name]++
		if pub.Winner != nil {
			res.Winner, res.Version = *pub.Winner, pub.Version
			res.Days, res.Nights = pub.Phase.Day, pub.Phase.Night
			break
		}
		// Nothing has changed since that read: the ETag must get a 304.
		nm := c.Do(Request{Method: "GET", Path: "/api/games/" + cr.Code, Header: http.Header{"If-None-Match": {etag}}})
		if nm.Status != http.StatusNotModified || len(nm.Body) != 0 {
			tb.Fatalf("read with a current ETag: status %d, body %q; want 304 and no body", nm.Status, nm.Body)
		}
		res.NotMod++
		acted, host, err := d.Round(ctx, func(rules.View) bool { return false })
		if err != nil {
			tb.Fatal(err)
		}
		if !acted && host.Winner == nil {
			tb.Fatalf("game %s is stuck in phase %s: nobody can act", cr.Code, host.Phase.Name)
		}
	}
	res.Actions, res.Advances = d.Actions+1, d.Advances
	if res.Winner == "" {
		tb.Fatalf("game %s not over after %d actions: phases seen %v", cr.Code, res.Actions, res.Phases)
	}
	res.Requests = c.Requests
	return res
}

// String sums a result up for a log.
func (r Result) String() string {
	return fmt.Sprintf("game %s: %s won on day %d after %d actions (%d host advances), %d requests, %d 304s, version %d",
		r.Code, r.Winner, r.Days, r.Actions, r.Advances, r.Requests, r.NotMod, r.Version)
}
