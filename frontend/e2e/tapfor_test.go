package e2e

import (
	"fmt"
	"slices"
	"testing"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// TestTapForOnTheConsole taps for a dead phone from the moderator's console
// (issue 28): in night 2 of a sport game a person moderates, the console, its
// cards hidden, says only that the cards must be shown to tap for a seat; with
// them shown, it offers "Tap for #N" for every seat still to tap (audited in
// the four languages). The moderator taps "Tap for" the Sheriff's seat, picks
// the black seat his player names and confirms: the seat is done, the public
// pending count drops by one, the Sheriff's own view has the answer, the
// console offers no tap for the seat any more and its story says that the
// moderator tapped for it.
func TestTapForOnTheConsole(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	s := newStudio(t, srv, b)
	g := table(t, srv.svc, service.CreateRequest{Preset: "sport", Moderator: rules.ModeratorHost, Lang: "en"}, tableNames[:10])
	s.allow = append(append([]string{}, tableNames...), g.Code)
	s.act(g, g.Host, rules.Action{Type: rules.ActStart})
	for i := 0; ; i++ {
		if p := s.read(g, g.Host).Phase; p.Name == rules.PhaseNight && p.Night == 2 && !p.Closing {
			break
		}
		if i > 60 {
			t.Fatalf("no night 2: %s", s.read(g, g.Host).Phase.Name)
		}
		s.advance(g)
	}
	v := s.read(g, g.Host)
	var sheriff, black string
	for _, p := range v.Players {
		switch {
		case p.Role == rules.Sheriff:
			sheriff = p.ID
		case p.Role == rules.Don:
			black = p.ID
		}
	}
	pending := s.read(g, "").Phase.Pending
	seatFor := func(id string) string { return fmt.Sprintf(`[data-action=tap_for][data-target=%q]`, id) }

	console := s.screen
	s.open(console, host(g), nil, phase("night")+` && document.querySelector('.night-choices')`)
	if console.has(seatFor(sheriff)) || !console.has(`.night-choices p.small`) {
		t.Fatal("with the cards hidden, the console offers the taps, or does not say how to have them")
	}
	console.tapUntil(`[data-action=cards]`, "the cards", func() bool { return console.has(seatFor(sheriff)) })
	s.capture(console, "tap-for-seats", `document.querySelector('[data-screen=tap_for]')`)

	console.mustTap(seatFor(sheriff))
	console.waitFor("the Sheriff's choice", fmt.Sprintf(`document.querySelector('.tap-choice[data-target=%q] [data-task=tap_for]')`, sheriff))
	console.mustTap(fmt.Sprintf(`[data-task=tap_for] [data-target=%q]`, black))
	console.waitFor("the pick", `!document.querySelector('[data-action=confirm_tap]').disabled`)
	s.capture(console, "tap-for-choice", `document.querySelector('.tap-choice [aria-pressed=true]')`)
	console.mustTap(`[data-action=confirm_tap]`)
	console.waitFor("the tap made", fmt.Sprintf(`!document.querySelector('%s') && !document.querySelector('.tap-choice')`, seatFor(sheriff)))

	after := s.read(g, g.Host)
	if !slices.Contains(after.Night.Done, sheriff) || s.read(g, "").Phase.Pending != pending-1 {
		t.Errorf("after the tap: done %v, pending %d (was %d)", after.Night.Done, s.read(g, "").Phase.Pending, pending)
	}
	own := s.read(g, playerOf(g, sheriff).Token)
	if len(own.You.Checks) != 1 || own.You.Checks[0].Target != black || !own.You.Checks[0].Yes {
		t.Errorf("the Sheriff's own checks %+v", own.You.Checks)
	}
	console.waitFor("the story of the tap", fmt.Sprintf(`[...document.querySelectorAll('li')].some((li) => li.textContent.includes('Moderatorul a apăsat pentru') && li.textContent.includes(%q))`, playerOf(g, sheriff).Name))
	console.checkErrors()
}
