package loadgen

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"time"

	"citysleeps/shared/bot"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// A real game is what the bill is about: ten people and a shared screen for
// three quarters of an hour, at the server's own poll hints, with people's
// pace — speeches that use most of their minute, votes cast a few seconds after
// the vote opens, night tasks done in ten. The load run cannot show that: its
// bots act at once, on short timers, so its games have another shape. PlayReal
// plays such a game in virtual time instead, through the real HTTP handler and
// service on the memory store, and counts every request the phones and the
// screen make. Each client is a bot.Device, as in the load run, on a virtual
// clock: a 40-minute game takes about a second.

// Human is how long people at a real table take. Each range is [min, max),
// drawn uniformly.
type Human struct {
	// Join: from the game's creation to a player's join (scanning the QR code).
	Join [2]time.Duration
	// Start: from the last join to the host's start.
	Start [2]time.Duration
	// SpeechUse: the share of a speech's time a speaker uses before "thank
	// you"; above 1 the clock ends the speech first. The same for defences,
	// last words and introductions.
	SpeechUse [2]float64
	// NominateAt: when in a speech a speaker nominates, as a share of it.
	NominateAt [2]float64
	// Vote: from seeing a vote open to voting.
	Vote [2]time.Duration
	// Night: from seeing the night to a night task (a kill, a check, "sleep").
	Night [2]time.Duration
	// Other: a testament, a reveal, a raised hand.
	Other [2]time.Duration
	// Moderator: from a step's time running out to a person moderating
	// pressing "next".
	Moderator [2]time.Duration
}

// People is the default Human: a table that knows the game.
var People = Human{
	Join:       [2]time.Duration{10 * time.Second, 90 * time.Second},
	Start:      [2]time.Duration{10 * time.Second, 30 * time.Second},
	SpeechUse:  [2]float64{0.45, 1.15},
	NominateAt: [2]float64{0.2, 0.7},
	Vote:       [2]time.Duration{2 * time.Second, 8 * time.Second},
	Night:      [2]time.Duration{4 * time.Second, 18 * time.Second},
	Other:      [2]time.Duration{4 * time.Second, 15 * time.Second},
	Moderator:  [2]time.Duration{time.Second, 4 * time.Second},
}

// RealGame is one game played by PlayReal.
type RealGame struct {
	Preset    string
	Moderator string
	Winner    string
	Days      int
	Minutes   float64 // from the create to the game-over view reaching the screen
	// Kinds is what the requests cost, by kind (KindPoll304, KindAction…), as
	// the Meter counted them.
	Kinds map[string]KindCost
	// PhonePolls and ScreenPolls count the polls of the phones and of the
	// screens (the shared screen, and the moderator's console when a person
	// moderates); Screens is how many screens there were.
	PhonePolls, ScreenPolls, Screens int
	// Opened is, for each step the game opened, how long it took each client to
	// show it, by the client's kind (ClientPhone, ClientScreen, ClientConsole).
	Opened map[string][]time.Duration
	// Public is, for each change of what everyone may see, how long it took
	// each client to show it, by the client's kind.
	Public map[string][]time.Duration
	// Play is how long the game was played, from the host's start to the end,
	// pauses left out; HandOvers is how much of it went in hand-overs: the
	// table waiting between a step that ended early and the next.
	Play, HandOvers time.Duration
	// Busiest is the most API requests the whole table (every phone and
	// screen) sent in any PeakWindow: what one home's address sends, behind a
	// NAT, against a per-address limit at the edge.
	Busiest int
}

// PeakWindow is the window of RealGame.Busiest: the window of the edge's
// per-address rate limit (template.yaml's EdgeLimits).
const PeakWindow = 5 * time.Minute

// The kinds of client, for RealGame.Opened.
const (
	ClientPhone   = "phone"   // a player's phone
	ClientScreen  = "screen"  // the shared screen
	ClientConsole = "console" // the moderator's console, when a person moderates
)

// ClientKinds lists the client kinds in report order.
var ClientKinds = []string{ClientPhone, ClientScreen, ClientConsole}

