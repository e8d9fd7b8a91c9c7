package service

import (
	"context"
	"errors"
	"sync/atomic"

	"citysleeps/shared/rules"
	"citysleeps/shared/store"
)

// Note is what a request did to its game beyond its answer, for the caller's
// log line and the metrics counted from it (template.yaml's metric filters):
// the version conflicts its writes met and tried again, and whether the write
// dealt the cards or ended the game. The caller puts one in the request's
// context (WithNote) and reads it once the call returns; the service only
// adds to it. The deployed functions write each request alone; a batch of
// writes (local locks, the local server) is noted on its first request, whose
// line then speaks for the batch, once. The fields are atomic because that
// request may have stopped waiting while its batch still lands.
type Note struct {
	conflicts atomic.Int32
	started   atomic.Bool
	finished  atomic.Bool
}

type noteKey struct{}

// WithNote returns ctx carrying n, for the service to fill.
func WithNote(ctx context.Context, n *Note) context.Context {
	return context.WithValue(ctx, noteKey{}, n)
}

// Conflicts is how many times a write found the game changed under it and
// was tried again.
func (n *Note) Conflicts() int { return int(n.conflicts.Load()) }

// Started reports whether the request's write dealt the cards: the game left
// its lobby.
func (n *Note) Started() bool { return n.started.Load() }

// Finished reports whether the request's write ended the game.
func (n *Note) Finished() bool { return n.finished.Load() }

// noteOf is ctx's Note, or nil.
func noteOf(ctx context.Context) *Note {
	n, _ := ctx.Value(noteKey{}).(*Note)
	return n
}

// noteRetry notes a try that failed on err and will be made again.
func noteRetry(ctx context.Context, err error) {
	if n := noteOf(ctx); n != nil && errors.Is(err, store.ErrConflict) {
		n.conflicts.Add(1)
	}
}

// noteWritten notes a landed write that took the game from before to after.
// Each is judged settled (settled): a start, and often the game's last act,
// leave their step closing, and the deal or the end happens a hand-over
// later, when nobody may write the game again.
func noteWritten(ctx context.Context, before, after rules.Phase) {
	n := noteOf(ctx)
	if n == nil {
		return
	}
	if before.Name == rules.PhaseLobby && after.Name != rules.PhaseLobby {
		n.started.Store(true)
	}
	if before.Name != rules.PhaseGameOver && after.Name == rules.PhaseGameOver {
		n.finished.Store(true)
	}
}

// settled is the phase s leads to once the step it completed has handed
// over, for noteWritten; without a Note in ctx it is not worked out.
func settled(ctx context.Context, s rules.State) rules.Phase {
	if noteOf(ctx) == nil || !s.Phase.Closing {
		return s.Phase
	}
	return rules.Advance(s, s.Phase.EndsAt).Phase
}
