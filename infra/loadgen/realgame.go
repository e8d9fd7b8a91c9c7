package loadgen

import (
	"bytes"
	"compress/gzip"
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

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
// screen make. Nothing sleeps: a 40-minute game takes about a second.

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
}

// RealGame is one game played by PlayReal.
type RealGame struct {
	Preset  string
	Winner  string
	Days    int
	Minutes float64 // from the create to the game-over view reaching the screen
	// Kinds is what the requests cost, by kind (KindPoll304, KindAction…), as
	// the Meter counted them.
	Kinds map[string]KindCost
	// PlayerPolls and ScreenPolls count the polls of the phones and of the screen.
	PlayerPolls, ScreenPolls int
	// Notice is, for each time a player was asked to act by a change they did
	// not make, how long the change took to reach their phone, by what they
	// were asked (NoticeSpeech, NoticeVote, NoticeNight, NoticeOther).
	Notice map[string][]time.Duration
}

// What a player may be asked to do, for RealGame.Notice.
const (
	NoticeSpeech = "speech" // their speech began (a monologue, defence, last word, introduction)
	NoticeVote   = "vote"   // a vote opened
	NoticeNight  = "night"  // the night fell on them
	NoticeOther  = "other"  // a testament, the Doctor's step
)

// PlayReal plays one app-moderated game of preset with ten players in virtual
// time and returns what it cost. seed decides everything: the deal, the
// people's pace and choices.
func PlayReal(preset string, seed uint64, h Human) (RealGame, error) {
	sim := newRealTable(seed, h)
	if err := sim.play(preset); err != nil {
		return RealGame{}, fmt.Errorf("%s seed %d: %w", preset, seed, err)
	}
	return sim.result(preset), nil
}

// realTable is one game in virtual time: a clock, the server on it, eleven
// clients and the queue of what happens next.
type realTable struct {
	now     time.Time
	start   time.Time
	rng     *rand.Rand
	h       Human
	meter   *Meter
	api     http.Handler
	oracle  *service.Service // the same games, read without metering: what each player is asked now
	code    string
	host    *realClient
	players []*realClient
	queue   events
	seq     int
	over    bool
	err     error // the first thing that went wrong; it ends the game

	asked   map[string]time.Time // player + phase instance: when the game first asked them to act in it
	deadSet map[time.Time]bool   // deadlines the oracle looks at
	notice  map[string][]time.Duration
	startAt bool // the host's start is planned
}

// realClient is one phone or the shared screen, polling as the frontend does.
type realClient struct {
	host     bool
	name     string
	token    string
	view     View
	etag     string
	hint     time.Duration
	gen      int                  // the current poll; older poll events are stale
	planned  map[string]bool      // phase instances in which the next action is decided
	firstAt  map[string]time.Time // when each phase instance was first seen
	noticed  map[string]bool      // phase instances in which being asked was already seen
	actGen   int                  // the current planned action; older ones are stale
	polls    int
	joinedAt time.Time
}

type event struct {
	at  time.Time
	seq int
	fn  func()
}

type events []event

func (e events) Len() int { return len(e) }
func (e events) Less(i, j int) bool {
	if !e[i].at.Equal(e[j].at) {
		return e[i].at.Before(e[j].at)
	}
	return e[i].seq < e[j].seq
}
func (e events) Swap(i, j int) { e[i], e[j] = e[j], e[i] }
func (e *events) Push(x any)   { *e = append(*e, x.(event)) }
func (e *events) Pop() any {
	old := *e
	x := old[len(old)-1]
	*e = old[:len(old)-1]
	return x
}

// realGameLimit stops a game that has not ended after this much virtual time.
const realGameLimit = 4 * time.Hour

func newRealTable(seed uint64, h Human) *realTable {
	t := &realTable{
		// The stores check expiry against the real clock: start from it.
		now: time.Now().UTC().Truncate(time.Second),
		rng: rand.New(rand.NewPCG(seed, 0x7ab1e)),
		h:   h, asked: map[string]time.Time{}, deadSet: map[time.Time]bool{}, notice: map[string][]time.Duration{},
	}
	t.start = t.now
	clock := func() time.Time { return t.now }
	mem := store.NewMemory()
	t.meter = NewMeter(mem)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	// Deals and codes from a seeded source, so that a seed replays the game.
	games := service.New(t.meter, service.WithClock(clock), service.WithLogger(quiet),
		service.WithRand(rand.NewChaCha8(seedBytes(seed))))
	t.api = t.meter.Handler(httpapi.New(httpapi.Config{Games: games, Logger: quiet, Now: clock}))
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

// at runs fn at virtual time when.
func (t *realTable) at(when time.Time, fn func()) {
	t.seq++
	heap.Push(&t.queue, event{at: when, seq: t.seq, fn: fn})
}

func (t *realTable) between(r [2]time.Duration) time.Duration {
	return r[0] + time.Duration(t.rng.Int64N(int64(max(1, r[1]-r[0]))))
}

func (t *realTable) share(r [2]float64) float64 { return r[0] + t.rng.Float64()*(r[1]-r[0]) }

// do sends one request to the handler at the current virtual time and returns
// the answer's status, body and ETag.
func (t *realTable) do(method, path, token string, body any, etag string) (int, []byte, string) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.fail("%v", err)
			return 0, nil, ""
		}
		rd = bytes.NewReader(b)
	}
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
			return 0, nil, ""
		}
	}
	return w.Code, data, w.Header().Get("ETag")
}

