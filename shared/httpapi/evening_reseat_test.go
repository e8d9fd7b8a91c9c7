package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// TestEveningReseatThroughTheAPI: the organiser's reseat answers the
// organiser's view with the link, exactly {target, key, url, qr, expiresAt}
// (the evening's page with the key in its fragment, its QR code, ten minutes
// on), never compressed, and no other answer holds the key; the key, posted
// to the evening's join route with a joinId and no name, takes the player's
// place with a 201 join's answer and a new token, and the old token is a 401
// from then on; the same join again is the same 201, and the key a second
// time, past its time, with a name, or for no player, a clear 4xx that
// leaves the evening as it was.
func TestEveningReseatThroughTheAPI(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.newEvening(1, 2, 8)
	players := "/api/evenings/" + c.Code + "/players"
	var old eveningJoined
	e.Expect(e.JSON("POST", players, "", map[string]string{"name": "Guest 4"}), http.StatusCreated, &old)

	res := e.raw("POST", "/api/evenings/"+c.Code+"/actions", c.OrganizerToken, `{"type":"reseat","player":"p4","id":"rs1"}`,
		"Content-Type", "application/json", "Accept-Encoding", "gzip")
	// Long enough to be compressed (gzipMin), were it not for the key.
	if res.Status != http.StatusOK || res.Header.Get("Content-Encoding") != "" || res.Header.Get("ETag") == "" || len(res.Body) < gzipMin {
		t.Fatalf("the reseat: %d, encoding %q, etag %q: %s", res.Status, res.Header.Get("Content-Encoding"), res.Header.Get("ETag"), res.Body)
	}
	var raw struct {
		Organizer   bool                       `json:"organizer"`
		PollAfterMs int                        `json:"pollAfterMs"`
		Players     []json.RawMessage          `json:"players"`
		Reseat      map[string]json.RawMessage `json:"reseat"`
	}
	if err := json.Unmarshal(res.Body, &raw); err != nil || !raw.Organizer || raw.PollAfterMs == 0 || len(raw.Players) != 8 {
		t.Fatalf("the reseat's answer is no organiser's view: %s, %v", res.Body, err)
	}
	var fields []string
	for k := range raw.Reseat {
		fields = append(fields, k)
	}
	if len(fields) != 5 || raw.Reseat["target"] == nil || raw.Reseat["key"] == nil || raw.Reseat["url"] == nil || raw.Reseat["qr"] == nil || raw.Reseat["expiresAt"] == nil {
		t.Errorf("the link's fields %v, want target, key, url, qr, expiresAt", fields)
	}
	var v struct{ Reseat rules.SeatLink }
	if err := json.Unmarshal(res.Body, &v); err != nil {
		t.Fatal(err)
	}
	l := v.Reseat
	e.wantSeatLink(t, l, "p4", "/evening/"+c.Code)
	again := e.actEvening(c.Code, c.OrganizerToken, `{"type":"reseat","player":"p4","id":"rs1"}`)
	for who, b := range map[string][]byte{
		"the reseat sent again": again.Body,
		"the public":            e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code}).Body,
		"the organiser":         e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code, Token: c.OrganizerToken}).Body,
		"the player":            e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code, Token: old.Token}).Body,
	} {
		if bytes.Contains(b, []byte(l.Key)) || bytes.Contains(b, []byte(`"reseat"`)) {
			t.Errorf("%s gets the link: %s", who, b)
		}
	}
	if again.Status != http.StatusOK {
		t.Errorf("the reseat sent again: %d %s", again.Status, again.Body)
	}
	if strings.Contains(e.log.String(), l.Key) {
		t.Error("the log holds the key")
	}

	req := map[string]string{"seatKey": l.Key, "joinId": "new-phone-join-0123"}
	var moved, retried eveningJoined
	e.Expect(e.JSON("POST", players, "", req), http.StatusCreated, &moved)
	if moved.PlayerID != "p4" || moved.Token == old.Token || moved.Token == "" || moved.Evening.You == nil || moved.Evening.You.PlayerID != "p4" {
		t.Fatalf("the new phone: %+v", moved)
	}
	e.ExpectError(e.Do(apitest.Request{Method: "GET", Path: "/api/evenings/" + c.Code, Token: old.Token}), 401, CodeUnauthorized)
	if you := e.readEvening(c.Code, moved.Token).You; you == nil || you.PlayerID != "p4" {
		t.Errorf("the new phone's read: %+v", you)
	}
	version := e.eveningVersion(c.Code)
	e.Expect(e.JSON("POST", players, "", req), http.StatusCreated, &retried)
	if retried.PlayerID != "p4" || retried.Token != moved.Token || e.eveningVersion(c.Code) != version {
		t.Errorf("the join sent again: %+v; first %+v", retried, moved)
	}

	late := e.reseatKey(c.Code, c.OrganizerToken, `{"type":"reseat","player":"p5","id":"rs2"}`)
	e.clock.Add(10 * time.Minute)
	version = e.eveningVersion(c.Code)
	for _, tc := range []struct {
		name, token, path, body string
		status                  int
		code                    string
	}{
		{"the key used", "", players, `{"seatKey":"` + l.Key + `","joinId":"third-phone-join-01"}`, 403, service.CodeSeatKeyInvalid},
		{"a forged key", "", players, `{"seatKey":"AAAAAAAAAAAAAAAAAAAAAAAA"}`, 403, service.CodeSeatKeyInvalid},
		{"a key past its time", "", players, `{"seatKey":"` + late + `"}`, 403, service.CodeSeatKeyExpired},
		{"a key with a name", "", players, `{"seatKey":"` + late + `","name":"Sub"}`, 400, CodeInvalid},
		{"no such player", c.OrganizerToken, "/api/evenings/" + c.Code + "/actions", `{"type":"reseat","player":"p99","id":"x1"}`, 400, "bad_target"},
		{"no player", c.OrganizerToken, "/api/evenings/" + c.Code + "/actions", `{"type":"reseat","id":"x2"}`, 400, "bad_field"},
		{"a player's token", moved.Token, "/api/evenings/" + c.Code + "/actions", `{"type":"reseat","player":"p4","id":"x3"}`, 403, "not_organizer"},
		{"no token", "", "/api/evenings/" + c.Code + "/actions", `{"type":"reseat","player":"p4","id":"x4"}`, 401, CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.ExpectError(e.raw("POST", tc.path, tc.token, tc.body, "Content-Type", "application/json"), tc.status, tc.code)
			if got := e.eveningVersion(c.Code); got != version {
				t.Errorf("version %d after a refusal, was %d", got, version)
			}
		})
	}
	e.Expect(e.actEvening(c.Code, c.OrganizerToken, `{"type":"absent","player":"p6","id":"a1"}`), http.StatusOK, nil)
	e.ExpectError(e.actEvening(c.Code, c.OrganizerToken, `{"type":"reseat","player":"p6","id":"x5"}`), 409, "player_absent")
}

// reseatKey sends the organiser's reseat and returns its link's key.
func (e *env) reseatKey(code, token, body string) string {
	e.TB.Helper()
	var v struct {
		Reseat struct{ Key string } `json:"reseat"`
	}
	e.Expect(e.actEvening(code, token, body), http.StatusOK, &v)
	if v.Reseat.Key == "" {
		e.TB.Fatalf("%s: no link", body)
	}
	return v.Reseat.Key
}
