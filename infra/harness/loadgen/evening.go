package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"citysleeps/shared/bot"
	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// EveningConfig says what PlayEvenings plays: a club's evenings (docs/EVENING.md),
// every phone, console and the organiser a bot going through the HTTP API.
type EveningConfig struct {
	// Bots is how every phone and console plays its games, as in a load run
	// (Run): the server's URL, speed-up, bursts, think time, timers,
	// moderator, seed, first source address, game timeout, meter and metrics.
	// Its Games and Players are not used (the evening's are below); its first
	// preset is the evening's rules (sport by default).
	Bots Config
	// Evenings is how many evenings are played at once; Players, Tables and
	// Rounds are each evening's.
	Evenings, Players, Tables, Rounds int
	// Progress, if set, is called after each round of each evening.
	Progress func(evening, round int, games []GameResult)
}

func (c *EveningConfig) defaults() {
	if len(c.Bots.Presets) == 0 {
		c.Bots.Presets = []string{rules.PresetSport} // a club's evening
	}
	c.Bots.defaults()
	if c.Evenings == 0 {
		c.Evenings = 1
	}
	if c.Players == 0 {
		c.Players = 40
	}
	if c.Tables == 0 {
		c.Tables = 4
	}
	if c.Rounds == 0 {
		c.Rounds = 3
	}
}

// EveningResult is how one evening went.
type EveningResult struct {
	Index int    `json:"index"`
	Code  string `json:"code"`
	// Finished: every round started, every game of it finished (every client
	// checked its log) and the last record answered.
	Finished bool         `json:"finished"`
	Games    []GameResult `json:"games"`
	// StandingsMatch: the evening's standings, read back after the last
	// record, are exactly the scoring package's sum of its games' protocols
	// (checkStandings); Mismatches says where they are not.
	StandingsMatch bool     `json:"standingsMatch"`
	Mismatches     []string `json:"mismatches,omitempty"`
	// Requests counts the evening's own requests (its routes, /api/evenings…)
	// by what they were for; its games' are in Games.
	Requests map[string]int `json:"requests"`
	// Strangers counts the answers to what a stranger at the door and the
	// tables' referees tried against the evening beside its games
	// (strangers), by what, status and code: each must be a 4xx.
	Strangers map[string]int `json:"strangers"`
	// StrangersLet counts those of them not refused with a 4xx.
	StrangersLet int           `json:"strangersLet"`
	Errors       []string      `json:"errors,omitempty"`
	Took         time.Duration `json:"took"`
}

// EveningReport is what PlayEvenings measured, for people (Text), tools
// (JSON) and scripts (Line).
type EveningReport struct {
	Setup   string  `json:"setup"`
	Elapsed float64 `json:"elapsedSeconds"`
	Players int     `json:"players"`
	Tables  int     `json:"tables"`
	Rounds  int     `json:"rounds"`

	Evenings      int   `json:"evenings"`
	Finished      int   `json:"finished"`
	Games         int   `json:"games"`
	GamesFinished int   `json:"gamesFinished"`
	Check         Check `json:"check"`
	Rollbacks     int   `json:"rollbacks"`
	// StandingsMatch: every evening's standings equal the sum of its games'
	// protocols.
	StandingsMatch bool `json:"standingsMatch"`
	// Strangers is how many of the strangers' and referees' tries were
	// answered, and StrangersLet how many were not refused with a 4xx (a
	// 2xx let in, a 5xx broken): 0, or the evening is not safe.
	Strangers    int `json:"strangers"`
	StrangersLet int `json:"strangersLet"`

	// EveningServer is the time the handler took for the evenings' own
	// requests (every /api/evenings route answered 2xx: reads, joins, the
	// rounds started, which make the games, and the records), GameServer
	// for their games' polls and actions; without the network and the
	// client. Both are missing without a meter.
	EveningServer Summary `json:"eveningServerTime"`
	GameServer    Summary `json:"gameServerTime"`

	// Cost is the bill as deployed (Bill, at Prices) of every request the
	// evenings made, as the meter counted them: the evenings' own requests,
	// their games' polls, actions and refusals (and the load run's rate
	// limit's answers), each billed for its measured handler time, DynamoDB
	// calls and units, bytes out and log lines, none scaled. CostUSD is one
	// evening's share, Cost.Total over Evenings: an evening as the load run
	// plays it, its games at the bots' pace and the load run's short timers
	// (DefaultTimers, no hand-over), so fewer polls than a real evening's
	// games at people's pace (whose cost the real games measure, TableLine).
	// The checks after the evenings (checkStandings) are left out.
	Cost    Projection `json:"cost"`
	CostUSD float64    `json:"costDeployedUsd"`
	// PeoplesPaceUSD is, when real games were played beside the evenings
	// (AtPeoplesPace), one evening as deployed with its games at people's
	// pace; 0 otherwise.
	PeoplesPaceUSD float64 `json:"costPeoplesPaceUsd,omitempty"`

	Results []EveningResult `json:"results"`
	Errors  []string        `json:"errors,omitempty"`
}

