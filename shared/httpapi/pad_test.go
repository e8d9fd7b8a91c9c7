package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"citysleeps/shared/bot"
	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// padGames is how many games TestPropertyPaddedAnswers plays unless
// -rapid.checks or RAPID_CHECKS says otherwise (rapid's default is 100): it
// reads every player's answer through the handler at every step, a second or
// two a game, and under the race detector ten times that (pad_race_test.go).
var padGames = 5

// padFixed makes padGames hold whatever RAPID_CHECKS says.
var padFixed = false

// TestMain gives this package's rapid tests padGames checks by default.
func TestMain(m *testing.M) {
	if padFixed || os.Getenv("RAPID_CHECKS") == "" {
		flag.Set("rapid.checks", strconv.Itoa(padGames))
	}
	os.Exit(m.Run())
}

// TestPropertyPaddedAnswers: through TLS, anyone on the table's Wi-Fi sees how
// long each phone's answers are, and unpadded the mafia's views are longer
// than the Sheriff's, which are longer than the citizens', and grow as each
// teammate shoots. Over random games of every preset, both ways of
// moderating, played by bots (they read through the service and act through
// the real handler, on the memory store), it checks at every step (after
// every action) that every player's answer is as long as every other
// player's at that revision: a read, with gzip or without as drawn for the
// step (status, Content-Length, the body, and all headers together), the
// answer to the player's own action, and the 304 of a read with the current
// ETag. Every padded body is a view that parses (as the frontend and the bots
// parse it) followed by spaces only.
func TestPropertyPaddedAnswers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		preset := rapid.SampledFrom(rules.Presets).Draw(t, "preset")
		opts, _ := rules.Preset(preset)
		moderator := rapid.SampledFrom([]string{rules.ModeratorApp, rules.ModeratorHost}).Draw(t, "moderator")
		n := rapid.IntRange(opts.MinPlayers, min(opts.MaxPlayers, 12)).Draw(t, "players")
		pt := newPadTable(t)
		seats := pt.open(preset, moderator, n)
		d := &bot.Driver{Table: pt, Seats: seats, Rand: rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))}
		pt.act(seats.Host, rules.Action{ID: bot.ActionID(), Type: rules.ActStart}, false)
		for range bot.MaxRounds {
			acted, host, err := d.Round(context.Background(), func(rules.View) bool { return false })
			if err != nil {
				t.Fatal(err)
			}
			if host.Winner != nil {
				return
			}
			if !acted {
				t.Fatalf("stuck in phase %s", host.Phase.Name)
			}
		}
		t.Fatalf("no winner after %d rounds", bot.MaxRounds)
	})
}

// padTable is a game as a bot.Table: its bots read through the service, and
// act through the API handler, after which every player's answers are
// measured.
type padTable struct {
	t       *rapid.T
	svc     *service.Service
	tr      apitest.Transport
	code    string
	players []string // the players' tokens
}

func newPadTable(t *rapid.T) *padTable {
	st := store.NewMemory()
	now := func() time.Time { return time.Date(2030, 1, 2, 20, 0, 0, 0, time.UTC) }
	st.SetNow(now)
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(st, service.WithClock(now), service.WithLogger(quiet))
	h := New(Config{Games: svc, PublicURL: publicURL, Logger: quiet, Now: now})
	return &padTable{t: t, svc: svc, tr: apitest.HandlerTransport(h)}
}

// open creates a game and seats n players.
func (p *padTable) open(preset, moderator string, n int) bot.Seats {
	var c apitest.Created
	p.decode(p.send("POST", "/api/games", "", fmt.Sprintf(`{"preset":%q,"moderator":%q}`, preset, moderator), nil), http.StatusCreated, &c)
	p.code = c.Code
	seats := bot.Seats{Code: c.Code, Host: c.HostToken}
	for i := range n {
		var j apitest.Joined
		p.decode(p.send("POST", "/api/games/"+c.Code+"/players", "", fmt.Sprintf(`{"name":"Player %d"}`, i+1), nil), http.StatusCreated, &j)
		seats.Players = append(seats.Players, j.Token)
	}
	p.players = seats.Players
	return seats
}

// send makes one request.
func (p *padTable) send(method, path, token, body string, header http.Header) apitest.Response {
	var b []byte
	if method == "POST" {
		b = []byte(body)
	}
	res, err := p.tr(apitest.Request{Method: method, Path: path, Token: token, Body: b, Header: header})
	if err != nil {
		p.t.Fatal(err)
	}
	return res
}

