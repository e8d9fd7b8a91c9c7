package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"citysleeps/shared/bot"
	"citysleeps/shared/rules"
)

// GameResult is how one simulated game went.
type GameResult struct {
	Index    int    `json:"index"`
	Preset   string `json:"preset"`
	Code     string `json:"code"`
	Finished bool   `json:"finished"` // reached game over and every client checked the log
	Winner   string `json:"winner,omitempty"`
	Version  int64  `json:"version"`
	Days     int    `json:"days"`
	// Requests counts the requests of the game's clients by kind (create, join,
	// poll, action, final).
	Requests map[string]int `json:"requests"`
	// Polls304 counts polls answered 304.
	Polls304 int `json:"polls304"`
	// Actions sent (distinct ids) and how they ended.
	Sent, Acked, Refused, Unknown int
	Check                         Check
	// Rollbacks counts views older than one already seen, and acknowledged
	// effects seen undone in a later view of the same phase instance (a night
	// task offered again, a ballot missing, a speech begun again).
	Rollbacks int      `json:"rollbacks"`
	Errors    []string `json:"errors,omitempty"`
	Took      time.Duration
}

// game is one simulated game: a host (the shared screen) and its players.
type game struct {
	cfg    *Config
	index  int
	preset string
	code   string
	host   string // host token

	over    chan struct{} // closed when some client saw the winner
	overOne sync.Once

	mu     sync.Mutex
	gates  map[string]*gate
	ghosts []string // names of seats whose join was applied but not answered
	joined int      // players whose join was answered
	res    GameResult
}

// gate holds players who are about to act together until all of them are
// ready (or a while has passed), then lets them go at the same instant, as a
// table does when a vote opens.
type gate struct {
	expected int
	arrived  int
	open     chan struct{}
}

func (g *game) gate(sig string, expected int) *gate {
	g.mu.Lock()
	defer g.mu.Unlock()
	gt := g.gates[sig]
	if gt == nil {
		gt = &gate{expected: max(1, expected), open: make(chan struct{})}
		g.gates[sig] = gt
	}
	gt.arrived++
	if gt.arrived == gt.expected {
		close(gt.open)
		if f := g.cfg.OnBurst; f != nil {
			go f(g.index)
		}
	}
	return gt
}

func (g *game) setOver() { g.overOne.Do(func() { close(g.over) }) }

func (g *game) fail(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.res.Errors) < 20 {
		g.res.Errors = append(g.res.Errors, fmt.Sprintf(format, args...))
	}
}

// device is one client's line to its game (bot.Conn): a player's phone, or
// the host's shared screen.
type device struct {
	g     *game
	c     *Client
	rng   *rand.Rand
	label string // for action ids
	host  bool
	name  string
	id    string // player id; "host" for the host
	token string

	view     View
	etag     string
	maxVer   int64
	every    time.Duration // the current poll hint, real cadence
	failures int
	n        int // actions sent

	acks    []Ack
	unknown map[string]int  // log keys of actions that got no final answer
	refused map[string]int  // log keys of actions refused on a retry
	passed  map[string]bool // steps whose gate this bot went through
	watch   []effect        // the last acknowledged effects, checked in later views
	done    bool            // checked the final log
}

// effect is something an acknowledged action did that a later view of the same
// phase must still show.
type effect struct {
	what  string
	lost  func(v View) bool
	phase string
}

func (b *device) path() string { return "/api/games/" + b.g.code }

// sleep waits d of real cadence, scaled down by the speed-up; false if ctx ended.
func (b *device) sleep(ctx context.Context, d time.Duration) bool {
	return bot.WallClock.Sleep(ctx, time.Now().Add(b.scaled(d)))
}

// scaled is d of real cadence at the run's speed-up.
func (b *device) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / b.g.cfg.Speed)
}

// wait is how long to wait before the next poll, as the frontend's Poller
// decides it: the server's last hint (kept across 304s), or an exponential
// backoff with jitter after failures. The hint is the server's, in the
// server's time, which is not scaled: it already counts down to the next
// deadline and hand-over, and with the load run's hand-over of 0 it asks for a
// poll a second.
func (b *device) wait() time.Duration {
	if b.failures > 0 {
		base := min(15*time.Second, time.Second<<min(b.failures-1, 4))
		return b.scaled(time.Duration(float64(base) * (0.75 + b.rng.Float64()/2)))
	}
	d := b.every
	if d <= 0 {
		d = 2 * time.Second // the frontend's DEFAULT_POLL_MS
	}
	d = min(max(d, 250*time.Millisecond), 30*time.Second)
	if b.host {
		b.g.cfg.Metrics.ScreenEvery.Add(float64(d.Milliseconds()))
	} else {
		b.g.cfg.Metrics.PlayerEvery.Add(float64(d.Milliseconds()))
	}
	return d
}

