// Package apitest drives the HTTP API the way clients do, for tests and tools:
// over an in-process handler, a URL, or anything else that carries a request
// (the Lambda runtime test sends API Gateway events). Its Bot plays whole games
// by choosing among the actions each view offers, as the frontend does.
//
//	tr := apitest.HandlerTransport(httpapi.New(httpapi.Config{Games: svc}))
//	res := apitest.Play(t, tr, apitest.Game{Preset: "sport", Players: 10, Seed: 1})
package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"

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
	Seed      uint64 // for the bot's choices
	// MaxActions bounds the game; 0 is 5000.
	MaxActions int
}

// Result is how a played game went.
type Result struct {
	Code     string
	Winner   rules.Team
	Actions  int // actions applied
	Advances int // host "advance"s the bot needed (nobody could act)
	Stale    int // actions refused because an earlier one in the round moved the game on
	Requests int // requests sent in all
	NotMod   int // 304s seen
	Version  int64
	Days     int
	Nights   int
	Phases   map[rules.PhaseName]int // how often each phase was seen
}

// Play creates a game, seats the players, starts it and plays it to its end,
// every player choosing among the actions their view offers. It checks on the
// way that a repeated read with the ETag gets 304.
func Play(tb testing.TB, tr Transport, g Game) Result {
	tb.Helper()
	c := &Client{TB: tb, T: tr}
	req := map[string]any{"preset": g.Preset}
	if g.Moderator != "" {
		req["moderator"] = g.Moderator
	}
	cr := c.Create(req)
	code, host := cr.Code, cr.HostToken
	tokens := map[string]string{}
	var ids []string
	for i := 1; i <= g.Players; i++ {
		j := c.Join(code, "Player "+strconv.Itoa(i))
		tokens[j.PlayerID] = j.Token
		ids = append(ids, j.PlayerID)
	}
	rng := rand.New(rand.NewPCG(g.Seed, 42))
	res := Result{Code: code, Phases: map[rules.PhaseName]int{}}
	act := func(token string, a rules.Action) View {
		tb.Helper()
		res.Actions++
		a.ID = "a" + strconv.Itoa(res.Actions)
		return c.MustAct(code, token, a)
	}
	act(host, rules.Action{Type: rules.ActStart})
	maxActions := g.MaxActions
	if maxActions == 0 {
		maxActions = 5000
	}
	done := map[string]bool{} // night acts made, by player, night step and type
	for res.Actions < maxActions {
		pub, etag := c.Read(code, "")
		res.Phases[pub.Phase.Name]++
		if pub.Winner != nil {
			res.Winner, res.Version = *pub.Winner, pub.Version
			res.Days, res.Nights = pub.Phase.Day, pub.Phase.Night
			break
		}
		// Nothing has changed since that read: the ETag must get a 304.
		nm := c.Do(Request{Method: "GET", Path: "/api/games/" + code, Header: http.Header{"If-None-Match": {etag}}})
		if nm.Status != http.StatusNotModified || len(nm.Body) != 0 {
			tb.Fatalf("read with a current ETag: status %d, body %q; want 304 and no body", nm.Status, nm.Body)
		}
		res.NotMod++
		// One round: every player reads their view, then each who has something
		// to do does it. The first action of a round is chosen on a fresh view
		// and must succeed; later ones may find the game moved on (a vote
		// closed, a speech ended) and be refused, which changes nothing.
		type move struct {
			id string
			a  rules.Action
		}
		var moves []move
		for _, id := range ids {
			v, _ := c.Read(code, tokens[id])
			step := fmt.Sprintf("%s/%d/%s/%d/", id, v.Phase.Night, v.Phase.Name, v.Phase.Wake)
			if a, ok := choose(v, rng, func(typ rules.ActionType) bool { return done[step+string(typ)] }); ok {
				if v.Phase.Name == rules.PhaseNight {
					done[step+string(a.Type)] = true
				}
				moves = append(moves, move{id, a})
			}
		}
		for i, m := range moves {
			res.Actions++
			m.a.ID = "a" + strconv.Itoa(res.Actions)
			r := c.Act(code, tokens[m.id], m.a)
			switch {
			case r.Status == http.StatusOK:
			case i > 0 && r.Status >= 400 && r.Status < 500 && r.Status != http.StatusUnauthorized:
				res.Stale++
			default:
				tb.Fatalf("%s: %+v: status %d: %s", m.id, m.a, r.Status, r.Body)
			}
		}
		if len(moves) == 0 {
			// Everyone waits for a deadline: the host moves the game on.
			res.Advances++
			act(host, rules.Action{Type: rules.ActAdvance, Now: true})
		}
	}
	if res.Winner == "" {
		tb.Fatalf("game %s not over after %d actions: phases seen %v", code, res.Actions, res.Phases)
	}
	res.Requests = c.Requests
	return res
}

