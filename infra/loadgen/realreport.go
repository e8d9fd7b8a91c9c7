package loadgen

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// NoticeTarget is how soon a player who must act should see that they must:
// "within about a second".
const NoticeTarget = 1200 * time.Millisecond

// RealReport is what PlayRealGames measured: what one real game costs and how
// soon the players who must act see it.
type RealReport struct {
	Setup       string         `json:"setup"`
	Games       int            `json:"games"`
	ByPreset    map[string]int `json:"byPreset"`
	Winners     map[string]int `json:"winners"`
	MeanMinutes float64        `json:"meanMinutes"`
	MeanDays    float64        `json:"meanDays"`
	// PlayerEveryMs and ScreenEveryMs are the mean intervals between the polls
	// of one phone and of the shared screen.
	PlayerEveryMs float64 `json:"playerPollEveryMs"`
	ScreenEveryMs float64 `json:"screenPollEveryMs"`
	Share304      float64 `json:"share304"`
	BytesPerPoll  float64 `json:"bytesPerPoll"`
	// Notice is, by what the player was asked, how long a change that asked a
	// player to act took to reach their phone (virtual time, exact).
	Notice      map[string]Summary `json:"notice"`
	Usage       Usage              `json:"usage"`
	Cost        Projection         `json:"cost"`
	Sensitivity []CostAt           `json:"costByPollInterval"`
	Targets     map[string]string  `json:"targets"`
}

// CostAt is the cost of a real game if every client polled every EveryMs.
type CostAt struct {
	EveryMs  float64 `json:"everyMs"`
	Requests float64 `json:"requests"`
	USD      float64 `json:"usd"`
	ViaCF    float64 `json:"viaCloudFrontUsd"`
	FnURL    float64 `json:"functionUrlUsd"`
}

