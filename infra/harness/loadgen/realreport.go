package loadgen

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"citysleeps/shared/rules"
)

// The targets the real games are held to.
const (
	// OpenTarget: a step the server opens shows on every phone, screen and
	// console within half a second (p95).
	OpenTarget = 500 * time.Millisecond
	// ScreenTarget: a change of what everyone may see (a nomination, a vote
	// mark, a pause, a hand-over starting, a join) shows on the shared screen
	// and the moderator's console within 1.2 s (p95).
	ScreenTarget = 1200 * time.Millisecond
	// PhoneTarget: the same change shows on every phone within 3 s (p95).
	PhoneTarget = 3 * time.Second
	// DeadAirTarget: at most this share of play (in percent, pauses left out)
	// goes in hand-overs.
	DeadAirTarget = 8.0
)

// publicTarget is the target of a public change on a client of kind k.
func publicTarget(k string) time.Duration {
	if k == ClientPhone {
		return PhoneTarget
	}
	return ScreenTarget
}

// Moderators are both ways a game is moderated, in report order.
var Moderators = []string{rules.ModeratorApp, rules.ModeratorHost}

// RealReport is what PlayRealGames measured: what one real game costs and how
// soon every client shows what the server opened and what changed.
type RealReport struct {
	Setup string `json:"setup"`
	Games int    `json:"games"`
	// HandOver is the hand-over the games played with, in seconds.
	HandOver int                    `json:"handOverS"`
	ByPreset map[string]int         `json:"byPreset"`
	Winners  map[string]int         `json:"winners"`
	Modes    map[string]*ModeReport `json:"byModerator"`
	// Opened and Public are ModeReport's, over both ways of moderating.
	Opened map[string]Summary `json:"opened"`
	Public map[string]Summary `json:"public"`
	// DeadAirPct is the share of play spent in hand-overs, in percent, over
	// every game (pauses left out).
	DeadAirPct float64           `json:"deadAirPct"`
	Targets    map[string]string `json:"targets"`
	// Fixed is the month's bill apart from the games, and how many games the
	// cheapest flat-rate plan holds: of the costlier way of moderating's
	// requests, so that either fits.
	Fixed Fixed `json:"fixed"`
}

// ModeReport is the real games of one way of moderating.
type ModeReport struct {
	Games       int     `json:"games"`
	MeanMinutes float64 `json:"meanMinutes"`
	MeanDays    float64 `json:"meanDays"`
	// PhoneEveryMs and ScreenEveryMs are the mean intervals between the polls
	// of one phone and of one screen (the shared screen or a console).
	PhoneEveryMs  float64 `json:"phonePollEveryMs"`
	ScreenEveryMs float64 `json:"screenPollEveryMs"`
	Screens       int     `json:"screens"`
	Share304      float64 `json:"share304"`
	BytesPerPoll  float64 `json:"bytesPerPoll"`
	// Busiest is the most API requests one table sent in any PeakWindow
	// (RealGame.Busiest), over the games.
	Busiest int `json:"busiestPer5Min"`
	// Opened is, by client kind and "all", how long a step the server opened
	// took to show on each client (virtual time, exact).
	Opened map[string]Summary `json:"opened"`
	// Public is, by client kind, how long a change of the public view took to
	// show on each client of that kind.
	Public map[string]Summary `json:"public"`
	// DeadAirPct is the share of play spent in hand-overs, in percent.
	DeadAirPct  float64    `json:"deadAirPct"`
	Usage       Usage      `json:"usage"`
	Cost        Projection `json:"cost"`
	Sensitivity []CostAt   `json:"costByPollInterval"`
}

// CostAt is the cost of a real game as deployed if every client polled every
// EveryMs.
type CostAt struct {
	EveryMs  float64 `json:"everyMs"`
	Requests float64 `json:"requests"`
	USD      float64 `json:"usd"`
}

