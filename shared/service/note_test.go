package service_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// noting is a service whose every read and action carries a Note, summed:
// what the request lines of a whole game would say.
type noting struct {
	*service.Service
	mu                           sync.Mutex
	conflicts, started, finished int
}

func (n *noting) note(ctx context.Context) (context.Context, func()) {
	note := new(service.Note)
	return service.WithNote(ctx, note), func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		n.conflicts += note.Conflicts()
		if note.Started() {
			n.started++
		}
		if note.Finished() {
			n.finished++
		}
	}
}

func (n *noting) Read(ctx context.Context, code, token string) (rules.View, error) {
	ctx, done := n.note(ctx)
	defer done()
	return n.Service.Read(ctx, code, token)
}

func (n *noting) Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error) {
	ctx, done := n.note(ctx)
	defer done()
	return n.Service.Act(ctx, code, token, a)
}

// TestNotes: the notes of a whole game's requests, which the request lines
// carry for the deployed stack's metrics (issue 27), say it once: one deal,
// one end, and every version conflict the store made and the service tried
// again.
func TestNotes(t *testing.T) {
	now := time.Now()
	faulty := servicetest.NewFaulty(store.NewMemory(), 7, servicetest.Faults{Conflict: 0.2})
	n := &noting{Service: service.New(faulty, service.WithLogger(quiet), service.WithClock(func() time.Time { return now }))}
	client := servicetest.Retry(n)
	g := servicetest.NewGame(t, client, service.CreateRequest{Preset: "sport"}, 10)
	conflictsBefore := faulty.Counts().Conflict // the joins' writes carry no note
	g.Start(t, client)
	end := servicetest.PlayToEnd(t, client, g)
	if end.Phase.Name != rules.PhaseGameOver {
		t.Fatalf("the game ended in %s", end.Phase.Name)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.started != 1 || n.finished != 1 {
		t.Errorf("the notes say %d deals and %d ends: want one of each", n.started, n.finished)
	}
	made := faulty.Counts().Conflict - conflictsBefore
	if made == 0 {
		t.Fatal("the store made no conflict: nothing was tried again")
	}
	if n.conflicts != made {
		t.Errorf("the notes count %d conflicts tried again; the store made %d", n.conflicts, made)
	}
}
