package e2e

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"citysleeps/shared/rules"
)

// e2eHandOver is the hand-over of the browser tests' games, in seconds: the
// bots tap at once, so the presets' own 3 s would make each game wait minutes
// in hand-overs; 2 s keeps the same rhythm (a phone polls once in every
// hand-over) at two thirds of the wait.
const e2eHandOver = 2

// timelineJS runs in every page before its own scripts: it notes, in
// window.__steps, each step the page starts to show (the data-* of its main
// element, stepData in js/ui.js) and when, by the wall clock the test shares,
// and each hand-over (closing) it starts to show, as the step it closes with
// handOverMark.
const timelineJS = `(() => {
	window.__steps = [];
	const note = () => {
		const m = document.querySelector('main');
		if (!m || !m.dataset.phase) return;
		const d = m.dataset;
		const key = [d.phase, d.day, d.night, d.wake, d.speaker, d.reason].join('|') + (d.closing ? '` + handOverMark + `' : '');
		const last = window.__steps[window.__steps.length - 1];
		if (!last || last.key !== key) window.__steps.push({ key, at: Date.now() });
	};
	new MutationObserver(note).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-phase', 'data-closing'] });
})()`

// stepKey names a step as timelineJS does.
func stepKey(v rules.View) string {
	speaker := ""
	if v.Phase.Speaker != nil {
		speaker = *v.Phase.Speaker
	}
	return fmt.Sprintf("%s|%d|%d|%d|%s|%s", v.Phase.Name, v.Phase.Day, v.Phase.Night, v.Phase.Wake, speaker, v.Phase.Reason)
}

// handOverMark ends the key of a step that is closing: a hand-over.
const handOverMark = "|closing"

// opening is a step the server opened, or a hand-over it began, and when.
type opening struct {
	key string
	at  time.Time
}

// timeline follows the server's public view as the test's loop reads it and
// notes when each step opened: at the end of the hand-over or deadline that
// brought it when there was one, else when the loop first saw it; and when
// each hand-over began, a change every page must show soon: e2eHandOver
// before its end.
type timeline struct {
	openings, handOvers []opening
	last                rules.View
	seen                bool
}

func (tl *timeline) observe(v rules.View, now time.Time) {
	if v.Phase.Closing && v.Phase.EndsAt != nil {
		key := stepKey(v) + handOverMark
		if n := len(tl.handOvers); n == 0 || tl.handOvers[n-1].key != key {
			tl.handOvers = append(tl.handOvers, opening{key, v.Phase.EndsAt.Add(-e2eHandOver * time.Second)})
		}
	}
	open := !v.Phase.Closing && !v.Phase.Resuming && !v.Phase.Paused && v.Phase.Name != rules.PhaseLobby
	key := stepKey(v)
	if open && (len(tl.openings) == 0 || tl.openings[len(tl.openings)-1].key != key) {
		at := now
		if tl.seen && tl.last.Phase.EndsAt != nil && tl.last.Phase.EndsAt.Before(now) && stepKey(tl.last) != key {
			at = *tl.last.Phase.EndsAt // the deadline or hand-over that opened it
		}
		tl.openings = append(tl.openings, opening{key, at})
	}
	tl.last, tl.seen = v, true
}

// stepLags reads each page's timeline and returns, by kind of page, how long
// after the server opened a step (or began a hand-over, of events) the page
// showed it.
func (g *game) stepLags(events []opening) map[string][]time.Duration {
	lags, _ := g.stepsShown(events)
	return lags
}

// stepsShown is stepLags, and how many of events each page showed, by page.
func (g *game) stepsShown(events []opening) (map[string][]time.Duration, map[*page]int) {
	pages := map[string][]*page{"phone": pagesOf(g.phones)}
	if g.moderator == rules.ModeratorHost {
		pages["console"] = []*page{g.host}
		if g.screen != nil {
			pages["screen"] = []*page{g.screen}
		}
	} else {
		pages["screen"] = []*page{g.host}
	}
	out, shown := map[string][]time.Duration{}, map[*page]int{}
	for kind, ps := range pages {
		for _, p := range ps {
			var steps []struct {
				Key string `json:"key"`
				At  int64  `json:"at"`
			}
			p.eval(`window.__steps || []`, &steps)
			from := 0
			for _, o := range events {
				i := slices.IndexFunc(steps[from:], func(s struct {
					Key string `json:"key"`
					At  int64  `json:"at"`
				}) bool {
					return s.Key == o.key
				})
				if i < 0 {
					continue // a step too short for this page to show (the game moved on)
				}
				from += i
				out[kind] = append(out[kind], max(time.UnixMilli(steps[from].At).Sub(o.at), 0))
				shown[p]++
			}
		}
	}
	return out, shown
}

// reportLags logs, for every kind of page, how soon it showed a step the
// server opened and a hand-over it began, and returns how many of the steps
// each page showed. The figures are for a person to read: on two cores
// shared with the rest of the suite they say more about the machine than the
// game, which the real-game simulation times exactly (make bench).
func (g *game) reportLags() map[*page]int {
	opened, shown := g.stepsShown(g.tl.openings)
	g.t.Logf("%s (%s, hand-over %d s): step opened → shown on the page: %s", g.preset, g.moderator, e2eHandOver, lagLines(opened))
	g.t.Logf("%s (%s, hand-over %d s): hand-over began → shown on the page: %s", g.preset, g.moderator, e2eHandOver, lagLines(g.stepLags(g.tl.handOvers)))
	return shown
}

