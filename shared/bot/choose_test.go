package bot

import (
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
