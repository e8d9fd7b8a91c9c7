package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
	"citysleeps/shared/service/servicetest"
)

// eveningCreated is the 201 of POST /api/evenings.
type eveningCreated struct {
	Code           string       `json:"code"`
	OrganizerToken string       `json:"organizerToken"`
	JoinURL        string       `json:"joinUrl"`
	Evening        evening.View `json:"evening"`
}

// eveningJoined is the 201 of POST /api/evenings/{code}/players.
type eveningJoined struct {
	PlayerID string       `json:"playerId"`
	Token    string       `json:"token"`
	Evening  evening.View `json:"evening"`
}

// eveningNames is a roster of n names.
func eveningNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Guest %d", i+1)
	}
	return out
}

// newEvening makes an evening of classic tables that a person moderates (so
// the organiser, every game's host, can end a game by removing the black
// players) with a roster of players.
func (e *env) newEvening(tables, rounds, players int) eveningCreated {
	e.TB.Helper()
	var c eveningCreated
	e.Expect(e.JSON("POST", PathEvenings, "", map[string]any{"preset": rules.PresetClassic, "moderator": rules.ModeratorHost,
		"lang": "ru", "tables": tables, "rounds": rounds, "players": eveningNames(players)}), http.StatusCreated, &c)
	return c
}

// readEvening returns the evening as token's holder sees it.
func (e *env) readEvening(code, token string) evening.View {
	e.TB.Helper()
	var v evening.View
	e.Expect(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + code, Token: token}), http.StatusOK, &v)
	return v
}

// actEvening sends an organiser's action and returns the response.
func (e *env) actEvening(code, token, body string) apitest.Response {
	e.TB.Helper()
	return e.raw("POST", "/api/evenings/"+code+"/actions", token, body, "Content-Type", "application/json")
}

// eveningVersion is the stored version of an evening.
func (e *env) eveningVersion(code string) int64 {
	e.TB.Helper()
	it, err := e.st.Get(context.Background(), "evening/"+code, true)
	if err != nil {
		e.TB.Fatalf("get evening %s: %v", code, err)
	}
	return it.Version
}

// endTable ends the game of a table of the round in play through the games
// API, as its host, with the table's referee token from v, the organiser's
// view: start, then remove the black players.
func (e *env) endTable(v evening.View, table int) {
	e.TB.Helper()
	code, host := v.Rounds[v.Round-1].Tables[table-1].Game, servicetest.Referee(v, table)
	e.MustAct(code, host, rules.Action{ID: "start", Type: rules.ActStart})
	for i := range 30 {
		v, _ := e.Read(code, host)
		switch {
		case v.Phase.Name == rules.PhaseGameOver:
			return
		case v.Phase.Closing:
			e.MustAct(code, host, rules.Action{ID: fmt.Sprint("next", i), Type: rules.ActAdvance, Now: true})
			continue
		}
		k := slices.IndexFunc(v.Actions, func(o rules.Option) bool { return o.Type == rules.ActRemove })
		for _, p := range v.Players {
			if k >= 0 && p.Alive && p.Role.Team() == rules.MafiaTeam && slices.Contains(v.Actions[k].Targets, p.ID) {
				e.MustAct(code, host, rules.Action{ID: fmt.Sprint("remove", i), Type: rules.ActRemove, Target: p.ID})
				break
			}
		}
	}
	e.TB.Fatalf("game %s did not end", code)
}

