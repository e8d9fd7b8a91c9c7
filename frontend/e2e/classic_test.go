package e2e

import (
	"testing"

	"citysleeps/shared/rules"
)

// TestClassicGame plays a classic home game (R-CLASSIC) in English at a
// table of seven: the meeting night, open cards, votes against anyone that
// may change, the Commissar checking by night; the town votes the mafia out.
func TestClassicGame(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	g := newGame(t, srv, b, gameOpts{preset: rules.PresetClassic, lang: "en", moderator: rules.ModeratorApp, players: 7, plan: plan{
		vote:    voteBlack,
		voteAll: func(*game, *player, rules.View) bool { return true },
	}})
	g.start()
	g.play(nil)
	if pub := g.finish(); *pub.Winner != rules.Town {
		t.Errorf("winner %s, want the town", *pub.Winner)
	}
}
