package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// TestPaddedTrafficAtNight: through TLS, anyone on the table's Wi-Fi sees how
// long each phone's requests and answers are. Unpadded, a tap's body says
// whether it slept, shot or checked, and a view's length says whose card it
// shows. Phones of four cards — a citizen, a mafia, the Don and the Sheriff —
// are on the first night's page of a sport game in Chromium, and tap in turn
// (a sleep, two shots and a check). From Chromium's own network events it
// checks that every tap's body is as long as every other's and is the act
// tapped, and that at every revision every phone's answer (a poll's view, or
// its own tap's) is as many bytes as Chromium received for every other's,
// headers and gzipped body; every phone drew its page from those answers, so
// Chromium inflates the padded gzip.
func TestPaddedTrafficAtNight(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	svc := srv.svc
	g := table(t, svc, service.CreateRequest{Preset: "sport", Lang: "en", Options: json.RawMessage(`{"firstNightMeeting":false}`)}, names)
	g.Start(t, svc)

	// One phone of each card that acts differently tonight, and what it taps.
	byRole := map[rules.Role]servicetest.Seat{}
	role := map[string]rules.Role{}
	for _, p := range g.Players {
		r := servicetest.MustRead(t, svc, g.Code, p.Token).You.Role
		role[p.ID] = r
		if byRole[r].ID == "" {
			byRole[r] = p
		}
	}
	type phone struct {
		seat servicetest.Seat
		page *page
		net  *traffic
		act  rules.ActionType
	}
	var phones []*phone
	for _, c := range []struct {
		role rules.Role
		act  rules.ActionType
	}{{rules.Citizen, rules.ActSleep}, {rules.Mafia, rules.ActKill}, {rules.Don, rules.ActKill}, {rules.Sheriff, rules.ActCheck}} {
		p := &phone{seat: byRole[c.role], act: c.act, page: b.newPage(t, string(c.role), 390, 844)}
		p.net = watch(p.page)
		p.page.navigate(srv.URL + "/favicon.svg") // localStorage belongs to the origin
		for k, v := range seat(g.Code, p.seat) {
			val, _ := json.Marshal(v)
			p.page.eval(fmt.Sprintf(`(() => { localStorage.setItem('cs.lang', '"en"'); localStorage.setItem(%q, %q); return true; })()`, k, val), nil)
		}
		p.page.navigate(srv.URL + "/join/" + g.Code)
		phones = append(phones, p)
	}
	version := func() int64 { return servicetest.MustRead(t, svc, g.Code, g.Host).Version }
	// seen waits until every phone has had an answer of the game's current
	// revision: a tap's or a poll's.
	seen := func(what string) {
		rev := fmt.Sprintf(`W/"%d.0-`, version())
		for _, p := range phones {
			waitUntil(t, p.page.name+" gets the view after "+what, func() bool { return p.net.has(rev) })
		}
	}
	for _, p := range phones {
		p.page.waitFor("the night's seats", `document.querySelector('[data-screen=night] [data-action=confirm]')`)
	}
	seen("nightfall")
	// Every phone names the same citizen, one without a phone here: a seat
	// every card's act may take.
	var target string
	for _, p := range g.Players {
		if role[p.ID] == rules.Citizen && p.ID != byRole[rules.Citizen].ID {
			target = p.ID
		}
	}
	for _, p := range phones {
		p.page.mustTap(fmt.Sprintf(`[data-screen=night] [data-target=%q]`, target))
		p.page.mustTap(`[data-screen=night] [data-action=confirm]`)
		waitUntil(t, p.page.name+"'s tap", func() bool { return len(p.net.taps()) == 1 })
		seen(p.page.name + "'s tap")
	}

	var length int
	for _, p := range phones {
		tap := p.net.taps()[0]
		var a rules.Action
		if err := json.Unmarshal(tap, &a); err != nil || a.Type != p.act {
			t.Errorf("%s tapped %q (%v), want a %s", p.page.name, tap, err, p.act)
		}
		if length == 0 {
			length = len(tap)
		}
		if bare := bytes.TrimRight(tap, " "); len(tap) != length || !bytes.HasSuffix(bare, []byte("}")) {
			t.Errorf("%s's %s is %d bytes (%q), another tap %d: taps must be one length, JSON and spaces", p.page.name, p.act, len(tap), tap, length)
		}
	}
	// Every revision every phone was answered at, answered alike.
	revisions := 0
	for rev, first := range phones[0].net.answers() {
		for _, p := range phones[1:] {
			a, ok := p.net.answers()[rev]
			if !ok {
				continue
			}
			if a.wire != first.wire || a.length != first.length || a.encoding != "gzip" || first.encoding != "gzip" {
				t.Errorf("revision %s: %s got %.0f bytes (Content-Length %s, %s), %s %.0f (Content-Length %s, %s)",
					rev, p.page.name, a.wire, a.length, a.encoding, phones[0].page.name, first.wire, first.length, first.encoding)
			}
			revisions++
		}
	}
	if want := 5 * (len(phones) - 1); revisions < want {
		t.Errorf("%d answers compared with the citizen's, want at least %d (nightfall and each tap)", revisions, want)
	}
	for _, p := range phones {
		p.page.checkErrors()
	}
}

