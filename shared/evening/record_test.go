package evening_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/schemadoc"
	"citysleeps/shared/scoring"
)

// recordDoc is docs/EVENING-RECORD.md, the record's schema.
func recordDoc(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "EVENING-RECORD.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestRecordSchemaDocumented: docs/EVENING-RECORD.md tells the schema the code
// writes, as docs/PROTOCOL.md tells the protocol's (protocol's
// TestSchemaDocumented): every field of every type of the record, the
// evening's and the scoring's, by its JSON name, and the schema's version;
// its example is a record of this version, every field of it one the code
// knows; and its CSV header is the one WriteCSV writes. The rules are the
// view's, told in docs/API.md, and are left to it.
func TestRecordSchemaDocumented(t *testing.T) {
	doc := recordDoc(t)
	ours := []string{reflect.TypeFor[evening.RecordSheet]().PkgPath(), reflect.TypeFor[scoring.Standing]().PkgPath()}
	for _, f := range schemadoc.Untold(doc, reflect.TypeFor[evening.RecordSheet](), ours...) {
		t.Errorf("docs/EVENING-RECORD.md does not tell %s.%s (`%s`)", f.Type, f.Go, f.JSON)
	}
	if !strings.Contains(doc, "`schemaVersion` is `1`") || evening.RecordSchemaVersion != 1 {
		t.Errorf("the record's schema is version %d; docs/EVENING-RECORD.md says otherwise", evening.RecordSchemaVersion)
	}

	var header bytes.Buffer
	if err := (evening.RecordSheet{Lang: "ru"}).WriteCSV(&header); err != nil { // the example's language
		t.Fatal(err)
	}
	if h := strings.TrimSuffix(strings.TrimPrefix(header.String(), evening.CSVMark), "\r\n"); !strings.Contains(doc, "```csv\n"+h+"\n") {
		t.Errorf("docs/EVENING-RECORD.md's CSV does not begin with the header WriteCSV writes, %s", h)
	}

	rec := recordExample(t, doc)
	if rec.SchemaVersion != evening.RecordSchemaVersion || len(rec.Players) == 0 || len(rec.Rounds) == 0 ||
		len(rec.Games) == 0 || len(rec.Standings) != len(rec.Players) {
		t.Errorf("the example: version %d, %d players, %d rounds, %d games, %d standings",
			rec.SchemaVersion, len(rec.Players), len(rec.Rounds), len(rec.Games), len(rec.Standings))
	}
	for _, g := range rec.Games {
		seated := rec.Rounds[g.Round-1].Tables[g.Table-1]
		if seated.Game != g.Game || !slices.EqualFunc(g.Seats, seated.Players, func(s evening.RecordSeat, id string) bool { return s.Player == id }) {
			t.Errorf("the example's game %d is not the one its round seated", g.Number)
		}
	}
}

// recordExample is the document's JSON example, read strictly: a field the
// record does not have fails the test.
func recordExample(t *testing.T, doc string) evening.RecordSheet {
	t.Helper()
	_, after, ok := strings.Cut(doc, "```json\n")
	body, _, closed := strings.Cut(after, "```")
	if !ok || !closed {
		t.Fatal("docs/EVENING-RECORD.md has no JSON example")
	}
	var example map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &example); err != nil {
		t.Fatalf("the example is not JSON: %v", err)
	}
	delete(example, "rules") // abbreviated: the view's rules, told in docs/API.md
	rest, _ := json.Marshal(example)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	var rec evening.RecordSheet
	if err := dec.Decode(&rec); err != nil {
		t.Fatalf("the example is not a record: %v", err)
	}
	return rec
}

// TestRecordCSV: the CSV is a header and one row a seat, every field quoted
// as RFC 4180 allows, after the byte order mark, in the way of the evening's
// language: commas and decimal points in English, semicolons and decimal
// commas in Russian, Ukrainian and Romanian (issue 47). A name a spreadsheet
// would take for a formula gets an apostrophe before it, while a negative
// number stays a number; and read with either separator, no cell is a
// formula, even where a name holds the other separator (a spreadsheet may
// split on either). (A carriage return is guarded too, but no name can hold
// one, so it is not tried here.)
func TestRecordCSV(t *testing.T) {
	names := []string{"=1+1", "+7", "-x", "@SUM(A1)", "\tx", `Ann, "the Don"`, "Zoe-Ann", "'quoted", "x;=1+2;", "y,@A1,"}
	want := []string{"'=1+1", "'+7", "'-x", "'@SUM(A1)", "'\tx", `Ann, "the Don"`, "Zoe-Ann", "'quoted", "x;=1+2;", "y,@A1,"}
	g := evening.RecordGame{Number: 1, Round: 1, Table: 1, Game: "P4WZ8N", Winner: "town"}
	for i, name := range names {
		s := evening.RecordSeat{Player: fmt.Sprintf("p%d", i+1)}
		s.Seat, s.Name, s.Role, s.Team = i+1, name, "citizen", "town"
		s.Points = scoring.Parts{Penalty: -50, AutoBonus: 30, Total: -20}
		g.Seats = append(g.Seats, s)
	}
	for _, c := range []struct {
		lang    string
		sep     rune
		penalty string
	}{{"en", ',', "-0.5"}, {"ru", ';', "-0,5"}, {"uk", ';', "-0,5"}, {"ro", ';', "-0,5"}} {
		var b bytes.Buffer
		if err := (evening.RecordSheet{Lang: c.lang, Games: []evening.RecordGame{g, g}}).WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if !strings.HasPrefix(text, evening.CSVMark+`"round"`) || !strings.HasSuffix(text, "\r\n") || evening.CSVSeparator(c.lang) != c.sep {
			t.Errorf("%s: the CSV begins %q and ends %q, separator %q", c.lang, text[:min(12, len(text))], text[len(text)-2:], evening.CSVSeparator(c.lang))
		}
		for _, sep := range []rune{',', ';'} {
			r := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, evening.CSVMark)))
			r.Comma, r.FieldsPerRecord, r.LazyQuotes = sep, -1, sep != c.sep
			rows, err := r.ReadAll()
			if err != nil {
				t.Fatalf("%s read with %q: %v", c.lang, sep, err)
			}
			for i, row := range rows {
				for _, cell := range row {
					if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
						t.Errorf("%s read with %q: row %d has the formula cell %q", c.lang, sep, i, cell)
					}
				}
			}
			if sep != c.sep {
				continue
			}
			if len(rows) != 1+2*len(names) {
				t.Fatalf("%s: %d rows for 2 games of %d seats and a header", c.lang, len(rows), len(names))
			}
			col := func(name string) int { return slices.Index(rows[0], name) }
			for i, row := range rows[1:] {
				if got := row[col("name")]; got != want[i%len(names)] {
					t.Errorf("%s row %d: name %q, want %q", c.lang, i+1, got, want[i%len(names)])
				}
				if row[col("penalty")] != c.penalty || row[col("points")] != strings.Replace("-0.2", ".", evening.CSVDecimal(c.lang), 1) || row[col("won")] != "0" {
					t.Errorf("%s row %d: penalty %s, points %s, won %s", c.lang, i+1, row[col("penalty")], row[col("points")], row[col("won")])
				}
			}
		}
	}
}
