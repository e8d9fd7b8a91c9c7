package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/bot"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// serviceConn is a seat's line to a game of the service in this process.
type serviceConn struct {
	svc         *service.Service
	code, token string
}

const pollEvery = 20 * time.Millisecond

func (c serviceConn) Poll(ctx context.Context) (rules.View, time.Duration, error) {
	v, err := c.svc.Read(ctx, c.code, c.token)
	return v, pollEvery, err
}

func (c serviceConn) Act(ctx context.Context, a rules.Action) (rules.View, time.Duration, bool, error) {
	a.ID = bot.ActionID()
	v, err := c.svc.Act(ctx, c.code, c.token, a)
	if errors.Is(err, service.ErrConflict) || errors.Is(err, service.ErrForbidden) {
		return v, pollEvery, false, nil // the game moved on under the bot
	}
	if err != nil && service.As(err).Code == rules.ErrBadTarget.Code {
		// A target the bot's last view offered, taken out from under it
		// since (nominated by another a moment before, say): the rules
		// answer 400 bad_target, and the app shows it and reads again. It
		// is the game moving on only if a fresh view no longer offers it;
		// a target still offered and refused is a fault.
		if now, rerr := c.svc.Read(ctx, c.code, c.token); rerr == nil && !bot.Offers(now, a) {
			return now, pollEvery, false, nil
		}
	}
	if errors.Is(err, service.ErrBusy) {
		// Ten devices at once on a slow machine can outlast the service's
		// tries; the API answers 503 with Retry-After, and a client tries
		// again, as the app does.
		return v, pollEvery, false, nil
	}
	return v, pollEvery, err == nil, err
}

// stepper is a host who moves a step on once it has stood still a while
// (stillFor, by its Pace).
type stepper struct{}

func (stepper) Decide(v rules.View) (rules.Action, bool) {
	return rules.Action{Type: rules.ActAdvance, Now: true}, bot.Offers(v, rules.Action{Type: rules.ActAdvance})
}

func (stepper) Acted(rules.View, rules.Action) {}

const stillFor = 50 * time.Millisecond

func stepperPace(_ context.Context, _ rules.View, _ rules.Action, since time.Time) (time.Time, bool) {
	return since.Add(stillFor), true
}

// TestDevicesPlayEveryPreset: every seat on a loop of its own, each on its own
// goroutine and the wall clock, as the load run plays, finishes a game of
// every rule set; every phone and the host's screen see the same end.
func TestDevicesPlayEveryPreset(t *testing.T) {
	for _, preset := range rules.Presets {
		t.Run(preset, func(t *testing.T) {
			// A game takes a few seconds; its deadline only stops a hung one.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			svc := service.New(store.NewMemory(), service.WithLogger(slog.New(slog.DiscardHandler)))
			c, err := svc.Create(ctx, service.CreateRequest{Preset: preset, Options: json.RawMessage(`{"handOver":0}`)})
			if err != nil {
				t.Fatal(err)
			}
			opts, _ := rules.Preset(preset)
			devices := []*bot.Device{{Conn: serviceConn{svc, c.Code, c.HostToken}, Clock: bot.WallClock, Mind: stepper{}, Pace: stepperPace}}
			for i := range max(opts.MinPlayers, 10) {
				j, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: fmt.Sprintf("Player %d", i+1)})
				if err != nil {
					t.Fatal(err)
				}
				devices = append(devices, &bot.Device{Conn: serviceConn{svc, c.Code, j.Token}, Clock: bot.WallClock,
					Mind: &bot.Player{Rand: rand.New(rand.NewPCG(uint64(i), 2))}})
			}
			if _, err := svc.Act(ctx, c.Code, c.HostToken, rules.Action{ID: bot.ActionID(), Type: rules.ActStart}); err != nil {
				t.Fatal(err)
			}
			ends := make([]rules.View, len(devices))
			errs := make([]error, len(devices))
			var wg sync.WaitGroup
			for i, d := range devices {
				wg.Go(func() { ends[i], errs[i] = d.Play(ctx, rules.View{}, 0) })
			}
			wg.Wait()
			for i, end := range ends {
				if errs[i] != nil || end.Winner == nil {
					t.Fatalf("device %d: %v, winner %v, phase %s day %d", i, errs[i], end.Winner, end.Phase.Name, end.Phase.Day)
				}
				if *end.Winner != *ends[0].Winner {
					t.Errorf("device %d saw %s win, the host %s", i, *end.Winner, *ends[0].Winner)
				}
			}
		})
	}
}

