package loadgen

import (
	"bytes"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/rules"
	"citysleeps/shared/store"
)

func TestPercentile(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		out := make([]time.Duration, len(xs))
		for i, x := range xs {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	d := ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	for _, c := range []struct {
		p    float64
		want int
	}{{50, 5}, {95, 10}, {99, 10}, {10, 1}, {1, 1}, {100, 10}} {
		if got := Percentile(d, c.p); got != time.Duration(c.want)*time.Millisecond {
			t.Errorf("p%v = %v, want %dms", c.p, got, c.want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("empty: want 0")
	}
	s := Summarize(ms(30, 10, 20))
	if s.N != 3 || s.P50 != 20 || s.Max != 30 || s.Mean != 20 {
		t.Errorf("summary %+v", s)
	}
}

// TestProjectNaivePolling checks the cost model by hand: eleven clients polling
// every 2 s for 45 minutes are 14,850 polls, and every request is billed by
// CloudFront, its function, the web ACL and Lambda (about $1.9 per million
// together), so such a game costs about $0.030 as deployed, and $0.015 more
// with an HTTP API in the path.
func TestProjectNaivePolling(t *testing.T) {
	poll := KindCost{Requests: 1000, HandlerNs: 1000 * 1e6, StoreCalls: 1000, ReadUnits: 500, Bytes: 400 * 1000}
	u := Usage{Games: 2, Minutes: 90, Kinds: map[string]KindCost{
		KindPoll304: poll, KindPoll200: poll,
		KindAction: {Requests: 400, HandlerNs: 400 * 2e6, StoreCalls: 800, ReadUnits: 400, WriteUnits: 800, Bytes: 400 * 3000},
		KindJoin:   {Requests: 20, HandlerNs: 20 * 1e6, StoreCalls: 40, ReadUnits: 20, WriteUnits: 40, Bytes: 20 * 3000},
	}}
	p := ProjectEvery(u, 2000, 11)
	if want := 11.0 * 45 * 60 / 2; math.Abs(p.Polls-want) > 1e-6 || math.Abs(p.Polls304-want/2) > 1e-6 {
		t.Errorf("polls %v (304: %v), want %v (half)", p.Polls, p.Polls304, want)
	}
	if p.Actions != 200 || p.Joins != 10 {
		t.Errorf("actions %v, joins %v: want 200 per 45 minutes and 10 per game", p.Actions, p.Joins)
	}
	if p.Total < 0.028 || p.Total > 0.032 {
		t.Errorf("naive polling costs $%.4f as deployed, want about $0.030", p.Total)
	}
	edge := 0.0
	for _, l := range p.Lines {
		if l.Item == Prices.CloudFrontHTTPS.Name || l.Item == Prices.CloudFrontFunction.Name || l.Item == Prices.WAFRequest.Name {
			edge += l.USD
		}
	}
	if edge < 0.8*p.Total {
		t.Errorf("CloudFront, its functions and the web ACL should be most of the bill: $%.4f of $%.4f", edge, p.Total)
	}
	if extra := p.WithAPIGateway - p.Total; math.Abs(extra-p.Requests/1e6) > 1e-9 {
		t.Errorf("an HTTP API adds $%.4f, want $1 per million requests", extra)
	}
	// At the games' own cadence: 2,000 polls in 90 minutes are 1,000 per 45.
	if got := Project(u); math.Abs(got.Polls-1000) > 1e-6 || got.Total >= p.Total {
		t.Errorf("own cadence: %v polls, $%.4f", got.Polls, got.Total)
	}
}

func TestVerify(t *testing.T) {
	yes := true
	events := []rules.Event{
		{Type: rules.EvAct, Night: 2, Actor: "p1", Target: "p3", Result: string(rules.ActKill)},
		{Type: rules.EvNominated, Day: 2, Actor: "p1", Target: "p4"},
		{Type: rules.EvVoted, Day: 2, Ballots: []rules.Ballot{{Voter: "p1", Target: "p4"}, {Voter: "p2", Target: "p4"}}},
		{Type: rules.EvVoted, Day: 2, Result: "car_crash", Ballots: []rules.Ballot{{Voter: "p1", Yes: true}}},
		{Type: rules.EvVoted, Day: 3, Ballots: []rules.Ballot{{Voter: "p1", Target: "p5"}, {Voter: "p1", Target: "p5"}}},
		{Type: rules.EvBestMove, Night: 2, Actor: "p1", Targets: []string{"p2", "p4"}},
	}
	acks := []Ack{
		{Type: rules.ActKill, Target: "p3", Night: 2},
		{Type: rules.ActNominate, Target: "p4", Day: 2},
		{Type: rules.ActVote, Target: "p4", Day: 2},
		{Type: rules.ActVoteAll, Yes: &yes, Day: 2},
		{Type: rules.ActVote, Target: "p5", Day: 3},
		{Type: rules.ActSleep, Night: 2},
		{Type: rules.ActCheck, Target: "p2", Night: 2}, // not in the log: lost
		{Type: rules.ActBestMove, Targets: []string{"p2", "p4"}, Night: 2},
	}
	c := Verify(events, "p1", acks, nil, nil, false)
	if c.Acked != 8 || c.Checked != 6 || c.NoEvent != 1 || c.Lost != 1 || c.Doubled != 1 {
		t.Errorf("check %+v", c)
	}
	// A ballot the rules filled in (R-SPORT-05) is not a doubled vote.
	if c := Verify(events, "p1", acks, nil, nil, true); c.Doubled != 0 || c.Unacked != 1 {
		t.Errorf("with autofill: %+v", c)
	}
	// Nor is one the player sent without hearing back.
	if c := Verify(events, "p1", acks, map[string]int{`day 3: p1 vote "p5"`: 1}, nil, false); c.Doubled != 0 || c.Unacked != 1 {
		t.Errorf("with an unanswered vote: %+v", c)
	}
	// One refused on a retry was applied after all: misreported.
	if c := Verify(events, "p1", acks, nil, map[string]int{`day 3: p1 vote "p5"`: 1}, false); c.Doubled != 0 || c.Misreported != 1 {
		t.Errorf("with a refused retry: %+v", c)
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://[::1]:80", "http://localhost:1", "http://127.9.9.9"} {
		if err := CheckLoopback(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1", "https://example.org", "http://0.0.0.0:80", "http://[::]:80"} {
		if err := CheckLoopback(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	seen := map[netip.Addr]bool{}
	for i := range 5000 {
		a := SourceAddr(i)
		if !a.IsLoopback() || seen[a] {
			t.Fatalf("bot %d: source %v", i, a)
		}
		seen[a] = true
	}
}

// TestUnitProjectBillsEveryPart checks the lines the edge's functions and the
// log lines add to a game's bill, by hand: every request runs one CloudFront
// Function ($0.10 a million) and writes one log line, billed with
// LogEventOverhead at $0.50 a GB; on a flat-rate plan a game pays only for
// Lambda, its logs and DynamoDB.
func TestUnitProjectBillsEveryPart(t *testing.T) {
	poll := KindCost{Requests: 1000, HandlerNs: 1000 * 1e6, StoreCalls: 1000, ReadUnits: 500, Bytes: 400 * 1000,
		LogBytes: 1000 * 150, LogEvents: 1000}
	u := Usage{Games: 1, Minutes: RealGameMinutes, Kinds: map[string]KindCost{KindPoll304: poll}}
	p := Project(u)
	line := func(item string) float64 {
		for _, l := range p.Lines {
			if l.Item == item {
				return l.USD
			}
		}
		t.Fatalf("no %q line in %+v", item, p.Lines)
		return 0
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: $%.10f, want $%.10f", what, got, want)
		}
	}
	near("CloudFront Functions", line(Prices.CloudFrontFunction.Name), 1000*0.10/1e6)
	if want := 1000.0 * (150 + LogEventOverhead); p.LogBytes != want {
		t.Errorf("log bytes %v, want %v (each line and its event's overhead)", p.LogBytes, want)
	}
	near("log ingestion", line(Prices.LambdaLogIngestion.Name), 1000*(150+LogEventOverhead)*0.50/(1<<30))
	sum := 0.0
	for _, l := range p.Lines {
		sum += l.USD
	}
	near("total", p.Total, sum)
	edge := line(Prices.CloudFrontHTTPS.Name) + line(Prices.CloudFrontFunction.Name) + line(Prices.WAFRequest.Name) + line(Prices.CloudFrontDataOut.Name)
	near("in a plan", p.InPlan, p.Total-edge)
	near("in a plan, by its parts", p.InPlan, line(Prices.LambdaRequest.Name)+line(Prices.LambdaArmGBSecond.Name)+
		line(Prices.LambdaLogIngestion.Name)+line(Prices.DynamoDBReadUnit.Name)+line(Prices.DynamoDBWriteUnit.Name))
	if CostTarget(rules.ModeratorApp) != 0.025 || CostTarget(rules.ModeratorHost) != 0.03 {
		t.Errorf("targets %v (app) and %v (person), want $0.025 and $0.03", CostTarget(rules.ModeratorApp), CostTarget(rules.ModeratorHost))
	}
}

// TestUnitFixedCosts checks the month's fixed bill and the plan line: the web
// ACL ($5) and its three rules ($1 each) whatever is played; the Free plan's
// million requests hold 88 games of 11,300 requests.
func TestUnitFixedCosts(t *testing.T) {
	if got := FixedMonthly(); got != 8 {
		t.Errorf("fixed monthly $%v, want $8 (web ACL $5 + 3 rules × $1)", got)
	}
	f := FixedCosts(11300)
	if f.Plan != "free" || f.PlanUSDMonth != 0 || f.GamesPerMonthInPlan != 88 || f.WAFUSDMonth != 8 {
		t.Errorf("fixed %+v", f)
	}
	if got, want := f.Line(), "fixed: waf_usd_month=8 plan=free plan_usd_month=0 games_per_month_in_plan=88"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	pro := Plans[len(Plans)-1]
	if pro.Name != "pro" || pro.USDMonth != 15 || GamesInPlan(pro, 13600) != 735 {
		t.Errorf("pro plan %+v holds %d games of 13,600 requests, want 735", pro, GamesInPlan(pro, 13600))
	}
	if GamesInPlan(Plans[0], 0) != 0 {
		t.Error("a game of no requests fills no plan")
	}
	// The report takes the costlier way of moderating's requests, so that
	// either fits, and its last two lines are the table and the plan.
	r := SummarizeReal(nil)
	r.Modes = map[string]*ModeReport{}
	r.Fixed = FixedCosts(max(11300, 13600.0))
	if r.FixedLine() != "fixed: waf_usd_month=8 plan=free plan_usd_month=0 games_per_month_in_plan=73" {
		t.Errorf("fixed line %q", r.FixedLine())
	}
	if !strings.HasPrefix(r.TableLine(), "table: handover_s=") || !strings.HasSuffix(r.TableLine(), "cost_deployed_usd=-/-") {
		t.Errorf("table line %q", r.TableLine())
	}
}

// TestUnitLogHandler: the meter files the bytes of each line logged with a
// request's context under that request's kind, as the functions' JSON
// handler writes it, the newline left out.
func TestUnitLogHandler(t *testing.T) {
	m := NewMeter(store.NewMemory())
	var want bytes.Buffer
	logged := slog.New(m.LogHandler())
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logged.DebugContext(r.Context(), "not at INFO: not written")
		logged.InfoContext(r.Context(), "request", "method", r.Method, "status", 200)
		w.WriteHeader(http.StatusOK)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/api/games/ABCD", nil))
	slog.New(httpapi.NewLogHandler(&want)).Info("request", "method", "GET", "status", 200)
	k := m.Kinds()[KindPoll200]
	if d := k.LogBytes - int64(want.Len()-1); k.LogEvents != 1 || d != 0 {
		t.Errorf("logged %d lines, %d bytes; want 1 line of %d bytes (%q)", k.LogEvents, k.LogBytes, want.Len()-1, want.String())
	}
}
