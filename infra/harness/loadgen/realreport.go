package loadgen

import (
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
	// OpenTarget: a step the server opens shows on every phone and screen
	// within a second (p95).
	OpenTarget = time.Second
	// PublicTarget: any change of what everyone may see (a nomination, a vote,
	// a pause) shows on the shared screen within 2.5 s (p95).
	PublicTarget = 2500 * time.Millisecond
)

// Moderators are both ways a game is moderated, in report order.
var Moderators = []string{rules.ModeratorApp, rules.ModeratorHost}

// RealReport is what PlayRealGames measured: what one real game costs and how
// soon every client shows what the server opened.
type RealReport struct {
	Setup    string                 `json:"setup"`
	Games    int                    `json:"games"`
	ByPreset map[string]int         `json:"byPreset"`
	Winners  map[string]int         `json:"winners"`
	Modes    map[string]*ModeReport `json:"byModerator"`
	Targets  map[string]string      `json:"targets"`
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
	// Public is how long a change of the public view took to show on the
	// shared screen.
	Public      Summary    `json:"public"`
	Usage       Usage      `json:"usage"`
	Cost        Projection `json:"cost"`
	Sensitivity []CostAt   `json:"costByPollInterval"`
}

// CostAt is the cost of a real game if every client polled every EveryMs.
type CostAt struct {
	EveryMs  float64 `json:"everyMs"`
	Requests float64 `json:"requests"`
	USD      float64 `json:"usd"`
	ViaCF    float64 `json:"viaCloudFrontUsd"`
	FnURL    float64 `json:"functionUrlUsd"`
}

// PlayRealGames plays perPreset real games of each preset under each way of
// moderating in moderators (PlayReal), seeds from seed on, on every core, and
// reports them together.
func PlayRealGames(presets, moderators []string, perPreset int, seed uint64, h Human) (RealReport, error) {
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
				games[i], errs[i] = PlayReal(jobs[i].preset, jobs[i].moderator, jobs[i].seed, h)
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
	r.Setup = fmt.Sprintf("%d games (%d of each of %s, moderated by %s), 10 players and a shared screen each (and a console when a person moderates), the presets' own timers, %v from a server read to the page, seeds %d…",
		len(games), perPreset, strings.Join(presets, "/"), strings.Join(moderators, " and "), Latency, seed)
	return r, nil
}

// SummarizeReal reports games together, by way of moderating.
func SummarizeReal(games []RealGame) RealReport {
	r := RealReport{ByPreset: map[string]int{}, Winners: map[string]int{}, Modes: map[string]*ModeReport{}, Targets: map[string]string{}}
	byMode := map[string][]RealGame{}
	for _, g := range games {
		r.Games++
		r.ByPreset[g.Preset]++
		r.Winners[g.Winner]++
		byMode[g.Moderator] = append(byMode[g.Moderator], g)
	}
	for mode, gs := range byMode {
		m := summarizeMode(gs)
		r.Modes[mode] = m
		r.Targets["cost ≤ $0.008/game, "+mode] = verdict(m.Cost.Total <= TargetCostPerGame,
			fmt.Sprintf("$%.4f calling API Gateway directly", m.Cost.Total))
		for _, k := range ClientKinds {
			if s, ok := m.Opened[k]; ok {
				r.Targets["step opened → shown, "+k+", "+mode] = verdict(s.P95 <= ms(OpenTarget),
					fmt.Sprintf("p95 %.0f ms ≤ %.0f (p50 %.0f, max %.0f, n %d)", s.P95, ms(OpenTarget), s.P50, s.Max, s.N))
			}
		}
		r.Targets["public change → screen, "+mode] = verdict(m.Public.P95 <= ms(PublicTarget),
			fmt.Sprintf("p95 %.0f ms ≤ %.0f (p50 %.0f, max %.0f, n %d)", m.Public.P95, ms(PublicTarget), m.Public.P50, m.Public.Max, m.Public.N))
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func summarizeMode(games []RealGame) *ModeReport {
	m := &ModeReport{Opened: map[string]Summary{}}
	opened := map[string][]time.Duration{}
	var public []time.Duration
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
		for k, d := range g.Opened {
			opened[k] = append(opened[k], d...)
		}
		public = append(public, g.Public...)
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
	var all []time.Duration
	for k, d := range opened {
		all = append(all, d...)
		m.Opened[k] = Summarize(d)
	}
	m.Opened["all"] = Summarize(all)
	m.Public = Summarize(public)
	p304, p200 := m.Usage.Kinds[KindPoll304], m.Usage.Kinds[KindPoll200]
	if polls := p304.Requests + p200.Requests; polls > 0 {
		m.Share304 = float64(p304.Requests) / float64(polls)
		m.BytesPerPoll = float64(p304.Bytes+p200.Bytes) / float64(polls)
	}
	m.Cost = Project(m.Usage)
	for _, every := range []float64{1000, 2000, 3000, 5000, 8000} {
		p := ProjectEvery(m.Usage, every)
		m.Sensitivity = append(m.Sensitivity, CostAt{EveryMs: every, Requests: p.Requests, USD: p.Total, ViaCF: p.TotalViaCF, FnURL: p.TotalFunctionURL})
	}
	return m
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
		w("MODERATED BY: %s (%d games, mean %.1f minutes, %.1f days)", mode, m.Games, m.MeanMinutes, m.MeanDays)
		w("  poll interval       phones %.0f ms, screens %.0f ms on average (%d screens); %.1f%% answered 304; %.0f bytes per poll",
			m.PhoneEveryMs, m.ScreenEveryMs, m.Screens, 100*m.Share304, m.BytesPerPoll)
		w("  busiest %v        %d API requests from one table (its phones and screens: one home's address)", PeakWindow, m.Busiest)
		w("  step opened by the server → shown on each client (ms):")
		w("    %-10s %6s %8s %8s %8s %8s", "client", "n", "p50", "p95", "p99", "max")
		for _, k := range append(slices.Clone(ClientKinds), "all") {
			if s, ok := m.Opened[k]; ok {
				w("    %-10s %6d %8.0f %8.0f %8.0f %8.0f", k, s.N, s.P50, s.P95, s.P99, s.Max)
			}
		}
		s := m.Public
		w("  public change → shown on the shared screen (ms): n %d, p50 %.0f, p95 %.0f, p99 %.0f, max %.0f", s.N, s.P50, s.P95, s.P99, s.Max)
		c := m.Cost
		w("  COST OF ONE REAL 10-PLAYER %.0f-MINUTE GAME (us-east-1 list prices)", RealGameMinutes)
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
		for _, s := range m.Sensitivity {
			w("    %5.0f ms: %6.0f requests, $%.4f / $%.4f / $%.4f", s.EveryMs, s.Requests, s.USD, s.ViaCF, s.FnURL)
		}
	}
	w("")
	writeTargets(w, 44, r.Targets)
	w("")
	w("PRICES (one table: loadgen.Prices)")
	b.WriteString(PriceTable())
	return b.String()
}
