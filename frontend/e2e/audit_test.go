package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// auditJS checks the page as a person sees it, and returns what is wrong, one
// line each:
//
//   - overflow: the page scrolls sideways, an element sticks out of the box it
//     sits in, or a box cuts its own content off (a name cut short);
//   - a word broken across two lines (a name split mid-word);
//   - a tap target smaller than 44 × 44 px (a radio or checkbox counts as its
//     label);
//   - a drop-down cut short: a select with an option whose words are wider
//     than the control (it shows the chosen one in its own width);
//   - text whose contrast with what is behind it is below 4.5:1, opacity and
//     translucent backgrounds included (disabled controls are exempt);
//   - text in the wrong language: a message key left untranslated, a
//     placeholder left unfilled, Latin words on a Russian or Ukrainian page,
//     Cyrillic or Romanian letters on an English one, English words on a
//     Romanian one, Ukrainian letters on a Russian page and the reverse.
//
// Hidden text (closed details, screen-reader-only labels) is left out of the
// layout checks; labels for screen readers are read for their language.
// allow lists words that may appear in any language: the players' names, the
// room code.
const auditJS = `((lang, allow) => {
	const problems = [];
	const add = (p) => { if (!problems.includes(p)) problems.push(p); };
	const vw = document.documentElement.clientWidth;
	// Text kept for screen readers only: the .sr-only class, or the same
	// styles set by a media query (a 1 px, clipped, absolute box).
	const clippedAway = (e) => { const cs = getComputedStyle(e); return cs.position === 'absolute' && cs.overflow === 'hidden' && e.getBoundingClientRect().width <= 1; };
	const srOnly = (el) => { for (let e = el; e && e !== document.body; e = e.parentElement) if (e.classList.contains('sr-only') || clippedAway(e)) return true; return false; };
	const shown = (el) => {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return false;
		const cs = getComputedStyle(el);
		if (cs.visibility === 'hidden' || cs.display === 'none') return false;
		// The content of a closed details element keeps its boxes, unseen.
		const folded = el.closest('details:not([open])');
		return !folded || folded === el || !!el.closest('summary');
	};
	const desc = (el) => {
		const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).join('.') : '';
		const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
		return el.tagName.toLowerCase() + cls + (text ? ' "' + text + '"' : '');
	};
	const skip = (el) => !el || el.closest('script,style,option,noscript,select');

	// Overflow.
	if (document.documentElement.scrollWidth > vw + 1) add('overflow: the page is ' + document.documentElement.scrollWidth + 'px wide in a ' + vw + 'px window');
	for (const el of document.querySelectorAll('body *')) {
		if (skip(el) || srOnly(el) || !shown(el)) continue;
		const cs = getComputedStyle(el);
		const parent = el.parentElement;
		if (parent && cs.position !== 'fixed' && cs.position !== 'absolute') {
			const pd = getComputedStyle(parent).display;
			if (pd !== 'inline' && pd !== 'contents') {
				const r = el.getBoundingClientRect(), pr = parent.getBoundingClientRect();
				const out = Math.max(r.right - pr.right, pr.left - r.left);
				if (out > 1.5) add('overflow: ' + desc(el) + ' sticks out of ' + desc(parent) + ' by ' + Math.round(out) + 'px');
			}
		}
		if (['hidden', 'clip', 'auto', 'scroll'].includes(cs.overflowX) && !['INPUT', 'TEXTAREA', 'SELECT', 'IMG'].includes(el.tagName) && el.scrollWidth > el.clientWidth + 1) {
			add('clipped: ' + desc(el) + ' shows ' + el.clientWidth + 'px of ' + el.scrollWidth + 'px');
		}
	}

	// Words broken across lines, and the text to check for its language.
	const range = document.createRange();
	const texts = [];
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		const el = n.parentElement;
		if (skip(el) || !n.data.trim()) continue;
		const other = el.closest('[lang]');
		if (other && other.getAttribute('lang') !== lang && other !== document.documentElement) continue;
		// Text on both sides of a <wbr> (a place to break a link) is one word.
		const push = (text) => { if (n.previousSibling && n.previousSibling.nodeName === 'WBR' && texts.length) texts[texts.length - 1] += text; else texts.push(text); };
		if (srOnly(el)) { push(n.data); continue; }
		if (!shown(el)) continue;
		push(n.data);
		for (const m of n.data.matchAll(/[^\s\-–—\/]{2,}/g)) {
			range.setStart(n, m.index);
			range.setEnd(n, m.index + m[0].length);
			const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
			if (tops.size > 1) add('broken word: "' + m[0] + '" in ' + desc(el));
		}
	}
	for (const el of document.querySelectorAll('[aria-label], img[alt], [title]')) {
		if (skip(el)) continue;
		for (const a of ['aria-label', 'alt', 'title']) if (el.getAttribute(a)) texts.push(el.getAttribute(a));
	}

	// Tap targets.
	for (const el of document.querySelectorAll('button, a[href], select, input, textarea, summary, [role=button]')) {
		if (el.type === 'hidden' || srOnly(el)) continue;
		const target = el.tagName === 'INPUT' && (el.type === 'radio' || el.type === 'checkbox') ? (el.closest('label') || el) : el;
		if (!shown(target)) continue;
		const r = target.getBoundingClientRect();
		if (r.width < 43.5 || r.height < 43.5) add('small target: ' + desc(target) + ' is ' + Math.round(r.width) + '×' + Math.round(r.height) + 'px');
	}

	// Drop-downs: each option measured in a copy of the select as wide as its
	// words want.
	for (const sel of document.querySelectorAll('select')) {
		if (srOnly(sel) || !shown(sel)) continue;
		const has = sel.getBoundingClientRect().width;
		for (const opt of sel.options) {
			const probe = sel.cloneNode(false);
			probe.removeAttribute('id');
			probe.append(new Option(opt.text));
			Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', width: 'auto', minWidth: '0', maxWidth: 'none' });
			sel.parentElement.append(probe);
			const needs = probe.getBoundingClientRect().width;
			probe.remove();
			if (needs > has + 1) add('cut label: ' + desc(sel) + ' shows "' + opt.text + '" in ' + Math.round(has) + ' of ' + Math.round(needs) + 'px');
		}
	}

	// Contrast.
	const parse = (c) => {
		const m = /rgba?\(([^)]+)\)/.exec(c || '');
		if (!m) return null;
		const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
		return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
	};
	const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
	const mix = (c, under, a) => over({ ...c, a }, under);
	const backdrop = (el) => {
		const chain = [];
		for (let e = el; e; e = e.parentElement) chain.unshift(e);
		let bg = { r: 255, g: 255, b: 255, a: 1 };
		for (const e of chain) {
			const c = parse(getComputedStyle(e).backgroundColor);
			if (c && c.a > 0) bg = over(c, bg);
		}
		return bg;
	};
	const lum = (c) => {
		const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
	};
	const seen = new Set();
	const walker2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walker2.nextNode(); n; n = walker2.nextNode()) {
		const el = n.parentElement;
		if (!n.data.trim() || skip(el) || seen.has(el) || srOnly(el) || !shown(el)) continue;
		seen.add(el);
		if (el.closest('button:disabled, [aria-disabled=true], input:disabled')) continue;
		const color = parse(getComputedStyle(el).color);
		if (!color) continue;
		let bg = backdrop(el);
		let fg = over(color, bg);
		for (let e = el; e; e = e.parentElement) {
			const a = Number(getComputedStyle(e).opacity);
			if (a < 1) {
				const under = e.parentElement ? backdrop(e.parentElement) : { r: 255, g: 255, b: 255, a: 1 };
				fg = mix(fg, under, a);
				bg = mix(bg, under, a);
			}
		}
		const l1 = lum(fg), l2 = lum(bg);
		const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
		if (ratio < 4.5) add('contrast ' + ratio.toFixed(2) + ':1: ' + desc(el));
	}

	// Language.
	if (document.documentElement.lang !== lang) add('language: the page says lang=' + document.documentElement.lang);
	let text = texts.join('\n');
	for (const w of allow || []) text = text.split(w).join(' ');
	text = text.replace(/https?:\/\/\S+/g, ' ').replace(/(?<![\p{L}\p{N}])[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{6}(?![\p{L}\p{N}])/gu, ' ');
	for (const m of text.matchAll(/\b[a-z]+(?:_[a-z]+)*(?:\.[a-z_]+)+\b/g)) add('untranslated key: ' + m[0]);
	for (const m of text.matchAll(/\{[a-zA-Z_]+\}/g)) add('unfilled placeholder: ' + m[0]);
	const words = (re) => [...new Set([...text.matchAll(re)].map((m) => m[0]))];
	if (lang === 'ru' || lang === 'uk') {
		for (const w of words(/[A-Za-zĂÂÎȘȚăâîșț]{2,}/g)) if (w !== 'QR') add('Latin text on a ' + lang + ' page: ' + w);
	}
	if (lang === 'ru') for (const w of words(/[А-Яа-яЁё]*[ІіЇїЄєҐґ][А-Яа-яЁёІіЇїЄєҐґ]*/g)) add('Ukrainian on a Russian page: ' + w);
	if (lang === 'uk') for (const w of words(/[А-Яа-яІіЇїЄєҐґ]*[ЫыЭэЪъЁё][А-Яа-яЁё]*/g)) add('Russian on a Ukrainian page: ' + w);
	if (lang === 'en' || lang === 'ro') for (const w of words(/[А-Яа-яЁёІіЇїЄєҐґ]{2,}/g)) add('Cyrillic on a ' + lang + ' page: ' + w);
	if (lang === 'en') for (const w of words(/[A-Za-z]*[ĂÂÎȘȚăâîșț][A-Za-zĂÂÎȘȚăâîșț]*/g)) add('Romanian on an English page: ' + w);
	if (lang === 'ro') for (const w of words(/(?<!\p{L})(?:the|and|you|your|with|this|that|of|to|for|is|will|next|step|seconds?|players?|game|vote|votes|nobody)(?!\p{L})/giu)) add('English on a Romanian page: ' + w);
	return problems;
})`

