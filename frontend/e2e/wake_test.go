package e2e

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// wakeHost is a name for the test server that is not loopback to Chromium:
// there, as on a party's Wi-Fi (`make run`'s http://192.168.x.y), a page is
// not a secure context and has no Screen Wake Lock. (127.0.0.1 and localhost
// count as secure.) The browser resolves it to the server's 127.0.0.1.
const wakeHost = "citysleeps.test"

// strictPlayJS makes the page's video play only within a tap, as WebKit lets
// the unmuted video that keeps an iPhone on play, and counts the refusals;
// and it counts the Screen Wake Locks granted. Chromium would let the muted
// one play at once.
const strictPlayJS = `(() => {
	window.__refusedPlays = 0;
	const play = HTMLMediaElement.prototype.play;
	HTMLMediaElement.prototype.play = function () {
		if (navigator.userActivation.isActive) return play.call(this);
		window.__refusedPlays++;
		return Promise.reject(new DOMException('not without a tap', 'NotAllowedError'));
	};
	window.__locks = 0;
	if (navigator.wakeLock) {
		const request = navigator.wakeLock.request.bind(navigator.wakeLock);
		navigator.wakeLock.request = (type) => request(type).then((l) => { window.__locks++; return l; });
	}
})()`

// wakeShown is what a script finds of the video that keeps the screen on.
type wakeShown struct {
	Opacity, Position, PointerEvents, AriaHidden string
	Area                                         float64
	Controls, Title, Hit, Muted, Stream          bool
	Tracks                                       int
	Ratio                                        float64 // of the element in the viewport
}

const wakeShownJS = `new Promise((done) => {
	const v = document.getElementById('keep-awake');
	const cs = getComputedStyle(v), r = v.getBoundingClientRect();
	const shown = {Opacity: cs.opacity, Position: cs.position, PointerEvents: cs.pointerEvents, AriaHidden: v.getAttribute('aria-hidden') || '',
		Area: r.width * r.height, Controls: v.controls, Title: !!v.title, Muted: v.muted,
		Hit: [[0, 0], [r.left + r.width / 2, r.top + r.height / 2]].some(([x, y]) => document.elementFromPoint(x, y) === v),
		Stream: v.srcObject instanceof MediaStream, Tracks: v.srcObject ? v.srcObject.getTracks().filter((t) => t.readyState === 'live').length : 0};
	// Chromium's own test for a video to keep the screen on (VideoWakeLock):
	// more than three quarters of it in the viewport.
	const io = new IntersectionObserver((es) => { io.disconnect(); shown.Ratio = es[es.length - 1].intersectionRatio; done(shown); }, {threshold: [0.75]});
	io.observe(v);
})`

