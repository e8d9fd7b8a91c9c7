package httpapi

import (
	"fmt"
	"maps"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// tapTable is a club game a person moderates, in the first wake of night 2,
// on an API whose randomness is seeded: two of them have the same code,
// tokens and deal, and answer alike to the same requests.
type tapTable struct {
	*env
	code, host string
	tokens     map[string]string // player id → token
	steps      int
}

func newTapTable(t *testing.T) *tapTable {
	e := newEnv(t, Config{}, service.WithRand(mrand.NewChaCha8([32]byte{28})))
	c := e.Create(map[string]string{"preset": "sport", "moderator": "host"})
	tb := &tapTable{env: e, code: c.Code, host: c.HostToken, tokens: map[string]string{}}
	for i := 1; i <= 10; i++ {
		j := e.Join(c.Code, "P"+strconv.Itoa(i))
		tb.tokens[j.PlayerID] = j.Token
	}
	e.start(c.Code, c.HostToken, "start")
	tb.until(func(v apitest.View) bool { return v.Phase.Name == rules.PhaseNight && v.Phase.Night == 2 })
	return tb
}

// act is an action by token's holder that must succeed, with an id of its own.
func (tb *tapTable) act(token string, a rules.Action) apitest.View {
	tb.steps++
	a.ID = "s" + strconv.Itoa(tb.steps)
	return tb.MustAct(tb.code, token, a)
}

// until moves the game on as its moderator until the host's view is one that
// done takes, and not in a hand-over.
func (tb *tapTable) until(done func(apitest.View) bool) apitest.View {
	for range 60 {
		v, _ := tb.Read(tb.code, tb.host)
		if done(v) && !v.Phase.Closing {
			return v
		}
		tb.act(tb.host, rules.Action{Type: rules.ActAdvance, Now: v.Phase.Closing})
	}
	tb.TB.Fatal("the game did not get there")
	return apitest.View{}
}

// answers are every answer but the moderator's to a read: the shared screen's
// and each seat's, plain and gzipped, status, ETag, poll hint and body.
func (tb *tapTable) answers() map[string]string {
	out := map[string]string{}
	for _, token := range append([]string{""}, slices.Sorted(maps.Values(tb.tokens))...) {
		for _, enc := range []string{"identity", "gzip"} {
			res := tb.Do(apitest.Request{Method: "GET", Path: "/api/games/" + tb.code, Token: token, Header: http.Header{"Accept-Encoding": {enc}}})
			out[token+" "+enc] = fmt.Sprintf("%d %s %s\n%s", res.Status, res.Header.Get("ETag"), res.Header.Get("X-Poll-After-Ms"), res.Body)
		}
	}
	return out
}

// sameAnswers fails t unless the two tables answer every viewer but the
// moderator alike, byte for byte.
func sameAnswers(t *testing.T, when string, a, b *tapTable) {
	t.Helper()
	wa, wb := a.answers(), b.answers()
	for who, ans := range wa {
		if wb[who] != ans {
			t.Fatalf("%s, viewer %.12s: the moderator's tap shows\n%.600q\nthe phone's\n%.600q", when, who, wb[who], ans)
		}
	}
}

// TestTapForThroughTheAPI (issue 28): two tables alike to the last random bit
// play night 2 of a club game a person moderates the same way, but for the
// Sheriff's check: at one his phone taps it, at the other his phone is dead
// and the moderator taps it for him. Every answer to every viewer but the
// moderator, padded, plain and gzipped, with its ETag and poll hint, is the
// same byte for byte after the tap and in the morning; the moderator's view
// counts the tap as the seat's and tells who made it, and the live protocol
// lists the seat. A tap for a seat that tapped, a removed seat, a card's act
// the seat has not, a malformed tap, a player's, one by day and one where the
// app moderates are each a 4xx that leaves the version as it was.
func TestTapForThroughTheAPI(t *testing.T) {
	phone, mod := newTapTable(t), newTapTable(t)
	v, _ := mod.Read(mod.code, mod.host)
	var sheriff, citizen, black string
	for _, p := range v.Players {
		switch {
		case p.Role == rules.Sheriff:
			sheriff = p.ID
		case p.Role == rules.Citizen:
			citizen = p.ID
		case p.Team == rules.MafiaTeam:
			black = p.ID
		}
	}
	for _, tb := range []*tapTable{phone, mod} {
		tb.act(tb.host, rules.Action{Type: rules.ActRemove, Target: citizen})
	}
	phone.act(phone.tokens[sheriff], rules.Action{Type: rules.ActCheck, Target: black})
	after := mod.act(mod.host, rules.Action{Type: rules.ActTapFor, Target: sheriff, Tap: &rules.Tap{Type: rules.ActCheck, Target: black}})
	sameAnswers(t, "after the tap", phone, mod)
	i := slices.IndexFunc(after.Events, func(e rules.Event) bool { return e.Type == rules.EvTappedFor })
	if after.Phase.Pending != 8 || !slices.Contains(after.Night.Done, sheriff) || i < 0 || i+1 == len(after.Events) ||
		after.Events[i].Target != sheriff || after.Events[i+1].Type != rules.EvAct || after.Events[i+1].Actor != sheriff {
		t.Errorf("the moderator sees pending %d, done %v, and the story %+v", after.Phase.Pending, after.Night.Done, after.Events)
	}

	path := "/api/games/" + mod.code + "/actions"
	refused := func(name, token, body string, status int, code string) {
		t.Helper()
		before := mod.version(mod.code)
		mod.ExpectError(mod.raw("POST", path, token, body), status, code)
		if mod.version(mod.code) != before {
			t.Errorf("%s: the version changed", name)
		}
	}
	tap := func(id, seat, tap string) string {
		return `{"id":"` + id + `","type":"tap_for","target":"` + seat + `","tap":` + tap + `}`
	}
	refused("tapped", mod.host, tap("r1", sheriff, `{"type":"sleep"}`), 409, "already_acted")
	refused("removed", mod.host, tap("r2", citizen, `{"type":"sleep"}`), 403, "dead")
	refused("not the card's", mod.host, tap("r3", black, `{"type":"check","target":"`+sheriff+`"}`), 403, "not_your_role")
	refused("malformed", mod.host, tap("r4", black, `{"type":"sleep","id":"x"}`), 400, CodeMalformed)
	refused("a player's", mod.tokens[black], tap("r5", black, `{"type":"sleep"}`), 403, "not_host")

	for _, tb := range []*tapTable{phone, mod} {
		tb.until(func(v apitest.View) bool { return v.Phase.Name == rules.PhaseDay })
	}
	sameAnswers(t, "in the morning", phone, mod)
	refused("by day", mod.host, tap("r6", black, `{"type":"sleep"}`), 409, "wrong_phase")

	var live protocol.Protocol
	mod.Expect(mod.Do(apitest.Request{Method: "GET", Path: "/api/games/" + mod.code + "/protocol", Token: mod.host}), 200, &live)
	if got := live.Nights[1].TappedFor; len(got) != 1 || live.Seats[got[0].Seat-1].ID != sheriff {
		t.Errorf("the live protocol's taps by the moderator %+v, want the Sheriff's seat", got)
	}

	app := newEnv(t, Config{})
	code, host, _, _ := app.table("sport", 10)
	app.start(code, host, "start")
	before := app.version(code)
	app.ExpectError(app.raw("POST", "/api/games/"+code+"/actions", host, tap("a1", "p1", `{"type":"sleep"}`)), 403, "not_host")
	if app.version(code) != before {
		t.Error("the app's game changed")
	}
}
