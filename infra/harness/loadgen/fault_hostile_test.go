package loadgen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

// hostile is one malformed or unauthorised request.
type hostile struct {
	name   string
	method string
	path   string
	token  string
	inm    string // If-None-Match
	ctype  string // Content-Type; "" is application/json when there is a body, noType none
	body   []byte
	// notAPI: the path leaves /api/ once cleaned, so the answer is not the
	// API's JSON error.
	notAPI bool
}

// cutShort reports whether err is the server closing a connection while the
// client still sends a body far over the limit: it answers 413 as soon as the
// limit is passed, and a client that is still writing may see the close
// before the answer.
func cutShort(h hostile, err error) bool {
	return len(h.body) > 64<<10 && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET))
}

// noType as a hostile request's ctype sends its body with no Content-Type, as a
// cross-site form or fetch may.
const noType = "none"

// hostileCases makes the requests of one round against the tables: every kind
// of bad input the issues name, each picked with its own random details.
// locked is a lobby its host has closed, and banned a device its host banned.
func hostileCases(rng *rand.Rand, lobby, started, other, locked *table, banned string) []hostile {
	junk := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return b
	}
	forged := func() string {
		b := make([]byte, 16+rng.IntN(16))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	nested := func(n int) []byte {
		return []byte(`{"preset":"sport","options":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	codes := []string{"ZZZZZZ", "abc", "A", strings.Repeat("K", 300), "..%2F..%2Fetc", "%00", "ÄÖÜ123", "K7QX2M0", "k7qx2m", "      "}
	code := func() string { return codes[rng.IntN(len(codes))] }
	pid := started.ids[rng.IntN(len(started.ids))]
	ptok := started.tokens[pid]
	lid := lobby.ids[rng.IntN(len(lobby.ids))]
	ltok := lobby.tokens[lid]
	oid := other.ids[rng.IntN(len(other.ids))]
	otok := other.tokens[oid]
	act := func(s string) []byte { return []byte(s) }
	pick := func(of []string) string { return of[rng.IntN(len(of))] }
	j := func(v any) []byte { b, _ := json.Marshal(v); return b }
	sp, lp := "/api/games/"+started.code, "/api/games/"+lobby.code
	// Actions that no seat may take at the start of the first night (a meeting
	// night of sport: only "sleep" is open to players, which is never sent).
	refusedAtNight := []rules.ActionType{rules.ActVote, rules.ActVoteAll, rules.ActNominate, rules.ActEndSpeech, rules.ActTestament,
		rules.ActReveal, rules.ActRaiseHand, rules.ActKill, rules.ActCheck, rules.ActLeave, rules.ActStart, rules.ActKick}
	return []hostile{
		// Malformed JSON and wrong types.
		{name: "create: junk", method: "POST", path: "/api/games", body: junk(1 + rng.IntN(200))},
		{name: "create: truncated", method: "POST", path: "/api/games", body: act(`{"preset":"spo`)},
		{name: "create: array", method: "POST", path: "/api/games", body: act(`[]`)},
		{name: "create: null", method: "POST", path: "/api/games", body: act(`null`)},
		{name: "create: preset number", method: "POST", path: "/api/games", body: act(`{"preset":7}`)},
		{name: "create: unknown preset", method: "POST", path: "/api/games", body: j(map[string]any{"preset": forged()})},
		{name: "create: option wrong type", method: "POST", path: "/api/games", body: act(`{"preset":"sport","options":{"speech":"long"}}`)},
		{name: "create: option out of range", method: "POST", path: "/api/games", body: j(map[string]any{"preset": "classic", "options": map[string]int{"speech": -rng.IntN(1000)}})},
		{name: "create: unknown option", method: "POST", path: "/api/games", body: act(`{"preset":"sport","options":{"godMode":true}}`)},
		{name: "create: bad moderator", method: "POST", path: "/api/games", body: act(`{"preset":"sport","moderator":"robot"}`)},
		{name: "create: bad lang", method: "POST", path: "/api/games", body: act(`{"preset":"sport","lang":"klingon"}`)},
		{name: "create: unknown field", method: "POST", path: "/api/games", body: act(`{"preset":"sport","admin":true}`)},
		{name: "create: trailing data", method: "POST", path: "/api/games", body: act(`{"preset":"sport"}{"preset":"sport"}`)},
		{name: "create: deep nesting", method: "POST", path: "/api/games", body: nested(1000 + rng.IntN(9000))},
		{name: "create: invalid UTF-8", method: "POST", path: "/api/games", body: act("{\"preset\":\"sp\xffort\"}")},
		{name: "create: text/plain", method: "POST", path: "/api/games", ctype: "text/plain", body: act(`{"preset":"sport"}`)},
		{name: "create: huge", method: "POST", path: "/api/games", body: append(act(`{"preset":"sport","lang":"`), bytes.Repeat([]byte("x"), 17<<10+rng.IntN(1<<20))...)},
		{name: "join: junk", method: "POST", path: lp + "/players", body: junk(1 + rng.IntN(200))},
		{name: "join: name number", method: "POST", path: lp + "/players", body: act(`{"name":12345}`)},
		{name: "join: empty name", method: "POST", path: lp + "/players", body: act(`{"name":"   "}`)},
		{name: "join: long name", method: "POST", path: lp + "/players", body: j(map[string]string{"name": strings.Repeat("Ж", 25+rng.IntN(5000))})},
		{name: "join: control chars", method: "POST", path: lp + "/players", body: act(`{"name":"a\u0000b\u0007"}`)},
		{name: "join: bidi override", method: "POST", path: lp + "/players", body: act(`{"name":"\u202egnp.exe"}`)},
		{name: "join: extra field", method: "POST", path: lp + "/players", body: act(`{"name":"Eve","seat":1}`)},
		{name: "join: huge", method: "POST", path: lp + "/players", body: append(act(`{"name":"`), bytes.Repeat([]byte("y"), 17<<10+rng.IntN(1<<20))...)},
		{name: "join: started game", method: "POST", path: sp + "/players", body: j(map[string]string{"name": "Late " + forged()[:6]})},
		{name: "join: bad code", method: "POST", path: "/api/games/" + code() + "/players", body: act(`{"name":"Eve"}`)},
		// Names that hide or pass for another, refused by the service (issue 12).
		{name: "join: invisible name", method: "POST", path: lp + "/players", body: j(map[string]string{"name": strings.Repeat([]string{"\u200b", "\ufeff", "\u2060", "\u3164", "\u2800"}[rng.IntN(5)], 1+rng.IntN(20))})},
		{name: "join: copy with a hidden char", method: "POST", path: lp + "/players", body: j(map[string]string{"name": "Guest 1" + []string{"\u200b", "\u200d", "\u2060", "\u034f"}[rng.IntN(4)]})},
		{name: "join: look-alike", method: "POST", path: lp + "/players", body: j(map[string]string{"name": pick([]string{"Guеst 1", "GUEST 1", "Ｇｕｅｓｔ 1", "Guest l", "ɢᴜᴇꜱᴛ 1", "𝐆𝐮𝐞𝐬𝐭 1", "Guest 1.", "(guest 1)"})})},
		{name: "join: poses as the page", method: "POST", path: lp + "/players", body: j(map[string]string{"name": pick([]string{"★ You", "Вы", "Nobody", "N0body", "Nobоdy", "#3 Guest", "№3 Гость", "Никого", "Confirm", "Mă abțin", "☠ Out"})})},
		{name: "join: stacked marks", method: "POST", path: lp + "/players", body: j(map[string]string{"name": "Z" + strings.Repeat("\u0351\u0352\u0353", 1+rng.IntN(5)) + "algo"})},
		{name: "join: bad join id", method: "POST", path: lp + "/players", body: j(map[string]string{"name": "Eve", "joinId": forged()[:1+rng.IntN(15)] + "!"})},
		{name: "join: bad device", method: "POST", path: lp + "/players", body: j(map[string]string{"name": "Eve", "device": "../" + forged()})},
		{name: "join: banned device", method: "POST", path: lp + "/players", body: j(map[string]string{"name": "Not " + forged()[:8], "device": banned})},
		{name: "join: locked lobby", method: "POST", path: "/api/games/" + locked.code + "/players", body: j(map[string]string{"name": "Late " + forged()[:6]})},
		// Bodies with no Content-Type: what another site could make a browser send.
		{name: "create: no content type", method: "POST", path: "/api/games", ctype: noType, body: act(`{"preset":"sport"}`)},
		{name: "join: no content type", method: "POST", path: lp + "/players", ctype: noType, body: j(map[string]string{"name": "Xsite " + forged()[:6]})},
		{name: "act: no content type", method: "POST", path: sp + "/actions", token: started.hostTok, ctype: noType, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActPause})},
		{name: "act: ban by a player", method: "POST", path: lp + "/actions", token: ltok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActBan, Target: lid})},
		{name: "act: unlock by a player", method: "POST", path: "/api/games/" + locked.code + "/actions", token: locked.tokens[locked.ids[0]], body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActUnlock})},
		// Actions: malformed, unknown, forged tokens, other games' tokens, wrong actor.
		{name: "act: junk", method: "POST", path: sp + "/actions", token: ptok, body: junk(1 + rng.IntN(300))},
		{name: "act: unknown type", method: "POST", path: sp + "/actions", token: ptok, body: j(map[string]string{"id": "h" + forged()[:8], "type": "explode"})},
		{name: "act: target number", method: "POST", path: sp + "/actions", token: ptok, body: act(`{"id":"h1","type":"vote","target":42}`)},
		{name: "act: yes string", method: "POST", path: sp + "/actions", token: ptok, body: act(`{"id":"h2","type":"vote_all","yes":"true"}`)},
		{name: "act: no id", method: "POST", path: sp + "/actions", token: ptok, body: act(`{"type":"vote","target":"p1"}`)},
		{name: "act: bad id", method: "POST", path: sp + "/actions", token: ptok, body: j(map[string]string{"id": "../" + strings.Repeat("é", rng.IntN(100)), "type": "vote"})},
		{name: "act: long id", method: "POST", path: sp + "/actions", token: ptok, body: j(map[string]string{"id": strings.Repeat("a", 65+rng.IntN(500)), "type": "vote"})},
		{name: "act: deal smuggled", method: "POST", path: sp + "/actions", token: ptok, body: act(`{"id":"h3","type":"vote","Deal":[1,2,3]}`)},
		{name: "act: refused now", method: "POST", path: sp + "/actions", token: ptok, body: j(rules.Action{ID: "h" + forged()[:10], Type: refusedAtNight[rng.IntN(len(refusedAtNight))], Target: pid})},
		{name: "act: host-only by player", method: "POST", path: sp + "/actions", token: ptok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActAdvance})},
		{name: "act: player-only by host", method: "POST", path: sp + "/actions", token: started.hostTok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActSleep})},
		{name: "act: forged token", method: "POST", path: sp + "/actions", token: forged(), body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActSleep})},
		{name: "act: forged host token", method: "POST", path: sp + "/actions", token: forged(), body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActAdvance})},
		{name: "act: other game's token", method: "POST", path: sp + "/actions", token: otok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActSleep})},
		{name: "act: other game's host", method: "POST", path: sp + "/actions", token: other.hostTok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActAdvance})},
		{name: "act: lobby token here", method: "POST", path: sp + "/actions", token: ltok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActSleep})},
		{name: "act: no token", method: "POST", path: sp + "/actions", body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActSleep})},
		{name: "act: basic auth", method: "POST", path: sp + "/actions", token: "\x00basic", body: act(`{"id":"h4","type":"sleep"}`)},
		{name: "act: long token", method: "POST", path: sp + "/actions", token: strings.Repeat("t", 257+rng.IntN(4000)), body: act(`{"id":"h5","type":"sleep"}`)},
		{name: "act: lobby start too few", method: "POST", path: lp + "/actions", token: lobby.hostTok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActStart})},
		{name: "act: lobby vote", method: "POST", path: lp + "/actions", token: ltok, body: j(rules.Action{ID: "h" + forged()[:10], Type: rules.ActVote, Target: lid})},
		{name: "act: bad code", method: "POST", path: "/api/games/" + code() + "/actions", token: ptok, body: act(`{"id":"h6","type":"sleep"}`)},
		{name: "act: huge", method: "POST", path: sp + "/actions", token: ptok, body: append(act(`{"id":"h7","type":"sleep","target":"`), bytes.Repeat([]byte("z"), 17<<10+rng.IntN(1<<20))...)},
		{name: "act: form body", method: "POST", path: sp + "/actions", token: ptok, ctype: "application/x-www-form-urlencoded", body: act("id=h8&type=sleep")},
		// Reads with forged or foreign tokens, bad codes, other methods.
		{name: "read: forged token", method: "GET", path: sp, token: forged()},
		{name: "read: forged token, any ETag", method: "GET", path: sp, token: forged(), inm: "*"},
		{name: "read: other game's token", method: "GET", path: sp, token: otok},
		{name: "read: bad code", method: "GET", path: "/api/games/" + code()},
		{name: "read: bad scheme", method: "GET", path: sp, token: "\x00x"},
		{name: "qr: bad code", method: "GET", path: "/api/games/" + code() + "/qr.svg"},
		{name: "method: DELETE game", method: "DELETE", path: sp, token: started.hostTok},
		{name: "method: PUT actions", method: "PUT", path: sp + "/actions", token: ptok, body: act(`{"id":"h9","type":"sleep"}`)},
		{name: "method: PATCH games", method: "PATCH", path: "/api/games", body: act(`{"preset":"sport"}`)},
		{name: "route: unknown", method: "GET", path: "/api/" + forged()},
		{name: "route: traversal", method: "GET", path: "/api/games/../../etc/passwd", notAPI: true},
	}
}

