package service_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// clock is a hand-moved clock for the service and the store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixture is a service on a memory store, both on one hand-moved clock.
type fixture struct {
	svc *service.Service
	st  *store.Memory
	clk *clock
}

func newFixture(t *testing.T, opts ...service.Option) fixture {
	t.Helper()
	clk := newClock()
	st := store.NewMemory()
	st.SetNow(clk.Now)
	opts = append([]service.Option{service.WithClock(clk.Now), service.WithLogger(quiet)}, opts...)
	return fixture{svc: service.New(st, opts...), st: st, clk: clk}
}

func (f fixture) item(t *testing.T, code string) store.Item {
	t.Helper()
	it, err := f.st.Get(context.Background(), code, true)
	if err != nil {
		t.Fatalf("get %s: %v", code, err)
	}
	return it
}

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: err = %v, want %v", what, err, target)
	}
}

func act(typ rules.ActionType) rules.Action {
	return rules.Action{ID: servicetest.ActionID(), Type: typ}
}

var ctx = context.Background()

func TestCreateDefaults(t *testing.T) {
	f := newFixture(t)
	c, err := f.svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Read(ctx, c.Code, ""); err != nil {
		t.Fatalf("the new game cannot be read: %v", err)
	}
	g := c.Game
	if g.Code != c.Code || g.Version != 1 || g.Moderator != rules.ModeratorApp || g.Lang != "en" || g.Phase.Name != rules.PhaseLobby {
		t.Errorf("new game view = code %q version %d moderator %q lang %q phase %q; want %q, 1, app, en, lobby",
			g.Code, g.Version, g.Moderator, g.Lang, g.Phase.Name, c.Code)
	}
	want, _ := rules.Preset("sport")
	if g.Rules != want {
		t.Errorf("rules = %+v, want the sport preset", g.Rules)
	}
	if !slices.ContainsFunc(g.Actions, func(o rules.Option) bool { return o.Type == rules.ActConfigure }) {
		t.Errorf("the creator's view is not the host's: actions %+v", g.Actions)
	}
	if len(c.HostToken) < 22 {
		t.Errorf("host token %q is shorter than 128 bits in base64", c.HostToken)
	}
	for i := 0; i < len(c.Code); i++ {
		if !strings.ContainsRune(service.CodeAlphabet, rune(c.Code[i])) {
			t.Errorf("code %q has %q, not in the alphabet", c.Code, c.Code[i])
		}
	}
	if strings.Contains(string(f.item(t, c.Code).State), c.HostToken) {
		t.Error("the host token is stored in clear")
	}
}

