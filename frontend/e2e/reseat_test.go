package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// TestReseat moves a seat to another phone mid-night, from a moderator's
// console (Russian, sport) and from the host's screen of a game the app
// moderates (English, classic): the host opens "A phone died?", picks the
// seat and confirms; the page shows the link as a QR code, and nothing else
// that went over the network or is on the public screen or the old phone
// holds the key. A fresh browser (the new phone) opens the link, takes the
// seat without typing anything, keeps no key in its address, shows the
// night and, pressed and held, the seat's card. On its next poll the old
// phone says it has lost its seat, and asks nothing more; the console's code
// goes once the seat is taken, and the used link opened again says it holds
// no seat. The new screens are audited in the four languages.
func TestReseat(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	s := newStudio(t, srv, b)
	for _, tc := range []struct {
		name    string
		req     service.CreateRequest
		players int
	}{
		{"console", service.CreateRequest{Preset: "sport", Moderator: rules.ModeratorHost, Lang: "ru"}, 10},
		{"host-screen", service.CreateRequest{Preset: "classic", Lang: "en"}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			g := table(t, srv.svc, tc.req, tableNames[:tc.players])
			s.allow = append(append([]string{}, tableNames...), g.Code)
			reseatAtNight(t, s, b, g, tc.name)
		})
	}
}

