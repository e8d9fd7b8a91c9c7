package service_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// localBackends are the stores a server with local locks runs on: the embedded
// one of `make run`, and memory.
var localBackends = []backend{backends[0], backends[1]}

// A fault is what gatedStore does with an Update instead of passing it on.
type fault int

const (
	// injectConflict fails with store.ErrConflict, writing nothing.
	injectConflict fault = iota + 1
	// injectBefore fails with a transient error, writing nothing.
	injectBefore
	// injectAfter writes, then reports a transient error.
	injectAfter
	// injectPanic panics, as a bug would.
	injectPanic
)

// gatedStore counts the writes a service sends to a store, can hold one back
// until the test lets it go, and can fail the ones after it: actions sent
// meanwhile queue behind the held write, so what goes into a batch, and what
// befalls its write, does not depend on timing.
type gatedStore struct {
	store.Store
	writes atomic.Int64

	mu      sync.Mutex
	armed   bool          // the next Update waits for release
	arrived chan struct{} // closed when it has come
	release chan struct{}
	faults  []fault // for the Updates after the held one, in turn
}

// Writes returns how many Updates have been sent to the store.
func (g *gatedStore) Writes() int64 { return g.writes.Load() }

// Hold makes the next Update wait until Release, and returns a channel closed
// when it has come.
func (g *gatedStore) Hold() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.armed, g.arrived, g.release = true, make(chan struct{}), make(chan struct{})
	return g.arrived
}

// Release lets the held Update go on.
func (g *gatedStore) Release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.release)
}

// Fail makes the Updates after the held one fail with f, one fault each.
func (g *gatedStore) Fail(f ...fault) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.faults = append(g.faults, f...)
}

func (g *gatedStore) Update(ctx context.Context, code string, v int64, b []byte, exp time.Time) (int64, error) {
	g.writes.Add(1)
	g.mu.Lock()
	held, arrived, release := g.armed, g.arrived, g.release
	g.armed = false
	var f fault
	if !held && len(g.faults) > 0 {
		f, g.faults = g.faults[0], g.faults[1:]
	}
	g.mu.Unlock()
	if held {
		close(arrived)
		<-release
	}
	switch f {
	case injectConflict:
		return 0, fmt.Errorf("update game %q: injected: %w", code, store.ErrConflict)
	case injectBefore:
		return 0, fmt.Errorf("update game %q: %w", code, servicetest.ErrInjected)
	case injectAfter:
		if _, err := g.Store.Update(ctx, code, v, b, exp); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("update game %q: %w", code, servicetest.ErrInjected)
	case injectPanic:
		panic("injected")
	}
	return g.Store.Update(ctx, code, v, b, exp)
}

// answer is what one Act returned.
type answer struct {
	view rules.View
	err  error
}

// acting returns a send of a to svc that keeps the answer in to.
func acting(ctx context.Context, svc *service.Service, code, token string, a rules.Action, to *answer) func() {
	return func() { to.view, to.err = svc.Act(ctx, code, token, a) }
}

// queueBehind starts sends[0] and holds its write in st; then starts each other
// send once the one before it is queued behind that write. It returns release,
// which lets the held write land and waits for every send to return: sends[1:]
// then go in one batch, in their order.
func queueBehind(t *testing.T, svc *service.Service, st *gatedStore, code string, sends ...func()) (release func()) {
	t.Helper()
	arrived := st.Hold()
	var wg sync.WaitGroup
	wg.Go(sends[0])
	select {
	case <-arrived:
	case <-time.After(hangAfter):
		t.Fatal("the first send never wrote")
	}
	for i, send := range sends[1:] {
		wg.Go(send)
		waitFor(t, fmt.Sprintf("%d queued writes", i+1), func() bool { return svc.Waiting(code) == i+1 })
	}
	return func() {
		st.Release()
		wg.Wait()
	}
}

// hangAfter stops a wait for what comes within milliseconds (a queued write,
// a send that returns): only a hang waits a minute, however busy the machine.
const hangAfter = time.Minute

// waitFor waits until cond holds, or fails t if it hangs (hangAfter).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(hangAfter); !cond(); time.Sleep(100 * time.Microsecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v in vain for %s", hangAfter, what)
		}
	}
}

// idle waits until svc has no write in flight, and so no queue left: the map of
// queues does not grow with the games played.
func idle(t *testing.T, svc *service.Service) {
	t.Helper()
	waitFor(t, "no game with a write in flight", func() bool { return svc.Writing() == 0 })
}