func TestCreateOptions(t *testing.T) {
	f := newFixture(t)
	c, err := f.svc.Create(ctx, service.CreateRequest{Preset: "classic", Moderator: "host", Lang: "ru",
		Options: json.RawMessage(`{"speech": 45, "doctor": true, "preset": "classic"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := rules.Preset("classic")
	want.Speech, want.Doctor = 45, true
	if c.Game.Rules != want || c.Game.Moderator != "host" || c.Game.Lang != "ru" {
		t.Errorf("game = rules %+v moderator %q lang %q; want %+v, host, ru", c.Game.Rules, c.Game.Moderator, c.Game.Lang, want)
	}
	if _, err := f.svc.Create(ctx, service.CreateRequest{Preset: "party", Options: json.RawMessage(" null ")}); err != nil {
		t.Errorf("options null: %v", err)
	}
}

func TestCreateRefusesBadRequests(t *testing.T) {
	f := newFixture(t)
	cases := map[string]service.CreateRequest{
		"no preset":          {},
		"unknown preset":     {Preset: "poker"},
		"unknown option":     {Preset: "sport", Options: json.RawMessage(`{"speach": 30}`)},
		"option wrong type":  {Preset: "sport", Options: json.RawMessage(`{"speech": "long"}`)},
		"options not object": {Preset: "sport", Options: json.RawMessage(`[1]`)},
		"two objects":        {Preset: "sport", Options: json.RawMessage(`{} {}`)},
		"malformed":          {Preset: "sport", Options: json.RawMessage(`{"speech": 3`)},
		"preset mismatch":    {Preset: "sport", Options: json.RawMessage(`{"preset": "classic"}`)},
		"invalid rules":      {Preset: "sport", Options: json.RawMessage(`{"speech": 1}`)},
		"inconsistent rules": {Preset: "sport", Options: json.RawMessage(`{"don": false}`)},
		"bad moderator":      {Preset: "sport", Moderator: "bot"},
		"bad lang":           {Preset: "sport", Lang: "de"},
	}
	for name, req := range cases {
		_, err := f.svc.Create(ctx, req)
		if !errors.Is(err, service.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
			continue
		}
		if msg := service.As(err).Message; msg == "" || strings.Contains(msg, "json:") || strings.Contains(msg, "Go") {
			t.Errorf("%s: client message %q is not for clients", name, msg)
		}
		t.Logf("%s: %s", name, service.As(err).Message)
	}
}

func TestJoin(t *testing.T) {
	f := newFixture(t)
	c, _ := f.svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	j, err := f.svc.Join(ctx, strings.ToLower(c.Code), service.JoinRequest{Name: "  Анна \t  Каренина "})
	if err != nil {
		t.Fatal(err)
	}
	if j.Game.You == nil || j.Game.You.ID != j.PlayerID || j.Game.Version != 2 {
		t.Fatalf("joined view: you %+v version %d; want %s at version 2", j.Game.You, j.Game.Version, j.PlayerID)
	}
	if name := j.Game.Players[0].Name; name != "Анна Каренина" {
		t.Errorf("name stored as %q, want trimmed and collapsed", name)
	}
	_, err = f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Анна Каренина"})
	wantErr(t, "same name again", err, rules.ErrNameTaken)
	for _, bad := range []string{"", " \t ", strings.Repeat("я", rules.MaxName+1), "bell\a", "\u202Eevil"} {
		_, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: bad})
		wantErr(t, fmt.Sprintf("name %q", bad), err, service.ErrInvalid)
	}
	_, err = f.svc.Join(ctx, "ZZZZZZ", service.JoinRequest{Name: "Bob"})
	wantErr(t, "unknown game", err, service.ErrNotFound)
	_, err = f.svc.Join(ctx, "../etc", service.JoinRequest{Name: "Bob"})
	wantErr(t, "malformed code", err, service.ErrNotFound)
	if v := f.item(t, c.Code).Version; v != 2 {
		t.Errorf("refused joins changed the version to %d", v)
	}
}

func TestJoinClosedAfterStart(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(t, f.svc)
	_, err := f.svc.Join(ctx, g.Code, service.JoinRequest{Name: "Late"})
	wantErr(t, "join after start", err, rules.ErrWrongPhase)
}

func TestViewers(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	other := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 1)
	g.Start(t, f.svc)

	pub, err := f.svc.Read(ctx, g.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if pub.You != nil || len(pub.Actions) != 0 {
		t.Errorf("public view has you %+v, actions %+v", pub.You, pub.Actions)
	}
	for _, p := range pub.Players {
		if p.Role != "" {
			t.Errorf("public view shows %s's role", p.ID)
		}
	}
	host, err := f.svc.Read(ctx, g.Code, g.Host)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(host.Actions, func(o rules.Option) bool { return o.Type == rules.ActPause }) {
		t.Errorf("host view lacks host actions: %+v", host.Actions)
	}
	p := g.Players[3]
	mine, err := f.svc.Read(ctx, g.Code, p.Token)
	if err != nil {
		t.Fatal(err)
	}
	if mine.You == nil || mine.You.ID != p.ID || mine.You.Role == "" {
		t.Errorf("player view: you = %+v, want %s with a role", mine.You, p.ID)
	}
	if pub.Version != host.Version || host.Version != mine.Version || mine.Version != f.item(t, g.Code).Version {
		t.Errorf("versions %d, %d, %d differ from the stored %d", pub.Version, host.Version, mine.Version, f.item(t, g.Code).Version)
	}

	forged := make([]byte, 18)
	rand.Read(forged)
	for name, tok := range map[string]string{
		"forged":          base64.RawURLEncoding.EncodeToString(forged),
		"host's, altered": g.Host[:len(g.Host)-1] + map[bool]string{true: "B", false: "A"}[g.Host[len(g.Host)-1] == 'A'],
		"other game host": other.Host,
		"other player":    other.Players[0].Token,
		"malformed":       "Bearer x",
		"too long":        g.Host + g.Host,
	} {
		_, err := f.svc.Read(ctx, g.Code, tok)
		wantErr(t, "read with "+name+" token", err, service.ErrUnauthorized)
		_, err = f.svc.Act(ctx, g.Code, tok, act(rules.ActPause))
		wantErr(t, "act with "+name+" token", err, service.ErrUnauthorized)
	}
	_, err = f.svc.Act(ctx, g.Code, "", act(rules.ActPause))
	wantErr(t, "act without a token", err, service.ErrUnauthorized)
}

// TestTableOfEverySeat: a player's answer is padded to the longest view any
// seat has of its revision, by a noise that must be the same for every seat
// (or the lengths would differ by card) and fresh at every revision (or it
// would hide nothing of how the longest view grows). The shared screen and
// the host have no seat, and nothing to pad.
func TestTableOfEverySeat(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(t, f.svc)
	noises := map[int64]uint64{}
	for _, p := range g.Players {
		tb, err := f.svc.ReadTable(ctx, g.Code, p.Token)
		if err != nil {
			t.Fatal(err)
		}
		if len(tb.Seats) != len(g.Players) || tb.Seats[len(tb.Seats)-1].You.ID != p.ID || tb.View.You.ID != p.ID {
			t.Fatalf("%s's table: %d seats, the last %s's", p.ID, len(tb.Seats), tb.Seats[len(tb.Seats)-1].You.ID)
		}
		ids := map[string]bool{}
		for _, v := range tb.Seats {
			ids[v.You.ID] = v.Version == tb.View.Version
		}
		for _, q := range g.Players {
			if !ids[q.ID] {
				t.Errorf("%s's table lacks %s's view at version %d", p.ID, q.ID, tb.View.Version)
			}
		}
		if n, ok := noises[tb.View.Version]; ok && n != tb.Noise {
			t.Errorf("%s's noise %x, another seat's %x at the same revision", p.ID, tb.Noise, n)
		}
		noises[tb.View.Version] = tb.Noise
		acted, err := f.svc.ActTable(ctx, g.Code, p.Token, act(rules.ActSleep))
		if err != nil {
			t.Fatal(err)
		}
		if acted.View.Version == tb.View.Version || acted.Noise == tb.Noise {
			t.Errorf("%s's sleep: version %d and noise %x, as before it", p.ID, acted.View.Version, acted.Noise)
		}
	}
	for _, token := range []string{"", g.Host} {
		if tb, err := f.svc.ReadTable(ctx, g.Code, token); err != nil || tb.Seats != nil {
			t.Errorf("a table without a seat: %d seats, %v", len(tb.Seats), err)
		}
	}
}

func TestLeavingForgetsToken(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 2)
	v := servicetest.MustAct(t, f.svc, g.Code, g.Players[0].Token, act(rules.ActLeave))
	if len(v.Players) != 1 || len(v.Actions) != 0 {
		t.Errorf("after leaving: players %+v actions %+v", v.Players, v.Actions)
	}
	_, err := f.svc.Read(ctx, g.Code, g.Players[0].Token)
	wantErr(t, "read by a player who left", err, service.ErrUnauthorized)
	servicetest.MustAct(t, f.svc, g.Code, g.Host, rules.Action{ID: "kick", Type: rules.ActKick, Target: g.Players[1].ID})
	_, err = f.svc.Read(ctx, g.Code, g.Players[1].Token)
	wantErr(t, "read by a kicked player", err, service.ErrUnauthorized)
}

func TestActionIDs(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	before := f.item(t, g.Code).Version
	for _, id := range []string{"", strings.Repeat("a", 65), "a b", "a/b", "ид", "a.b"} {
		_, err := f.svc.Act(ctx, g.Code, g.Host, rules.Action{ID: id, Type: rules.ActStart})
		wantErr(t, fmt.Sprintf("id %q", id), err, service.ErrInvalid)
	}
	if v := f.item(t, g.Code).Version; v != before {
		t.Errorf("bad ids changed the version from %d to %d", before, v)
	}
}

func TestReplayAppliesOnce(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(t, f.svc)
	warn := rules.Action{ID: "warn-1", Type: rules.ActWarn, Target: g.Players[0].ID}
	v1 := servicetest.MustAct(t, f.svc, g.Code, g.Host, warn)
	v2 := servicetest.MustAct(t, f.svc, g.Code, g.Host, warn)
	if v1.Version != v2.Version || v2.Version != f.item(t, g.Code).Version {
		t.Errorf("replay: versions %d then %d, stored %d; want no new version", v1.Version, v2.Version, f.item(t, g.Code).Version)
	}
	if w := v2.Players[slices.IndexFunc(v2.Players, func(p rules.PlayerView) bool { return p.ID == warn.Target })].Warnings; w != 1 {
		t.Errorf("warnings after the same warn twice = %d, want 1", w)
	}
	// The same id from another actor is another action.
	p := g.Players[1]
	night := servicetest.MustAct(t, f.svc, g.Code, p.Token, rules.Action{ID: "warn-1", Type: rules.ActSleep})
	if night.You == nil || !night.You.Done {
		t.Errorf("a player's action with the host's id was not applied: you %+v", night.You)
	}
	// A replay answers with the actor's own current view.
	again, err := f.svc.Act(ctx, g.Code, p.Token, rules.Action{ID: "warn-1", Type: rules.ActSleep})
	if err != nil || again.You == nil || again.You.ID != p.ID || again.Version != night.Version {
		t.Errorf("replayed sleep: %v, you %+v, version %d; want %s's view at %d", err, again.You, again.Version, p.ID, night.Version)
	}
}

func TestReplayInParallelAppliesOnce(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(t, f.svc)
	before := f.item(t, g.Code).Version
	warn := rules.Action{ID: "same-warn", Type: rules.ActWarn, Target: g.Players[4].ID}
	const n = 32
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			<-start
			for {
				_, err := f.svc.Act(ctx, g.Code, g.Host, warn)
				if servicetest.IsRetryable(err) {
					continue
				}
				errs <- err
				return
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("parallel replay: %v", err)
		}
	}
	host := servicetest.MustRead(t, f.svc, g.Code, g.Host)
	if host.Version != before+1 {
		t.Errorf("version went from %d to %d, want one write", before, host.Version)
	}
	for _, p := range host.Players {
		if want := map[bool]int{true: 1}[p.ID == warn.Target]; p.Warnings != want {
			t.Errorf("%s has %d warnings, want %d", p.ID, p.Warnings, want)
		}
	}
}

func TestRefusedActionChangesNothing(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	p := g.Players[0]
	before := f.item(t, g.Code)
	refusals := []struct {
		token string
		a     rules.Action
		want  error
	}{
		{p.Token, act(rules.ActStart), rules.ErrNotHost},
		{p.Token, act(rules.ActVote), rules.ErrWrongPhase},
		{g.Host, act(rules.ActLeave), rules.ErrNotPlayer},
		{g.Host, act("dance"), rules.ErrUnknownAction},
		{g.Host, rules.Action{ID: servicetest.ActionID(), Type: rules.ActKick, Target: "p99"}, rules.ErrBadTarget},
	}
	for _, r := range refusals {
		_, err := f.svc.Act(ctx, g.Code, r.token, r.a)
		wantErr(t, string(r.a.Type), err, r.want)
		if _, ok := rules.AsError(err); !ok {
			t.Errorf("%s: refusal %T is not a *rules.Error", r.a.Type, err)
		}
	}
	after := f.item(t, g.Code)
	if after.Version != before.Version || !bytes.Equal(after.State, before.State) {
		t.Errorf("refused actions changed the game: version %d → %d", before.Version, after.Version)
	}
	// A refused id is not remembered: the same id may be used once it is legal.
	id := servicetest.ActionID()
	_, err := f.svc.Act(ctx, g.Code, g.Host, rules.Action{ID: id, Type: rules.ActPause})
	wantErr(t, "pause in the lobby", err, rules.ErrWrongPhase)
	if v := g.Start(t, f.svc); v.Phase.Name != rules.PhaseNight {
		t.Fatalf("after start: phase %s", v.Phase.Name)
	}
	if v := servicetest.MustAct(t, f.svc, g.Code, g.Host, rules.Action{ID: id, Type: rules.ActPause}); !v.Phase.Paused {
		t.Error("an id refused once was taken as already applied")
	}
}

func TestTTLRefreshedOnEveryWrite(t *testing.T) {
	f := newFixture(t, service.WithTTL(10*time.Hour))
	c, _ := f.svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	t0 := f.clk.Now()
	if got := f.item(t, c.Code).ExpiresAt; !got.Equal(t0.Add(10 * time.Hour)) {
		t.Errorf("expiry after create = %v, want %v", got, t0.Add(10*time.Hour))
	}
	f.clk.Add(9 * time.Hour)
	if _, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Bob"}); err != nil {
		t.Fatal(err)
	}
	if got, want := f.item(t, c.Code).ExpiresAt, t0.Add(19*time.Hour); !got.Equal(want) {
		t.Errorf("expiry after a join 9 h later = %v, want %v", got, want)
	}
	f.clk.Add(9 * time.Hour)
	if _, err := f.svc.Read(ctx, c.Code, ""); err != nil {
		t.Errorf("game expired although it was written 9 h ago with a 10 h TTL: %v", err)
	}
	f.clk.Add(time.Hour)
	_, err := f.svc.Read(ctx, c.Code, "")
	wantErr(t, "read after the TTL", err, service.ErrNotFound)

	d := newFixture(t)
	c, _ = d.svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	if got, want := d.item(t, c.Code).ExpiresAt, d.clk.Now().Add(48*time.Hour); !got.Equal(want) {
		t.Errorf("default expiry = %v, want 48 h on: %v", got, want)
	}
}

// TestReadShowsDueTransition: a poll after a deadline shows the next step without
// writing it; Version and Tick name what it shows, and the next action stores it.
func TestReadShowsDueTransition(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	night := g.Start(t, f.svc)
	if night.Phase.EndsAt == nil {
		t.Fatal("night 1 has no deadline")
	}
	v0 := f.item(t, g.Code).Version
	// Before it, the shared screen's revision comes from the stored header,
	// with the timing the view has (to the millisecond the header keeps).
	want := night.Timing
	want.Due = want.Due.Truncate(time.Millisecond)
	if r, err := f.svc.Revision(ctx, g.Code, ""); err != nil || r != (service.Revision{Version: v0, Timing: want}) {
		t.Fatalf("Revision before the deadline = %+v, %v; want version %d, timing %+v", r, err, v0, want)
	}
	f.clk.Add(night.Phase.EndsAt.Sub(f.clk.Now()) + time.Second)
	v, err := f.svc.Read(ctx, g.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase.Name != rules.PhaseDay || v.Version != v0 || v.Tick != 1 {
		t.Fatalf("read after the night's deadline: phase %s version %d tick %d; want day at %d.1", v.Phase.Name, v.Version, v.Tick, v0)
	}
	if it := f.item(t, g.Code); it.Version != v0 {
		t.Fatalf("a read wrote version %d", it.Version)
	}
	// Revision agrees with Read after a deadline, for If-None-Match.
	f.clk.Add(time.Duration(v.Rules.Speech+1) * time.Second)
	r, err := f.svc.Revision(ctx, g.Code, "")
	later, _ := f.svc.Read(ctx, g.Code, "")
	if err != nil || r.Version != v0 || r.Tick != 2 || r.Timing != later.Timing || r.Viewer != rules.Public {
		t.Errorf("Revision after a speech's deadline = %+v, %v; want %d.2 and timing %+v", r, err, v0, later.Timing)
	}
	mine := r
	mine.Viewer = rules.Viewer{Player: g.Players[0].ID}
	if pr, err := f.svc.Revision(ctx, g.Code, g.Players[0].Token); err != nil || pr != mine {
		t.Errorf("a player's Revision = %+v, %v; want %+v", pr, err, mine)
	}
	_, err = f.svc.Revision(ctx, g.Code, "forged")
	wantErr(t, "Revision with a forged token", err, service.ErrUnauthorized)
	after := servicetest.MustRead(t, f.svc, g.Code, g.Players[0].Token)
	if after.Version != r.Version || after.Tick != r.Tick || *after.Phase.Speaker == *v.Phase.Speaker {
		t.Errorf("read: %d.%d speaker %s; want %d.%d and the next speaker", after.Version, after.Tick, *after.Phase.Speaker, r.Version, r.Tick)
	}
	// The next action stores the transitions, and the tick starts again.
	tok := g.Token(t, *after.Phase.Speaker)
	acted := servicetest.MustAct(t, f.svc, g.Code, tok, rules.Action{ID: "e1", Type: rules.ActEndSpeech})
	if acted.Version != v0+1 || acted.Tick != 0 {
		t.Errorf("after an action: %d.%d; want %d.0", acted.Version, acted.Tick, v0+1)
	}
}

func TestActAppliesDueTransitionFirst(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	night := g.Start(t, f.svc)
	f.clk.Add(night.Phase.EndsAt.Sub(f.clk.Now()))
	// The night is over: sleeping is refused, and the refusal writes nothing.
	v0 := f.item(t, g.Code).Version
	_, err := f.svc.Act(ctx, g.Code, g.Players[0].Token, act(rules.ActSleep))
	wantErr(t, "sleep after the night's deadline", err, rules.ErrWrongPhase)
	if v := f.item(t, g.Code).Version; v != v0 {
		t.Errorf("refused action wrote version %d", v)
	}
	// The first speaker's nomination lands in the day the deadline opened.
	speaker := servicetest.MustRead(t, f.svc, g.Code, "").Phase.Speaker
	tok := g.Token(t, *speaker)
	target := g.Players[5].ID
	if target == *speaker {
		target = g.Players[6].ID // nobody nominates himself (R-SPORT-04)
	}
	v := servicetest.MustAct(t, f.svc, g.Code, tok, rules.Action{ID: "n1", Type: rules.ActNominate, Target: target})
	if len(v.Phase.Nominations) != 1 || v.Phase.Name != rules.PhaseDay {
		t.Errorf("nomination after a due transition: phase %s nominations %+v", v.Phase.Name, v.Phase.Nominations)
	}
}

func TestStartUsesServiceRandomness(t *testing.T) {
	roles := func(seed byte, deal [32]byte) []string {
		f := newFixture(t, service.WithRand(seeded(seed)))
		g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
		a := act(rules.ActStart)
		a.Deal = deal // a caller's seed is ignored
		servicetest.MustAct(t, f.svc, g.Code, g.Host, a)
		servicetest.PlayToEnd(t, f.svc, g)
		end := servicetest.MustRead(t, f.svc, g.Code, "") // every card is shown at the end
		var out []string
		for _, p := range end.Players {
			out = append(out, fmt.Sprintf("%s@%d:%s", p.ID, p.Seat, p.Role))
		}
		return out
	}
	a := roles(1, [32]byte{})
	b := roles(1, [32]byte{9, 9, 9})
	c := roles(77, [32]byte{})
	if !slices.Equal(a, b) {
		t.Errorf("same service randomness, different deals: %v and %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("different service randomness, same deal %v (possible, but unlikely)", a)
	}
}

// seeded is a predictable random source, for tests that need the same "random"
// deal or codes twice.
func seeded(seed byte) io.Reader { return mrand.NewChaCha8([32]byte{seed}) }

func TestCodesAreRetriedWhenTaken(t *testing.T) {
	// Two services drawing the same "random" codes: the second must skip the
	// first's codes.
	st := store.NewMemory()
	a := service.New(st, service.WithRand(seeded(5)), service.WithLogger(quiet))
	b := service.New(st, service.WithRand(seeded(5)), service.WithLogger(quiet))
	seen := map[string]bool{}
	for range 5 {
		ca, err := a.Create(ctx, service.CreateRequest{Preset: "sport"})
		if err != nil {
			t.Fatal(err)
		}
		cb, err := b.Create(ctx, service.CreateRequest{Preset: "sport"})
		if err != nil {
			t.Fatal(err)
		}
		if seen[ca.Code] || seen[cb.Code] || ca.Code == cb.Code {
			t.Fatalf("code reused: %s, %s", ca.Code, cb.Code)
		}
		seen[ca.Code], seen[cb.Code] = true, true
	}
}

func TestUnknownAndMalformedCodes(t *testing.T) {
	f := newFixture(t)
	for _, code := range []string{"ABCDEF", "", "abc", "ABCDE0", strings.Repeat("A", 1000)} {
		_, err := f.svc.Read(ctx, code, "")
		wantErr(t, "read "+code, err, service.ErrNotFound)
		_, err = f.svc.Act(ctx, code, "x", act(rules.ActStart))
		wantErr(t, "act "+code, err, service.ErrNotFound)
		_, err = f.svc.Revision(ctx, code, "")
		wantErr(t, "revision "+code, err, service.ErrNotFound)
	}
}

// brokenStore fails every call with a cause that must not reach clients.
type brokenStore struct{ calls int }

var errSecret = errors.New("dial tcp 10.0.0.7:443: secret internal detail")

func (b *brokenStore) Create(context.Context, string, []byte, time.Time) error {
	b.calls++
	return errSecret
}
func (b *brokenStore) Get(context.Context, string, bool) (store.Item, error) {
	b.calls++
	return store.Item{}, errSecret
}
func (b *brokenStore) Update(context.Context, string, int64, []byte, time.Time) (int64, error) {
	b.calls++
	return 0, errSecret
}

func TestStoreFailures(t *testing.T) {
	st := &brokenStore{}
	svc := service.New(st, service.WithLogger(quiet), service.WithMaxRetries(3))
	_, err := svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	wantErr(t, "create", err, service.ErrUnavailable)
	_, err = svc.Read(ctx, "ABCDEF", "")
	wantErr(t, "read", err, service.ErrUnavailable)
	if !errors.Is(err, errSecret) {
		t.Errorf("the cause is not kept for the log: %v", err)
	}
	if msg := service.As(err).Message; strings.Contains(msg, "10.0.0.7") || strings.Contains(msg, "secret") {
		t.Errorf("client message %q leaks the cause", msg)
	}
	st.calls = 0
	_, err = svc.Act(ctx, "ABCDEF", "tok", act(rules.ActStart))
	wantErr(t, "act", err, service.ErrUnavailable)
	if st.calls != 3 {
		t.Errorf("act tried the store %d times, want WithMaxRetries(3)", st.calls)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	st.calls = 0
	_, err = svc.Read(cancelled, "ABCDEF", "")
	wantErr(t, "read with a cancelled context", err, service.ErrUnavailable)
	if st.calls > 1 {
		t.Errorf("a cancelled request was retried %d times", st.calls)
	}
}

// conflictStore answers every Update with a conflict, and counts them.
type conflictStore struct {
	store.Store
	updates atomic.Int32
}

func (c *conflictStore) Update(context.Context, string, int64, []byte, time.Time) (int64, error) {
	c.updates.Add(1)
	return 0, fmt.Errorf("always: %w", store.ErrConflict)
}

// TestBusyAfterRetries: a write that conflicts every time is tried as many
// times as the service allows, then answered busy with its cause kept.
func TestBusyAfterRetries(t *testing.T) {
	mem := store.NewMemory()
	g := servicetest.NewGame(t, service.New(mem, service.WithLogger(quiet)), service.CreateRequest{Preset: "sport"}, 10)
	st := &conflictStore{Store: mem}
	svc := service.New(st, service.WithLogger(quiet), service.WithMaxRetries(4))
	_, err := svc.Act(ctx, g.Code, g.Host, act(rules.ActStart))
	wantErr(t, "act on an always-conflicting store", err, service.ErrBusy)
	if !errors.Is(err, store.ErrConflict) {
		t.Errorf("busy error lost its cause: %v", err)
	}
	if n := st.updates.Load(); n != 4 {
		t.Errorf("the write was tried %d times; want the 4 the service allows", n)
	}
}

func TestCorruptItemIsInternal(t *testing.T) {
	f := newFixture(t)
	if err := f.st.Create(ctx, "ABCDEF", []byte("not a game"), f.clk.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.Read(ctx, "ABCDEF", "")
	wantErr(t, "read a corrupt item", err, service.ErrInternal)
	if msg := service.As(err).Message; strings.Contains(msg, "format") {
		t.Errorf("client message %q is internal", msg)
	}
}

// onceAfter writes the first Create or Update it sees, then reports a failure,
// as a store whose reply was lost does; later calls pass.
type onceAfter struct {
	store.Store
	mu   sync.Mutex
	done bool
}

func (o *onceAfter) fire() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	fire := !o.done
	o.done = true
	return fire
}

func (o *onceAfter) Create(ctx context.Context, code string, b []byte, exp time.Time) error {
	err := o.Store.Create(ctx, code, b, exp)
	if err == nil && o.fire() {
		return servicetest.ErrInjected
	}
	return err
}

func (o *onceAfter) Update(ctx context.Context, code string, v int64, b []byte, exp time.Time) (int64, error) {
	n, err := o.Store.Update(ctx, code, v, b, exp)
	if err == nil && o.fire() {
		return 0, servicetest.ErrInjected
	}
	return n, err
}

func TestLostRepliesAreNotDoubled(t *testing.T) {
	mem := store.NewMemory()
	clean := service.New(mem, service.WithLogger(quiet))

	// Create: the first write lands but reports a failure; the retry finds the
	// code taken by its own game and returns it.
	c, err := service.New(&onceAfter{Store: mem}, service.WithLogger(quiet)).Create(ctx, service.CreateRequest{Preset: "sport"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clean.Read(ctx, c.Code, c.HostToken); err != nil {
		t.Fatalf("the host token of the created game does not work: %v", err)
	}

	// Join: the retry finds the seat its token already has.
	j, err := service.New(&onceAfter{Store: mem}, service.WithLogger(quiet)).Join(ctx, c.Code, service.JoinRequest{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	v := servicetest.MustRead(t, clean, c.Code, j.Token)
	if len(v.Players) != 1 || v.You == nil || v.You.ID != j.PlayerID || j.Game.Version != v.Version {
		t.Errorf("after a lost join reply: players %+v you %+v, version %d vs %d", v.Players, v.You, j.Game.Version, v.Version)
	}

	// Act: the retry finds its action id applied.
	warn := rules.Action{ID: "w", Type: rules.ActKick, Target: j.PlayerID}
	if _, err := service.New(&onceAfter{Store: mem}, service.WithLogger(quiet)).Act(ctx, c.Code, c.HostToken, warn); err != nil {
		t.Fatal(err)
	}
	if h := servicetest.MustRead(t, clean, c.Code, c.HostToken); len(h.Players) != 0 || h.Version != 3 {
		t.Errorf("after a lost act reply: players %+v version %d; want none at 3", h.Players, h.Version)
	}
}

func TestNoGameDataSharedBetweenGames(t *testing.T) {
	// Two games with the same player names, played in turns through one service:
	// each view shows only its own game.
	f := newFixture(t)
	a := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	b := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic", Lang: "ro"}, 10)
	a.Start(t, f.svc)
	va := servicetest.MustRead(t, f.svc, a.Code, a.Players[0].Token)
	vb := servicetest.MustRead(t, f.svc, b.Code, b.Players[0].Token)
	if va.Code != a.Code || vb.Code != b.Code || vb.Phase.Name != rules.PhaseLobby || vb.Lang != "ro" || va.Lang != "en" {
		t.Errorf("views mixed: a %s %s %s, b %s %s %s", va.Code, va.Phase.Name, va.Lang, vb.Code, vb.Phase.Name, vb.Lang)
	}
	_, err := f.svc.Read(ctx, b.Code, a.Players[0].Token)
	wantErr(t, "a's token on b", err, service.ErrUnauthorized)
}

// TestAs: what a client is shown of an error: a service *Error as it is, even
// wrapped, and anything else as an internal error that keeps its cause for the log.
func TestAs(t *testing.T) {
	busy := &service.Error{Kind: service.ErrBusy, Code: "busy", Message: "the game is busy, try again"}
	if got := service.As(fmt.Errorf("batch: %w", busy)); got != busy {
		t.Errorf("As(wrapped) = %v", got)
	}
	got := service.As(io.ErrUnexpectedEOF)
	if got.Kind != service.ErrInternal || got.Code != "internal" || got.Message != "internal error" || !errors.Is(got, io.ErrUnexpectedEOF) {
		t.Errorf("As(unknown) = %+v", got)
	}
}

// staleReplica answers eventually consistent reads from one write behind, and a
// game created a moment ago not at all, as a DynamoDB replica may.
type staleReplica struct {
	store.Store
	mu   sync.Mutex
	prev map[string]store.Item
}

func (r *staleReplica) Get(ctx context.Context, code string, consistent bool) (store.Item, error) {
	if consistent {
		return r.Store.Get(ctx, code, true)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	it, ok := r.prev[code]
	if !ok {
		return store.Item{}, fmt.Errorf("replica: %w", store.ErrNotFound)
	}
	return it, nil
}

func (r *staleReplica) Update(ctx context.Context, code string, v int64, b []byte, exp time.Time) (int64, error) {
	old, err := r.Store.Get(ctx, code, true)
	n, err2 := r.Store.Update(ctx, code, v, b, exp)
	if err == nil && err2 == nil {
		r.mu.Lock()
		r.prev[code] = old
		r.mu.Unlock()
	}
	return n, err2
}

func TestStaleReplica(t *testing.T) {
	clk := newClock()
	mem := store.NewMemory()
	mem.SetNow(clk.Now)
	st := &staleReplica{Store: mem, prev: map[string]store.Item{}}
	svc := service.New(st, service.WithClock(clk.Now), service.WithLogger(quiet))

	c, err := svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := svc.Read(ctx, c.Code, ""); err != nil || v.Version != 1 {
		t.Fatalf("read of a game not yet on the replica: %v, version %d", err, v.Version)
	}
	if r, err := svc.Revision(ctx, c.Code, ""); err != nil || r.Version != 1 {
		t.Fatalf("revision of a game not yet on the replica: %+v, %v", r, err)
	}

	g := servicetest.Game{Code: c.Code, Host: c.HostToken}
	for i := range 10 {
		j, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: fmt.Sprintf("P%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		g.Players = append(g.Players, servicetest.Seat{ID: j.PlayerID, Token: j.Token})
	}
	night := servicetest.MustAct(t, svc, c.Code, g.Host, act(rules.ActStart))
	// The hand-over passes and the night falls by the clock; one more write:
	// the replica still shows the game just started, and the store the night
	// with p1 asleep.
	clk.Add(night.Phase.EndsAt.Sub(clk.Now()))
	servicetest.MustAct(t, svc, c.Code, g.Players[0].Token, act(rules.ActSleep))
	// A poll after the night's deadline reads the stale copy: it shows that copy
	// moved on by the clock (the hand-over, then the night), names it (version
	// and tick), and writes nothing.
	clk.Add(time.Duration(night.Rules.Night) * time.Second)
	v, err := svc.Read(ctx, c.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase.Name != rules.PhaseDay || v.Version != night.Version || v.Tick != 2 {
		t.Errorf("poll after the deadline from a stale replica: phase %s at %d.%d; want day at %d.2", v.Phase.Name, v.Version, v.Tick, night.Version)
	}
	if it, _ := mem.Get(ctx, c.Code, true); it.Version != night.Version+1 {
		t.Errorf("a poll wrote: stored version %d, want %d", it.Version, night.Version+1)
	}
	// An action reads consistently and moves the fresh game on, p1's sleep kept.
	acted := servicetest.MustAct(t, svc, c.Code, g.Token(t, *v.Phase.Speaker), rules.Action{ID: "e1", Type: rules.ActEndSpeech})
	if acted.Version != night.Version+2 || acted.Phase.Name != rules.PhaseDay || acted.Tick != 0 {
		t.Errorf("action after the deadline: phase %s at %d.%d; want day at %d.0", acted.Phase.Name, acted.Version, acted.Tick, night.Version+2)
	}
}
