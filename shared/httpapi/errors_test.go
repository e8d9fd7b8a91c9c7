package httpapi

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestStatusTableIsDocumented: the one table of kinds to statuses and the
// error table of docs/API.md say the same: every kind is documented under its
// status, and no documented code that is a kind's has another.
func TestStatusTableIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	section = section[strings.Index(section, "\n## Errors"):]
	section = section[:strings.Index(section[1:], "\n## ")+1]
	documented := map[string]int{} // code → status
	row := regexp.MustCompile(`(?m)^\| (\d{3}) \| ([^|]+) \|`)
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		status, _ := strconv.Atoi(m[1])
		for _, c := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(m[2], -1) {
			documented[c[1]] = status
		}
	}
	if len(documented) < 20 {
		t.Fatalf("only %d codes found in docs/API.md's error table", len(documented))
	}
	for kind, status := range statusOf {
		if got, ok := documented[string(kind)]; !ok || got != status {
			t.Errorf("kind %s: status %d here, %d (documented: %v) in docs/API.md", kind, status, got, ok)
		}
	}
}
