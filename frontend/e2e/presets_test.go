package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"citysleeps/shared/rules"
)

var update = flag.Bool("update", false, "rewrite frontend/test/testdata/rules.json from the engine")

// TestRulesFixture: the rules' schema the frontend's unit tests read
// (frontend/test/testdata/rules.json) is the one the server serves at
// GET /api/rules (rules.OptionSchema); `go test ./frontend/e2e -run
// TestRulesFixture -update` writes it again after the rules change.
func TestRulesFixture(t *testing.T) {
	t.Parallel()
	want, err := json.MarshalIndent(rules.OptionSchema(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	path := filepath.Join(frontendDir(t), "test", "testdata", "rules.json")
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the server's rules schema: run go test ./frontend/e2e -run TestRulesFixture -update", path)
	}
}