// TestWakeOnInsecureOrigin: a phone on plain http from the LAN, where the
// browser has no Screen Wake Lock, keeps its screen on while a game is in play
// with a video that shows nothing: it waits for the first tap when the browser
// will not play it before (as WebKit, for the unmuted video it needs), plays
// from that tap on, is a transparent pixel that no tap hits and that
// assistive technology skips, and is gone at game over, for good. The same
// page on a secure origin takes the Wake Lock and makes no video.
func TestWakeOnInsecureOrigin(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t,
		chromedp.Flag("host-resolver-rules", "MAP "+wakeHost+" 127.0.0.1"),
		// Chromium's own policy, not the harness's "no gesture required".
		chromedp.Flag("autoplay-policy", "document-user-activation-required"))
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	lan := "http://" + wakeHost + ":" + u.Port()

	g := servicetest.NewGame(t, srv.svc, service.CreateRequest{Preset: rules.PresetClassic, Lang: "en"}, 7)
	g.Start(t, srv.svc)
	var town []servicetest.Seat
	var blacks []string
	for _, p := range g.Players {
		if v := srv.view(t, g.Code, p.Token); v.You.Role.Team() == rules.MafiaTeam {
			blacks = append(blacks, p.ID)
		} else {
			town = append(town, p)
		}
	}

	// open loads the page of seat me at origin on p, and waits for the game.
	open := func(p *page, origin string, me servicetest.Seat) {
		p.navigate(origin + "/favicon.svg") // localStorage belongs to the origin
		p.eval(fmt.Sprintf(`(() => { localStorage.clear(); localStorage.setItem('cs.lang', '"en"');
			localStorage.setItem('cs.seat.%s', %q); return true; })()`, g.Code, fmt.Sprintf(`{"playerId":%q,"token":%q,"name":%q}`, me.ID, me.Token, me.Name)), nil)
		p.navigate(origin + "/join/" + g.Code)
		p.waitFor("the game in play", `document.querySelector('main[data-phase]:not([data-phase=lobby]):not([data-phase=game_over])')`)
	}
	// phone is Chromium as it is (Android's engine); iphone says it is
	// Apple's (navigator.vendor), to take the page's WebKit way.
	phone := b.newPage(t, "phone", 390, 844)
	iphone := b.newPage(t, "iphone", 390, 844)
	beforeScripts(t, phone, strictPlayJS)
	beforeScripts(t, iphone, strictPlayJS, `Object.defineProperty(Navigator.prototype, 'vendor', {get: () => 'Apple Computer, Inc.'})`)

	// On a secure origin (127.0.0.1), the Wake Lock, and no video.
	open(phone, srv.URL, town[0])
	phone.waitFor("the Wake Lock", `window.isSecureContext && window.__locks > 0`)
	phone.mustTap(`.phase-title`)
	var has bool
	if phone.eval(`!!document.getElementById('keep-awake')`, &has); has {
		t.Error("a secure page holding the Wake Lock makes the video too")
	}

	// On the LAN's plain http: no Wake Lock, and the video waits for a tap.
	for i, p := range []*page{phone, iphone} {
		open(p, lan, town[i])
		var secure struct{ Secure, WakeLock bool }
		p.eval(`({Secure: window.isSecureContext, WakeLock: 'wakeLock' in navigator})`, &secure)
		if secure.Secure || secure.WakeLock {
			t.Fatalf("%s is a secure context (%v) or has the Wake Lock (%v): it tests nothing", lan, secure.Secure, secure.WakeLock)
		}
		p.waitFor("the video, refused before a tap", `document.getElementById('keep-awake') && window.__refusedPlays > 0`)
		var paused bool
		if p.eval(`document.getElementById('keep-awake').paused`, &paused); !paused {
			t.Errorf("%s: the video plays before a tap, though the browser refused it", p.name)
		}
		checkShowsNothing(t, p)
	}

	// The first tap, anywhere, starts it.
	for _, p := range []*page{phone, iphone} {
		p.mustTap(`.phase-title`)
		p.waitFor("the video playing after the tap", `(() => { const v = document.getElementById('keep-awake');
			return v && !v.paused && v.readyState >= 2 && v.videoWidth === 1; })()`)
	}
	// Chromium keeps the screen on for a muted stream mostly in view.
	if s := checkShowsNothing(t, phone); !s.Muted || !s.Stream || s.Tracks != 1 || s.Ratio <= 0.75 {
		t.Errorf("phone: the video is muted %v, a stream %v with %d live tracks, %.2f of it in view; want a muted stream of one track, in view as Chromium's video wake lock asks",
			s.Muted, s.Stream, s.Tracks, s.Ratio)
	}
	// WebKit keeps it on for a video with sound only: a silent track, unmuted.
	if s := checkShowsNothing(t, iphone); s.Muted || !s.Stream || s.Tracks != 2 {
		t.Errorf("iphone: the video is muted %v, a stream %v with %d live tracks; want an unmuted stream of a picture and a (silent) sound", s.Muted, s.Stream, s.Tracks)
	}
	// It plays on while the game goes on, through the views the phone polls.
	time.Sleep(2 * time.Second)
	for _, p := range []*page{phone, iphone} {
		if p.eval(`!document.getElementById('keep-awake').paused`, &has); !has {
			t.Errorf("%s: the video stopped while the game is in play", p.name)
		}
		p.eval(`(() => { window.__wake = document.getElementById('keep-awake'); window.__tracks = __wake.srcObject.getTracks(); return true; })()`, nil)
	}

	// Game over: the host removes the mafia, the town wins.
	for _, id := range blacks {
		servicetest.EndHandOver(t, srv.svc, g)
		if srv.view(t, g.Code, "").Phase.Name == rules.PhaseGameOver {
			break
		}
		srv.act(t, g.Code, g.Host, rules.Action{ID: servicetest.ActionID(), Type: rules.ActRemove, Target: id})
	}
	for i := 0; srv.view(t, g.Code, "").Phase.Name != rules.PhaseGameOver; i++ {
		if i > 5 {
			t.Fatalf("no game over after the mafia was removed: %s", srv.view(t, g.Code, "").Phase.Name)
		}
		servicetest.EndHandOver(t, srv.svc, g)
	}
	for _, p := range []*page{phone, iphone} {
		p.waitFor("the game over", `document.querySelector('main[data-phase=game_over]')`)
		p.waitFor("the video stopped and gone", `!document.querySelector('video') && __wake.paused && !__wake.isConnected && !__wake.srcObject
			&& __tracks.every((t) => t.readyState === 'ended')`)
		// A tap after the game makes no new one.
		p.tap(`.phase-title`)
	}
	time.Sleep(500 * time.Millisecond)
	for _, p := range []*page{phone, iphone} {
		if p.eval(`!!document.querySelector('video')`, &has); has {
			t.Errorf("%s: a tap after the game over started the video again", p.name)
		}
		p.checkErrors()
	}
}

// beforeScripts has p run scripts before each page's own.
func beforeScripts(t *testing.T, p *page, scripts ...string) {
	t.Helper()
	for _, js := range scripts {
		add := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: js})
			return err
		})
		if err := chromedp.Do(p.ctx, add); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
	}
}

// checkShowsNothing fails t when the video that keeps the screen on can be
// seen, tapped, laid out or read out, and returns what it found.
func checkShowsNothing(t *testing.T, p *page) wakeShown {
	t.Helper()
	var s wakeShown
	p.eval(wakeShownJS, &s)
	if s.Opacity != "0" || s.Area > 1 || s.Controls || s.Title {
		t.Errorf("the video can be seen: opacity %s, %.1f px², controls %v, a title %v", s.Opacity, s.Area, s.Controls, s.Title)
	}
	if s.Position != "fixed" || s.PointerEvents != "none" || s.Hit {
		t.Errorf("the video takes a place in the layout (%s) or a tap (pointer-events %s, hit %v)", s.Position, s.PointerEvents, s.Hit)
	}
	// Out of the accessibility tree, as Chromium builds it.
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`#keep-awake`)))
	if err != nil || len(nodes) != 1 {
		t.Fatalf("the video's node: %v (%d)", err, len(nodes))
	}
	no := false
	ax, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: nodes[0].BackendNodeID, FetchRelatives: &no})
	if err != nil {
		t.Fatalf("the video's accessibility node: %v", err)
	}
	for _, n := range ax.Nodes {
		if n.BackendDOMNodeID == nodes[0].BackendNodeID && !n.Ignored {
			t.Errorf("the video is in the accessibility tree (aria-hidden %q)", s.AriaHidden)
		}
	}
	if s.AriaHidden != "true" {
		t.Errorf("the video has aria-hidden %q", s.AriaHidden)
	}
	return s
}