// TestEveningContract: the evening's routes as the issue names them: an
// evening made with its roster, a phone that takes a name, a round started
// by the organiser, every player told "table, seat, game" with a token that
// plays that seat through the games API, the standings after the round.
func TestEveningContract(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(2, 2, 12)
	if c.Code == "" || c.OrganizerToken == "" || c.JoinURL != publicURL+"/evening/"+c.Code {
		t.Fatalf("created: %+v", c)
	}
	if v := c.Evening; !v.Organizer || v.Version != 1 || len(v.Players) != 12 || v.Lang != "ru" || v.Quality != nil || len(v.Standings) != 0 {
		t.Fatalf("the organiser's view: %+v", v)
	}

	var j eveningJoined
	e.Expect(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Guest 5"}), http.StatusCreated, &j)
	if j.PlayerID != "p5" || j.Token == "" || j.Evening.You == nil || j.Evening.You.PlayerID != "p5" {
		t.Fatalf("joined: %+v", j)
	}

	var v evening.View
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r1"}`), http.StatusOK, &v)
	if v.Round != 1 || len(v.Rounds) != 2 || v.Quality == nil {
		t.Fatalf("round 1: %+v", v)
	}
	for _, table := range v.Rounds[0].Tables {
		if len(table.Game) != 6 || len(table.Players) != 6 {
			t.Fatalf("round 1's table %d: %+v", table.Table, table)
		}
	}
	pub := e.readEvening(c.Code, "")
	if pub.Organizer || pub.You != nil || pub.Version != v.Version || fmt.Sprint(pub.Rounds) != fmt.Sprint(v.Rounds) {
		t.Fatalf("the public view: %+v", pub)
	}
	// The tables' referee tokens are in the organiser's view alone.
	if len(v.Referees) != 2 || v.Referees[1].Token == "" {
		t.Fatalf("the organiser's referees: %+v", v.Referees)
	}
	for who, token := range map[string]string{"the public": "", "a player": j.Token, "table 2's referee": v.Referees[1].Token} {
		body := string(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code, Token: token}).Body)
		for _, r := range v.Referees {
			if strings.Contains(body, r.Token) {
				t.Errorf("%s's view holds table %d's referee token", who, r.Table)
			}
		}
	}
	you := e.readEvening(c.Code, j.Token).You
	if you == nil || you.Game != v.Rounds[0].Tables[you.Table-1].Game || you.GameToken == "" {
		t.Fatalf("Guest 5's place: %+v", you)
	}
	game, _ := e.Read(you.Game, you.GameToken)
	if game.You == nil || game.You.ID != fmt.Sprintf("p%d", you.Seat) || game.Players[you.Seat-1].Name != "Guest 5" {
		t.Fatalf("Guest 5's seat through the games API: %+v", game.You)
	}

	for _, table := range v.Rounds[0].Tables {
		e.endTable(v, table.Table)
	}
	after := e.readEvening(c.Code, "")
	if len(after.Standings) != 12 {
		t.Fatalf("%d standings after round 1, want 12", len(after.Standings))
	}
	for _, s := range after.Standings {
		if s.Games != 1 || s.Name != fmt.Sprintf("Guest %s", strings.TrimPrefix(s.Player, "p")) {
			t.Errorf("standing %+v", s)
		}
	}
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r2"}`), http.StatusOK, &v)
	// Two writes: the claim of the round, which records round 1's games,
	// and the round with its games (makeRound).
	if v.Round != 2 || v.Version != after.Version+2 {
		t.Errorf("round 2: round %d version %d, want 2 and %d (the claim with round 1's games, then the round)", v.Round, v.Version, after.Version+2)
	}
}