// PlayRealGames plays perPreset real games of each preset under each way of
// moderating in moderators (PlayReal), seeds from seed on, on every core, with
// the hand-over handOver when not nil, and reports them together. It gives up
// with ctx's error when ctx ends first.
func PlayRealGames(ctx context.Context, presets, moderators []string, perPreset int, seed uint64, h Human, handOver *int) (RealReport, error) {
	type job struct {
		preset, moderator string
		seed              uint64
	}
	var jobs []job
	for range perPreset {
		for _, m := range moderators {
			for _, p := range presets {
				jobs = append(jobs, job{p, m, seed + uint64(len(jobs))})
			}
		}
	}
	games := make([]RealGame, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				games[i], errs[i] = PlayReal(ctx, jobs[i].preset, jobs[i].moderator, jobs[i].seed, h, handOver)
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return RealReport{}, err
		}
	}
	r := SummarizeReal(games)
	r.HandOver = DefaultHandOver()
	if handOver != nil {
		r.HandOver = *handOver
	}
	r.Setup = fmt.Sprintf("%d games (%d of each of %s, moderated by %s), 10 players and a shared screen each (and a console when a person moderates), the presets' own timers, a %d s hand-over, %v from a server read to the page, seeds %d…",
		len(games), perPreset, strings.Join(presets, "/"), strings.Join(moderators, " and "), r.HandOver, Latency, seed)
	return r, nil
}

// DefaultHandOver is the hand-over every preset plays with unless the host
// changes it, in seconds.
func DefaultHandOver() int {
	o, err := rules.Preset(rules.PresetSport)
	if err != nil {
		panic(err) // the rules' own preset
	}
	return o.HandOver
}

// SummarizeReal reports games together, by way of moderating and over both.
func SummarizeReal(games []RealGame) RealReport {
	r := RealReport{ByPreset: map[string]int{}, Winners: map[string]int{}, Modes: map[string]*ModeReport{}, Targets: map[string]string{}}
	byMode := map[string][]RealGame{}
	for _, g := range games {
		r.Games++
		r.ByPreset[g.Preset]++
		r.Winners[g.Winner]++
		byMode[g.Moderator] = append(byMode[g.Moderator], g)
	}
	requests := 0.0
	for mode, gs := range byMode {
		m := summarizeMode(gs)
		r.Modes[mode] = m
		r.Targets["cost as deployed, "+mode] = verdict(m.Cost.Total <= CostTarget(mode),
			fmt.Sprintf("$%.4f ≤ $%.3f pay-as-you-go, + $%g a month", m.Cost.Total, CostTarget(mode), FixedMonthly()))
		requests = max(requests, m.Cost.Requests)
	}
	r.Fixed = FixedCosts(requests)
	r.Opened, r.Public = pooled(games, func(g RealGame) map[string][]time.Duration { return g.Opened }),
		pooled(games, func(g RealGame) map[string][]time.Duration { return g.Public })
	for _, k := range ClientKinds {
		if s, ok := r.Opened[k]; ok {
			r.Targets["step opened → shown, "+k] = verdict(s.P95 <= ms(OpenTarget), within(s, OpenTarget))
		}
		if s, ok := r.Public[k]; ok {
			r.Targets["public change → shown, "+k] = verdict(s.P95 <= ms(publicTarget(k)), within(s, publicTarget(k)))
		}
	}
	r.DeadAirPct = deadAir(games)
	r.Targets["dead air (hand-overs in play)"] = verdict(r.DeadAirPct <= DeadAirTarget, fmt.Sprintf("%.1f%% ≤ %.0f%%", r.DeadAirPct, DeadAirTarget))
	return r
}

// within describes s against target.
func within(s Summary, target time.Duration) string {
	return fmt.Sprintf("p95 %.0f ms ≤ %.0f (p50 %.0f, max %.0f, n %d)", s.P95, ms(target), s.P50, s.Max, s.N)
}

// pooled summarizes, by client kind and "all", the durations of every game
// that of picks.
func pooled(games []RealGame, of func(RealGame) map[string][]time.Duration) map[string]Summary {
	by := map[string][]time.Duration{}
	for _, g := range games {
		for k, d := range of(g) {
			by[k] = append(by[k], d...)
			by["all"] = append(by["all"], d...)
		}
	}
	out := map[string]Summary{}
	for k, d := range by {
		out[k] = Summarize(d)
	}
	return out
}