// send makes one hostile request; "basic" tokens starting with NUL are sent as
// a raw Authorization header of another scheme.
func (h hostile) send(ctx context.Context, c *Client) (Response, error) {
	// Client.Do adds "Bearer "; a token starting with NUL is sent verbatim, minus it.
	if strings.HasPrefix(h.token, "\x00") {
		return c.raw(ctx, h.method, h.path, "Basic dXNlcjpwYXNz", h.ctype, h.inm, h.body)
	}
	auth := ""
	if h.token != "" {
		auth = "Bearer " + h.token
	}
	return c.raw(ctx, h.method, h.path, auth, h.ctype, h.inm, h.body)
}

// raw sends a request with the given Authorization and Content-Type headers.
func (c *Client) raw(ctx context.Context, method, path, auth, ctype, inm string, body []byte) (Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return Response{}, err
	}
	if body == nil {
		req.Body = nil
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != nil && ctype != noType {
		if ctype == "" {
			ctype = "application/json"
		}
		req.Header.Set("Content-Type", ctype)
	}
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return Response{Status: resp.StatusCode, Body: data}, err
}

// TestFaultHostileInput sends thousands of malformed, oversized and
// unauthorised requests at once at the running server: malformed JSON, wrong
// types, huge bodies, unknown actions, forged tokens, other games' tokens, bad
// codes and methods. Every one must be refused with a 4xx and a JSON error
// (never a 5xx), the server must log no panic or internal error, and no game's
// version may move. The flood comes from many loopback addresses, as from many
// phones, so that it reaches the handlers through the rate limit; one address
// alone is then cut off with 429.
func TestFaultHostileInput(t *testing.T) {
	t.Parallel()
	target, err := Start(context.Background(), TargetOptions{Store: StoreBolt, Dir: t.TempDir(), RateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	lobby := newLobby(t, target.URL, rules.PresetClassic, 3, 40000)
	started := newTable(t, target.URL, rules.PresetSport, 10, 40010)
	other := newTable(t, target.URL, rules.PresetSport, 10, 40030)
	locked := newLobby(t, target.URL, rules.PresetClassic, 2, 40050)
	hostAct(t, locked, rules.Action{ID: "lock", Type: rules.ActLock})
	banned := "banned-device-" + strconv.Itoa(rand.IntN(1e9))
	troll := joinAs(t, target.URL, lobby.code, "Troll", banned, 40060)
	hostAct(t, lobby, rules.Action{ID: "ban", Type: rules.ActBan, Target: troll})
	tables := []*table{lobby, started, other, locked}
	versions := func() []int64 {
		var out []int64
		for _, tb := range tables {
			out = append(out, tb.view(t, tb.host, tb.hostTok).Version)
		}
		return out
	}
	before := versions()

	rounds := scale(60, 1500)
	rng := rand.New(rand.NewPCG(13, 13))
	var cases []hostile
	for range rounds {
		cases = append(cases, hostileCases(rng, lobby, started, other, locked, banned)...)
	}
	work := make(chan int)
	var mu sync.Mutex
	byStatus := map[string]int{}
	bad := map[string]string{}
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), hungAfter)
	defer cancel()
	const workers = 16
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				// Every request from another loopback address.
				c := NewClient(target.URL, SourceAddr(41000+(w*7919+i)%4000), nil)
				h := cases[i]
				r, err := h.send(ctx, c)
				c.Close()
				mu.Lock()
				switch {
				case err != nil && cutShort(h, err):
				case err != nil:
					bad[h.name] = err.Error()
				case r.Status < 400 || r.Status >= 500:
					bad[h.name] = fmt.Sprintf("status %d: %.200s", r.Status, r.Body)
				default:
					var e APIError
					if !h.notAPI && (json.Unmarshal(r.Body, &e) != nil || e.Error.Code == "" || e.Error.Message == "") && r.Status != http.StatusRequestHeaderFieldsTooLarge {
						bad[h.name] = fmt.Sprintf("status %d without a JSON error: %.200s", r.Status, r.Body)
					}
				}
				byStatus[fmt.Sprintf("%d", r.Status)]++
				mu.Unlock()
			}
		}()
	}
	start := time.Now()
	for i := range cases {
		work <- i
	}
	close(work)
	wg.Wait()
	took := time.Since(start)

	// One address alone, far over the local server's per-client limit.
	one := NewClient(target.URL, SourceAddr(45999), nil)
	defer one.Close()
	limited := 0
	for range 300 {
		r, err := one.raw(ctx, "GET", "/api/games/"+started.code, "Bearer "+base64.RawURLEncoding.EncodeToString([]byte("forged token 123")), "", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status >= 500 || r.Status < 400 {
			t.Errorf("flood from one address: status %d %s", r.Status, r.Body)
			break
		}
		if r.Status == http.StatusTooManyRequests {
			limited++
		}
	}

	after := versions()
	t.Logf("%d hostile requests (%d kinds) in %v from %d workers: statuses %v; one address flooding got %d × 429",
		len(cases), len(cases)/rounds, took.Round(time.Millisecond), workers, byStatus, limited)
	for name, why := range bad {
		t.Errorf("%s: %s", name, why)
	}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("game %s: version moved from %d to %d", tables[i].code, before[i], after[i])
		}
	}
	if limited == 0 {
		t.Error("300 requests at once from one address were never rate limited")
	}
	for msg, n := range target.Logged.Map() {
		if strings.HasPrefix(msg, "ERROR") {
			t.Errorf("server logged %d × %q", n, msg)
		}
	}
	// A stranger joins and leaves in a loop from many addresses at once: the
	// game gives 40 seats at once and then one every 6 s (429 join_limited),
	// and stays as small as it was (issue 12: 1,500 cycles made a 100 KB view).
	churned := newLobby(t, target.URL, rules.PresetParty, 9, 46000)
	sizeBefore, _ := target.Meter.ItemSize(churned.code)
	cycles := scale(400, 3000)
	var joined, refused atomic.Int64
	churnWork := make(chan int)
	var churners sync.WaitGroup
	churnStart := time.Now()
	for range workers {
		churners.Go(func() {
			for i := range churnWork {
				c := NewClient(target.URL, SourceAddr(47000+i%4000), nil)
				r, err := c.JSON(ctx, "", http.MethodPost, "/api/games/"+churned.code+"/players", "",
					map[string]string{"name": fmt.Sprintf("Troll %d", i), "joinId": fmt.Sprintf("troll-join-%08d", i)})
				var e APIError
				var j Joined
				switch {
				case err != nil:
					t.Errorf("churn %d: %v", i, err)
				case r.Status == http.StatusTooManyRequests && json.Unmarshal(r.Body, &e) == nil && e.Error.Code == "join_limited":
					refused.Add(1)
				case r.Status == http.StatusCreated && json.Unmarshal(r.Body, &j) == nil:
					joined.Add(1)
					if r, err := c.JSON(ctx, "", http.MethodPost, "/api/games/"+churned.code+"/actions", j.Token, rules.Action{ID: "bye", Type: rules.ActLeave}); err != nil || r.Status != http.StatusOK {
						t.Errorf("churn %d: leave: %v %d %s", i, err, r.Status, r.Body)
					}
				default:
					t.Errorf("churn %d: join answered %d %s", i, r.Status, r.Body)
				}
				c.Close()
			}
		})
	}
	for i := range cycles {
		churnWork <- i
	}
	close(churnWork)
	churners.Wait()
	churnTook := time.Since(churnStart)
	sizeAfter, largest := target.Meter.ItemSize(churned.code)
	t.Logf("%d join-and-leave cycles from %d addresses in %v: %d joined, %d refused (join_limited); the game's item %d bytes before, %d after; the largest item of any game %d bytes",
		cycles, min(cycles, 4000), churnTook.Round(time.Millisecond), joined.Load(), refused.Load(), sizeBefore, sizeAfter, largest)
	if allowed := int64(40 + churnTook/(6*time.Second) + 1); joined.Load() > allowed || refused.Load() == 0 {
		t.Errorf("%d joins went through in %v (the game gives %d), %d refused", joined.Load(), churnTook, allowed, refused.Load())
	}
	// The first join with a join id gives the game its key (16 bytes), and
	// the joins set its allowance: a few dozen bytes, once, not per cycle.
	if sizeAfter > sizeBefore+64 || largest > 4096 {
		t.Errorf("the churned game's item went from %d to %d bytes; the largest item is %d", sizeBefore, sizeAfter, largest)
	}

	// The games still work after all that.
	// (Or still in the hand-over after the start, on a quick machine.)
	if v := started.view(t, started.clients[started.ids[0]], started.tokens[started.ids[0]]); v.Phase.Name != rules.PhaseNight && !v.Phase.Closing {
		t.Errorf("started game in phase %s after the flood", v.Phase.Name)
	}
}