// newVote opens a service with local locks on st and brings a 10-player game to
// the day-1 vote, where all ten are candidates.
func newVote(t *testing.T, st *gatedStore, opts ...service.Option) (*service.Service, servicetest.Game, rules.View) {
	t.Helper()
	svc := service.New(st, append([]service.Option{service.WithLogger(quiet), service.WithLocalLocks()}, opts...)...)
	g, host := toFirstVote(t, svc)
	if host.Phase.Name != rules.PhaseVote || len(host.Phase.Candidates) != len(g.Players) {
		t.Fatalf("phase %s with candidates %v; want a vote over all ten", host.Phase.Name, host.Phase.Candidates)
	}
	return svc, g, host
}

// vote is player i's vote for candidate i·3 (mod 10), so that a lost or
// doubled ballot shows in the count.
func vote(host rules.View, i int) rules.Action {
	return rules.Action{ID: servicetest.ActionID(), Type: rules.ActVote, Target: host.Phase.Candidates[(i*3)%len(host.Phase.Candidates)]}
}

// TestVotesQueuedBehindAWriteShareOne: with local locks, the votes of a game that
// arrive while one of its votes is being written go in one batch. Ten votes cost
// two writes; so do thirty sends, each vote sent three times at once with its id
// (a client resending); and every ballot is counted once, as cast.
func TestVotesQueuedBehindAWriteShareOne(t *testing.T) {
	for _, b := range localBackends {
		for _, times := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%d", b.name, times*10), func(t *testing.T) {
				t.Parallel()
				st := &gatedStore{Store: b.open(t)}
				svc, g, host := newVote(t, st)
				votes := make([]rules.Action, len(g.Players))
				want := map[string]string{}
				for i, p := range g.Players {
					votes[i] = vote(host, i)
					want[p.ID] = votes[i].Target
				}
				// Each player's first send, then each player's second, and so on.
				answers := make([]answer, times*len(g.Players))
				sends := make([]func(), len(answers))
				for n := range sends {
					i := n % len(g.Players)
					sends[n] = acting(ctx, svc, g.Code, g.Players[i].Token, votes[i], &answers[n])
				}
				before := st.Writes()
				queueBehind(t, svc, st, g.Code, sends...)()
				if w := st.Writes() - before; w != 2 {
					t.Errorf("%d sends cost %d writes, want 2: the first vote's and one for all queued behind it", len(sends), w)
				}
				for n, a := range answers {
					switch {
					case a.err != nil:
						t.Errorf("send %d: %v", n, a.err)
					case n > 0 && a.view.Version != host.Version+2:
						t.Errorf("send %d answered with version %d, want %d: the game after the batch", n, a.view.Version, host.Version+2)
					}
				}
				wantBallots(t, svc, g, want)
				idle(t, svc)
			})
		}
	}
}