// Latency is how long a poll's answer takes to reach its page after the
// server has read the game, and so how much later than the server's read the
// page shows it and starts the wait for its next poll.
const Latency = 100 * time.Millisecond

// PlayReal plays one game of preset with ten players in virtual time and
// returns what it cost. moderator is rules.ModeratorApp, or
// rules.ModeratorHost for a person moderating from a console (with the shared
// screen beside it), who ends each step a little after its time is up.
// handOver, when not nil, is the hand-over in seconds the host chose instead
// of the preset's. seed decides everything: the deal, the people's pace and
// choices. It gives up with ctx's error when ctx ends first: a 40-minute game
// takes about a second, many times that under the race detector.
func PlayReal(ctx context.Context, preset, moderator string, seed uint64, h Human, handOver *int) (RealGame, error) {
	sim := newRealTable(seed, h, moderator)
	if err := sim.play(ctx, preset, handOver); err != nil {
		return RealGame{}, fmt.Errorf("%s (%s) seed %d: %w", preset, moderator, seed, err)
	}
	return sim.result(preset), nil
}

// realTable is one game in virtual time: the clock, the server on it and its
// clients, each a bot.Device on a goroutine of its own.
type realTable struct {
	clock     *virtualClock
	start     time.Time
	rng       *rand.Rand
	h         Human
	moderator string
	meter     *Meter
	api       http.Handler
	oracle    *service.Service // the same games, read without metering: what the server shows now
	code      string
	host      *realClient // the shared screen when the app moderates, else the console
	screen    *realClient // the shared screen beside a person's console; nil when the app moderates
	players   []*realClient
	actions   int   // actions sent, for their ids
	over      bool  // the host saw the game over
	err       error // the first thing that went wrong; it ends the game

	// What the server showed, as the oracle read it after every change and at
	// every deadline: each revision that was new to the public, and each step
	// it opened.
	changes  []shown
	openings []shown
	lastStep string
	deadSet  map[time.Time]bool // deadlines the oracle looks at
	sent     []time.Time        // when each request was sent, in order
	// The game's time as the oracle saw it: when play began (zero in the
	// lobby), and since when a hand-over or a pause has lasted (zero when none
	// does), with what both came to.
	playFrom, holdFrom, pauseFrom time.Time
	held, paused                  time.Duration
}

// revision orders the views of one game: the stored version, then the clock's
// transitions since.
type revision struct {
	version int64
	tick    int
}

func (r revision) before(o revision) bool {
	return r.version < o.version || (r.version == o.version && r.tick < o.tick)
}

// shown is a revision and a moment: when a client began to show it, or when
// the server opened or changed it.
type shown struct {
	at  time.Time
	rev revision
}

// realClient is one phone, screen or console: its page's line to the game
// (bot.Conn), polling as the frontend does.
type realClient struct {
	t       *realTable
	kind    string
	name    string
	token   string
	view    View
	etag    string
	hint    time.Duration
	polls   int
	history []shown // each newer revision the page showed, and when
}

// realGameLimit stops a game that has not ended after this much virtual time.
const realGameLimit = 4 * time.Hour

func newRealTable(seed uint64, h Human, moderator string) *realTable {
	// The stores check expiry against the real clock: start from it.
	start := time.Now().UTC().Truncate(time.Second)
	t := &realTable{
		clock: newVirtualClock(start), start: start,
		rng: rand.New(rand.NewPCG(seed, 0x7ab1e)),
		h:   h, moderator: moderator, deadSet: map[time.Time]bool{},
	}
	clock := t.clock.Now
	mem := store.NewMemory()
	t.meter = NewMeter(mem)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The handler and its service log as the functions do, their request
	// lines carrying the metrics as deployed, and the meter bills the lines'
	// bytes (CloudWatch Logs ingestion).
	logged := slog.New(t.meter.LogHandler())
	// Deals and codes from a seeded source, so that a seed replays the game.
	games := service.New(t.meter, service.WithClock(clock), service.WithLogger(logged),
		service.WithRand(rand.NewChaCha8(seedBytes(seed))))
	t.api = t.meter.Handler(httpapi.New(httpapi.Config{Games: games, Logger: logged, Now: clock, Metrics: LogMetricsNamespace}))
	t.oracle = service.New(mem, service.WithClock(clock), service.WithLogger(quiet))
	return t
}

