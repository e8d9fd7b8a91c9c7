package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// langs are the interface languages every screen is checked in.
var langs = []string{"en", "ru", "uk", "ro"}

// tableNames seat a table with the names a real one has: short and long, Latin
// and Cyrillic, with spaces and hyphens, one as long as a name may be.
var tableNames = []string{"Ann", "Maximilian Alexander", "Олександра", "Bob", "Ștefan-Gheorghe Ionescu", "Dara", "Константинопольский", "Eli", "Fay", "Jo"}

// frozen is a clock that moves only when told: games stay in the step being
// looked at, hand-overs included, however long the screenshots take.
type frozen struct {
	mu sync.Mutex
	t  time.Time
}

func (c *frozen) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// studio renders screens from real game states, each once per language, on a
// 1280×800 shared screen and a 390×844 phone, takes the screenshots and audits
// every one (auditJS).
type studio struct {
	t      *testing.T
	srv    *testServer
	phone  *page
	screen *page
	dir    string
	allow  []string
	shots  int // screens audited
	n      int // navigations, to give each a fresh address
}

func newStudio(t *testing.T, srv *testServer, b *browser) *studio {
	dir := filepath.Join(artifactsDir(t), "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &studio{t: t, srv: srv, dir: dir, allow: tableNames,
		phone: b.newPage(t, "phone", 390, 844), screen: b.newPage(t, "screen", 1280, 800)}
}

// open loads path on p (a fresh load, whatever the fragment) with its
// localStorage set first, and waits for ready.
func (s *studio) open(p *page, path string, storage map[string]any, ready string) {
	s.t.Helper()
	s.n++
	var origin string
	p.eval(`location.origin`, &origin)
	if origin != s.srv.URL {
		p.navigate(s.srv.URL + "/favicon.svg") // localStorage belongs to the origin
	}
	var set []string
	for k, v := range storage {
		b, _ := json.Marshal(v)
		set = append(set, fmt.Sprintf("localStorage.setItem(%q, %q)", k, string(b)))
	}
	p.eval(fmt.Sprintf(`(() => { localStorage.clear(); localStorage.setItem('cs.lang', '"en"'); %s; return true; })()`, strings.Join(set, ";")), nil)
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	url := path
	if i := strings.Index(path, "#"); i >= 0 {
		url = path[:i] + sep + fmt.Sprintf("n=%d", s.n) + path[i:]
	} else {
		url = path + sep + fmt.Sprintf("n=%d", s.n)
	}
	p.navigate(s.srv.URL + url)
	p.waitFor(path+": "+ready, ready)
}