// PlayEvenings plays cfg.Evenings evenings at once against cfg.Bots.URL, each
// as a club plays it through the API: the organiser makes the evening (POST
// /api/evenings), every phone joins it (POST …/players), the organiser starts
// each round (start_round) once every game of the one before is over, and
// sends record after the last. Each phone reads the evening with its own
// token (GET /api/evenings/{code}) to learn its table's game and its seat's
// token there (you.game, you.gameToken), and plays that game as the load
// run's bots do (device); each table's console plays as the load run's host
// (loadHost) with the table's referee token from the organiser's view (the
// host token of that table's games), and starts the game once every phone of
// the table has opened it.
// Then it bills what the evenings did and checks every evening's standings
// against its games' protocols. The meter, if any, must be the evenings'
// own: what else its target served is billed too.
func PlayEvenings(ctx context.Context, cfg EveningConfig) (EveningReport, error) {
	cfg.defaults()
	if err := CheckLoopback(cfg.Bots.URL); err != nil {
		return EveningReport{}, err
	}
	if cfg.Bots.Speed > 50 {
		return EveningReport{}, errors.New("loadgen: a speed-up over 50 leaves the server no time to answer")
	}
	start := time.Now()
	runs := make([]*eveningRun, cfg.Evenings)
	var wg sync.WaitGroup
	for i := range runs {
		runs[i] = &eveningRun{cfg: &cfg, index: i, res: EveningResult{Index: i, Requests: map[string]int{}, Strangers: map[string]int{}}}
		wg.Go(func() { runs[i].run(ctx) })
	}
	wg.Wait()
	r := EveningReport{
		Setup: fmt.Sprintf("%d evenings × %d players at %d tables, %d rounds (%s, moderator %s), speed ×%g, burst %v, timers %v, think <%v",
			cfg.Evenings, cfg.Players, cfg.Tables, cfg.Rounds, cfg.Bots.Presets[0], cfg.Bots.Moderator, cfg.Bots.Speed, cfg.Bots.Burst, cfg.Bots.Timers, cfg.Bots.Think),
		Elapsed: time.Since(start).Seconds(), Players: cfg.Players, Tables: cfg.Tables, Rounds: cfg.Rounds,
		Evenings: cfg.Evenings, StandingsMatch: true,
	}
	if m := cfg.Bots.Meter; m != nil {
		// Before the checks, whose reads are no evening's.
		r.EveningServer = m.ServerTime(KindEveningRead, KindEveningWrite)
		r.GameServer = m.ServerTime(KindPoll304, KindPoll200, KindAction)
		r.Cost = Bill(m.Kinds())
		r.CostUSD = r.Cost.Total / float64(cfg.Evenings)
	}
	for _, e := range runs {
		if e.res.Finished {
			e.checkStandings(ctx)
		}
		res := e.res
		r.Results = append(r.Results, res)
		if res.Finished {
			r.Finished++
		}
		r.StandingsMatch = r.StandingsMatch && res.StandingsMatch
		for _, n := range res.Strangers {
			r.Strangers += n
		}
		r.StrangersLet += res.StrangersLet
		for _, g := range res.Games {
			r.Games++
			if g.Finished {
				r.GamesFinished++
			}
			r.Check.Add(g.Check)
			r.Rollbacks += g.Rollbacks
			for _, msg := range g.Errors {
				r.Errors = append(r.Errors, fmt.Sprintf("evening %s game %s: %s", res.Code, g.Code, msg))
			}
		}
		for _, msg := range append(res.Errors, res.Mismatches...) {
			r.Errors = append(r.Errors, fmt.Sprintf("evening %s: %s", res.Code, msg))
		}
	}
	if len(r.Errors) > 20 {
		r.Errors = r.Errors[:20]
	}
	if len(r.Check.Problems) > 20 {
		r.Check.Problems = r.Check.Problems[:20]
	}
	return r, ctx.Err()
}

