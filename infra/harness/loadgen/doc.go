// Package loadgen plays many City Sleeps games at once with bot players through
// the HTTP API, exactly as the frontend does, and measures what that costs:
// speed, contention, integrity and the AWS bill of a real game.
//
// # The bots
//
// Each game has a host (the shared screen: it creates the game, waits for the
// table, starts it, and sends "advance" only if a step stands still for a long
// time) and ten players, each a client of its own with its own loopback source
// address (all of 127.0.0.0/8 is loopback), as every phone has its own. Every
// client is a bot.Device on the wall clock, the same loop the real games run
// on a virtual one: it polls GET /api/games/{code} with If-None-Match, waiting
// the pollAfterMs the server last gave it (the frontend's Poller: the hint is
// kept across 304s, an action's answer replaces the view and drops the ETag,
// failures back off 1 s, 2 s, 4 s… with jitter), and acts when its view offers
// an action, as bot.Choose decides for every bot of the project: the black
// team agree on one victim, speakers sometimes nominate and end their speech
// at once, everyone votes. When a vote opens (or a night begins) the players of
// a game are held until all have seen it and then act in the same instant, as
// a table does (the players' bot.Pace). Every action has a client-made id; an
// action answered 5xx, 429 or not at all is sent again with the same id (the
// device's bot.Conn).
//
// At the end each client reads the game-over view, whose event log is complete,
// and checks that every action the API acknowledged is there exactly once
// (Verify). Actions that leave no event (sleep, end_speech, advance) are
// watched in the views instead: a later view of the same phase instance that
// shows an acknowledged effect undone, or a version older than one already
// seen, is a rollback.
//
// # Time
//
// Config.Speed divides every client-side wait of the bots' own (think time,
// joins, backoff); server timers are real, and so are the server's poll
// hints, which the bots follow as a page does. Games use short custom timers
// (DefaultTimers), and bots act at once: the load run measures the server, not
// what a game costs.
//
// # Real games
//
// The bill is worked out from real games instead: PlayReal plays one in virtual
// time, through the real handler and service on the memory store, with the
// presets' own timers and people's pace (Human: speeches that use most of their
// minute, votes a few seconds after the vote opens, night tasks in ten), every
// phone and the shared screen a bot.Device polling at the server's hints as
// the frontend does, and gzip accepted as browsers accept it. The devices take
// turns on a virtual clock, one at a time in the order of virtual time, so a
// seed replays a game and one of half an hour takes a second. The Meter counts its requests, bytes and
// DynamoDB units; Project turns them into one 45-minute game's bill (prices.go),
// and each time the game asks a player to act, the delay until their phone
// shows it is measured exactly.
//
// # Evenings
//
// PlayEvenings plays a club's evenings (docs/EVENING.md) the same way: the
// organiser makes the evening and starts each round once the games of the one
// before are over, every phone joins it, reads it with its own token to learn
// its game and seat token, and plays that game as the players above do, each
// table's console as the host above does with the organiser's token. Each
// game's log is checked as a load run's are, and at the end every evening's
// standings against the scoring package's sum of its games' protocols; the
// evenings' own requests are timed apart from their games', and all of them
// billed as they were made (Bill).
//
// # Targets
//
// Start runs the server in this process on 127.0.0.1:0, wired as infra/server
// wires it (service.New, httpapi.New, ratelimit.Wrap), on the embedded bolt
// store, on the DynamoDB store against dynalite (started on loopback through
// infra/harness/localdynamo), or in memory, with a Meter around the store and the
// handler that counts store calls, DynamoDB capacity units (as billed for the
// item sizes seen; on dynalite also as the store's Capacity hook reports them),
// conflicts and item sizes. Run also takes the URL of a server already running,
// as long as it is a loopback address (CheckLoopback).
//
// # Commands
//
//	go run ./infra/harness/loadgen/cmd/loadgen -games 100                   # bolt, real cadence
//	go run ./infra/harness/loadgen/cmd/loadgen -store dynamo -games 20      # DynamoDB store on dynalite
//	go run ./infra/harness/loadgen/cmd/loadgen -games 100 -json report.json # the report as JSON too
//	go test -run '^$' -bench . ./infra/harness/loadgen                      # the benchmarks
//	go test ./infra/harness/loadgen -run 'Load|Fault' -long -v              # load and fault tests at bench size
//	go run ./infra/harness/loadgen/cmd/loadgen -games 0 -real 0 -evenings 1 # a club's evening: 40 phones, 4 tables, 3 rounds
//
// The fault tests (fault_*_test.go) kill the local server (infra/server, built
// and run as a child process) with SIGKILL while games run, inject store
// failures, conflicts, latency and timeouts, send every action twice at once
// and late copies of old ones, and flood the server with hostile requests.
// `go test ./...` runs them in a short form.
package loadgen
