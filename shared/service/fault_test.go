package service_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// recorder is a client that remembers every action acknowledged to it.
type recorder struct {
	servicetest.Client
	mu    sync.Mutex
	acked map[rules.ActionType]int // action type → acknowledged
	warns map[string]int           // target → acknowledged warns
}

func (r *recorder) Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error) {
	v, err := r.Client.Act(ctx, code, token, a)
	if err == nil {
		r.mu.Lock()
		r.acked[a.Type]++
		if a.Type == rules.ActWarn {
			r.warns[a.Target]++
		}
		r.mu.Unlock()
	}
	return v, err
}

// TestWholeGamesWithFaults plays whole 10-player sport games through a store
// that injects conflicts and transient failures, with clients that resend on
// ErrBusy and ErrUnavailable, on every store: each acknowledged action is in the
// game exactly once.
func TestWholeGamesWithFaults(t *testing.T) {
	for i, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			st := b.open(t)
			// A clock that stands still: no deadline passes, so every change in
			// the game comes from an action the test counts.
			now := time.Now()
			faulty := servicetest.NewFaulty(st, uint64(100+i), faults)
			client := servicetest.Retry(service.New(faulty, service.WithLogger(quiet), service.WithClock(func() time.Time { return now })))
			for range sized(1, 3) {
				playWithFaults(t, client)
			}
			t.Logf("resent %d requests; faults %+v", client.Retries(), faulty.Counts())
		})
	}
}

func playWithFaults(t *testing.T, client *servicetest.Retrier) {
	rec := &recorder{Client: client, acked: map[rules.ActionType]int{}, warns: map[string]int{}}
	g := servicetest.NewGame(t, client, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(t, rec)
	// Warnings are the host's action that can be taken again and again: a
	// doubled one would show in the count. Two each, all at once.
	var wg sync.WaitGroup
	for _, p := range g.Players {
		for range 2 {
			wg.Go(func() {
				a := rules.Action{ID: servicetest.ActionID(), Type: rules.ActWarn, Target: p.ID}
				if _, err := rec.Act(ctx, g.Code, g.Host, a); err != nil {
					t.Errorf("warn %s: %v", p.ID, err)
				}
			})
		}
	}
	wg.Wait()
	servicetest.PlayToEnd(t, rec, g)
	end := servicetest.MustRead(t, client, g.Code, "") // the whole log is public at the end
	counts := map[rules.ActionType]int{}
	for _, e := range end.Events {
		switch e.Type {
		case rules.EvNominated:
			counts[rules.ActNominate]++
		case rules.EvAct:
			counts[rules.ActionType(e.Result)]++ // every night act but sleep
		case rules.EvVoted:
			counts["ballots"] += len(e.Ballots)
		case rules.EvWarned:
			counts[rules.ActWarn]++
		}
	}
	votes := rec.acked[rules.ActVote] + rec.acked[rules.ActVoteAll]
	checks := []struct {
		what      string
		acked, in int
	}{
		{"nominations", rec.acked[rules.ActNominate], counts[rules.ActNominate]},
		{"kills", rec.acked[rules.ActKill], counts[rules.ActKill]},
		{"checks", rec.acked[rules.ActCheck], counts[rules.ActCheck]},
		{"votes", votes, counts["ballots"]},
		{"warnings", rec.acked[rules.ActWarn], counts[rules.ActWarn]},
	}
	for _, c := range checks {
		if c.acked != c.in {
			t.Errorf("game %s: %d %s acknowledged, %d in the game", g.Code, c.acked, c.what, c.in)
		}
	}
	for _, p := range end.Players {
		if p.Warnings != rec.warns[p.ID] {
			t.Errorf("game %s: %s has %d warnings, %d acknowledged", g.Code, p.ID, p.Warnings, rec.warns[p.ID])
		}
	}
	if rec.acked[rules.ActNominate] == 0 || votes == 0 {
		t.Errorf("game %s: the bots nominated %d and voted %d times; the test proves nothing", g.Code, rec.acked[rules.ActNominate], votes)
	}
}
