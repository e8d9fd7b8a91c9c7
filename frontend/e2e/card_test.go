package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"citysleeps/shared/rules"
)

// revealSel is the Commissar's reveal (R-PARTY-04), on his held card's face.
const revealSel = `.card-face [data-card-act=reveal]`

// touch does to sel what a finger would: a tap, or, for what is on the role
// card's face, a press on the card, a slide onto sel and a let-go there.
func (p *page) touch(sel string) bool {
	p.t.Helper()
	if strings.HasPrefix(sel, ".card-face ") {
		return p.slide(sel)
	}
	return p.tap(sel)
}

// pageDump is a phone's whole page as a script on it could read it, in two
// parts: the markup (every tag with all its attributes but those people read)
// and the text (every element's text, node by node, the words of labels and
// titles, every field's value). Together they hold all of the page's
// outerHTML and the fields' values besides; apart, an id is looked for in the
// markup only, where the words of a language ("the mafia", Romanian "mafia")
// do not count.
type pageDump struct {
	Lang string `json:"lang"`
	// Step is what the page shows: the revision (main's data-version and
	// data-tick), and whether it is the page of a player out of the game,
	// which shows the seats at night too, or of the day's speaker, whose page
	// shows the floor's choices (a nomination's seats) in place of the seat
	// list. Who is out and who speaks is public: pages differ by it whatever
	// the cards, so only pages of the same step are compared.
	Step   string `json:"step"`
	Markup string `json:"markup"`
	Text   string `json:"text"`
}

const dumpJS = `(() => {
	const read = ['aria-label', 'title', 'alt', 'placeholder'];
	const markup = [];
	const text = []; // each text node on its own line, so that words of two elements do not run together
	const walk = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) text.push(n.data);
	for (const el of document.querySelectorAll('*')) {
		const attrs = [...el.attributes].filter((a) => !read.includes(a.name)).map((a) => a.name + '="' + a.value + '"');
		markup.push('<' + [el.localName, ...attrs].join(' ') + '>');
		for (const a of read) if (el.hasAttribute(a)) text.push(el.getAttribute(a));
		if (typeof el.value === 'string' && el.value) text.push(el.value);
	}
	const d = (document.querySelector('main') || {}).dataset || {};
	const out = document.querySelector('[data-screen=dead]') ? 'out' : document.querySelector('[data-screen=speech]') ? 'speaking' : 'in';
	return { lang: document.documentElement.lang, step: [d.version, d.tick, out].join('/'), markup: markup.join('\n'), text: text.join('\n') };
})()`

func (p *page) dump() pageDump {
	p.t.Helper()
	var d pageDump
	p.eval(dumpJS, &d)
	return d
}

// cardSecrets are what a player's card tells its holder, as they could show
// on a page: ids in the markup (the role's, the team's, the teammates' roles,
// the acts only this card has now), words in the page's language (the names
// of the role, the team and the teammates' roles, the check results, the
// shots and victims seen tonight, the words of the reveal, and the ids
// again) and the team's symbol.
type cardSecrets struct {
	IDs     []string `json:"-"`
	Words   []string `json:"words"`
	Symbols []string `json:"symbols"`
	// What a held card must show: the role's name, the team's, the
	// teammates' roles, and every check result worded as the card words it.
	Role   string   `json:"role"`
	Team   string   `json:"team"`
	Mates  []string `json:"mates"`
	Checks []string `json:"checks"`
}

// cardRoles are every role a card may carry.
var cardRoles = []rules.Role{rules.Citizen, rules.Mafia, rules.Don, rules.Sheriff, rules.Doctor,
	rules.Lover, rules.Advocate, rules.Cinderella, rules.Maniac}

