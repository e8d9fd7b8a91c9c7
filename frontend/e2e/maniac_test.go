package e2e

import (
	"fmt"
	"testing"

	"citysleeps/shared/rules"
)

// TestManiacGame plays an open-table game with the Maniac (R-MANIAC) in Romanian,
// moderated by a person: the moderator's console sees every role and the night's
// choices, a second public screen sees none; the introduction round, a raised hand,
// justification and "shall he leave?", and the Doctor choosing among the victims;
// on day 2 the moderator ends the game by removing the black players and the Maniac.
func TestManiacGame(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	g := newGame(t, srv, b, gameOpts{preset: rules.PresetManiac, lang: "ro", moderator: rules.ModeratorHost, plan: plan{
		vote:    voteBlack,
		voteAll: func(*game, *player, rules.View) bool { return true },
		// On day 1 the last living town player raises a hand, until the hand is seen.
		raiseHand: func(g *game, ph *player, v rules.View) bool {
			if v.Phase.Day != 1 {
				return false
			}
			for _, e := range v.Events {
				if e.Type == rules.EvHand {
					return false
				}
			}
			town := g.alive(v, func(id string) bool { return g.team(id) == rules.Town })
			return len(town) > 0 && ph.id == town[len(town)-1]
		},
	}})
	// The public shared screen, on a second display.
	g.screen = b.newPage(t, "public screen", 1280, 800)
	g.screen.navigate(srv.URL + "/#screen=" + g.code)
	g.screen.waitFor("the public lobby", `document.querySelector('main[data-phase=lobby] img.qr')`)
	var controls bool
	g.screen.eval(`!!document.querySelector('[data-action=start], [data-action=kick]')`, &controls)
	if controls {
		t.Fatalf("the public screen shows the host's controls")
	}

	// The moderator decides the Maniac's side (R-MANIAC-01): with the mafia, then alone again.
	// A tap that lands as the console redraws the lobby is lost, as a finger's
	// would be: the moderator taps again.
	for _, side := range []rules.ManiacSide{rules.ManiacMafia, rules.ManiacAlone} {
		g.host.tapUntil(fmt.Sprintf(`[data-action=maniac_side][data-side=%q]`, side), "the Maniac's side "+string(side), func() bool {
			return g.view("").Rules.ManiacSide == side
		})
	}
	g.shot(g.host, "console-lobby")
	g.start()

	// The console shows every role once the moderator switches the cards on:
	// until then none is in its page. The moderator skips one introduction.
	g.host.waitFor("the console in play", `document.querySelector('main.console [data-action=cards]')`)
	var hidden int
	g.host.eval(`document.querySelectorAll('[data-role], .night-choices li').length`, &hidden)
	if hidden != 0 {
		t.Fatalf("the console shows %d cards before the moderator switched them on", hidden)
	}
	// A tap the machine delays past the switch's hold (400 ms) is a press
	// that shows the cards while held: the moderator taps again.
	g.host.tapUntil(`[data-action=cards]`, "roles on the console", g.host.shows(`document.querySelectorAll('.seats-panel li[data-role]').length === 10`))
	first := g.view("").Phase.Speaker
	g.host.mustTap(`[data-action=advance]`)
	waitUntil(t, "the next speaker", func() bool {
		s := g.view("").Phase.Speaker
		return s == nil || first == nil || *s != *first
	})
	sawChoices, sawDoctor, sawHand, removed := false, false, false, false
	g.play(func(v rules.View) {
		if v.Phase.Name == rules.PhaseDay && v.Phase.Day == 2 && !removed {
			// Enough seen: the moderator ends the game from the console by removing
			// the black players and the Maniac (R-SPORT-16: removed, no last word).
			removed = true
			g.host.eval(`window.confirm = () => true`, nil)
			for _, id := range g.alive(v, func(id string) bool { return g.team(id) != rules.Town }) {
				g.host.tapUntil(fmt.Sprintf(`.seats-panel [data-action=remove][data-player=%q]`, id), "the removal", func() bool {
					for _, p := range g.view("").Players {
						if p.ID == id {
							return p.Removed
						}
					}
					return false
				})
			}
			return
		}
		if v.Phase.Name == rules.PhaseNight && v.Phase.Wake == 2 {
			sawDoctor = true
		}
		if v.Phase.Name == rules.PhaseDay && v.Phase.Reason == "extra" {
			sawHand = true
		}
		if v.Phase.Name == rules.PhaseNight && v.Phase.Night >= 2 && !sawChoices {
			mod := g.view(hostToken(g))
			if mod.Night != nil && len(mod.Night.Choices) > 0 {
				g.host.waitFor("the night's choices on the console", `document.querySelectorAll('.night-choices li').length > 0`)
				g.shot(g.host, "console-night")
				sawChoices = true
			}
		}
	})
	pub := g.finish()
	if *pub.Winner != rules.Town {
		t.Errorf("winner %s after the moderator removed the black players and the Maniac", *pub.Winner)
	}
	if !sawChoices || !sawHand {
		t.Errorf("the console never showed night choices (%v), or no hand was raised (%v)", sawChoices, sawHand)
	}
	if !sawDoctor {
		t.Logf("no night had victims for the Doctor to choose among")
	}
}

// hostToken is the host's token, as the host page keeps it.
func hostToken(g *game) string {
	var token string
	g.host.eval(fmt.Sprintf(`JSON.parse(localStorage.getItem('cs.host.' + %q))`, g.code), &token)
	return token
}