// reseatAtNight plays TestReseat in game g, which it starts: scene names the
// screenshots.
func reseatAtNight(t *testing.T, s *studio, b *browser, g servicetest.Game, scene string) {
	srv := s.srv
	srv.act(t, g.Code, g.Host, rules.Action{ID: "start", Type: rules.ActStart})
	srv.act(t, g.Code, g.Host, rules.Action{ID: "dealt", Type: rules.ActAdvance, Now: true})
	night := srv.view(t, g.Code, "")
	if night.Phase.Name != rules.PhaseNight {
		t.Fatalf("after the deal: %s", night.Phase.Name)
	}
	old := g.Players[3]
	seatView := srv.view(t, g.Code, old.Token)
	card := seatView.You
	atNight := fmt.Sprintf(`document.querySelector('main[data-phase=night][data-night="%d"]')`, night.Phase.Night)

	public := b.newPage(t, "public screen", 1280, 800)
	public.navigate(srv.URL + "/#screen=" + g.Code)
	public.waitFor("the public night", atNight)
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, old), atNight+` && document.querySelector('.role-card')`)
	s.open(s.screen, "/#host="+g.Code+"&t="+g.Host, nil, atNight+` && document.querySelector('details.reseat')`)
	s.screen.eval(`window.confirm = () => true`, nil) // "are you sure?" says yes

	s.screen.mustTap(`details.reseat summary`)
	pick := fmt.Sprintf(`.targets[data-task=reseat] [data-target=%q]`, old.ID)
	s.screen.waitFor("the seats to move", `document.querySelector('details.reseat[open] `+pick+`')`)
	s.capture(s.screen, scene+"-reseat-pick", `document.querySelector('details.reseat[open]')`)
	seen, _ := srv.rec.since(0)
	s.screen.mustTap(pick)
	qr := `document.querySelector('[data-screen=reseat] img.qr') && document.querySelector('[data-screen=reseat] img.qr').complete`
	s.screen.waitFor("the code to scan", qr)
	link := reseatLink(t, srv, g.Host, len(seen))
	if link.Target != old.ID || !strings.Contains(link.URL, "/join/"+g.Code+"#seat="+link.Key) {
		t.Fatalf("the link %+v, for %s", link, old.ID)
	}
	var src string
	s.screen.eval(`document.querySelector('[data-screen=reseat] img.qr').getAttribute('src')`, &src)
	if src != link.QR {
		t.Errorf("the page shows another picture than the answer's: %.60q", src)
	}
	for name, p := range map[string]*page{"the public screen": public, "the old phone": s.phone} {
		var html string
		p.eval(`document.documentElement.outerHTML + JSON.stringify(localStorage) + location.href`, &html)
		if strings.Contains(html, link.Key) {
			t.Errorf("%s holds the seat key", name)
		}
	}
	s.capture(s.screen, scene+"-reseat-qr", qr)

	// Where the app moderates, the seat's player knows the seat's code from
	// their card, as a person remembers it: held, it shows the code.
	var seatCode string
	if night.Moderator == rules.ModeratorApp {
		release := s.phone.hold(`.role-card`)
		s.phone.waitFor("the seat code on the held card", `document.querySelector('.card-face .seat-code')`)
		s.phone.eval(`(document.querySelector('.card-face .seat-code').textContent.match(/\d{6}/) || [''])[0]`, &seatCode)
		release()
		if seatCode != card.SeatCode {
			t.Fatalf("the held card shows the seat code %q, the seat's is %q", seatCode, card.SeatCode)
		}
	}

	// The new phone: a browser that never saw the game.
	fresh := b.newPage(t, "new phone", 390, 844)
	fresh.navigate(link.URL)
	if seatCode != "" {
		// The link alone takes no seat: whoever scanned the shared screen
		// first, or the creator, learns no card by it.
		fresh.waitFor("the seat code asked for", `document.querySelector('[data-screen=seat_code] input#seat-code')`)
		s.capture(fresh, scene+"-seat-code", `document.querySelector('[data-screen=seat_code]')`)
		if v := srv.view(t, g.Code, old.Token); v.You == nil {
			t.Fatal("the link alone moved the seat")
		}
		fresh.typeInto(`input#seat-code`, seatCode)
		fresh.mustTap(`[data-screen=seat_code] button[type=submit]`)
	}
	fresh.waitFor("the new phone at night", atNight+` && document.querySelector('.role-card')`)
	var address, kept string
	fresh.eval(`location.href`, &address)
	fresh.eval(`localStorage.getItem('cs.seat.`+g.Code+`')`, &kept)
	if strings.Contains(address, link.Key) || strings.Contains(kept, old.Token) || !strings.Contains(kept, `"playerId":"`+old.ID+`"`) {
		t.Errorf("the new phone is at %q and keeps %q", address, kept)
	}
	release := fresh.hold(`.role-card`)
	fresh.waitFor("the card to show", `!document.querySelector('.card-face').hidden`)
	fresh.waitFor("the role on the card", `document.querySelector('.card-face .role-name')`)
	role := fresh.shownRole(seatView)
	release()
	if role != string(card.Role) {
		t.Errorf("the new phone's card says %q, the seat's is %q", role, card.Role)
	}
	fresh.waitFor("the night's seats to pick from", `document.querySelector('[data-screen=night] .targets [data-target]')`)

	// The old phone, on its next poll; then it asks nothing more.
	s.phone.waitFor("the old phone to say it lost its seat", `document.querySelector('[data-end=lost]')`)
	asked := oldAsks(srv, old.Token)
	time.Sleep(httpapi.PhoneEvery + time.Second) // more than a phone's poll period
	if n := oldAsks(srv, old.Token); n != asked {
		t.Errorf("the old phone asked %d more times after losing its seat", n-asked)
	}
	s.screen.waitFor("the code to go once used", `!document.querySelector('[data-screen=reseat]') && document.querySelector('details.reseat')`)
	if v := srv.view(t, g.Code, ""); v.Events[len(v.Events)-1].Type != rules.EvMoved {
		t.Errorf("the story ends with %+v", v.Events[len(v.Events)-1])
	}
	s.capture(s.phone, scene+"-seat-lost", `document.querySelector('[data-end=lost]')`)

	// The used link, opened again.
	s.phone.navigate(link.URL)
	s.phone.waitFor("the used link to say so", `document.querySelector('[data-end=seat_key]')`)
	s.capture(s.phone, scene+"-seat-key-used", `document.querySelector('[data-end=seat_key]')`)
	for _, p := range []*page{public, fresh} {
		p.checkErrors()
	}
}

// reseatLink is the link in the answer to the host's reseat, found among the
// exchanges recorded from index from on; it fails t unless that answer, and
// no other exchange, holds the key.
func reseatLink(t *testing.T, srv *testServer, host string, from int) rules.SeatLink {
	t.Helper()
	exs, _ := srv.rec.since(from)
	var link *rules.SeatLink
	for _, ex := range exs {
		var v rules.View
		if ex.Method == "POST" && strings.HasSuffix(ex.Path, "/actions") && ex.Token == host && json.Unmarshal(ex.Body, &v) == nil && v.Reseat != nil {
			link = v.Reseat
		}
	}
	if link == nil || link.Key == "" {
		t.Fatal("no answer holds the link")
	}
	all, _ := srv.rec.since(0)
	holders := 0
	for _, ex := range all {
		if bytes.Contains(ex.Body, []byte(link.Key)) {
			holders++
		}
	}
	if holders != 1 {
		t.Errorf("%d answers hold the key, want the reseat's alone", holders)
	}
	return *link
}

// oldAsks counts the API requests made with token.
func oldAsks(srv *testServer, token string) int {
	all, _ := srv.rec.since(0)
	n := 0
	for _, ex := range all {
		if ex.Token == token {
			n++
		}
	}
	return n
}
