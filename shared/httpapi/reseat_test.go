package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// seatBodies are the raw answers to every viewer of a game but the host: the
// shared screen ("") and each seat, by token.
func (e *env) seatBodies(code string, tokens map[string]string) map[string][]byte {
	out := map[string][]byte{"": e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code}).Body}
	for _, tok := range tokens {
		out[tok] = e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code, Token: tok}).Body
	}
	return out
}

// decoded decodes raw answers to views.
func decoded(t *testing.T, bodies map[string][]byte) map[string]apitest.View {
	t.Helper()
	out := map[string]apitest.View{}
	for who, b := range bodies {
		var v apitest.View
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		out[who] = v
	}
	return out
}

// sawTheMove fails unless every answer after is the one before but for the
// version (and its tick) and the story, which tells the move of seat id at
// its end.
func sawTheMove(t *testing.T, before, after map[string][]byte, id string) {
	t.Helper()
	b, a := decoded(t, before), decoded(t, after)
	for who, was := range b {
		now := a[who]
		if n := len(now.Events); n != len(was.Events)+1 || now.Events[n-1].Type != rules.EvMoved || now.Events[n-1].Target != id ||
			!reflect.DeepEqual(now.Events[:n-1], was.Events) {
			t.Errorf("viewer %.6s: the story went from %+v to %+v", who, was.Events, now.Events)
		}
		was.Version, was.Tick, was.Events = 0, 0, nil
		now.Version, now.Tick, now.Events = 0, 0, nil
		if !reflect.DeepEqual(now, was) {
			t.Errorf("viewer %.6s: the move changed the view\nbefore %+v\nafter  %+v", who, was, now)
		}
	}
}

// TestReseatThroughTheAPI: in either way of moderating, at night, the host's
// reseat answers with the link (key, address, QR code, end) and nobody else's
// answer holds the key; the link's key takes seat 4 with a 201 like a join,
// the new token sees the card, the old one is a 401 (with its ETag too), and
// every other answer is as it was but for the version and one line of the
// story. A used key, a forged one, one whose time is up, one with a name or
// of the wrong type, and a player's reseat, are each a clear 4xx that leaves
// the version as it was.
func TestReseatThroughTheAPI(t *testing.T) {
	for _, mod := range []string{rules.ModeratorApp, rules.ModeratorHost} {
		t.Run(mod, func(t *testing.T) { reseatThroughTheAPI(t, mod) })
	}
}