// Failed says what of the report is not as it must be, or nil: an evening
// unfinished, an action lost, doubled or undone, standings that are not the
// sum of the games.
func (r EveningReport) Failed() error {
	switch {
	case r.Check.Lost > 0 || r.Check.Doubled > 0 || r.Rollbacks > 0:
		return fmt.Errorf("evenings: %d lost, %d doubled actions, %d rollbacks", r.Check.Lost, r.Check.Doubled, r.Rollbacks)
	case r.Finished < r.Evenings:
		return fmt.Errorf("evenings: only %d of %d finished: %s", r.Finished, r.Evenings, strings.Join(r.Errors, "; "))
	case !r.StandingsMatch:
		return fmt.Errorf("evenings: standings not the sum of the protocols: %s", strings.Join(r.Errors, "; "))
	case r.StrangersLet > 0 || r.Strangers == 0:
		return fmt.Errorf("evenings: %d of %d strangers' tries not refused with a 4xx: %s", r.StrangersLet, r.Strangers, strings.Join(r.Errors, "; "))
	}
	return nil
}

// Line is the evenings' line for scripts, after the report's text:
//
//	evening: players=40 tables=4 rounds=3 evenings=1 finished=1 lost=0 doubled=0 standings_match=true strangers=48 strangers_let=0 p50_ms=3.1 p99_ms=60.2 game_p99_ms=9.8 cost_deployed_usd=0.0412
//
// strangers counts the strangers' and referees' tries against the evening
// (strangers), strangers_let those not refused with a 4xx;
// p50_ms and p99_ms are the server's time for the evenings' own requests,
// game_p99_ms for their games' polls and actions; cost_deployed_usd is one
// evening's bill as deployed (EveningReport.Cost).
func (r EveningReport) Line() string {
	line := fmt.Sprintf("evening: players=%d tables=%d rounds=%d evenings=%d finished=%d lost=%d doubled=%d standings_match=%v strangers=%d strangers_let=%d p50_ms=%.1f p99_ms=%.1f game_p99_ms=%.1f cost_deployed_usd=%.4f",
		r.Players, r.Tables, r.Rounds, r.Evenings, r.Finished, r.Check.Lost, r.Check.Doubled, r.StandingsMatch, r.Strangers, r.StrangersLet,
		r.EveningServer.P50, r.EveningServer.P99, r.GameServer.P99, r.CostUSD)
	if r.PeoplesPaceUSD > 0 {
		line += fmt.Sprintf(" cost_people_usd=%.4f", r.PeoplesPaceUSD)
	}
	return line
}

// AtPeoplesPace is one of these evenings as deployed with its games played at
// people's pace: each of its tables × rounds games at perGame (a real game's
// bill pay-as-you-go, RealReport), and the evening's own requests as the run
// made them, at the run's mean price a request. Those are the evening's
// reads at the bots' pace; people's breaks between rounds, when every phone
// reads the evening at its poll hint, make more (the README counts them).
func (r EveningReport) AtPeoplesPace(perGame float64) float64 {
	if r.Evenings == 0 || r.Cost.Requests == 0 {
		return 0
	}
	own := r.Cost.Evening * r.Cost.Total / r.Cost.Requests / float64(r.Evenings)
	return float64(r.Tables*r.Rounds)*perGame + own
}

