package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/names"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

const publicURL = "http://192.0.2.10:8080"

// clock is a settable clock shared by the service and the handler.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// start deals the cards and lets the hand-over before the first night pass on
// the clock; it returns the host's view of the night.
func (e *env) start(code, host, id string) apitest.View {
	v := e.MustAct(code, host, rules.Action{ID: id, Type: rules.ActStart})
	if !v.Phase.Closing || v.Phase.EndsAt == nil {
		e.TB.Fatalf("after start: phase %s closing %v, want the hand-over before the night", v.Phase.Name, v.Phase.Closing)
	}
	e.clock.Add(v.Phase.EndsAt.Sub(e.clock.Now()))
	night, _ := e.Read(code, host)
	return night
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is one API on an in-memory store, with a client and a log to inspect.
type env struct {
	*apitest.Client
	st    *store.Memory
	clock *clock
	h     http.Handler
	log   *bytes.Buffer
}

// newEnv is an API on a new store and clock; opts are the service's besides
// its clock and log, where cfg has no Games of its own.
func newEnv(t testing.TB, cfg Config, opts ...service.Option) *env {
	t.Helper()
	st := store.NewMemory()
	ck := &clock{t: time.Date(2030, 1, 2, 20, 0, 0, 0, time.UTC)}
	st.SetNow(ck.Now)
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&syncWriter{w: &buf}, nil))
	if cfg.Games == nil {
		cfg.Games = service.New(st, append([]service.Option{service.WithClock(ck.Now), service.WithLogger(logger)}, opts...)...)
	}
	if cfg.PublicURL == "" {
		cfg.PublicURL = publicURL
	}
	cfg.Logger, cfg.Now = logger, ck.Now
	h := New(cfg)
	return &env{Client: &apitest.Client{TB: t, T: apitest.HandlerTransport(h)}, st: st, clock: ck, h: h, log: &buf}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// version is the stored version of a game.
func (e *env) version(code string) int64 {
	e.TB.Helper()
	it, err := e.st.Get(context.Background(), code, true)
	if err != nil {
		e.TB.Fatalf("get %s: %v", code, err)
	}
	return it.Version
}

// noType in a table of requests stands for a body sent with no Content-Type,
// as a cross-site form or fetch may (issue 12).
const noType = "none"

// raw sends a request with a raw body and headers.
func (e *env) raw(method, path, token, body string, header ...string) apitest.Response {
	e.TB.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	var b []byte
	if body != "" || method == "POST" {
		b = []byte(body)
	}
	return e.Do(apitest.Request{Method: method, Path: path, Token: token, Body: b, Header: h})
}

// table seats n players in a new game and returns the code, host token and the
// players' tokens by id.
func (e *env) table(preset string, n int) (string, string, map[string]string, []string) {
	e.TB.Helper()
	c := e.Create(map[string]string{"preset": preset})
	tokens := map[string]string{}
	var ids []string
	for i := 1; i <= n; i++ {
		j := e.Join(c.Code, "P"+strconv.Itoa(i))
		tokens[j.PlayerID] = j.Token
		ids = append(ids, j.PlayerID)
	}
	return c.Code, c.HostToken, tokens, ids
}

func TestCreate(t *testing.T) {
	e := newEnv(t, Config{})
	res := e.raw("POST", "/api/games", "", `{"preset":"sport","moderator":"host","lang":"ru","options":{"speech":45}}`)
	var c apitest.Created
	e.Expect(res, http.StatusCreated, &c)
	if !regexp.MustCompile(`^[A-Z2-9]{6}$`).MatchString(c.Code) || len(c.HostToken) < 20 {
		t.Fatalf("code %q, host token %q", c.Code, c.HostToken)
	}
	if want := publicURL + "/join/" + c.Code; c.JoinURL != want {
		t.Errorf("joinUrl %q, want %q", c.JoinURL, want)
	}
	if c.Game.Version != 1 || c.Game.Code != c.Code || c.Game.Moderator != "host" || c.Game.Lang != "ru" ||
		c.Game.Rules.Speech != 45 || c.Game.Phase.Name != rules.PhaseLobby {
		t.Errorf("game %+v", c.Game.View)
	}
	// A person's console polls as a screen: the moderator runs the table as
	// it happens.
	if want := screenHint; c.Game.PollAfterMs != want.Milliseconds() {
		t.Errorf("pollAfterMs %d, want %d", c.Game.PollAfterMs, want.Milliseconds())
	}
	if got := res.Header.Get("Location"); got != "/api/games/"+c.Code {
		t.Errorf("Location %q", got)
	}
	checkAPIHeaders(t, res.Header)
	if e.version(c.Code) != 1 {
		t.Errorf("stored version %d", e.version(c.Code))
	}
}

func checkAPIHeaders(t *testing.T, h http.Header) {
	t.Helper()
	for k, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
		"Content-Security-Policy": apiCSP, "Content-Type": "application/json",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}

func TestCreateErrors(t *testing.T) {
	e := newEnv(t, Config{})
	big := `{"preset":"sport","lang":"` + strings.Repeat("x", MaxBody) + `"}`
	tests := []struct {
		name, body, contentType string
		status                  int
		code                    string
	}{
		{"empty body", "", "", 400, CodeMalformed},
		{"not JSON", "preset=sport", "", 400, CodeMalformed},
		{"cut short", `{"preset":"sport"`, "", 400, CodeMalformed},
		{"trailing data", `{"preset":"sport"} {}`, "", 400, CodeMalformed},
		{"trailing garbage", `{"preset":"sport"}x`, "", 400, CodeMalformed},
		{"unknown field", `{"preset":"sport","players":10}`, "", 400, CodeMalformed},
		{"wrong type", `{"preset":7}`, "", 400, CodeMalformed},
		{"array", `["sport"]`, "", 400, CodeMalformed},
		{"null", `null`, "", 400, CodeInvalid},
		{"no preset", `{}`, "", 400, CodeInvalid},
		{"unknown preset", `{"preset":"chess"}`, "", 400, CodeInvalid},
		{"unknown rule", `{"preset":"sport","options":{"dragons":true}}`, "", 400, CodeInvalid},
		{"bad rule value", `{"preset":"sport","options":{"speech":1}}`, "", 400, CodeInvalid},
		{"bad moderator", `{"preset":"sport","moderator":"robot"}`, "", 400, CodeInvalid},
		{"bad lang", `{"preset":"sport","lang":"tlh"}`, "", 400, CodeInvalid},
		{"control in lang", `{"preset":"sport","lang":"e\u0000n"}`, "", 400, CodeInvalid},
		{"too large", big, "", 413, CodeTooLarge},
		{"form post", `{"preset":"sport"}`, "application/x-www-form-urlencoded", 415, CodeUnsupportedType},
		{"text", `{"preset":"sport"}`, "text/plain", 415, CodeUnsupportedType},
		{"no content type", `{"preset":"sport"}`, noType, 415, CodeUnsupportedType},
		{"bad content type", `{"preset":"sport"}`, "application/", 415, CodeUnsupportedType},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var hdr []string
			switch tc.contentType {
			case "":
			case noType:
				hdr = []string{"Content-Type", ""}
			default:
				hdr = []string{"Content-Type", tc.contentType}
			}
			res := e.raw("POST", "/api/games", "", tc.body, hdr...)
			e.ExpectError(res, tc.status, tc.code)
			checkAPIHeaders(t, res.Header)
		})
	}
	// A charset parameter is fine.
	e.Expect(e.raw("POST", "/api/games", "", `{"preset":"classic"}`, "Content-Type", "application/json; charset=utf-8"), 201, nil)
}

