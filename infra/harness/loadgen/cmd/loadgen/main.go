// Command loadgen plays many City Sleeps games at once with bot players through
// the HTTP API, the way phones do, and prints what it measured: games finished,
// request rates and latencies, conflicts and retries, lost or doubled actions,
// 304s and bytes per poll, DynamoDB units and item sizes; then it plays real
// games at people's pace in virtual time (loadgen.PlayRealGames) and prints the
// estimated AWS cost of one 10-player 45-minute game as deployed, how soon
// every phone, screen and console shows what opens and what changes, and how
// much of the game the hand-overs take.
//
//	go run ./infra/harness/loadgen/cmd/loadgen -games 100                 # local server, bolt store
//	go run ./infra/harness/loadgen/cmd/loadgen -store dynamo -games 20    # DynamoDB store on dynalite
//	go run ./infra/harness/loadgen/cmd/loadgen -url http://127.0.0.1:8080 # a server already running
//	go run ./infra/harness/loadgen/cmd/loadgen -games 0 -svg docs/handover.svg # the hand-over chart only
//	go run ./infra/harness/loadgen/cmd/loadgen -games 0 -real 0 -evenings 1  # a club's evening: 40 phones, 4 tables, 3 rounds
//
// The server is started in this process on 127.0.0.1 (a free port), built as
// infra/server builds it, unless -url names one. Only loopback addresses are
// ever contacted. -json writes the full report as JSON as well. -svg plays
// real games at each hand-over length of -sweep as well and draws their cost
// and dead air as a chart (the README's). The report ends with one line that
// any script can read (loadgen.RealReport.TableLine), a game's cost
// pay-as-you-go, and one with the month's fixed part and the flat-rate plan
// (loadgen.RealReport.FixedLine):
//
//	table: handover_s=3 deadair_pct=7.1 step_p95_ms=350/350/350 public_p95_ms=1170/1160/2880 cost_deployed_usd=0.0220/0.0266
//	fixed: waf_usd_month=8 plan=free plan_usd_month=0 games_per_month_in_plan=73
//
// -evenings plays club evenings as well (loadgen.PlayEvenings), on a server
// of their own so that its meter times and bills the evenings alone, and
// prints their line for scripts before those two (loadgen.EveningReport.Line):
//
//	evening: players=40 tables=4 rounds=3 evenings=1 finished=1 lost=0 doubled=0 standings_match=true p50_ms=0.8 p99_ms=40.1 game_p99_ms=9.6 cost_deployed_usd=0.0200
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"citysleeps/infra/harness/loadgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		storeName = flag.String("store", loadgen.StoreBolt, "store of the in-process server: bolt, dynamo (dynalite on loopback; run from the repository, after npm ci) or memory")
		url       = flag.String("url", "", "use the server at this loopback URL instead of starting one")
		dir       = flag.String("dir", "", "directory for the bolt file (default: a temporary one)")
		games     = flag.Int("games", 100, "games played at once (0: no load run)")
		players   = flag.Int("players", 10, "players per game")
		presets   = flag.String("presets", strings.Join(loadgen.AllPresets, ","), "rule sets, given to the games in turn")
		moderator = flag.String("moderator", "app", "app or host")
		speed     = flag.Float64("speed", 1, "divide every client-side wait by this (1 = the server's real poll cadence)")
		burst     = flag.Bool("burst", true, "players of a game vote (and start the night) in the same instant")
		think     = flag.Duration("think", 300*time.Millisecond, "longest pause before an action (real cadence)")
		keepETag  = flag.Bool("keep-action-etag", false, "keep an action answer's ETag for the next poll (the frontend does not)")
		rate      = flag.Bool("rate-limit", true, "put the local server's per-client rate limit in front of the API (every bot has its own loopback address)")
		timeout   = flag.Duration("game-timeout", 10*time.Minute, "longest a game may take")
		seed      = flag.Uint64("seed", 1, "seed of the bots' choices")
		jsonOut   = flag.String("json", "", "also write the report as JSON to this file")
		quiet     = flag.Bool("q", false, "no progress lines")
		real      = flag.Int("real", 10, "real games per preset and way of moderating played in virtual time for the cost estimate (0: none)")
		svg       = flag.String("svg", "", "also play real games at each hand-over of -sweep and draw their cost and dead air to this SVG file")
		sweep     = flag.String("sweep", "0,1,2,3,4,5,6,8,10", "hand-over lengths in seconds for -svg")
		sweepN    = flag.Int("sweep-games", 3, "real games per preset and way of moderating at each hand-over of -sweep")
		evenings  = flag.Int("evenings", 0, "club evenings played at once, each on its own tables (0: none)")
		evPlayers = flag.Int("evening-players", 40, "phones at each evening")
		evTables  = flag.Int("evening-tables", 4, "tables of each evening")
		evRounds  = flag.Int("evening-rounds", 3, "rounds of each evening")
		evPreset  = flag.String("evening-preset", "sport", "rule set of the evenings")
	)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var out struct {
		Load    *loadgen.Report         `json:"load,omitempty"`
		Evening *loadgen.EveningReport  `json:"evening,omitempty"`
		Real    *loadgen.RealReport     `json:"realGames,omitempty"`
		Sweep   []loadgen.HandOverPoint `json:"handOverSweep,omitempty"`
	}
	var loadErr error
	if *games > 0 {
		cfg := loadgen.Config{
			Games: *games, Players: *players, Presets: strings.Split(*presets, ","),
			Moderator: *moderator, Speed: *speed, Burst: *burst, Think: *think, KeepActionETag: *keepETag,
			GameTimeout: *timeout, Seed: *seed,
		}
		rep, err := load(ctx, loadgen.TargetOptions{Store: *storeName, Dir: *dir, RateLimit: *rate}, *url, cfg, *quiet)
		if rep == nil {
			return err
		}
		out.Load, loadErr = rep, err
		fmt.Print(rep.Text())
	}
	var eveningErr error
	if *evenings > 0 {
		cfg := loadgen.EveningConfig{Evenings: *evenings, Players: *evPlayers, Tables: *evTables, Rounds: *evRounds,
			Bots: loadgen.Config{Presets: []string{*evPreset}, Moderator: *moderator, Speed: *speed, Burst: *burst, Think: *think,
				KeepActionETag: *keepETag, GameTimeout: *timeout, Seed: *seed}}
		rep, err := playEvenings(ctx, loadgen.TargetOptions{Store: *storeName, Dir: *dir, RateLimit: *rate, BillLogs: true}, *url, cfg, *quiet)
		if rep == nil {
			return err
		}
		out.Evening, eveningErr = rep, err
		fmt.Print("\n" + rep.Text())
	}
	if *svg != "" {
		lengths, err := seconds(*sweep)
		if err != nil {
			return fmt.Errorf("-sweep: %w", err)
		}
		points, err := loadgen.HandOverSweep(context.Background(), lengths, *sweepN, *seed, loadgen.People)
		if err != nil {
			return err
		}
		out.Sweep = points
		fmt.Printf("\nHAND-OVER SWEEP (%d real games at each length, drawn to %s)\n", 2*len(loadgen.AllPresets)**sweepN, *svg)
		for _, p := range points {
			fmt.Printf("  %2d s: %5.1f%% of play in hand-overs, $%.4f a game as deployed (app) / $%.4f (person)\n",
				p.HandOver, p.DeadAirPct, p.Cost["app"], p.Cost["host"])
		}
		if err := os.WriteFile(*svg, []byte(loadgen.HandOverSVG(points, loadgen.DefaultHandOver())), 0o644); err != nil {
			return err
		}
	}
	if *real > 0 {
		r, err := loadgen.PlayRealGames(context.Background(), loadgen.AllPresets, loadgen.Moderators, *real, *seed, loadgen.People, nil)
		if err != nil {
			return err
		}
		out.Real = &r
		fmt.Print("\n" + r.Text())
	}
	if out.Evening != nil && out.Real != nil {
		if m, ok := out.Real.Modes[*moderator]; ok {
			out.Evening.PeoplesPaceUSD = out.Evening.AtPeoplesPace(m.Cost.Total)
		}
	}
	if *jsonOut != "" {
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	if out.Evening != nil {
		fmt.Println("\n" + out.Evening.Line())
	}
	if out.Real != nil {
		fmt.Println("\n" + out.Real.TableLine())
		fmt.Println(out.Real.FixedLine())
	}
	return errors.Join(loadErr, eveningErr)
}