// TestBatchAnswersEachOnItsOwn: the requests of one batch are checked one by one,
// in arrival order, on the state the previous ones left. A refused one gets its
// own refusal and changes nothing, a replayed id is answered without change, and
// the others are applied; a batch that changes nothing writes nothing.
func TestBatchAnswersEachOnItsOwn(t *testing.T) {
	st := &gatedStore{Store: store.NewMemory()}
	svc, g, host := newVote(t, st)
	stranger := servicetest.NewGame(t, svc, service.CreateRequest{Preset: "sport"}, 1).Players[0].Token
	p := g.Players
	want := map[string]string{}
	votes := make([]rules.Action, len(p))
	for i := range p {
		votes[i] = vote(host, i)
		want[p[i].ID] = votes[i].Target
	}
	again := votes[1]
	again.ID, again.Target = servicetest.ActionID(), votes[2].Target
	nobody := rules.Action{ID: servicetest.ActionID(), Type: rules.ActVote, Target: "p99"}
	sends := []struct {
		who    string
		token  string
		a      rules.Action
		refuse error
	}{
		{"the first vote", p[0].Token, votes[0], nil},
		{"a vote", p[1].Token, votes[1], nil},
		{"a vote for nobody", p[2].Token, nobody, rules.ErrBadTarget},
		{"a second vote by the same player", p[1].Token, again, rules.ErrAlreadyActed},
		{"the vote resent", p[1].Token, votes[1], nil},
		{"the first vote resent", p[0].Token, votes[0], nil},
		{"a token of another game", stranger, votes[4], service.ErrUnauthorized},
		{"another vote", p[3].Token, votes[3], nil},
	}
	answers := make([]answer, len(sends))
	fns := make([]func(), len(sends))
	for i, s := range sends {
		fns[i] = acting(ctx, svc, g.Code, s.token, s.a, &answers[i])
	}
	before := st.Writes()
	queueBehind(t, svc, st, g.Code, fns...)()
	if w := st.Writes() - before; w != 2 {
		t.Errorf("the batch cost %d writes with the first vote's, want 2", w)
	}
	for i, s := range sends {
		a := answers[i]
		switch {
		case s.refuse != nil:
			if !errors.Is(a.err, s.refuse) {
				t.Errorf("%s: err = %v, want %v", s.who, a.err, s.refuse)
			}
		case a.err != nil:
			t.Errorf("%s: %v", s.who, a.err)
		case i > 0 && a.view.Version != host.Version+2:
			t.Errorf("%s: answered with version %d, want %d: the game after the batch", s.who, a.view.Version, host.Version+2)
		}
	}
	voted := []string{p[0].ID, p[1].ID, p[3].ID}
	if v := answers[4].view; fmt.Sprint(v.Phase.Voted) != fmt.Sprint(voted) {
		t.Errorf("the resent vote was answered with %v voted, want %v", v.Phase.Voted, voted)
	}
	if v := servicetest.MustRead(t, svc, g.Code, g.Host); fmt.Sprint(v.Phase.Voted) != fmt.Sprint(voted) || v.Version != host.Version+2 {
		t.Errorf("voted %v at version %d, want %v at %d", v.Phase.Voted, v.Version, voted, host.Version+2)
	}

	// A batch of refusals and replays only is not written.
	answers = make([]answer, 4)
	before = st.Writes()
	queueBehind(t, svc, st, g.Code,
		acting(ctx, svc, g.Code, p[4].Token, votes[4], &answers[0]),
		acting(ctx, svc, g.Code, p[4].Token, votes[4], &answers[1]),
		acting(ctx, svc, g.Code, p[2].Token, nobody, &answers[2]),
		acting(ctx, svc, g.Code, stranger, votes[5], &answers[3]))()
	if w := st.Writes() - before; w != 1 {
		t.Errorf("a vote and a batch that changes nothing cost %d writes, want 1", w)
	}
	if answers[0].err != nil || answers[1].err != nil || answers[1].view.Version != host.Version+3 {
		t.Errorf("vote: %v; resent: %v at version %d, want %d", answers[0].err, answers[1].err, answers[1].view.Version, host.Version+3)
	}
	wantErr(t, "a vote for nobody", answers[2].err, rules.ErrBadTarget)
	wantErr(t, "a token of another game", answers[3].err, service.ErrUnauthorized)

	for i := 2; i < len(p); i++ {
		if i != 3 && i != 4 {
			servicetest.MustAct(t, svc, g.Code, p[i].Token, votes[i])
		}
	}
	wantBallots(t, svc, g, want)
	idle(t, svc)
}

// queueTenVotes sends the ten votes of a game at the day-1 vote, the first held
// in the store until the other nine are queued behind it, and returns the
// answers, the first vote's first.
func queueTenVotes(t *testing.T, svc *service.Service, st *gatedStore, g servicetest.Game, host rules.View) ([]answer, map[string]string) {
	t.Helper()
	want := map[string]string{}
	answers := make([]answer, len(g.Players))
	sends := make([]func(), len(g.Players))
	for i, p := range g.Players {
		a := vote(host, i)
		want[p.ID] = a.Target
		sends[i] = acting(ctx, svc, g.Code, p.Token, a, &answers[i])
	}
	queueBehind(t, svc, st, g.Code, sends...)()
	return answers, want
}

// TestBatchRetriedAfterStoreFailure: a batch whose write conflicts or fails, before
// or after it lands, is applied again to a fresh load, whole: every vote is
// answered and counted once.
func TestBatchRetriedAfterStoreFailure(t *testing.T) {
	for _, c := range []struct {
		name   string
		faults []fault
		writes int64 // the first vote's, and the batch's tries
	}{
		{"conflict", []fault{injectConflict}, 3},
		{"before", []fault{injectBefore}, 3},
		// The retry finds every vote of the batch applied, and writes nothing.
		{"after", []fault{injectAfter}, 2},
		{"all three", []fault{injectConflict, injectBefore, injectAfter}, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := &gatedStore{Store: store.NewMemory()}
			svc, g, host := newVote(t, st)
			st.Fail(c.faults...)
			before := st.Writes()
			answers, want := queueTenVotes(t, svc, st, g, host)
			if w := st.Writes() - before; w != c.writes {
				t.Errorf("%d writes, want %d", w, c.writes)
			}
			for i, a := range answers {
				switch {
				case a.err != nil:
					t.Errorf("%s's vote: %v", g.Players[i].ID, a.err)
				case i > 0 && a.view.Version != host.Version+2:
					t.Errorf("%s's vote answered with version %d, want %d", g.Players[i].ID, a.view.Version, host.Version+2)
				}
			}
			wantBallots(t, svc, g, want)
			idle(t, svc)
		})
	}
}