// deadAir is the share of the games' play spent in hand-overs, in percent.
func deadAir(games []RealGame) float64 {
	var play, held time.Duration
	for _, g := range games {
		play += g.Play
		held += g.HandOvers
	}
	if play <= 0 {
		return 0
	}
	return 100 * float64(held) / float64(play)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func summarizeMode(games []RealGame) *ModeReport {
	m := &ModeReport{}
	var phonePolls, screenPolls int
	for _, g := range games {
		m.Games++
		m.MeanMinutes += g.Minutes
		m.MeanDays += float64(g.Days)
		m.Usage.Add(g.Minutes, g.Kinds)
		phonePolls += g.PhonePolls
		screenPolls += g.ScreenPolls
		m.Screens = g.Screens
		m.Busiest = max(m.Busiest, g.Busiest)
	}
	n := float64(len(games))
	m.MeanMinutes /= n
	m.MeanDays /= n
	total := m.Usage.Minutes * 60_000
	if phonePolls > 0 {
		m.PhoneEveryMs = total * RealPlayers / float64(phonePolls)
	}
	if screenPolls > 0 {
		m.ScreenEveryMs = total * float64(m.Screens) / float64(screenPolls)
	}
	m.Opened = pooled(games, func(g RealGame) map[string][]time.Duration { return g.Opened })
	m.Public = pooled(games, func(g RealGame) map[string][]time.Duration { return g.Public })
	m.DeadAirPct = deadAir(games)
	p304, p200 := m.Usage.Kinds[KindPoll304], m.Usage.Kinds[KindPoll200]
	if polls := p304.Requests + p200.Requests; polls > 0 {
		m.Share304 = float64(p304.Requests) / float64(polls)
		m.BytesPerPoll = float64(p304.Bytes+p200.Bytes) / float64(polls)
	}
	m.Cost = Project(m.Usage)
	for _, every := range []float64{1000, 2000, 3000, 5000, 8000} {
		p := ProjectEvery(m.Usage, every, RealPlayers+m.Screens)
		m.Sensitivity = append(m.Sensitivity, CostAt{EveryMs: every, Requests: p.Requests, USD: p.Total})
	}
	return m
}

// FixedLine is the report's last line, after TableLine, for scripts: the
// month's fixed bill pay-as-you-go (the web ACL and its rules), the cheapest
// flat-rate plan, its price, and how many games a month its request allowance
// holds (Fixed):
//
//	fixed: waf_usd_month=8 plan=free plan_usd_month=0 games_per_month_in_plan=73
func (r RealReport) FixedLine() string { return r.Fixed.Line() }

// TableLine is the report's last line but one, in a form any script can read:
//
//	table: handover_s=3 deadair_pct=6.1 step_p95_ms=350/350/350 public_p95_ms=1169/1170/2950 cost_deployed_usd=0.0222/0.0266
//
// step_p95_ms is phones/screen/console, public_p95_ms screen/console/phones,
// both over every game; cost_deployed_usd is app/person, a game's bill
// pay-as-you-go (FixedLine has the month's fixed part).
func (r RealReport) TableLine() string {
	p95 := func(m map[string]Summary, k string) string { return fmt.Sprintf("%.0f", m[k].P95) }
	cost := func(mode string) string {
		if m, ok := r.Modes[mode]; ok {
			return fmt.Sprintf("%.4f", m.Cost.Total)
		}
		return "-"
	}
	return fmt.Sprintf("table: handover_s=%d deadair_pct=%.1f step_p95_ms=%s/%s/%s public_p95_ms=%s/%s/%s cost_deployed_usd=%s/%s",
		r.HandOver, r.DeadAirPct,
		p95(r.Opened, ClientPhone), p95(r.Opened, ClientScreen), p95(r.Opened, ClientConsole),
		p95(r.Public, ClientScreen), p95(r.Public, ClientConsole), p95(r.Public, ClientPhone),
		cost(rules.ModeratorApp), cost(rules.ModeratorHost))
}

// Text renders the report as plain text.
func (r RealReport) Text() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("REAL GAMES IN VIRTUAL TIME (people's pace, the server's poll hints)")
	w("  setup               %s", r.Setup)
	w("  games               %d, by preset %v, winners %v", r.Games, sortedMap(r.ByPreset), sortedMap(r.Winners))
	for _, mode := range Moderators {
		m, ok := r.Modes[mode]
		if !ok {
			continue
		}
		w("")
		w("MODERATED BY: %s (%d games, mean %.1f minutes, %.1f days, %.1f%% of play in hand-overs)", mode, m.Games, m.MeanMinutes, m.MeanDays, m.DeadAirPct)
		w("  poll interval       phones %.0f ms, screens %.0f ms on average (%d screens); %.1f%% answered 304; %.0f bytes per poll",
			m.PhoneEveryMs, m.ScreenEveryMs, m.Screens, 100*m.Share304, m.BytesPerPoll)
		w("  busiest %v        %d API requests from one table (its phones and screens: one home's address)", PeakWindow, m.Busiest)
		writeLags(w, "step opened by the server → shown on each client (ms):", m.Opened)
		writeLags(w, "public change → shown on each client (ms):", m.Public)
		c := m.Cost
		w("  COST OF ONE REAL 10-PLAYER %.0f-MINUTE GAME AS DEPLOYED (us-east-1 list prices)", RealGameMinutes)
		w("  requests            %.0f = %.0f polls (%.0f answered 304) + %.0f actions + %.0f joins/create", c.Requests, c.Polls, c.Polls304, c.Actions, c.Joins)
		w("  Lambda %.2f GB-s (%d MB, handler time + %.0f ms per DynamoDB call), DynamoDB %.0f RRU + %.0f WRU, %.2f MB out, %.2f MB of log lines (%.0f bytes a request)",
			c.LambdaGBs, LambdaMemoryMB, DynamoCallMs, c.ReadUnits, c.WriteUnits, c.BytesOut/1e6, c.LogBytes/1e6, c.LogBytes/max(c.Requests, 1))
		for _, l := range c.Lines {
			w("  %-36s %12.1f %-9s $%.5f", l.Item, l.Quantity, l.Unit, l.USD)
		}
		w("  TOTAL               $%.4f a game pay-as-you-go: CloudFront and its functions, the web ACL, Lambda function URLs and their logs, DynamoDB (target $%.3f)",
			c.Total, CostTarget(mode))
		w("                      + $%g a month whatever is played: the web ACL ($%g) and its %d rules ($%g each)",
			FixedMonthly(), Prices.WAFWebACLMonth.USD, EdgeLimitsRules, Prices.WAFRuleMonth.USD)
		w("                      $%.4f with an HTTP API between CloudFront and the functions", c.WithAPIGateway)
		for _, p := range Plans {
			w("  on the flat-rate %-4s plan: $%g a month + $%.4f a game (Lambda, its logs, DynamoDB), up to %d games a month (%.0fM requests)",
				p.Name, p.USDMonth, c.InPlan, GamesInPlan(p, c.Requests), p.Requests/1e6)
		}
		w("  if every client polled every …")
		for _, s := range m.Sensitivity {
			w("    %5.0f ms: %6.0f requests, $%.4f", s.EveryMs, s.Requests, s.USD)
		}
	}
	w("")
	w("FIXED MONTHLY: $%g pay-as-you-go (web ACL and rules); flat-rate %s plan $%g a month for up to %d games (%.0f requests a game)",
		r.Fixed.WAFUSDMonth, r.Fixed.Plan, r.Fixed.PlanUSDMonth, r.Fixed.GamesPerMonthInPlan, r.Fixed.RequestsPerGame)
	w("")
	writeTargets(w, 44, r.Targets)
	w("")
	w("PRICES (one table: loadgen.Prices)")
	b.WriteString(PriceTable())
	return b.String()
}

// writeLags writes a table of lags by client kind under title.
func writeLags(w func(string, ...any), title string, by map[string]Summary) {
	w("  %s", title)
	w("    %-10s %6s %8s %8s %8s %8s", "client", "n", "p50", "p95", "p99", "max")
	for _, k := range append(slices.Clone(ClientKinds), "all") {
		if s, ok := by[k]; ok {
			w("    %-10s %6d %8.0f %8.0f %8.0f %8.0f", k, s.N, s.P50, s.P95, s.P99, s.Max)
		}
	}
}
