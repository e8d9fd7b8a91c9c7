package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// checkDecodeError fails unless err is a client error with a 4xx status.
func checkDecodeError(t *testing.T, err error) {
	t.Helper()
	var e *service.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a service error", err, err)
	}
	if s := statusOfError(e); s < 400 || s > 499 || e.Message == "" {
		t.Fatalf("error %v: status %d", err, s)
	}
}

// onlyFields fails unless data is one JSON object (or null) whose keys are
// all among fields, spelled exactly so, each at most once (issue 29:
// {"Id","TyPe"} was taken for {"id","type"}, and a key twice as its last).
func onlyFields(t *testing.T, data []byte, fields ...string) {
	t.Helper()
	if keys, ok := objectKeys(data); ok {
		seen := map[string]bool{}
		for _, k := range keys {
			if !slices.Contains(fields, k) || seen[k] {
				t.Fatalf("accepted the field %q (known exactly: %v; seen before: %v)", k, fields, seen[k])
			}
			seen[k] = true
		}
		return
	}
	if string(bytes.TrimSpace(data)) != "null" {
		t.Fatalf("accepted %q, which is not one JSON object", data)
	}
}

// objectKeys lists the keys of the JSON object data as written, repeats
// included, or reports that data is no object.
func objectKeys(data []byte) ([]string, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	var keys []string
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		keys = append(keys, name.String())
		if err := dec.SkipValue(); err != nil {
			return nil, false
		}
	}
	return keys, true
}

var createSeeds = []string{
	`{"preset":"sport"}`, `{"preset":"classic","moderator":"host","lang":"ru","options":{"speech":30}}`,
	`{"preset":"party","options":null}`, `{}`, `null`, `[]`, `{"preset":1}`, `{"preset":"sport"} x`,
	`{"preset":"sport","x":1}`, `{"Preset":"sport"}`, `{"preset":"sport","preset":"party"}`, `{"preset":"sport","lang":"\u0000"}`, `{"preset":"` + strings.Repeat("s", 40) + `"}`, ``, `{`,
}

// FuzzDecodeCreate: the create route only decodes (the service checks the
// fields): any body is one JSON object of the create request's fields, or a
// client error.
func FuzzDecodeCreate(f *testing.F) {
	for _, s := range createSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req service.CreateRequest
		if err := decode(bytes.NewReader(data), &req); err != nil {
			checkDecodeError(t, err)
			return
		}
		onlyFields(t, data, "preset", "options", "moderator", "lang")
		if len(req.Options) > 0 && !json.Valid(req.Options) {
			t.Fatalf("accepted options that are not JSON: %q", req.Options)
		}
	})
}

// FuzzDecodeJoin: the join route only decodes (the service checks the name):
// any body is one JSON object of the join's fields, or a client error.
func FuzzDecodeJoin(f *testing.F) {
	for _, s := range joinSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req service.JoinRequest
		if err := decode(bytes.NewReader(data), &req); err != nil {
			checkDecodeError(t, err)
			return
		}
		onlyFields(t, data, "name", "joinId", "device", "seatKey")
	})
}

var joinSeeds = []string{`{"name":"Аня"}`, `{"name":"  a  ","joinId":"0123456789abcdef","device":"0123456789abcdef"}`,
	`{"name":""}`, `{"name":"a\u0007"}`, `{"name":"a","b":1}`, `{"name":1}`, `"a"`, `{"name":"\ud800"}`, `{"joinId":7}`,
	`{"seatKey":"AAAAAAAAAAAAAAAAAAAAAAAA"}`, `{"seatKey":"x"}`, `{"seatKey":""}`, `{"seatKey":null}`,
	`{"seatKey":"AAAAAAAAAAAAAAAAAAAAAAAA","name":"Sub"}`, `{"Name":"Ann"}`, `{"name":"Ann","name":"Bob"}`, `{"seatKey":"AAAAAAAAAAAAAAAAAAAAAAA=","joinId":"0123456789abcdef"}`}

