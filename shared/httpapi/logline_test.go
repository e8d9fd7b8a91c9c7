package httpapi

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"citysleeps/shared/rules"
)

// TestRequestLines: every request writes one JSON line that says what it
// was about, for the deployed stack's metric filters and for whoever reads
// the logs (issue 27): the route, the status, the game's code, the action's
// type (a type the game does not know is "unknown", not the client's text)
// and a refusal's code; never a token, a key or a body.
func TestRequestLines(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.Create(map[string]string{"preset": rules.PresetClassic})
	var tokens []string
	for _, name := range []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"} {
		tokens = append(tokens, e.Join(c.Code, name).Token)
	}
	e.MustAct(c.Code, c.HostToken, rules.Action{ID: "start-1", Type: rules.ActStart})
	e.ExpectError(e.raw("POST", "/api/games/"+c.Code+"/actions", c.HostToken, `{"id":"fly-1","type":"fly-over-the-moon"}`), 400, "unknown_action")

	type line struct {
		Msg    string `json:"msg"`
		Route  string `json:"route"`
		Status int    `json:"status"`
		Game   string `json:"game"`
		Action string `json:"action"`
		Error  string `json:"error"`
	}
	var started, unknown bool
	sc := bufio.NewScanner(strings.NewReader(e.log.String()))
	for sc.Scan() {
		text := sc.Text()
		for _, secret := range append([]string{c.HostToken, "fly-over-the-moon", `"Ann"`}, tokens...) {
			if strings.Contains(text, secret) {
				t.Errorf("a log line holds %q: %s", secret, text)
			}
		}
		var l line
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatalf("a log line is not JSON: %s", text)
		}
		if l.Msg != "request" || l.Route != "POST "+PathActions {
			continue
		}
		if l.Game != c.Code {
			t.Errorf("an action's line names game %q, not %s: %s", l.Game, c.Code, text)
		}
		started = started || (l.Action == "start" && l.Status == 200)
		unknown = unknown || (l.Action == "unknown" && l.Status == 400 && l.Error == "unknown_action")
	}
	if !started || !unknown {
		t.Errorf("no line for the start (%v) or for the unknown action (%v):\n%s", started, unknown, e.log.String())
	}
}