// seconds parses a comma-separated list of whole seconds.
func seconds(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// load plays the load run of cfg against the server at url, or one it starts
// in this process with opts, and returns its report, with an error when the
// run lost, doubled or rolled back actions or left games unfinished; a nil
// report is a run that could not be made.
func load(ctx context.Context, opts loadgen.TargetOptions, url string, cfg loadgen.Config, quiet bool) (*loadgen.Report, error) {
	var target *loadgen.Target
	cfg.URL = url
	if cfg.URL == "" {
		var err error
		target, err = loadgen.Start(ctx, opts)
		if err != nil {
			return nil, err
		}
		defer target.Close()
		cfg.URL, cfg.Meter = target.URL, target.Meter
	}
	start := time.Now()
	if !quiet {
		fmt.Fprintf(os.Stderr, "loadgen: %d games × %d players against %s\n", cfg.Games, cfg.Players, cfg.URL)
		cfg.Progress = func(done, total int, r loadgen.GameResult) {
			state := "over: " + r.Winner
			if !r.Finished {
				state = "NOT FINISHED " + strings.Join(r.Errors, "; ")
			}
			fmt.Fprintf(os.Stderr, "  [%6.1fs] %3d/%d game %s (%s) %s after %.1fs\n", time.Since(start).Seconds(), done, total, r.Code, r.Preset, state, r.Took.Seconds())
		}
	}
	res, err := loadgen.Run(ctx, cfg)
	if err != nil && res == nil {
		return nil, err
	}
	rep := loadgen.Build(res, target)
	switch {
	case rep.Check.Lost > 0 || rep.Check.Doubled > 0 || rep.Rollbacks > 0:
		err = fmt.Errorf("%d lost, %d doubled actions, %d rollbacks", rep.Check.Lost, rep.Check.Doubled, rep.Rollbacks)
	case rep.Finished < rep.Games:
		err = fmt.Errorf("only %d of %d games finished", rep.Finished, rep.Games)
	}
	return &rep, err
}

// playEvenings plays the evenings of cfg against the server at url, or one
// it starts in this process with opts (its own, so that its meter bills the
// evenings alone), and returns their report, with an error when an evening
// did not finish, lost, doubled or rolled back actions, or shows standings
// that are not its protocols'; a nil report is a run that could not be made.
func playEvenings(ctx context.Context, opts loadgen.TargetOptions, url string, cfg loadgen.EveningConfig, quiet bool) (*loadgen.EveningReport, error) {
	cfg.Bots.URL = url
	if url == "" {
		target, err := loadgen.Start(ctx, opts)
		if err != nil {
			return nil, err
		}
		defer target.Close()
		cfg.Bots.URL, cfg.Bots.Meter = target.URL, target.Meter
	}
	start := time.Now()
	if !quiet {
		fmt.Fprintf(os.Stderr, "loadgen: %d evenings × %d players at %d tables, %d rounds, against %s\n", cfg.Evenings, cfg.Players, cfg.Tables, cfg.Rounds, cfg.Bots.URL)
		cfg.Progress = func(evening, round int, games []loadgen.GameResult) {
			for _, r := range games {
				state := "over: " + r.Winner
				if !r.Finished {
					state = "NOT FINISHED " + strings.Join(r.Errors, "; ")
				}
				fmt.Fprintf(os.Stderr, "  [%6.1fs] evening %d round %d game %s %s after %.1fs\n", time.Since(start).Seconds(), evening+1, round+1, r.Code, state, r.Took.Seconds())
			}
		}
	}
	rep, err := loadgen.PlayEvenings(ctx, cfg)
	if err != nil && rep.Evenings == 0 {
		return nil, err
	}
	return &rep, errors.Join(err, rep.Failed())
}