// script is a Conn that answers polls with its views in turn, and any action
// with a finished game.
type script struct {
	views []rules.View
	next  int
	sent  []rules.Action
}

func (s *script) Poll(context.Context) (rules.View, time.Duration, error) {
	v := s.views[min(s.next, len(s.views)-1)]
	s.next++
	return v, time.Second, nil
}

func (s *script) Act(_ context.Context, a rules.Action) (rules.View, time.Duration, bool, error) {
	s.sent = append(s.sent, a)
	town := rules.Town
	return rules.View{Winner: &town}, time.Second, true, nil
}

// fakeClock is a Clock whose sleeps take no time.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(_ context.Context, until time.Time) bool {
	c.now = maxTime(c.now, until)
	return true
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// firstTarget is a Mind that nominates the first target offered, and counts
// how often it is asked.
type firstTarget struct{ asked int }

func (m *firstTarget) Decide(v rules.View) (rules.Action, bool) {
	m.asked++
	i := slices.IndexFunc(v.Actions, func(o rules.Option) bool { return o.Type == rules.ActNominate })
	if i < 0 {
		return rules.Action{}, false
	}
	return rules.Action{Type: rules.ActNominate, Target: v.Actions[i].Targets[0]}, true
}

func (m *firstTarget) Acted(rules.View, rules.Action) {}

// TestDeviceDropsAPlanNoLongerOffered: a speaker means to nominate p4 five
// seconds into his speech; a poll in between shows p4 no longer a target (a
// Commissar's reveal took him out, R-PARTY-04), so the device decides again on
// what the step offers now and nominates p5. It asks its Mind only when
// nothing is planned, not at every poll.
func TestDeviceDropsAPlanNoLongerOffered(t *testing.T) {
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	ends := start.Add(time.Minute)
	me := "p3"
	speech := func(targets ...string) rules.View {
		return rules.View{
			Phase:   rules.PhaseView{Name: rules.PhaseDay, Day: 2, Night: 2, Speaker: &me, EndsAt: &ends},
			Actions: []rules.Option{{Type: rules.ActNominate, Targets: targets}, {Type: rules.ActEndSpeech}},
		}
	}
	conn := &script{views: []rules.View{speech("p5")}}
	mind := &firstTarget{}
	clock := &fakeClock{now: start}
	at := func(_ context.Context, _ rules.View, _ rules.Action, since time.Time) (time.Time, bool) {
		return since.Add(5 * time.Second), true
	}
	d := &bot.Device{Conn: conn, Clock: clock, Mind: mind, Pace: at}
	end, err := d.Play(context.Background(), speech("p4", "p5"), time.Second)
	if err != nil || end.Winner == nil {
		t.Fatalf("Play: %v, %+v", err, end.Phase)
	}
	if len(conn.sent) != 1 || conn.sent[0].Target != "p5" {
		t.Errorf("sent %+v, want one nomination of p5", conn.sent)
	}
	if want := start.Add(5 * time.Second); !clock.now.Equal(want) {
		t.Errorf("acted at %v, want %v (five seconds into the speech)", clock.now, want)
	}
	if mind.asked != 2 {
		t.Errorf("the mind was asked %d times, want 2 (the first view, and once p4 was gone)", mind.asked)
	}
}

// TestPlayerMakesUpItsMindOnce: a player's bot decides once for what a step
// offers (no fresh roll of the dice at every poll), again after its own
// action, and never takes again in the step an action the game applied.
func TestPlayerMakesUpItsMindOnce(t *testing.T) {
	ends := time.Date(2026, 12, 1, 20, 1, 0, 0, time.UTC)
	me := "p3"
	v := rules.View{
		Phase:   rules.PhaseView{Name: rules.PhaseDay, Day: 1, Speaker: &me, EndsAt: &ends},
		Actions: []rules.Option{{Type: rules.ActNominate, Targets: []string{"p1", "p2"}}, {Type: rules.ActEndSpeech}},
	}
	for seed := range uint64(20) {
		p := &bot.Player{Rand: rand.New(rand.NewPCG(seed, 3))}
		a, ok := p.Decide(v)
		if !ok {
			t.Fatalf("seed %d: a speaker chose nothing", seed)
		}
		if _, again := p.Decide(v); again {
			t.Fatalf("seed %d: decided twice on one offer", seed)
		}
		if a.Type == rules.ActEndSpeech {
			continue
		}
		p.Acted(v, a)
		b, ok := p.Decide(v)
		if !ok || b.Type != rules.ActEndSpeech {
			t.Errorf("seed %d: after nominating, %+v %v; want end_speech", seed, b, ok)
		}
	}
}