func seedBytes(seed uint64) (b [32]byte) {
	for i := range 4 {
		for j := range 8 {
			b[i*8+j] = byte((seed + uint64(i)) >> (8 * j))
		}
	}
	return b
}

func (t *realTable) between(r [2]time.Duration) time.Duration {
	return r[0] + time.Duration(t.rng.Int64N(int64(max(1, r[1]-r[0]))))
}

func (t *realTable) share(r [2]float64) float64 { return r[0] + t.rng.Float64()*(r[1]-r[0]) }

// do sends one request to the handler at the current virtual time and returns
// the answer's status, body and ETag.
func (t *realTable) do(method, path, token string, body any, etag string) (int, []byte, string) {
	status, data, hdr := t.request(method, path, token, body, etag)
	return status, data, hdr.Get("ETag")
}

// request is do with all the answer's headers.
func (t *realTable) request(method, path, token string, body any, etag string) (int, []byte, http.Header) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.fail("%v", err)
			return 0, nil, nil
		}
		rd = bytes.NewReader(b)
	}
	t.sent = append(t.sent, t.clock.Now())
	req := httptest.NewRequest(method, path, rd)
	req.RemoteAddr = "127.0.0.1:1"
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept-Encoding", "gzip, deflate, br") // as every browser sends
	w := httptest.NewRecorder()
	t.api.ServeHTTP(w, req)
	data := w.Body.Bytes()
	if w.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(zr)
		}
		if err != nil {
			t.fail("%s %s: %v", method, path, err)
			return 0, nil, nil
		}
	}
	return w.Code, data, w.Header()
}

func (t *realTable) play(outer context.Context, preset string, handOver *int) error {
	create := map[string]any{"preset": preset, "lang": "en", "moderator": t.moderator}
	if handOver != nil {
		create["options"] = map[string]int{"handOver": *handOver}
	}
	status, body, _ := t.do(http.MethodPost, "/api/games", "", create, "")
	if status != http.StatusCreated {
		return fmt.Errorf("create: %d %s", status, body)
	}
	var c Created
	if err := json.Unmarshal(body, &c); err != nil {
		return err
	}
	t.code = c.Code
	ctx, stop := context.WithCancel(context.Background())
	now := t.clock.Now()
	t.host = &realClient{t: t, kind: ClientScreen, name: "screen", token: c.HostToken}
	if t.moderator == rules.ModeratorHost {
		t.host.kind, t.host.name = ClientConsole, "console"
		t.screen = &realClient{t: t, kind: ClientScreen, name: "screen"}
		t.clock.goAt(now, func() { t.seat(ctx, t.screen, nil, nil, rules.View{}, 0) })
	}
	t.host.accept(c.Game, "")
	wait := t.host.wait(c.Game.PollAfterMs)
	t.clock.goAt(now, func() { t.seat(ctx, t.host, realHost{t}, t.hostPace, c.Game.View, wait) })
	for i := range RealPlayers {
		p := &realClient{t: t, kind: ClientPhone, name: "Player " + strconv.Itoa(i+1)}
		t.players = append(t.players, p)
		t.clock.goAt(now.Add(t.between(t.h.Join)), func() {
			if ctx.Err() != nil {
				return // the game ended (it failed) before this player came
			}
			if v, ok := p.join(); ok {
				t.seat(ctx, p, &bot.Player{Rand: t.rng}, t.humanPace, v.View, p.wait(v.PollAfterMs))
			}
		})
	}
	t.watch()
	err := t.clock.run(outer, func() bool { return t.over || t.err != nil }, t.start.Add(realGameLimit), stop)
	switch {
	case t.err != nil:
		return t.err
	case outer.Err() != nil:
		return fmt.Errorf("stopped at %v of play: %w", t.clock.Now().Sub(t.start), outer.Err())
	case errors.Is(err, errOverTime):
		return fmt.Errorf("not over after %v", realGameLimit)
	case err != nil:
		return fmt.Errorf("the game stopped moving at %v: %w", t.clock.Now().Sub(t.start), err)
	}
	return nil
}