func (t *realTable) play(preset string) error {
	status, body, _ := t.do(http.MethodPost, "/api/games", "", map[string]any{"preset": preset, "lang": "en"}, "")
	if status != http.StatusCreated {
		return fmt.Errorf("create: %d %s", status, body)
	}
	var c Created
	if err := json.Unmarshal(body, &c); err != nil {
		return err
	}
	t.code = c.Code
	t.host = &realClient{host: true, name: "screen", token: c.HostToken}
	t.accept(t.host, c.Game, "", false)
	t.schedulePoll(t.host)
	for i := range RealPlayers {
		p := &realClient{name: "Player " + strconv.Itoa(i+1)}
		t.players = append(t.players, p)
		t.at(t.now.Add(t.between(t.h.Join)), func() { t.join(p) })
	}
	for t.queue.Len() > 0 && !t.over && t.err == nil {
		e := heap.Pop(&t.queue).(event)
		if e.at.Sub(t.start) > realGameLimit {
			return fmt.Errorf("not over after %v", realGameLimit)
		}
		t.now = e.at
		e.fn()
	}
	if t.err == nil && !t.over {
		t.err = fmt.Errorf("the game stopped moving at %v", t.now.Sub(t.start))
	}
	return t.err
}

// fail records the first problem; play stops at it.
func (t *realTable) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf("at %v: "+format, append([]any{t.now.Sub(t.start)}, args...)...)
	}
}

func (t *realTable) join(p *realClient) {
	status, body, _ := t.do(http.MethodPost, "/api/games/"+t.code+"/players", "", map[string]string{"name": p.name}, "")
	var j Joined
	if status != http.StatusCreated || json.Unmarshal(body, &j) != nil {
		t.fail("%s: join: %d %s", p.name, status, body)
		return
	}
	p.token, p.joinedAt = j.Token, t.now
	t.accept(p, j.Game, "", false)
	t.schedulePoll(p)
	t.watch()
}

// schedulePoll plans c's next poll as the frontend's Poller does: the last
// hint, cut short by the deadline when the app moderates.
func (t *realTable) schedulePoll(c *realClient) {
	c.gen++
	gen := c.gen
	d := c.hint
	if d <= 0 {
		d = 2 * time.Second
	}
	d = min(max(d, 250*time.Millisecond), 30*time.Second)
	if e := c.view.Phase.EndsAt; e != nil && c.view.Moderator == rules.ModeratorApp {
		if left := e.Sub(t.now) + deadlineSlack; left > 0 && left < d {
			d = left
		}
	}
	t.at(t.now.Add(d), func() {
		if c.gen == gen {
			t.poll(c)
		}
	})
}

func (t *realTable) poll(c *realClient) {
	status, body, etag := t.do(http.MethodGet, "/api/games/"+t.code, c.token, nil, c.etag)
	c.polls++
	switch status {
	case http.StatusNotModified:
	case http.StatusOK:
		var v View
		if err := json.Unmarshal(body, &v); err != nil {
			t.fail("%s: poll: %v", c.name, err)
			return
		}
		t.accept(c, v, etag, true)
	default:
		t.fail("%s: poll: %d %s", c.name, status, body)
		return
	}
	if c.host && c.view.Winner != nil {
		t.over = true
		return
	}
	t.schedulePoll(c)
}

// accept takes a new view: from a poll (fromPoll), or an answer.
func (t *realTable) accept(c *realClient, v View, etag string, fromPoll bool) {
	if c.planned == nil {
		c.planned, c.firstAt, c.noticed = map[string]bool{}, map[string]time.Time{}, map[string]bool{}
	}
	id := phaseID(v)
	if _, ok := c.firstAt[id]; !ok {
		c.firstAt[id] = t.now
	}
	if !c.host && Awaits(v) && !c.noticed[id] {
		c.noticed[id] = true
		if asked, ok := t.asked[c.token+"|"+id]; ok && fromPoll {
			t.notice[noticeKind(v)] = append(t.notice[noticeKind(v)], t.now.Sub(asked))
		}
	}
	c.view, c.etag = v, etag
	if v.PollAfterMs > 0 {
		c.hint = time.Duration(v.PollAfterMs) * time.Millisecond
	}
	if c.host {
		t.hostPlans(c)
	} else {
		t.plan(c)
	}
}