func reseatThroughTheAPI(t *testing.T, moderator string) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": "sport", "moderator": moderator})
	tokens := map[string]string{}
	for i := 1; i <= 10; i++ {
		j := e.Join(c.Code, "P"+string(rune('A'+i)))
		tokens[j.PlayerID] = j.Token
	}
	e.start(c.Code, c.HostToken, "start")
	old := tokens["p4"]
	card, etag := e.Read(c.Code, old)
	delete(tokens, "p4")
	before := e.seatBodies(c.Code, tokens)

	res := e.Act(c.Code, c.HostToken, rules.Action{ID: "r1", Type: rules.ActReseat, Target: "p4"})
	var host apitest.View
	e.Expect(res, http.StatusOK, &host)
	if host.Reseat == nil {
		t.Fatal("no link in the host's answer")
	}
	l := *host.Reseat
	e.wantSeatLink(t, l, "p4", "/join/"+c.Code)
	during := e.seatBodies(c.Code, tokens)
	during["old"] = e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code, Token: old}).Body
	during["host"] = e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code, Token: c.HostToken}).Body
	for who, b := range during {
		if bytes.Contains(b, []byte(l.Key)) {
			t.Errorf("viewer %.6s gets the key", who)
		}
	}
	if !strings.Contains(e.log.String(), `"route":"POST /api/games/{code}/actions"`) || strings.Contains(e.log.String(), l.Key) {
		t.Error("the log holds the key, or no line for the reseat")
	}

	path := "/api/games/" + c.Code + "/players"
	var j apitest.Joined
	e.Expect(e.JSON("POST", path, "", map[string]string{"seatKey": l.Key, "seatCode": card.You.SeatCode}), http.StatusCreated, &j)
	if j.PlayerID != "p4" || j.Token == old || j.Game.You == nil || j.Game.You.Role != card.You.Role || j.Game.You.Role == "" {
		t.Fatalf("the new phone: %s, you %+v; want p4 as %s", j.PlayerID, j.Game.You, card.You.Role)
	}
	now, _ := e.Read(c.Code, j.Token)
	moved, was := *now.You, *card.You
	moved.SeatCode, was.SeatCode = "", ""
	if !reflect.DeepEqual(moved, was) || !reflect.DeepEqual(now.Actions, card.Actions) {
		t.Errorf("the new phone sees %+v and may %+v; the old one saw %+v and could %+v", now.You, now.Actions, card.You, card.Actions)
	}
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code, Token: old}), 401, CodeUnauthorized)
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + c.Code, Token: old, Header: http.Header{"If-None-Match": {etag}}}), 401, CodeUnauthorized)
	e.ExpectError(e.Act(c.Code, old, rules.Action{ID: "z", Type: rules.ActSleep}), 401, CodeUnauthorized)
	sawTheMove(t, before, e.seatBodies(c.Code, tokens), "p4")

	second := e.MustAct(c.Code, c.HostToken, rules.Action{ID: "r2", Type: rules.ActReseat, Target: "p5"}).Reseat
	refusals := []struct {
		name, body string
		status     int
		code       string
	}{
		{"used", `{"seatKey":"` + l.Key + `"}`, 403, service.CodeSeatKeyInvalid},
		{"forged", `{"seatKey":"` + strings.Repeat("x", 24) + `"}`, 403, service.CodeSeatKeyInvalid},
		{"not a key", `{"seatKey":"` + strings.Repeat("é", 24) + `"}`, 403, service.CodeSeatKeyInvalid},
		{"a number", `{"seatKey":24}`, 400, CodeMalformed},
		{"with a name", `{"seatKey":"` + second.Key + `","name":"Sub"}`, 400, CodeInvalid},
		{"with a bad join id", `{"seatKey":"` + second.Key + `","joinId":"short"}`, 400, CodeInvalid},
	}
	for _, tc := range refusals {
		v := e.version(c.Code)
		e.ExpectError(e.raw("POST", path, "", tc.body), tc.status, tc.code)
		if e.version(c.Code) != v {
			t.Errorf("%s: the version moved", tc.name)
		}
	}
	v := e.version(c.Code)
	e.ExpectError(e.Act(c.Code, tokens["p5"], rules.Action{ID: "r3", Type: rules.ActReseat, Target: "p5"}), 403, "not_host")
	e.clock.Add(10 * time.Minute)
	e.ExpectError(e.raw("POST", path, "", `{"seatKey":"`+second.Key+`"}`), 403, service.CodeSeatKeyExpired)
	if e.version(c.Code) != v {
		t.Error("a player's reseat or an expired key moved the version")
	}
}

// TestReseatAnswerOnly: the link is in the answer to the reseat alone: a
// replay of it, another action's answer and the host's reads have none.
func TestReseatAnswerOnly(t *testing.T) {
	e := newEnv(t, Config{})
	code, host, _, _ := e.table("classic", 5)
	a := rules.Action{ID: "r", Type: rules.ActReseat, Target: "p2"}
	if v := e.MustAct(code, host, a); v.Reseat == nil || v.Reseat.QR == "" {
		t.Fatalf("the reseat's answer has no link: %+v", v.Reseat)
	}
	for _, v := range []apitest.View{e.MustAct(code, host, a), e.MustAct(code, host, rules.Action{ID: "l", Type: rules.ActLock})} {
		if v.Reseat != nil || len(v.Moving) != 1 {
			t.Errorf("an answer with link %+v, moving %v", v.Reseat, v.Moving)
		}
	}
	if v, _ := e.Read(code, host); v.Reseat != nil || len(v.Moving) != 1 {
		t.Errorf("the host's read: link %+v, moving %v", v.Reseat, v.Moving)
	}
	if v, _ := e.Read(code, ""); v.Reseat != nil || v.Moving != nil {
		t.Errorf("the screen's read: link %+v, moving %v", v.Reseat, v.Moving)
	}
}

// wantSeatLink fails t unless l is a link that moves target's place to
// another device for ten minutes from now, at page with its key in the
// fragment ({page}#seat={key}), and carries the QR code of that address.
func (e *env) wantSeatLink(t *testing.T, l rules.SeatLink, target, page string) {
	t.Helper()
	if l.Target != target || len(l.Key) != 24 || !l.ExpiresAt.Equal(e.clock.Now().Add(10*time.Minute)) {
		t.Fatalf("the link %+v", l)
	}
	if want := publicURL + page + "#seat=" + l.Key; l.URL != want {
		t.Errorf("the link's address %q, want %q", l.URL, want)
	}
	svg, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(l.QR, "data:image/svg+xml;base64,"))
	if !strings.HasPrefix(l.QR, "data:image/svg+xml;base64,") || err != nil {
		t.Fatalf("the link's QR code %.60q: %v", l.QR, err)
	}
	wantQR(t, string(svg), l.URL)
}