// Text renders the report as plain text.
func (r EveningReport) Text() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("EVENINGS (a club's night: organiser, phones and consoles through the API)")
	w("  setup               %s", r.Setup)
	w("  elapsed             %.1f s", r.Elapsed)
	w("  finished            %d of %d evenings, %d of %d games", r.Finished, r.Evenings, r.GamesFinished, r.Games)
	w("  integrity           %d acknowledged actions, %d proven by an event; LOST %d DOUBLED %d ROLLBACKS %d",
		r.Check.Acked, r.Check.Checked, r.Check.Lost, r.Check.Doubled, r.Rollbacks)
	w("  standings           equal to the sum of the games' protocols: %v", r.StandingsMatch)
	w("  strangers           %d tries at the tables and the roster, %d not refused with a 4xx", r.Strangers, r.StrangersLet)
	for _, p := range r.Check.Problems {
		w("    %s", p)
	}
	for _, e := range r.Errors {
		w("  error: %s", e)
	}
	w("  in the server (ms)  n        mean     p50      p95      p99      max")
	for _, k := range []struct {
		name string
		s    Summary
	}{{"evening routes", r.EveningServer}, {"its games", r.GameServer}} {
		w("  %-16s %8d %8.2f %8.2f %8.2f %8.2f %8.2f", k.name, k.s.N, k.s.Mean, k.s.P50, k.s.P95, k.s.P99, k.s.Max)
	}
	c := r.Cost
	w("  COST OF AN EVENING AS DEPLOYED, AS PLAYED HERE (us-east-1 list prices; the games at the bots' pace)")
	w("  requests            %.0f = %.0f evening + %.0f polls + %.0f actions and other", c.Requests, c.Evening, c.Polls, c.Actions)
	for _, l := range c.Lines {
		w("  %-36s %12.1f %-9s $%.5f", l.Item, l.Quantity, l.Unit, l.USD)
	}
	w("  TOTAL               $%.4f for %d evenings: $%.4f an evening pay-as-you-go", c.Total, r.Evenings, r.CostUSD)
	return b.String()
}

// eveningRun is one simulated evening: its organiser, its phones, and the
// games of the round in play.
type eveningRun struct {
	cfg   *EveningConfig
	index int
	org   *Client
	code  string
	token string // the organiser's

	mu     sync.Mutex
	rounds []*roundRun // by round, as the organiser starts them
	more   chan struct{}
	res    EveningResult
}

// roundRun is one round started: its tables by the room code of their game.
// The phones learn their game from the evening; the tables are the bots'
// bookkeeping, ready once the organiser has set every console going.
type roundRun struct {
	tables map[string]*eveningTable
}

// table is one game of an evening: its console (bots[0]) and the phones
// that sat down to it.
type eveningTable struct {
	g      *game
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time
	seats  int
	wg     sync.WaitGroup // the devices playing
	bots   []*device      // under g.mu
	closed bool           // under g.mu: no phone sits down any more
	seated chan struct{}  // closed when every seat's phone sat down
}

// sit adds a phone's device to the table, unless the table gave up waiting.
func (t *eveningTable) sit(b *device) bool {
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	if t.closed {
		return false
	}
	t.bots = append(t.bots, b)
	t.wg.Add(1)
	t.g.joined++
	if t.g.joined == t.seats {
		close(t.seated)
	}
	return true
}

func (e *eveningRun) fail(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.res.Errors) < 20 {
		e.res.Errors = append(e.res.Errors, fmt.Sprintf(format, args...))
	}
}

func (e *eveningRun) count(what string) {
	e.mu.Lock()
	e.res.Requests[what]++
	e.mu.Unlock()
}

func (e *eveningRun) path() string { return "/api/evenings/" + e.code }

// sleep waits d of real cadence, scaled down by the speed-up; false if ctx ended.
func (e *eveningRun) sleep(ctx context.Context, d time.Duration) bool {
	return bot.WallClock.Sleep(ctx, time.Now().Add(time.Duration(float64(d)/e.cfg.Bots.Speed)))
}

