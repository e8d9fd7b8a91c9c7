package loadgen

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Report is everything a run measured, for people (Text) and for tools (JSON).
type Report struct {
	Target  string `json:"target"`
	Machine string `json:"machine"`
	Load    string `json:"loadAverage"` // before → after the run
	// Sched is how long runnable goroutines of this process waited for a CPU.
	Sched   Summary   `json:"schedulingLatency"`
	When    time.Time `json:"when"`
	Setup   string    `json:"setup"`
	Elapsed float64   `json:"elapsedSeconds"`

	Games         int                `json:"games"`
	Finished      int                `json:"finished"`
	ByPreset      map[string]int     `json:"finishedByPreset"`
	Winners       map[string]int     `json:"winners"`
	MeanDays      float64            `json:"meanDays"`
	MeanGameSec   float64            `json:"meanGameSeconds"`
	GameErrors    []string           `json:"gameErrors,omitempty"`
	Requests      map[string]int     `json:"requests"`        // by kind, all games
	PerGame       map[string]float64 `json:"requestsPerGame"` // by kind, per game
	ActionsPerSec float64            `json:"actionsPerSecond"`
	PollsPerSec   float64            `json:"pollsPerSecond"`
	ReqPerSec     float64            `json:"requestsPerSecond"`

	Latency map[string]Summary `json:"latency"` // action, poll, poll304, poll200, join, create
	// Server is the time the handler took, per kind of request (create, join,
	// poll304, poll200, action, other), without the client and the network.
	Server map[string]Summary `json:"serverTime,omitempty"`

	Statuses        map[string]int64 `json:"statuses"`
	Conflicts       int64            `json:"storeConflicts"`    // version conflicts in the store (retried by the service)
	StoreFailures   int64            `json:"storeFailures"`     // other store errors
	Answers409      int64            `json:"answers409"`        // refused: not possible now
	Answers503      int64            `json:"answers503"`        // busy or unavailable: retried by the bot
	Answers429      int64            `json:"answers429"`        // rate limited
	RetryAfter      int64            `json:"retryAfterHeaders"` // answers with a Retry-After
	ActionRetries   map[string]int64 `json:"actionRetries"`     // by reason
	TransportErrors map[string]int64 `json:"transportErrors"`   // by kind
	ServerLog       map[string]int64 `json:"serverWarnings"`    // warnings and errors the server logged
	NewConns        int64            `json:"newConnections"`    // requests that opened a connection
	Slow            map[string]int64 `json:"slowRequests"`      // over 100 ms, by kind and where the time went

	Sent, Acked, Refused, Unknown int
	Check                         Check `json:"check"`
	Rollbacks                     int   `json:"rollbacks"`

	Share304      float64          `json:"share304"`
	PollBytes     float64          `json:"bytesPerPoll"`     // headers and body
	PollBodyBytes float64          `json:"bodyBytesPerPoll"` // body only
	PlayerEvery   float64          `json:"playerPollEveryMs"`
	ScreenEvery   float64          `json:"screenPollEveryMs"`
	NoticeEarly   Summary          `json:"noticeEarly"`
	NoticeLate    Summary          `json:"noticeLate"`
	SlowNotice    map[string]int64 `json:"slowNoticeByStep,omitempty"`

	Kinds          map[string]PerRequest `json:"perRequest"`
	ReadUnitsGame  float64               `json:"readUnitsPerGame"`
	WriteUnitsGame float64               `json:"writeUnitsPerGame"`
	HookRead       float64               `json:"dynamoReportedReadUnitsPerGame,omitempty"`
	HookWrite      float64               `json:"dynamoReportedWriteUnitsPerGame,omitempty"`
	ItemMax        int                   `json:"itemBytesMax"`
	ItemEndMean    float64               `json:"itemBytesAtEndMean"`
	ItemEndMax     int                   `json:"itemBytesAtEndMax"`

	Targets map[string]string `json:"targets"`
}