// audit runs auditJS on the page in language lang, allowing the words in allow.
func (p *page) audit(lang string, allow []string) []string {
	p.t.Helper()
	a, _ := json.Marshal(allow)
	var problems []string
	p.eval(fmt.Sprintf(`%s(%q, %s)`, auditJS, lang, a), &problems)
	return problems
}

// TestAuditFindsProblems shows that each check of auditJS fires: a page with one
// fault of each kind gets one report of each kind, and the same page without
// them gets none.
func TestAuditFindsProblems(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	p := b.newPage(t, "phone", 390, 844)
	p.navigate(srv.URL + "/")
	p.waitFor("the home screen", `document.querySelector('form.new-game')`)
	p.eval(`(() => { const s = document.querySelector('select.lang'); s.value = 'ru'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
	p.waitFor("Russian", `document.documentElement.lang === 'ru'`)
	if got := p.audit("ru", nil); len(got) != 0 {
		t.Fatalf("the home page in Russian: %v", got)
	}
	// Styles set through the DOM: the page's CSP refuses inline style attributes.
	p.eval(`(() => {
		const box = document.createElement('div');
		const add = (tag, text, style) => { const e = document.createElement(tag); e.textContent = text; Object.assign(e.style, style); box.append(e); return e; };
		add('p', 'Тусклый текст', { color: '#555' });
		add('button', '×', { minHeight: '0', minWidth: '0', padding: '0', width: '30px', height: '30px' });
		const narrow = add('div', '', { width: '100px' });
		const wide = document.createElement('span');
		wide.textContent = 'Широкий блок';
		Object.assign(wide.style, { display: 'block', width: '300px' });
		narrow.append(wide);
		add('p', 'Достопримечательности', { width: '4em', overflowWrap: 'anywhere' });
		add('p', 'phase.closing {count} Game over', {});
		const sel = add('select', '', { width: '100px' });
		sel.append(new Option('Короткий'), new Option('Очень длинное название варианта, которое не помещается'));
		document.querySelector('main').append(box);
		return true;
	})()`, nil)
	got := strings.Join(p.audit("ru", nil), "\n")
	for _, want := range []string{"contrast", "small target", "sticks out", "broken word", "cut label", "untranslated key: phase.closing", "unfilled placeholder: {count}", "Latin text on a ru page: Game"} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit missed %q; it found:\n%s", want, got)
		}
	}
	p.checkErrors()
}

// pickFit is how a phone's pick (the night's tap, a vote) sits in its screen.
type pickFit struct {
	Found       bool // the page is a pick: its seats and Confirm
	PageScrolls bool // the page is taller than the screen
	GridScrolls bool // the seats scroll in their own box
	InView      bool // Confirm is inside the screen
	Free        bool // and nothing covers it (the role card, the wake banner)
	Buttons     int  // in the grid: the seats, and the one for none
	Needs, Has  int  // the grid's height, and the height it is shown in
}

const pickFitJS = `(() => {
	const c = document.querySelector('main.fit .fit-card [data-action=confirm]');
	const grid = document.querySelector('main.fit .fit-card .targets');
	if (!c || !grid) return { Found: false };
	const r = c.getBoundingClientRect();
	const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	return { Found: true, PageScrolls: document.documentElement.scrollHeight > innerHeight + 1,
		GridScrolls: grid.scrollHeight > grid.clientHeight + 1, InView: r.top >= 0 && r.bottom <= innerHeight,
		Free: !!top && (top === c || c.contains(top)), Buttons: grid.children.length, Needs: grid.scrollHeight, Has: grid.clientHeight };
})()`

// pickProblems checks a phone's pick page of seats (and a button for none) as
// the night and the vote promise: with up to 12 seats it fits the screen,
// nothing scrolls; with more, only the seats scroll; Confirm is always in
// view and free to tap.
func (p *page) pickProblems(seats int) []string {
	p.t.Helper()
	p.scrollTop()
	var f pickFit
	p.eval(pickFitJS, &f)
	var out []string
	switch {
	case !f.Found:
		return []string{"no pick with Confirm on the page"}
	case f.Buttons != seats+1:
		out = append(out, fmt.Sprintf("the grid has %d buttons for %d seats and none", f.Buttons, seats))
	}
	if f.PageScrolls {
		out = append(out, "the page scrolls")
	}
	if seats <= 12 && f.GridScrolls {
		out = append(out, fmt.Sprintf("the seats scroll with %d of them: %d px shown in %d", seats, f.Needs, f.Has))
	}
	if !f.InView || !f.Free {
		out = append(out, fmt.Sprintf("Confirm is not in view and free to tap (in view %v, free %v)", f.InView, f.Free))
	}
	return out
}

// inViewJS reports whether the element sel is wholly inside the window, below
// the sticky top bar, without scrolling.
const inViewJS = `((sel) => {
	const el = document.querySelector(sel);
	if (!el) return 'missing';
	const r = el.getBoundingClientRect();
	const bar = document.querySelector('.topbar');
	const top = bar ? bar.getBoundingClientRect().bottom : 0;
	return r.top >= top - 1 && r.bottom <= innerHeight + 1 ? '' : 'at ' + Math.round(r.top) + '–' + Math.round(r.bottom) + ' px, the window shows ' + Math.round(top) + '–' + innerHeight;
})`

// outOfView says where sel is when it is not wholly in view as the page
// stands (not scrolled to it), or "" when it is.
func (p *page) outOfView(sel string) string {
	p.t.Helper()
	var why string
	p.eval(fmt.Sprintf(`%s(%q)`, inViewJS, sel), &why)
	return why
}
