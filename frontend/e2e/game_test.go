package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

// names of the ten phones' players: short, and none of them a role's name in any
// language, so that the page-text leak check cannot mistake a name for a role.
var names = []string{"Ann", "Bob", "Cem", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jon"}

// player is one phone at the table.
type player struct {
	*page
	name  string
	id    string
	token string
	role  string
	lang  string // the interface language this phone was switched to, "" for the game's
}

// game is one game played through the UI: the host's screen, the phones, and what
// the test learns along the way.
type game struct {
	t         *testing.T
	srv       *testServer
	b         *browser
	host      *page
	screen    *page // a second, public shared screen (moderated games)
	code      string
	preset    string
	lang      string
	moderator string
	phones    []*player
	deal      map[string]rules.Role // player id -> role, from the role cards
	checked   int                   // recorded exchanges leak-checked so far
	shots     map[string]bool
	plan      plan
	phaseSeen map[rules.PhaseName]bool
	// viewsChecked counts the views leak-checked per viewer ("" public, "host", player id).
	viewsChecked map[string]int
	viewsGzipped int // of them, how many came gzipped
	// tl notes when the server opened each step, to time every page against.
	tl timeline
	// nightChecked holds the wakes whose phones were compared (checkNightScreens).
	nightChecked        map[string]bool
	nightScreensChecked int
	// faceDownChecked counts, per role, the face-down pages compared with
	// another card's (checkFaceDown); checksLookedAt, per player, the checks
	// seen on the held card, and checksHeld all of them (lookAtCard).
	faceDownChecked map[string]int
	checksLookedAt  map[string]int
	checksHeld      int
	leaks           map[string]bool // the face-down leaks told, by player, kind and secret
}

// plan is how the table plays: whom to nominate and vote for.
type plan struct {
	// nominees returns the players the speakers of this day should nominate, in order.
	nominees func(g *game, v rules.View) []string
	// vote returns whom ph votes for ("" abstains).
	vote func(g *game, ph *player, v rules.View) string
	// voteAll returns ph's yes or no.
	voteAll func(g *game, ph *player, v rules.View) bool
	// reveal: the Commissar reveals when he may.
	reveal bool
	// withdrawOnce: the first nomination of day 1 is withdrawn and made again.
	withdrawOnce bool
	// raiseHand says whether ph raises a hand for a further speech (R-MANIAC-09).
	raiseHand func(g *game, ph *player, v rules.View) bool
}

type gameOpts struct {
	preset    string
	lang      string // the game's language, chosen on the home screen
	moderator string // "app" or "host"
	phoneLang []string
	players   int // phones at the table; 0 for ten
	plan      plan
}

// newGame opens the home screen on the host's 1280×800 screen, creates a game
// through the form and seats the phones (ten, or o.players) through the join
// link.
func newGame(t *testing.T, srv *testServer, b *browser, o gameOpts) *game {
	t.Helper()
	g := &game{t: t, srv: srv, b: b, preset: o.preset, lang: o.lang, moderator: o.moderator, deal: map[string]rules.Role{},
		shots: map[string]bool{}, plan: o.plan, phaseSeen: map[rules.PhaseName]bool{}, viewsChecked: map[string]int{}, nightChecked: map[string]bool{},
		faceDownChecked: map[string]int{}, checksLookedAt: map[string]int{}, leaks: map[string]bool{}}
	g.host = b.newPage(t, "host", 1280, 800)
	h := g.host
	h.navigate(srv.URL + "/")
	h.waitFor("the home screen", `document.querySelector('form.new-game')`)
	// The interface language, as a host would pick it in the corner.
	h.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select.lang'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, o.lang), nil)
	h.waitFor("the language switch", fmt.Sprintf(`document.documentElement.lang === %q`, o.lang))
	h.mustTap(fmt.Sprintf(`input[name=preset][value=%q]`, o.preset))
	h.mustTap(fmt.Sprintf(`input[name=moderator][value=%q]`, o.moderator))
	h.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select[name=lang]'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, o.lang), nil)
	g.shot(h, "home")
	h.mustTap(`[data-action=create]`)
	if o.moderator == rules.ModeratorHost {
		// The device that makes a game a person moderates says what it is:
		// here the moderator's own, which becomes the console.
		h.mustTap(`[data-action=device][data-device=host]`)
	}
	h.waitFor("the host's lobby", `document.querySelector('main[data-phase=lobby]')`)
	h.eval(`new URLSearchParams(location.hash.slice(1)).get('host')`, &g.code)
	if g.code == "" {
		h.fatalf("no room code in the address %q", g.code)
	}
	var hashHasToken bool
	h.eval(`new URLSearchParams(location.hash.slice(1)).has('t')`, &hashHasToken)
	if hashHasToken {
		h.fatalf("the host token stays visible in the address bar of the shared screen")
	}
	if o.moderator == rules.ModeratorApp {
		g.checkControlLink()
	}
	// A shorter hand-over than the presets' (e2eHandOver), set as a host may in
	// the lobby.
	rs := g.view("").Rules
	rs.HandOver = e2eHandOver
	g.srv.act(t, g.code, hostToken(g), rules.Action{ID: "e2e-hand-over", Type: rules.ActConfigure, Options: &rs})
	// The QR code is there, and the join link it encodes is on the screen.
	var qr struct {
		Src   string `json:"src"`
		Width int    `json:"width"`
		URL   string `json:"url"`
	}
	h.waitFor("the QR code", `document.querySelector('img.qr') && document.querySelector('img.qr').complete && document.querySelector('img.qr').naturalWidth > 0`)
	h.eval(`({src: document.querySelector('img.qr').getAttribute('src'), width: document.querySelector('img.qr').naturalWidth,
		url: (document.querySelector('.join-url').textContent.match(/https?:\/\/\S+/) || [''])[0]})`, &qr)
	joinURL := srv.URL + "/join/" + g.code
	if qr.Src != "/api/games/"+g.code+"/qr.svg" || qr.URL != joinURL {
		h.fatalf("QR %q and join link %q, want the QR of game %s and %s", qr.Src, qr.URL, g.code, joinURL)
	}
	g.checkQR(joinURL)
	table := names
	if o.players > 0 {
		table = names[:o.players]
	}
	for i, name := range table {
		lang := ""
		if i < len(o.phoneLang) {
			lang = o.phoneLang[i]
		}
		g.phones = append(g.phones, g.join(name, lang, joinURL))
	}
	return g
}

// checkControlLink: on the shared screen of a game the app moderates, the
// host's control link (the host token in its fragment) is not in the page
// until the host asks for it and confirms; a "no" keeps it out, and hiding it
// takes it out again.
func (g *game) checkControlLink() {
	g.t.Helper()
	h, token := g.host, hostToken(g)
	inPage := func() bool {
		d := h.dump()
		return strings.Contains(d.Markup, token) || strings.Contains(d.Text, token)
	}
	if inPage() {
		h.fatalf("the host token is in the shared screen's page before anyone asked for it")
	}
	h.mustTap(`details.links summary`)
	h.eval(`window.confirm = () => false`, nil)
	h.mustTap(`[data-action=show_control]`)
	if inPage() {
		h.fatalf("the host token is in the page after the host said no")
	}
	h.eval(`window.confirm = () => true`, nil)
	h.mustTap(`[data-action=show_control]`)
	h.waitFor("the control link", `document.querySelector('details.links[open] [data-action=hide_control]')`)
	if !inPage() {
		h.fatalf("the control link is not on the page once asked for")
	}
	g.shot(h, "screen-control-link")
	h.mustTap(`[data-action=hide_control]`)
	h.waitFor("the link hidden", `document.querySelector('[data-action=show_control]')`)
	if inPage() {
		h.fatalf("the host token stays in the page after the link is hidden")
	}
	h.mustTap(`details.links summary`)
}

// checkQR reads the QR code's SVG as a phone's camera app would get it, and checks
// that it is a QR picture for the join link (the text itself is in the modules).
func (g *game) checkQR(joinURL string) {
	var svg string
	g.host.eval(`fetch(document.querySelector('img.qr').src).then((r) => r.text())`, &svg)
	if !strings.Contains(svg, "<svg") {
		g.t.Fatalf("the QR code is not an SVG: %.200s", svg)
	}
	_ = joinURL
}

// join opens the join link on a new 390×844 phone and takes a seat.
func (g *game) join(name, lang, joinURL string) *player {
	g.t.Helper()
	p := &player{page: g.b.newPage(g.t, "phone "+name, 390, 844), name: name, lang: lang}
	p.navigate(joinURL)
	p.waitFor("the join form", `document.querySelector('form.join input#name')`)
	// A phone follows the game's language until its owner picks another.
	p.waitFor("the game's language", fmt.Sprintf(`document.documentElement.lang === %q`, g.lang))
	if lang != "" {
		p.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select.lang'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, lang), nil)
		p.waitFor("the language switch", fmt.Sprintf(`document.documentElement.lang === %q`, lang))
	}
	if name == names[0] {
		g.shot(p.page, "join")
	}
	p.typeInto(`input#name`, name)
	p.mustTap(`form.join button[type=submit]`)
	p.waitFor("the lobby", `document.querySelector('main[data-phase=lobby]')`)
	g.readSeat(p)
	return p
}

// readSeat learns the phone's player id and token from its localStorage.
func (g *game) readSeat(p *player) {
	var seat struct {
		PlayerID string `json:"playerId"`
		Token    string `json:"token"`
	}
	p.eval(fmt.Sprintf(`JSON.parse(localStorage.getItem('cs.seat.' + %q))`, g.code), &seat)
	if seat.PlayerID == "" || seat.Token == "" {
		p.fatalf("no seat kept in localStorage")
	}
	p.id, p.token = seat.PlayerID, seat.Token
}

// shot takes a screenshot named <preset>-<lang>-<what>, once per name.
func (g *game) shot(p *page, what string) {
	if !reviewShots() {
		return
	}
	lang := g.lang
	var l string
	p.eval(`document.documentElement.lang`, &l)
	if l != "" {
		lang = l
	}
	name := fmt.Sprintf("%s-%s-%s", g.preset, lang, what)
	if g.shots[name] {
		return
	}
	g.shots[name] = true
	p.scrollTop()
	p.screenshot(name)
}

func (g *game) phone(id string) *player {
	for _, p := range g.phones {
		if p.id == id {
			return p
		}
	}
	g.t.Fatalf("no phone for player %s", id)
	return nil
}

// view is the server's view of the game for token, read straight from the service.
func (g *game) view(token string) rules.View { return g.srv.view(g.t, g.code, token) }

// start deals the cards from the host screen, and every phone's role is read off
// its card, pressed and held as a player would.
func (g *game) start() {
	g.t.Helper()
	g.host.mustTap(`[data-action=start]`)
	for _, p := range g.phones {
		p.waitFor("the game to start", `document.querySelector('main[data-phase]') && document.querySelector('main').dataset.phase !== 'lobby'`)
	}
	for i, p := range g.phones {
		g.readRole(p, i < 4)
		p.eval(`window.confirm = () => true`, nil) // "are you sure?" dialogs say yes
	}
	g.checkLeaks()
}

// readRole reads the phone's role off its card, pressed and held as a player
// would (lookAtCard, which checks it against the deal the server made).
func (g *game) readRole(p *player, shoot bool) {
	g.t.Helper()
	p.waitFor("the role card", `document.querySelector('.role-card')`)
	role := g.lookAtCard(p, g.view(p.token), func(role string) {
		if shoot || !g.shots[fmt.Sprintf("%s-%s-role-%s", g.preset, g.lang, role)] {
			g.shot(p.page, "role-"+role)
		}
	})
	p.role = role
	g.deal[p.id] = rules.Role(role)
}

// domState is what a phone's page offers now.
type domState struct {
	Phase   rules.PhaseName `json:"phase"`
	Version int64           `json:"version"`
	Tick    int             `json:"tick"`
	Day     int             `json:"day"`
	Night   int             `json:"night"`
	Wake    int             `json:"wake"`
	Picked  *string         `json:"picked"` // the seat picked to confirm (the night's, a vote's), "" for none; null before a pick
	Busy    bool            `json:"busy"`
	Stale   bool            `json:"stale"`
	Actions []string        `json:"actions"`
	Tasks   []struct {
		Task    string   `json:"task"`
		Targets []string `json:"targets"`
	} `json:"tasks"`
}

const stateJS = `(() => {
	const m = document.querySelector('main');
	const d = m ? m.dataset : {};
	return {
		phase: d.phase || '', version: Number(d.version || -1), tick: Number(d.tick || 0), day: Number(d.day || 0), night: Number(d.night || 0), wake: Number(d.wake || 0), busy: !!m && m.getAttribute('aria-busy') === 'true',
		stale: document.body.classList.contains('stale'),
		picked: (() => { const b = document.querySelector('.targets [aria-pressed="true"]'); return b ? b.dataset.target : null; })(),
		actions: [...document.querySelectorAll('button[data-action]:not([disabled])')].map((b) => b.dataset.action),
		tasks: [...document.querySelectorAll('.targets[data-task]')].map((c) => ({ task: c.dataset.task,
			targets: [...c.querySelectorAll('button[data-target]:not([disabled])')].map((b) => b.dataset.target) })),
	};
})()`

func (p *player) state() domState {
	var st domState
	p.eval(stateJS, &st)
	return st
}

func legal(v rules.View, typ rules.ActionType) *rules.Option {
	for i := range v.Actions {
		if v.Actions[i].Type == typ {
			return &v.Actions[i]
		}
	}
	return nil
}

// team returns the side of a player by the deal.
func (g *game) team(id string) rules.Team { return g.deal[id].Team() }

func (g *game) alive(v rules.View, keep func(id string) bool) []string {
	var out []string
	for _, p := range v.Players {
		if p.Alive && keep(p.ID) {
			out = append(out, p.ID)
		}
	}
	return out
}

// nightTarget picks a target for a night act: the mafia and the Maniac shoot the
// first living citizen by seat, checks go to someone not checked yet, protections
// to the first target offered.
func (g *game) nightTarget(ph *player, v rules.View, o rules.Option) string {
	switch o.Type {
	case rules.ActKill:
		for _, id := range o.Targets {
			if g.deal[id] == rules.Citizen {
				return id
			}
		}
	case rules.ActCheck:
		for _, id := range o.Targets {
			seen := false
			if v.You != nil {
				for _, c := range v.You.Checks {
					seen = seen || c.Target == id
				}
			}
			// The Sheriff looks among the black first, so that checks find someone.
			if !seen && (ph.role == string(rules.Don) || g.team(id) == rules.MafiaTeam) {
				return id
			}
		}
	}
	return o.Targets[0]
}

// nightPick is the seat phone ph picks tonight ("" for nobody): the target of
// its role's act (a check rather than the Sheriff's shot, which the bots leave
// alone), else a suspicion of the first other living player.
func (g *game) nightPick(ph *player, v rules.View) string {
	for _, o := range v.Actions {
		switch o.Type {
		case rules.ActSleep, rules.ActReveal, rules.ActShoot:
		default:
			return g.nightTarget(ph, v, o)
		}
	}
	if legal(v, rules.ActShoot) != nil {
		return ""
	}
	for _, p := range v.Players {
		if p.Alive && p.ID != ph.id {
			return p.ID
		}
	}
	return ""
}

// decide returns the element phone ph should tap now, or "" to wait. The server's
// view says what is legal; the page must show the same button.
func (g *game) decide(ph *player, v rules.View, st domState) string {
	if st.Busy || st.Stale {
		return ""
	}
	// The phone must show what the server says now. At night and in votes each
	// player acts on their own, so the same step is enough (another's tap does
	// not change this player's buttons); speeches go one after another, so the
	// phone must have the latest view.
	switch v.Phase.Name {
	case rules.PhaseNight, rules.PhaseVote, rules.PhaseVoteAll:
		if st.Phase != v.Phase.Name || st.Day != v.Phase.Day || st.Night != v.Phase.Night || st.Wake != v.Phase.Wake {
			return ""
		}
	default:
		if st.Version != v.Version || st.Tick != v.Tick {
			return "" // the phone has not caught up yet
		}
	}
	switch v.Phase.Name {
	case rules.PhaseNight:
		// Every phone picks a seat (or nobody) and confirms; the card says what
		// the pick means, and the page turns it into the role's act.
		want := g.nightPick(ph, v)
		if st.Picked == nil || *st.Picked != want {
			return fmt.Sprintf(`.targets[data-task="night"] [data-target=%q]`, want)
		}
		return `[data-action=confirm]`
	case rules.PhaseIntro, rules.PhaseDay, rules.PhaseDefence, rules.PhaseLastWord:
		if g.plan.reveal && legal(v, rules.ActReveal) != nil {
			return revealSel
		}
		if o := legal(v, rules.ActNominate); o != nil && g.plan.nominees != nil {
			for _, want := range g.plan.nominees(g, v) {
				if slices.Contains(o.Targets, want) {
					return fmt.Sprintf(`.targets[data-task="nominate"] [data-target=%q]`, want)
				}
			}
		}
		if legal(v, rules.ActRaiseHand) != nil && g.plan.raiseHand != nil && g.plan.raiseHand(g, ph, v) {
			return `[data-action=raise_hand]`
		}
		if legal(v, rules.ActWithdraw) != nil && g.plan.withdrawOnce {
			g.plan.withdrawOnce = false
			return `[data-action=withdraw]`
		}
		if legal(v, rules.ActEndSpeech) != nil {
			return `[data-action=end_speech]`
		}
	case rules.PhaseVote:
		// A vote is picked, then confirmed, as the night's tap.
		if o := legal(v, rules.ActVote); o != nil {
			target := g.plan.vote(g, ph, v)
			if !slices.Contains(o.Targets, target) && !(target == "" && o.Abstain) {
				target = o.Targets[0]
			}
			if st.Picked == nil || *st.Picked != target {
				return fmt.Sprintf(`.targets[data-task="vote"] [data-target=%q]`, target)
			}
			return `[data-action=confirm]`
		}
	case rules.PhaseVoteAll:
		if legal(v, rules.ActVoteAll) != nil {
			if g.plan.voteAll(g, ph, v) {
				return `[data-action=yes]`
			}
			return `[data-action=no]`
		}
	}
	return ""
}

// play drives the table through the UI until the game is over, taking the
// screenshots of each new screen and checking for leaks as it goes. during is
// called once per loop with the public view, for the test's own checks.
//
// The game must move on as it promises: each step by its deadline and the
// hand-over after it, a step without one as soon as the pages show the tap
// that ends it (stepWithin); a game that stands still longer fails the test,
// whatever the machine's speed.
func (g *game) play(during func(v rules.View)) {
	g.t.Helper()
	lastKey := ""
	var deadline time.Time
	nudged := map[string]time.Time{}
	for {
		pub := g.view("")
		key := fmt.Sprintf("%s/%d/%d/%d/%d", pub.Phase.Name, pub.Phase.Day, pub.Phase.Night, pub.Version, pub.Tick)
		if key != lastKey {
			if os.Getenv("E2E_DEBUG") != "" {
				g.t.Logf("%s %s", time.Now().Format("15:04:05.000"), key)
			}
			lastKey = key
			g.onPhase(pub)
			// The checks above take their time; the step's is counted after them.
			deadline = time.Now().Add(stepWithin(pub, time.Now()) + shownWithin)
		}
		g.tl.observe(pub, time.Now())
		if pub.Phase.Name == rules.PhaseGameOver {
			return
		}
		if during != nil {
			// The test's own checks hold the table up: their time is not the game's.
			began := time.Now()
			during(pub)
			deadline = deadline.Add(time.Since(began))
		}
		// The first time each wake of a night with acts opens, before anyone
		// taps, every phone must show the same page whatever its card.
		if wake := fmt.Sprintf("%d/%d", pub.Phase.Night, pub.Phase.Wake); pub.Phase.Name == rules.PhaseNight && pub.Phase.Night >= 2 &&
			!pub.Phase.Closing && !pub.Phase.Paused && !g.nightChecked[wake] && pub.Phase.Pending == len(g.alive(pub, func(string) bool { return true })) {
			g.nightChecked[wake] = true
			began := time.Now()
			g.checkNightScreens(pub)
			deadline = deadline.Add(time.Since(began))
		}
		if time.Now().After(deadline) {
			g.host.screenshot(g.preset + "-timeout-host")
			evs := pub.Events[max(0, len(pub.Events)-25):]
			var lines []string
			for _, e := range evs {
				b, _ := json.Marshal(e)
				lines = append(lines, string(b))
			}
			for _, ph := range g.phones {
				v := g.view(ph.token)
				b, _ := json.Marshal(v.Actions)
				lines = append(lines, fmt.Sprintf("%s %s alive=%v actions=%s dom=%+v", ph.id, ph.role, v.You != nil && v.You.Alive, b, ph.state()))
			}
			g.t.Fatalf("the game stood still at %s past what its step promises; last events and phones:\n%s", key, strings.Join(lines, "\n"))
		}
		acted := false
		for _, ph := range g.phones {
			v := g.view(ph.token)
			if len(v.Actions) == 0 {
				continue
			}
			st := ph.state()
			if sel := g.decide(ph, v, st); sel != "" {
				g.shotBefore(ph, v, sel)
				if ph.touch(sel) {
					acted = true
					continue
				}
			}
			// The test taps far faster than people speak, so a phone that was
			// idle (slow polls) lags behind and may not show the button yet (a
			// raised hand during another's short speech); nudge it as a returning
			// network would, so that the game does not wait out its poll interval.
			if (st.Version != v.Version || st.Tick != v.Tick) && time.Since(nudged[ph.id]) > time.Second {
				nudged[ph.id] = time.Now()
				ph.eval(`window.dispatchEvent(new Event('online'))`, nil)
			}
		}
		if !acted {
			time.Sleep(150 * time.Millisecond)
		}
	}
}

// shotBefore takes the screenshots of a phone's key screens just before it
// acts; before the Commissar's reveal, of his held card, audited too.
func (g *game) shotBefore(ph *player, v rules.View, sel string) {
	what := ""
	switch v.Phase.Name {
	case rules.PhaseNight:
		if strings.Contains(sel, "confirm") {
			what = "night-picked"
		}
	case rules.PhaseDay:
		if sel == revealSel {
			g.auditHeldCard(ph, sel, "card-reveal")
			return
		}
		if strings.Contains(sel, "nominate") {
			what = "day-speech"
		}
	case rules.PhaseVote:
		if strings.Contains(sel, "confirm") {
			what = "vote"
		}
	case rules.PhaseVoteAll:
		what = "vote-all"
	case rules.PhaseDefence:
		what = "defence"
	case rules.PhaseLastWord:
		what = "last-word"
	}
	if what == "" {
		return
	}
	ph.scrollTop()
	g.shot(ph.page, what) // the phone's language goes into the name
}

// onPhase runs at every change of the game: the host screen's screenshot of each
// kind of phase, and the leak checks of every page and every response so far.
func (g *game) onPhase(pub rules.View) {
	g.t.Helper()
	kind := pub.Phase.Name
	if !g.phaseSeen[kind] {
		g.phaseSeen[kind] = true
		g.waitStep(g.host, "the host screen to follow", fmt.Sprintf(`document.querySelector('main[data-phase=%q]')`, kind))
		g.shot(g.host, "screen-"+string(kind))
	}
	g.checkLeaks()
	g.checkPages()
	g.checkFaceDown()
	g.checkNewChecks(pub)
}

// finish waits for every screen to show the end, checks the winner and the roles
// shown against the deal, and takes the last screenshots.
func (g *game) finish() rules.View {
	g.t.Helper()
	pub := g.view("")
	if pub.Phase.Name != rules.PhaseGameOver || pub.Winner == nil {
		g.t.Fatalf("the game is not over: %s", pub.Phase.Name)
	}
	for _, p := range pub.Players {
		if want := g.deal[p.ID]; p.Role != want {
			g.t.Errorf("the end shows %s as %q, the card said %q", p.ID, p.Role, want)
		}
	}
	g.host.waitFor("the winner on the shared screen", fmt.Sprintf(`document.querySelector('main[data-phase=game_over][data-winner=%q]')`, *pub.Winner))
	var shown map[string]string
	g.host.eval(`Object.fromEntries([...document.querySelectorAll('.roles [data-player]')].map((e) => [e.dataset.player, e.dataset.role]))`, &shown)
	for id, role := range g.deal {
		if shown[id] != string(role) {
			g.t.Errorf("the shared screen's end shows %s as %q, want %q", id, shown[id], role)
		}
	}
	g.host.scrollTop()
	g.shot(g.host, "screen-game_over")
	for i, p := range g.phones {
		p.waitFor("the end", `document.querySelector('main[data-phase=game_over] [data-screen=game_over]')`)
		if i < 4 {
			p.scrollTop()
			g.shot(p.page, "game-over")
		}
	}
	g.checkLeaks()
	g.checkPages()
	// The leak check saw every phone's traffic, not nothing, and the browsers
	// took the views gzipped, as they ask to.
	if g.viewsGzipped == 0 {
		g.t.Error("no view reached a browser gzipped")
	}
	for _, p := range g.phones {
		if g.viewsChecked[p.id] < 10 {
			g.t.Errorf("only %d views sent to %s were checked for leaks", g.viewsChecked[p.id], p.id)
		}
	}
	if pub.Phase.Night >= 2 && g.nightScreensChecked == 0 {
		g.t.Error("no night's phones were compared")
	}
	g.checkCardsChecked()
	g.checkSteps(g.reportLags())
	if os.Getenv("E2E_DEBUG") != "" {
		g.t.Logf("views checked for leaks: %v", g.viewsChecked)
		for _, e := range pub.Events {
			b, _ := json.Marshal(e)
			g.t.Logf("%s", b)
		}
	}
	for _, p := range append([]*page{g.host}, pagesOf(g.phones)...) {
		p.checkErrors()
	}
	if g.screen != nil {
		g.screen.checkErrors()
	}
	return pub
}

func pagesOf(ps []*player) []*page {
	out := make([]*page, len(ps))
	for i, p := range ps {
		out[i] = p.page
	}
	return out
}

// mayKnow reports whether viewer ("" public, "host", or a player id) may know
// the role of player id in view v.
func (g *game) mayKnow(viewer, id string, v rules.View) bool {
	if v.Phase.Name == rules.PhaseGameOver {
		return true
	}
	if viewer == "host" && g.moderator == rules.ModeratorHost {
		return true
	}
	if viewer == id {
		return true
	}
	if viewer != "" && viewer != "host" && g.team(viewer) == rules.MafiaTeam && g.team(id) == rules.MafiaTeam {
		return true
	}
	for _, e := range v.Events {
		if e.Type == rules.EvRole && e.Target == id {
			return true // the card was shown to everyone
		}
	}
	return false
}

// checkLeaks goes through every API response recorded since the last check: no
// viewer may get a role, check, shot or night act they may not know.
func (g *game) checkLeaks() {
	g.t.Helper()
	if len(g.deal) < len(g.phones) {
		return // the deal is not known yet; these responses are checked next time
	}
	exs, next := g.srv.rec.since(g.checked)
	g.checked = next
	for _, ex := range exs {
		if !strings.HasPrefix(ex.Path, "/api/games") || ex.Status >= 300 || len(ex.Body) == 0 {
			continue
		}
		viewer := ""
		if ex.Token != "" {
			viewer = g.srv.rec.viewer(ex.Token)
		}
		var wrap struct {
			Game    json.RawMessage `json:"game"`
			Players json.RawMessage `json:"players"`
		}
		if err := json.Unmarshal(ex.Body, &wrap); err != nil {
			continue // the QR code's SVG
		}
		body := ex.Body
		if len(wrap.Game) > 0 {
			body = wrap.Game
		} else if len(wrap.Players) == 0 {
			continue
		}
		var v rules.View
		if err := json.Unmarshal(body, &v); err != nil {
			g.t.Fatalf("%s %s: cannot read the view: %v", ex.Method, ex.Path, err)
		}
		if v.Code != g.code {
			continue
		}
		g.checkView(viewer, v, ex.Method+" "+ex.Path)
		g.viewsChecked[viewer]++
		if ex.Gzipped {
			g.viewsGzipped++
		}
	}
}

func (g *game) checkView(viewer string, v rules.View, where string) {
	g.t.Helper()
	who := viewer
	if who == "" {
		who = "the public screen"
	}
	over := v.Phase.Name == rules.PhaseGameOver
	mod := viewer == "host" && g.moderator == rules.ModeratorHost
	for _, p := range v.Players {
		if p.Role == "" {
			continue
		}
		if p.Role != g.deal[p.ID] {
			g.t.Errorf("%s to %s: %s has role %q, the deal says %q", where, who, p.ID, p.Role, g.deal[p.ID])
		}
		if !g.mayKnow(viewer, p.ID, v) {
			g.t.Errorf("LEAK %s to %s (%s): the role of %s (%s) at %s", where, who, g.deal[viewer], p.ID, p.Role, v.Phase.Name)
		}
	}
	if over || mod {
		return
	}
	for _, e := range v.Events {
		switch {
		case e.Type == rules.EvAct:
			g.t.Errorf("LEAK %s to %s: a night act %+v", where, who, e)
		case e.Type == rules.EvChecked && e.Actor != viewer:
			g.t.Errorf("LEAK %s to %s: another's check %+v", where, who, e)
		case e.Type == rules.EvShot && (viewer == "" || viewer == "host" || g.team(viewer) != rules.MafiaTeam):
			g.t.Errorf("LEAK %s to %s: a mafia shot %+v", where, who, e)
		case e.Type == rules.EvShot && e.Actor != viewer && v.Rules.EyesClosed && e.Night > 1:
			g.t.Errorf("LEAK %s to %s: a partner's shot made with eyes closed (R-SPORT-10) %+v", where, who, e)
		case e.Role != "" && !g.mayKnow(viewer, e.Target, v):
			g.t.Errorf("LEAK %s to %s: a role in %+v", where, who, e)
		}
	}
	if v.Night != nil {
		g.t.Errorf("LEAK %s to %s: the night's choices", where, who)
	}
	if v.You != nil && len(v.You.Shots) > 0 && g.team(viewer) != rules.MafiaTeam {
		g.t.Errorf("LEAK %s to %s: the mafia's shots", where, who)
	}
	if v.You != nil && v.Rules.EyesClosed && v.Phase.Night > 1 {
		for _, s := range v.You.Shots {
			if s.Actor != viewer {
				g.t.Errorf("LEAK %s to %s: a partner's shot made with eyes closed (R-SPORT-10) %+v", where, who, s)
			}
		}
	}
}

// checkPages reads every phone's page: no seat shows a role its player may not
// know, neither as data nor in words of the page's language.
func (g *game) checkPages() {
	g.t.Helper()
	if len(g.deal) < len(g.phones) {
		return
	}
	pages := map[string]*page{"": g.host}
	if g.moderator == rules.ModeratorHost {
		pages = map[string]*page{}
		if g.screen != nil {
			pages[""] = g.screen
		}
	}
	for _, p := range g.phones {
		pages[p.id] = p.page
	}
	deal := map[string]string{}
	for id, r := range g.deal {
		deal[id] = string(r)
	}
	dealJSON, _ := json.Marshal(deal)
	for viewer, p := range pages {
		var seats []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
			Text string `json:"text"`
			Name string `json:"name"` // the localized name of the player's real role
		}
		p.eval(fmt.Sprintf(`(async () => {
			const { makeT, roleKey, loadLang } = await import('/js/i18n.js');
			await loadLang(document.documentElement.lang);
			const t = makeT(document.documentElement.lang);
			const deal = %s;
			const rules = { preset: %q };
			return [...document.querySelectorAll('[data-player]')].map((e) => ({ id: e.dataset.player, role: e.dataset.role || '',
				text: e.innerText, name: deal[e.dataset.player] ? t(roleKey(deal[e.dataset.player], rules)) : '' }));
		})()`, dealJSON, g.preset), &seats)
		// The views are read after the page, so that a page can never show a
		// state newer than the view it is judged by.
		v := g.view("")
		if viewer != "" {
			v = g.view(g.phone(viewer).token)
		}
		for _, s := range seats {
			// Open on the page, outside the held role card, are only the cards
			// everyone has seen: a neighbour may glance at any phone.
			if s.Role != "" && !g.mayKnow("", s.ID, v) {
				g.t.Errorf("the page of %s shows the card of %s (%s) openly, before it is public", p.name, s.ID, s.Role)
			}
			if g.mayKnow(viewer, s.ID, v) {
				continue
			}
			if s.Name != "" && strings.Contains(s.Text, s.Name) {
				g.t.Errorf("LEAK on the page of %s: the seat of %s shows %q", p.name, s.ID, s.Text)
			}
		}
	}
}