// seat runs c's page as a bot.Device from view v, the next poll wait away,
// until it sees the game over; the host's seeing it ends the game.
func (t *realTable) seat(ctx context.Context, c *realClient, mind bot.Mind, pace bot.Pace, v rules.View, wait time.Duration) {
	d := &bot.Device{Conn: c, Clock: t.clock, Mind: mind, Pace: pace}
	_, err := d.Play(ctx, v, wait)
	switch {
	case ctx.Err() != nil:
	case err != nil:
		t.fail("%s: %v", c.name, err)
	case c == t.host:
		t.over = true
	}
}

// clients lists every client: the phones, then the screens.
func (t *realTable) clients() []*realClient {
	out := append([]*realClient{}, t.players...)
	out = append(out, t.host)
	if t.screen != nil {
		out = append(out, t.screen)
	}
	return out
}

// fail records the first problem; play stops at it.
func (t *realTable) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf("at %v: "+format, append([]any{t.clock.Now().Sub(t.start)}, args...)...)
	}
}

// join takes the phone's seat and returns the join's view.
func (c *realClient) join() (View, bool) {
	t := c.t
	status, body, _ := t.do(http.MethodPost, "/api/games/"+t.code+"/players", "", map[string]string{"name": c.name}, "")
	var j Joined
	if status != http.StatusCreated || json.Unmarshal(body, &j) != nil {
		t.fail("%s: join: %d %s", c.name, status, body)
		return View{}, false
	}
	c.token = j.Token
	c.accept(j.Game, "")
	t.watch()
	return j.Game, true
}

// wait is how long the page waits before its next poll, as the frontend's
// Poller decides it: the server's hint, counted from when the answer reached
// the page. A hint of 0 (none given) keeps the last one.
func (c *realClient) wait(hintMs int64) time.Duration {
	if hintMs > 0 {
		c.hint = time.Duration(hintMs) * time.Millisecond
	}
	return Latency + min(max(c.hint, 250*time.Millisecond), 30*time.Second)
}

// Poll is bot.Conn's: a GET with the page's ETag.
func (c *realClient) Poll(context.Context) (rules.View, time.Duration, error) {
	status, body, etag, hint := c.t.get(c)
	c.polls++
	switch status {
	case http.StatusNotModified:
	case http.StatusOK:
		var v View
		if err := json.Unmarshal(body, &v); err != nil {
			return c.view.View, 0, fmt.Errorf("poll: %w", err)
		}
		c.accept(v, etag)
	default:
		return c.view.View, 0, fmt.Errorf("poll: %d %s", status, body)
	}
	return c.view.View, c.wait(hint), nil
}

// get reads c's view with its ETag and returns the status, body, new ETag
// and the poll hint the answer carried.
func (t *realTable) get(c *realClient) (int, []byte, string, int64) {
	status, body, hdr := t.request(http.MethodGet, "/api/games/"+t.code, c.token, nil, c.etag)
	hint, _ := strconv.ParseInt(hdr.Get("X-Poll-After-Ms"), 10, 64)
	if status == http.StatusOK && hint <= 0 {
		t.fail("%s: a view without %s", c.name, "X-Poll-After-Ms")
	}
	return status, body, hdr.Get("ETag"), hint
}

// accept takes a new view, from a poll or an answer; the page shows it
// Latency after the server made it.
func (c *realClient) accept(v View, etag string) {
	rev := revision{v.Version, v.Tick}
	if n := len(c.history); n == 0 || c.history[n-1].rev.before(rev) {
		c.history = append(c.history, shown{c.t.clock.Now().Add(Latency), rev})
	}
	c.view, c.etag = v, etag
}