func TestJoin(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "classic"})
	res := e.raw("POST", "/api/games/"+c.Code+"/players", "", `{"name":"  Аня  "}`)
	var j apitest.Joined
	e.Expect(res, http.StatusCreated, &j)
	if j.PlayerID == "" || len(j.Token) < 20 || j.Game.You == nil || j.Game.You.ID != j.PlayerID {
		t.Fatalf("joined %+v", j)
	}
	if j.Game.Players[0].Name != "Аня" {
		t.Errorf("name %q, want it trimmed", j.Game.Players[0].Name)
	}
	// A phone polls a little more often than a hand-over lasts.
	if j.Game.Version != 2 || j.Game.PollAfterMs != phoneHint(j.Game.Rules).Milliseconds() {
		t.Errorf("version %d, pollAfterMs %d", j.Game.Version, j.Game.PollAfterMs)
	}
	// Lower case codes are the same game.
	e.Expect(e.raw("POST", "/api/games/"+strings.ToLower(c.Code)+"/players", "", `{"name":"Boris"}`), 201, nil)
}

func TestJoinErrors(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, _, _ := e.table("classic", 5)
	path := "/api/games/" + code + "/players"
	tests := []struct {
		name, path, body string
		status           int
		code             string
	}{
		// Names are the service's to check (names.go); each refusal has its code.
		{"empty name", path, `{"name":"   "}`, 400, names.CodeEmpty},
		{"no name", path, `{}`, 400, names.CodeEmpty},
		{"long name", path, `{"name":"` + strings.Repeat("я", rules.MaxName+1) + `"}`, 400, names.CodeTooLong},
		{"invisible name", path, `{"name":"\u200b\u2060\u3164"}`, 400, names.CodeInvisible},
		{"zero-width space added", path, `{"name":"P1\u200b"}`, 400, names.CodeHidden},
		{"control characters", path, `{"name":"a\u0007b"}`, 400, names.CodeHidden},
		{"bidi override", path, `{"name":"a\u202eb"}`, 400, names.CodeHidden},
		{"stacked marks", path, `{"name":"Zo\u0301\u0302\u0303e"}`, 400, names.CodeMarks},
		{"look-alike", path, `{"name":"Р1"}`, 409, names.CodeLookalike}, // Cyrillic Р
		{"look-alike in small capitals", path, `{"name":"ᴘ1"}`, 409, names.CodeLookalike},
		{"poses as the page", path, `{"name":"★ You"}`, 400, names.CodeReserved},
		{"page word in look-alike letters", path, `{"name":"Nobоdy"}`, 400, names.CodeReserved}, // Cyrillic о
		{"name taken", path, `{"name":"P1"}`, 409, "name_taken"},
		{"short join id", path, `{"name":"Zoe","joinId":"abc"}`, 400, CodeInvalid},
		{"bad device", path, `{"name":"Zoe","device":"` + strings.Repeat("é", 20) + `"}`, 400, CodeInvalid},
		{"no content type", path, `{"name":"Zoe"}`, 415, CodeUnsupportedType},
		{"unknown field", path, `{"name":"Zoe","seat":1}`, 400, CodeMalformed},
		{"malformed", path, `{"name":}`, 400, CodeMalformed},
		{"trailing", path, `{"name":"Zoe"}{"name":"Zed"}`, 400, CodeMalformed},
		{"too large", path, `{"name":"` + strings.Repeat(" ", MaxBody) + `Zoe"}`, 413, CodeTooLarge},
		{"no such game", "/api/games/ZZZZZZ/players", `{"name":"Zoe"}`, 404, CodeNotFound},
		{"impossible code", "/api/games/no!/players", `{"name":"Zoe"}`, 404, CodeNotFound},
		{"long code", "/api/games/" + strings.Repeat("A", 40) + "/players", `{"name":"Zoe"}`, 404, CodeNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := e.version(code)
			var hdr []string
			if tc.code == CodeUnsupportedType {
				hdr = []string{"Content-Type", ""}
			}
			e.ExpectError(e.raw("POST", tc.path, "", tc.body, hdr...), tc.status, tc.code)
			if after := e.version(code); after != before {
				t.Errorf("version %d after a refused join, was %d", after, before)
			}
		})
	}
	// Once the game has started, joining is closed.
	for i := 6; i <= 7; i++ {
		e.Join(code, "P"+strconv.Itoa(i))
	}
	e.MustAct(code, host, rules.Action{ID: "s", Type: rules.ActStart})
	before := e.version(code)
	e.ExpectError(e.raw("POST", path, "", `{"name":"Late"}`), 409, "wrong_phase") // in the hand-over
	e.clock.Add(time.Minute)
	e.ExpectError(e.raw("POST", path, "", `{"name":"Late"}`), 409, "wrong_phase") // at night
	if e.version(code) != before {
		t.Error("version changed after a refused join")
	}
}

func TestTableFull(t *testing.T) {
	e := newEnv(t, Config{})
	code, _, _, _ := e.table("sport", 10) // the sport table is exactly 10
	before := e.version(code)
	e.ExpectError(e.raw("POST", "/api/games/"+code+"/players", "", `{"name":"Eleventh"}`), 409, "table_full")
	if e.version(code) != before {
		t.Error("version changed")
	}
}

func TestRead(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, tokens, ids := e.table("classic", 5)
	pub, pubTag := e.Read(code, "")
	hostView, hostTag := e.Read(code, host)
	p1, p1Tag := e.Read(code, tokens[ids[0]])
	if pub.You != nil || len(pub.Actions) != 0 {
		t.Errorf("public view has you %v, actions %v", pub.You, pub.Actions)
	}
	if hostView.You != nil || len(hostView.Actions) == 0 {
		t.Errorf("host view has you %v, actions %v", hostView.You, hostView.Actions)
	}
	if p1.You == nil || p1.You.ID != ids[0] {
		t.Errorf("player view you %v", p1.You)
	}
	tags := map[string]bool{pubTag: true, hostTag: true, p1Tag: true}
	if len(tags) != 3 || !strings.HasPrefix(pubTag, `W/"6.0-`) {
		t.Errorf("ETags %q %q %q: want three, all of version 6", pubTag, hostTag, p1Tag)
	}
	// A 304 carries the poll hint as a header, the same as the view's.
	for _, tc := range []struct {
		token, tag string
		poll       int64
	}{{"", pubTag, pub.PollAfterMs}, {host, hostTag, hostView.PollAfterMs}, {tokens[ids[0]], p1Tag, p1.PollAfterMs}} {
		for _, inm := range []string{tc.tag, strings.TrimPrefix(tc.tag, "W/"), `"x", ` + tc.tag, "*"} {
			res := e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code, Token: tc.token,
				Header: http.Header{"If-None-Match": {inm}}})
			if res.Status != http.StatusNotModified || len(res.Body) != 0 || res.Header.Get("ETag") != tc.tag {
				t.Errorf("If-None-Match %s: status %d, ETag %q, body %q; want 304, %s, none", inm, res.Status, res.Header.Get("ETag"), res.Body, tc.tag)
			}
			if got := res.Header.Get(pollHeader); got != strconv.FormatInt(tc.poll, 10) {
				t.Errorf("If-None-Match %s: %s %q, want the view's %d", inm, pollHeader, got, tc.poll)
			}
		}
	}
	if pub.PollAfterMs != screenHint.Milliseconds() || p1.PollAfterMs != phoneHint(p1.Rules).Milliseconds() {
		t.Errorf("lobby hints: screen %d, phone %d", pub.PollAfterMs, p1.PollAfterMs)
	}
	// A forged token is refused even when If-None-Match would match anything.
	for _, inm := range []string{"*", pubTag} {
		res := e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code, Token: "forged-token",
			Header: http.Header{"If-None-Match": {inm}}})
		e.ExpectError(res, http.StatusUnauthorized, CodeUnauthorized)
	}
	// Another viewer's or an old ETag gets the view.
	res := e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code, Header: http.Header{"If-None-Match": {hostTag}}})
	e.Expect(res, http.StatusOK, nil)
	e.Join(code, "P6")
	res = e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code, Header: http.Header{"If-None-Match": {pubTag}}})
	var after apitest.View
	e.Expect(res, http.StatusOK, &after)
	if after.Version != 7 || res.Header.Get("ETag") == pubTag {
		t.Errorf("after a join: version %d, ETag %q", after.Version, res.Header.Get("ETag"))
	}
	checkAPIHeaders(t, res.Header)
	// HEAD is served like GET (net/http drops the body).
	if res := e.Do(apitest.Request{Method: "HEAD", Path: "/api/games/" + code}); res.Status != 200 {
		t.Errorf("HEAD: %d", res.Status)
	}
}

