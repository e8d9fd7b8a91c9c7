package scoring_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/strictjson"
)

// TestFIIM: the default table is FIIM's as mafiaratings encodes it (scoring
// "ФИИМ", version 7), valid, and its JSON reads back the same, every value a
// decimal.
func TestFIIM(t *testing.T) {
	tab := scoring.FIIM()
	if err := tab.Validate(); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"win":{"points":1}`, `"points":[0,0,0.5,0.7],"teams":["town"]`, `"min":-0.7,"max":0.7`,
		`"autoBonus":{"on":true,"points":0.3}`, `"removed":-0.5,"fouls":-0.5`, `"points":0.5,"share":40,"teams":["town"],"lostOnly":true`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%s\nhas no %s", data, want)
		}
	}
	var back scoring.Table
	if err := strictjson.Decode(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, tab) {
		t.Errorf("read back %+v, want %+v", back, tab)
	}
	if a, b := scoring.FIIM(), scoring.FIIM(); &a.BestMove.Teams[0] == &b.BestMove.Teams[0] {
		t.Error("FIIM shares its lists between tables")
	}
}

// TestValidate: every value out of its range is refused, naming it.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		tweak func(*scoring.Table)
		names string // in the refusal
	}{
		{"a negative win", func(t *scoring.Table) { t.Win.Points = -10 }, "win.points"},
		{"a side's negative win", func(t *scoring.Table) { t.Win.Teams = map[rules.Team]scoring.Points{rules.Town: -1} }, "win.teams.town"},
		{"an unknown side", func(t *scoring.Table) { t.Win.Teams = map[rules.Team]scoring.Points{"red": 1} }, "win.teams"},
		{"an unknown card", func(t *scoring.Table) { t.Win.Roles = map[rules.Role]scoring.Points{"joker": 1} }, "win.roles"},
		{"too many points", func(t *scoring.Table) { t.BestMove.Points[3] = scoring.MaxPoints + 1 }, "bestMove.points[3]"},
		{"a best move for nobody", func(t *scoring.Table) { t.BestMove.Teams = nil }, "bestMove.teams"},
		{"a side twice", func(t *scoring.Table) { t.BestMove.Teams = []rules.Team{rules.Town, rules.Town} }, "bestMove.teams"},
		{"an unknown side for compensation", func(t *scoring.Table) { t.Compensation.Teams = []rules.Team{"red"} }, "compensation.teams"},
		{"an extra bound above 0", func(t *scoring.Table) { t.Extra.Min = 10 }, "extra.min"},
		{"an extra bound below 0", func(t *scoring.Table) { t.Extra.Max = -10 }, "extra.max"},
		{"extras with no room", func(t *scoring.Table) { t.Extra.Min, t.Extra.Max = 0, 0 }, "extra.min"},
		{"a penalty that pays", func(t *scoring.Table) { t.Penalty.Fouls = 10 }, "penalty.fouls"},
		{"a negative compensation", func(t *scoring.Table) { t.Compensation.Points = -10 }, "compensation.points"},
		{"a share above 100", func(t *scoring.Table) { t.Compensation.Share = 101 }, "compensation.share"},
		{"a long name", func(t *scoring.Table) { t.Name = strings.Repeat("x", 61) }, "name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab := scoring.FIIM()
			c.tweak(&tab)
			err := tab.Validate()
			if !errors.Is(err, scoring.ErrInvalidTable) || !strings.Contains(err.Error(), c.names) {
				t.Errorf("got %v, want %v naming %s", err, scoring.ErrInvalidTable, c.names)
			}
		})
	}

	// Policies that are off need no sides, and nothing is an empty table's error.
	off := scoring.Table{Win: scoring.WinPolicy{Points: scoring.Point}}
	if err := off.Validate(); err != nil {
		t.Errorf("a table of wins alone: %v", err)
	}
}

// TestPerGame: FIIM's Ci for each lost game a red player was killed first in:
// 0.5 × killed ÷ round(0.4 × games), at most 0.5, in hundredths, the half
// rounded up. Where round(0.4 × games) is no game, the most.
func TestPerGame(t *testing.T) {
	ci := scoring.FIIM().Compensation
	for _, c := range []struct {
		games, killed int
		want          scoring.Points
	}{
		{1, 1, 50}, // round(0.4) is 0
		{2, 1, 50}, // round(0.8) is 1
		{3, 1, 50},
		{4, 1, 25}, // round(1.6) is 2
		{4, 2, 50},
		{6, 1, 25},
		{7, 1, 17}, // round(2.8) is 3: 0.1666…
		{7, 2, 33},
		{10, 1, 13}, // 0.125, the half up
		{10, 3, 38}, // 0.375
		{10, 4, 50},
		{10, 6, 50}, // at most 0.5
		{10, 0, 0},
		{0, 0, 0},
	} {
		if got := ci.PerGame(c.games, c.killed); got != c.want {
			t.Errorf("killed first in %d of %d games: got %s, want %s", c.killed, c.games, got, c.want)
		}
	}
	fixed := ci
	fixed.Share = 0
	if got := fixed.PerGame(10, 1); got != 50 {
		t.Errorf("without a share: got %s, want 0.5", got)
	}
	ci.On = false
	if got := ci.PerGame(1, 1); got != 0 {
		t.Errorf("off: got %s", got)
	}
}

// TestPoints: points read and written as decimals, exactly.
func TestPoints(t *testing.T) {
	for _, c := range []struct {
		in   string
		want scoring.Points
		out  string
	}{
		{"1", 100, "1"}, {"0.5", 50, "0.5"}, {"0.7", 70, "0.7"}, {"-0.5", -50, "-0.5"}, {"0.25", 25, "0.25"},
		{"-0.05", -5, "-0.05"}, {"0", 0, "0"}, {"-0", 0, "0"}, {"1.50", 150, "1.5"}, {"0.300", 30, "0.3"},
		{"100", scoring.MaxPoints, "100"}, {"12.34", 1234, "12.34"},
	} {
		got, err := scoring.ParsePoints(c.in)
		if err != nil || got != c.want || got.String() != c.out {
			t.Errorf("%q: got %d (%s), %v; want %d (%s)", c.in, got, got, err, c.want, c.out)
		}
	}
	for _, bad := range []string{"", ".5", "1.", "0.125", "1e2", "+1", "0x10", "100.01", "1000", "99999999999999999999", `"1"`, "1 ", "--1", "true"} {
		if got, err := scoring.ParsePoints(bad); err == nil {
			t.Errorf("%q: got %s, want a refusal", bad, got)
		}
	}
	var p scoring.Points
	if err := json.Unmarshal([]byte("0.7"), &p); err != nil || p != 70 {
		t.Errorf("JSON 0.7: got %d, %v", p, err)
	}
	if err := json.Unmarshal([]byte("0.125"), &p); err == nil {
		t.Error("JSON 0.125: no refusal")
	}
}

// TestPropertyPointsJSON: any points within MaxPoints read back as written.
func TestPropertyPointsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := scoring.Points(rapid.Int64Range(-int64(scoring.MaxPoints), int64(scoring.MaxPoints)).Draw(t, "points"))
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back scoring.Points
		if err := json.Unmarshal(data, &back); err != nil || back != p {
			t.Fatalf("%d as %s read back as %d, %v", p, data, back, err)
		}
	})
}