// hostPlans starts the game a little after the table is full.
func (t *realTable) hostPlans(c *realClient) {
	if t.startAt || c.view.Phase.Name != rules.PhaseLobby || len(c.view.Players) < RealPlayers {
		return
	}
	t.startAt = true
	t.at(t.now.Add(t.between(t.h.Start)), func() {
		t.send(c, rules.Action{Type: rules.ActStart})
	})
}

// plan decides a player's next action in the phase instance they see, once per
// instance (and again after each of their own actions in it), and when a
// person would take it.
func (t *realTable) plan(c *realClient) {
	v := c.view
	id := phaseID(v)
	if c.planned[id] || v.Winner != nil {
		return
	}
	c.planned[id] = true
	a, ok := Choose(v, t.rng)
	if !ok {
		return
	}
	when, ok := t.humanTime(c, v, a)
	if !ok {
		return // the clock will end it first
	}
	c.actGen++
	gen := c.actGen
	t.at(when, func() {
		if c.actGen == gen && phaseID(c.view) == id {
			t.send(c, a)
		}
	})
}

// humanTime is when a person would take a in v; false if they would still be
// talking when the clock ends the step.
func (t *realTable) humanTime(c *realClient, v View, a rules.Action) (time.Time, bool) {
	first := c.firstAt[phaseID(v)]
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
		return maxTime(at, t.now.Add(time.Second)), true
	case rules.ActNominate:
		return maxTime(first.Add(time.Duration(t.share(t.h.NominateAt)*float64(span))), t.now.Add(time.Second)), true
	case rules.ActVote, rules.ActVoteAll:
		return t.now.Add(t.between(t.h.Vote)), true
	case rules.ActKill, rules.ActCheck, rules.ActHeal, rules.ActProtect, rules.ActDefend, rules.ActShoot, rules.ActSleep:
		return t.now.Add(t.between(t.h.Night)), true
	}
	return t.now.Add(t.between(t.h.Other)), true
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// send posts an action; its answer becomes the client's view, as in the
// frontend (which then polls without an ETag at the answer's hint).
func (t *realTable) send(c *realClient, a rules.Action) {
	t.seq++
	a.ID = "a" + strconv.Itoa(t.seq)
	status, body, _ := t.do(http.MethodPost, "/api/games/"+t.code+"/actions", c.token, a, "")
	switch {
	case status == http.StatusOK:
		var v View
		if err := json.Unmarshal(body, &v); err != nil {
			t.fail("%s: %s: %v", c.name, a.Type, err)
			return
		}
		delete(c.planned, phaseID(v)) // they may have more to do in this step
		t.accept(c, v, "", false)
		t.schedulePoll(c)
		t.watch()
	case status == http.StatusConflict || status == http.StatusForbidden:
		// The step moved on under them (the clock, another's act, a reveal that
		// took them out): they look again.
	default:
		t.fail("%s: %s: %d %s", c.name, a.Type, status, body)
	}
}

// watch notes, after every change and at every deadline, which players the game
// now asks to act and since when, from each player's own view read past the
// meter; and plans to look again at the next deadline.
func (t *realTable) watch() {
	ctx := context.Background()
	for _, p := range t.players {
		if p.token == "" {
			continue
		}
		rv, err := t.oracle.Read(ctx, t.code, p.token)
		if err != nil {
			t.fail("read %s: %v", p.name, err)
			return
		}
		v := View{View: rv}
		if !Awaits(v) {
			continue
		}
		key := p.token + "|" + phaseID(v)
		if _, ok := t.asked[key]; !ok {
			t.asked[key] = t.now
		}
	}
	hv, err := t.oracle.Read(ctx, t.code, t.host.token)
	if err != nil {
		t.fail("read the host's view: %v", err)
		return
	}
	if e := hv.Phase.EndsAt; e != nil && !t.deadSet[*e] {
		t.deadSet[*e] = true
		t.at(e.Add(time.Millisecond), t.watch)
	}
}

// noticeKind files what v asks of its player.
func noticeKind(v View) string {
	for _, o := range v.Actions {
		switch o.Type {
		case rules.ActEndSpeech, rules.ActNominate:
			return NoticeSpeech
		case rules.ActVote, rules.ActVoteAll:
			return NoticeVote
		}
	}
	if v.Phase.Name == rules.PhaseNight {
		return NoticeNight
	}
	return NoticeOther
}

func (t *realTable) result(preset string) RealGame {
	g := RealGame{Preset: preset, Minutes: t.now.Sub(t.start).Minutes(), Kinds: t.meter.Kinds(),
		ScreenPolls: t.host.polls, Notice: t.notice, Days: t.host.view.Phase.Day}
	if w := t.host.view.Winner; w != nil {
		g.Winner = string(*w)
	}
	for _, p := range t.players {
		g.PlayerPolls += p.polls
	}
	return g
}

// NoticeKinds lists the notice kinds in report order.
var NoticeKinds = []string{NoticeSpeech, NoticeVote, NoticeNight, NoticeOther}
