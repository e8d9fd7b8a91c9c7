package protocol_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"citysleeps/shared/protocol"
	"citysleeps/shared/schemadoc"
)

// TestSchemaDocumented: docs/PROTOCOL.md tells the schema the code writes:
// every field of every type by its JSON name, and the schema's version; its
// example is a protocol of this version, every field of it one the code knows.
func TestSchemaDocumented(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "PROTOCOL.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, f := range schemadoc.Untold(doc, reflect.TypeFor[protocol.Protocol]()) {
		t.Errorf("docs/PROTOCOL.md does not tell %s.%s (`%s`)", f.Type, f.Go, f.JSON)
	}
	if !strings.Contains(doc, "`schemaVersion` is `1`") || protocol.SchemaVersion != 1 {
		t.Errorf("the schema is version %d; docs/PROTOCOL.md says otherwise", protocol.SchemaVersion)
	}

	start := strings.Index(doc, "```json\n")
	end := strings.LastIndex(doc, "```")
	if start < 0 || end <= start {
		t.Fatal("docs/PROTOCOL.md has no example")
	}
	var example map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc[start+len("```json\n"):end]), &example); err != nil {
		t.Fatalf("the example is not JSON: %v", err)
	}
	delete(example, "rules") // abbreviated: the view's rules, told in docs/API.md
	rest, _ := json.Marshal(example)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	var p protocol.Protocol
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("the example is not a protocol: %v", err)
	}
	if p.SchemaVersion != protocol.SchemaVersion || len(p.Seats) != 10 || len(p.Days) == 0 || len(p.Nights) == 0 {
		t.Errorf("the example: version %d, %d seats, %d nights, %d days", p.SchemaVersion, len(p.Seats), len(p.Nights), len(p.Days))
	}
}