// TestEveningBadInput: every bad request about an evening is a clear 4xx
// with its code, and changes nothing stored.
func TestEveningBadInput(t *testing.T) {
	e := newEnv(t, Config{})
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"a name twice", `{"preset":"classic","tables":1,"rounds":1,"players":["A","B","C","D","E","B"]}`, 409, "name_taken"},
		{"eleven tables", `{"preset":"sport","tables":11,"rounds":3}`, 400, CodeInvalid},
		{"no rounds", `{"preset":"sport","tables":1,"rounds":0}`, 400, CodeInvalid},
		{"unknown preset", `{"preset":"poker","tables":1,"rounds":1}`, 400, CodeInvalid},
		{"malformed JSON", `{"preset":"sport","tables":1,`, 400, CodeMalformed},
		{"an unknown field", `{"preset":"sport","tables":1,"rounds":1,"seats":3}`, 400, CodeMalformed},
		{"tables as text", `{"preset":"sport","tables":"1","rounds":1}`, 400, CodeMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.ExpectError(e.raw("POST", PathEvenings, "", tc.body, "Content-Type", "application/json"), tc.status, tc.code)
		})
	}

	// A short roster is made (phones may fill it); its first round is refused.
	var short struct {
		Code           string `json:"code"`
		OrganizerToken string `json:"organizerToken"`
	}
	e.Expect(e.raw("POST", PathEvenings, "", `{"preset":"sport","tables":2,"rounds":3,"players":["A","B","C"]}`, "Content-Type", "application/json"), http.StatusCreated, &short)
	e.ExpectError(e.actEvening(short.Code, short.OrganizerToken, `{"type":"start_round","id":"r1"}`), 409, "roster_too_small")

	c := e.newEvening(2, 2, 12)
	other := e.newEvening(1, 1, 5)
	var j eveningJoined
	e.Expect(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Guest 1"}), http.StatusCreated, &j)
	e.ExpectError(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Guest 1"}), 409, "name_taken")
	e.ExpectError(e.raw("POST", "/api/evenings/"+c.Code+"/players", "", `{"name":`, "Content-Type", "application/json"), 400, CodeMalformed)
	e.ExpectError(e.JSON("POST", "/api/evenings/ZZZZZZ/players", "", map[string]string{"name": "X"}), 404, CodeNotFound)

	var v evening.View
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r1"}`), http.StatusOK, &v)
	version := e.eveningVersion(c.Code)
	for _, tc := range []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"a round while a table plays", c.OrganizerToken, `{"type":"start_round","id":"r2"}`, 409, "table_playing"},
		{"no token", "", `{"type":"start_round","id":"r2"}`, 401, CodeUnauthorized},
		{"a forged token", "AAAAAAAAAAAAAAAAAAAAAAAA", `{"type":"start_round","id":"r2"}`, 401, CodeUnauthorized},
		{"another evening's token", other.OrganizerToken, `{"type":"start_round","id":"r2"}`, 401, CodeUnauthorized},
		{"a player's token", j.Token, `{"type":"start_round","id":"r2"}`, 403, "not_organizer"},
		{"a table's referee token", servicetest.Referee(v, 1), `{"type":"set_moderator","table":1,"moderator":"app","id":"r2"}`, 403, "not_organizer"},
		{"a referee's extra at another table", servicetest.Referee(v, 1), fmt.Sprintf(`{"type":"extra","game":%q,"player":%q,"points":0.3,"reason":"r","id":"r2"}`,
			v.Rounds[0].Tables[1].Game, v.Rounds[0].Tables[1].Players[0]), 403, "not_your_table"},
		{"a moderator of no table", c.OrganizerToken, `{"type":"set_moderator","table":3,"moderator":"app","id":"r2"}`, 400, "bad_target"},
		{"a moderator neither app nor host", c.OrganizerToken, `{"type":"set_moderator","table":1,"moderator":"bot","id":"r2"}`, 400, CodeInvalid},
		{"a table as text", c.OrganizerToken, `{"type":"set_moderator","table":"1","moderator":"app","id":"r2"}`, 400, CodeMalformed},
		{"an unknown action", c.OrganizerToken, `{"type":"shuffle","id":"r2"}`, 400, "unknown_action"},
		{"no action id", c.OrganizerToken, `{"type":"start_round"}`, 400, CodeInvalid},
		{"malformed JSON", c.OrganizerToken, `{"type":"start_round",`, 400, CodeMalformed},
		{"an unknown field", c.OrganizerToken, `{"type":"start_round","id":"r2","round":2}`, 400, CodeMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.ExpectError(e.actEvening(c.Code, tc.token, tc.body), tc.status, tc.code)
			if got := e.eveningVersion(c.Code); got != version {
				t.Errorf("version %d after a refusal, was %d", got, version)
			}
		})
	}
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code, Token: other.OrganizerToken}), 401, CodeUnauthorized)
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code + "x"}), 404, CodeNotFound)
	e.ExpectError(e.Do(apitest.Request{Method: "DELETE", Path: "/api/evenings/" + c.Code}), 405, CodeMethodNotAllowed)
	// The same id again is the round already started, not a refusal.
	var again evening.View
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r1"}`), http.StatusOK, &again)
	if again.Round != 1 || again.Version != version {
		t.Errorf("start_round r1 resent: round %d version %d, want 1 and %d", again.Round, again.Version, version)
	}
}

