package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryRuleHasATest: every rule docs/RULES.md tells is named by a test of this
// package, and every rule ID the engine cites is told there, so the code's
// comments and the project's own rules never drift apart.
func TestEveryRuleHasATest(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "RULES.md"))
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range regexp.MustCompile(`\*\*(R-[A-Z]+-\d+)`).FindAllStringSubmatch(string(doc), -1) {
		defined[m[1]] = true
	}
	if len(defined) < 50 {
		t.Fatalf("docs/RULES.md defines %d rules", len(defined))
	}
	files, _ := filepath.Glob("*.go")
	var tests, code strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, "_test.go") {
			tests.Write(src)
		} else {
			code.Write(src)
		}
	}
	for id := range defined {
		if !regexp.MustCompile(regexp.QuoteMeta(id) + `\b`).MatchString(tests.String()) {
			t.Errorf("no test names %s", id)
		}
	}
	for _, id := range regexp.MustCompile(`R-[A-Z]+-\d+`).FindAllString(code.String(), -1) {
		if !defined[id] {
			t.Errorf("the engine cites %s, which docs/RULES.md does not tell", id)
		}
	}
}