// Machine describes this computer for a report: CPU model, cores, OS.
func Machine() string {
	model := ""
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if model == "" {
		model = runtime.GOARCH
	}
	return fmt.Sprintf("%s, %d cores (GOMAXPROCS %d), %s/%s, %s", model, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// Build makes the report of a run against target t (t may be nil for a server
// this process did not start: then the store figures are missing).
func Build(res *Result, t *Target) Report {
	cfg := res.Config
	m := res.Metrics
	r := Report{
		Machine: Machine(), When: time.Now().UTC().Truncate(time.Second),
		Setup: fmt.Sprintf("%d games × %d players (+1 shared screen each), presets %s, moderator %s, speed ×%g, burst %v, timers %v, think <%v",
			cfg.Games, cfg.Players, strings.Join(cfg.Presets, "/"), cfg.Moderator, cfg.Speed, cfg.Burst, cfg.Timers, cfg.Think),
		Elapsed:  res.Elapsed.Seconds(),
		Load:     res.LoadBefore + " → " + res.LoadAfter,
		Sched:    res.Sched,
		Games:    len(res.Games),
		ByPreset: map[string]int{}, Winners: map[string]int{}, Requests: map[string]int{}, PerGame: map[string]float64{},
		Latency: map[string]Summary{},
		Targets: map[string]string{},
	}
	if t != nil {
		r.Target = t.Name + " at " + t.URL
	} else {
		r.Target = cfg.URL
	}
	var days, secs float64
	polls304 := 0
	for _, g := range res.Games {
		for k, n := range g.Requests {
			r.Requests[k] += n
		}
		polls304 += g.Polls304
		r.Sent += g.Sent
		r.Acked += g.Acked
		r.Refused += g.Refused
		r.Unknown += g.Unknown
		r.Check.Add(g.Check)
		r.Rollbacks += g.Rollbacks
		for _, e := range g.Errors {
			if len(r.GameErrors) < 20 {
				r.GameErrors = append(r.GameErrors, fmt.Sprintf("game %d (%s %s): %s", g.Index, g.Preset, g.Code, e))
			}
		}
		if !g.Finished {
			continue
		}
		r.Finished++
		r.ByPreset[g.Preset]++
		r.Winners[g.Winner]++
		days += float64(g.Days)
		secs += g.Took.Seconds()
	}
	if len(r.Check.Problems) > 20 {
		r.Check.Problems = r.Check.Problems[:20]
	}
	if r.Finished > 0 {
		r.MeanDays, r.MeanGameSec = days/float64(r.Finished), secs/float64(r.Finished)
	}
	n := float64(max(1, len(res.Games)))
	for k, v := range r.Requests {
		r.PerGame[k] = float64(v) / n
	}
	total := 0
	for _, v := range r.Requests {
		total += v
	}
	r.PerGame["total"] = float64(total) / n
	el := max(res.Elapsed.Seconds(), 1e-9)
	r.ActionsPerSec = float64(r.Requests["action"]) / el
	r.PollsPerSec = float64(r.Requests["poll"]) / el
	r.ReqPerSec = float64(total) / el
	if p := r.Requests["poll"]; p > 0 {
		r.Share304 = float64(polls304) / float64(p)
	}
	for name, l := range map[string]*Latencies{"action": &m.Action, "poll": &m.Poll, "poll304": &m.Poll304,
		"poll200": &m.Poll200, "join": &m.Join, "create": &m.Create, "final": &m.Final} {
		r.Latency[name] = l.Summary()
	}
	r.Statuses = m.Statuses.Map()
	for k, v := range r.Statuses {
		switch {
		case strings.Contains(k, " 409"):
			r.Answers409 += v
		case strings.Contains(k, " 503"):
			r.Answers503 += v
		case strings.Contains(k, " 429"):
			r.Answers429 += v
		}
	}
	r.RetryAfter = m.RetryAfter.Load()
	r.ActionRetries = m.ActionRetries.Map()
	r.TransportErrors = m.TransportErrors.Map()
	r.NewConns = m.NewConns.Load()
	r.Slow = m.Slow.Map()
	r.PollBytes, _, _ = m.PollBytes.Value()
	r.PollBodyBytes, _, _ = m.PollBodyBytes.Value()
	r.PlayerEvery, _, _ = m.PlayerEvery.Value()
	r.ScreenEvery, _, _ = m.ScreenEvery.Value()
	r.NoticeEarly, r.NoticeLate = m.NoticeEarly.Summary(), m.NoticeLate.Summary()
	r.SlowNotice = m.SlowNotice.Map()

	r.Kinds = map[string]PerRequest{}
	if t != nil {
		r.ServerLog = t.Logged.Map()
		r.Server = t.Meter.ServerTimes()
		r.Conflicts, r.StoreFailures = t.Meter.Conflicts()
		var rru, wru float64
		for k, c := range t.Meter.Kinds() {
			rru += c.ReadUnits
			wru += c.WriteUnits
			if c.Requests == 0 {
				continue
			}
			q := float64(c.Requests)
			r.Kinds[k] = PerRequest{HandlerMs: float64(c.HandlerNs) / q / 1e6, StoreCalls: float64(c.StoreCalls) / q,
				ReadUnits: c.ReadUnits / q, WriteUnits: c.WriteUnits / q, Bytes: float64(c.Bytes) / q}
		}
		r.ReadUnitsGame, r.WriteUnitsGame = rru/n, wru/n
		if hr, hw, calls := t.Meter.HookUnits(); calls > 0 {
			r.HookRead, r.HookWrite = hr/n, hw/n
		}
		var ends []int
		for _, g := range res.Games {
			if g.Code != "" {
				last, _ := t.Meter.ItemSize(g.Code)
				ends = append(ends, last)
			}
		}
		_, r.ItemMax = t.Meter.ItemSize("")
		if len(ends) > 0 {
			sum := 0
			for _, e := range ends {
				sum += e
			}
			r.ItemEndMean, r.ItemEndMax = float64(sum)/float64(len(ends)), slices.Max(ends)
		}
	}

	r.Targets["lost/doubled = 0"] = verdict(r.Check.Lost == 0 && r.Check.Doubled == 0 && r.Rollbacks == 0,
		fmt.Sprintf("%d lost, %d doubled, %d rollbacks", r.Check.Lost, r.Check.Doubled, r.Rollbacks))
	r.Targets["answers true"] = verdict(r.Check.Misreported == 0,
		fmt.Sprintf("%d actions applied although a retry was told they were refused", r.Check.Misreported))
	r.Targets["games finished"] = verdict(r.Finished == r.Games, fmt.Sprintf("%d of %d", r.Finished, r.Games))
	// The server's own time is what the targets are about: the bots share the
	// machine's cores with the server, which real phones do not, so the time
	// they see adds their own scheduling. Both are shown; without a meter (a
	// server this process did not start) only the bots' can be judged.
	latencyTarget := func(kinds []string, client Summary, limit float64) string {
		server := 0.0
		for _, k := range kinds {
			server = max(server, r.Server[k].P99)
		}
		if len(r.Server) == 0 {
			return verdict(client.P99 < limit, fmt.Sprintf("%.1f ms at the bots", client.P99))
		}
		return verdict(server < limit, fmt.Sprintf("%.1f ms in the server (%.1f ms at the bots, which share its cores)", server, client.P99))
	}
	r.Targets["p99 action < 50 ms"] = latencyTarget([]string{KindAction}, r.Latency["action"], 50)
	r.Targets["p99 poll < 10 ms"] = latencyTarget([]string{KindPoll304, KindPoll200}, r.Latency["poll"], 10)
	return r
}

// PerRequest are the measured means for one kind of request.
type PerRequest struct {
	HandlerMs  float64 `json:"handlerMs"`  // server time in the handler, without the store's
	StoreCalls float64 `json:"storeCalls"` // store calls made
	ReadUnits  float64 `json:"readUnits"`  // DynamoDB RRU
	WriteUnits float64 `json:"writeUnits"` // DynamoDB WRU
	Bytes      float64 `json:"bytes"`      // response bytes, headers included
}

// verdict says whether a target is met, and by what figure.
func verdict(ok bool, s string) string {
	if ok {
		return "met: " + s
	}
	return "MISSED: " + s
}

// Text renders the report as a plain-text table.
func (r Report) Text() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("City Sleeps load report — %s", r.When.Format(time.RFC3339))
	w("target:   %s", r.Target)
	w("machine:  %s; load average %s (1/5/15 min, before → after)", r.Machine, r.Load)
	w("setup:    %s", r.Setup)
	w("elapsed:  %.1f s", r.Elapsed)
	if r.Sched.N > 0 {
		w("waiting for a CPU (this process's goroutines, runnable → running): p50 %.3f ms, p99 %.1f ms, max %.0f ms",
			r.Sched.P50, r.Sched.P99, r.Sched.Max)
	}
	w("")
	w("GAMES")
	w("  finished            %d of %d   by preset %v   winners %v", r.Finished, r.Games, sortedMap(r.ByPreset), sortedMap(r.Winners))
	w("  mean game           %.1f days, %.1f s wall", r.MeanDays, r.MeanGameSec)
	w("  requests per game   %s", sortedFloat(r.PerGame))
	w("  rates               %.1f actions/s, %.1f polls/s, %.1f requests/s", r.ActionsPerSec, r.PollsPerSec, r.ReqPerSec)
	w("")
	w("LATENCY (ms)          n        mean     p50      p95      p99      max")
	for _, k := range []string{"action", "poll", "poll304", "poll200", "join", "create", "final"} {
		s := r.Latency[k]
		w("  %-16s %8d %8.2f %8.2f %8.2f %8.2f %8.2f", k, s.N, s.Mean, s.P50, s.P95, s.P99, s.Max)
	}
	if len(r.Server) > 0 {
		w("  in the server (handler and store, without the network and the client):")
		for _, k := range []string{KindAction, KindPoll304, KindPoll200, KindJoin, KindCreate, KindOther} {
			if s, ok := r.Server[k]; ok {
				w("  %-16s %8d %8.2f %8.2f %8.2f %8.2f %8.2f", k, s.N, s.Mean, s.P50, s.P95, s.P99, s.Max)
			}
		}
	}
	w("")
	w("CONTENTION AND ERRORS")
	w("  store version conflicts (retried inside the service)  %d", r.Conflicts)
	w("  other store failures                                  %d", r.StoreFailures)
	w("  answers 409 / 503 / 429                               %d / %d / %d", r.Answers409, r.Answers503, r.Answers429)
	w("  answers with Retry-After                              %d", r.RetryAfter)
	w("  actions re-sent with the same id                      %v", sortedMap64(r.ActionRetries))
	w("  requests without an answer                            %v", sortedMap64(r.TransportErrors))
	w("  statuses                                              %v", sortedMap64(r.Statuses))
	w("  new connections                                       %d", r.NewConns)
	if len(r.Slow) > 0 {
		w("  requests over 100 ms, by where the time went          %v", sortedMap64(r.Slow))
	}
	if len(r.ServerLog) > 0 {
		w("  server warnings                                       %v", sortedMap64(r.ServerLog))
	}
	w("")
	w("INTEGRITY (every acknowledged action against the final event log)")
	w("  actions sent %d: acknowledged %d, refused %d, no final answer %d", r.Sent, r.Acked, r.Refused, r.Unknown)
	w("  proven by an event %d; of types without an event %d (watched in the views)", r.Check.Checked, r.Check.NoEvent)
	w("  LOST %d   DOUBLED %d   ROLLBACKS %d   APPLIED-BUT-REFUSED %d   (applied without acknowledgement: %d)",
		r.Check.Lost, r.Check.Doubled, r.Rollbacks, r.Check.Misreported, r.Check.Unacked)
	for _, p := range r.Check.Problems {
		w("    %s", p)
	}
	for _, e := range r.GameErrors {
		w("  error: %s", e)
	}
	w("")
	w("POLLING")
	w("  answered 304        %.1f%%", 100*r.Share304)
	w("  bytes per poll      %.0f (body %.0f)", r.PollBytes, r.PollBodyBytes)
	w("  poll interval       phones %.0f ms, shared screen %.0f ms (the server's pollAfterMs, real cadence)", r.PlayerEvery, r.ScreenEvery)
	if r.NoticeLate.N > 0 {
		w("  change → seen by a player who must act (real cadence): p50 %.0f–%.0f ms, p95 %.0f–%.0f ms, p99 %.0f–%.0f ms (n %d)",
			r.NoticeEarly.P50, r.NoticeLate.P50, r.NoticeEarly.P95, r.NoticeLate.P95, r.NoticeEarly.P99, r.NoticeLate.P99, r.NoticeLate.N)
		if len(r.SlowNotice) > 0 {
			w("  seen after more than 2 s, by step: %v", sortedMap64(r.SlowNotice))
		}
	}
	w("")
	w("STORE (DynamoDB units as billed for the item sizes seen)")
	w("  per request         handler ms  store calls  RRU      WRU      bytes out")
	for _, k := range []string{KindPoll304, KindPoll200, KindAction, KindJoin, KindCreate, KindOther} {
		if c, ok := r.Kinds[k]; ok {
			w("  %-18s %10.3f %12.2f %8.3f %8.3f %9.0f", k, c.HandlerMs, c.StoreCalls, c.ReadUnits, c.WriteUnits, c.Bytes)
		}
	}
	w("  per game (this run) %.1f RRU, %.1f WRU", r.ReadUnitsGame, r.WriteUnitsGame)
	if r.HookRead+r.HookWrite > 0 {
		w("  as DynamoDB (dynalite) reported them: %.1f RRU, %.1f WRU per game", r.HookRead, r.HookWrite)
	}
	w("  item size           max %d B; at game end mean %.0f B, max %d B", r.ItemMax, r.ItemEndMean, r.ItemEndMax)
	w("")
	writeTargets(w, 22, r.Targets)
	return b.String()
}

func sortedMap(m map[string]int) string { return "{" + sortedPairs(m, "%s:%d", " ") + "}" }

func sortedMap64(m map[string]int64) string { return "{" + sortedPairs(m, "%s:%d", ", ") + "}" }

func sortedFloat(m map[string]float64) string { return sortedPairs(m, "%s %.1f", ", ") }

// sortedPairs formats m's entries in key order, each with format (key, value),
// joined by sep.
func sortedPairs[V any](m map[string]V, format, sep string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(format, k, m[k])
	}
	return strings.Join(parts, sep)
}

// writeTargets lists a report's targets by name, each with its verdict, the
// names padded to width.
func writeTargets(w func(string, ...any), width int, targets map[string]string) {
	w("TARGETS")
	for _, k := range slices.Sorted(maps.Keys(targets)) {
		w("  %-*s %s", width, k, targets[k])
	}
}