// traffic is what Chromium's network events tell of one page's API calls.
type traffic struct {
	mu   sync.Mutex
	reqs map[network.RequestID]*call
}

// call is one API request and its answer.
type call struct {
	method, path string
	body         []byte
	etag         string
	status       int64
	length       string // Content-Length
	encoding     string // Content-Encoding
	wire         float64
	done         bool
}

// answer is a view as it came over the network.
type answer struct {
	wire             float64 // bytes received, headers and body
	length, encoding string
}

// watch records the API calls of page p from now on.
func watch(p *page) *traffic {
	tr := &traffic{reqs: map[network.RequestID]*call{}}
	if err := chromedp.Listen(p.ctx, tr.event); err != nil {
		p.fatalf("listen: %v", err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	enable := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
		return err
	})
	if err := chromedp.Do(ctx, enable); err != nil {
		p.fatalf("enable network events: %v", err)
	}
	return tr
}

func (tr *traffic) event(ev any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if i := strings.Index(e.Request.URL, "/api/"); i >= 0 {
			c := &call{method: e.Request.Method, path: e.Request.URL[i:]}
			for _, d := range e.Request.PostDataEntries {
				c.body = append(c.body, d.Bytes...)
			}
			tr.reqs[e.RequestID] = c
		}
	case *network.EventResponseReceived:
		if c := tr.reqs[e.RequestID]; c != nil {
			h := func(name string) string {
				for k, v := range e.Response.Headers {
					if s, ok := v.(string); ok && strings.EqualFold(k, name) {
						return s
					}
				}
				return ""
			}
			c.status, c.etag, c.length, c.encoding = e.Response.Status, h("ETag"), h("Content-Length"), h("Content-Encoding")
		}
	case *network.EventLoadingFinished:
		if c := tr.reqs[e.RequestID]; c != nil {
			c.wire, c.done = e.EncodedDataLength, true
		}
	}
}

// taps are the bodies of the page's actions.
func (tr *traffic) taps() [][]byte {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out [][]byte
	for _, c := range tr.reqs {
		if c.method == "POST" && strings.HasSuffix(c.path, "/actions") && c.done {
			out = append(out, c.body)
		}
	}
	return out
}

// answers are the views the page got, a poll's or a tap's, by the revision
// their ETag names.
func (tr *traffic) answers() map[string]answer {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := map[string]answer{}
	for _, c := range tr.reqs {
		if c.done && c.status == 200 && c.etag != "" {
			rev, _, _ := strings.Cut(c.etag, "-")
			out[rev] = answer{wire: c.wire, length: c.length, encoding: c.encoding}
		}
	}
	return out
}

// has reports whether the page got a view whose ETag starts with prefix.
func (tr *traffic) has(prefix string) bool {
	for rev := range tr.answers() {
		if strings.HasPrefix(rev+"-", prefix) {
			return true
		}
	}
	return false
}
