package httpapi

import (
	"bufio"
	"encoding/json"
	"slices"
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

// TestRequestLinesCarryMetrics: with a namespace, each request line is a
// document of CloudWatch's embedded metric format (issue 27), which is how a
// deployed stack counts deals, ends, refusals by code, failures, conflicts
// and handler time: every metric a directive names is a number at the line's
// root, every dimension a string, the namespace the one configured; the
// deal's line counts it, a refusal counts under its code. Without a namespace
// the line keeps its fields and carries no directive.
func TestRequestLinesCarryMetrics(t *testing.T) {
	const namespace = "CitySleeps/test"
	for _, ns := range []string{namespace, ""} {
		e := newEnv(t, Config{Metrics: ns})
		c := e.Create(map[string]string{"preset": rules.PresetClassic})
		for _, name := range []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"} {
			e.Join(c.Code, name)
		}
		e.MustAct(c.Code, c.HostToken, rules.Action{ID: "start-1", Type: rules.ActStart})
		e.ExpectError(e.raw("POST", "/api/games/"+c.Code+"/actions", c.HostToken, `{"id":"start-2","type":"start"}`), 409, "wrong_phase")

		counted := map[string]map[string]float64{} // metric → dimension value → sum
		lines := 0
		sc := bufio.NewScanner(strings.NewReader(e.log.String()))
		for sc.Scan() {
			var l map[string]any
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l["msg"] != "request" {
				continue
			}
			lines++
			if _, ok := l[MetricTime].(float64); !ok {
				t.Errorf("a line has no handler time: %s", sc.Text())
			}
			aws, has := l["_aws"].(map[string]any)
			if has != (ns != "") {
				t.Fatalf("namespace %q: a line's directive is %v: %s", ns, l["_aws"], sc.Text())
			}
			if !has {
				continue
			}
			if ts, ok := aws["Timestamp"].(float64); !ok || ts != float64(e.clock.Now().UnixMilli()) {
				t.Errorf("Timestamp %v: want the time in milliseconds", aws["Timestamp"])
			}
			directives, _ := aws["CloudWatchMetrics"].([]any)
			if len(directives) == 0 {
				t.Fatalf("a directive with no metrics: %s", sc.Text())
			}
			for _, d := range directives {
				d, _ := d.(map[string]any)
				if d["Namespace"] != namespace {
					t.Errorf("namespace %v", d["Namespace"])
				}
				sets, _ := d["Dimensions"].([]any)
				if len(sets) != 1 {
					t.Fatalf("dimension sets %v", d["Dimensions"])
				}
				var dims []string
				for _, k := range sets[0].([]any) {
					v, ok := l[k.(string)].(string)
					if !ok || v == "" {
						t.Errorf("dimension %v is not a string on the line: %s", k, sc.Text())
					}
					dims = append(dims, v)
				}
				for _, m := range d["Metrics"].([]any) {
					m := m.(map[string]any)
					name, _ := m["Name"].(string)
					v, ok := l[name].(float64)
					if unit, has := m["Unit"]; !ok || !slices.Contains(Metrics, name) || (has && unit != "Count") {
						t.Errorf("metric %v is not a documented number on the line: %s", m, sc.Text())
					}
					if counted[name] == nil {
						counted[name] = map[string]float64{}
					}
					counted[name][strings.Join(dims, ",")] += v
				}
			}
		}
		if ns == "" {
			continue
		}
		if lines < 10 {
			t.Fatalf("%d request lines", lines)
		}
		if got := counted[MetricStarted][ServiceName]; got != 1 {
			t.Errorf("%v deals counted, want 1: %v", got, counted)
		}
		if got := counted[MetricRefused]["wrong_phase"]; got != 1 {
			t.Errorf("%v refusals counted under wrong_phase, want 1: %v", got, counted)
		}
		if len(counted[MetricFailed]) != 0 || len(counted[MetricFinished]) != 0 {
			t.Errorf("failures or ends counted in a game that had neither: %v", counted)
		}
	}
}