// TestBatchFailureReachesEveryone: when a batch's write fails for good, every
// request of the batch gets the error a lone action would, refused ones too (the
// state that refused them was never stored), and the game keeps only what was
// written before.
func TestBatchFailureReachesEveryone(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault fault
		want  error
	}{
		{"conflicts", injectConflict, service.ErrBusy},
		{"store failures", injectBefore, service.ErrUnavailable},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := &gatedStore{Store: store.NewMemory()}
			svc, g, host := newVote(t, st, service.WithMaxRetries(3))
			st.Fail(c.fault, c.fault, c.fault)
			p := g.Players
			answers := make([]answer, 3)
			queueBehind(t, svc, st, g.Code,
				acting(ctx, svc, g.Code, p[0].Token, vote(host, 0), &answers[0]),
				acting(ctx, svc, g.Code, p[1].Token, vote(host, 1), &answers[1]),
				acting(ctx, svc, g.Code, p[2].Token, rules.Action{ID: servicetest.ActionID(), Type: rules.ActVote, Target: "p99"}, &answers[2]))()
			if answers[0].err != nil {
				t.Errorf("the first vote, written alone: %v", answers[0].err)
			}
			for i, a := range answers[1:] {
				wantErr(t, fmt.Sprintf("send %d of the batch", i+1), a.err, c.want)
			}
			if v := servicetest.MustRead(t, svc, g.Code, g.Host); len(v.Phase.Voted) != 1 || v.Version != host.Version+1 {
				t.Errorf("voted %v at version %d; want only %s at %d", v.Phase.Voted, v.Version, p[0].ID, host.Version+1)
			}
			idle(t, svc)
		})
	}
}

// TestPanicFailsOnlyItsBatch: a panic while a batch is written fails that batch
// with ErrInternal; it neither ends the process nor leaves the game without a
// writer, so the next vote is written as usual.
func TestPanicFailsOnlyItsBatch(t *testing.T) {
	st := &gatedStore{Store: store.NewMemory()}
	svc, g, host := newVote(t, st)
	st.Fail(injectPanic)
	p := g.Players
	answers := make([]answer, 3)
	queueBehind(t, svc, st, g.Code,
		acting(ctx, svc, g.Code, p[0].Token, vote(host, 0), &answers[0]),
		acting(ctx, svc, g.Code, p[1].Token, vote(host, 1), &answers[1]),
		acting(ctx, svc, g.Code, p[2].Token, vote(host, 2), &answers[2]))()
	if answers[0].err != nil {
		t.Errorf("the first vote, written alone: %v", answers[0].err)
	}
	wantErr(t, "a vote of the batch that panicked", answers[1].err, service.ErrInternal)
	wantErr(t, "a vote of the batch that panicked", answers[2].err, service.ErrInternal)
	if v := servicetest.MustAct(t, svc, g.Code, p[1].Token, vote(host, 1)); len(v.Phase.Voted) != 2 {
		t.Errorf("after the panic, voted %v; want %s and %s", v.Phase.Voted, p[0].ID, p[1].ID)
	}
	idle(t, svc)
}

// TestLeaderGoneMidBatch: the client whose request is being written goes away
// while others queue behind it. Its write is everyone's, so it still lands and
// the others are written after it; a client that goes away while it waits gets
// ErrUnavailable at once, and its vote may still be applied.
func TestLeaderGoneMidBatch(t *testing.T) {
	for _, b := range localBackends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			st := &gatedStore{Store: b.open(t)}
			svc, g, host := newVote(t, st)
			first, leave := context.WithCancel(ctx)
			defer leave()
			waiter, give := context.WithCancel(ctx)
			defer give()
			const gone = 5
			want := map[string]string{}
			answers := make([]answer, len(g.Players))
			sends := make([]func(), len(g.Players))
			for i, p := range g.Players {
				a := vote(host, i)
				want[p.ID] = a.Target
				c := ctx
				switch i {
				case 0:
					c = first
				case gone:
					c = waiter
				}
				sends[i] = acting(c, svc, g.Code, p.Token, a, &answers[i])
			}
			release := queueBehind(t, svc, st, g.Code, sends...)
			leave()
			give()
			release()
			for i, a := range answers {
				if i == gone {
					wantErr(t, "the vote whose client left while it waited", a.err, service.ErrUnavailable)
					wantErr(t, "the vote whose client left while it waited", a.err, context.Canceled)
				} else if a.err != nil {
					t.Errorf("%s's vote: %v", g.Players[i].ID, a.err)
				}
			}
			wantBallots(t, svc, g, want)
			idle(t, svc)
		})
	}
}