func TestReadErrors(t *testing.T) {
	e := newEnv(t, Config{})
	code, _, _, _ := e.table("classic", 2)
	other := e.Create(map[string]string{"preset": "classic"})
	tests := []struct {
		name, path, auth string
		status           int
		code             string
	}{
		{"unknown token", "/api/games/" + code, "Bearer AAAAAAAAAAAAAAAAAAAAAAAA", 401, CodeUnauthorized},
		{"malformed token", "/api/games/" + code, "Bearer x", 401, CodeUnauthorized},
		{"another game's token", "/api/games/" + code, "Bearer " + other.HostToken, 401, CodeUnauthorized},
		{"basic auth", "/api/games/" + code, "Basic dXNlcjpwYXNz", 401, CodeUnauthorized},
		{"bearer without token", "/api/games/" + code, "Bearer ", 401, CodeUnauthorized},
		{"no such game", "/api/games/ZZZZZZ", "", 404, CodeNotFound},
		{"impossible code", "/api/games/O0O0O0", "", 404, CodeNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := e.version(code)
			e.ExpectError(e.raw("GET", tc.path, "", "", "Authorization", tc.auth), tc.status, tc.code)
			if e.version(code) != before {
				t.Error("version changed")
			}
		})
	}
}

func TestAct(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, tokens, ids := e.table("sport", 10)
	v := e.start(code, host, "start-1")
	if v.Phase.Name != rules.PhaseNight || v.Version != 12 {
		t.Fatalf("after start: phase %s, version %d", v.Phase.Name, v.Version)
	}
	// The same action id again is applied once.
	again := e.MustAct(code, host, rules.Action{ID: "start-1", Type: rules.ActStart})
	if again.Version != 12 || e.version(code) != 12 {
		t.Errorf("retried start: version %d, stored %d; want 12", again.Version, e.version(code))
	}
	// A player's view: night 1 is a meeting, so "sleep" is all there is. Done or
	// not, Don or citizen, every phone gets the same hint: one poll in every
	// hand-over.
	want := phoneHint(v.Rules)
	pv := e.MustAct(code, tokens[ids[0]], rules.Action{ID: "z1", Type: rules.ActSleep})
	if pv.You == nil || !pv.You.Done || pv.PollAfterMs != want.Milliseconds() {
		t.Errorf("after sleeping: you %+v, pollAfterMs %d, want %d", pv.You, pv.PollAfterMs, want.Milliseconds())
	}
	for _, id := range ids[1:] {
		if other, _ := e.Read(code, tokens[id]); other.PollAfterMs != want.Milliseconds() {
			t.Errorf("%s (%s): pollAfterMs %d, want %d", id, other.You.Role, other.PollAfterMs, want.Milliseconds())
		}
	}
}

func TestActErrors(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, tokens, ids := e.table("sport", 10)
	p1 := tokens[ids[0]]
	path := "/api/games/" + code + "/actions"
	tests := []struct {
		name, path, token, body, contentType string
		status                               int
		code                                 string
	}{
		{"no token", path, "", `{"id":"a","type":"start"}`, "", 401, CodeUnauthorized},
		{"unknown token", path, "AAAAAAAAAAAAAAAAAAAAAAAA", `{"id":"a","type":"start"}`, "", 401, CodeUnauthorized},
		{"no such game", "/api/games/ZZZZZZ/actions", host, `{"id":"a","type":"start"}`, "", 404, CodeNotFound},
		{"unknown type", path, host, `{"id":"a","type":"fly"}`, "", 400, "unknown_action"},
		{"no type", path, host, `{"id":"a"}`, "", 400, CodeInvalid},
		{"no id", path, host, `{"type":"start"}`, "", 400, CodeInvalid},
		{"bad id", path, host, `{"id":"a b","type":"start"}`, "", 400, CodeInvalid},
		{"long id", path, host, `{"id":"` + strings.Repeat("a", 65) + `","type":"start"}`, "", 400, CodeInvalid},
		{"host action by a player", path, p1, `{"id":"a","type":"start"}`, "", 403, "not_host"},
		{"player action by the host", path, host, `{"id":"a","type":"vote","target":"p1"}`, "", 403, "not_player"},
		{"wrong phase", path, p1, `{"id":"a","type":"vote","target":"p2"}`, "", 409, "wrong_phase"},
		{"bad target", path, host, `{"id":"a","type":"kick","target":"p99"}`, "", 400, "bad_target"},
		{"bad seat", path, host, `{"id":"a","type":"seat","target":"p1","seat":11}`, "", 400, "bad_field"},
		{"bad options", path, host, `{"id":"a","type":"configure","options":{"preset":"sport"}}`, "", 400, "invalid_options"},
		{"unknown option", path, host, `{"id":"a","type":"configure","options":{"dragons":1}}`, "", 400, CodeMalformed},
		{"deal from the client", path, host, `{"id":"a","type":"start","Deal":[1]}`, "", 400, CodeMalformed},
		{"unknown field", path, host, `{"id":"a","type":"start","force":true}`, "", 400, CodeMalformed},
		{"malformed", path, host, `{"id":"a","type":`, "", 400, CodeMalformed},
		{"trailing", path, host, `{"id":"a","type":"start"}]`, "", 400, CodeMalformed},
		{"two actions", path, host, `{"id":"a","type":"start"}{"id":"b","type":"start"}`, "", 400, CodeMalformed},
		{"empty", path, host, ``, "", 400, CodeMalformed},
		{"wrong yes type", path, p1, `{"id":"a","type":"vote_all","yes":"yes"}`, "", 400, CodeMalformed},
		{"too large", path, host, `{"id":"a","type":"start","target":"` + strings.Repeat("x", MaxBody) + `"}`, "", 413, CodeTooLarge},
		{"form", path, host, `{"id":"a","type":"start"}`, "multipart/form-data", 415, CodeUnsupportedType},
		{"no content type", path, host, `{"id":"a","type":"start"}`, noType, 415, CodeUnsupportedType},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := e.version(code)
			var hdr []string
			switch tc.contentType {
			case "":
			case noType:
				hdr = []string{"Content-Type", ""}
			default:
				hdr = []string{"Content-Type", tc.contentType}
			}
			res := e.raw("POST", tc.path, tc.token, tc.body, hdr...)
			e.ExpectError(res, tc.status, tc.code)
			checkAPIHeaders(t, res.Header)
			if after := e.version(code); after != before {
				t.Errorf("version %d after a refused action, was %d", after, before)
			}
		})
	}
	// In play: the dead, the wrong role, acting twice.
	e.start(code, host, "s")
	for _, tc := range []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"kill on the meeting night", p1, `{"id":"k","type":"kill","target":"p2"}`, 403, "not_your_role"},
		{"nominate at night", p1, `{"id":"n","type":"nominate","target":"p2"}`, 409, "wrong_phase"},
		{"start twice", host, `{"id":"s2","type":"start"}`, 409, "wrong_phase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.version(code)
			e.ExpectError(e.raw("POST", path, tc.token, tc.body), tc.status, tc.code)
			if e.version(code) != before {
				t.Error("version changed")
			}
		})
	}
	e.MustAct(code, p1, rules.Action{ID: "z", Type: rules.ActSleep})
	before := e.version(code)
	e.ExpectError(e.raw("POST", path, p1, `{"id":"z2","type":"sleep"}`), 409, "already_acted")
	if e.version(code) != before {
		t.Error("version changed")
	}
}