// TestEveningRosterChanges: swap, absent and late as the organiser sends
// them: the view shows the new seating of the rounds not yet started, a
// phone takes a late name, and refusals are the documented 4xx.
func TestEveningRosterChanges(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(1, 2, 7)
	var v evening.View
	e.ExpectError(e.actEvening(c.Code, c.OrganizerToken, `{"type":"swap","players":["p1","p2"],"id":"s0"}`), 409, "not_drawn")
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"late","name":"Zoe","id":"l1"}`), http.StatusOK, &v)
	if p := v.Players[7]; p.ID != "p8" || p.Name != "Zoe" || p.Joined {
		t.Fatalf("Zoe late: %+v", p)
	}
	var j eveningJoined
	e.Expect(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Zoe"}), http.StatusCreated, &j)
	if j.PlayerID != "p8" {
		t.Errorf("a phone takes Zoe: %+v", j)
	}
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r1"}`), http.StatusOK, &v)
	round1 := fmt.Sprint(v.Rounds[0])
	a, b := v.Rounds[1].Tables[0].Players[0], v.Rounds[1].Tables[0].Players[1]
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, fmt.Sprintf(`{"type":"swap","players":[%q,%q],"id":"s1"}`, a, b)), http.StatusOK, &v)
	if got := v.Rounds[1].Tables[0].Players; got[0] != b || got[1] != a || fmt.Sprint(v.Rounds[0]) != round1 {
		t.Errorf("after the swap: round 1 %v (was %s), round 2 %v", v.Rounds[0], round1, got)
	}
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"absent","player":"p3","id":"a1"}`), http.StatusOK, &v)
	if slices.Contains(v.Rounds[1].Tables[0].Players, "p3") || !v.Players[2].Absent || fmt.Sprint(v.Rounds[0]) != round1 {
		t.Errorf("after p3 left: %+v", v)
	}
	version := e.eveningVersion(c.Code)
	for _, tc := range []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"no such player", c.OrganizerToken, `{"type":"absent","player":"p99","id":"x1"}`, 400, "bad_target"},
		{"the same player twice", c.OrganizerToken, `{"type":"swap","players":["p1","p1"],"id":"x2"}`, 400, "bad_target"},
		{"one player to swap", c.OrganizerToken, `{"type":"swap","players":["p1"],"id":"x3"}`, 400, "bad_field"},
		{"absent twice", c.OrganizerToken, `{"type":"absent","player":"p3","id":"x4"}`, 409, "player_absent"},
		{"a late name on the roster", c.OrganizerToken, `{"type":"late","name":"Guest 1","id":"x5"}`, 409, "name_taken"},
		{"a player's token", j.Token, `{"type":"absent","player":"p1","id":"x6"}`, 403, "not_organizer"},
		{"players as text", c.OrganizerToken, `{"type":"swap","players":"p1,p2","id":"x7"}`, 400, CodeMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.ExpectError(e.actEvening(c.Code, tc.token, tc.body), tc.status, tc.code)
			if got := e.eveningVersion(c.Code); got != version {
				t.Errorf("version %d after a refusal, was %d", got, version)
			}
		})
	}
}

// TestEveningExtrasAndHiddenStandings: the referee's extra points and the
// hidden standings as the organiser sends them: an extra's points are an
// exact decimal shown with its reason at its game, the bound and the fields
// are refused with their documented 4xx and nothing stored, and while the
// standings are hidden the public's GET shows them as before the last round
// and the organiser's whole.
func TestEveningExtrasAndHiddenStandings(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(1, 2, 7)
	org := c.OrganizerToken
	var v evening.View
	e.Expect(e.actEvening(c.Code, org, `{"type":"start_round","id":"r1"}`), http.StatusOK, &v)
	g := v.Rounds[0].Tables[0]
	extra := func(id, player, points, reason string) string {
		return fmt.Sprintf(`{"type":"extra","id":%q,"game":%q,"player":%q,"points":%s,"reason":%q}`, id, g.Game, player, points, reason)
	}
	e.Expect(e.actEvening(c.Code, org, extra("x1", g.Players[0], "0.7", "found the Don")), http.StatusOK, &v)
	if x := v.Rounds[0].Tables[0].Extras; len(x) != 1 || x[0].Points != 70 || x[0].Player != g.Players[0] || x[0].Reason != "found the Don" {
		t.Fatalf("the extra in the view: %+v", x)
	}
	res := e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code})
	if want := fmt.Sprintf(`"extras":[{"game":%q,"player":%q,"points":0.7,"reason":"found the Don"}]`, g.Game, g.Players[0]); !strings.Contains(string(res.Body), want) {
		t.Errorf("the public view has no %s: %s", want, res.Body)
	}

	version := e.eveningVersion(c.Code)
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"beyond the bound", extra("y1", g.Players[0], "0.71", "r"), 400, "invalid_extra"},
		{"below the bound", extra("y2", g.Players[0], "-0.8", "r"), 400, "invalid_extra"},
		{"no reason", extra("y3", g.Players[0], "0.5", " "), 400, "invalid_extra"},
		{"a thousandth", extra("y4", g.Players[0], "0.125", "r"), 400, CodeMalformed},
		{"points as text", extra("y5", g.Players[0], `"0.5"`, "r"), 400, CodeMalformed},
		{"no such player", extra("y6", "p99", "0.5", "r"), 400, "bad_target"},
		{"no game", `{"type":"extra","id":"y7","player":"p1","points":0.5,"reason":"r"}`, 400, "bad_field"},
		{"not a game of the evening", `{"type":"extra","id":"y8","game":"ZZZZZZ","player":"p1","points":0.5,"reason":"r"}`, 400, "bad_target"},
		{"show while shown", `{"type":"show_standings","id":"y9"}`, 409, "standings_shown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.ExpectError(e.actEvening(c.Code, org, tc.body), tc.status, tc.code)
			if got := e.eveningVersion(c.Code); got != version {
				t.Errorf("version %d after a refusal, was %d", got, version)
			}
		})
	}

	e.endTable(v, g.Table)
	e.Expect(e.actEvening(c.Code, org, `{"type":"record","id":"rec1"}`), http.StatusOK, &v)
	before := e.readEvening(c.Code, "")
	e.Expect(e.actEvening(c.Code, org, `{"type":"hide_standings","id":"h1"}`), http.StatusOK, &v)
	e.ExpectError(e.actEvening(c.Code, org, `{"type":"hide_standings","id":"h2"}`), 409, "standings_hidden")
	e.Expect(e.actEvening(c.Code, org, `{"type":"start_round","id":"r2"}`), http.StatusOK, &v)
	e.endTable(v, 1)
	e.Expect(e.actEvening(c.Code, org, `{"type":"record","id":"rec2"}`), http.StatusOK, &v)

	pub := e.readEvening(c.Code, "")
	if pub.HiddenFrom != 2 || fmt.Sprint(pub.Standings) != fmt.Sprint(before.Standings) {
		t.Errorf("the public while hidden: from round %d, %+v; want round 2 and the standings after round 1 %+v", pub.HiddenFrom, pub.Standings, before.Standings)
	}
	whole := e.readEvening(c.Code, org)
	if whole.HiddenFrom != 2 || fmt.Sprint(whole.Standings) == fmt.Sprint(before.Standings) {
		t.Errorf("the organiser while hidden: from round %d, %+v; want round 2 counted", whole.HiddenFrom, whole.Standings)
	}
	e.Expect(e.actEvening(c.Code, org, `{"type":"show_standings","id":"s1"}`), http.StatusOK, &v)
	if pub := e.readEvening(c.Code, ""); pub.HiddenFrom != 0 || fmt.Sprint(pub.Standings) != fmt.Sprint(whole.Standings) {
		t.Errorf("the public once shown: %+v, want the organiser's %+v", pub.Standings, whole.Standings)
	}
}

// TestEveningQR: the evening's QR code holds its join link, the one the
// organiser's page and the TV show; an unknown evening is 404.
func TestEveningQR(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(2, 2, 12)
	res := e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code + "/qr.svg"})
	if res.Status != 200 || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("status %d, type %q", res.Status, res.Header.Get("Content-Type"))
	}
	wantQR(t, string(res.Body), c.JoinURL)
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/ZZZZZZ/qr.svg"}), 404, CodeNotFound)

	// Table 2's referee link, for the organiser only, kept by no cache.
	var j eveningJoined
	e.Expect(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Guest 1"}), http.StatusCreated, &j)
	referee := e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code + "/qr.svg?table=2", Token: c.OrganizerToken})
	if referee.Status != 200 || referee.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("table 2's referee QR: status %d, Cache-Control %q", referee.Status, referee.Header.Get("Cache-Control"))
	}
	wantQR(t, string(referee.Body), publicURL+RefereeLink(c.Code, 2, servicetest.Referee(c.Evening, 2)))
	for _, tc := range []struct {
		name, token, table string
		status             int
		code               string
	}{
		{"no token", "", "2", 401, CodeUnauthorized},
		{"a player's token", j.Token, "2", 403, "not_organizer"},
		{"the table's own referee", servicetest.Referee(c.Evening, 2), "2", 403, "not_organizer"},
		{"a table of none", c.OrganizerToken, "3", 400, CodeInvalid},
		{"a table in words", c.OrganizerToken, "two", 400, CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code + "/qr.svg?table=" + tc.table, Token: tc.token}), tc.status, tc.code)
		})
	}
}

// eveningPoll is one poll of an evening: its answer, and the view and ETag
// of a 200.
type eveningPoll struct {
	res  apitest.Response
	view evening.View
	etag string
	// pollAfterMs is the view's hint, which the header must repeat.
	pollAfterMs int64
}

// pollEvening reads the evening as token's holder, with If-None-Match set to
// inm when it is not empty, and checks the answer is 200 or 304 with an ETag
// and the poll hint (the view's own, on a 200).
func (e *env) pollEvening(code, token, inm string) eveningPoll {
	e.TB.Helper()
	h := http.Header{}
	if inm != "" {
		h.Set("If-None-Match", inm)
	}
	p := eveningPoll{res: e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + code, Token: token, Header: h})}
	p.etag = p.res.Header.Get("ETag")
	switch p.res.Status {
	case http.StatusNotModified:
		if len(p.res.Body) != 0 {
			e.TB.Fatalf("a 304 with a body: %q", p.res.Body)
		}
	case http.StatusOK:
		var body struct {
			evening.View
			PollAfterMs int64 `json:"pollAfterMs"`
		}
		e.Expect(p.res, http.StatusOK, &body)
		p.view, p.pollAfterMs = body.View, body.PollAfterMs
		if got := p.res.Header.Get(pollHeader); got != fmt.Sprint(p.pollAfterMs) {
			e.TB.Fatalf("%s %q, the view's pollAfterMs %d", pollHeader, got, p.pollAfterMs)
		}
	default:
		e.TB.Fatalf("GET /api/evenings/%s: %d %s", code, p.res.Status, p.res.Body)
	}
	if !strings.HasPrefix(p.etag, `W/"`) || p.res.Header.Get(pollHeader) == "" {
		e.TB.Fatalf("GET /api/evenings/%s: ETag %q, %s %q", code, p.etag, pollHeader, p.res.Header.Get(pollHeader))
	}
	return p
}

