package httpapi

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// TestExportRoute: GET /api/games/{code}/export?format=mafiaratings is the
// finished game in mafiaratings' game JSON (docs/EXPORT.md), the same for
// everyone; before the end it is 409 game_not_over for everyone, the
// moderator too; a game of another deal is 422 not_exportable with the
// reason; a missing or unknown format is 400. Reading it writes nothing.
func TestExportRoute(t *testing.T) {
	e := newEnv(t, Config{})
	get := func(code, token, format string) apitest.Response {
		return e.Do(apitest.Request{Method: "GET", Path: "/api/games/" + code + "/export?format=" + format, Token: token})
	}
	// moderated makes a game a person moderates, with n players, started and
	// in its first day, and returns its code, the moderator's token and the
	// players' tokens.
	moderated := func(preset string, n int) (string, string, []string) {
		c := e.Create(map[string]string{"preset": preset, "moderator": "host"})
		var tokens []string
		for i := 1; i <= n; i++ {
			tokens = append(tokens, e.Join(c.Code, "P"+strconv.Itoa(i)).Token)
		}
		e.MustAct(c.Code, c.HostToken, rules.Action{ID: "start", Type: rules.ActStart})
		for i := 0; ; i++ {
			v := e.MustAct(c.Code, c.HostToken, rules.Action{ID: "next" + strconv.Itoa(i), Type: rules.ActAdvance, Now: true})
			if v.Phase.Name == rules.PhaseDay && !v.Phase.Closing {
				break
			}
			if i == 10 {
				t.Fatalf("no day after ten steps: %s", v.Phase.Name)
			}
		}
		return c.Code, c.HostToken, tokens
	}
	// removeBlack ends a moderated game: the moderator removes every black
	// player, each after the hand-over the last removal began, and the town
	// wins.
	removeBlack := func(code, host string) {
		v, _ := e.Read(code, host)
		for _, p := range v.Players {
			if p.Team == rules.MafiaTeam {
				w := e.MustAct(code, host, rules.Action{ID: "rm" + p.ID, Type: rules.ActRemove, Target: p.ID})
				if w.Phase.Closing && w.Phase.EndsAt != nil {
					e.clock.Add(w.Phase.EndsAt.Sub(e.clock.Now()))
				}
			}
		}
	}

	code, host, tokens := moderated("sport", 10)
	for _, token := range []string{"", host, tokens[0]} {
		e.ExpectError(get(code, token, FormatMafiaRatings), 409, service.CodeGameNotOver)
	}
	e.ExpectError(get(code, "", ""), 400, CodeInvalid)
	e.ExpectError(get(code, "", "polemica"), 400, CodeInvalid)
	e.ExpectError(get(code, "forged-token-0123456789abcdef", FormatMafiaRatings), 401, CodeUnauthorized)
	e.ExpectError(get("ZZZZZZ", "", FormatMafiaRatings), 404, CodeNotFound)
	e.ExpectError(e.raw("POST", "/api/games/"+code+"/export?format=mafiaratings", host, "{}"), 405, CodeMethodNotAllowed)

	removeBlack(code, host)
	before := e.version(code)
	pub := get(code, "", FormatMafiaRatings)
	checkAPIHeaders(t, pub.Header)
	var g ratings.Game
	e.Expect(pub, 200, &g)
	if g.Version != ratings.FormatVersion || g.Winner != "civ" || len(g.Players) != 10 {
		t.Fatalf("the export: version %q, winner %q, %d players", g.Version, g.Winner, len(g.Players))
	}
	roles := map[string]int{}
	for _, p := range g.Players {
		roles[p.Role]++
	}
	if roles["civ"] != 6 || roles["sheriff"] != 1 || roles["maf"] != 2 || roles["don"] != 1 {
		t.Errorf("the export's roles: %v", roles)
	}
	for _, token := range []string{host, tokens[3]} {
		if res := get(code, token, FormatMafiaRatings); res.Status != 200 || !bytes.Equal(res.Body, pub.Body) {
			t.Errorf("another viewer gets %d: %.200s", res.Status, res.Body)
		}
	}
	if e.version(code) != before {
		t.Error("the export wrote the game")
	}

	// Classic deals six without a Don: the format has no such game.
	code, host, _ = moderated("classic", 6)
	removeBlack(code, host)
	res := get(code, "", FormatMafiaRatings)
	e.ExpectError(res, 422, service.CodeNotExportable)
	if !strings.Contains(string(res.Body), "10 players") && !strings.Contains(string(res.Body), "deal") {
		t.Errorf("the 422 does not say why: %s", res.Body)
	}
}