// lagLines sums lags up by kind of page.
func lagLines(lags map[string][]time.Duration) string {
	kinds := make([]string, 0, len(lags))
	for k := range lags {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var lines []string
	for _, k := range kinds {
		d := slices.Clone(lags[k])
		slices.Sort(d)
		q := func(p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
		lines = append(lines, fmt.Sprintf("%s: n %d, p50 %v, p95 %v, max %v", k, len(d), q(0.5).Round(time.Millisecond), q(0.95).Round(time.Millisecond), d[len(d)-1].Round(time.Millisecond)))
	}
	return strings.Join(lines, "; ")
}

// checkNightScreens waits until every living phone shows the wake that v
// opens, before anyone taps in it, and checks that their pages are the same
// whatever their card, the role card lying face down included: the same
// words, the same seats, the same buttons. Only each player's own seat and
// name may differ.
func (g *game) checkNightScreens(v rules.View) {
	g.t.Helper()
	var living []*player
	for _, ph := range g.phones {
		if pv := g.view(ph.token); pv.You != nil && pv.You.Alive {
			living = append(living, ph)
		}
	}
	want := fmt.Sprintf(`(() => { const d = (document.querySelector('main') || {}).dataset || {};
		return d.phase === 'night' && d.night === %q && d.wake === %q && !d.closing && !document.querySelector('#wake-card:not([hidden])'); })()`,
		fmt.Sprint(v.Phase.Night), fmt.Sprint(v.Phase.Wake))
	type screen struct {
		Lang string   `json:"lang"`
		Me   string   `json:"me"`
		Rest string   `json:"rest"`
		Grid []string `json:"grid"`
		Keys []string `json:"keys"`
	}
	screens := map[string]screen{}
	for _, ph := range living {
		ph.eval(`window.dispatchEvent(new Event('online'))`, nil)
		ph.waitFor("the night's wake", want)
		var s screen
		ph.eval(`(() => {
			const c = document.body.cloneNode(true);
			c.querySelectorAll('#wake-card').forEach((e) => e.remove());
			c.querySelectorAll('.js-timer, .js-closing').forEach((e) => { e.textContent = ''; });
			c.querySelectorAll('.who[data-me]').forEach((e) => { e.textContent = ''; });
			// A seat picked but not confirmed is the holder's own doing, like text
			// typed into a field: the page before the pick is what is compared.
			// Every page loses the same attributes, so their order stays alike.
			c.querySelectorAll('.targets[data-task="night"] .picked').forEach((e) => e.classList.remove('picked'));
			c.querySelectorAll('.targets[data-task="night"] [aria-pressed]').forEach((e) => e.removeAttribute('aria-pressed'));
			c.querySelectorAll('.picked-line').forEach((e) => { e.textContent = ''; });
			c.querySelectorAll('[data-action="confirm"]').forEach((e) => e.removeAttribute('disabled'));
			const grid = c.querySelector('.targets[data-task="night"]');
			const me = grid && grid.querySelector('[data-me]');
			const out = { lang: document.documentElement.lang, me: me ? me.dataset.target : '', grid: [], keys: [] };
			if (grid) {
				for (const b of grid.children) { out.keys.push(b.dataset.target); out.grid.push(b.outerHTML); }
				grid.replaceChildren();
			}
			out.rest = c.innerHTML;
			return out;
		})()`, &s)
		if s.Me != ph.id {
			ph.fatalf("night %d: the own seat is %q, not %s", v.Phase.Night, s.Me, ph.id)
		}
		screens[ph.id] = s
	}
	// Phones in one language must match, whatever their cards.
	byLang := map[string][]*player{}
	for _, ph := range living {
		byLang[screens[ph.id].Lang] = append(byLang[screens[ph.id].Lang], ph)
	}
	compared := 0
	for _, group := range byLang {
		first := group[0]
		a := screens[first.id]
		for _, ph := range group[1:] {
			b := screens[ph.id]
			compared++
			if a.Rest != b.Rest {
				g.t.Errorf("night %d wake %d: the pages of %s (%s) and %s (%s) differ: %s",
					v.Phase.Night, v.Phase.Wake, first.id, first.role, ph.id, ph.role, firstDiff(a.Rest, b.Rest))
				continue
			}
			if !slices.Equal(a.Keys, b.Keys) {
				g.t.Errorf("night %d: the seats offered differ: %v / %v", v.Phase.Night, a.Keys, b.Keys)
				continue
			}
			for i, k := range a.Keys {
				if k != a.Me && k != b.Me && a.Grid[i] != b.Grid[i] {
					g.t.Errorf("night %d: seat %s differs between %s (%s) and %s (%s): %s", v.Phase.Night, k, first.id, first.role, ph.id, ph.role, firstDiff(a.Grid[i], b.Grid[i]))
				}
			}
		}
	}
	if compared == 0 {
		g.t.Errorf("night %d: no two living phones in one language to compare", v.Phase.Night)
	}
	g.shot(living[0].page, "night-screen")
	g.nightScreensChecked++
}

// checkSteps fails the test when a page took part in too few of the steps
// the server opened: every phone, screen and console follows the game step
// by step, and one that falls behind a hand-over (or stops polling) shows
// few. A step that a tap ended before a page's next poll is one it may
// miss, so the test asks for most of them, not all.
func (g *game) checkSteps(shown map[*page]int) {
	g.t.Helper()
	for p, n := range shown {
		if n < 10 || 2*n < len(g.tl.openings) {
			g.t.Errorf("%s showed %d of the %d steps the game opened", p.name, n, len(g.tl.openings))
		}
	}
	if len(shown) < len(g.phones)+1 {
		g.t.Errorf("only %d pages showed any step of the game", len(shown))
	}
}

// firstDiff shows where two pages first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n…%s\n…%s", i, a[from:min(len(a), i+120)], b[from:min(len(b), i+120)])
}