// TestEveningPollETag: an evening's poll answers as a game's does (docs/API.md,
// Polling): an ETag per viewer and per revision, 304 with no body to a
// matching If-None-Match, and the poll hint as a header on both and as the
// view's pollAfterMs. The ETag changes with every write (a join, an action)
// and, before any write, when a game of the round ends, which a read shows
// counted without writing; the answer of an action carries the ETag its
// organiser's next read would give.
func TestEveningPollETag(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(1, 1, 8)
	org := c.OrganizerToken
	var j eveningJoined
	e.Expect(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Guest 5"}), http.StatusCreated, &j)

	pub := e.pollEvening(c.Code, "", "")
	if again := e.pollEvening(c.Code, "", ""); again.res.Status != http.StatusOK || again.etag != pub.etag {
		t.Fatalf("two reads: ETags %q and %q", pub.etag, again.etag)
	}
	if want := (PhoneEvery - requestTime).Milliseconds(); pub.pollAfterMs != want {
		t.Errorf("pollAfterMs %d before the evening is over, want %d", pub.pollAfterMs, want)
	}
	orgPoll, player := e.pollEvening(c.Code, org, ""), e.pollEvening(c.Code, j.Token, "")
	if tags := map[string]bool{pub.etag: true, orgPoll.etag: true, player.etag: true}; len(tags) != 3 {
		t.Fatalf("the public's, the organiser's and a player's ETags %q %q %q: want three", pub.etag, orgPoll.etag, player.etag)
	}
	for _, tc := range []struct{ token, etag string }{{"", pub.etag}, {org, orgPoll.etag}, {j.Token, player.etag}} {
		for _, inm := range []string{tc.etag, strings.TrimPrefix(tc.etag, "W/"), `"x", ` + tc.etag, "*"} {
			if p := e.pollEvening(c.Code, tc.token, inm); p.res.Status != http.StatusNotModified || p.etag != tc.etag {
				t.Errorf("If-None-Match %s: %d, ETag %q; want 304, %s", inm, p.res.Status, p.etag, tc.etag)
			}
		}
	}
	// Another viewer's ETag gets the view; a forged token is refused.
	if p := e.pollEvening(c.Code, "", orgPoll.etag); p.res.Status != http.StatusOK {
		t.Errorf("the organiser's ETag on the public's read: %d", p.res.Status)
	}
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code, Token: "forged-token",
		Header: http.Header{"If-None-Match": {"*"}}}), http.StatusUnauthorized, CodeUnauthorized)

	// A join is a write: every old ETag gets the view.
	e.Expect(e.JSON("POST", "/api/evenings/"+c.Code+"/players", "", map[string]string{"name": "Guest 6"}), http.StatusCreated, nil)
	joined := e.pollEvening(c.Code, "", pub.etag)
	if joined.res.Status != http.StatusOK || joined.etag == pub.etag {
		t.Fatalf("after a join: %d, ETag %q (was %q)", joined.res.Status, joined.etag, pub.etag)
	}

	// An action is a write; its answer's ETag is the organiser's next read's.
	res := e.actEvening(c.Code, org, `{"type":"start_round","id":"r1"}`)
	var started evening.View
	e.Expect(res, http.StatusOK, &started)
	if p := e.pollEvening(c.Code, org, res.Header.Get("ETag")); p.res.Status != http.StatusNotModified {
		t.Errorf("the organiser's read with the ETag of start_round's answer %q: %d, ETag %q", res.Header.Get("ETag"), p.res.Status, p.etag)
	}
	playing := e.pollEvening(c.Code, "", joined.etag)
	if playing.res.Status != http.StatusOK || playing.etag == joined.etag {
		t.Fatalf("after start_round: %d, ETag %q (was %q)", playing.res.Status, playing.etag, joined.etag)
	}

	// The round's game ends: no write, yet a new view and a new ETag.
	version := e.eveningVersion(c.Code)
	e.endTable(started, 1)
	over := e.pollEvening(c.Code, "", playing.etag)
	if over.res.Status != http.StatusOK || over.etag == playing.etag || len(over.view.Standings) != 8 {
		t.Fatalf("the game over: %d, ETag %q (was %q), %d standings", over.res.Status, over.etag, playing.etag, len(over.view.Standings))
	}
	if e.eveningVersion(c.Code) != version || over.view.Version != version {
		t.Fatalf("the read wrote: version %d → %d", version, e.eveningVersion(c.Code))
	}
	if p := e.pollEvening(c.Code, "", over.etag); p.res.Status != http.StatusNotModified {
		t.Errorf("the same game over, read again: %d, ETag %q, want 304 to %q", p.res.Status, p.etag, over.etag)
	}
	// The only round's game is counted: the evening is over, and polls slow.
	if over.pollAfterMs != pollOver.Milliseconds() {
		t.Errorf("pollAfterMs %d once every game is counted, want %d", over.pollAfterMs, pollOver.Milliseconds())
	}

	// Recording it writes what the read showed: the version moves on, so
	// the ETag changes once more, though the view shows the same standings.
	e.Expect(e.actEvening(c.Code, org, `{"type":"record","id":"rec"}`), http.StatusOK, nil)
	recorded := e.pollEvening(c.Code, "", over.etag)
	if recorded.res.Status != http.StatusOK || recorded.etag == over.etag || recorded.view.Version != version+1 {
		t.Errorf("recorded: %d, ETag %q (was %q), version %d", recorded.res.Status, recorded.etag, over.etag, recorded.view.Version)
	}
}

