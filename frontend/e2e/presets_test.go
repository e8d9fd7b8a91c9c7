package e2e

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"slices"
	"testing"

	"citysleeps/shared/rules"
)

// TestPresetsMatchEngine checks that the home screen's copy of the rule sets
// (frontend/js/options.js) is the engine's (rules.Preset), and that the custom
// form offers every option the engine has.
func TestPresetsMatchEngine(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to read frontend/js/options.js: %v", err)
	}
	script := `import { PRESETS, OPTIONS, presetOptions } from './js/options.js';
console.log(JSON.stringify({ presets: Object.fromEntries(PRESETS.map((p) => [p, presetOptions(p)])), keys: OPTIONS.map((o) => o.key) }));`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	cmd.Dir = frontendDir(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var js struct {
		Presets map[string]map[string]any `json:"presets"`
		Keys    []string                  `json:"keys"`
	}
	if err := json.Unmarshal(out, &js); err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	if !slices.Equal(slices.Sorted(func(yield func(string) bool) {
		for p := range js.Presets {
			if !yield(p) {
				return
			}
		}
	}), slices.Sorted(slices.Values(rules.Presets))) {
		t.Errorf("presets: frontend %v, engine %v", js.Presets, rules.Presets)
	}
	var fields []string
	for _, p := range rules.Presets {
		opts, err := rules.Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(opts)
		var engine map[string]any
		if err := json.Unmarshal(data, &engine); err != nil {
			t.Fatal(err)
		}
		if fields == nil {
			for k := range engine {
				if k != "preset" {
					fields = append(fields, k)
				}
			}
		}
		if !reflect.DeepEqual(engine, js.Presets[p]) {
			for k, v := range engine {
				if !reflect.DeepEqual(v, js.Presets[p][k]) {
					t.Errorf("preset %s, %s: engine %v, frontend %v", p, k, v, js.Presets[p][k])
				}
			}
			for k, v := range js.Presets[p] {
				if _, ok := engine[k]; !ok {
					t.Errorf("preset %s: the frontend has %s=%v, the engine has no such option", p, k, v)
				}
			}
		}
	}
	slices.Sort(fields)
	keys := slices.Sorted(slices.Values(js.Keys))
	if !slices.Equal(fields, keys) {
		t.Errorf("the custom form offers %v\nthe engine has %v", keys, fields)
	}
}
