package lambdamain

import (
	"context"
	"sync"
	"time"

	"citysleeps/shared/store"
)

// lazyStore is a Lambda function's game store, built by build on first use,
// so that the function's init does no work that can wait (the store's client
// loads its configuration then). A failed build is tried again by the next
// call; until one succeeds every call fails with the build's error, which
// the service answers as any store that does not answer: 503 unavailable,
// the cause in the log and never in the answer. Nothing of one game is kept
// between requests: only what build returns (the store's client). Being the
// store rather than the service, it has three methods to pass on, whatever
// routes the service grows.
type lazyStore struct {
	build func(context.Context) (store.Store, error)
	mu    sync.Mutex
	st    store.Store
}

var _ store.Store = (*lazyStore)(nil)

func (l *lazyStore) get(ctx context.Context) (store.Store, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.st != nil {
		return l.st, nil
	}
	st, err := l.build(ctx)
	if err != nil {
		return nil, err
	}
	l.st = st
	return st, nil
}

func (l *lazyStore) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	st, err := l.get(ctx)
	if err != nil {
		return err
	}
	return st.Create(ctx, code, state, expiresAt)
}

func (l *lazyStore) Get(ctx context.Context, code string, consistent bool) (store.Item, error) {
	st, err := l.get(ctx)
	if err != nil {
		return store.Item{}, err
	}
	return st.Get(ctx, code, consistent)
}

func (l *lazyStore) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
	st, err := l.get(ctx)
	if err != nil {
		return 0, err
	}
	return st.Update(ctx, code, expected, state, expiresAt)
}
