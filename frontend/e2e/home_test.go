package e2e

import (
	"fmt"
	"strings"
	"testing"

	"citysleeps/shared/rules"
)

// TestHomeAndLinks covers the home screen in every language on a phone and on a
// big screen, the custom rules form and its share link, starting a game straight
// from a /new link, joining by typing a room code, and an unknown code.
func TestHomeAndLinks(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)

	phone := b.newPage(t, "phone", 360, 640)
	phone.navigate(srv.URL + "/")
	phone.waitFor("the home screen", `document.querySelector('form.new-game')`)
	for _, lang := range []string{"en", "ru", "uk", "ro"} {
		phone.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select.lang'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, lang), nil)
		phone.waitFor("the language", fmt.Sprintf(`document.documentElement.lang === %q`, lang))
		phone.scrollTop()
		phone.review("home-" + lang + "-360")
	}
	// The language is remembered across a reload.
	phone.reload()
	phone.waitFor("the remembered language", `document.documentElement.lang === 'ro'`)
	// The form is drawn once the rules' schema has come (GET /api/rules).
	phone.waitFor("the rules form", `document.querySelector('details.options')`)

	// Changing the rules: an option changed keeps the rule set and says so
	// ("Sport, changed: …"), each option has its one-line help, and the share
	// link carries the rule set and the change.
	phone.eval(`document.querySelector('details.options').open = true`, nil)
	var helps int
	phone.eval(`document.querySelectorAll('details.options .opt .help').length`, &helps)
	if helps < 40 {
		t.Errorf("only %d options have a help line", helps)
	}
	phone.eval(`(() => { const i = document.querySelector('#opt-speech'); i.value = '45'; i.dispatchEvent(new Event('change')); })()`, nil)
	phone.waitFor("the rule set kept, changed", `document.querySelector('input[name=preset][value=sport]').checked && document.querySelector('.rules-name')`)
	phone.mustTap(`#opt-doctor`)
	phone.waitFor("the doctor option", `document.querySelector('#opt-doctor').checked`)
	var said, want string
	phone.eval(`document.querySelector('.rules-name').textContent`, &said)
	phone.eval(`(async () => { const { makeT, loadLang } = await import('/js/i18n.js'); await loadLang('ro'); const t = makeT('ro');
		return t('rules.changed', { preset: t('preset.sport'), changes: t.list([t('rules.change', { option: t('opt.doctor'), value: t('opt.on') }),
			t('rules.change', { option: t('opt.speech'), value: t('rules.seconds', { count: 45 }) })]) }); })()`, &want)
	if said != want {
		t.Errorf("the changed rules are named %q, want %q", said, want)
	}
	// A choice is a row of radios, its words whole.
	phone.mustTap(`input[name=opt-ties][value=none]`)
	phone.waitFor("the tie option", `document.querySelector('input[name=opt-ties][value=none]').checked`)
	var share string
	phone.eval(`document.querySelector('.share input').value`, &share)
	if !strings.Contains(share, "/new?preset=sport") || !strings.Contains(share, "speech=45") || !strings.Contains(share, "doctor=1") || !strings.Contains(share, "ties=none") {
		t.Errorf("share link %q lacks the rule set and its changes", share)
	}
	if got := phone.audit("ro", nil); len(got) != 0 {
		t.Errorf("the rules unfolded: %v", got)
	}
	phone.eval(`document.querySelector('#opt-speech').scrollIntoView({block: 'center'})`, nil)
	phone.review("home-ro-custom-360")

	// The share link starts a game with those rules at once, on the host's
	// screen: Sport, changed, in the game's language (Romanian) for the
	// players, while the host's page keeps its own (English).
	screen := b.newPage(t, "screen", 1280, 800)
	screen.navigate(share)
	screen.waitFor("the lobby of the shared rules", `document.querySelector('main[data-phase=lobby] img.qr') && document.querySelector('[data-rules]').textContent.includes(',')`)
	var code string
	screen.eval(`new URLSearchParams(location.hash.slice(1)).get('host')`, &code)
	v := srv.view(t, code, "")
	if v.Rules.Preset != rules.PresetSport || v.Rules.Speech != 45 || !v.Rules.Doctor || v.Rules.Ties != rules.TiesNone || v.Lang != "ro" {
		t.Errorf("the game from the share link has rules %+v in %q", v.Rules, v.Lang)
	}
	var lang, named string
	screen.eval(`document.documentElement.lang + '|' + document.querySelector('[data-rules]').textContent`, &lang)
	lang, named, _ = strings.Cut(lang, "|")
	if lang != "en" || !strings.HasPrefix(named, "Sport, changed: ") || !strings.Contains(named, "Monologue: 45 s") {
		t.Errorf("the host's page of a Romanian game is in %q and names the rules %q; want its own English and Sport, changed", lang, named)
	}
	screen.review("screen-lobby-empty-changed")
	// The shared screen of the same game speaks the game's language.
	public := b.newPage(t, "public screen", 1280, 800)
	public.navigate(srv.URL + "/#screen=" + code)
	public.waitFor("the public screen in the game's language", `document.documentElement.lang === 'ro' && document.querySelector('main[data-phase=lobby]')`)

	// A link that changes a rule set opens as that rule set, changed.
	screen.navigate(srv.URL + "/new?preset=sport&lang=en&speech=30")
	screen.waitFor("the changed lobby", `document.querySelector('main[data-phase=lobby]') && document.querySelector('[data-rules]').textContent === 'Sport, changed: Monologue: 30 s'`)

	// A plain /new link in English.
	screen.navigate(srv.URL + "/new?preset=classic&lang=en")
	screen.waitFor("the lobby", `document.querySelector('main[data-phase=lobby] img.qr')`)
	screen.eval(`new URLSearchParams(location.hash.slice(1)).get('host')`, &code)
	if v := srv.view(t, code, ""); v.Rules.Preset != rules.PresetClassic || v.Lang != "en" {
		t.Errorf("the /new link made a %s game in %q", v.Rules.Preset, v.Lang)
	}
	screen.review("screen-lobby-empty-en")

	// Joining by typing the room code on the home screen.
	phone.navigate(srv.URL + "/")
	phone.waitFor("the home screen", `document.querySelector('form.join-game')`)
	phone.typeInto(`form.join-game input[name=code]`, strings.ToLower(code))
	phone.mustTap(`form.join-game button[type=submit]`)
	phone.waitFor("the join form", `document.querySelector('form.join input#name')`)
	phone.waitFor("the game's language", `document.documentElement.lang === 'ro'`) // a choice made by hand stays
	var path string
	phone.eval(`location.pathname`, &path)
	if path != "/join/"+code {
		t.Errorf("joining by code went to %s", path)
	}

	// An unknown code says so, and offers another code instead of a seat.
	phone.navigate(srv.URL + "/join/ZZZZZZ")
	phone.waitFor("the unknown game message", `document.querySelector('[data-end=unknown]') && !document.querySelector('form.join')`)
	phone.review("join-unknown-ro-360")

	for _, p := range []*page{phone, screen, public} {
		p.checkErrors()
	}
}
