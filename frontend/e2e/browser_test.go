package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"citysleeps/infra/harness/chromium"
)

// browser is one headless Chromium; each page runs in a browser context of its
// own, so each phone has its own localStorage, as separate phones would.
type browser struct {
	ctx context.Context
}

// startBrowser starts Chromium (package chromium), letting pages play
// media without a tap; extra options (flags) come after, and override them.
func startBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := append([]chromedp.ExecAllocatorOption{chromedp.Flag("autoplay-policy", "no-user-gesture-required")}, extra...)
	return &browser{ctx: chromium.Start(t, opts...)}
}

// page is one tab in its own browser context: a phone or the shared screen.
type page struct {
	t      *testing.T
	name   string
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	errs   []string
}

func (b *browser) newPage(t *testing.T, name string, width, height int64) *page {
	t.Helper()
	p := &page{t: t, name: name}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(p.listen))
	p.ctx, p.cancel = ctx, cancel
	t.Cleanup(cancel)
	enableLog := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	})
	timeline := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: timelineJS})
		return err
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height), enableLog, timeline); err != nil {
		t.Fatalf("%s: open page: %v", name, err)
	}
	return p
}

// listen collects the page's script errors and Content-Security-Policy
// violations; the tests fail on any.
func (p *page) listen(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg = "exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
	case *cdplog.EventEntryAdded:
		if e.Entry != nil && strings.Contains(e.Entry.Text, "Content Security Policy") {
			msg = "CSP: " + e.Entry.Text
		}
	}
	if msg != "" {
		p.mu.Lock()
		p.errs = append(p.errs, msg)
		p.mu.Unlock()
	}
}

// checkErrors fails the test if the page has thrown or broken its CSP.
func (p *page) checkErrors() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.errs) > 0 {
		p.t.Fatalf("%s: page errors:\n%s", p.name, strings.Join(p.errs, "\n"))
	}
}

func (p *page) fatalf(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s: %s", p.name, fmt.Sprintf(format, args...))
}

// cdpLimit stops one call to the browser that hangs: an evaluation, a tap or
// a screenshot answers in milliseconds and a navigation or a PDF in seconds,
// even beside a busy core, so only a hung browser takes a minute. What a
// test waits for on a page has its own bound, from what the app promises
// (waitWithin).
const cdpLimit = time.Minute

func (p *page) navigate(url string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		p.fatalf("navigate %s: %v", url, err)
	}
}

func (p *page) reload() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		p.fatalf("reload: %v", err)
	}
}

// eval runs a script in the page and decodes its JSON result into out (which may
// be nil).
func (p *page) eval(script string, out any) {
	p.t.Helper()
	if err := p.tryEval(script, out); err != nil {
		p.fatalf("%v", err)
	}
}

// tryEval is eval that hands its error back.
func (p *page) tryEval(script string, out any) error {
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](script, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("eval %.80q: %w", script, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("eval %.80q: decode %s: %w", script, raw, err)
		}
	}
	return nil
}

// navigating tells an evaluation cut short by the page leaving (a tapped link
// loading another document) from a real failure: a wait asks again.
func navigating(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "navigated or closed") ||
		strings.Contains(msg, "Execution context was destroyed") ||
		strings.Contains(msg, "Cannot find context")
}

// waitFor polls a script until it returns true, for as long as the app
// promises a page takes to show what the game has made (shownWithin).
func (p *page) waitFor(what, script string) {
	p.t.Helper()
	p.waitWithin(what, script, shownWithin)
}

