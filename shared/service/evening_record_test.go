package service_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/evening"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// TestEveningRecord: the record of an evening of two tables and two rounds,
// every game over, the last round's not yet counted by any write. Its
// standings are the view's, exactly (and so the sum of the protocols,
// wantStandings); its rounds are the view's, its games every game with each
// seat's evening id in the round's seat order; its CSV is one row a player a
// game, a name that begins with '=' guarded there and as it is in the JSON;
// and reading it writes nothing.
func TestEveningRecord(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	req := classicEvening(2, 2, 14)
	req.Players[0] = "=1+1"
	c := mustEvening(t, svc, req)
	org := c.OrganizerToken

	rec, err := svc.EveningRecord(ctx, c.Code, "")
	if err != nil || len(rec.Players) != 14 || len(rec.Rounds) != 0 || len(rec.Games) != 0 || len(rec.Standings) != 0 {
		t.Fatalf("the record before the first round: %+v, %v", rec, err)
	}
	for range 2 {
		endRound(t, svc, mustActEvening(t, svc, c.Code, org, service.ActStartRound))
	}
	v, err := svc.ReadEvening(ctx, c.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	wantStandings(t, svc, v)
	rec, err = svc.EveningRecord(ctx, c.Code, org)
	if err != nil {
		t.Fatal(err)
	}
	if after, err := svc.ReadEvening(ctx, c.Code, ""); err != nil || after.Version != v.Version {
		t.Fatalf("the record wrote the evening: version %d, then %d (%v)", v.Version, after.Version, err)
	}
	if !reflect.DeepEqual(rec.Standings, v.Standings) || len(rec.Standings) != 14 {
		t.Fatalf("the record's standings:\n %+v\nthe view's:\n %+v", rec.Standings, v.Standings)
	}
	if rec.Code != c.Code || rec.SchemaVersion != 1 || rec.Tables != 2 || rec.RoundCount != 2 ||
		!reflect.DeepEqual(rec.Rounds, v.Rounds) || len(rec.Games) != 4 {
		t.Fatalf("the record: %s v%d, %d tables, %d rounds planned, rounds %+v (the view's %+v), %d games",
			rec.Code, rec.SchemaVersion, rec.Tables, rec.RoundCount, rec.Rounds, v.Rounds, len(rec.Games))
	}
	seats := 0
	for i, g := range rec.Games {
		table := v.Rounds[g.Round-1].Tables[g.Table-1]
		if g.Number != i+1 || g.Game != table.Game || g.Winner == "" ||
			!slices.EqualFunc(g.Seats, table.Players, func(s evening.RecordSeat, id string) bool { return s.Player == id }) {
			t.Errorf("game %d: %+v, seated %+v", i+1, g, table)
		}
		seats += len(g.Seats)
	}
	if rec.Players[0] != (evening.RecordPlayer{ID: "p1", Name: "=1+1"}) {
		t.Errorf("the record's first player is %+v: the JSON has every name as it is", rec.Players[0])
	}

	var b bytes.Buffer
	if err := rec.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(b.String(), evening.CSVMark)))
	r.Comma = evening.CSVSeparator(rec.Lang)
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+seats || seats != 14*2 {
		t.Fatalf("the CSV has %d rows for %d seats of 4 games and a header", len(rows), seats)
	}
	player, name := slices.Index(rows[0], "player"), slices.Index(rows[0], "name")
	guarded := 0
	for _, row := range rows[1:] {
		if row[player] == "p1" {
			guarded++
			if row[name] != "'=1+1" {
				t.Errorf("p1's name in the CSV is %q, not guarded", row[name])
			}
		}
	}
	if guarded != 2 {
		t.Errorf("p1 has %d rows, not one a round", guarded)
	}

	if _, err := svc.EveningRecord(ctx, c.Code, "forged-token-0123456789abcdef"); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("a forged token: %v, want 401", err)
	}
	if _, err := svc.EveningRecord(ctx, "ZZZZZZ", ""); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("an unknown evening: %v, want 404", err)
	}
}
