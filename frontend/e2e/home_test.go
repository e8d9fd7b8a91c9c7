package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

// TestHomeAndLinks covers the home screen in every language on a phone and on a
// big screen, the custom rules form and its share link, starting a game straight
// from a /new link, joining by typing a room code, and an unknown code.
func TestHomeAndLinks(t *testing.T) {
	srv := startServer(t)
	b := startBrowser(t)

	phone := b.newPage(t, "phone", 360, 640)
	phone.navigate(srv.URL + "/")
	phone.waitFor("the home screen", `document.querySelector('form.new-game')`, 20*time.Second)
	for _, lang := range []string{"en", "ru", "uk", "ro"} {
		phone.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select.lang'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, lang), nil)
		phone.waitFor("the language", fmt.Sprintf(`document.documentElement.lang === %q`, lang), 5*time.Second)
		phone.scrollTop()
		phone.screenshot("home-" + lang + "-360")
	}
	// The language is remembered across a reload.
	phone.reload()
	phone.waitFor("the remembered language", `document.documentElement.lang === 'ro'`, 10*time.Second)
	// The form is drawn once the rules' schema has come (GET /api/rules).
	phone.waitFor("the rules form", `document.querySelector('details.options')`, 10*time.Second)

	// Custom rules: changing an option makes the rule set custom, each option has
	// its one-line help, and the share link carries the change.
	phone.eval(`document.querySelector('details.options').open = true`, nil)
	var helps int
	phone.eval(`document.querySelectorAll('details.options .opt .help').length`, &helps)
	if helps < 40 {
		t.Errorf("only %d options have a help line", helps)
	}
	phone.eval(`(() => { const i = document.querySelector('#opt-speech'); i.value = '45'; i.dispatchEvent(new Event('change')); })()`, nil)
	phone.waitFor("the custom rule set", `document.querySelector('input[name=preset][value=custom]').checked`, 5*time.Second)
	phone.mustTap(`#opt-doctor`, 5*time.Second)
	phone.waitFor("the doctor option", `document.querySelector('#opt-doctor').checked`, 5*time.Second)
	var share string
	phone.eval(`document.querySelector('.share input').value`, &share)
	if !strings.Contains(share, "/new?preset=custom") || !strings.Contains(share, "speech=45") || !strings.Contains(share, "doctor=1") {
		t.Errorf("share link %q lacks the custom rules", share)
	}
	phone.eval(`document.querySelector('#opt-speech').scrollIntoView({block: 'center'})`, nil)
	phone.screenshot("home-ro-custom-360")

	// The share link starts a game with those rules at once, on the host's screen.
	screen := b.newPage(t, "screen", 1280, 800)
	screen.navigate(share)
	screen.waitFor("the lobby of the shared rules", `document.querySelector('main[data-phase=lobby] img.qr')`, 20*time.Second)
	var code string
	screen.eval(`new URLSearchParams(location.hash.slice(1)).get('host')`, &code)
	v := srv.view(t, code, "")
	if v.Rules.Preset != rules.PresetCustom || v.Rules.Speech != 45 || !v.Rules.Doctor {
		t.Errorf("the game from the share link has rules %+v", v.Rules)
	}
	screen.screenshot("screen-lobby-empty-custom")

	// A plain /new link in English.
	screen.navigate(srv.URL + "/new?preset=classic&lang=en")
	screen.waitFor("the lobby", `document.querySelector('main[data-phase=lobby] img.qr')`, 20*time.Second)
	screen.eval(`new URLSearchParams(location.hash.slice(1)).get('host')`, &code)
	if v := srv.view(t, code, ""); v.Rules.Preset != rules.PresetClassic || v.Lang != "en" {
		t.Errorf("the /new link made a %s game in %q", v.Rules.Preset, v.Lang)
	}
	screen.screenshot("screen-lobby-empty-en")

	// Joining by typing the room code on the home screen.
	phone.navigate(srv.URL + "/")
	phone.waitFor("the home screen", `document.querySelector('form.join-game')`, 20*time.Second)
	phone.typeInto(`form.join-game input[name=code]`, strings.ToLower(code))
	phone.mustTap(`form.join-game button[type=submit]`, 5*time.Second)
	phone.waitFor("the join form", `document.querySelector('form.join input#name')`, 20*time.Second)
	phone.waitFor("the game's language", `document.documentElement.lang === 'ro'`, 5*time.Second) // a choice made by hand stays
	var path string
	phone.eval(`location.pathname`, &path)
	if path != "/join/"+code {
		t.Errorf("joining by code went to %s", path)
	}

	// An unknown code says so, and offers another code instead of a seat.
	phone.navigate(srv.URL + "/join/ZZZZZZ")
	phone.waitFor("the unknown game message", `document.querySelector('[data-end=unknown]') && !document.querySelector('form.join')`, 20*time.Second)
	phone.screenshot("join-unknown-ro-360")

	for _, p := range []*page{phone, screen} {
		p.checkErrors()
	}
}