func TestPaused(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, tokens, ids := e.table("classic", 5)
	e.start(code, host, "s")
	v := e.MustAct(code, host, rules.Action{ID: "p", Type: rules.ActPause})
	if !v.Phase.Paused || v.PollAfterMs != screenHint.Milliseconds() {
		t.Errorf("paused %v, pollAfterMs %d", v.Phase.Paused, v.PollAfterMs)
	}
	before := e.version(code)
	e.ExpectError(e.raw("POST", "/api/games/"+code+"/actions", tokens[ids[0]], `{"id":"z","type":"sleep"}`), 409, "paused")
	if e.version(code) != before {
		t.Error("version changed")
	}
}

func TestDeadlinesMoveTheGame(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, tokens, ids := e.table("classic", 5)
	v := e.start(code, host, "s")
	ends := *v.Phase.EndsAt
	// A player with a night task polls like every phone; near the deadline
	// every viewer polls just after it.
	pv, etag := e.Read(code, tokens[ids[0]])
	if want := phoneHint(pv.Rules); pv.PollAfterMs != want.Milliseconds() {
		t.Errorf("player with a night task: pollAfterMs %d, want %d", pv.PollAfterMs, want.Milliseconds())
	}
	e.clock.Add(ends.Sub(e.clock.Now()) - 300*time.Millisecond)
	pub, _ := e.Read(code, "")
	if want := (300*time.Millisecond + deadlineSlack).Milliseconds(); pub.PollAfterMs != want {
		t.Errorf("300 ms before the deadline: pollAfterMs %d, want %d", pub.PollAfterMs, want)
	}
	// After the deadline a poll moves the game on and the old ETag is stale.
	e.clock.Add(time.Second)
	res := e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code, Token: tokens[ids[0]], Header: http.Header{"If-None-Match": {etag}}})
	var after apitest.View
	e.Expect(res, 200, &after)
	if after.Phase.Name == rules.PhaseNight && after.Phase.Night == 1 {
		t.Errorf("still in night 1 after its deadline: %+v", after.Phase)
	}
}

// TestPlayWholeGames plays whole games through the handler, and after every
// action reads every seated phone: whatever its card, alive or dead, each
// gets the same poll hint as every other, at every step of the game, so how
// often a phone asks tells nobody anything (the cadence holds public facts
// only).
func TestPlayWholeGames(t *testing.T) {
	for _, g := range []apitest.Game{
		{Preset: "sport", Players: 10, Seed: 1},
		{Preset: "classic", Players: 7, Seed: 2},
		{Preset: "party", Players: 9, Seed: 3},
		{Preset: "maniac", Players: 10, Seed: 4},
		{Preset: "sport", Moderator: "host", Players: 10, Seed: 5},
		{Preset: "maniac", Moderator: "host", Players: 10, Seed: 6},
	} {
		t.Run(g.Preset+"-"+g.Moderator, func(t *testing.T) {
			e := newEnv(t, Config{})
			steps := 0
			res := apitest.Play(t, samePhoneHints(t, e.T, &steps), g)
			t.Log(res)
			if steps < res.Actions/2 {
				t.Errorf("the phones' hints compared after %d of %d actions", steps, res.Actions)
			}
			// A finished game: every role is shown, polls are slow.
			v, _ := e.Read(res.Code, "")
			if v.PollAfterMs != pollOver.Milliseconds() {
				t.Errorf("game over: pollAfterMs %d", v.PollAfterMs)
			}
			for _, p := range v.Players {
				if p.Role == "" {
					t.Errorf("game over, yet %s's role is hidden", p.ID)
				}
			}
		})
	}
}

// samePhoneHints is tr that remembers each seated phone's token and, after
// every action it passes on, reads every phone's view and checks that all
// have the same X-Poll-After-Ms; steps counts the checks.
func samePhoneHints(t *testing.T, tr apitest.Transport, steps *int) apitest.Transport {
	var phones []string
	return func(req apitest.Request) (apitest.Response, error) {
		res, err := tr(req)
		if err != nil || req.Method != http.MethodPost || res.Status/100 != 2 {
			return res, err
		}
		switch code, _, _ := strings.Cut(strings.TrimPrefix(req.Path, "/api/games/"), "/"); {
		case strings.HasSuffix(req.Path, "/players"):
			var j apitest.Joined
			if json.Unmarshal(res.Body, &j) == nil {
				phones = append(phones, j.Token)
			}
		case strings.HasSuffix(req.Path, "/actions") && len(phones) > 1:
			hints := map[string]int{}
			for _, tok := range phones {
				r, err := tr(apitest.Request{Method: http.MethodGet, Path: "/api/games/" + code, Token: tok})
				if err != nil || r.Status != http.StatusOK {
					t.Fatalf("read a phone: %v, status %d", err, r.Status)
				}
				hints[r.Header.Get(pollHeader)]++
			}
			if len(hints) != 1 {
				t.Fatalf("after %s: the phones' hints differ: %v", req.Body, hints)
			}
			*steps++
		}
		return res, err
	}
}

func TestQR(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "sport"})
	res := e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code + "/qr.svg"})
	if res.Status != 200 || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("status %d, type %q", res.Status, res.Header.Get("Content-Type"))
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Content-Security-Policy") != apiCSP {
		t.Error("security headers missing")
	}
	svg := string(res.Body)
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<path") != 1 || len(svg) > 8000 {
		t.Fatalf("svg of %d bytes: %.200s", len(svg), svg)
	}
	wantQR(t, svg, c.JoinURL)
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/games/ZZZZZZ/qr.svg"}), 404, CodeNotFound)
}

// TestQRLinks: the QR route draws the shared screen's link for anyone, and
// the host's control link (its token in the fragment) for the host's token
// only, never cached; a player's token, none, or a link it does not know is
// refused.
func TestQRLinks(t *testing.T) {
	e := newEnv(t, Config{PublicURL: "http://192.168.1.5:8080"})
	c := e.Create(map[string]string{"preset": "sport"})
	j := e.Join(c.Code, "Anna")
	path := "/api/games/" + c.Code + "/qr.svg?link="
	for _, tc := range []struct{ link, token, want, cache string }{
		{"screen", "", "http://192.168.1.5:8080/#screen=" + c.Code, "private, max-age=3600"},
		{"join", "", c.JoinURL, "private, max-age=3600"},
		{"host", c.HostToken, "http://192.168.1.5:8080/#host=" + c.Code + "&t=" + c.HostToken, "no-store"},
	} {
		res := e.Do(apitest.Request{Method: "GET", Path: path + tc.link, Token: tc.token})
		if res.Status != 200 || res.Header.Get("Cache-Control") != tc.cache {
			t.Fatalf("%s: status %d, cache %q", tc.link, res.Status, res.Header.Get("Cache-Control"))
		}
		wantQR(t, string(res.Body), tc.want)
	}
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: path + "host"}), 401, CodeUnauthorized)
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: path + "host", Token: j.Token}), 403, "not_host")
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: path + "host", Token: "forged-token-0000"}), 401, CodeUnauthorized)
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: path + "seat"}), 400, "invalid")
}