// capture switches the page through every language, as a person would in the
// corner menu, and screenshots and audits each; checks, when given, hold the
// page to what its scene promises, in each language too.
func (s *studio) capture(p *page, scene, ready string, checks ...func() []string) {
	s.t.Helper()
	size := "390x844"
	if p == s.screen {
		size = "1280x800"
	}
	for _, lang := range langs {
		p.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select.lang'); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, lang), nil)
		p.waitFor(scene+" in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && (%s)`, lang, ready))
		p.scrollTop()
		p.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil)
		problems := p.audit(lang, s.allow)
		for _, check := range checks {
			problems = append(problems, check()...)
		}
		for _, problem := range problems {
			s.t.Errorf("%s %s %s: %s", size, scene, lang, problem)
		}
		s.shots++
		if !reviewShots() {
			continue
		}
		ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
		png, err := fullScreenshot(ctx)
		cancel()
		if err != nil {
			s.t.Fatalf("%s %s %s: screenshot: %v", size, scene, lang, err)
		}
		file := filepath.Join(s.dir, fmt.Sprintf("%s-%s-%s.png", size, scene, lang))
		if err := os.WriteFile(file, png, 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
	p.checkErrors()
}

// act applies an action to game g as the holder of token, through the service.
func (s *studio) act(g servicetest.Game, token string, a rules.Action) rules.View {
	s.t.Helper()
	a.ID = servicetest.ActionID()
	v, err := s.srv.svc.Act(context.Background(), g.Code, token, a)
	if err != nil {
		s.t.Fatalf("%s %s: %v", a.Type, a.Target, err)
	}
	return v
}

// read is game g as the holder of token sees it.
func (s *studio) read(g servicetest.Game, token string) rules.View {
	s.t.Helper()
	return servicetest.MustRead(s.t, s.srv.svc, g.Code, token)
}

// advance moves game g one step on as its host: ends the step (it then hands
// over) or, in a hand-over, ends that now, as a script may (docs/API.md).
func (s *studio) advance(g servicetest.Game) {
	s.t.Helper()
	p := s.read(g, g.Host).Phase
	s.act(g, g.Host, rules.Action{Type: rules.ActAdvance, Now: p.Closing || p.Resuming})
}

// settle ends a hand-over of game g, if one is running.
func (s *studio) settle(g servicetest.Game) {
	s.t.Helper()
	if p := s.read(g, g.Host).Phase; p.Closing || p.Resuming {
		s.advance(g)
	}
}

// seat is the localStorage a phone keeps for its seat in game code.
func seat(code string, p servicetest.Seat) map[string]any {
	return map[string]any{"cs.seat." + code: map[string]string{"playerId": p.ID, "token": p.Token, "name": p.Name}}
}

// table opens a game with the named players.
func table(t *testing.T, svc *service.Service, req service.CreateRequest, names []string) servicetest.Game {
	t.Helper()
	c, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	g := servicetest.Game{Code: c.Code, Host: c.HostToken}
	for _, name := range names {
		j, err := svc.Join(context.Background(), c.Code, service.JoinRequest{Name: name})
		if err != nil {
			t.Fatalf("join %q: %v", name, err)
		}
		g.Players = append(g.Players, servicetest.Seat{ID: j.PlayerID, Name: name, Token: j.Token})
	}
	return g
}

// phase is a script that finds the main element of a page in phase name.
func phase(name string) string {
	return fmt.Sprintf(`document.querySelector('main[data-phase=%q]')`, name)
}

// host is the host's page of game g.
func host(g servicetest.Game) string { return "/#host=" + g.Code + "&t=" + g.Host }

// playerOf is the seat of player id.
func playerOf(g servicetest.Game, id string) servicetest.Seat {
	for _, p := range g.Players {
		if p.ID == id {
			return p
		}
	}
	panic("no player " + id)
}

// TestScreens renders every screen of the app from real games, in every
// language, on a 1280×800 shared screen and a 390×844 phone: the screenshots go
// to ARTIFACTS_DIR/screens, and each is audited for overflow, broken words,
// small tap targets, low contrast and text in the wrong language (auditJS). The
// games are set up through the service on a frozen clock, so each screen is
// opened once and shown in the four languages by the language menu. On the way
// it checks what the screens promise: the typed join link is the QR code's, the
// seats drawn by lot are announced, each day opens with the night's outcome,
// the hand-over names what comes next, a vote can be changed where the rules
// allow, dead-end join links explain themselves, and "play again" takes the
// shared screen and every phone to the next game.
func TestScreens(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	s := newStudio(t, srv, b)
	svc := srv.svc
	act, read, advance, settle := s.act, s.read, s.advance, s.settle

	// Home.
	s.open(s.phone, "/", nil, `document.querySelector('form.new-game')`)
	s.capture(s.phone, "home", `document.querySelector('form.new-game')`)
	s.open(s.screen, "/", nil, `document.querySelector('form.new-game')`)
	s.capture(s.screen, "home", `document.querySelector('form.new-game')`)
	s.open(s.phone, "/join/ZZZZZZ", nil, `document.querySelector('[data-end=unknown]')`)
	s.capture(s.phone, "join-unknown", `document.querySelector('[data-end=unknown]') && !document.querySelector('form.join')`)

	// A sport table: seats by lot, a car crash, a night kill, the end, play again.
	// Its join page while a seat is free: the name is asked.
	g := table(t, svc, service.CreateRequest{Preset: "sport", Lang: "ru"}, tableNames[:9])
	s.allow = append(append([]string{}, tableNames...), g.Code)
	s.open(s.phone, "/join/"+g.Code, nil, `document.querySelector('form.join input#name')`)
	s.capture(s.phone, "join", `document.querySelector('form.join input#name')`)
	j, err := svc.Join(context.Background(), g.Code, service.JoinRequest{Name: tableNames[9]})
	if err != nil {
		t.Fatal(err)
	}
	g.Players = append(g.Players, servicetest.Seat{ID: j.PlayerID, Name: tableNames[9], Token: j.Token})
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, g.Players[1]), phase("lobby"))
	s.capture(s.phone, "lobby", phase("lobby"))
	s.open(s.screen, host(g), nil, phase("lobby")+` && document.querySelector('img.qr').complete`)
	s.capture(s.screen, "lobby", phase("lobby"))
	// The sound switches, on every shared screen: the narrator starts off (a
	// browser lets a page speak only after a tap), the time signals on; each
	// switch is one tap, and the screen remembers it.
	pressed := func(action string) string {
		var v string
		s.screen.eval(fmt.Sprintf(`document.querySelector('[data-action=%s]').getAttribute('aria-pressed')`, action), &v)
		return v
	}
	if pressed("voice") != "false" || pressed("cues") != "true" {
		t.Errorf("sound at first: narrator %s, signals %s; want off and on", pressed("voice"), pressed("cues"))
	}
	s.screen.mustTap(`[data-action=voice]`)
	s.screen.mustTap(`[data-action=cues]`)
	s.screen.waitFor("the sound switched", `localStorage.getItem('cs.voice') === 'true' && localStorage.getItem('cs.cues') === 'false' && document.querySelector('[data-action=voice]').getAttribute('aria-pressed') === 'true' && document.querySelector('[data-action=cues]').getAttribute('aria-pressed') === 'false'`)
	// The host's control link, asked for and shown under "Links" (the game's
	// tests check that it is not in the page before).
	s.screen.eval(`window.confirm = () => true`, nil)
	s.screen.mustTap(`details.links summary`)
	s.screen.mustTap(`[data-action=show_control]`)
	s.capture(s.screen, "lobby-control-link", `document.querySelector('details.links[open] [data-action=hide_control]')`)
	// A full table, and a closed one, say so before they ask for a name.
	s.open(s.phone, "/join/"+g.Code, nil, `document.querySelector('[data-end=full]')`)
	s.capture(s.phone, "join-full", `document.querySelector('[data-end=full]') && !document.querySelector('form.join')`)
	act(g, g.Host, rules.Action{Type: rules.ActLock})
	s.open(s.phone, "/join/"+g.Code, nil, `document.querySelector('[data-end=locked]')`)
	s.capture(s.phone, "join-locked", `document.querySelector('[data-end=locked]') && !document.querySelector('form.join')`)
	act(g, g.Host, rules.Action{Type: rules.ActUnlock})
	// The public screen opened at another address than the server's public one
	// (localhost, not 127.0.0.1) prints the join link the QR code holds.
	s.screen.navigate(strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/?p=1#screen=" + g.Code)
	s.screen.waitFor("the public lobby", phase("lobby"))
	var typed string
	s.screen.eval(`(document.querySelector('.join-url').textContent.match(/https?:\/\/\S+/) || [''])[0]`, &typed)
	if want := srv.URL + "/join/" + g.Code; typed != want {
		t.Errorf("the public screen at localhost prints the join link %q, want the QR code's %q", typed, want)
	}

	// The deal: the seats drawn by lot, on the screen and on each phone.
	act(g, g.Host, rules.Action{Type: rules.ActStart})
	v := read(g, "")
	if !v.Phase.Closing || v.Phase.Next == nil || v.Phase.Next.Name != rules.PhaseNight {
		t.Fatalf("after the deal: closing %v, next %+v", v.Phase.Closing, v.Phase.Next)
	}
	me := g.Players[4]
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, me), `document.querySelector('[data-screen=seating]')`)
	var mySeat string
	s.phone.eval(`document.querySelector('.seating .big-line').textContent`, &mySeat)
	for _, p := range v.Players {
		if p.ID == me.ID && !strings.Contains(mySeat, fmt.Sprint(p.Seat)) {
			t.Errorf("the phone of seat %d says %q", p.Seat, mySeat)
		}
	}
	s.capture(s.phone, "dealt", `document.querySelector('[data-screen=seating]') && document.querySelector('[data-next=night]')`)
	s.open(s.screen, host(g), nil, `document.querySelector('.panel.seating')`)
	s.capture(s.screen, "dealt", `document.querySelector('.panel.seating .seating-seat')`)
	settle(g)
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, me), phase("night"))
	s.capture(s.phone, "night-1", phase("night")+` && document.querySelector('[data-screen=seating]')`)
	s.open(s.screen, host(g), nil, phase("night"))
	s.capture(s.screen, "night-1", phase("night")+` && document.querySelector('.panel.seating')`)
	s.open(s.phone, "/join/"+g.Code, nil, `document.querySelector('[data-end=started]')`)
	s.capture(s.phone, "join-started", `document.querySelector('[data-end=started]') && !document.querySelector('form.join')`)

	// Day 1 opens with the meeting night's outcome; the speaker nominates.
	for _, p := range g.Players {
		act(g, p.Token, rules.Action{Type: rules.ActSleep})
	}
	settle(g)
	v = read(g, "")
	if v.Phase.Name != rules.PhaseDay {
		t.Fatalf("after night 1: %s", v.Phase.Name)
	}
	speaker := playerOf(g, *v.Phase.Speaker)
	// The host sees no roles with app moderation; the deal is read from each seat.
	var blacks, reds []string
	for _, p := range g.Players {
		if pv := read(g, p.Token); pv.You.Team == rules.MafiaTeam {
			blacks = append(blacks, p.ID)
		} else {
			reds = append(reds, p.ID)
		}
	}
	// Two black nominees, neither put up by himself (R-SPORT-04): the first
	// speaker nominates blacks[0], the second blacks[1]; blacks[2] shoots later.
	for blacks[0] == speaker.ID || blacks[1] == v.Phase.Queue[1] {
		blacks = append(blacks[1:], blacks[0])
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, speaker), `document.querySelector('[data-screen=speech]')`)
	var offered string
	s.phone.eval(fmt.Sprintf(`(() => { const t = document.querySelector('.targets[data-task=nominate]'); return !t ? 'no list' : t.querySelector('[data-target=%q]') ? 'their own seat' : '' })()`, speaker.ID), &offered)
	if offered != "" {
		t.Errorf("the speaker's nominations offer %s; want the other players only (R-SPORT-04)", offered)
	}
	s.capture(s.phone, "day-speech", `document.querySelector('[data-screen=speech]') && document.querySelector('[data-screen=morning]')`)
	listener := g.Players[0]
	if listener.ID == speaker.ID {
		listener = g.Players[1]
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, listener), `document.querySelector('[data-screen=listen]')`)
	s.capture(s.phone, "day-listen", `document.querySelector('[data-screen=listen]') && document.querySelector('[data-screen=morning]')`)
	s.open(s.screen, host(g), nil, phase("day"))
	s.capture(s.screen, "day", phase("day")+` && document.querySelector('.panel.morning')`)

	// "Thank you": the hand-over names the next speaker.
	act(g, speaker.Token, rules.Action{Type: rules.ActNominate, Target: blacks[0]})
	act(g, speaker.Token, rules.Action{Type: rules.ActEndSpeech})
	v = read(g, "")
	next := playerOf(g, v.Phase.Next.Speaker)
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, next), `document.querySelector('[data-screen=closing] [data-next=day]')`)
	s.capture(s.phone, "handover-you", `document.querySelector('[data-screen=closing] [data-next=day]')`)
	s.open(s.screen, host(g), nil, `document.querySelector('.stage [data-next=day]')`)
	var said string
	s.screen.eval(`document.querySelector('.stage [data-next=day]').textContent`, &said)
	if !strings.Contains(said, next.Name) {
		t.Errorf("the hand-over says %q, want the next speaker %q", said, next.Name)
	}
	s.capture(s.screen, "handover", `document.querySelector('.stage [data-next=day]')`)
	settle(g)
	// The others speak; the second nominates another black player: a tie ahead.
	for i := 0; ; i++ {
		v = read(g, "")
		if v.Phase.Name != rules.PhaseDay {
			break
		}
		sp := playerOf(g, *v.Phase.Speaker)
		if i == 0 {
			act(g, sp.Token, rules.Action{Type: rules.ActNominate, Target: blacks[1]})
		}
		act(g, sp.Token, rules.Action{Type: rules.ActEndSpeech})
		settle(g)
	}
	if v.Phase.Name != rules.PhaseVote {
		t.Fatalf("after the speeches: %s", v.Phase.Name)
	}
	voter := playerOf(g, reds[0])
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, voter), `document.querySelector('[data-screen=vote] .targets')`)
	s.capture(s.phone, "vote", `document.querySelector('[data-screen=vote] .targets')`)
	// Five and five: a car crash.
	for i, p := range g.Players {
		act(g, p.Token, rules.Action{Type: rules.ActVote, Target: v.Phase.Candidates[i%2]})
		if i == 0 {
			s.open(s.phone, "/join/"+g.Code, seat(g.Code, p), `document.querySelector('[data-screen=vote] .big-line')`)
			var withdraw bool
			s.phone.eval(`!!document.querySelector('[data-action=withdraw]')`, &withdraw)
			if withdraw {
				t.Errorf("a sport vote offers a change")
			}
			s.capture(s.phone, "voted", `document.querySelector('[data-screen=vote] .big-line')`)
			s.open(s.screen, host(g), nil, phase("vote"))
			s.capture(s.screen, "vote", phase("vote"))
		}
	}
	settle(g)
	v = read(g, "")
	if v.Phase.Name != rules.PhaseDefence {
		t.Fatalf("after a tied vote: %s", v.Phase.Name)
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, playerOf(g, *v.Phase.Speaker)), `document.querySelector('[data-screen=speech]')`)
	s.capture(s.phone, "defence", `document.querySelector('[data-screen=speech]')`)
	s.open(s.screen, host(g), nil, phase("defence"))
	s.capture(s.screen, "defence", phase("defence"))
	for read(g, "").Phase.Name == rules.PhaseDefence {
		advance(g)
	}
	v = read(g, "")
	for i, p := range g.Players {
		act(g, p.Token, rules.Action{Type: rules.ActVote, Target: v.Phase.Candidates[i%2]})
	}
	settle(g)
	if v = read(g, ""); v.Phase.Name != rules.PhaseVoteAll {
		t.Fatalf("after a second tie: %s", v.Phase.Name)
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, voter), `document.querySelector('[data-screen=vote_all] [data-action=yes]')`)
	s.capture(s.phone, "vote-all", `document.querySelector('[data-screen=vote_all] [data-action=yes]')`)
	s.open(s.screen, host(g), nil, phase("vote_all"))
	s.capture(s.screen, "vote-all", phase("vote_all"))
	yes := true
	for _, p := range g.Players {
		act(g, p.Token, rules.Action{Type: rules.ActVoteAll, Yes: &yes})
	}
	settle(g)
	v = read(g, "")
	if v.Phase.Name != rules.PhaseLastWord {
		t.Fatalf("after the all-leave vote: %s", v.Phase.Name)
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, playerOf(g, *v.Phase.Speaker)), `document.querySelector('[data-screen=speech]')`)
	// The last word after the day's vote is the vote's: the morning's news
	// ("After night 1: …") is no longer told.
	if s.phone.has(`[data-screen=morning]`) {
		t.Error("the last word after the day's vote shows the night's news")
	}
	s.capture(s.phone, "last-word", `document.querySelector('[data-screen=speech]')`)
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, playerOf(g, v.Phase.Queue[1])), `document.querySelector('[data-screen=dead]')`)
	s.capture(s.phone, "out", `document.querySelector('[data-screen=dead]')`)
	s.open(s.screen, host(g), nil, phase("last_word"))
	if s.screen.has(`[data-screen=morning]`) {
		t.Error("the shared screen's last word after the day's vote shows the night's news")
	}
	s.capture(s.screen, "last-word", phase("last_word"))
	for read(g, "").Phase.Name == rules.PhaseLastWord {
		advance(g)
	}

	// Night 2: the last black player shoots a citizen; day 2 opens with it.
	v = read(g, "")
	if v.Phase.Name != rules.PhaseNight {
		t.Fatalf("after the last words: %s", v.Phase.Name)
	}
	var shooter string
	for _, id := range blacks[2:] {
		shooter = id
	}
	victim := reds[1]
	act(g, playerOf(g, shooter).Token, rules.Action{Type: rules.ActKill, Target: victim})
	for read(g, "").Phase.Name == rules.PhaseNight { // its wakes, and their hand-overs
		advance(g)
	}
	v = read(g, "")
	if v.Phase.Name != rules.PhaseLastWord {
		t.Fatalf("after night 2: %s (%v)", v.Phase.Name, v.Events[len(v.Events)-3:])
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, voter), `document.querySelector('[data-screen=morning] .ev-killed')`)
	var news string
	s.phone.eval(`document.querySelector('[data-screen=morning]').textContent`, &news)
	if !strings.Contains(news, playerOf(g, victim).Name) {
		t.Errorf("the morning on a phone says %q, want the victim %s", news, playerOf(g, victim).Name)
	}
	s.capture(s.phone, "morning", `document.querySelector('[data-screen=morning] .ev-killed')`)
	s.open(s.screen, host(g), nil, `document.querySelector('.panel.morning .ev-killed')`)
	s.capture(s.screen, "morning", `document.querySelector('.panel.morning .ev-killed')`)

	// The host removes the last black player: the town wins.
	act(g, g.Host, rules.Action{Type: rules.ActRemove, Target: shooter})
	if v = read(g, ""); v.Phase.Name != rules.PhaseGameOver {
		t.Fatalf("after the removal: %s", v.Phase.Name)
	}
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, voter), phase("game_over"))
	s.capture(s.phone, "game-over", phase("game_over"))
	s.open(s.phone, "/join/"+g.Code, nil, `document.querySelector('[data-end=over]')`)
	s.capture(s.phone, "join-over", `document.querySelector('[data-end=over]') && !document.querySelector('form.join')`)
	s.open(s.screen, host(g), nil, phase("game_over")+` && document.querySelector('[data-action=again]')`)
	s.capture(s.screen, "game-over", phase("game_over"))

	// Play again: the host taps it; the screen, the public screen and a phone
	// that sat at the table move to the new lobby, seats and tokens kept.
	public := b.newPage(t, "public screen", 1280, 800)
	public.navigate(srv.URL + "/#screen=" + g.Code)
	public.waitFor("the public end", phase("game_over"))
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, voter), phase("game_over"))
	s.screen.mustTap(`[data-action=again]`)
	s.screen.waitFor("the next lobby", phase("lobby")+` && !location.hash.includes(`+fmt.Sprintf("%q", g.Code)+`)`)
	var nextCode string
	s.screen.eval(`new URLSearchParams(location.hash.slice(1)).get('host')`, &nextCode)
	if over := read(g, ""); over.Next != nextCode || nextCode == "" {
		t.Fatalf("the finished game names %q as next, the screen went to %q", over.Next, nextCode)
	}
	for _, p := range []*page{s.phone, public} {
		p.eval(`window.dispatchEvent(new Event('online'))`, nil) // as a phone waking up: it polls at once
	}
	s.phone.waitFor("the phone in the next lobby", phase("lobby")+fmt.Sprintf(` && location.pathname === '/join/%s'`, nextCode))
	public.waitFor("the public screen in the next lobby", phase("lobby")+fmt.Sprintf(` && location.hash === '#screen=%s'`, nextCode))
	var seated []string
	s.screen.eval(`[...document.querySelectorAll('.lobby-panel li[data-player]')].map((e) => e.dataset.player)`, &seated)
	if len(seated) != len(g.Players) {
		t.Errorf("the next lobby seats %v", seated)
	}
	s.capture(s.phone, "lobby-again", phase("lobby"))
	public.checkErrors()
	s.open(s.phone, "/join/"+g.Code, nil, `document.querySelector('[data-end=over] [data-action=join_next]')`)
	s.capture(s.phone, "join-over-next", `document.querySelector('[data-action=join_next]')`)

	// A classic table: votes may change until the vote closes; a pause.
	c := table(t, svc, service.CreateRequest{Preset: "classic", Lang: "uk"}, tableNames[:7])
	s.allow = append(append([]string{}, tableNames...), c.Code, nextCode)
	act(c, c.Host, rules.Action{Type: rules.ActStart})
	settle(c)
	for _, p := range c.Players {
		act(c, p.Token, rules.Action{Type: rules.ActSleep})
	}
	settle(c)
	for read(c, "").Phase.Name == rules.PhaseDay {
		act(c, playerOf(c, *read(c, "").Phase.Speaker).Token, rules.Action{Type: rules.ActEndSpeech})
		settle(c)
	}
	v = read(c, "")
	if v.Phase.Name != rules.PhaseVote {
		t.Fatalf("classic: %s after the speeches", v.Phase.Name)
	}
	changer := c.Players[1]
	act(c, changer.Token, rules.Action{Type: rules.ActVote, Target: c.Players[3].ID})
	s.open(s.phone, "/join/"+c.Code, seat(c.Code, changer), `document.querySelector('[data-screen=vote] [data-action=withdraw]')`)
	s.capture(s.phone, "voted-change", `document.querySelector('[data-action=withdraw]')`)
	s.phone.mustTap(`[data-action=withdraw]`)
	s.phone.waitFor("the vote again", `document.querySelector('.targets[data-task=vote] .target.previous')`)
	if mine := read(c, changer.Token); mine.You.Vote != nil || !slices.ContainsFunc(mine.Actions, func(o rules.Option) bool { return o.Type == rules.ActVote }) {
		t.Errorf("after taking the vote back: vote %+v, actions %+v", mine.You.Vote, mine.Actions)
	}
	s.capture(s.phone, "vote-again", `document.querySelector('.target.previous')`)
	s.phone.mustTap(fmt.Sprintf(`.targets[data-task=vote] [data-target=%q]`, c.Players[4].ID))
	s.phone.mustTap(`[data-action=confirm]`)
	s.phone.waitFor("the new vote", `document.querySelector('[data-action=withdraw]')`)
	if mine := read(c, changer.Token); mine.You.Vote == nil || mine.You.Vote.Target != c.Players[4].ID {
		t.Errorf("the changed vote is %+v", mine.You.Vote)
	}
	act(c, c.Host, rules.Action{Type: rules.ActPause})
	s.open(s.phone, "/join/"+c.Code, seat(c.Code, c.Players[2]), `document.querySelector('.banner.paused')`)
	s.capture(s.phone, "paused", `document.querySelector('.banner.paused')`)
	s.open(s.screen, host(c), nil, `document.querySelector('.banner.paused')`)
	s.capture(s.screen, "paused", `document.querySelector('.banner.paused')`)

	// A moderator's console: the lobby, a day with every seat's buttons, a night
	// with the choices coming in.
	m := table(t, svc, service.CreateRequest{Preset: "maniac", Moderator: "host", Lang: "ro"}, tableNames)
	s.allow = append(append([]string{}, tableNames...), m.Code)
	s.open(s.screen, host(m), nil, phase("lobby"))
	s.capture(s.screen, "console-lobby", phase("lobby"))
	act(m, m.Host, rules.Action{Type: rules.ActStart})
	for read(m, "").Phase.Name != rules.PhaseDay {
		advance(m)
	}
	s.open(s.screen, host(m), nil, phase("day")+` && document.querySelector('.seats-panel [data-action=remove]')`)
	s.capture(s.screen, "console-day", phase("day"))
	showCards(t, s.screen)
	s.capture(s.screen, "console-day-cards", phase("day")+` && document.querySelector('.seats-panel [data-role]')`)
	for read(m, "").Phase.Name != rules.PhaseNight {
		advance(m)
	}
	for _, p := range m.Players {
		if pv := read(m, p.Token); pv.You.Alive {
			for _, o := range pv.Actions {
				if o.Type != rules.ActSleep && len(o.Targets) > 0 {
					act(m, p.Token, rules.Action{Type: o.Type, Target: o.Targets[0]})
					break
				}
			}
		}
	}
	s.open(s.screen, host(m), nil, `document.querySelector('.night-choices')`)
	s.capture(s.screen, "console-night-hidden", `document.querySelector('.night-choices')`)
	showCards(t, s.screen)
	s.capture(s.screen, "console-night", `document.querySelector('.night-choices li')`)
	// A referee runs a table from a phone too: there the console is one
	// column with the seats, their fouls and removals, right under the stage
	// and its controls, above the night's choices and the rest (issue 47).
	s.open(s.phone, host(m), nil, `document.querySelector('.night-choices')`)
	var at struct{ Bar, Seats, Night, Height float64 }
	s.phone.eval(`(() => {
		const y = (sel) => document.querySelector(sel).getBoundingClientRect().top + scrollY;
		return { bar: y('.host-bar'), seats: y('.seats-panel'), night: y('.night-choices'), height: document.documentElement.scrollHeight };
	})()`, &at)
	t.Logf("the console on a phone at night: controls at %.0f px, seats at %.0f px, night's choices at %.0f px, %.0f px in all", at.Bar, at.Seats, at.Night, at.Height)
	if !(at.Bar < at.Seats && at.Seats < at.Night) {
		t.Errorf("the console on a phone: controls at %.0f px, seats at %.0f px, night's choices at %.0f px; want the seats right after the controls", at.Bar, at.Seats, at.Night)
	}
	s.capture(s.phone, "console-night", `document.querySelector('.console-phone .seats-panel')`)

	if reviewShots() {
		t.Logf("%d screens audited, their screenshots in %s", s.shots, s.dir)
	} else {
		t.Logf("%d screens audited (E2E_SHOTS=1 saves their screenshots)", s.shots)
	}
}

// showCards switches the console's cards on, as the moderator taps it, and
// checks that none was in the page before.
func showCards(t *testing.T, p *page) {
	t.Helper()
	var before int
	p.eval(`document.querySelectorAll('[data-role], .night-choices li').length`, &before)
	if before != 0 {
		t.Errorf("the console shows %d cards or night choices before they are switched on", before)
	}
	// A tap the machine delays past the switch's hold (400 ms) shows the
	// cards only while held: the moderator taps again.
	p.tapUntil(`[data-action=cards][aria-pressed=false]`, "the cards shown", p.shows(`document.querySelector('[data-action=cards][aria-pressed=true]')`))
}

// fullScreenshot takes the whole page as a PNG, below the fold too.
func fullScreenshot(ctx context.Context) ([]byte, error) {
	return chromedp.Run(ctx, chromedp.FullScreenshot(100))
}
