package loadgen

import (
	"strings"
	"testing"
)

// TestRealGames plays real games of every preset in virtual time through the
// real handler and checks what the cost estimate rests on (every game ends at
// people's pace, every kind of request is counted, the changes that ask a
// player to act are seen) and the two targets together: a 45-minute game costs
// at most $0.006 on AWS, and a player the game asks to act sees it within about
// a second (p95 of each kind of ask).
//
// It runs alone (not in parallel), as it keeps both cores busy for a while and
// the fault tests' games must not miss their timers meanwhile.
func TestRealGames(t *testing.T) {
	rep, err := PlayRealGames(AllPresets, scale(1, 10), 1, People)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + rep.Text())
	for _, p := range AllPresets {
		if rep.ByPreset[p] == 0 {
			t.Errorf("no %s game", p)
		}
	}
	if rep.MeanMinutes < 15 || rep.MeanMinutes > 90 {
		t.Errorf("a real game lasted %.1f minutes on average; people's pace is off", rep.MeanMinutes)
	}
	u := rep.Usage.Kinds
	if u[KindPoll304].Requests == 0 || u[KindPoll200].Requests == 0 || u[KindAction].Requests == 0 || u[KindJoin].Requests != int64(10*rep.Games) {
		t.Errorf("requests counted: %+v", u)
	}
	for _, k := range NoticeKinds {
		if rep.Notice[k].N == 0 {
			t.Errorf("no player was seen being asked to act (%s)", k)
		}
	}
	if rep.Cost.Total <= 0 || rep.Cost.Requests < 1000 {
		t.Errorf("cost %+v", rep.Cost)
	}
	for k, v := range rep.Targets {
		if !strings.HasPrefix(v, "met: ") {
			t.Errorf("%s: %s", k, v)
		}
	}
}
