package strictjson

import (
	"encoding/json"
	"errors"
	"testing"
)

type inner struct {
	Mafia int `json:"mafia"`
}

type base struct {
	Lang string `json:"lang"`
}

type body struct {
	base
	Preset  string            `json:"preset"`
	Roles   inner             `json:"roles"`
	Seats   []inner           `json:"seats"`
	ByName  map[string]inner  `json:"byName"`
	Raw     json.RawMessage   `json:"raw"`
	Plain   string            // no tag: its Go name
	Skipped string            `json:"-"`
	Extra   map[string]string `json:"extra,omitempty"`
}

// TestDecode: what is refused, and the message that names why, with an
// unknown field named at any depth without reading the decoder's text.
func TestDecode(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{`{"preset":"sport","lang":"en","roles":{"mafia":2},"seats":[{"mafia":1}],"byName":{"a":{"mafia":1}},"raw":{"any":1},"Plain":"x"}`, ""},
		{`{"PRESET":"sport"}`, `unknown field "PRESET"`}, // keys match exactly
		{`{"Preset":"sport"}`, `unknown field "Preset"`},
		{`{"plain":"x"}`, `unknown field "plain"`},
		{`{"preset":"sport","preset":"party"}`, `field "preset" is given twice`},
		{`{"roles":{"mafia":1,"mafia":2}}`, `field "roles.mafia" is given twice`},
		{`{"seats":[{"mafia":1,"mafia":3}]}`, `field "seats.mafia" is given twice`},
		{`{"dragons":true}`, `unknown field "dragons"`},
		{`{"Skipped":"x"}`, `unknown field "Skipped"`},
		{`{"roles":{"mafia":2,"dragon":1}}`, `unknown field "roles.dragon"`},
		{`{"seats":[{"mafia":1},{"don":1}]}`, `unknown field "seats.don"`},
		{`{"byName":{"a":{"don":1}}}`, `unknown field "byName.a.don"`},
		{``, "empty: send a JSON object"},
		{`{"preset":`, "the JSON ends too soon"},
		{`{"preset" 1}`, "not valid JSON (at byte 10)"},
		{`{"preset":7}`, `field "preset" must be a JSON string`},
		{`[1]`, "must be a JSON object"},
		{`{} {}`, "unexpected data after the JSON value"},
	} {
		var b body
		err := Decode([]byte(tc.in), &b)
		var se *Error
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.in, err)
		case tc.msg != "" && (!errors.As(err, &se) || se.Message != tc.msg):
			t.Errorf("%s: %v, want %q", tc.in, err, tc.msg)
		}
	}
}