// accept takes a new view, from a poll or an action's answer.
func (b *device) accept(v View, etag string, fromPoll bool) {
	if v.Version < b.maxVer {
		b.g.mu.Lock()
		b.g.res.Rollbacks++
		b.g.mu.Unlock()
		b.g.fail("%s saw version %d after %d", b.name, v.Version, b.maxVer)
	}
	if fromPoll && !b.host && b.g.cfg.Meter != nil && bot.Awaits(v.View) && !bot.Awaits(b.view.View) && v.Version >= b.maxVer {
		b.noticed(v)
	}
	id := bot.Step(v.View)
	for _, e := range b.watch {
		if e.phase == id && e.lost(v) {
			b.g.mu.Lock()
			b.g.res.Rollbacks++
			b.g.mu.Unlock()
			b.g.fail("%s: acknowledged %s undone at version %d", b.name, e.what, v.Version)
		}
	}
	b.maxVer = max(b.maxVer, v.Version)
	b.view, b.etag = v, etag
	if v.PollAfterMs > 0 {
		b.every = time.Duration(v.PollAfterMs) * time.Millisecond
	}
	if v.Winner != nil {
		b.g.setOver()
	}
}

// noticed records how long the change that asks v's player to act took to
// reach them: from when it happened to now, in real-cadence time. A change is
// a write (the meter knows when each version was written) or a deadline that
// passed (reads never write: the clock's steps are not stored), the deadline
// of the view the player had before.
func (b *device) noticed(v View) {
	now := time.Now()
	at := func(t time.Time) time.Time {
		if e := b.view.Phase.EndsAt; e != nil && e.Before(now) && e.After(t) {
			return *e
		}
		return t
	}
	last, ok := b.g.cfg.Meter.Committed(b.g.code, v.Version)
	if !ok {
		return
	}
	first := last
	if t, ok := b.g.cfg.Meter.Committed(b.g.code, b.maxVer+1); ok && b.maxVer > 0 && b.maxVer < v.Version {
		first = t
	}
	s := b.g.cfg.Speed
	early := time.Duration(float64(now.Sub(at(last))) * s)
	late := time.Duration(float64(now.Sub(at(first))) * s)
	b.g.cfg.Metrics.notice(early, late)
	if early > 2*time.Second {
		var typ rules.ActionType
		for _, o := range v.Actions {
			if typ == "" || o.Type != rules.ActSleep {
				typ = o.Type
			}
		}
		b.g.cfg.Metrics.SlowNotice.Add(fmt.Sprintf("%s→%s (%s)", b.view.Phase.Name, v.Phase.Name, typ), 1)
	}
}

// Poll is bot.Conn's: it asks for the view with If-None-Match, as the
// frontend's Poller does. An error (one no retry mends) stops the device.
func (b *device) Poll(ctx context.Context) (rules.View, time.Duration, error) {
	r, err := b.c.Do(ctx, "poll", http.MethodGet, b.path(), b.token, nil, b.etag)
	b.count("poll")
	switch {
	case err != nil:
		if ctx.Err() == nil {
			b.failures++
		}
	case r.Status == http.StatusNotModified:
		b.failures = 0
		b.g.mu.Lock()
		b.g.res.Polls304++
		b.g.mu.Unlock()
	case r.Status == http.StatusOK:
		b.failures = 0
		var v View
		if err := json.Unmarshal(r.Body, &v); err != nil {
			return b.view.View, 0, fmt.Errorf("poll: %w", err)
		}
		b.accept(v, r.ETag, true)
	case retryable(r, nil):
		b.failures++
	default:
		return b.view.View, 0, fmt.Errorf("poll: status %d %s", r.Status, r.Body)
	}
	return b.view.View, b.wait(), nil
}

func (b *device) count(kind string) {
	b.g.mu.Lock()
	b.g.res.Requests[kind]++
	b.g.mu.Unlock()
}

// Act is bot.Conn's: act, and the view and wait after it.
func (b *device) Act(ctx context.Context, a rules.Action) (rules.View, time.Duration, bool, error) {
	ok := b.act(ctx, a)
	return b.view.View, b.wait(), ok, nil
}

