package httpapi

import (
	"net/http"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/service"
)

// TestEveningExportRoute: GET /api/evenings/{code}/export?format=mafiaratings
// answers 409 game_not_over before any game is over, 422 not_exportable for
// finished games the format cannot tell (classic tables), 400 for another
// format, 401 for a forged token, 404 for an unknown evening, 405 for
// another method; reading it writes nothing.
func TestEveningExportRoute(t *testing.T) {
	e := newEnv(t, Config{})
	get := func(code, token, format string) apitest.Response {
		return e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + code + "/export?format=" + format, Token: token})
	}
	c := e.newEvening(1, 1, 7)
	var v evening.View
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r1"}`), http.StatusOK, &v)
	e.ExpectError(get(c.Code, "", FormatMafiaRatings), 409, service.CodeGameNotOver)
	e.ExpectError(get(c.Code, "", ""), 400, CodeInvalid)
	e.ExpectError(get(c.Code, "", "polemica"), 400, CodeInvalid)
	e.ExpectError(get(c.Code, "forged-token-0123456789abcdef", FormatMafiaRatings), 401, CodeUnauthorized)
	e.ExpectError(get("ZZZZZZ", "", FormatMafiaRatings), 404, CodeNotFound)
	e.ExpectError(e.raw("POST", "/api/evenings/"+c.Code+"/export?format=mafiaratings", c.OrganizerToken, "{}"), 405, CodeMethodNotAllowed)

	e.endTable(v, 1)
	before := e.eveningVersion(c.Code)
	e.ExpectError(get(c.Code, c.OrganizerToken, FormatMafiaRatings), 422, service.CodeNotExportable)
	if e.eveningVersion(c.Code) != before {
		t.Error("the export wrote the evening")
	}
}