// shownRoleJS reads the role a held card's face shows the way its player
// does: the role's name on the face, in the page's language, told from every
// other role's name by the app's own messages (the rules say whether the
// Sheriff is a Commissar). It returns the role's id, or "" when the face
// names none; a longer name wins over one it ends with.
const shownRoleJS = `(async (roles, rules) => {
	const { makeT, roleKey, loadLang } = await import('/js/i18n.js');
	await loadLang(document.documentElement.lang);
	const t = makeT(document.documentElement.lang);
	const el = document.querySelector('.card-face .role-name');
	if (!el) return '';
	const text = el.textContent.trim();
	const named = roles.map((r) => [r, t(roleKey(r, rules))]).filter(([, n]) => text === n || text.endsWith(' ' + n));
	named.sort((a, b) => b[1].length - a[1].length);
	return named.length ? named[0][0] : '';
})`

// shownRole is the role the held card's face of p shows (shownRoleJS), under
// the rules of view v.
func (p *page) shownRole(v rules.View) string {
	p.t.Helper()
	roles, _ := json.Marshal(cardRoles)
	rs, _ := json.Marshal(v.Rules)
	var role string
	p.eval(fmt.Sprintf(`%s(%s, %s)`, shownRoleJS, roles, rs), &role)
	return role
}

// secretsJS words the secrets of the card in view v (a player's view) in the
// page's language, with the app's own messages.
const secretsJS = `(async (v) => {
	const { makeT, roleKey, sheriffVariant, loadLang } = await import('/js/i18n.js');
	await loadLang(document.documentElement.lang);
	const { playerIndex, playerLabel } = await import('/js/story.js');
	const { ICON } = await import('/js/ui.js');
	const t = makeT(document.documentElement.lang);
	const you = v.you;
	const idx = playerIndex(v.players);
	const P = (id) => playerLabel(t, idx, id);
	const role = (r) => t(roleKey(r, v.rules));
	const mates = you.team === 'mafia' ? v.players.filter((p) => p.id !== you.id && p.team === 'mafia') : [];
	const checks = (you.checks || []).map((c) => t(c.kind === 'sheriff' ? sheriffVariant(c.yes ? 'check.sheriff' : 'check.not_sheriff', v.rules)
		: c.yes ? 'check.black' : 'check.red', { night: c.night, target: P(c.target) }));
	const shots = (you.shots || []).map((s) => t('night.shot', { actor: P(s.actor), target: P(s.target) }));
	const victims = (you.victims || []).length ? [t('night.victims', { names: t.list(you.victims.map(P)) })] : [];
	const reveal = (v.actions || []).some((a) => a.type === 'reveal') ? [t('day.reveal')] : [];
	const card = { role: role(you.role), team: t('team.' + you.team), mates: mates.map((p) => role(p.role)), checks };
	return { ...card, symbols: [ICON[you.team]], words: [card.role, card.team, ...card.mates, ...checks, ...shots, ...victims, ...reveal] };
})`

// roleActs are the acts of a card, not of every seat: a page that offers one
// outside the held card tells whose card it is.
var roleActs = []rules.ActionType{rules.ActKill, rules.ActCheck, rules.ActHeal, rules.ActProtect, rules.ActDefend, rules.ActShoot, rules.ActReveal}

// secrets are the secrets of ph's card in v, ph's view, worded in the
// language ph's page shows.
func (g *game) secrets(ph *player, v rules.View) cardSecrets {
	g.t.Helper()
	if v.You == nil {
		ph.fatalf("no card in the view")
	}
	b, err := json.Marshal(v)
	if err != nil {
		g.t.Fatal(err)
	}
	var s cardSecrets
	ph.eval(fmt.Sprintf(`%s(%s)`, secretsJS, b), &s)
	s.IDs = []string{string(v.You.Role), string(v.You.Team)}
	for _, p := range v.Players {
		if v.You.Team == rules.MafiaTeam && p.ID != ph.id && p.Team == rules.MafiaTeam {
			s.IDs = append(s.IDs, string(p.Role))
		}
	}
	for _, o := range v.Actions {
		if slices.Contains(roleActs, o.Type) {
			s.IDs = append(s.IDs, string(o.Type))
		}
	}
	s.IDs, s.Words = unique(s.IDs), unique(append(s.Words, s.IDs...))
	return s
}

