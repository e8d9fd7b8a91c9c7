package loadgen

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

// The issue "The club's evening" asks the load tool to play whole evenings on
// both stores with 0 lost and standings equal to the protocols. These tests
// play one small evening through the HTTP API, the organiser, phones and
// consoles all bots, and hold it to that: every acknowledged action in its
// game's log, and the standings the evening shows exactly the scoring
// package's sum of its games' protocols (DESIGN.md, "Beyond one table: the
// evening": standings are a pure function of the protocols). Short, it is 10
// phones at 2 classic tables of 5 (its fewest) for 2 rounds, so that both stores' evenings
// take well under half a minute (a game's steps wait on the server's poll
// hints, which no speed-up shortens, and a sport table of 10 has twice the
// speeches); with -long, the club's evening of the issue: 40 phones at 4 sport
// tables, 3 rounds.

// TestEveningBolt plays an evening on the local server's embedded store.
func TestEveningBolt(t *testing.T) {
	t.Parallel()
	target, err := Start(context.Background(), TargetOptions{Store: StoreBolt, Dir: t.TempDir(), RateLimit: true, BillLogs: true})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	playEvening(t, target, 6000)
}

// TestEveningDynamo plays an evening on the DynamoDB store, served by
// dynalite on loopback.
func TestEveningDynamo(t *testing.T) {
	t.Parallel()
	target, err := Start(context.Background(), TargetOptions{Store: StoreDynamo, RateLimit: true, BillLogs: true})
	if err != nil {
		t.Fatalf("dynalite is needed (npm ci at the repository root): %v", err)
	}
	defer target.Close()
	playEvening(t, target, 7000)
}

// playEvening plays one evening against target, its bots sending from
// firstSource on, and fails t unless it finished intact with its standings
// those of its protocols, measured and billed.
func playEvening(t *testing.T, target *Target, firstSource int) {
	t.Helper()
	preset := rules.PresetClassic
	if *long {
		preset = rules.PresetSport
	}
	cfg := EveningConfig{Evenings: 1, Players: scale(10, 40), Tables: scale(2, 4), Rounds: scale(2, 3),
		Bots: Config{URL: target.URL, Meter: target.Meter, Presets: []string{preset}, Speed: testSpeed, Burst: true,
			FirstSource: firstSource, GameTimeout: hungAfter},
		Progress: func(_, round int, games []GameResult) {
			for _, g := range games {
				t.Logf("round %d: game %s over (%s) on day %d after %.1f s", round+1, g.Code, g.Winner, g.Days, g.Took.Seconds())
			}
		}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(cfg.Rounds)*cfg.Bots.GameTimeout+time.Minute)
	defer cancel()
	rep, err := PlayEvenings(ctx, cfg)
	if err != nil {
		t.Fatalf("play: %v", err)
	}
	if testing.Verbose() {
		t.Log("\n" + rep.Text() + rep.Line())
	}
	if err := rep.Failed(); err != nil {
		t.Fatal(err)
	}
	if rep.Games != cfg.Tables*cfg.Rounds || rep.GamesFinished != rep.Games {
		t.Errorf("%d of %d games finished", rep.GamesFinished, cfg.Tables*cfg.Rounds)
	}
	if rep.Check.Acked == 0 || rep.Check.Checked == 0 {
		t.Errorf("nothing was checked: %d actions acknowledged, %d found in the log", rep.Check.Acked, rep.Check.Checked)
	}
	if rep.EveningServer.N == 0 || rep.GameServer.N == 0 {
		t.Errorf("no server time measured: %d evening requests, %d game requests", rep.EveningServer.N, rep.GameServer.N)
	}
	if rep.CostUSD <= 0 || rep.Cost.Evening == 0 || rep.Cost.LogBytes == 0 {
		t.Errorf("no cost: $%v, %v evening requests, %v log bytes", rep.CostUSD, rep.Cost.Evening, rep.Cost.LogBytes)
	}
	if !strings.HasPrefix(rep.Line(), "evening: players=") {
		t.Errorf("line %q", rep.Line())
	}
}

