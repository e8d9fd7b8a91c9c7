package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// bigTable seats twenty: the names of a real table (tableNames) and ten more.
var bigTable = append(append([]string{}, tableNames...), "Gheorghița", "Lee", "Mia", "Noor", "Oskar", "Pia", "Quinn", "Rosa", "Sven", "Tea")

// anyoneVotes are rules for a table of any size where everyone may be voted
// out and may abstain: the longest vote a phone shows.
var anyoneVotes = json.RawMessage(`{"preset":"custom","minPlayers":3,"maxPlayers":20,"voting":"anyone","nonVoters":"abstain","ties":"none"}`)

// TestOneScreen holds the pages to one screen where a person must find a
// button at once, in every language: on a 390×844 phone the night's tap and
// the vote, with up to twelve seats, fit it with Confirm in view, and with
// twenty only their seats scroll; at 1280×800 the shared screen's and the
// console's "Deal the cards" is in view with twenty players; and each new
// phase brings the shared screen's and the console's title back into view,
// however far down the page was scrolled.
func TestOneScreen(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	s := newStudio(t, srv, b)

	for _, n := range []int{12, 20} {
		g := table(t, srv.svc, service.CreateRequest{Preset: "custom", Options: anyoneVotes, Lang: "en"}, bigTable[:n])
		s.allow = append(append([]string{}, bigTable...), g.Code)
		if n == 20 {
			for _, mod := range []string{rules.ModeratorApp, rules.ModeratorHost} {
				d := g
				if mod == rules.ModeratorHost {
					d = table(t, srv.svc, service.CreateRequest{Preset: "custom", Options: anyoneVotes, Moderator: mod, Lang: "en"}, bigTable[:n])
					s.allow = append(s.allow, d.Code)
				}
				s.open(s.screen, host(d), nil, phase("lobby"))
				s.capture(s.screen, "deal-20-"+mod, phase("lobby"), func() []string { return inView(s.screen, `[data-action=start]`, "Deal the cards") })
			}
		}
		s.act(g, g.Host, rules.Action{Type: rules.ActStart})
		s.settle(g)
		me := g.Players[1]
		// The first night, with the seats drawn by lot: every seat and nobody.
		s.open(s.phone, "/join/"+g.Code, seat(g.Code, me), `document.querySelector('main.fit [data-screen=night]')`)
		s.capture(s.phone, fmt.Sprintf("pick-night-%d", n), `document.querySelector('main.fit [data-screen=night]')`,
			func() []string { return s.phone.pickProblems(n) })
		for _, p := range g.Players {
			s.act(g, p.Token, rules.Action{Type: rules.ActSleep})
		}
		s.settle(g)
		for s.read(g, "").Phase.Name == rules.PhaseDay {
			sp := playerOf(g, *s.read(g, "").Phase.Speaker)
			s.act(g, sp.Token, rules.Action{Type: rules.ActEndSpeech})
			s.settle(g)
		}
		v := s.read(g, me.Token)
		o := legal(v, rules.ActVote)
		if v.Phase.Name != rules.PhaseVote || o == nil || !o.Abstain {
			t.Fatalf("after the speeches: %s, vote %+v", v.Phase.Name, o)
		}
		s.open(s.phone, "/join/"+g.Code, seat(g.Code, me), `document.querySelector('main.fit [data-screen=vote]')`)
		s.capture(s.phone, fmt.Sprintf("pick-vote-%d", n), `document.querySelector('main.fit [data-screen=vote]')`,
			func() []string { return s.phone.pickProblems(len(o.Targets)) })
	}

	// A new phase, on a page scrolled to its end: the title comes back.
	for _, mod := range []string{rules.ModeratorApp, rules.ModeratorHost} {
		g := table(t, srv.svc, service.CreateRequest{Preset: "custom", Options: anyoneVotes, Moderator: mod, Lang: "en"}, bigTable)
		s.act(g, g.Host, rules.Action{Type: rules.ActStart})
		s.settle(g)
		s.open(s.screen, host(g), nil, phase("night"))
		for _, next := range []rules.PhaseName{rules.PhaseDay, rules.PhaseVote} {
			scrolledDown(t, s.screen)
			leave(s, g)
			s.screen.waitFor("the "+string(next), phase(string(next)))
			if why := s.screen.outOfView(`.phase-title`); why != "" {
				t.Errorf("%s: the title of the %s is out of view after the phase changed: %s", mod, next, why)
			}
		}
		s.screen.checkErrors()
	}
	s.phone.checkErrors()
	t.Logf("%d screenshots in %s", s.shots, s.dir)
}

// inView reports sel (named what) when it is not in view as the page stands.
func inView(p *page, sel, what string) []string {
	if why := p.outOfView(sel); why != "" {
		return []string{what + " is not in view: " + why}
	}
	return nil
}

// scrolledDown scrolls the page to its end, and fails when it cannot move:
// a page that fits its window tests nothing.
func scrolledDown(t *testing.T, p *page) {
	t.Helper()
	var y float64
	p.eval(`(() => { window.scrollTo(0, document.documentElement.scrollHeight); return window.scrollY; })()`, &y)
	if y < 50 {
		t.Fatalf("%s: the page does not scroll (%.0f px)", p.name, y)
	}
}

// leave ends the step game g is in the way the table would: every living
// seat taps through the night, every speaker says "Thank you".
func leave(s *studio, g servicetest.Game) {
	s.t.Helper()
	switch s.read(g, "").Phase.Name {
	case rules.PhaseNight:
		for _, p := range g.Players {
			s.act(g, p.Token, rules.Action{Type: rules.ActSleep})
		}
	case rules.PhaseDay:
		for s.read(g, "").Phase.Name == rules.PhaseDay {
			s.act(g, playerOf(g, *s.read(g, "").Phase.Speaker).Token, rules.Action{Type: rules.ActEndSpeech})
			s.settle(g)
		}
	}
	s.settle(g)
}