// TestEveningJoinRetry: a phone's join sent again with the same joinId (its
// answer lost) answers the same player and token, 201 as the first did, and
// writes nothing; another joinId for the same name is 409 name_taken, and a
// malformed one 400.
func TestEveningJoinRetry(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(1, 2, 8)
	path := "/api/evenings/" + c.Code + "/players"
	req := map[string]string{"name": "Guest 3", "joinId": "5b0e6c1d9f2a4e38b7c6d5a4f3e2d1c0"}
	var first, again eveningJoined
	e.Expect(e.JSON("POST", path, "", req), http.StatusCreated, &first)
	version := e.eveningVersion(c.Code)
	e.Expect(e.JSON("POST", path, "", req), http.StatusCreated, &again)
	if first.PlayerID != "p3" || again.PlayerID != first.PlayerID || again.Token != first.Token || again.Evening.You == nil || again.Evening.You.PlayerID != "p3" {
		t.Fatalf("the join sent again: %+v; first %+v", again, first)
	}
	if v := e.eveningVersion(c.Code); v != version {
		t.Errorf("the join sent again wrote: version %d → %d", version, v)
	}
	if you := e.readEvening(c.Code, again.Token).You; you == nil || you.PlayerID != "p3" {
		t.Errorf("the token of the join sent again: %+v", you)
	}
	e.ExpectError(e.JSON("POST", path, "", map[string]string{"name": "Guest 3", "joinId": "another-join-id-0123"}), http.StatusConflict, "name_taken")
	e.ExpectError(e.JSON("POST", path, "", map[string]string{"name": "Guest 4", "joinId": "short"}), http.StatusBadRequest, CodeInvalid)
}