// Act is bot.Conn's: it posts an action; its answer becomes the page's view,
// as in the frontend (which then polls without an ETag at the answer's hint).
func (c *realClient) Act(_ context.Context, a rules.Action) (rules.View, time.Duration, bool, error) {
	t := c.t
	t.actions++
	a.ID = "a" + strconv.Itoa(t.actions)
	status, body, _ := t.request(http.MethodPost, "/api/games/"+t.code+"/actions", c.token, a, "")
	switch {
	case status == http.StatusOK:
		var v View
		if err := json.Unmarshal(body, &v); err != nil {
			return c.view.View, 0, false, fmt.Errorf("%s: %w", a.Type, err)
		}
		c.accept(v, "")
		t.watch()
		return v.View, c.wait(v.PollAfterMs), true, nil
	case status == http.StatusConflict || status == http.StatusForbidden:
		// The step moved on under them (the clock, another's act, a reveal that
		// took them out): they look again at the next poll.
		return c.view.View, 0, false, nil
	}
	return c.view.View, 0, false, fmt.Errorf("%s: %d %s", a.Type, status, body)
}

// realHost is the Mind of the host's screen or console: it starts the game once
// the table is full and, when a person moderates, ends each step once its
// time is up, as the console shows it.
type realHost struct{ t *realTable }

// Decide is bot.Mind's.
func (h realHost) Decide(v rules.View) (rules.Action, bool) {
	switch {
	case v.Phase.Name == rules.PhaseLobby:
		return rules.Action{Type: rules.ActStart}, len(v.Players) >= RealPlayers
	case h.t.moderator != rules.ModeratorHost || v.Phase.EndsAt == nil || v.Phase.Closing || v.Phase.Resuming || v.Phase.Paused:
		return rules.Action{}, false
	}
	return rules.Action{Type: rules.ActAdvance}, true
}

// Acted is bot.Mind's.
func (realHost) Acted(rules.View, rules.Action) {}

// hostPace is how long the host takes: the start a little after the last
// join, "next" a little after the step's time is up.
func (t *realTable) hostPace(_ context.Context, v rules.View, a rules.Action, _ time.Time) (time.Time, bool) {
	now := t.clock.Now()
	if a.Type == rules.ActStart {
		return now.Add(t.between(t.h.Start)), true
	}
	return maxTime(*v.Phase.EndsAt, now).Add(t.between(t.h.Moderator)), true
}