// decode decodes the plain JSON body of res, which must have the status.
func (p *padTable) decode(res apitest.Response, status int, out any) {
	if res.Status != status {
		p.t.Fatalf("status %d, want %d: %s", res.Status, status, res.Body)
	}
	if err := json.Unmarshal(res.Body, out); err != nil {
		p.t.Fatalf("decode %q: %v", res.Body, err)
	}
}

// Read is a bot's poll.
func (p *padTable) Read(ctx context.Context, code, token string) (rules.View, error) {
	return p.svc.Read(ctx, code, token)
}

// Act is a bot's action, sent with or without gzip as drawn; after it every
// player's answers are measured.
func (p *padTable) Act(_ context.Context, code, token string, a rules.Action) (rules.View, error) {
	return p.act(token, a, rapid.Bool().Draw(p.t, "gzip")), nil
}

// act sends an action that must pass and checks the answers at the revision
// it leaves, read with gzip or without like the action.
func (p *padTable) act(token string, a rules.Action, gz bool) rules.View {
	data, _ := json.Marshal(a)
	res := p.send("POST", "/api/games/"+p.code+"/actions", token, string(data), encoding(gz))
	if res.Status != http.StatusOK {
		p.t.Fatalf("%s: status %d: %s", a.Type, res.Status, res.Body)
	}
	reads := p.answers(gz)
	p.same("read", reads)
	if slices.Contains(p.players, token) {
		// The actor's own answer is one more to match: it shows the revision
		// that the reads after it show.
		p.same(string(a.Type)+" answer", append(reads, res))
	}
	p.same("304", p.notModified(reads))
	var v apitest.View
	p.decode(apitest.Response{Status: res.Status, Body: p.inflate(res)}, http.StatusOK, &v)
	return v.View
}

// encoding is the request headers of a client that takes gzip, or not.
func encoding(gz bool) http.Header {
	if gz {
		return http.Header{"Accept-Encoding": {"gzip"}}
	}
	return nil
}

// answers reads every player's view.
func (p *padTable) answers(gz bool) []apitest.Response {
	var out []apitest.Response
	for _, tok := range p.players {
		out = append(out, p.send("GET", "/api/games/"+p.code, tok, "", encoding(gz)))
	}
	return out
}

// notModified reads every player's view again with the ETag of their
// answer.
func (p *padTable) notModified(reads []apitest.Response) []apitest.Response {
	var out []apitest.Response
	for i, tok := range p.players {
		res := p.send("GET", "/api/games/"+p.code, tok, "", http.Header{"If-None-Match": {reads[i].Header.Get("ETag")}})
		if res.Status != http.StatusNotModified {
			p.t.Fatalf("player %d: a read with the current ETag: status %d", i+1, res.Status)
		}
		out = append(out, res)
	}
	return out
}

// same fails unless every answer is of one revision and as long as every
// other on the wire, and its body, inflated, is a view and spaces.
func (p *padTable) same(what string, answers []apitest.Response) {
	first := answers[0]
	for i, res := range answers {
		if rev(res) != rev(first) {
			p.t.Fatalf("%s: answers of revisions %s and %s", what, rev(first), rev(res))
		}
		if res.Status != first.Status || len(res.Body) != len(first.Body) ||
			res.Header.Get("Content-Length") != first.Header.Get("Content-Length") || headerBytes(res.Header) != headerBytes(first.Header) {
			p.t.Fatalf("%s at revision %s: answer %d is status %d, %d bytes, Content-Length %s, headers %d bytes; answer 1 status %d, %d bytes, Content-Length %s, headers %d bytes",
				what, rev(res), i+1, res.Status, len(res.Body), res.Header.Get("Content-Length"), headerBytes(res.Header),
				first.Status, len(first.Body), first.Header.Get("Content-Length"), headerBytes(first.Header))
		}
		if res.Status == http.StatusOK {
			p.valid(p.inflate(res))
		}
	}
}

// rev is the revision an answer's ETag names.
func rev(res apitest.Response) string {
	tag, _, _ := strings.Cut(strings.TrimPrefix(res.Header.Get("ETag"), `W/"`), "-")
	return tag
}

// headerBytes is how long a header is as HTTP/1.1 sends it.
func headerBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(": \r\n") + len(v)
		}
	}
	return n
}

