package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// TestCorrection takes a moderator's mis-taps back from the console, without
// dealing again: on day 1 of a sport game a person moderates (in Ukrainian),
// the console ends the first speech too early ("Next step") and then warns #4
// by mistake, which #4's phone and the shared screen show. The console offers
// "Take back: the warning to #4" (audited in the four languages); one tap takes
// it back, and the warning leaves the console, the phone and the shared
// screen, whose news says that the moderator corrected it. The next offer is
// the step forward: taken back, the first speaker is speaking again on every
// screen. Once he has ended his speech the console offers no correction.
func TestCorrection(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	s := newStudio(t, srv, b)
	g := table(t, srv.svc, service.CreateRequest{Preset: "sport", Moderator: rules.ModeratorHost, Lang: "uk"}, tableNames[:10])
	s.allow = append(append([]string{}, tableNames...), g.Code)
	s.act(g, g.Host, rules.Action{Type: rules.ActStart})
	for i := 0; ; i++ {
		if p := s.read(g, "").Phase; p.Name == rules.PhaseDay && !p.Closing {
			break
		}
		if i > 40 {
			t.Fatalf("no day 1: %s", s.read(g, "").Phase.Name)
		}
		s.advance(g)
	}
	victim := g.Players[3]
	warned := fmt.Sprintf(`document.querySelector('li.seat[data-player=%q] .state.warned')`, victim.ID)
	speaking := func(id string) string {
		return fmt.Sprintf(`document.querySelector('li.seat.is-speaking[data-player=%q]')`, id)
	}
	offer := func(what rules.ActionType) string {
		return fmt.Sprintf(`document.querySelector('[data-action=correct][data-undoes=%q]')`, what)
	}
	first := *s.read(g, "").Phase.Speaker

	public := b.newPage(t, "public screen", 1280, 800)
	public.navigate(srv.URL + "/#screen=" + g.Code)
	public.waitFor("the public day", phase("day")+" && "+speaking(first))
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, victim), phase("day"))
	s.open(s.screen, host(g), nil, phase("day")+fmt.Sprintf(` && document.querySelector('[data-action=warn][data-player=%q]')`, victim.ID))

	s.screen.mustTap(`[data-action=advance]`)
	public.waitFor("the next speaker after the hand-over", phase("day")+" && !"+speaking(first)+" && document.querySelector('li.seat.is-speaking')")
	s.screen.mustTap(fmt.Sprintf(`[data-action=warn][data-player=%q]`, victim.ID))
	for name, p := range map[string]*page{"the console": s.screen, "#4's phone": s.phone, "the shared screen": public} {
		p.waitFor(name+" to show the warning", warned)
	}
	s.screen.waitFor("the offer to take it back", offer(rules.ActWarn))
	var label string
	s.screen.eval(offer(rules.ActWarn)+`.textContent`, &label)
	if !strings.Contains(label, victim.Name) {
		t.Errorf("the offer %q does not name %s", label, victim.Name)
	}
	s.capture(s.screen, "correct-offer", offer(rules.ActWarn))
	s.screen.eval(`(() => { const s = document.querySelector('select.lang'); s.value = 'uk'; s.dispatchEvent(new Event('change')); return true; })()`, nil)

	s.screen.mustTap(`[data-action=correct][data-undoes=warn]`)
	for name, p := range map[string]*page{"the console": s.screen, "#4's phone": s.phone, "the shared screen": public} {
		p.waitFor(name+" to drop the warning", "!"+warned)
	}
	public.waitFor("the news of the correction", `[...document.querySelectorAll('.panel.news li')].some((li) => li.textContent.startsWith('Виправлено ведучим'))`)
	if v := srv.view(t, g.Code, ""); v.Players[slices.IndexFunc(v.Players, func(p rules.PlayerView) bool { return p.ID == victim.ID })].Warnings != 0 ||
		v.Events[len(v.Events)-1].Type != rules.EvCorrected {
		t.Errorf("after the correction: the story ends with %+v", v.Events[len(v.Events)-1])
	}

	s.screen.mustTap(`[data-action=correct][data-undoes=advance]`)
	for name, p := range map[string]*page{"the console": s.screen, "#4's phone": s.phone, "the shared screen": public} {
		p.waitFor(name+" to show the first speaker again", speaking(first))
	}
	for _, p := range g.Players {
		if p.ID == first {
			s.act(g, p.Token, rules.Action{Type: rules.ActEndSpeech})
		}
	}
	s.screen.waitFor("no offer once a player has acted", `!document.querySelector('[data-action=correct]')`)
	public.checkErrors()
}