// waitWithin polls a script until it returns true, for at most bound; past
// it the test fails with what the page shows (failed). A poll that meets the
// page loading another document (a tapped link) asks again.
func (p *page) waitWithin(what, script string, bound time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(bound)
	for {
		var ok bool
		if err := p.tryEval("!!("+script+")", &ok); err != nil && !navigating(err) {
			p.fatalf("%v", err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			p.failed("timed out after %v waiting for %s", bound, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// failed ends the test: it saves a screenshot of the page and its text in
// the artifacts directory, and says where beside the reason, the page's
// errors and its text.
func (p *page) failed(format string, args ...any) {
	p.t.Helper()
	name := "failed-" + strings.NewReplacer("/", "-", " ", "-").Replace(p.t.Name()+"-"+p.name)
	p.screenshot(name)
	var text string
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`)); err == nil {
		text = got
	}
	file := filepath.Join(artifactsDir(p.t), name+".txt")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		p.t.Logf("write %s: %v", file, err)
	}
	p.mu.Lock()
	errs := strings.Join(p.errs, "\n")
	p.mu.Unlock()
	p.fatalf("%s (screenshot and text: %s.{png,txt}); page errors: %s\nthe page says:\n%s",
		fmt.Sprintf(format, args...), filepath.Join(artifactsDir(p.t), name), errs, text)
}

// tap clicks the element sel the way a finger would: scrolled to the middle of
// the screen, then a real mouse press and release at its centre. It reports false
// when the element is missing or disabled.
func (p *page) tap(sel string) bool {
	p.t.Helper()
	var at struct {
		OK  bool    `json:"ok"`
		X   float64 `json:"x"`
		Y   float64 `json:"y"`
		Why string  `json:"why"`
	}
	p.eval(fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		if (!el) return {ok: false, why: 'missing'};
		if (el.disabled) return {ok: false, why: 'disabled'};
		el.scrollIntoView({block: 'center', inline: 'center'});
		const r = el.getBoundingClientRect();
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const top = document.elementFromPoint(x, y);
		if (top && top.closest('#wake-card')) return {ok: false, why: 'wake', x, y};
		if (!top || !(el === top || el.contains(top))) return {ok: false, why: 'covered by ' + (top ? top.className : 'nothing')};
		return {ok: true, x, y};
	})()`, sel), &at)
	if at.Why == "wake" {
		// A wake card is up: a finger taps it away first, as a person would.
		ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
			p.fatalf("tap the wake card away: %v", err)
		}
		return false
	}
	if !at.OK {
		return false
	}
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
		p.fatalf("tap %s: %v", sel, err)
	}
	return true
}

// mustTap taps sel, waiting for it to be there as long as a page takes to
// show what the game has made (shownWithin).
func (p *page) mustTap(sel string) {
	p.t.Helper()
	deadline := time.Now().Add(shownWithin)
	for !p.tap(sel) {
		if time.Now().After(deadline) {
			p.failed("cannot tap %s after %v", sel, shownWithin)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tapUntil taps sel until done holds, as a person taps again when nothing
// happened (a button drawn anew under the finger as a poll's view came in):
// each tap gets the app's answer time (answeredWithin) to take effect, and
// the whole as long as a page takes to show a change (shownWithin) more.
func (p *page) tapUntil(sel, what string, done func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(answeredWithin + shownWithin)
	for {
		if p.tap(sel) {
			for wait := time.Now().Add(answeredWithin); time.Now().Before(wait); time.Sleep(100 * time.Millisecond) {
				if done() {
					return
				}
			}
		}
		if done() {
			return
		}
		if time.Now().After(deadline) {
			p.failed("tapped %s and waited for %s past %v", sel, what, answeredWithin+shownWithin)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// typeInto types text into the field sel, key by key.
func (p *page) typeInto(sel, text string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	p.eval(fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = ''; el.dispatchEvent(new Event('input')); })()`, sel), nil)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), text)); err != nil {
		p.fatalf("type into %s: %v", sel, err)
	}
}

// hold presses the element sel and keeps the button down until release is called.
func (p *page) hold(sel string) (release func()) {
	p.t.Helper()
	x, y := p.centre(sel)
	p.finger(input.DispatchMouseEventTypeMouseMoved, x, y, false)
	p.finger(input.DispatchMouseEventTypeMousePressed, x, y, true)
	return func() { p.finger(input.DispatchMouseEventTypeMouseReleased, x, y, false) }
}

// slide does what a finger does to an element on the role card's face, which
// is in the page only while the card is held: it presses the card, slides onto
// sel and lets go there. It reports false, the card let go of where it was
// pressed, when sel does not come up on the face.
func (p *page) slide(sel string) bool {
	p.t.Helper()
	x, y := p.centre(".role-card")
	p.finger(input.DispatchMouseEventTypeMouseMoved, x, y, false)
	p.finger(input.DispatchMouseEventTypeMousePressed, x, y, true)
	var at struct {
		OK   bool
		X, Y float64
	}
	for deadline := time.Now().Add(2 * time.Second); !at.OK && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		p.eval(fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return {OK: false};
			const r = el.getBoundingClientRect(); return {OK: true, X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, sel), &at)
	}
	if !at.OK {
		p.finger(input.DispatchMouseEventTypeMouseReleased, x, y, false)
		return false
	}
	p.finger(input.DispatchMouseEventTypeMouseMoved, at.X, at.Y, true)
	p.finger(input.DispatchMouseEventTypeMouseReleased, at.X, at.Y, false)
	return true
}

// centre scrolls sel into view and returns the middle of its box.
func (p *page) centre(sel string) (x, y float64) {
	p.t.Helper()
	var at struct{ X, Y float64 }
	p.eval(fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.scrollIntoView({block: 'center'});
		const r = el.getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, sel), &at)
	return at.X, at.Y
}

// finger sends one mouse event at x, y as a finger would: down says whether
// the finger is on the glass (the left button held) after it; a release
// lifts it.
func (p *page) finger(typ input.DispatchMouseEventType, x, y float64, down bool) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	ev := chromedp.MouseEvent(typ, x, y, func(e *input.DispatchMouseEventParams) {
		if down || typ == input.DispatchMouseEventTypeMouseReleased {
			e.Button, e.ClickCount = input.MouseButtonLeft, 1
		}
		if down {
			e.Buttons = 1
		}
	})
	if err := chromedp.Do(ctx, ev); err != nil {
		p.fatalf("%s at %.0f,%.0f: %v", typ, x, y, err)
	}
}

// artifactsDir is where screenshots go: $ARTIFACTS_DIR or frontend/e2e/artifacts.
func artifactsDir(t *testing.T) string {
	dir := os.Getenv("ARTIFACTS_DIR")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts dir: %v", err)
	}
	return dir
}

// reviewShots reports whether the tests save the screenshots a person looks
// through to judge the screens (every scene, language and size): in a full
// run (make soak) or with E2E_SHOTS=1. Capturing and encoding them is a
// third of the browser tests' time, and make test (-short) judges the
// screens by their audits alone. A failure saves its own screenshot always.
func reviewShots() bool {
	return !testing.Short() || os.Getenv("E2E_SHOTS") == "1"
}

// review saves what the page shows now for a person's review (reviewShots).
func (p *page) review(name string) {
	p.t.Helper()
	if reviewShots() {
		p.screenshot(name)
	}
}

// screenshot saves what the page shows now as ARTIFACTS_DIR/<name>.png.
func (p *page) screenshot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	// Let the last render and the fonts settle.
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("%s: screenshot %s: %v", p.name, name, err)
		return
	}
	file := filepath.Join(artifactsDir(p.t), name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatalf("write %s: %v", file, err)
	}
}

// scrollTop scrolls the page back to its top (before a screenshot).
func (p *page) scrollTop() {
	p.eval(`window.scrollTo(0, 0)`, nil)
}