// humanPace is when a person would take a in v, a step they first saw at
// first; false if they would still be talking when the step's time is up.
func (t *realTable) humanPace(_ context.Context, v rules.View, a rules.Action, first time.Time) (time.Time, bool) {
	now := t.clock.Now()
	span := time.Duration(0)
	if v.Phase.EndsAt != nil {
		span = v.Phase.EndsAt.Sub(first)
	}
	switch a.Type {
	case rules.ActEndSpeech:
		at := first.Add(time.Duration(t.share(t.h.SpeechUse) * float64(span)))
		if v.Phase.EndsAt != nil && !at.Before(*v.Phase.EndsAt) {
			return time.Time{}, false
		}
		return maxTime(at, now.Add(time.Second)), true
	case rules.ActNominate:
		return maxTime(first.Add(time.Duration(t.share(t.h.NominateAt)*float64(span))), now.Add(time.Second)), true
	case rules.ActVote, rules.ActVoteAll:
		return now.Add(t.between(t.h.Vote)), true
	case rules.ActKill, rules.ActCheck, rules.ActHeal, rules.ActProtect, rules.ActDefend, rules.ActShoot, rules.ActSleep:
		return now.Add(t.between(t.h.Night)), true
	}
	return now.Add(t.between(t.h.Other)), true
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// watch reads what the server shows everyone now, past the meter, after every
// change and at every deadline: it notes a revision new to the public and a
// step that opened, and plans to look again at the next deadline.
func (t *realTable) watch() {
	v, err := t.oracle.Read(context.Background(), t.code, "")
	if err != nil {
		t.fail("read the public view: %v", err)
		return
	}
	rev := revision{v.Version, v.Tick}
	if n := len(t.changes); n == 0 || t.changes[n-1].rev.before(rev) {
		t.changes = append(t.changes, shown{t.clock.Now(), rev})
	}
	open := !v.Phase.Closing && !v.Phase.Resuming && !v.Phase.Paused && v.Phase.Name != rules.PhaseLobby
	if key := stepKey(View{View: v}); open && key != t.lastStep {
		t.lastStep = key
		t.openings = append(t.openings, shown{t.clock.Now(), rev})
	}
	t.clockPlay(v.Phase)
	if e := v.Phase.EndsAt; e != nil && !t.deadSet[*e] {
		t.deadSet[*e] = true
		t.clock.at(*e, t.watch)
	}
}

// clockPlay adds the time since the oracle's last look to the game's play,
// hand-overs and pauses, as phase p now shows them: play begins with the
// host's start (the lobby closing) and ends with the game.
func (t *realTable) clockPlay(p rules.PhaseView) {
	now := t.clock.Now()
	hold := p.Closing || p.Resuming
	if t.playFrom.IsZero() && (p.Name != rules.PhaseLobby || hold) {
		t.playFrom = now
	}
	if !t.holdFrom.IsZero() && !hold {
		t.held += now.Sub(t.holdFrom)
		t.holdFrom = time.Time{}
	}
	if !t.pauseFrom.IsZero() && !p.Paused {
		t.paused += now.Sub(t.pauseFrom)
		t.pauseFrom = time.Time{}
	}
	switch {
	case t.playFrom.IsZero() || p.Name == rules.PhaseGameOver:
	case hold && t.holdFrom.IsZero():
		t.holdFrom = now
	case p.Paused && t.pauseFrom.IsZero():
		t.pauseFrom = now
	}
}

// stepKey names one step of the game as everyone sees it: a speech, a vote, a
// wake of the night, the end.
func stepKey(v View) string {
	speaker := ""
	if v.Phase.Speaker != nil {
		speaker = *v.Phase.Speaker
	}
	return fmt.Sprintf("%s|%d|%d|%d|%s|%s|%s", v.Phase.Name, v.Phase.Day, v.Phase.Night, v.Phase.Wake, v.Phase.Reason,
		strings.Join(v.Phase.Candidates, ","), speaker)
}

func (t *realTable) result(preset string) RealGame {
	g := RealGame{Preset: preset, Moderator: t.moderator, Minutes: t.clock.Now().Sub(t.start).Minutes(), Kinds: t.meter.Kinds(),
		Days: t.host.view.Phase.Day, Opened: map[string][]time.Duration{}, Public: map[string][]time.Duration{},
		Busiest: busiest(t.sent, PeakWindow), HandOvers: t.held}
	if over := t.lastOver(); !t.playFrom.IsZero() && over.After(t.playFrom) {
		g.Play = over.Sub(t.playFrom) - t.paused
	}
	if w := t.host.view.Winner; w != nil {
		g.Winner = string(*w)
	}
	for _, c := range t.clients() {
		if c.kind == ClientPhone {
			g.PhonePolls += c.polls
		} else {
			g.ScreenPolls += c.polls
			g.Screens++
		}
		for _, o := range t.openings {
			if d, ok := lag(c.history, o); ok {
				g.Opened[c.kind] = append(g.Opened[c.kind], d)
			}
		}
		for _, ch := range t.changes {
			if d, ok := lag(c.history, ch); ok {
				g.Public[c.kind] = append(g.Public[c.kind], d)
			}
		}
	}
	return g
}

// lastOver is when the oracle first saw the game over: the last change it
// noted.
func (t *realTable) lastOver() time.Time {
	if n := len(t.changes); n > 0 {
		return t.changes[n-1].at
	}
	return time.Time{}
}

// busiest is the most of the times, in order, that fall in any window of
// length w.
func busiest(times []time.Time, w time.Duration) int {
	most, first := 0, 0
	for last, at := range times {
		for at.Sub(times[first]) >= w {
			first++
		}
		most = max(most, last-first+1)
	}
	return most
}

// lag is how long after o a client whose page showed history first showed o's
// revision or a newer one; false if the page never did (the game ended
// first), or had not opened yet.
func lag(history []shown, o shown) (time.Duration, bool) {
	if len(history) == 0 || !history[0].at.Before(o.at) {
		return 0, false
	}
	i := sort.Search(len(history), func(i int) bool { return !history[i].rev.before(o.rev) })
	if i == len(history) {
		return 0, false
	}
	return max(history[i].at.Sub(o.at), 0), true
}