// wantQR fails t unless svg, drawn by qrSVG, is the QR code of text.
func wantQR(t *testing.T, svg, text string) {
	t.Helper()
	if !slices.EqualFunc(qrModules(t, svg), qrBitmap(t, text), slices.Equal) {
		t.Fatalf("the QR code is not that of %s", text)
	}
}

// qrBitmap is the QR code of text as the server draws it.
func qrBitmap(t *testing.T, text string) [][]bool {
	t.Helper()
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	return q.Bitmap()
}

// qrModules draws an SVG's path back into modules.
func qrModules(t *testing.T, svg string) [][]bool {
	t.Helper()
	m := regexp.MustCompile(`viewBox="0 0 (\d+) `).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("not a QR code: %.200s", svg)
	}
	n, _ := strconv.Atoi(m[1])
	got := make([][]bool, n)
	for i := range got {
		got[i] = make([]bool, n)
	}
	for _, r := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(r[1])
		y, _ := strconv.Atoi(r[2])
		w, _ := strconv.Atoi(r[3])
		for i := x; i < x+w; i++ {
			got[y][i] = true
		}
	}
	return got
}

func TestJoinURLFromRequest(t *testing.T) {
	tests := []struct {
		name, host, proto, fwdHost string
		trust                      bool
		want                       string
	}{
		{"host", "mafia.test:8080", "", "", false, "http://mafia.test:8080"},
		{"proto", "mafia.test", "https", "", false, "https://mafia.test"},
		{"forwarded host ignored", "api.test", "https", "site.test", false, "https://api.test"},
		{"forwarded host trusted", "api.test", "https", "site.test", true, "https://site.test"},
		{"bad forwarded host", "api.test", "https", "evil.test/x?", true, "https://localhost"},
		{"odd proto", "mafia.test", "gopher", "", false, "http://mafia.test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &handler{cfg: Config{TrustForwardedHost: tc.trust}}
			r := httptest.NewRequest("POST", "/api/games", nil)
			r.Host = tc.host
			if tc.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tc.proto)
			}
			if tc.fwdHost != "" {
				r.Header.Set("X-Forwarded-Host", tc.fwdHost)
			}
			if got := h.joinURL(r, "K7QX2M"); got != tc.want+"/join/K7QX2M" {
				t.Errorf("join URL %q, want %q", got, tc.want+"/join/K7QX2M")
			}
		})
	}
	e := newEnv(t, Config{PublicURL: "https://mafia.example.org/"})
	if c := e.Create(map[string]string{"preset": "sport"}); c.JoinURL != "https://mafia.example.org/join/"+c.Code {
		t.Errorf("joinUrl %q", c.JoinURL)
	}
}

func TestHealth(t *testing.T) {
	e := newEnv(t, Config{})
	var body map[string]string
	e.Expect(e.Do(apitest.Request{Method: "GET", Path: "/api/health"}), 200, &body)
	if body["status"] != "ok" {
		t.Errorf("health %v", body)
	}
	broken := newEnv(t, Config{Games: service.New(failingStore{}, service.WithMaxRetries(1), service.WithLogger(slog.New(slog.DiscardHandler)))})
	res := broken.Do(apitest.Request{Method: "GET", Path: "/api/health"})
	broken.ExpectError(res, 503, CodeUnavailable)
	if res.Header.Get("Retry-After") == "" {
		t.Error("a 503 without Retry-After")
	}
}

// failingStore fails every call as an unreachable DynamoDB would.
type failingStore struct{}

var errDown = errors.New("dial tcp 10.1.2.3:443: secret-internal-host unreachable")

func (failingStore) Create(context.Context, string, []byte, time.Time) error { return errDown }
func (failingStore) Get(context.Context, string, bool) (store.Item, error) {
	return store.Item{}, errDown
}
func (failingStore) Update(context.Context, string, int64, []byte, time.Time) (int64, error) {
	return 0, errDown
}

func TestUnavailable(t *testing.T) {
	e := newEnv(t, Config{Games: service.New(failingStore{}, service.WithMaxRetries(2), service.WithLogger(slog.New(slog.DiscardHandler)))})
	for _, req := range []apitest.Request{
		{Method: "POST", Path: "/api/games", Body: []byte(`{"preset":"sport"}`)},
		{Method: "POST", Path: "/api/games/ABCDEF/players", Body: []byte(`{"name":"A"}`)},
		{Method: "GET", Path: "/api/games/ABCDEF"},
		{Method: "POST", Path: "/api/games/ABCDEF/actions", Token: "AAAAAAAAAAAAAAAAAAAAAAAA", Body: []byte(`{"id":"a","type":"sleep"}`)},
	} {
		res := e.Do(req)
		e.ExpectError(res, 503, CodeUnavailable)
		if bytes.Contains(res.Body, []byte("secret-internal-host")) {
			t.Errorf("%s %s: internal detail sent to the client: %s", req.Method, req.Path, res.Body)
		}
	}
	if !strings.Contains(e.log.String(), "secret-internal-host") {
		t.Error("the cause is not in the log")
	}
}

// buggyGames fails in ways only a bug can.
type buggyGames struct{ Games }

func (buggyGames) ReadTable(context.Context, string, string) (service.Table, error) {
	return service.Table{}, errors.New("secret: nil map in the rules")
}

func (buggyGames) ActTable(context.Context, string, string, rules.Action) (service.Table, error) {
	panic("secret: index out of range")
}

func TestInternalErrors(t *testing.T) {
	e := newEnv(t, Config{Games: buggyGames{}})
	for _, req := range []apitest.Request{
		{Method: "GET", Path: "/api/games/ABCDEF"},
		{Method: "POST", Path: "/api/games/ABCDEF/actions", Token: "t", Body: []byte(`{"id":"a","type":"sleep"}`)},
	} {
		res := e.Do(req)
		e.ExpectError(res, 500, CodeInternal)
		if bytes.Contains(res.Body, []byte("secret")) {
			t.Errorf("internal detail sent: %s", res.Body)
		}
	}
	log := e.log.String()
	if !strings.Contains(log, "nil map in the rules") || !strings.Contains(log, "index out of range") {
		t.Errorf("causes not logged: %s", log)
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(log, "\n", 2)[0]), &line); err != nil {
		t.Errorf("log is not JSON: %v", err)
	}
}

func TestRoutes(t *testing.T) {
	e := newEnv(t, Config{})
	e.ExpectError(e.raw("GET", "/api/nothing", "", ""), 404, CodeNotFound)
	e.ExpectError(e.raw("GET", "/api/games/", "", ""), 404, CodeNotFound)
	res := e.raw("DELETE", "/api/games/ABCDEF", "", "")
	e.ExpectError(res, 405, CodeMethodNotAllowed)
	if res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("Allow %q", res.Header.Get("Allow"))
	}
	e.ExpectError(e.raw("GET", "/api/games", "", ""), 405, CodeMethodNotAllowed)
	e.ExpectError(e.raw("PUT", "/api/games/ABCDEF/actions", "", "{}"), 405, CodeMethodNotAllowed)

	// A function serves its own routes only.
	for _, fn := range Functions {
		e := newEnv(t, Config{Function: fn})
		for _, rt := range Routes {
			path := strings.ReplaceAll(rt.Path, "{code}", "ABCDEF")
			res := e.raw(rt.Method, path, "", "{}")
			var body apitest.ErrorBody
			json.Unmarshal(res.Body, &body)
			if served := body.Error.Code != CodeNotFound || body.Error.Message != "no such route"; served != (rt.Function == fn) {
				t.Errorf("function %s, %s: status %d %s; served %v", fn, rt.Pattern(), res.Status, res.Body, served)
			}
		}
	}
}