// act sends one action until it gets a final answer, with the same id every
// time, and returns whether it was acknowledged.
func (b *device) act(ctx context.Context, a rules.Action) bool {
	b.n++
	a.ID = b.label + "-" + strconv.Itoa(b.n)
	chosenIn := b.view
	ack := ackOf(a, chosenIn)
	body, err := json.Marshal(a)
	if err != nil {
		b.g.fail("%s: %v", b.name, err)
		return false
	}
	b.g.mu.Lock()
	b.g.res.Sent++
	b.g.mu.Unlock()
	for try := 1; ; try++ {
		r, err := b.c.Do(ctx, "action", http.MethodPost, b.path()+"/actions", b.token, body, "")
		b.count("action")
		if retryable(r, err) {
			if ctx.Err() != nil || try >= b.g.cfg.ActionTries {
				b.unknown[keyOf(b.id, ack)]++
				b.g.mu.Lock()
				b.g.res.Unknown++
				b.g.mu.Unlock()
				return false
			}
			reason := "no answer"
			if err == nil {
				reason = strconv.Itoa(r.Status) + " " + r.ErrorCode()
			}
			b.g.cfg.Metrics.ActionRetries.Add(reason, 1)
			if !b.sleep(ctx, retryWait(r, try)) {
				continue // the next try sees ctx and gives up
			}
			continue
		}
		if r.Status != http.StatusOK {
			if try > 1 {
				// The first try may have been applied after all.
				b.refused[keyOf(b.id, ack)]++
			}
			b.g.mu.Lock()
			b.g.res.Refused++
			b.g.mu.Unlock()
			return false
		}
		var v View
		if err := json.Unmarshal(r.Body, &v); err != nil {
			b.g.fail("%s: action answer: %v", b.name, err)
			return false
		}
		ack.Version = v.Version
		b.acks = append(b.acks, ack)
		b.g.mu.Lock()
		b.g.res.Acked++
		b.g.mu.Unlock()
		etag := ""
		if b.g.cfg.KeepActionETag {
			etag = r.ETag
		}
		b.accept(v, etag, false)
		b.watchEffect(a, chosenIn)
		return true
	}
}

// watchEffect notes what an acknowledged action did, so that a later view of the
// same phase that shows it undone counts as a lost write.
func (b *device) watchEffect(a rules.Action, chosenIn View) {
	offered := func(typ rules.ActionType) func(View) bool {
		return func(v View) bool {
			return slices.ContainsFunc(v.Actions, func(o rules.Option) bool { return o.Type == typ })
		}
	}
	var lost func(View) bool
	switch a.Type {
	case rules.ActSleep, rules.ActKill, rules.ActCheck, rules.ActHeal, rules.ActProtect, rules.ActDefend, rules.ActShoot:
		lost = offered(a.Type)
	case rules.ActVote, rules.ActVoteAll:
		lost = func(v View) bool { return !slices.Contains(v.Phase.Voted, b.id) }
	case rules.ActEndSpeech:
		if chosenIn.Phase.Speaker == nil {
			return
		}
		left := len(chosenIn.Phase.Queue)
		lost = func(v View) bool {
			return v.Phase.Speaker != nil && *v.Phase.Speaker == b.id && len(v.Phase.Queue) == left
		}
	default:
		return
	}
	b.watch = append(b.watch, effect{what: string(a.Type) + " " + a.Target, lost: lost, phase: bot.Step(chosenIn.View)})
	if len(b.watch) > 32 {
		b.watch = b.watch[1:]
	}
}

// final reads the game-over view without If-None-Match, so that it has the whole
// event log, and checks this client's acknowledged actions against it.
func (b *device) final(ctx context.Context) {
	for try := 1; try <= 10; try++ {
		r, err := b.c.Do(ctx, "final", http.MethodGet, b.path(), b.token, nil, "")
		b.count("final")
		if retryable(r, err) {
			if !b.sleep(ctx, retryWait(r, try)) {
				return
			}
			continue
		}
		var v View
		if r.Status != http.StatusOK || json.Unmarshal(r.Body, &v) != nil || v.Winner == nil {
			b.g.fail("%s: final read: status %d", b.name, r.Status)
			return
		}
		c := Verify(v.Events, b.id, b.acks, b.unknown, b.refused, v.Rules.MissingVotesToLastNominee())
		for i, p := range c.Problems {
			c.Problems[i] = fmt.Sprintf("game %s (%s): %s", b.g.code, b.g.preset, p)
		}
		b.g.mu.Lock()
		defer b.g.mu.Unlock()
		b.g.res.Check.Add(c)
		if b.host {
			b.g.res.Winner, b.g.res.Version, b.g.res.Days = string(*v.Winner), v.Version, v.Phase.Day
		}
		b.done = true
		return
	}
}