// TestEveningViewLinkAndSecrets: every view of an evening carries joinUrl,
// the evening's page at the address phones reach (PublicURL), for the TV and
// the organiser to print under the QR code instead of their own page's
// localhost (issue 47). The organiser's view, which holds every table's
// referee token beside names anyone may choose, goes uncompressed to a client
// that takes gzip; the public's goes compressed.
func TestEveningViewLinkAndSecrets(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(2, 2, 12)
	for who, token := range map[string]string{"the public": "", "the organiser": c.OrganizerToken} {
		res := e.raw("GET", "/api/evenings/"+c.Code, token, "", "Accept-Encoding", "gzip")
		body := res.Body
		if res.Header.Get("Content-Encoding") == "gzip" {
			if token != "" {
				t.Errorf("%s's view, with every referee token, went gzipped", who)
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		} else if token == "" {
			t.Errorf("%s's view went uncompressed (%d bytes)", who, len(body))
		}
		var v struct {
			JoinURL string `json:"joinUrl"`
		}
		if err := json.Unmarshal(body, &v); err != nil || v.JoinURL != publicURL+"/evening/"+c.Code {
			t.Errorf("%s's view: joinUrl %q, %v; want %s", who, v.JoinURL, err, publicURL+"/evening/"+c.Code)
		}
	}
}
