package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// TestModeratedScreen makes a game a person moderates on the TV, as the
// README's first step says, and follows its cards: asked what it is, the TV
// says "a screen everyone sees" and becomes the shared screen, which reads
// only the public view and never draws a card; it hands the console to the
// moderator's phone as a QR code, put on the page only once asked for and
// confirmed. The console opened from it offers the shared screen's link up
// front and keeps every card and night choice out of its page until the
// moderator switches them on, with a warning at the deal.
func TestModeratedScreen(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	tv := b.newPage(t, "TV", 1280, 800)
	tv.navigate(srv.URL + "/")
	tv.waitFor("the home screen", `document.querySelector('form.new-game')`)
	tv.mustTap(`input[name=preset][value=classic]`)
	tv.mustTap(`input[name=moderator][value=host]`)
	tv.mustTap(`[data-action=create]`)
	tv.waitFor("the question", `document.querySelector('[data-screen=device] [data-device=screen]')`)
	if got := tv.audit("en", nil); len(got) != 0 {
		t.Errorf("the device question: %v", got)
	}
	tv.review("moderated-device-question")
	tv.mustTap(`[data-action=device][data-device=screen]`)
	tv.waitFor("the shared screen's lobby", `location.hash.startsWith('#screen=') && document.querySelector('main[data-phase=lobby] img.qr')`)
	var code string
	tv.eval(`location.hash.slice('#screen='.length)`, &code)
	var token string
	tv.eval(fmt.Sprintf(`JSON.parse(localStorage.getItem('cs.console.' + %q))`, code), &token)
	if token == "" {
		t.Fatal("the TV kept no host token to hand the console on")
	}
	// Kept apart from the host's pages' tokens: no address opens the console
	// on the TV without the token in it.
	tv.navigate(srv.URL + "/?again=1#host=" + code)
	tv.waitFor("the TV's page of the host's address", `document.querySelector('main[data-phase=lobby]')`)
	if tv.has(`main.console`) {
		t.Fatal("the host's address without its token opens the console on the TV")
	}
	tv.navigate(srv.URL + "/?again=2#screen=" + code)
	tv.waitFor("the shared screen again", `document.querySelector('[data-action=show_console]')`)
	inPage := func() bool {
		d := tv.dump()
		return strings.Contains(d.Markup, token) || strings.Contains(d.Text, token)
	}

	// The console's code, behind a confirmation.
	if inPage() {
		t.Fatal("the console's link is on the TV before anyone asked for it")
	}
	tv.eval(`window.confirm = () => false`, nil)
	tv.mustTap(`[data-action=show_console]`)
	if inPage() || tv.has(`.console-offer img`) {
		t.Fatal("the console's link is on the TV after the host said no")
	}
	tv.eval(`window.confirm = () => true`, nil)
	tv.mustTap(`[data-action=show_console]`)
	tv.waitFor("the console's code", `document.querySelector('.console-offer img[src^="data:image/svg+xml"]') && document.querySelector('[data-action=hide_console]')`)
	if !inPage() {
		t.Fatal("the console's link is not on the TV once asked for")
	}
	var link string
	tv.eval(`document.querySelector('.console-offer input').value`, &link)
	if want := srv.URL + "/#host=" + code + "&t=" + token; link != want {
		t.Errorf("the console's link is %q, want %q", link, want)
	}
	if got := tv.audit("en", []string{code}); len(got) != 0 {
		t.Errorf("the TV with the console's code: %v", got)
	}
	tv.review("moderated-console-offer")
	tv.mustTap(`[data-action=hide_console]`)
	tv.waitFor("the code hidden", `document.querySelector('[data-action=show_console]')`)
	if inPage() {
		t.Fatal("the console's link stays on the TV after it is hidden")
	}

	// A table of five, and the moderator's phone, which scanned the code.
	var players []string
	for _, name := range names[:5] {
		j, err := srv.svc.Join(context.Background(), code, service.JoinRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, j.Token)
	}
	if n := hostReads(srv, token); n != 0 {
		t.Fatalf("the TV read the host's view %d times", n)
	}
	console := b.newPage(t, "moderator's phone", 390, 844)
	console.navigate(link)
	console.waitFor("the console's lobby", `document.querySelector('main.console[data-phase=lobby] .screen-panel img.small-qr')`)
	var screenQR, screenLink string
	console.eval(`document.querySelector('.screen-panel img.small-qr').getAttribute('src') + ' ' + document.querySelector('.screen-panel input').value`, &screenQR)
	screenQR, screenLink, _ = strings.Cut(screenQR, " ")
	if screenQR != "/api/games/"+code+"/qr.svg?link=screen" || screenLink != srv.URL+"/#screen="+code {
		t.Errorf("the console offers the shared screen as %q and %q", screenQR, screenLink)
	}
	for _, problem := range console.audit("en", append([]string{code}, names...)) {
		t.Errorf("the console's lobby on a phone: %s", problem)
	}
	console.review("moderated-console-lobby")
	console.mustTap(`[data-action=start]`)

	// The deal: the console warns and shows no card; the TV never does.
	console.waitFor("the deal's warning", `document.querySelector('.cards-panel.warned [role=status]') && document.querySelector('[data-action=cards][aria-pressed=false]')`)
	noCards := func(p *page, when string) {
		t.Helper()
		var n int
		p.eval(`document.querySelectorAll('[data-role], .night-choices li').length`, &n)
		if n != 0 {
			t.Errorf("%s: %s shows %d cards or night choices", when, p.name, n)
		}
	}
	noCards(console, "the deal")
	tv.waitFor("the TV at the deal", `document.querySelector('main[data-phase]').dataset.closing`)
	noCards(tv, "the deal")
	tv.waitFor("the night", phase("night")+` && !document.querySelector('main').dataset.closing`)
	noCards(tv, "night 1")
	for _, p := range players {
		if _, err := srv.svc.Act(context.Background(), code, p, rules.Action{ID: "sleep-" + p[:8], Type: rules.ActSleep}); err != nil {
			t.Fatal(err)
		}
	}
	tv.waitFor("the day", phase("day"))
	noCards(tv, "day 1")
	console.waitFor("the day on the console", phase("day"))
	noCards(console, "day 1, the cards hidden")
	// A tap that lands as the console redraws is lost, as a finger's would
	// be: the moderator taps again.
	shows := console.shows
	console.tapUntil(`[data-action=cards]`, "the cards", shows(`document.querySelectorAll('.seats-panel [data-role]').length === 5 && !document.querySelector('.cards-panel.warned')`))
	for _, problem := range console.audit("en", append([]string{code}, names...)) {
		t.Errorf("the console with its cards on a phone: %s", problem)
	}
	console.scrollTop()
	console.review("moderated-console-cards")
	console.tapUntil(`[data-action=cards]`, "the cards hidden again", shows(`document.querySelectorAll('[data-role]').length === 0`))
	noCards(tv, "day 1")
	if n := hostReads(srv, token); n == 0 {
		t.Error("the console never read the host's view")
	}

	// The TV remembers what it is: its way back goes to the shared screen.
	tv.navigate(srv.URL + "/")
	tv.waitFor("the way back", `document.querySelector('.resume a')`)
	var back string
	tv.eval(`document.querySelector('.resume a').getAttribute('href')`, &back)
	if back != "/#screen="+code {
		t.Errorf("the TV's way back is %q, want its shared screen", back)
	}
	for _, p := range []*page{tv, console} {
		p.checkErrors()
	}
}

// shows returns a tapUntil condition: script holds on the page.
func (p *page) shows(script string) func() bool {
	return func() bool {
		var ok bool
		p.eval("!!("+script+")", &ok)
		return ok
	}
}

// has reports whether the page has an element sel.
func (p *page) has(sel string) bool {
	p.t.Helper()
	var ok bool
	p.eval(fmt.Sprintf(`!!document.querySelector(%q)`, sel), &ok)
	return ok
}

// hostReads counts the views read with the host's token so far: a shared
// screen reads none.
func hostReads(srv *testServer, token string) int {
	exs, _ := srv.rec.since(0)
	n := 0
	for _, ex := range exs {
		if ex.Method == "GET" && ex.Token == token && !strings.HasSuffix(ex.Path, "/qr.svg") {
			n++
		}
	}
	return n
}