// unique drops the strings that come again, whatever their case.
func unique(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.ContainsFunc(out, func(y string) bool { return strings.EqualFold(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

// secretKinds say where each kind of secret is looked for on a page and how
// it is counted: an id as a word of its own in the markup, in any language;
// a word in the text, whatever its case and ending ("Шерифа"), against pages
// in the same language; a symbol anywhere in the text.
var secretKinds = []struct {
	name     string
	of       func(cardSecrets) []string
	count    func(pageDump, string) int
	sameLang bool
}{
	{"id", func(s cardSecrets) []string { return s.IDs }, func(d pageDump, tok string) int { return occurrences(d.Markup, tok, true, false) }, false},
	{"word", func(s cardSecrets) []string { return s.Words }, func(d pageDump, tok string) int { return occurrences(d.Text, tok, false, true) }, true},
	{"symbol", func(s cardSecrets) []string { return s.Symbols }, func(d pageDump, tok string) int { return strings.Count(d.Text, tok) }, false},
}

// checkFaceDown reads every phone's page while no card is held and checks
// that none shows anything of its card (cardSecrets): no id, word or symbol
// of the card is on its page more often than on the page of a phone that
// holds another card and shows the same step of the game. What every
// phone shows (the cards everyone has seen, "The Commissar was right")
// counts the same on both; a card's secrets count only on its own page. The
// principle is the night's (checkNightScreens): outside the held card, a
// phone's page is the same whatever the card.
func (g *game) checkFaceDown() {
	g.t.Helper()
	if len(g.deal) < len(g.phones) {
		return
	}
	if name := g.view("").Phase.Name; name == rules.PhaseLobby || name == rules.PhaseGameOver {
		return
	}
	type phone struct {
		ph   *player
		page pageDump
		card cardSecrets
	}
	var table []phone
	for _, ph := range g.phones {
		page := ph.dump()
		table = append(table, phone{ph, page, g.secrets(ph, g.view(ph.token))})
	}
	for _, a := range table {
		compared := false
		for _, kind := range secretKinds {
			for _, tok := range kind.of(a.card) {
				most := -1 // on the pages of the other cards
				for _, b := range table {
					if b.ph == a.ph || b.page.Step != a.page.Step || (kind.sameLang && b.page.Lang != a.page.Lang) ||
						slices.ContainsFunc(kind.of(b.card), func(s string) bool { return strings.EqualFold(s, tok) }) {
						continue
					}
					most = max(most, kind.count(b.page, tok))
				}
				if most < 0 {
					continue // no other card's page to compare with
				}
				compared = true
				leak := a.ph.id + " " + kind.name + " " + tok
				if n := kind.count(a.page, tok); n > most && !g.leaks[leak] {
					g.leaks[leak] = true // told once a game
					g.t.Errorf("LEAK on the face-down page of %s (%s): the %s %q is there %d times, on the pages of other cards at most %d:\n%s",
						a.ph.name, a.ph.role, kind.name, tok, n, most, around(a.page, tok))
				}
			}
		}
		if compared {
			g.faceDownChecked[a.ph.role]++
		}
	}
}

// around shows where tok first stands on the page.
func around(d pageDump, tok string) string {
	for _, s := range []string{d.Markup, d.Text} {
		s, tok := strings.ToLower(s), strings.ToLower(tok)
		if i := strings.Index(s, tok); i >= 0 {
			return strings.ToValidUTF8("…"+s[max(0, i-120):min(len(s), i+len(tok)+120)]+"…", "")
		}
	}
	return ""
}

// occurrences counts tok in s where it begins a word: no letter or digit just
// before it, and, when whole, none just after either. fold ignores case.
func occurrences(s, tok string, whole, fold bool) int {
	if fold {
		s, tok = strings.ToLower(s), strings.ToLower(tok)
	}
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	n := 0
	for i := 0; tok != ""; {
		j := strings.Index(s[i:], tok)
		if j < 0 {
			break
		}
		at, end := i+j, i+j+len(tok)
		before, _ := utf8.DecodeLastRuneInString(s[:at])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if !isWord(before) && (!whole || !isWord(after)) {
			n++
		}
		i = at + 1
	}
	return n
}

// lookAtCard presses and holds ph's card as a player would, checks that its
// face shows the card in v, ph's view (the role's id and name, the team, the
// teammates' roles, every check result) and that the face is in the page only
// while held, and
// returns the role the face shows. seen, when not nil, is called while the
// card is held, with that role.
func (g *game) lookAtCard(ph *player, v rules.View, seen func(role string)) string {
	g.t.Helper()
	const face = `document.querySelector('.card-face')`
	var down bool
	ph.eval(`!`+face, &down)
	if !down {
		ph.fatalf("the card's face is in the page before the card is held")
	}
	release := ph.hold(`.role-card`)
	ph.waitFor("the card's face", `document.querySelector('.card-face .role-name')`)
	role := ph.shownRole(v)
	if v.You == nil || string(v.You.Role) != role {
		ph.fatalf("the card says %q, the server %v", role, v.You)
	}
	held, card := ph.dump(), g.secrets(ph, v)
	for _, w := range slices.Concat([]string{card.Role, card.Team}, card.Mates, card.Checks) {
		if occurrences(held.Text, w, false, true) == 0 {
			var says string
			ph.eval(`document.querySelector('.card-face').innerText`, &says)
			g.t.Errorf("the held card of %s (%s) does not show %q; it says:\n%s", ph.name, role, w, says)
		}
	}
	g.checksHeld += len(card.Checks)
	if seen != nil {
		seen(role)
	}
	release()
	ph.waitFor("the card's face to leave the page", `!`+face)
	return role
}

// auditHeldCard holds ph's card until sel is on its face, takes the
// screenshot what and audits the page as it is then (auditJS), and lets go.
func (g *game) auditHeldCard(ph *player, sel, what string) {
	g.t.Helper()
	release := ph.hold(`.role-card`)
	ph.waitFor(sel+" on the held card", fmt.Sprintf(`document.querySelector(%q)`, sel))
	g.shot(ph.page, what)
	lang := ph.lang
	if lang == "" {
		lang = g.lang
	}
	for _, problem := range ph.audit(lang, append([]string{g.code}, names...)) {
		g.t.Errorf("%s, %s: %s", ph.name, what, problem)
	}
	release()
	ph.waitFor("the card's face to leave the page", `!document.querySelector('.card-face')`)
}

// checkNewChecks looks at the cards of the players who have checked someone
// since their card was last looked at, once the night is over and their page
// shows it: each result is on the held card.
func (g *game) checkNewChecks(pub rules.View) {
	g.t.Helper()
	if name := pub.Phase.Name; len(g.deal) < len(g.phones) || name == rules.PhaseNight || name == rules.PhaseLobby || name == rules.PhaseGameOver {
		return
	}
	for _, ph := range g.phones {
		v := g.view(ph.token)
		if v.You == nil || len(v.You.Checks) <= g.checksLookedAt[ph.id] {
			continue
		}
		ph.eval(`window.dispatchEvent(new Event('online'))`, nil)
		ph.waitFor("the page after the night", fmt.Sprintf(`Number((document.querySelector('main') || {dataset: {}}).dataset.version) >= %d`, v.Version))
		g.lookAtCard(ph, v, nil)
		g.checksLookedAt[ph.id] = len(v.You.Checks)
	}
}

// checkCardsChecked fails the game when a role's face-down page was never
// compared with another card's, or no check result was seen on a held card.
func (g *game) checkCardsChecked() {
	g.t.Helper()
	g.t.Logf("%s: face-down pages compared with other cards', by role: %v; check results seen on held cards: %d", g.preset, g.faceDownChecked, g.checksHeld)
	for _, role := range g.deal {
		if g.faceDownChecked[string(role)] == 0 {
			g.t.Errorf("the face-down page of no %s was compared with another card's", role)
		}
	}
	checked := false
	for _, ph := range g.phones {
		v := g.view(ph.token)
		checked = checked || (v.You != nil && len(v.You.Checks) > 0)
	}
	if checked && g.checksHeld == 0 {
		g.t.Errorf("no check result was seen on a held card")
	}
}
