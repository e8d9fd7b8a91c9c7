package bot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"citysleeps/shared/rules"
)

// TestChooseAgreesOnVictim: the black team aim at one player, so that their
// shots agree (R-SPORT-10 kills only on agreement).
func TestChooseAgreesOnVictim(t *testing.T) {
	v := rules.View{
		Phase:   rules.PhaseView{Name: rules.PhaseNight, Night: 2},
		Players: []rules.PlayerView{{ID: "p1", Team: rules.MafiaTeam}, {ID: "p2"}, {ID: "p3", Team: rules.MafiaTeam}, {ID: "p4"}},
		You:     &rules.You{ID: "p3", Team: rules.MafiaTeam},
		Actions: []rules.Option{{Type: rules.ActKill, Targets: []string{"p1", "p2", "p4"}}, {Type: rules.ActSleep}},
	}
	a, ok := Choose(v, nil)
	if !ok || a.Type != rules.ActKill || a.Target != "p2" {
		t.Errorf("first shot: %+v", a)
	}
	v.You.Shots = []rules.Choice{{Actor: "p1", Type: rules.ActKill, Target: "p4"}}
	if a, _ := Choose(v, nil); a.Target != "p4" {
		t.Errorf("with a teammate's shot on p4: %+v", a)
	}
}

// TestChooseBestMove: the first night's killed names as many players as a best
// move may, each once, none a known teammate, and then ends the last word.
func TestChooseBestMove(t *testing.T) {
	v := rules.View{
		Phase:   rules.PhaseView{Name: rules.PhaseLastWord, Night: 2},
		Players: []rules.PlayerView{{ID: "p1", Team: rules.MafiaTeam}, {ID: "p2"}, {ID: "p3", Team: rules.MafiaTeam}, {ID: "p4"}, {ID: "p5"}, {ID: "p6"}},
		You:     &rules.You{ID: "p3", Team: rules.MafiaTeam},
		Actions: []rules.Option{{Type: rules.ActEndSpeech}, {Type: rules.ActBestMove, Targets: []string{"p1", "p2", "p4", "p5", "p6"}, Max: rules.BestMoveMax}},
	}
	a, ok := Choose(v, rand.New(rand.NewPCG(1, 2)))
	named := slices.Sorted(slices.Values(a.Targets))
	if !ok || a.Type != rules.ActBestMove || len(named) != rules.BestMoveMax || slices.Contains(named, "p1") || len(slices.Compact(named)) != len(named) {
		t.Errorf("the best move: %+v", a)
	}
	if !slices.Equal(v.Actions[1].Targets, []string{"p1", "p2", "p4", "p5", "p6"}) {
		t.Errorf("choosing changed the view's targets: %v", v.Actions[1].Targets)
	}
	v.Actions = v.Actions[:1]
	if a, _ := Choose(v, nil); a.Type != rules.ActEndSpeech {
		t.Errorf("after the best move: %+v", a)
	}
}
