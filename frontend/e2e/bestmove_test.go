package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// TestBestMove plays a club game (sport, a human moderator, the best move on)
// to the first night's kill: night 1 meets, night 2 the black players shoot a
// red one. In the last word the victim's phone offers the best move among the
// nine others, takes three seats and no fourth, and sends it on "Confirm";
// the victim's phone, another phone and the shared screen then tell whom it
// named, and at the end everyone's story and the protocol page tell it, the
// page with how many of the seats were black. Every one of these screens is
// audited in every language.
func TestBestMove(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	s := newStudio(t, srv, b)
	g := table(t, srv.svc, service.CreateRequest{Preset: "sport", Moderator: "host", Lang: "uk", Options: json.RawMessage(`{"bestMove":true}`)}, tableNames)
	s.allow = append(append([]string{}, tableNames...), g.Code)
	c := &club{t: t, svc: srv.svc, g: g}
	c.act("", rules.Action{Type: rules.ActStart})
	var blacks, reds []string
	for _, p := range c.view().Players {
		if p.Team == rules.MafiaTeam {
			blacks = append(blacks, p.ID)
		} else {
			reds = append(reds, p.ID)
		}
	}
	c.until(rules.PhaseDay) // the meeting night has no kill, and no best move
	victim := reds[0]
	c.night(map[string]string{blacks[0]: victim, blacks[1]: victim, blacks[2]: victim}, "", "")
	c.until(rules.PhaseLastWord)
	if sp := c.view().Phase.Speaker; sp == nil || *sp != victim {
		t.Fatalf("the last word is %v's, want the victim %s's", sp, victim)
	}

	// The victim's phone: the picker, the viewer's own seat not in it.
	me := playerOf(g, victim)
	picker := `document.querySelector('[data-screen=speech] [data-screen=best_move] .targets[data-task=best_move]')`
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, me), picker)
	var offered []string
	s.phone.eval(`[...document.querySelectorAll('.targets[data-task=best_move] [data-target]')].map((b) => b.dataset.target)`, &offered)
	if len(offered) != 9 || slices.Contains(offered, victim) {
		t.Errorf("the picker offers %v; want the nine others", offered)
	}
	s.capture(s.phone, "best-move", picker+` && document.querySelector('[data-screen=best_move] [data-action=confirm][disabled]')`)
	named := []string{blacks[0], reds[1], blacks[1]}
	for _, id := range append(slices.Clone(named), reds[2]) { // the fourth seat is one too many
		s.phone.mustTap(fmt.Sprintf(`[data-screen=best_move] [data-target=%q]`, id))
	}
	var pressed []string
	s.phone.eval(`[...document.querySelectorAll('[data-screen=best_move] [data-target][aria-pressed=true]')].map((b) => b.dataset.target)`, &pressed)
	if !slices.Equal(pressed, sortedBySeat(c, named)) {
		t.Errorf("the picker holds %v after four taps; want the first three, %v", pressed, named)
	}
	s.capture(s.phone, "best-move-picked", `document.querySelector('[data-screen=best_move] [data-action=confirm]:not([disabled])')`)
	s.phone.mustTap(`[data-screen=best_move] [data-action=confirm]`)
	made := `document.querySelector('[data-screen=speech] [data-screen=best_move_made]') && !document.querySelector('[data-screen=best_move]')`
	s.phone.waitFor("the best move made", made)
	events := c.view().Events
	if e := events[len(events)-1]; e.Type != rules.EvBestMove || e.Actor != victim || !slices.Equal(e.Targets, named) {
		t.Fatalf("the story ends with %+v; want the victim's best move of %v", e, named)
	}
	names := func(p *page, sel string) func() []string {
		return func() []string {
			var text string
			p.eval(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, sel), &text)
			for _, id := range append([]string{victim}, named...) {
				if !strings.Contains(text, playerOf(g, id).Name) {
					return []string{fmt.Sprintf("%s says %q, without %s", sel, text, playerOf(g, id).Name)}
				}
			}
			return nil
		}
	}
	s.capture(s.phone, "best-move-made", made, names(s.phone, `[data-screen=best_move_made]`))

	// Another phone and the shared screen tell the table whom it named.
	listener := playerOf(g, reds[3])
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, listener), `document.querySelector('[data-screen=listen] [data-screen=best_move_made]')`)
	s.capture(s.phone, "best-move-listen", `document.querySelector('[data-screen=listen] [data-screen=best_move_made]')`, names(s.phone, `[data-screen=best_move_made]`))
	s.open(s.screen, "/#screen="+g.Code, nil, `document.querySelector('.panel.news li')`)
	s.capture(s.screen, "best-move", phase("last_word"), names(s.screen, `.panel.news li`))

	// The moderator removes the black players: the town wins, and the record
	// is everyone's.
	for _, id := range blacks {
		c.act("", rules.Action{Type: rules.ActRemove, Target: id})
	}
	p, err := srv.svc.Protocol(context.Background(), g.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Over || len(p.Nights) < 2 || len(p.Nights[1].BestMoves) != 1 || p.Nights[1].BestMoves[0].Black != 2 {
		t.Fatalf("the protocol: over %v, nights %+v", p.Over, p.Nights)
	}
	m := p.Nights[1].BestMoves[0]
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, listener), phase("game_over")+` && document.querySelector('.story .ev-best_move')`)
	s.capture(s.phone, "game-over-best-move", `document.querySelector('.story .ev-best_move')`, names(s.phone, `.story .ev-best_move`))

	black := map[string]string{"en": "2 black", "ru": "2 чёрных", "uk": "2 чорних", "ro": "2 negri"}
	line := fmt.Sprintf("%d → %d, %d, %d", m.Seat, m.Targets[0], m.Targets[1], m.Targets[2])
	ready := `document.querySelector('main[data-status="200"] .proto-winner[data-winner=town]')`
	s.open(s.screen, "/#protocol="+g.Code, nil, ready)
	s.capture(s.screen, "protocol-best-move", ready, func() []string {
		var lang, text string
		s.screen.eval(`document.documentElement.lang`, &lang)
		s.screen.eval(`[...document.querySelectorAll('.proto-night .proto-row')].map((r) => r.textContent).join('\n')`, &text)
		if !strings.Contains(text, line+": "+black[lang]) {
			return []string{fmt.Sprintf("the nights say %q, without %q", text, line+": "+black[lang])}
		}
		return nil
	})
}

// sortedBySeat is ids in the order of their seats, as a page lists them.
func sortedBySeat(c *club, ids []string) []string {
	var out []string
	for _, p := range c.view().Players {
		if slices.Contains(ids, p.ID) {
			out = append(out, p.ID)
		}
	}
	return out
}
