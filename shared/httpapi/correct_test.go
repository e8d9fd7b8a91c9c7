package httpapi

import (
	"reflect"
	"slices"
	"strconv"
	"testing"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
)

// undoes is what the view's "correct" option would take back, the next first.
func undoes(v apitest.View) []rules.Decision {
	for _, o := range v.Actions {
		if o.Type == rules.ActCorrect {
			return o.Undoes
		}
	}
	return nil
}

// TestCorrectThroughTheAPI: in a game a person moderates, a warning to the
// wrong seat and a pause are offered back in the moderator's view alone and
// taken back one by one, each a 200 whose view is the game before it; every
// phone's story says "corrected" with the warning's seat and nothing else. A
// replayed correction is applied once. A correction from a player is a 403,
// one once a player has acted since, or with nothing left, a 409 naming
// wrong_phase; none of them changes the stored version.
func TestCorrectThroughTheAPI(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "sport", "moderator": rules.ModeratorHost})
	tokens := map[string]string{}
	for i := 1; i <= 10; i++ {
		j := e.Join(c.Code, "P"+strconv.Itoa(i))
		tokens[j.PlayerID] = j.Token
	}
	e.start(c.Code, c.HostToken, "deal")
	path := "/api/games/" + c.Code + "/actions"
	refused := func(token, body string, status int, code string) {
		t.Helper()
		before := e.version(c.Code)
		e.ExpectError(e.raw("POST", path, token, body), status, code)
		if e.version(c.Code) != before {
			t.Errorf("%s: the version changed", body)
		}
	}

	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "w", Type: rules.ActWarn, Target: "p3"})
	v := e.MustAct(c.Code, c.HostToken, rules.Action{ID: "p", Type: rules.ActPause})
	if got, want := undoes(v), []rules.Decision{{Type: rules.ActPause}, {Type: rules.ActWarn, Target: "p3"}}; !slices.Equal(got, want) {
		t.Fatalf("the moderator may take back %v, want %v", got, want)
	}
	for id, tok := range tokens {
		if pv, _ := e.Read(c.Code, tok); undoes(pv) != nil {
			t.Errorf("%s is offered a correction", id)
		}
	}
	refused(tokens["p1"], `{"id":"c","type":"correct"}`, 403, "not_host")

	v = e.MustAct(c.Code, c.HostToken, rules.Action{ID: "c1", Type: rules.ActCorrect})
	if v.Phase.Paused {
		t.Error("the pause taken back: still paused")
	}
	version := e.version(c.Code)
	again := e.MustAct(c.Code, c.HostToken, rules.Action{ID: "c1", Type: rules.ActCorrect})
	if e.version(c.Code) != version || len(undoes(again)) != 1 {
		t.Errorf("a replayed correction: version %d → %d, %d left to take back", version, e.version(c.Code), len(undoes(again)))
	}
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "c2", Type: rules.ActCorrect})
	pv, _ := e.Read(c.Code, tokens["p5"])
	var told []rules.Event
	for _, ev := range pv.Events {
		if ev.Type == rules.EvCorrected || ev.Type == rules.EvWarned || ev.Type == rules.EvPaused {
			ev.Day, ev.Night = 0, 0
			told = append(told, ev)
		}
	}
	want := []rules.Event{{Type: rules.EvCorrected, Result: "pause"}, {Type: rules.EvCorrected, Result: "warn", Target: "p3"}}
	if !reflect.DeepEqual(told, want) {
		t.Errorf("a phone's story tells %+v, want %+v", told, want)
	}
	if w := pv.Players[2].Warnings; w != 0 {
		t.Errorf("#3 has %d warnings after the correction", w)
	}
	refused(c.HostToken, `{"id":"c3","type":"correct"}`, 409, "wrong_phase")

	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "w2", Type: rules.ActWarn, Target: "p4"})
	e.MustAct(c.Code, tokens["p1"], rules.Action{ID: "s", Type: rules.ActSleep})
	refused(c.HostToken, `{"id":"c4","type":"correct"}`, 409, "wrong_phase")
}