// TestPollAfter: the one poll policy. Phones poll every 3 s, or once in every
// hand-over when it is shorter, and screens (the shared screen and the
// moderator's console) every 1.15 s, each less a request's round trip; a
// deadline or a hand-over's end cuts the wait short; nothing else, and nothing
// secret, goes in.
func TestPollAfter(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	hand := 3 * time.Second
	in := func(d time.Duration) time.Time { return now.Add(d) }
	tests := []struct {
		name   string
		t      rules.Timing
		screen bool
		want   time.Duration
	}{
		{"over", rules.Timing{Over: true, HandOver: hand}, false, pollOver},
		{"a phone, no deadline", rules.Timing{HandOver: hand}, false, 2900 * time.Millisecond},
		{"a screen, no deadline", rules.Timing{HandOver: hand}, true, 1050 * time.Millisecond},
		{"a phone, a far deadline", rules.Timing{Due: in(time.Minute), HandOver: hand}, false, 2900 * time.Millisecond},
		{"a phone, a short hand-over", rules.Timing{Due: in(time.Minute), HandOver: 2 * time.Second}, false, 1900 * time.Millisecond},
		{"a phone, a long hand-over", rules.Timing{Due: in(time.Minute), HandOver: 8 * time.Second}, false, 2900 * time.Millisecond},
		{"a screen, a short hand-over", rules.Timing{Due: in(time.Minute), HandOver: time.Second}, true, 900 * time.Millisecond},
		{"a phone, a near deadline", rules.Timing{Due: in(2 * time.Second), HandOver: hand}, false, 2*time.Second + deadlineSlack},
		{"a screen, a near deadline", rules.Timing{Due: in(800 * time.Millisecond), HandOver: hand}, true, 800*time.Millisecond + deadlineSlack},
		{"a hand-over: wait for its end", rules.Timing{Hold: true, Due: in(hand), HandOver: hand}, false, hand + deadlineSlack},
		{"a hand-over, a screen", rules.Timing{Hold: true, Due: in(hand), HandOver: hand}, true, hand + deadlineSlack},
		{"a long hand-over", rules.Timing{Hold: true, Due: in(10 * time.Second), HandOver: 10 * time.Second}, false, 10*time.Second + deadlineSlack},
		{"no hand-over", rules.Timing{Due: in(time.Minute)}, false, pollNoHandOver - requestTime},
		{"floor", rules.Timing{Due: in(-time.Second), HandOver: hand}, false, pollMin},
	}
	for _, tc := range tests {
		if got := pollAfter(tc.t, tc.screen, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// phoneHint is a phone's hint with no deadline near under rules o.
func phoneHint(o rules.Options) time.Duration {
	return min(PhoneEvery, time.Duration(o.HandOver)*time.Second) - requestTime
}

// screenHint is a screen's hint with no deadline near, in a game whose
// hand-over is longer than a screen's period.
const screenHint = screenEvery - requestTime

// TestTooManyRequests: the local server's rate limit refuses with the API's
// own 429 body and headers, Retry-After rounded up to whole seconds.
func TestTooManyRequests(t *testing.T) {
	w := httptest.NewRecorder()
	TooManyRequests(w, 1200*time.Millisecond)
	if w.Code != 429 || w.Header().Get("Retry-After") != "2" || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("%d, Retry-After %q, Cache-Control %q", w.Code, w.Header().Get("Retry-After"), w.Header().Get("Cache-Control"))
	}
	var body apitest.ErrorBody
	if json.Unmarshal(w.Body.Bytes(), &body); body.Error.Code != CodeRateLimited || body.Error.Message == "" {
		t.Errorf("body %s", w.Body)
	}
}

// TestViewGzip: a client that takes gzip gets a large view compressed, and the
// same JSON once inflated; one that does not (or refuses it) gets it plain.
func TestViewGzip(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, _, _ := e.table("sport", 10)
	get := func(enc string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/api/games/"+code, nil)
		r.Header.Set("Authorization", "Bearer "+host)
		if enc != "" {
			r.Header.Set("Accept-Encoding", enc)
		}
		w := httptest.NewRecorder()
		e.h.ServeHTTP(w, r)
		return w
	}
	plain := get("")
	if plain.Code != 200 || plain.Header().Get("Content-Encoding") != "" || !json.Valid(plain.Body.Bytes()) {
		t.Fatalf("plain: %d %q", plain.Code, plain.Header().Get("Content-Encoding"))
	}
	if refused := get("gzip;q=0, identity"); refused.Header().Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 was answered with gzip")
	}
	z := get("gzip, deflate, br")
	if z.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(z.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip: encoding %q, vary %q", z.Header().Get("Content-Encoding"), z.Header().Get("Vary"))
	}
	zr, err := gzip.NewReader(z.Body)
	if err != nil {
		t.Fatal(err)
	}
	inflated, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inflated, plain.Body.Bytes()) {
		t.Errorf("inflated view differs from the plain one")
	}
	if z.Body.Len()*2 > len(inflated) {
		t.Errorf("gzip saved little: %d → %d bytes", len(inflated), z.Body.Len())
	}
}

// TestJoinURLInLobbyViews: the shared screen and the host read the join link
// from the lobby's view, the one the QR code holds (PublicURL, the LAN address
// locally), whatever address the page itself was opened at. A seated phone does
// not need it, and once the cards are dealt nobody does.
func TestJoinURLInLobbyViews(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "sport"})
	want := publicURL + "/join/" + c.Code
	if c.Game.JoinURL != want {
		t.Errorf("create: game.joinUrl %q, want %q", c.Game.JoinURL, want)
	}
	res := e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code, Header: http.Header{"Host": {"localhost:8080"}}})
	var pub apitest.View
	e.Expect(res, 200, &pub)
	if pub.JoinURL != want {
		t.Errorf("public lobby: joinUrl %q, want %q", pub.JoinURL, want)
	}
	if host, _ := e.Read(c.Code, c.HostToken); host.JoinURL != want {
		t.Errorf("host's lobby: joinUrl %q, want %q", host.JoinURL, want)
	}
	j := e.Join(c.Code, "Ann")
	if j.Game.JoinURL != "" {
		t.Errorf("a player's view has joinUrl %q", j.Game.JoinURL)
	}
	code, host, _, _ := e.table("sport", 10)
	e.start(code, host, "s1")
	if v, _ := e.Read(code, ""); v.JoinURL != "" {
		t.Errorf("in play: joinUrl %q", v.JoinURL)
	}
}

