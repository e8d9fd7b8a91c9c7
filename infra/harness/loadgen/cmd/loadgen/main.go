// Command loadgen plays many City Sleeps games at once with bot players through
// the HTTP API, the way phones do, and prints what it measured: games finished,
// request rates and latencies, conflicts and retries, lost or doubled actions,
// 304s and bytes per poll, DynamoDB units and item sizes; then it plays real
// games at people's pace in virtual time (loadgen.PlayRealGames) and prints the
// estimated AWS cost of one 10-player 45-minute game and how soon a player asked
// to act sees it.
//
//	go run ./infra/harness/loadgen/cmd/loadgen -games 100                 # local server, bolt store
//	go run ./infra/harness/loadgen/cmd/loadgen -store dynamo -games 20    # DynamoDB store on dynalite
//	go run ./infra/harness/loadgen/cmd/loadgen -url http://127.0.0.1:8080 # a server already running
//
// The server is started in this process on 127.0.0.1 (a free port), built as
// infra/server builds it, unless -url names one. Only loopback addresses are
// ever contacted. -json writes the full report as JSON as well.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
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
		games     = flag.Int("games", 100, "games played at once")
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
		real      = flag.Int("real", 5, "real games per preset played in virtual time for the cost estimate (0: none)")
	)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var target *loadgen.Target
	base := *url
	if base == "" {
		var err error
		target, err = loadgen.Start(ctx, loadgen.TargetOptions{Store: *storeName, Dir: *dir, RateLimit: *rate})
		if err != nil {
			return err
		}
		defer target.Close()
		base = target.URL
	}
	cfg := loadgen.Config{
		URL: base, Games: *games, Players: *players, Presets: strings.Split(*presets, ","),
		Moderator: *moderator, Speed: *speed, Burst: *burst, Think: *think, KeepActionETag: *keepETag,
		GameTimeout: *timeout, Seed: *seed,
	}
	if target != nil {
		cfg.Meter = target.Meter
	}
	start := time.Now()
	if !*quiet {
		fmt.Fprintf(os.Stderr, "loadgen: %d games × %d players against %s\n", *games, *players, base)
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
		return err
	}
	rep := loadgen.Build(res, target)
	fmt.Print(rep.Text())
	var realRep *loadgen.RealReport
	if *real > 0 {
		r, err := loadgen.PlayRealGames(loadgen.AllPresets, loadgen.Moderators, *real, *seed, loadgen.People)
		if err != nil {
			return err
		}
		realRep = &r
		fmt.Print("\n" + r.Text())
	}
	if *jsonOut != "" {
		data, err := json.MarshalIndent(struct {
			Load loadgen.Report      `json:"load"`
			Real *loadgen.RealReport `json:"realGames,omitempty"`
		}{rep, realRep}, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	if rep.Check.Lost > 0 || rep.Check.Doubled > 0 || rep.Rollbacks > 0 {
		return fmt.Errorf("%d lost, %d doubled actions, %d rollbacks", rep.Check.Lost, rep.Check.Doubled, rep.Rollbacks)
	}
	if rep.Finished < rep.Games {
		return fmt.Errorf("only %d of %d games finished", rep.Finished, rep.Games)
	}
	return err
}