// inflate is the body of res as a client reads it.
func (p *padTable) inflate(res apitest.Response) []byte {
	if res.Header.Get("Content-Encoding") != "gzip" {
		return res.Body
	}
	zr, err := gzip.NewReader(bytes.NewReader(res.Body))
	if err != nil {
		p.t.Fatalf("a gzipped answer: %v", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		p.t.Fatalf("a gzipped answer: %v", err)
	}
	return data
}

// valid fails unless data is a padded view: one JSON value, then spaces only.
func (p *padTable) valid(data []byte) {
	end := bytes.LastIndexByte(data, '}')
	if !json.Valid(data[:end+1]) || strings.Trim(string(data[end+1:]), " ") != "" {
		p.t.Fatalf("a padded view is not JSON and spaces: %q", data)
	}
}

// TestPadGzip: a gzipped view padded to a longer length must still inflate,
// in Go's reader as in a browser's (the e2e tests read them in Chromium), to
// the same bytes, at every padding from the least to two blocks and more than
// a gzip comment may hold in Go's reader.
func TestPadGzip(t *testing.T) {
	data := bytes.Repeat([]byte(`{"players":[{"id":"p1"}]} `), 100)
	z := gzipped(data)
	for extra := gzipPadMin; extra <= 2*gzipBlock+600; extra++ {
		padded := padGzip(z, len(z)+extra)
		if len(padded) != len(z)+extra {
			t.Fatalf("+%d: %d bytes, want %d", extra, len(padded), len(z)+extra)
		}
		zr, err := gzip.NewReader(bytes.NewReader(padded))
		if err != nil {
			t.Fatalf("+%d: %v", extra, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("+%d: inflates to %d bytes (%v), want %d", extra, len(got), err, len(data))
		}
		if sub := zr.Extra; len(sub) != extra-2 || string(sub[:2]) != "PD" || int(sub[2])|int(sub[3])<<8 != len(sub)-4 {
			t.Fatalf("+%d: extra field %q, want one subfield PD of %d bytes", extra, sub[:min(len(sub), 4)], extra-6)
		}
	}
}

// TestPaddedSizesRoundUp: every player's view is padded to the longest
// seat's, rounded up to a block, and the same padding goes to every seat.
func TestPaddedSizesRoundUp(t *testing.T) {
	for _, tc := range []struct{ longest, want int }{{10, plainBlock}, {plainBlock, plainBlock}, {plainBlock + 1, 2 * plainBlock}} {
		long := []byte(`{"a":"` + strings.Repeat("x", tc.longest-8) + `"}`)
		for _, seats := range [][][]byte{{[]byte(`{}`), long}, {long, []byte(`{}`)}} {
			w := httptest.NewRecorder()
			writeSeatView(w, httptest.NewRequest("GET", "/", nil), http.StatusOK, seats, seats[len(seats)-1], 0, 0)
			if got := w.Header().Get("Content-Length"); got != strconv.Itoa(tc.want) || w.Body.Len() != tc.want {
				t.Errorf("longest %d: Content-Length %s, body %d; want %d", tc.longest, got, w.Body.Len(), tc.want)
			}
		}
	}
}

// TestPaddedTaps: the app pads every request body with spaces to a block
// (frontend/js/api.js), so that a night tap's length on the Wi-Fi says
// nothing of what it does. A tap padded so is taken like a bare one; padding
// of anything but JSON's whitespace, or past MaxBody, is refused and changes
// nothing, so the padding can carry nothing into a game.
func TestPaddedTaps(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, tokens, ids := e.table("sport", 10)
	e.start(code, host, "s")
	path := "/api/games/" + code + "/actions"
	pad := func(body string, n int) string { return body + strings.Repeat(" ", n-len(body)) }
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"padded with more than blanks", `{"id":"a","type":"sleep"}` + strings.Repeat(" ", 90) + "x", 400, CodeMalformed},
		{"padded with a second object", `{"id":"a","type":"sleep"}  {}`, 400, CodeMalformed},
		{"padded past the limit", pad(`{"id":"a","type":"sleep"}`, MaxBody+1), 413, CodeTooLarge},
	} {
		before := e.version(code)
		e.ExpectError(e.raw("POST", path, tokens[ids[0]], tc.body), tc.status, tc.code)
		if e.version(code) != before {
			t.Errorf("%s: the version moved", tc.name)
		}
	}
	for i, body := range []string{pad(`{"id":"a","type":"sleep"}`, 128), `{"id":"b","type":"sleep"}` + " \t\r\n "} {
		var v apitest.View
		e.Expect(e.raw("POST", path, tokens[ids[i]], body), http.StatusOK, &v)
		if v.You == nil || !v.You.Done {
			t.Errorf("padded tap %d: not done", i+1)
		}
	}
}