// TestAgainRoute: POST /api/games/{code}/next opens the next game of a finished
// one for its host, and refuses everyone and everything else, changing nothing.
func TestAgainRoute(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "classic", "moderator": "host", "lang": "uk"})
	players := map[string]string{}
	for i := 1; i <= 5; i++ {
		j := e.Join(c.Code, "P"+strconv.Itoa(i))
		players[j.PlayerID] = j.Token
	}
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "start", Type: rules.ActStart})
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "night", Type: rules.ActAdvance, Now: true})
	next := func(code, token string) apitest.Response {
		return e.Do(apitest.Request{Method: "POST", Path: "/api/games/" + code + "/next", Token: token})
	}
	before := e.version(c.Code)
	e.ExpectError(next(c.Code, c.HostToken), 409, "wrong_phase")
	e.ExpectError(next(c.Code, players["p1"]), 403, "not_host")
	e.ExpectError(next(c.Code, ""), 401, CodeUnauthorized)
	e.ExpectError(next("ZZZZZZ", c.HostToken), 404, CodeNotFound)
	e.ExpectError(e.raw("GET", "/api/games/"+c.Code+"/next", c.HostToken, ""), 405, CodeMethodNotAllowed)
	if e.version(c.Code) != before {
		t.Fatal("a refused request changed the game")
	}
	// The moderator removes the mafia: the town wins.
	v, _ := e.Read(c.Code, c.HostToken)
	for _, p := range v.Players {
		if p.Team == rules.MafiaTeam {
			e.MustAct(c.Code, c.HostToken, rules.Action{ID: "rm" + p.ID, Type: rules.ActRemove, Target: p.ID})
		}
	}
	n := e.Again(c.Code, c.HostToken)
	if n.Code == c.Code || n.JoinURL != publicURL+"/join/"+n.Code || n.Game.Phase.Name != rules.PhaseLobby || n.Game.Lang != "uk" || len(n.Game.Players) != 5 {
		t.Fatalf("next game %s at %s: %s, %s, %d players", n.Code, n.JoinURL, n.Game.Phase.Name, n.Game.Lang, len(n.Game.Players))
	}
	if over, _ := e.Read(c.Code, ""); over.Next != n.Code {
		t.Errorf("the finished game names %q as next, want %s", over.Next, n.Code)
	}
	if mine, _ := e.Read(n.Code, players["p3"]); mine.You == nil || mine.You.ID != "p3" {
		t.Errorf("p3's token in the next game: %+v", mine.You)
	}
	if again := e.Again(c.Code, c.HostToken); again.Code != n.Code {
		t.Errorf("a second request opened %s, want %s", again.Code, n.Code)
	}
}

// TestJoinRetry: a join sent again with its joinId (its 201 was lost) gets
// the same seat and token, not 409 name_taken (issue 12).
func TestJoinRetry(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "classic"})
	path := "/api/games/" + c.Code + "/players"
	body := `{"name":"Аня","joinId":"7f3c9a1e4b2d8c6f0a1b2c3d","device":"5e6f7a8b9c0d1e2f3a4b"}`
	var first, again apitest.Joined
	e.Expect(e.raw("POST", path, "", body), http.StatusCreated, &first)
	e.Expect(e.raw("POST", path, "", body), http.StatusCreated, &again)
	if again.PlayerID != first.PlayerID || again.Token != first.Token || len(again.Game.Players) != 1 {
		t.Fatalf("the join sent again: %+v, first %+v", again, first)
	}
	e.ExpectError(e.raw("POST", path, "", `{"name":"Аня","joinId":"another-join-id-0123"}`), 409, "name_taken")
}

// TestLockBanAndLimit: a locked lobby refuses joins (409 lobby_locked) and
// says so in every view; a banned device is refused (403 banned); a game that
// had 40 joins in a moment answers 429 join_limited with Retry-After (issue 12).
func TestLockBanAndLimit(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "party"})
	path := "/api/games/" + c.Code + "/players"
	var troll apitest.Joined
	e.Expect(e.raw("POST", path, "", `{"name":"Troll","device":"troll-device-000001"}`), 201, &troll)
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "b", Type: rules.ActBan, Target: troll.PlayerID})
	e.ExpectError(e.raw("POST", path, "", `{"name":"Friend","device":"troll-device-000001"}`), 403, "banned")
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "l", Type: rules.ActLock})
	if v, _ := e.Read(c.Code, ""); !v.Phase.Locked {
		t.Error("the public view does not show the lock")
	}
	e.ExpectError(e.raw("POST", path, "", `{"name":"Late"}`), 409, "lobby_locked")
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "u", Type: rules.ActUnlock})
	for i := range 39 { // with the troll, the 40 joins a game gives at once
		var j apitest.Joined
		e.Expect(e.raw("POST", path, "", fmt.Sprintf(`{"name":"Guest %d"}`, i)), 201, &j)
		if i >= 25 {
			e.MustAct(c.Code, j.Token, rules.Action{ID: "bye", Type: rules.ActLeave})
		}
	}
	before := e.version(c.Code)
	res := e.raw("POST", path, "", `{"name":"One too many"}`)
	e.ExpectError(res, 429, "join_limited")
	if ra, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 6 {
		t.Errorf("Retry-After %q, want 1 to 6 seconds", res.Header.Get("Retry-After"))
	}
	if e.version(c.Code) != before {
		t.Error("a refused join changed the game")
	}
	e.clock.Add(6 * time.Second)
	e.Expect(e.raw("POST", path, "", `{"name":"In time"}`), 201, nil)
}

// TestPathAsWritten: a path that spells a route with escapes ("%73" for
// "s") is not that route: it is refused with 404 and reaches no game, so a
// limit that counts a route by its path (the edge's games and joins per
// address) counts every way of asking for it (the trust issue's edge point).
func TestPathAsWritten(t *testing.T) {
	st := store.NewMemory()
	games := &countingGames{Games: service.New(st, service.WithLogger(slog.New(slog.DiscardHandler)))}
	e := newEnv(t, Config{Games: games})
	body := []byte(`{"preset":"classic"}`)
	for _, path := range []string{"/api/game%73", "/api/%67ames", "/api%2Fgames", "/api/games%2F"} {
		e.ExpectError(e.Do(apitest.Request{Method: "POST", Path: path, Body: body}), 404, CodeNotFound)
	}
	e.Expect(e.Do(apitest.Request{Method: "POST", Path: "/api/games", Body: body}), 201, nil)
	if games.creates != 1 {
		t.Errorf("%d creates reached the games, want the one at /api/games", games.creates)
	}
}

// countingGames counts the creates that reach the games.
type countingGames struct {
	Games
	creates int
}

func (c *countingGames) Create(ctx context.Context, req service.CreateRequest) (service.Created, error) {
	c.creates++
	return c.Games.Create(ctx, req)
}

// TestRulesRoute: GET /api/rules serves the rules' schema, the one the engine
// validates by, and lets browsers keep it a few minutes.
func TestRulesRoute(t *testing.T) {
	e := newEnv(t, Config{})
	res := e.Do(apitest.Request{Method: "GET", Path: PathRules})
	var got rules.Schema
	e.Expect(res, 200, &got)
	if !reflect.DeepEqual(got, rules.OptionSchema()) {
		t.Errorf("GET %s: %+v\nwant %+v", PathRules, got, rules.OptionSchema())
	}
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("Cache-Control %q", cc)
	}
	e.ExpectError(e.raw("POST", PathRules, "", `{}`), 405, CodeMethodNotAllowed)
}