// choose picks the action a simple player takes in view v: night tasks not yet
// made (made says which were) on a random target (the black team all aim at the first player they do not know to
// be black, so their shots agree), one nomination per speech, a random vote.
// Optional actions (reveal, withdraw, leave) are never taken.
func choose(v View, rng *rand.Rand, made func(typ rules.ActionType) bool) (rules.Action, bool) {
	has := func(typ rules.ActionType) (rules.Option, bool) {
		i := slices.IndexFunc(v.Actions, func(o rules.Option) bool { return o.Type == typ && !made(typ) })
		if i < 0 {
			return rules.Option{}, false
		}
		return v.Actions[i], true
	}
	pick := func(ts []string) string { return ts[rng.IntN(len(ts))] }
	black := v.You != nil && v.You.Team == rules.MafiaTeam
	for _, typ := range []rules.ActionType{rules.ActKill, rules.ActCheck, rules.ActShoot, rules.ActHeal, rules.ActProtect, rules.ActDefend} {
		if o, ok := has(typ); ok && len(o.Targets) > 0 {
			t := pick(o.Targets)
			if typ == rules.ActKill && black {
				for _, id := range o.Targets {
					if !knownBlack(v, id) {
						t = id
						break
					}
				}
			}
			return rules.Action{Type: typ, Target: t}, true
		}
	}
	if _, ok := has(rules.ActSleep); ok {
		return rules.Action{Type: rules.ActSleep}, true
	}
	if o, ok := has(rules.ActTestament); ok && len(o.Targets) > 0 {
		return rules.Action{Type: rules.ActTestament, Target: pick(o.Targets), Verdict: o.Verdicts[rng.IntN(len(o.Verdicts))]}, true
	}
	if o, ok := has(rules.ActNominate); ok && len(o.Targets) > 0 && rng.IntN(3) > 0 {
		return rules.Action{Type: rules.ActNominate, Target: pick(o.Targets)}, true
	}
	if _, ok := has(rules.ActEndSpeech); ok {
		return rules.Action{Type: rules.ActEndSpeech}, true
	}
	if o, ok := has(rules.ActVote); ok && len(o.Targets) > 0 {
		return rules.Action{Type: rules.ActVote, Target: pick(o.Targets)}, true
	}
	if _, ok := has(rules.ActVoteAll); ok {
		yes := rng.IntN(2) == 0
		return rules.Action{Type: rules.ActVoteAll, Yes: &yes}, true
	}
	return rules.Action{}, false
}

func knownBlack(v View, id string) bool {
	for _, p := range v.Players {
		if p.ID == id {
			return p.Team == rules.MafiaTeam
		}
	}
	return false
}

// String sums a result up for a log.
func (r Result) String() string {
	return fmt.Sprintf("game %s: %s won on day %d after %d actions (%d stale, %d host advances), %d requests, %d 304s, version %d",
		r.Code, r.Winner, r.Days, r.Actions, r.Stale, r.Advances, r.Requests, r.NotMod, r.Version)
}
