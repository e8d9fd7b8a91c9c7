package e2e

import (
	"testing"

	"citysleeps/shared/rules"
)

// voteBlack votes for the first black candidate who is not the voter, else
// abstains.
func voteBlack(g *game, ph *player, v rules.View) string {
	for _, id := range v.Phase.Candidates {
		if g.team(id) == rules.MafiaTeam && id != ph.id {
			return id
		}
	}
	for _, id := range v.Phase.Candidates {
		if g.deal[id] == rules.Maniac && id != ph.id {
			return id
		}
	}
	return ""
}

// TestPartyGame plays a party game (R-PARTY) in Ukrainian: open cards, the
// accused defend themselves, the Commissar's public right/wrong, his reveal, the
// Advocate and Cinderella at night, open votes with abstentions; the host pauses
// and resumes from the shared screen.
func TestPartyGame(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := startBrowser(t)
	g := newGame(t, srv, b, gameOpts{preset: rules.PresetParty, lang: "uk", moderator: rules.ModeratorApp, plan: plan{
		reveal: true,
		nominees: func(g *game, v rules.View) []string {
			return g.blackBySeat(v)[:min(1, len(g.blackBySeat(v)))]
		},
		vote:    voteBlack,
		voteAll: func(*game, *player, rules.View) bool { return true },
	}})
	g.shot(g.host, "screen-lobby-full")
	g.start()
	paused := false
	g.play(func(v rules.View) {
		if v.Phase.Name == rules.PhaseDay && v.Phase.Day == 1 && !paused {
			paused = true
			pauseAndResume(t, g)
		}
	})
	pub := g.finish()
	var right, revealed, defence bool
	for _, e := range pub.Events {
		right = right || (e.Type == rules.EvCommissar && e.Result == "right")
		revealed = revealed || e.Type == rules.EvRevealed
		defence = defence || e.Type == rules.EvTie || e.Type == rules.EvEliminated
	}
	if !right || !revealed {
		t.Errorf("the Commissar was never right (%v) or never revealed (%v)", right, revealed)
	}
	if !defence {
		t.Errorf("nobody was voted out")
	}
}

// pauseAndResume pauses the game from the shared screen: the phones say so and
// their timers stop; then it goes on.
func pauseAndResume(t *testing.T, g *game) {
	t.Helper()
	g.host.mustTap(`[data-action=pause]`)
	for _, p := range g.phones[:3] {
		p.waitFor("the paused banner", `document.querySelector('.banner.paused')`)
	}
	g.shot(g.host, "screen-paused")
	g.shot(g.phones[0].page, "paused")
	if v := g.view(""); !v.Phase.Paused {
		t.Fatalf("the game is not paused")
	}
	g.host.mustTap(`[data-action=resume]`)
	for _, p := range g.phones[:3] {
		p.waitFor("the banner to go", `!document.querySelector('.banner.paused')`)
	}
}