// TestProtocolRoute: GET /api/games/{code}/protocol is the game's record
// (docs/PROTOCOL.md): the moderator's at any time; before the end anyone else
// gets one 409, the same whoever asks and whatever the deal; after it, everyone
// gets the same whole record. Reading it writes nothing.
func TestProtocolRoute(t *testing.T) {
	e := newEnv(t, Config{})
	get := func(code, token string) apitest.Response {
		return e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code + "/protocol", Token: token})
	}
	var refusals [][]byte
	refused := func(res apitest.Response) {
		t.Helper()
		e.ExpectError(res, 409, service.CodeGameNotOver)
		refusals = append(refusals, res.Body)
	}

	// A game the app moderates: nobody sees the record before the end, not even
	// the host, who sees no cards either.
	code, host, tokens, ids := e.table("classic", 5)
	e.start(code, host, "s1")
	refused(get(code, ""))
	refused(get(code, host))
	refused(get(code, tokens[ids[0]]))
	e.ExpectError(get(code, "forged-token-0123456789abcdef"), 401, CodeUnauthorized)
	e.ExpectError(get("ZZZZZZ", ""), 404, CodeNotFound)
	e.ExpectError(e.raw("POST", "/api/games/"+code+"/protocol", host, "{}"), 405, CodeMethodNotAllowed)

	// A game a person moderates: the moderator reads it live, with every card.
	c := e.Create(map[string]string{"preset": "classic", "moderator": "host", "lang": "ro"})
	players := map[string]string{}
	for i := 1; i <= 6; i++ {
		j := e.Join(c.Code, "P"+strconv.Itoa(i))
		players[j.PlayerID] = j.Token
	}
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "start", Type: rules.ActStart})
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "night", Type: rules.ActAdvance, Now: true})
	refused(get(c.Code, ""))
	refused(get(c.Code, players["p2"]))
	before := e.version(c.Code)
	var live protocol.Protocol
	e.Expect(get(c.Code, c.HostToken), 200, &live)
	if live.SchemaVersion != protocol.SchemaVersion || live.Over || live.Lang != "ro" || len(live.Seats) != 6 || live.Seats[0].Role == "" {
		t.Fatalf("the moderator's live protocol: %+v", live)
	}
	if e.version(c.Code) != before {
		t.Error("reading the protocol wrote the game")
	}
	for _, body := range refusals[1:] {
		if !bytes.Equal(body, refusals[0]) {
			t.Errorf("409 bodies differ: %s and %s", body, refusals[0])
		}
	}

	// The moderator removes the mafia: the town wins, and the record is public.
	v, _ := e.Read(c.Code, c.HostToken)
	for _, p := range v.Players {
		if p.Team == rules.MafiaTeam {
			e.MustAct(c.Code, c.HostToken, rules.Action{ID: "rm" + p.ID, Type: rules.ActRemove, Target: p.ID})
		}
	}
	before = e.version(c.Code)
	pub := get(c.Code, "")
	checkAPIHeaders(t, pub.Header)
	var over protocol.Protocol
	e.Expect(pub, 200, &over)
	if !over.Over || !over.Complete || over.Winner != rules.Town || over.WinRule != "R-CLASSIC-08" {
		t.Errorf("the finished protocol: over %v, complete %v, %s by %s", over.Over, over.Complete, over.Winner, over.WinRule)
	}
	for _, token := range []string{c.HostToken, players["p1"]} {
		if res := get(c.Code, token); res.Status != 200 || !bytes.Equal(res.Body, pub.Body) {
			t.Errorf("after the end another viewer gets %d: %.200s", res.Status, res.Body)
		}
	}
	if e.version(c.Code) != before {
		t.Error("reading the protocol wrote the game")
	}
	r := httptest.NewRequest("GET", "/api/games/"+c.Code+"/protocol", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, r)
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("the protocol of %d bytes is sent without gzip", len(pub.Body))
	}
}

// TestBestMoveAction: a sport game with the best move on, moderated by a
// person, through the API. The player the mafia kill on night 2, the first
// night of shots, is offered a best move in the last word and sends it as JSON
// with its targets; the malformed ones, another player's and a second one are
// refused with their codes, changing nothing. Everyone's view tells the names
// and no count; the moderator's live protocol has the count.
func TestBestMoveAction(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]any{"preset": "sport", "moderator": "host", "options": map[string]any{"bestMove": true}})
	tokens := map[string]string{}
	for i := 1; i <= 10; i++ {
		j := e.Join(c.Code, "P"+strconv.Itoa(i))
		tokens[j.PlayerID] = j.Token
	}
	n := 0
	host := func(a rules.Action) apitest.View {
		n++
		a.ID = "h" + strconv.Itoa(n)
		return e.MustAct(c.Code, c.HostToken, a)
	}
	// until moves the game on as its moderator until it opens phase.
	until := func(phase rules.PhaseName) apitest.View {
		for range 40 {
			v, _ := e.Read(c.Code, c.HostToken)
			if v.Phase.Name == phase && !v.Phase.Closing {
				return v
			}
			host(rules.Action{Type: rules.ActAdvance, Now: v.Phase.Closing})
		}
		t.Fatalf("no %s", phase)
		return apitest.View{}
	}
	host(rules.Action{Type: rules.ActStart})
	until(rules.PhaseDay)
	v := until(rules.PhaseNight)
	var black, red []string
	for _, p := range v.Players {
		if p.Team == rules.MafiaTeam {
			black = append(black, p.ID)
		} else {
			red = append(red, p.ID)
		}
	}
	victim := red[0]
	for _, b := range black {
		e.MustAct(c.Code, tokens[b], rules.Action{ID: "k" + b, Type: rules.ActKill, Target: victim})
	}
	if v = until(rules.PhaseLastWord); *v.Phase.Speaker != victim {
		t.Fatalf("the last word is %s's, want %s's", *v.Phase.Speaker, victim)
	}
	mine, _ := e.Read(c.Code, tokens[victim])
	i := slices.IndexFunc(mine.Actions, func(o rules.Option) bool { return o.Type == rules.ActBestMove })
	if i < 0 || mine.Actions[i].Max != rules.BestMoveMax || len(mine.Actions[i].Targets) != 9 || slices.Contains(mine.Actions[i].Targets, victim) {
		t.Fatalf("the victim is offered %+v", mine.Actions)
	}

	path := "/api/games/" + c.Code + "/actions"
	named := []string{black[0], red[1], black[1]}
	for _, tc := range []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"four", tokens[victim], `{"id":"b1","type":"best_move","targets":["` + strings.Join(append(slices.Clone(named), red[2]), `","`) + `"]}`, 400, "bad_field"},
		{"none", tokens[victim], `{"id":"b2","type":"best_move","targets":[]}`, 400, "bad_field"},
		{"himself", tokens[victim], `{"id":"b3","type":"best_move","targets":["` + victim + `"]}`, 400, "bad_target"},
		{"twice the same", tokens[victim], `{"id":"b4","type":"best_move","targets":["` + red[1] + `","` + red[1] + `"]}`, 400, "bad_target"},
		{"not a list", tokens[victim], `{"id":"b5","type":"best_move","targets":"` + red[1] + `"}`, 400, CodeMalformed},
		{"another player", tokens[red[1]], `{"id":"b6","type":"best_move","targets":["` + red[2] + `"]}`, 403, "not_your_turn"},
		{"the moderator", c.HostToken, `{"id":"b7","type":"best_move","targets":["` + red[2] + `"]}`, 403, "not_player"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.version(c.Code)
			e.ExpectError(e.raw("POST", path, tc.token, tc.body), tc.status, tc.code)
			if e.version(c.Code) != before {
				t.Error("version changed")
			}
		})
	}
	after := e.MustAct(c.Code, tokens[victim], rules.Action{ID: "best", Type: rules.ActBestMove, Targets: named})
	if slices.ContainsFunc(after.Actions, func(o rules.Option) bool { return o.Type == rules.ActBestMove }) {
		t.Error("a second best move is offered")
	}
	e.ExpectError(e.Act(c.Code, tokens[victim], rules.Action{ID: "best2", Type: rules.ActBestMove, Targets: named[:1]}), 409, "already_acted")
	for _, token := range []string{"", tokens[red[1]], tokens[black[2]]} {
		v, _ := e.Read(c.Code, token)
		last := v.Events[len(v.Events)-1]
		if last.Type != rules.EvBestMove || last.Actor != victim || !slices.Equal(last.Targets, named) || last.Result != "" {
			t.Errorf("the view of %q tells %+v", token, last)
		}
	}
	var live protocol.Protocol
	e.Expect(e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code + "/protocol", Token: c.HostToken}), 200, &live)
	seatOf := func(id string) int {
		for _, s := range live.Seats {
			if s.ID == id {
				return s.Seat
			}
		}
		return 0
	}
	want := []protocol.BestMove{{Seat: seatOf(victim), Targets: []int{seatOf(named[0]), seatOf(named[1]), seatOf(named[2])}, Black: 2}}
	got := live.Nights[1].BestMoves
	for i := range got {
		got[i].At = 0
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the live protocol's best moves %+v, want %+v", got, want)
	}
}