// gathers reports whether an action in view v belongs to a moment when the
// whole table acts at once: a vote, or the night's tasks. (A bot waits at the
// gate once per step, before its first such action.)
func gathers(v rules.View, a rules.Action) bool {
	switch a.Type {
	case rules.ActVote, rules.ActVoteAll:
		return true
	}
	return v.Phase.Name == rules.PhaseNight
}

// play runs the client as a bot.Device until the game is over, then checks the
// final log.
func (b *device) play(ctx context.Context, mind bot.Mind, pace bot.Pace) {
	d := &bot.Device{Conn: b, Clock: bot.WallClock, Mind: mind, Pace: pace}
	if _, err := d.Play(ctx, b.view.View, 0); err != nil {
		if ctx.Err() == nil {
			b.g.fail("%s: %v", b.name, err)
		}
		return
	}
	b.final(ctx)
}

// pace is when a player acts: when a vote opens (or a night begins) the
// players of a game are held until all have seen it and then act in the same
// instant (Config.Burst); any other action waits a think time.
func (b *device) pace(ctx context.Context, v rules.View, a rules.Action, _ time.Time) (time.Time, bool) {
	cfg := b.g.cfg
	if cfg.Burst && gathers(v, a) {
		sig := bot.Step(v)
		if !b.passed[sig] {
			b.passed[sig] = true
			gt := b.g.gate(sig, v.Phase.Pending)
			hold := time.NewTimer(b.scaled(cfg.MaxHold))
			select {
			case <-gt.open:
			case <-b.g.over:
			case <-hold.C:
			case <-ctx.Done():
			}
			hold.Stop()
		}
		return time.Now(), true
	}
	if cfg.Think > 0 {
		return time.Now().Add(b.scaled(time.Duration(b.rng.Int64N(int64(cfg.Think))))), true
	}
	return time.Now(), true
}

// loadHost is the Mind of the host's screen: it removes seats whose join was
// applied but never answered, starts the game once every bot has its seat,
// and moves the game on if nothing has changed for a long time
// (Config.StuckAfter, by hostPace).
type loadHost struct{ g *game }

// Decide is bot.Mind's.
func (h loadHost) Decide(v rules.View) (rules.Action, bool) {
	has := func(typ rules.ActionType) bool {
		return slices.ContainsFunc(v.Actions, func(o rules.Option) bool { return o.Type == typ })
	}
	if v.Phase.Name != rules.PhaseLobby {
		return rules.Action{Type: rules.ActAdvance, Now: true}, has(rules.ActAdvance)
	}
	h.g.mu.Lock()
	defer h.g.mu.Unlock()
	for i, name := range h.g.ghosts {
		for _, p := range v.Players {
			if p.Name == name {
				h.g.ghosts = slices.Delete(h.g.ghosts, i, i+1)
				return rules.Action{Type: rules.ActKick, Target: p.ID}, true
			}
		}
	}
	full := h.g.joined == h.g.cfg.Players && len(v.Players) == h.g.cfg.Players
	return rules.Action{Type: rules.ActStart}, full && has(rules.ActStart)
}

// Acted is bot.Mind's.
func (loadHost) Acted(rules.View, rules.Action) {}

// hostPace sends "advance" once a step has gone unchanged for
// Config.StuckAfter (wall time), anything else at once.
func (b *device) hostPace(_ context.Context, _ rules.View, a rules.Action, since time.Time) (time.Time, bool) {
	if a.Type == rules.ActAdvance {
		return since.Add(b.g.cfg.StuckAfter), true
	}
	return time.Now(), true
}

// create opens the game with the host's client.
func (b *device) create(ctx context.Context) error {
	req := map[string]any{"preset": b.g.preset, "moderator": b.g.cfg.Moderator}
	if len(b.g.cfg.Timers) > 0 {
		req["options"] = b.g.cfg.Timers
	}
	for try := 1; ; try++ {
		r, err := b.c.JSON(ctx, "create", http.MethodPost, "/api/games", "", req)
		b.count("create")
		if retryable(r, err) && try < 10 && ctx.Err() == nil {
			b.sleep(ctx, retryWait(r, try))
			continue
		}
		if err != nil {
			return err
		}
		if r.Status != http.StatusCreated {
			return fmt.Errorf("create: status %d: %s", r.Status, r.Body)
		}
		var c Created
		if err := json.Unmarshal(r.Body, &c); err != nil {
			return err
		}
		b.g.code, b.g.host, b.token = c.Code, c.HostToken, c.HostToken
		b.accept(c.Game, "", false)
		return nil
	}
}

