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

	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/service/servicetest"
)

// typedNames are the names the organiser types in; phoneNames those that
// phones bring themselves.
var (
	typedNames = tableNames
	phoneNames = []string{"Gus", "Hana", "Ivo", "Kai", "Lev", "Mia", "Ned", "Ora", "Una", "Rex"}
)

// TestEvening plays a club's evening through its pages (the club's evening):
// the organiser makes one on the home page (sport rules, two tables, two
// rounds, ten names typed in), twenty phones open its link, ten take a typed
// name with a tap and ten bring their own; the first round sends each phone
// to its own seat by itself; table 1's referee opens the table's console link
// from the organiser's page on a phone of their own, which holds that table's
// referee token and not the organiser's; each table's moderator (its referee
// token, through the service) ends the games; the organiser moves one player's
// place to another phone, as for a phone that died, and hands table 2 to the
// app for round 2; every phone's end screen leads back to the evening and,
// when the organiser starts round 2, goes on to its next seat by itself, the
// moved player's new phone among them, and the referee's phone to the table's
// next console; and the TV's standings are the protocols' points as the
// evening's scoring table counts them. On the way the organiser's page (on a
// laptop and on a phone), the TV, the join page, a phone between rounds and
// the referee's page between rounds are audited in the four languages like
// every other screen.
func TestEvening(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	dir := filepath.Join(artifactsDir(t), "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	org := b.newPage(t, "organiser", 1280, 800)
	s := &studio{t: t, srv: srv, dir: dir, allow: append(append([]string{}, typedNames...), phoneNames...), screen: org}

	// The organiser makes the evening on the home page.
	org.navigate(srv.URL + "/")
	org.waitFor("the home page", `document.querySelector('form.new-game')`)
	org.mustTap(`input[name=kind][value=evening]`)
	org.waitFor("the evening's fields", `document.querySelector('input[name=tables]')`)
	org.eval(fmt.Sprintf(`(() => {
		const set = (sel, v, ev) => { const el = document.querySelector(sel); el.value = v; el.dispatchEvent(new Event(ev, { bubbles: true })); };
		set('input[name=tables]', '2', 'change');
		set('input[name=rounds]', '2', 'change');
		set('textarea[name=players]', %q, 'input');
		return true;
	})()`, strings.Join(typedNames, "\n")), nil)
	org.mustTap(`input[name=moderator][value=host]`)
	org.waitFor("two tables, two rounds", `document.querySelector('input[name=tables]').value === '2' && document.querySelector('input[name=rounds]').value === '2'`)
	s.capture(org, "home-evening", `document.querySelector('textarea[name=players]')`)
	org.mustTap(`form.new-game button[type=submit]`)
	org.waitFor("the organiser's page", `document.querySelector('main[data-screen=evening_organizer] [data-action=start_round]')`)
	var code, token string
	org.eval(`location.hash.replace('#evening=', '')`, &code)
	org.eval(fmt.Sprintf(`JSON.parse(localStorage.getItem('cs.organizer.' + %q))`, code), &token)
	if len(code) != 6 || token == "" || strings.Contains(mustURL(org), token) {
		t.Fatalf("the organiser's page: code %q, a token kept: %v, address %s", code, token != "", mustURL(org))
	}

	tv := b.newPage(t, "tv", 1280, 800)
	tv.navigate(srv.URL + "/#evening-screen=" + code)
	tv.waitFor("the TV's QR code", `document.querySelector('main[data-screen=evening_tv] img.qr')`)

	// Twenty phones join: ten tap a name the organiser typed, ten type their own.
	phones := make([]*page, 20)
	var wg sync.WaitGroup
	for i := range phones {
		phones[i] = b.newPage(t, fmt.Sprintf("phone %d", i+1), 390, 844)
	}
	for i, p := range phones {
		wg.Go(func() {
			p.navigate(srv.URL + "/evening/" + code)
			if i < len(typedNames) {
				sel := fmt.Sprintf(`[data-action=take_name][data-player=p%d]`, i+1)
				p.waitFor("the roster's names", `document.querySelector('`+sel+`')`)
				p.mustTap(sel)
			} else {
				p.waitFor("the join form", `document.querySelector('input#ev-name')`)
				p.typeInto(`input#ev-name`, phoneNames[i-len(typedNames)])
				p.mustTap(`[data-action=join_evening]`)
			}
			p.waitFor("the phone on the roster", `document.querySelector('[data-place=waiting]')`)
		})
	}
	wg.Wait()
	tv.waitFor("twenty on the roster", `document.querySelectorAll('.ev-roster li').length === 20`)
	s.screen = tv // the TV is a 1280×800 screen too
	s.capture(tv, "evening-tv-roster", `document.querySelector('main[data-screen=evening_tv] img.qr')`)
	join := b.newPage(t, "a phone joining", 390, 844)
	join.navigate(srv.URL + "/evening/" + code)
	join.waitFor("the join form", `document.querySelector('input#ev-name')`)
	s.screen, s.phone = org, join
	s.capture(join, "evening-join", `document.querySelector('input#ev-name')`)

	// Two rounds: each phone goes to its own seat by itself, and comes back.
	var referee *page
	for round := 1; round <= 2; round++ {
		org.waitFor("the next round open", `document.querySelector('[data-action=start_round]:not([disabled])')`)
		org.mustTap(`[data-action=start_round]`)
		org.waitFor(fmt.Sprintf("round %d begun", round), fmt.Sprintf(`document.querySelector('main[data-round="%d"]')`, round))
		v := readEvening(t, srv, code, "")
		if v.Round != round {
			t.Fatalf("round %d started, the evening says %d", round, v.Round)
		}
		for i, p := range phones {
			wg.Go(func() {
				id, token := phoneSeat(p, code)
				you := readEvening(t, srv, code, token).You
				if you == nil || you.Game == "" || you.Table < 1 || you.Seat < 1 {
					p.fatalf("round %d: no place: %+v", round, you)
					return
				}
				if got := v.Rounds[round-1].Tables[you.Table-1].Players[you.Seat-1]; got != id || (i < len(typedNames) && id != fmt.Sprintf("p%d", i+1)) {
					p.fatalf("round %d: %s at table %d seat %d, which is %s's", round, id, you.Table, you.Seat, got)
				}
				p.waitWithin(fmt.Sprintf("round %d's seat", round), fmt.Sprintf(`location.pathname === '/join/%s' && document.querySelector('main[data-phase=lobby]')`, you.Game), toSeatWithin)
				// In a room of several tables the phone says which (issue 47).
				p.waitFor(fmt.Sprintf("table %d named on the phone", you.Table), fmt.Sprintf(`document.querySelector('.topbar .table-chip[data-table="%d"]')`, you.Table))
			})
		}
		wg.Wait()
		org.waitFor("the round's tables", fmt.Sprintf(`document.querySelectorAll('main[data-round="%d"] .ev-current .ev-table[data-game]').length === 2`, round))
		if round == 1 {
			s.capture(org, "evening-organizer-round", `document.querySelector('[data-action=console]')`)
			// An organiser may run the evening from a phone: the page the
			// organiser's link opens there (the idle joining phone's).
			join.navigate(srv.URL + "/#evening=" + code + "&t=" + token)
			join.waitFor("the organiser's page on a phone", `document.querySelector('main[data-screen=evening_organizer] [data-action=console]')`)
			s.capture(join, "evening-organizer-phone", `document.querySelector('[data-action=console]')`)
			referee = openReferee(t, b, srv, org, code, token)
		}
		first := v.Rounds[round-1].Tables[0].Game
		referee.waitWithin(fmt.Sprintf("table 1's console of round %d", round), fmt.Sprintf(`location.hash === '#host=%s' && document.querySelector('main.console')`, first), toSeatWithin)
		wantModerators := []string{rules.ModeratorHost, []string{rules.ModeratorHost, rules.ModeratorApp}[round-1]}
		whole := readEvening(t, srv, code, token)
		for i, table := range whole.Rounds[round-1].Tables {
			if g, err := srv.svc.Read(context.Background(), table.Game, ""); err != nil || g.Moderator != wantModerators[i] {
				t.Errorf("round %d, table %d: moderated by %q (%v), want %q", round, table.Table, g.Moderator, err, wantModerators[i])
			}
			if err := servicetest.EndByRemovals(srv.svc, table.Game, servicetest.Referee(whole, table.Table)); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range phones {
			wg.Go(func() {
				p.waitFor("the game's end", `document.querySelector('main[data-phase=game_over] [data-action=evening]')`)
			})
		}
		wg.Wait()
		org.waitFor("every table over", `document.querySelectorAll('.ev-current .ev-table.over').length === 2`)
		// The TV shows where to sit next between rounds, and that the
		// evening is over after the last (issue 47).
		if round < 2 {
			tv.waitFor("the TV's next round between rounds", fmt.Sprintf(`document.querySelector('.ev-current[data-shows="%d"] .ev-table')`, round+1))
		} else {
			tv.waitFor("the TV's end of the evening", `document.querySelector('.ev-over')`)
		}
		if round == 1 {
			phones[0] = movePlace(t, srv, org, phones[0], join, code, token)
			// Table 2 has no referee for round 2: the app moderates it.
			org.eval(`(() => { const el = document.querySelector('[data-table="2"] select[data-action=set_moderator]'); el.value = 'app'; el.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`, nil)
			org.waitFor("table 2 the app's", `document.querySelector('.ev-referees li[data-table="2"][data-moderator=app]')`)
			// The referee gives a player extra points from the console at
			// the game's end, and leaves the phone there: when round 2
			// starts, the console follows to the table's next game by
			// itself, as the players' phones do (the wait at the top of the
			// loop).
			giveExtra(t, s, referee)
			if x := readEvening(t, srv, code, "").Rounds[0].Tables[0].Extras; len(x) != 1 || x[0].Points != scoring.Point/2 || !x[0].WorstMove || x[0].Reason != "a fine speech" {
				t.Fatalf("the referee's extra at table 1: %+v", x)
			}
		} else {
			// After the last game the console leads back to the table's
			// page, which says the evening is over.
			referee.mustTap(`main[data-phase=game_over] [data-action=evening]`)
			referee.waitFor("the referee's page after the last round", `document.querySelector('[data-screen=evening_referee][data-table="1"] .big-line')`)
			s.phone = referee
			s.capture(referee, "evening-referee", `document.querySelector('[data-screen=evening_referee] .big-line')`)
		}
	}

	// The phone that follows its evening link sees the standings and its
	// next table, none after the last round; the TV's standings are the
	// protocols'.
	p := phones[0]
	p.mustTap(`[data-action=evening]`)
	p.waitFor("the evening between rounds", `document.querySelector('main[data-screen=evening_phone] .ev-standings .ev-row.mine')`)
	s.phone = p
	s.capture(p, "evening-phone-standings", `document.querySelector('.ev-standings .ev-row.mine')`)
	end := readEvening(t, srv, code, token)
	want, err := servicetest.ProtocolStandings(end, func(game string) (protocol.Protocol, error) {
		return srv.svc.Protocol(context.Background(), game, "")
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 20 {
		t.Fatalf("%d players in the protocols' standings, want 20", len(want))
	}
	tv.waitFor("the standings of both rounds", `[...document.querySelectorAll('.ev-standings .ev-row[data-player]')].length === 20`)
	var shown []struct {
		Player string `json:"player"`
		Total  string `json:"total"`
		Place  string `json:"place"`
	}
	tv.eval(`[...document.querySelectorAll('.ev-standings .ev-row[data-player]')].map((r) => ({ player: r.dataset.player, total: r.dataset.total, place: r.querySelector('.c-place').textContent }))`, &shown)
	for i, w := range want {
		if shown[i].Player != w.Player || shown[i].Total != w.Points.Total.String() || shown[i].Place != fmt.Sprint(w.Place) {
			t.Errorf("the TV's standings, row %d: %+v, want %s at place %d with %v", i+1, shown[i], w.Player, w.Place, w.Points.Total)
		}
	}
	s.screen = tv
	s.capture(tv, "evening-tv-standings", `document.querySelectorAll('.ev-standings .ev-row[data-player]').length === 20`)

	// The schedule prints a round to an A4 page.
	_, pages := tv.printPDF()
	if pages != 2 {
		t.Errorf("the evening's two rounds print on %d A4 pages, want 2", pages)
	}
	for _, p := range append(phones, org, tv, referee) {
		p.checkErrors()
	}
}

// giveExtra gives the first player of the referee's table half a point,
// typed with a decimal comma as a Russian club writes it ("0,5"), and a worst
// move (mixed words, the way a referee may weigh one game), on the console at
// the game's end, and audits that screen.
func giveExtra(t *testing.T, s *studio, referee *page) {
	t.Helper()
	referee.waitFor("the referee's extra points", `document.querySelector('main[data-phase=game_over] [data-screen=referee_extras] select')`)
	referee.eval(`(() => {
		const set = (sel, v, ev) => { const el = document.querySelector('[data-screen=referee_extras] ' + sel); el.value = v; el.dispatchEvent(new Event(ev, { bubbles: true })); };
		set('select', '0', 'change');
		set('[data-focus=extra-points]', '0,5', 'input');
		set('[data-focus=extra-reason]', 'a fine speech', 'input');
		const worst = document.querySelector('[data-screen=referee_extras] input[type=checkbox]');
		worst.checked = true;
		worst.dispatchEvent(new Event('change', { bubbles: true }));
		return true;
	})()`, nil)
	referee.mustTap(`[data-screen=referee_extras] [data-action=extra]`)
	referee.waitFor("the extra given", `document.querySelectorAll('[data-screen=referee_extras] .ev-given li').length === 1`)
	s.phone = referee
	s.allow = append(s.allow, "a fine speech") // the referee's own words, in no page's language
	s.capture(referee, "evening-referee-extras", `document.querySelector('[data-screen=referee_extras] .ev-given li')`)
}

// openReferee opens table 1's console link from the organiser's page on a
// referee's phone of its own: the link holds the table's referee token, not
// the organiser's, and takes the phone to the console of the table's game in
// play. The phone keeps that token as the game's host token.
func openReferee(t *testing.T, b *browser, srv *testServer, org *page, code, token string) *page {
	t.Helper()
	var href string
	org.eval(`document.querySelector('.ev-current .ev-table[data-table="1"] [data-action=console]').getAttribute('href')`, &href)
	want := servicetest.Referee(readEvening(t, srv, code, token), 1)
	if !strings.HasPrefix(href, "/#referee="+code+"&table=1&t=") || strings.Contains(href, token) || !strings.Contains(href, want) {
		t.Fatalf("table 1's console link %q: want the referee page with table 1's referee token, not the organiser's", href)
	}
	referee := b.newPage(t, "table 1's referee", 390, 844)
	referee.navigate(srv.URL + href)
	referee.waitFor("table 1's console", `document.querySelector('main.console')`)
	var game, held string
	referee.eval(`location.hash.replace('#host=', '')`, &game)
	referee.eval(fmt.Sprintf(`JSON.parse(localStorage.getItem('cs.host.' + %q))`, game), &held)
	if held != want || strings.Contains(mustURL(referee), want) {
		t.Fatalf("the referee's phone holds %q for game %s at %s; want table 1's referee token, out of the address", held, game, mustURL(referee))
	}
	return referee
}

// movePlace moves the evening place of the phone from to the phone to, as an
// organiser does for a phone that died between rounds: "Another phone" on the
// roster, whose QR code holds the link to open on the new phone. The new phone
// holds the place (the same player), the old one is out of the evening; to
// is the player's phone from then on.
func movePlace(t *testing.T, srv *testServer, org, from, to *page, code, token string) *page {
	t.Helper()
	id, old := phoneSeat(from, code)
	seen, _ := srv.rec.since(0)
	org.mustTap(fmt.Sprintf(`[data-action=reseat][data-player=%q]`, id))
	org.waitFor("the place's code to scan", `document.querySelector('[data-screen=evening_reseat] img.qr')`)
	var url string
	exs, _ := srv.rec.since(len(seen))
	for _, ex := range exs {
		var answer struct {
			Reseat *struct {
				Target string `json:"target"`
				URL    string `json:"url"`
			} `json:"reseat"`
		}
		if ex.Method == "POST" && strings.HasSuffix(ex.Path, "/actions") && ex.Token == token && json.Unmarshal(ex.Body, &answer) == nil && answer.Reseat != nil && answer.Reseat.Target == id {
			url = answer.Reseat.URL
		}
	}
	if !strings.HasPrefix(url, srv.URL+"/evening/"+code+"#seat=") {
		t.Fatalf("the organiser's reseat of %s answered the link %q", id, url)
	}
	to.navigate(url)
	to.waitFor("the place on the new phone", `document.querySelector('main[data-screen=evening_phone] [data-place=seat]')`)
	if moved, _ := phoneSeat(to, code); moved != id {
		t.Fatalf("the new phone holds %s's place, want %s's", moved, id)
	}
	// The organiser's page learns the link was used, and puts its code away.
	org.waitFor("the used link's code put away", `!document.querySelector('[data-screen=evening_reseat]')`)
	if _, err := srv.svc.ReadEvening(context.Background(), code, old); err == nil {
		t.Errorf("the old phone's evening token still reads the evening")
	}
	return to
}

// toSeatWithin bounds a phone's way to its seat when a round starts: the
// game's end screen asks the evening every EVENING_POLL_MS (4 s, poll.js),
// then the evening's page loads and reads the evening, then the game's. Twenty
// phones and three screens share two cores here, so the bound is ten times
// what that takes alone (6 s at most): only a phone that never moves fails.
const toSeatWithin = 60 * time.Second

// readEvening is the evening as the holder of token sees it.
func readEvening(t *testing.T, srv *testServer, code, token string) evening.View {
	t.Helper()
	v, err := srv.svc.ReadEvening(context.Background(), code, token)
	if err != nil {
		t.Fatalf("read evening %s: %v", code, err)
	}
	return v
}

// phoneSeat is the evening's player id and token a phone keeps in its
// localStorage.
func phoneSeat(p *page, code string) (id, token string) {
	var seat struct {
		PlayerID string `json:"playerId"`
		Token    string `json:"token"`
	}
	p.eval(fmt.Sprintf(`JSON.parse(localStorage.getItem('cs.evening.' + %q))`, code), &seat)
	return seat.PlayerID, seat.Token
}

// mustURL is the page's address.
func mustURL(p *page) string {
	var u string
	p.eval(`location.href`, &u)
	return u
}