// TestUnitEveningBill: an evening's requests are billed as they were made,
// none scaled (Bill), by the very prices a real game's projection uses, and
// its own routes are counted apart from its games'.
func TestUnitEveningBill(t *testing.T) {
	kinds := map[string]KindCost{
		KindPoll200:      {Requests: 40, HandlerNs: 40e6, StoreCalls: 40, ReadUnits: 20, Bytes: 40_000},
		KindAction:       {Requests: 10, HandlerNs: 20e6, StoreCalls: 20, ReadUnits: 10, WriteUnits: 30, Bytes: 10_000},
		KindEveningRead:  {Requests: 5, HandlerNs: 5e6, StoreCalls: 10, ReadUnits: 5, Bytes: 20_000, LogBytes: 2_000, LogEvents: 5},
		KindEveningWrite: {Requests: 2, HandlerNs: 8e6, StoreCalls: 12, ReadUnits: 6, WriteUnits: 20, Bytes: 8_000},
	}
	b := Bill(kinds)
	if b.Requests != 57 || b.Evening != 7 || b.Polls != 40 || b.Actions != 10 {
		t.Errorf("requests %v: %v evening, %v polls, %v actions", b.Requests, b.Evening, b.Polls, b.Actions)
	}
	// A real game's projection of one game that lasted RealGameMinutes scales
	// nothing either: the same bill.
	if p := Project(Usage{Games: 1, Minutes: RealGameMinutes, Kinds: kinds}); p.Total != b.Total || b.Total <= 0 {
		t.Errorf("Bill $%v, Project of the same requests $%v", b.Total, p.Total)
	}
	if b.ReadUnits != 41 || b.WriteUnits != 50 || b.LogBytes != 2_000+5*LogEventOverhead {
		t.Errorf("%v RRU, %v WRU, %v log bytes", b.ReadUnits, b.WriteUnits, b.LogBytes)
	}
}

// TestUnitEveningAtPeoplesPace: an evening at people's pace is its tables ×
// rounds games at a real game's price, and its own requests at the run's mean
// price a request, one evening's share; the line says it only when known.
func TestUnitEveningAtPeoplesPace(t *testing.T) {
	r := EveningReport{Evenings: 2, Tables: 4, Rounds: 3, Cost: Projection{Requests: 1000, Evening: 200, Total: 0.5}}
	if got, want := r.AtPeoplesPace(0.025), 12*0.025+200*0.5/1000/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("at people's pace: $%v, want $%v", got, want)
	}
	if strings.Contains(r.Line(), "cost_people_usd") {
		t.Errorf("the line gives a cost at people's pace nobody worked out: %s", r.Line())
	}
	r.PeoplesPaceUSD = r.AtPeoplesPace(0.025)
	if !strings.HasSuffix(r.Line(), " cost_people_usd=0.3500") {
		t.Errorf("the line: %s", r.Line())
	}
	if (EveningReport{}).AtPeoplesPace(0.025) != 0 {
		t.Error("an evening run that played nothing has a cost")
	}
}

// TestUnitEveningStrangersFail: an evening whose strangers' tries were let in
// (a 2xx) or broke something (a 5xx), or that tried none, has failed, however
// well its games went.
func TestUnitEveningStrangersFail(t *testing.T) {
	ok := EveningReport{Evenings: 1, Finished: 1, StandingsMatch: true, Strangers: 16}
	if err := ok.Failed(); err != nil {
		t.Errorf("16 tries, all refused: %v", err)
	}
	for _, r := range []EveningReport{
		{Evenings: 1, Finished: 1, StandingsMatch: true, Strangers: 16, StrangersLet: 1},
		{Evenings: 1, Finished: 1, StandingsMatch: true},
	} {
		if r.Failed() == nil {
			t.Errorf("%d tries, %d let through: not failed", r.Strangers, r.StrangersLet)
		}
	}
}
