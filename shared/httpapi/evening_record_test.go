package httpapi

import (
	"bytes"
	"encoding/csv"
	"mime"
	"net/http"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/httpapi/apitest"
)

// TestEveningRecordRoute: GET /api/evenings/{code}/record answers the record
// as JSON (the default, and ?format=json) and as CSV, each a download named
// after the evening's code, for anyone; 400 for another format, 401 for a
// forged token, 404 for an unknown evening, 405 for another method; reading
// it writes nothing.
func TestEveningRecordRoute(t *testing.T) {
	e := newEnv(t, Config{})
	get := func(code, token, query string) apitest.Response {
		return e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + code + "/record" + query, Token: token})
	}
	download := func(res apitest.Response, contentType, file string) {
		t.Helper()
		if got := res.Header.Get("Content-Type"); got != contentType {
			t.Errorf("Content-Type %q, want %q", got, contentType)
		}
		disposition, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		if err != nil || disposition != "attachment" || params["filename"] != file {
			t.Errorf("Content-Disposition %q, want an attachment named %s", res.Header.Get("Content-Disposition"), file)
		}
	}
	c := e.newEvening(1, 2, 7)
	var v evening.View
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"start_round","id":"r1"}`), http.StatusOK, &v)
	e.endTable(v, 1)
	before := e.eveningVersion(c.Code)

	for _, query := range []string{"", "?format=json"} {
		res := get(c.Code, "", query)
		var rec evening.RecordSheet
		e.Expect(res, http.StatusOK, &rec)
		download(res, "application/json", "evening-"+c.Code+".json")
		if rec.SchemaVersion != evening.RecordSchemaVersion || rec.Code != c.Code || len(rec.Games) != 1 ||
			len(rec.Games[0].Seats) != 7 || len(rec.Standings) != 7 || len(rec.Rounds) != 1 {
			t.Errorf("record%s: %+v", query, rec)
		}
	}

	res := get(c.Code, c.OrganizerToken, "?format=csv")
	e.Expect(res, http.StatusOK, nil)
	download(res, "text/csv; charset=utf-8", "evening-"+c.Code+".csv")
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(res.Body, []byte(evening.CSVMark))))
	r.Comma = evening.CSVSeparator(v.Lang)
	rows, err := r.ReadAll()
	if err != nil || len(rows) != 1+7 || rows[0][0] != "round" {
		t.Errorf("the CSV: %d rows, %v:\n%s", len(rows), err, res.Body)
	}

	e.ExpectError(get(c.Code, "", "?format=xml"), 400, CodeInvalid)
	e.ExpectError(get(c.Code, "", "?format=mafiaratings"), 400, CodeInvalid)
	e.ExpectError(get(c.Code, "forged-token-0123456789abcdef", ""), 401, CodeUnauthorized)
	e.ExpectError(get("ZZZZZZ", "", ""), 404, CodeNotFound)
	e.ExpectError(get("ZZZZZZ", "", "?format=csv"), 404, CodeNotFound)
	e.ExpectError(e.raw("POST", "/api/evenings/"+c.Code+"/record", c.OrganizerToken, "{}"), 405, CodeMethodNotAllowed)
	if e.eveningVersion(c.Code) != before {
		t.Error("the record wrote the evening")
	}
}