// PlayRealGames plays perPreset real games of each preset (PlayReal), seeds
// from seed on, on every core, and reports them together.
func PlayRealGames(presets []string, perPreset int, seed uint64, h Human) (RealReport, error) {
	type job struct {
		preset string
		seed   uint64
	}
	var jobs []job
	for i := range perPreset {
		for k, p := range presets {
			jobs = append(jobs, job{p, seed + uint64(i*len(presets)+k)})
		}
	}
	games := make([]RealGame, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				games[i], errs[i] = PlayReal(jobs[i].preset, jobs[i].seed, h)
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
	r.Setup = fmt.Sprintf("%d games (%d of each of %s), 10 players and a shared screen each, app-moderated, the presets' own timers, seeds %d…",
		len(games), perPreset, strings.Join(presets, "/"), seed)
	return r, nil
}

// SummarizeReal reports games together.
func SummarizeReal(games []RealGame) RealReport {
	r := RealReport{Games: len(games), ByPreset: map[string]int{}, Winners: map[string]int{}, Notice: map[string]Summary{}, Targets: map[string]string{}}
	notice := map[string][]time.Duration{}
	var playerPolls, screenPolls int
	for _, g := range games {
		r.ByPreset[g.Preset]++
		r.Winners[g.Winner]++
		r.MeanMinutes += g.Minutes
		r.MeanDays += float64(g.Days)
		r.Usage.Add(g.Minutes, g.Kinds)
		playerPolls += g.PlayerPolls
		screenPolls += g.ScreenPolls
		for k, d := range g.Notice {
			notice[k] = append(notice[k], d...)
		}
	}
	if len(games) == 0 {
		return r
	}
	n := float64(len(games))
	r.MeanMinutes /= n
	r.MeanDays /= n
	ms := r.Usage.Minutes * 60_000
	if playerPolls > 0 {
		r.PlayerEveryMs = ms * RealPlayers / float64(playerPolls)
	}
	if screenPolls > 0 {
		r.ScreenEveryMs = ms * RealScreens / float64(screenPolls)
	}
	var all []time.Duration
	for k, d := range notice {
		all = append(all, d...)
		r.Notice[k] = Summarize(d)
	}
	r.Notice["all"] = Summarize(all)
	p304, p200 := r.Usage.Kinds[KindPoll304], r.Usage.Kinds[KindPoll200]
	if polls := p304.Requests + p200.Requests; polls > 0 {
		r.Share304 = float64(p304.Requests) / float64(polls)
		r.BytesPerPoll = float64(p304.Bytes+p200.Bytes) / float64(polls)
	}
	r.Cost = Project(r.Usage)
	for _, every := range []float64{1000, 2000, 3000, 5000, 8000} {
		p := ProjectEvery(r.Usage, every)
		r.Sensitivity = append(r.Sensitivity, CostAt{EveryMs: every, Requests: p.Requests, USD: p.Total, ViaCF: p.TotalViaCF, FnURL: p.TotalFunctionURL})
	}
	r.Targets["cost ≤ $0.006/game"] = verdict(r.Cost.Total <= TargetCostPerGame,
		fmt.Sprintf("$%.4f calling API Gateway directly", r.Cost.Total))
	for _, k := range []string{NoticeVote, NoticeNight, NoticeOther, NoticeSpeech} {
		if s, ok := r.Notice[k]; ok {
			r.Targets["asked to act ("+k+"): seen ≤ 1.2 s at p95"] = verdict(s.P95 <= float64(NoticeTarget.Milliseconds()),
				fmt.Sprintf("p50 %.0f ms, p95 %.0f ms, max %.0f ms (n %d)", s.P50, s.P95, s.Max, s.N))
		}
	}
	return r
}

// Text renders the report as plain text.
func (r RealReport) Text() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("REAL GAMES IN VIRTUAL TIME (people's pace, the server's poll hints)")
	w("  setup               %s", r.Setup)
	w("  games               %d, by preset %v, winners %v; mean %.1f minutes, %.1f days", r.Games, sortedMap(r.ByPreset), sortedMap(r.Winners), r.MeanMinutes, r.MeanDays)
	w("  poll interval       phones %.0f ms, shared screen %.0f ms on average; %.1f%% answered 304; %.0f bytes per poll",
		r.PlayerEveryMs, r.ScreenEveryMs, 100*r.Share304, r.BytesPerPoll)
	w("  change → seen by the player it asks to act (ms):")
	w("    %-10s %6s %8s %8s %8s %8s", "asked", "n", "p50", "p95", "p99", "max")
	for _, k := range append(NoticeKinds, "all") {
		if s, ok := r.Notice[k]; ok {
			w("    %-10s %6d %8.0f %8.0f %8.0f %8.0f", k, s.N, s.P50, s.P95, s.P99, s.Max)
		}
	}
	w("")
	c := r.Cost
	w("COST OF ONE REAL 10-PLAYER %.0f-MINUTE GAME (us-east-1 list prices)", RealGameMinutes)
	w("  requests            %.0f = %.0f polls (%.0f answered 304) + %.0f actions + %.0f joins/create", c.Requests, c.Polls, c.Polls304, c.Actions, c.Joins)
	w("  Lambda %.2f GB-s (%d MB, handler time + %.0f ms per DynamoDB call), DynamoDB %.0f RRU + %.0f WRU, %.2f MB out",
		c.LambdaGBs, LambdaMemoryMB, DynamoCallMs, c.ReadUnits, c.WriteUnits, c.BytesOut/1e6)
	for _, l := range c.Lines {
		note := ""
		if l.CFOnly {
			note = "  (only with /api/* through CloudFront)"
		}
		if l.Direct {
			note = "  (only without CloudFront)"
		}
		w("  %-36s %12.1f %-9s $%.5f%s", l.Item, l.Quantity, l.Unit, l.USD, note)
	}
	w("  TOTAL               $%.4f calling API Gateway directly; $%.4f with /api/* through CloudFront (target $%.3f)", c.Total, c.TotalViaCF, TargetCostPerGame)
	w("                      $%.4f if the same requests went to Lambda function URLs (no API Gateway)", c.TotalFunctionURL)
	w("  if every client polled every …   (API Gateway direct / via CloudFront / function URL)")
	for _, s := range r.Sensitivity {
		w("    %5.0f ms: %6.0f requests, $%.4f / $%.4f / $%.4f", s.EveryMs, s.Requests, s.USD, s.ViaCF, s.FnURL)
	}
	w("")
	w("TARGETS")
	keys := make([]string, 0, len(r.Targets))
	for k := range r.Targets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w("  %-44s %s", k, r.Targets[k])
	}
	w("")
	w("PRICES (one table: loadgen.Prices)")
	b.WriteString(PriceTable())
	return b.String()
}
