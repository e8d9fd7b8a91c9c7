package loadgen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"citysleeps/shared/rules"
)

// DefaultTimers are the short custom timers (seconds) the load run's games
// use, so that a game whose bots act at once never waits long on a deadline
// they missed, and no hand-over: each tap moves the game at once, so bots that
// act in an instant put the most writes on the server (the hand-over is
// measured by the real games, PlayReal).
var DefaultTimers = map[string]int{"speech": 15, "defence": 15, "lastWord": 15, "intro": 15, "night": 20, "vote": 15, "handOver": 0}

// AllPresets are the rule sets the bench plays, one game after another in turn.
var AllPresets = []string{rules.PresetSport, rules.PresetClassic, rules.PresetParty, rules.PresetManiac}

// Config says what Run simulates.
type Config struct {
	// URL is the server (loopback only).
	URL string
	// Games is how many games run at once; Players the players of each.
	Games, Players int
	// Presets are the rule sets, given to the games in turn.
	Presets []string
	// Moderator is "app" (default) or "host".
	Moderator string
	// Timers are option overrides sent at create (DefaultTimers if nil).
	Timers map[string]int
	// Speed divides the bots' own waits (think time, join window, retry
	// backoff) to run games faster; 1 is the real cadence. Server timers and
	// the server's poll hints are not scaled.
	Speed float64
	// Burst holds the players of a game who are about to vote (or do their first
	// night task) until all have seen the phase, then lets them act in the same
	// instant, at most MaxHold (real cadence) after the first is ready.
	Burst   bool
	MaxHold time.Duration
	// Think is the longest a player waits before an action that is not held
	// (real cadence); each wait is uniform in [0, Think).
	Think time.Duration
	// JoinWindow spreads the players' joins (real cadence).
	JoinWindow time.Duration
	// StuckAfter is how long (wall time) the host waits on an unchanged game
	// before sending "advance".
	StuckAfter time.Duration
	// GameTimeout bounds each game (wall time).
	GameTimeout time.Duration
	// ActionTries bounds how many times one action is sent (same id) while the
	// answers are 5xx, 429 or none.
	ActionTries int
	// KeepActionETag keeps the ETag of an action's answer for the next poll;
	// the frontend drops it (its next poll is a full read), and so does the
	// bench by default.
	KeepActionETag bool
	// Seed makes the bots' choices repeatable (their timing is not).
	Seed uint64
	// FirstSource offsets the bots' source addresses (see SourceAddr), so that
	// several runs at once do not share them.
	FirstSource int
	// Meter, if set, is the target's meter, for how fast changes reach players.
	Meter *Meter
	// Metrics receives what the clients see; nil makes a new one.
	Metrics *Metrics
	// OnBurst, if set, is called (in a goroutine of its own) each time the
	// players of a game are let go to act in the same instant: fault tests kill
	// the server then, when the most writes are in flight.
	OnBurst func(game int)
	// Progress, if set, is called after each game ends.
	Progress func(done, total int, r GameResult)
}

func (c *Config) defaults() {
	if c.Players == 0 {
		c.Players = 10
	}
	if c.Games == 0 {
		c.Games = 1
	}
	if len(c.Presets) == 0 {
		c.Presets = AllPresets
	}
	if c.Moderator == "" {
		c.Moderator = rules.ModeratorApp
	}
	if c.Timers == nil {
		c.Timers = DefaultTimers
	}
	if c.Speed <= 0 {
		c.Speed = 1
	}
	if c.MaxHold == 0 {
		c.MaxHold = 3 * time.Second
	}
	if c.JoinWindow == 0 {
		c.JoinWindow = 5 * time.Second
	}
	if c.StuckAfter == 0 {
		c.StuckAfter = 45 * time.Second
	}
	if c.GameTimeout == 0 {
		c.GameTimeout = 10 * time.Minute
	}
	if c.ActionTries == 0 {
		c.ActionTries = 12
	}
	if c.Metrics == nil {
		c.Metrics = &Metrics{}
	}
}

// Result is what Run did.
type Result struct {
	Config  Config
	Games   []GameResult
	Elapsed time.Duration
	Metrics *Metrics
	// LoadBefore and LoadAfter are the machine's load averages (/proc/loadavg)
	// when the run began and ended: other work on the machine shows there.
	LoadBefore, LoadAfter string
	// Sched is how long this process's goroutines (clients and the in-process
	// server alike) waited for a CPU once runnable, during the run (from the Go
	// runtime's /sched/latencies:seconds): when it is large, the latencies
	// measured are the machine's, not the server's.
	Sched Summary
}

// schedHistogram reads the Go runtime's scheduling latency histogram.
func schedHistogram() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// schedSummary summarises the goroutines' waits between two readings of the
// histogram: percentiles at the bucket's upper bound, in milliseconds.
func schedSummary(before, after *metrics.Float64Histogram) Summary {
	if before == nil || after == nil || len(before.Counts) != len(after.Counts) {
		return Summary{}
	}
	counts := make([]uint64, len(after.Counts))
	var total uint64
	for i := range counts {
		counts[i] = after.Counts[i] - before.Counts[i]
		total += counts[i]
	}
	if total == 0 {
		return Summary{}
	}
	upper := func(i int) float64 {
		b := after.Buckets[i+1]
		if math.IsInf(b, 1) {
			b = after.Buckets[i]
		}
		return b * 1000
	}
	at := func(p float64) float64 {
		rank := uint64(math.Ceil(p / 100 * float64(total)))
		var cum uint64
		for i, c := range counts {
			cum += c
			if cum >= rank {
				return upper(i)
			}
		}
		return upper(len(counts) - 1)
	}
	s := Summary{N: int(total), P50: at(50), P95: at(95), P99: at(99)}
	for i := len(counts) - 1; i >= 0; i-- {
		if counts[i] > 0 {
			s.Max = upper(i)
			break
		}
	}
	return s
}

// loadAverage returns the first three fields of /proc/loadavg, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// Run plays cfg.Games games at once against cfg.URL and returns when all have
// ended (or ctx is done). Each game is bounded by cfg.GameTimeout.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cfg.defaults()
	if err := CheckLoopback(cfg.URL); err != nil {
		return nil, err
	}
	for _, p := range cfg.Presets {
		if _, err := rules.Preset(p); err != nil {
			return nil, fmt.Errorf("loadgen: %w", err)
		}
	}
	if cfg.Speed > 50 {
		return nil, errors.New("loadgen: a speed-up over 50 leaves the server no time to answer")
	}
	res := &Result{Config: cfg, Games: make([]GameResult, cfg.Games), Metrics: cfg.Metrics, LoadBefore: loadAverage()}
	sched := schedHistogram()
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i := range cfg.Games {
		g := &game{cfg: &cfg, index: i, preset: cfg.Presets[i%len(cfg.Presets)],
			over: make(chan struct{}), gates: map[string]*gate{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := g.run(ctx, cfg.FirstSource+i*(cfg.Players+1))
			mu.Lock()
			res.Games[i] = r
			done++
			n := done
			mu.Unlock()
			if cfg.Progress != nil {
				cfg.Progress(n, cfg.Games, r)
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.LoadAfter = loadAverage()
	res.Sched = schedSummary(sched, schedHistogram())
	return res, ctx.Err()
}