// TestJoinAnswersPadded: the answers to a join carry the seat's view, so
// every seat's answer on the join route is one length at a revision, plain
// and gzipped, as the reads are among themselves (issue 29: a repeated join
// after the deal answered 1910 bytes for a black seat and 1882 for a red
// one; a seat key's answer 2630 for a black seat, 2580 for a red one and
// 2578 for the Sheriff). Every player of a sport game sends their join
// again, with its join id, on the first night and on the first day; then
// every seat in turn is moved to another phone by a seat key, and its answer
// is as long as every other seat's join sent again at that revision.
func TestJoinAnswersPadded(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": rules.PresetSport})
	joinID := func(i int) string { return fmt.Sprintf("join-id-%02d-xxxxxxxxxxxxxx", i) }
	// bodies are each seat's join, to send again: after a seat moves, the
	// seat key's own, which its join id makes safe to send again.
	bodies := map[int]string{}
	join := func(i int) string { return bodies[i] }
	tokens := map[string]string{}
	for i := 1; i <= 10; i++ {
		bodies[i] = fmt.Sprintf(`{"name":"Player %d","joinId":%q}`, i, joinID(i))
		var j apitest.Joined
		e.Expect(e.raw("POST", "/api/games/"+c.Code+"/players", "", join(i)), http.StatusCreated, &j)
		tokens[j.PlayerID] = j.Token
	}
	path := "/api/games/" + c.Code + "/players"
	gzipped := func(gz bool) []string {
		if gz {
			return []string{"Accept-Encoding", "gzip"}
		}
		return nil
	}
	// same fails unless every answer is as long as the first.
	same := func(what string, answers []apitest.Response) {
		t.Helper()
		for i, res := range answers {
			if len(res.Body) != len(answers[0].Body) || res.Header.Get("Content-Encoding") != answers[0].Header.Get("Content-Encoding") {
				t.Errorf("%s: answer %d is %d bytes (%q), answer 1 %d", what, i+1, len(res.Body), res.Header.Get("Content-Encoding"), len(answers[0].Body))
			}
		}
	}
	// joinedAgain is every seat's join sent again but skip's.
	joinedAgain := func(skip int, gz bool) []apitest.Response {
		var out []apitest.Response
		for i := 1; i <= 10; i++ {
			if i == skip {
				continue
			}
			res := e.raw("POST", path, "", join(i), gzipped(gz)...)
			if res.Status != http.StatusCreated {
				t.Fatalf("join %d again: status %d: %s", i, res.Status, res.Body)
			}
			out = append(out, res)
		}
		return out
	}
	e.start(c.Code, c.HostToken, "start")
	for _, when := range []string{"night 1", "day 1"} {
		if when == "day 1" {
			v, _ := e.Read(c.Code, c.HostToken)
			for v.Phase.Name != rules.PhaseDay {
				e.clock.Add(v.Phase.EndsAt.Sub(e.clock.Now()) + time.Second)
				v, _ = e.Read(c.Code, c.HostToken)
			}
		}
		for _, gz := range []bool{false, true} {
			joins := joinedAgain(0, gz)
			same(fmt.Sprintf("%s, gzip %v, joins", when, gz), joins)
			var reads []apitest.Response
			for _, tok := range tokens {
				reads = append(reads, e.raw("GET", "/api/games/"+c.Code, tok, "", gzipped(gz)...))
			}
			same(fmt.Sprintf("%s, gzip %v, reads", when, gz), reads)
			t.Logf("%s, gzip %v: every join %d bytes, every read %d", when, gz, len(joins[0].Body), len(reads[0].Body))
		}
	}
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("p%d", i)
		link := e.MustAct(c.Code, c.HostToken, rules.Action{ID: "reseat-" + id, Type: rules.ActReseat, Target: id}).Reseat
		card, _ := e.Read(c.Code, tokens[id])
		gz := i%2 == 0
		bodies[i] = fmt.Sprintf(`{"seatKey":%q,"seatCode":%q,"joinId":"moved-%02d-xxxxxxxxxxxxxxxx"}`, link.Key, card.You.SeatCode, i)
		moved := e.raw("POST", path, "", join(i), gzipped(gz)...)
		var j apitest.Joined
		e.Expect(apitest.Response{Status: moved.Status, Body: inflated(t, moved), Header: moved.Header}, http.StatusCreated, &j)
		tokens[id] = j.Token
		same(fmt.Sprintf("%s (%s) moved, gzip %v: its answer, then the joins of the others", id, card.You.Role, gz), append([]apitest.Response{moved}, joinedAgain(i, gz)...))
	}
}

// inflated is the body of res as a client reads it.
func inflated(t *testing.T, res apitest.Response) []byte {
	t.Helper()
	if res.Header.Get("Content-Encoding") != "gzip" {
		return res.Body
	}
	zr, err := gzip.NewReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