// TestJoinsQueuedBehindAWriteShareOne: players taking their seats at once share a
// write as actions do; a name taken earlier in the same batch is refused.
func TestJoinsQueuedBehindAWriteShareOne(t *testing.T) {
	st := &gatedStore{Store: store.NewMemory()}
	svc := service.New(st, service.WithLogger(quiet), service.WithLocalLocks())
	c, err := svc.Create(ctx, service.CreateRequest{Preset: "sport"})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ann", "Bob", "Cid", "Bob", "Dee"}
	joined := make([]service.Joined, len(names))
	errs := make([]error, len(names))
	sends := make([]func(), len(names))
	for i, name := range names {
		sends[i] = func() { joined[i], errs[i] = svc.Join(ctx, c.Code, service.JoinRequest{Name: name}) }
	}
	before := st.Writes()
	queueBehind(t, svc, st, c.Code, sends...)()
	if w := st.Writes() - before; w != 2 {
		t.Errorf("%d joins cost %d writes, want 2", len(names), w)
	}
	wantErr(t, "a name taken in the same batch", errs[3], rules.ErrNameTaken)
	seats := map[string]string{}
	for i, j := range joined {
		if i == 3 {
			continue
		}
		if errs[i] != nil {
			t.Fatalf("join %s: %v", names[i], errs[i])
		}
		if other, dup := seats[j.PlayerID]; dup {
			t.Errorf("%s and %s both got seat %s", other, names[i], j.PlayerID)
		}
		seats[j.PlayerID] = names[i]
		if v := servicetest.MustRead(t, svc, c.Code, j.Token); v.You == nil || v.You.ID != j.PlayerID || len(v.Players) != 4 {
			t.Errorf("%s's token reads as %+v at a table of %d, want %s of 4", names[i], v.You, len(v.Players), j.PlayerID)
		}
	}
	idle(t, svc)
}

// TestLeaveAndJoinInOneBatch: a player leaves and a newcomer takes the freed
// id in the same batch of writes; the newcomer's action is theirs, not a
// replay of the one who left, even under the same client id (the churn that
// kept a troll's seat in the hostile bench).
func TestLeaveAndJoinInOneBatch(t *testing.T) {
	st := &gatedStore{Store: store.NewMemory()}
	svc := service.New(st, service.WithLogger(quiet), service.WithLocalLocks())
	c, err := svc.Create(ctx, service.CreateRequest{Preset: "party"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: "Troll 1"})
	if err != nil {
		t.Fatal(err)
	}
	var left answer
	var second service.Joined
	var joinErr error
	queueBehind(t, svc, st, c.Code,
		func() { _, _ = svc.Act(ctx, c.Code, c.HostToken, rules.Action{ID: "lock", Type: rules.ActLock}) },
		acting(ctx, svc, c.Code, first.Token, rules.Action{ID: "bye", Type: rules.ActLeave}, &left),
		func() {
			_, _ = svc.Act(ctx, c.Code, c.HostToken, rules.Action{ID: "unlock", Type: rules.ActUnlock})
		},
		func() { second, joinErr = svc.Join(ctx, c.Code, service.JoinRequest{Name: "Troll 2"}) },
	)()
	if left.err != nil || joinErr != nil {
		t.Fatalf("leave %v, join %v", left.err, joinErr)
	}
	if second.PlayerID != first.PlayerID {
		t.Fatalf("the newcomer got %s, want the freed %s", second.PlayerID, first.PlayerID)
	}
	v, err := svc.Act(ctx, c.Code, second.Token, rules.Action{ID: "bye", Type: rules.ActLeave})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Players) != 0 {
		t.Errorf("the newcomer's leave was taken for a replay: %d at the table", len(v.Players))
	}
	idle(t, svc)
}