// send sends one request of the evening until it gets an answer no retry
// mends, as the bots' actions are (retryable, retryWait; an evening's action
// has an id, so a retry is applied once), and returns that answer.
func (e *eveningRun) send(ctx context.Context, c *Client, what, method, path, token string, body any) (Response, error) {
	for try := 1; ; try++ {
		var r Response
		var err error
		if body != nil {
			r, err = c.JSON(ctx, "evening", method, path, token, body)
		} else {
			r, err = c.Do(ctx, "evening", method, path, token, nil, "")
		}
		e.count(what)
		if retryable(r, err) && try < e.cfg.Bots.ActionTries && ctx.Err() == nil {
			e.sleep(ctx, retryWait(r, try))
			continue
		}
		if err != nil {
			return r, fmt.Errorf("%s: %w", what, err)
		}
		return r, nil
	}
}

// decodeInto unmarshals an answer of status want into v.
func decodeInto(r Response, want int, what string, v any) error {
	if r.Status != want {
		return fmt.Errorf("%s: status %d: %s", what, r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// run plays the evening to its end. Each round's games are bounded by the
// bots' GameTimeout.
func (e *eveningRun) run(ctx context.Context) {
	cfg := e.cfg
	start := time.Now()
	defer func() { e.res.Took = time.Since(start) }()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e.more = make(chan struct{})
	base := cfg.Bots.FirstSource + e.index*(cfg.Players+cfg.Tables+1)
	e.org = NewClient(cfg.Bots.URL, SourceAddr(base), cfg.Bots.Metrics)
	defer e.org.Close()
	if err := e.create(ctx); err != nil {
		e.fail("%v", err)
		return
	}
	var joined, played sync.WaitGroup
	for i := range cfg.Players {
		p := &phone{e: e, name: fmt.Sprintf("Bot %d", i+1),
			c:   NewClient(cfg.Bots.URL, SourceAddr(base+1+cfg.Tables+i), cfg.Bots.Metrics),
			rng: rand.New(rand.NewPCG(cfg.Bots.Seed, uint64(e.index)<<16|uint64(i)))}
		joined.Add(1)
		played.Go(func() {
			defer p.c.Close()
			err := p.join(ctx)
			joined.Done()
			if err != nil {
				e.fail("%v", err)
				cancel()
				return
			}
			p.play(ctx)
		})
	}
	joined.Wait()
	done := 0
	for r := range cfg.Rounds {
		if ctx.Err() != nil || !e.round(ctx, r, base) {
			break
		}
		done++
	}
	if done == cfg.Rounds {
		if _, err := e.act(ctx, "record", "record"); err != nil {
			e.fail("%v", err)
		} else {
			e.res.Finished = true
		}
	}
	cancel() // the phones waiting for a round that will not start
	played.Wait()
}

// create makes the evening with the load run's timers, as an organiser does.
func (e *eveningRun) create(ctx context.Context) error {
	b := e.cfg.Bots
	opts, err := json.Marshal(b.Timers)
	if err != nil {
		return err
	}
	req := service.EveningRequest{Preset: b.Presets[0], Options: opts, Moderator: b.Moderator, Lang: "en",
		Tables: e.cfg.Tables, Rounds: e.cfg.Rounds}
	r, err := e.send(ctx, e.org, "create", http.MethodPost, "/api/evenings", "", req)
	if err != nil {
		return err
	}
	var c service.EveningCreated
	if err := decodeInto(r, http.StatusCreated, "create the evening", &c); err != nil {
		return err
	}
	e.code, e.token, e.res.Code = c.Code, c.OrganizerToken, c.Code
	return nil
}

// act sends one action of the organiser, with the id id, and returns the
// evening as it answered. A round is started once every game of the one
// before is over, which the evening learns from the games themselves: a
// table_playing answer is taken as the evening not having seen a game over
// yet, and asked again a moment later.
func (e *eveningRun) act(ctx context.Context, typ, id string) (evening.View, error) {
	a := service.EveningAction{ID: id, Type: typ}
	for try := 1; ; try++ {
		r, err := e.send(ctx, e.org, typ, http.MethodPost, e.path()+"/actions", e.token, a)
		if err != nil {
			return evening.View{}, err
		}
		if r.Status == http.StatusConflict && r.ErrorCode() == evening.ErrTablePlaying.Code && try < e.cfg.Bots.ActionTries {
			e.sleep(ctx, time.Second)
			continue
		}
		var v evening.View
		return v, decodeInto(r, http.StatusOK, typ, &v)
	}
}

// round starts round r (from 0), sets a console going at every table, and
// returns when every game of the round has ended, whether all finished.
func (e *eveningRun) round(ctx context.Context, r, base int) bool {
	cfg := e.cfg
	v, err := e.act(ctx, "start_round", fmt.Sprintf("round-%d", r+1))
	if err != nil {
		e.fail("%v", err)
		return false
	}
	if v.Round != r+1 || len(v.Rounds) <= r {
		e.fail("start_round %d: the evening is at round %d", r+1, v.Round)
		return false
	}
	rr := &roundRun{tables: map[string]*eveningTable{}}
	var tables []*eveningTable
	for _, tv := range v.Rounds[r].Tables {
		if tv.Game == "" {
			continue // closed this round
		}
		bots := cfg.Bots // each game's own: its seats, its seed
		bots.Players = len(tv.Players)
		bots.Seed = cfg.Bots.Seed + uint64(e.index)*7919
		number := r*cfg.Tables + tv.Table // the game's number in the evening, from 1
		referee := servicetest.Referee(v, tv.Table)
		g := &game{cfg: &bots, index: number, preset: cfg.Bots.Presets[0], code: tv.Game, host: referee,
			over: make(chan struct{}), gates: map[string]*gate{},
			res: GameResult{Index: number, Preset: cfg.Bots.Presets[0], Code: tv.Game, Requests: map[string]int{}}}
		t := &eveningTable{g: g, start: time.Now(), seats: len(tv.Players), seated: make(chan struct{})}
		t.ctx, t.cancel = context.WithTimeout(ctx, bots.GameTimeout)
		console := g.device(0, "host", true, NewClient(cfg.Bots.URL, SourceAddr(base+tv.Table), cfg.Bots.Metrics))
		console.token = referee
		t.bots = []*device{console}
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			defer console.c.Close()
			console.play(t.ctx, loadHost{g}, console.hostPace)
		}()
		rr.tables[tv.Game] = t
		tables = append(tables, t)
	}
	e.mu.Lock()
	e.rounds = append(e.rounds, rr)
	close(e.more)
	e.more = make(chan struct{})
	e.mu.Unlock()
	var strangers sync.WaitGroup
	strangers.Go(func() { e.strangers(ctx, v, r, base) })
	defer strangers.Wait()
	ok := true
	var results []GameResult
	for _, t := range tables {
		select {
		case <-t.seated:
		case <-t.ctx.Done():
		}
		t.g.mu.Lock()
		t.closed = true
		t.g.mu.Unlock()
		t.wg.Wait()
		res := t.g.end(t.ctx, t.start, t.bots)
		if len(t.bots) < t.seats+1 {
			t.g.fail("only %d of %d phones sat down at game %s", len(t.bots)-1, t.seats, t.g.code)
			t.g.res.Finished = false
			res = t.g.res
		}
		t.cancel()
		ok = ok && res.Finished
		results = append(results, res)
	}
	e.mu.Lock()
	e.res.Games = append(e.res.Games, results...)
	e.mu.Unlock()
	if cfg.Progress != nil {
		cfg.Progress(e.index, r, results)
	}
	return ok
}

// started waits until the organiser has started round r (from 0), and
// returns it; nil if ctx ended first.
func (e *eveningRun) started(ctx context.Context, r int) *roundRun {
	for {
		e.mu.Lock()
		if r < len(e.rounds) {
			rr := e.rounds[r]
			e.mu.Unlock()
			return rr
		}
		more := e.more
		e.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return nil
		}
	}
}

// phone is one player's phone at the evening.
type phone struct {
	e     *eveningRun
	c     *Client
	rng   *rand.Rand
	name  string
	token string
}

// join puts the phone on the roster, at a random moment of the join window.
func (p *phone) join(ctx context.Context) error {
	cfg := p.e.cfg.Bots
	if cfg.JoinWindow > 0 && !p.e.sleep(ctx, time.Duration(p.rng.Int64N(int64(cfg.JoinWindow)))) {
		return ctx.Err()
	}
	// One join id for every try, as the frontend's: a try whose answer was
	// lost took the name, and the next gets the same player back rather than
	// name_taken.
	req := service.EveningJoinRequest{Name: p.name, JoinID: bot.ActionID()}
	r, err := p.e.send(ctx, p.c, "join", http.MethodPost, p.e.path()+"/players", "", req)
	if err != nil {
		return err
	}
	var j service.EveningJoined
	if err := decodeInto(r, http.StatusCreated, "join the evening as "+p.name, &j); err != nil {
		return err
	}
	p.token = j.Token
	return nil
}

// eveningPoll is how often a phone waiting for its next game reads the
// evening (real cadence): a little under the evening's poll hint
// (pollAfterMs, 2.9 s), so that a bot learns its table about as soon as a
// page does; like the bots' own waits it is divided by the run's speed.
const eveningPoll = 2 * time.Second

// await reads the evening with the phone's token until round (from 1) has
// started.
func (p *phone) await(ctx context.Context, round int) (evening.View, bool) {
	for {
		r, err := p.e.send(ctx, p.c, "read", http.MethodGet, p.e.path(), p.token, nil)
		if err != nil {
			if ctx.Err() == nil {
				p.e.fail("%s: %v", p.name, err)
			}
			return evening.View{}, false
		}
		var v evening.View
		if err := decodeInto(r, http.StatusOK, "read the evening", &v); err != nil {
			p.e.fail("%s: %v", p.name, err)
			return evening.View{}, false
		}
		if v.Round >= round {
			return v, true
		}
		if !p.e.sleep(ctx, eveningPoll) {
			return evening.View{}, false
		}
	}
}

// play plays the phone's game of every round, as the evening shows it to the
// phone (you), or sits the round out.
func (p *phone) play(ctx context.Context) {
	for r := 0; r < p.e.cfg.Rounds; r++ {
		v, ok := p.await(ctx, r+1)
		if !ok {
			return
		}
		r = v.Round - 1
		if v.You == nil || v.You.Game == "" {
			continue // sits out
		}
		rr := p.e.started(ctx, r)
		if rr == nil {
			return
		}
		t := rr.tables[v.You.Game]
		if t == nil {
			p.e.fail("%s: round %d has no game %s", p.name, r+1, v.You.Game)
			return
		}
		b := t.g.device(v.You.Seat, p.name, false, p.c)
		b.token = v.You.GameToken
		if !b.open(t.ctx) {
			return
		}
		if !t.sit(b) {
			return
		}
		b.play(t.ctx, &bot.Player{Rand: b.rng}, b.pace)
		t.wg.Done()
	}
}

// open reads the game as a phone that opens it does, to learn its seat's id
// there; false if no read answers it.
func (b *device) open(ctx context.Context) bool {
	for try := 1; try <= b.g.cfg.ActionTries; try++ {
		if _, _, err := b.Poll(ctx); err != nil {
			b.g.fail("%s: %v", b.name, err)
			return false
		}
		if b.view.You != nil {
			b.id = b.view.You.ID
			return true
		}
		if !b.sleep(ctx, retryWait(Response{}, try)) {
			return false
		}
	}
	b.g.fail("%s: game %s does not show the seat", b.name, b.g.code)
	return false
}

// checkStandings reads the evening's standings as the TV shows them and adds
// them up again from its games' protocols (GET /api/games/{code}/protocol)
// as the service's tests do (servicetest.ProtocolStandings): the standings are a pure
// function of the protocols (DESIGN.md, "Beyond one table: the evening"), so
// the two must be equal, every player's place, games, wins and points.
func (e *eveningRun) checkStandings(ctx context.Context) {
	var v evening.View
	r, err := e.send(ctx, e.org, "check", http.MethodGet, e.path(), "", nil)
	if err == nil {
		err = decodeInto(r, http.StatusOK, "read the standings", &v)
	}
	if err != nil {
		e.res.Mismatches = append(e.res.Mismatches, err.Error())
		return
	}
	games := 0
	want, err := servicetest.ProtocolStandings(v, func(game string) (protocol.Protocol, error) {
		games++
		var p protocol.Protocol
		r, err := e.send(ctx, e.org, "check", http.MethodGet, "/api/games/"+game+"/protocol", "", nil)
		if err == nil {
			err = decodeInto(r, http.StatusOK, "read the protocol of "+game, &p)
		}
		return p, err
	})
	if err != nil {
		e.res.Mismatches = append(e.res.Mismatches, err.Error())
		return
	}
	if games != e.cfg.Rounds*e.cfg.Tables {
		e.res.Mismatches = append(e.res.Mismatches, fmt.Sprintf("%d games in the rounds, not %d", games, e.cfg.Rounds*e.cfg.Tables))
	}
	if slices.Equal(v.Standings, want) {
		e.res.StandingsMatch = len(e.res.Mismatches) == 0
		return
	}
	got := map[string]scoring.Standing{}
	for _, s := range v.Standings {
		got[s.Player] = s
	}
	for _, s := range want {
		if g := got[s.Player]; g != s {
			e.res.Mismatches = append(e.res.Mismatches, fmt.Sprintf("%s: the evening has place %d, %d games, %s points; the protocols %d, %d games, %s points",
				s.Player, g.Place, g.Games, g.Points.Total, s.Place, s.Games, s.Points.Total))
		}
	}
	if len(v.Standings) != len(want) {
		e.res.Mismatches = append(e.res.Mismatches, fmt.Sprintf("%d players in the evening's standings, %d in the protocols'", len(v.Standings), len(want)))
	}
	if len(e.res.Mismatches) == 0 {
		e.res.Mismatches = append(e.res.Mismatches, "the standings are in another order than the protocols'")
	}
}

// strangers tries, beside round r's games (v the organiser's view of it),
// what a stranger at the door and a table's referee could to break the
// evening (issue 47), once a table: a stranger's join of the table's game
// by name (its code is on the TV), a stranger's new name on the evening's
// roster (closed since the draw), and the referee's kick of a seated
// player and configure of the table's rules. Each must be refused with a
// 4xx, whenever in the game it comes; the answers are counted by what,
// status and code (EveningResult.Strangers), and the standings checked
// after the evening show that nothing of it counted.
func (e *eveningRun) strangers(ctx context.Context, v evening.View, r, base int) {
	c := NewClient(e.cfg.Bots.URL, SourceAddr(base), e.cfg.Bots.Metrics)
	defer c.Close()
	opts, _ := rules.Preset(e.cfg.Bots.Presets[0])
	opts.MaxPlayers++
	for _, tv := range v.Rounds[r].Tables {
		if tv.Game == "" {
			continue
		}
		referee := servicetest.Referee(v, tv.Table)
		name := fmt.Sprintf("Stranger %d-%d", r+1, tv.Table)
		for _, try := range []struct {
			what, path, token string
			body              any
		}{
			{"join_game", "/api/games/" + tv.Game + "/players", "", map[string]string{"name": name}},
			{"join_evening", e.path() + "/players", "", map[string]string{"name": name}},
			{"kick", "/api/games/" + tv.Game + "/actions", referee, rules.Action{ID: fmt.Sprintf("kick-%d-%d", r, tv.Table), Type: rules.ActKick, Target: "p1"}},
			{"configure", "/api/games/" + tv.Game + "/actions", referee, rules.Action{ID: fmt.Sprintf("cfg-%d-%d", r, tv.Table), Type: rules.ActConfigure, Options: &opts}},
		} {
			res, err := e.send(ctx, c, "stranger_"+try.what, http.MethodPost, try.path, try.token, try.body)
			if err != nil {
				if ctx.Err() == nil {
					e.fail("%s at table %d: %v", try.what, tv.Table, err)
				}
				continue
			}
			answer := fmt.Sprintf("%s %d %s", try.what, res.Status, res.ErrorCode())
			let := res.Status < 400 || res.Status >= 500
			e.mu.Lock()
			e.res.Strangers[answer]++
			if let {
				e.res.StrangersLet++
			}
			e.mu.Unlock()
			if let {
				e.fail("a stranger's try at table %d answered %s", tv.Table, answer)
			}
		}
	}
}