// FuzzJoinInPlay sends arbitrary bodies to the join route of a game in play,
// with a link open to move a seat to another device: the answer is a client
// error, never a 5xx and never a seat, and the stored game stays as it was.
func FuzzJoinInPlay(f *testing.F) {
	for _, s := range joinSeeds {
		f.Add([]byte(s))
	}
	e := newEnv(f, Config{})
	code, host, _, _ := e.table("classic", 6)
	e.start(code, host, "s")
	e.MustAct(code, host, rules.Action{ID: "r", Type: rules.ActReseat, Target: "p2"})
	f.Fuzz(func(t *testing.T, body []byte) {
		e.TB = t
		before := e.version(code)
		res := e.Do(apitest.Request{Method: "POST", Path: "/api/games/" + code + "/players", Body: body})
		var eb apitest.ErrorBody
		if res.Status < 400 || res.Status > 499 || json.Unmarshal(res.Body, &eb) != nil || eb.Error.Code == "" {
			t.Fatalf("status %d: %s", res.Status, res.Body)
		}
		if after := e.version(code); after != before {
			t.Fatalf("refused (%d %s), yet the version went from %d to %d", res.Status, res.Body, before, after)
		}
	})
}

var actionSeeds = []string{
	`{"id":"a1","type":"start"}`, `{"id":"a2","type":"vote","target":"p3"}`, `{"id":"a3","type":"vote_all","yes":true}`,
	`{"id":"a4","type":"testament","target":"p2","verdict":"mafia"}`, `{"id":"a5","type":"seat","target":"p1","seat":3}`,
	`{"id":"a6","type":"maniac_side","side":"mafia"}`, `{"id":"a7","type":"configure","options":{"preset":"sport"}}`,
	`{"id":"a8","type":"kill","target":"p1"}`, `{"type":"sleep"}`, `{"id":"x"}`, `{"id":"a","type":"start","Deal":[1]}`,
	`{"id":"a","type":"vote_all","yes":"no"}`, `{"id":"a","type":"seat","seat":1e99}`, `[1]`, `nul`, `{"id":"a","type":"start"}{}`,
	`{"id":"a9","type":"reseat","target":"p2"}`, `{"id":"a","type":"reseat","target":"p99"}`, `{"id":"a","type":"reseat"}`,
	`{"id":"b1","type":"best_move","targets":["p1","p2","p3"]}`, `{"Id":"ci-1","TyPe":"leave"}`, `{"id":"c","type":"vote","type":"leave"}`,
	`{"id":"b2","type":"best_move","targets":["p1"],"targets":["p2","p3"]}`, `{"id":"b","type":"best_move","targets":"p1"}`, `{"id":"b","type":"best_move","targets":[1]}`,
	`{"id":"t1","type":"tap_for","target":"p2","tap":{"type":"kill","target":"p3"}}`, `{"id":"t2","type":"tap_for","target":"p2","tap":{"type":"sleep","id":"x"}}`,
	`{"id":"t3","type":"tap_for","target":"p2","tap":"sleep"}`, `{"id":"t4","type":"tap_for","target":"p2","tap":{"type":"tap_for","target":"p2"}}`,
}

// actionFields are the JSON names of rules.Action's fields.
func actionFields() []string {
	var out []string
	for f := range reflect.TypeFor[rules.Action]().Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// FuzzDecodeAction: the actions route only decodes (the service and the rules
// check the action); the deal is never the client's.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range actionSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var a rules.Action
		if err := decode(bytes.NewReader(data), &a); err != nil {
			checkDecodeError(t, err)
			return
		}
		if string(bytes.TrimSpace(data)) != "null" {
			onlyFields(t, data, actionFields()...)
		}
		if a.Deal != [32]byte{} {
			t.Fatalf("accepted a deal from the client: %+v", a)
		}
	})
}

// FuzzAct sends arbitrary bodies to the actions route of a game in play, as the
// host and as a player: the answer is a view or a client error, never a 5xx,
// and a refused request leaves the stored game as it was.
func FuzzAct(f *testing.F) {
	for _, s := range actionSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	e := newEnv(f, Config{})
	code, host, tokens, ids := e.table("classic", 6)
	e.start(code, host, "s")
	f.Fuzz(func(t *testing.T, body []byte, asHost bool) {
		e.TB = t
		token := tokens[ids[0]]
		if asHost {
			token = host
		}
		before := e.version(code)
		res := e.Do(apitest.Request{Method: "POST", Path: "/api/games/" + code + "/actions", Token: token, Body: body})
		switch {
		case res.Status == http.StatusOK:
		case res.Status >= 400 && res.Status < 500:
			var eb apitest.ErrorBody
			if err := json.Unmarshal(res.Body, &eb); err != nil || eb.Error.Code == "" {
				t.Fatalf("error body %q", res.Body)
			}
			if after := e.version(code); after != before {
				t.Fatalf("refused (%d %s), yet the version went from %d to %d", res.Status, res.Body, before, after)
			}
		default:
			t.Fatalf("status %d: %s", res.Status, res.Body)
		}
	})
}
