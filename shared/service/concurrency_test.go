package service_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// backend is a store the concurrency tests run against, and how often.
type backend struct {
	name string
	open func(t *testing.T) store.Store
	reps int
}

func openBolt(t testing.TB) store.Store {
	t.Helper()
	b, err := store.OpenBolt(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

var backends = []backend{
	{"memory", func(*testing.T) store.Store { return store.NewMemory() }, 50},
	{"bolt", func(t *testing.T) store.Store { return openBolt(t) }, 50},
	{"dynalite", func(t *testing.T) store.Store { return dynamo(t) }, 10},
}

// conflictCounter counts the version conflicts a store reports.
type conflictCounter struct {
	store.Store
	n atomic.Int64
}

func (c *conflictCounter) Update(ctx context.Context, code string, v int64, b []byte, exp time.Time) (int64, error) {
	n, err := c.Store.Update(ctx, code, v, b, exp)
	if errors.Is(err, store.ErrConflict) {
		c.n.Add(1)
	}
	return n, err
}

// faults are the faults the fault-injecting runs use: a fifth of the updates
// conflict, a tenth of the calls fail before the store, a tenth of the writes
// land but report a failure.
var faults = servicetest.Faults{Conflict: 0.2, Before: 0.1, After: 0.1}

// TestTenVotesAtOnce has ten players of one game vote at the same instant, on
// every store, many times: every vote must be counted once, none lost or doubled.
func TestTenVotesAtOnce(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			st := &conflictCounter{Store: b.open(t)}
			svc := service.New(st, service.WithLogger(quiet))
			busy, reps := 0, sized(b.reps/5, b.reps)
			for range reps {
				busy += voteRace(t, svc, svc)
			}
			t.Logf("%d games: %d version conflicts retried, %d votes resent after ErrBusy", reps, st.n.Load(), busy)
			if st.n.Load() == 0 {
				t.Errorf("no version conflict in %d races: the votes did not really race", reps)
			}
		})
	}
}

// TestTenVotesAtOnceWithLocalLocks: with the local locks of a one-process server
// the ten votes wait for each other instead of racing, on the stores such a
// server runs on: all counted, no conflict.
func TestTenVotesAtOnceWithLocalLocks(t *testing.T) {
	for _, b := range localBackends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			st := &conflictCounter{Store: b.open(t)}
			svc := service.New(st, service.WithLogger(quiet), service.WithLocalLocks())
			for range 10 {
				voteRace(t, svc, svc)
			}
			if n := st.n.Load(); n != 0 {
				t.Errorf("%d version conflicts with local locks, want 0", n)
			}
		})
	}
}

// TestTenVotesAtOnceWithFaults is TestTenVotesAtOnce on a store that also makes
// conflicts and transient failures up, some of them after the write landed.
func TestTenVotesAtOnceWithFaults(t *testing.T) {
	for i, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			st := b.open(t)
			clean := service.New(st, service.WithLogger(quiet))
			faulty := servicetest.NewFaulty(st, uint64(i+1), faults)
			svc := service.New(faulty, service.WithLogger(quiet))
			resent := 0
			for range sized(2, max(5, b.reps/2)) {
				resent += voteRace(t, clean, svc)
			}
			t.Logf("%d resent votes; faults %+v", resent, faulty.Counts())
		})
	}
}

// toFirstVote plays a new 10-player sport game through svc to the day-1 vote,
// where every player is a candidate: on night 1, a meeting, everyone sleeps; on
// day 1 each speaker nominates the player seated next (nobody may nominate
// themself, R-SPORT-04) and ends the speech. It drives the game
// directly rather than with bots, for speed: the races repeat it many times.
func toFirstVote(t testing.TB, svc *service.Service) (servicetest.Game, rules.View) {
	t.Helper()
	g := servicetest.NewGame(t, svc, service.CreateRequest{Preset: "sport"}, 10)
	v := g.Start(t, svc)
	for _, p := range g.Players {
		servicetest.MustAct(t, svc, g.Code, p.Token, act(rules.ActSleep))
	}
	v = servicetest.EndHandOver(t, svc, g)
	for v.Phase.Name == rules.PhaseDay {
		sp := *v.Phase.Speaker
		tok := g.Token(t, sp)
		i := slices.IndexFunc(v.Players, func(p rules.PlayerView) bool { return p.ID == sp })
		next := v.Players[(i+1)%len(v.Players)].ID
		servicetest.MustAct(t, svc, g.Code, tok, rules.Action{ID: servicetest.ActionID(), Type: rules.ActNominate, Target: next})
		servicetest.MustAct(t, svc, g.Code, tok, act(rules.ActEndSpeech))
		v = servicetest.EndHandOver(t, svc, g)
	}
	return g, v
}

// voteRace brings a game through setup to the day-1 vote, where all ten are
// candidates; then every player votes at once through voters, resending on
// ErrBusy or ErrUnavailable as a client does. It checks that the vote closed with
// each player's ballot exactly once, as cast, and returns the resends.
func voteRace(t *testing.T, setup, voters *service.Service) int {
	t.Helper()
	g, host := toFirstVote(t, setup)
	if host.Phase.Name != rules.PhaseVote || host.Phase.Day != 1 || len(host.Phase.Candidates) != 10 {
		t.Fatalf("vote on day %d with candidates %v; want day 1 and all ten", host.Phase.Day, host.Phase.Candidates)
	}
	cands := host.Phase.Candidates
	want := map[string]string{} // voter → target
	client := servicetest.Retry(voters)
	start := make(chan struct{})
	errs := make([]error, len(g.Players))
	var wg sync.WaitGroup
	for i, p := range g.Players {
		// Votes spread over the candidates so that a lost or doubled one shows.
		target := cands[(i*3)%len(cands)]
		want[p.ID] = target
		a := rules.Action{ID: servicetest.ActionID(), Type: rules.ActVote, Target: target}
		wg.Go(func() {
			<-start
			_, errs[i] = client.Act(ctx, g.Code, p.Token, a)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("game %s: %s's vote: %v", g.Code, g.Players[i].ID, err)
		}
	}
	wantBallots(t, setup, g, want)
	return client.Retries()
}

// wantBallots checks that the day-1 vote of g closed with each player's ballot
// exactly once, for the target in want (voter → target). The hand-over after
// the last vote is cut short, so that the count is in the log.
func wantBallots(t *testing.T, svc *service.Service, g servicetest.Game, want map[string]string) {
	t.Helper()
	end := servicetest.EndHandOver(t, svc, g)
	var result *rules.Event
	for i := range end.Events {
		if e := &end.Events[i]; e.Type == rules.EvVoted && e.Day == 1 {
			result = e
			break
		}
	}
	if result == nil {
		t.Fatalf("game %s: the vote did not close (phase %s, voted %v): a vote was lost", g.Code, end.Phase.Name, end.Phase.Voted)
	}
	got := map[string]string{}
	for _, b := range result.Ballots {
		if _, dup := got[b.Voter]; dup {
			t.Errorf("game %s: %s voted twice: %+v", g.Code, b.Voter, result.Ballots)
		}
		got[b.Voter] = b.Target
	}
	if len(got) != len(want) {
		t.Errorf("game %s: %d ballots, want %d: %+v", g.Code, len(result.Ballots), len(want), result.Ballots)
	}
	for voter, target := range want {
		if got[voter] != target {
			t.Errorf("game %s: %s's ballot is for %q, want %q", g.Code, voter, got[voter], target)
		}
	}
}