// join takes a seat.
func (b *device) join(ctx context.Context) error {
	body := map[string]string{"name": b.name}
	for try := 1; ; try++ {
		r, err := b.c.JSON(ctx, "join", http.MethodPost, b.path()+"/players", "", body)
		b.count("join")
		if retryable(r, err) && try < 10 && ctx.Err() == nil {
			// A join that was applied but not answered leaves a seat under
			// this name: the retry gets name_taken, and the bot takes another.
			b.sleep(ctx, retryWait(r, try))
			continue
		}
		if err != nil {
			return err
		}
		if r.Status == http.StatusConflict && r.ErrorCode() == rules.ErrNameTaken.Code && try > 1 && try < 10 {
			// The seat is ours, but its token was lost with the answer (a join
			// has no client id to retry with): ask the host to remove it, as a
			// player would, and join again under another name.
			b.g.mu.Lock()
			b.g.ghosts = append(b.g.ghosts, b.name)
			b.g.mu.Unlock()
			b.name += "'"
			continue
		}
		if r.Status == http.StatusConflict && r.ErrorCode() == rules.ErrTableFull.Code && try < 10 {
			b.sleep(ctx, time.Second) // until the host has removed the lost seat
			continue
		}
		if r.Status != http.StatusCreated {
			return fmt.Errorf("join as %q: status %d: %s", b.name, r.Status, r.Body)
		}
		var j Joined
		if err := json.Unmarshal(r.Body, &j); err != nil {
			return err
		}
		b.id, b.token = j.PlayerID, j.Token
		b.accept(j.Game, "", false)
		b.g.mu.Lock()
		b.g.joined++
		b.g.mu.Unlock()
		return nil
	}
}

// run plays one whole game: the host creates it, the players join at random
// moments of the join window, the host starts it, everybody plays to the end
// and checks the log.
func (g *game) run(ctx context.Context, firstBot int) GameResult {
	cfg := g.cfg
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, cfg.GameTimeout)
	defer cancel()
	g.res = GameResult{Index: g.index, Preset: g.preset, Requests: map[string]int{}}
	mk := func(i int, name string, host bool) *device {
		return g.device(i, name, host, NewClient(cfg.URL, SourceAddr(firstBot+i), cfg.Metrics))
	}
	hostBot := mk(0, "host", true)
	defer hostBot.c.Close()
	if err := hostBot.create(ctx); err != nil {
		g.fail("%v", err)
		g.res.Took = time.Since(start)
		return g.res
	}
	g.res.Code = g.code
	var wg sync.WaitGroup
	bots := []*device{hostBot}
	for i := 1; i <= cfg.Players; i++ {
		b := mk(i, fmt.Sprintf("Bot %d", i), false)
		defer b.c.Close()
		bots = append(bots, b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cfg.JoinWindow > 0 && !b.sleep(ctx, time.Duration(b.rng.Int64N(int64(cfg.JoinWindow)))) {
				return
			}
			if err := b.join(ctx); err != nil {
				g.fail("%v", err)
				cancel()
				return
			}
			b.play(ctx, &bot.Player{Rand: b.rng}, b.pace)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		hostBot.play(ctx, loadHost{g}, hostBot.hostPace)
	}()
	wg.Wait()
	return g.end(ctx, start, bots)
}

// device is the client number i of the game (0 its host, who plays as
// "host"), sending with c: its own bot, with its own choices (seeded by the
// game and i) and its own action ids.
func (g *game) device(i int, name string, host bool, c *Client) *device {
	seed := g.cfg.Seed*1_000_003 + uint64(g.index)*101 + uint64(i)
	b := &device{g: g, c: c, rng: rand.New(rand.NewPCG(seed, 7)),
		label: fmt.Sprintf("g%d-b%d", g.index, i), host: host, name: name, unknown: map[string]int{}, refused: map[string]int{}, passed: map[string]bool{}}
	if host {
		b.id = "host"
	}
	return b
}

// end closes the game's result once its clients have stopped, bots[0] its
// host: it finished when every one of them checked the final log.
func (g *game) end(ctx context.Context, start time.Time, bots []*device) GameResult {
	g.res.Took = time.Since(start)
	g.res.Finished = true
	for _, b := range bots {
		if !b.done {
			g.res.Finished = false
		}
	}
	if !g.res.Finished && ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		g.fail("game %s (%s) not over after %v: phase %s day %d", g.code, g.preset, g.cfg.GameTimeout, bots[0].view.Phase.Name, bots[0].view.Phase.Day)
	}
	return g.res
}