// hostAct sends one action of the table's host, which must succeed.
func hostAct(t testing.TB, tb *table, a rules.Action) {
	t.Helper()
	r, err := tb.host.JSON(context.Background(), "", http.MethodPost, "/api/games/"+tb.code+"/actions", tb.hostTok, a)
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("%s: %v %d %s", a.Type, err, r.Status, r.Body)
	}
}

// joinAs seats name from device in the game and returns the player's id.
func joinAs(t testing.TB, base, code, name, device string, source int) string {
	t.Helper()
	c := NewClient(base, SourceAddr(source), nil)
	defer c.Close()
	r, err := c.JSON(context.Background(), "", http.MethodPost, "/api/games/"+code+"/players", "", map[string]string{"name": name, "device": device})
	var j Joined
	if err != nil || r.Status != http.StatusCreated || json.Unmarshal(r.Body, &j) != nil {
		t.Fatalf("join %s: %v %d %s", name, err, r.Status, r.Body)
	}
	return j.PlayerID
}

// newLobby creates a game of preset with n players, not started.
func newLobby(t testing.TB, base, preset string, n, firstSource int) *table {
	t.Helper()
	ctx := context.Background()
	tb := &table{host: NewClient(base, SourceAddr(firstSource), nil), clients: map[string]*Client{}, tokens: map[string]string{}}
	// The tests move these games themselves (step, advance); a night that
	// outlasts any of them keeps a slow machine's clock from moving one mid-test.
	r, err := tb.host.JSON(ctx, "", http.MethodPost, "/api/games", "", map[string]any{"preset": preset, "options": map[string]int{"night": 1800}})
	if err != nil || r.Status != http.StatusCreated {
		t.Fatalf("create: %v %d %s", err, r.Status, r.Body)
	}
	var c Created
	if err := json.Unmarshal(r.Body, &c); err != nil {
		t.Fatal(err)
	}
	tb.code, tb.hostTok = c.Code, c.HostToken
	for i := 1; i <= n; i++ {
		cl := NewClient(base, SourceAddr(firstSource+i), nil)
		r, err := cl.JSON(ctx, "", http.MethodPost, "/api/games/"+tb.code+"/players", "", map[string]string{"name": fmt.Sprintf("Guest %d", i)})
		if err != nil || r.Status != http.StatusCreated {
			t.Fatalf("join: %v %d %s", err, r.Status, r.Body)
		}
		var j Joined
		if err := json.Unmarshal(r.Body, &j); err != nil {
			t.Fatal(err)
		}
		tb.ids = append(tb.ids, j.PlayerID)
		tb.clients[j.PlayerID], tb.tokens[j.PlayerID] = cl, j.Token
	}
	t.Cleanup(func() {
		tb.host.Close()
		for _, c := range tb.clients {
			c.Close()
		}
	})
	return tb
}
