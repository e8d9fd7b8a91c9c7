package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Memory is a Store that keeps games in process memory, for tests. It enforces
// the same version check, expiry and size limit as the other stores. The zero
// value is not usable; call NewMemory.
type Memory struct {
	mu    sync.Mutex
	items map[string]memItem
	now   func() time.Time
}

// memItem is a stored game; expSec is its expiry in epoch seconds, as the other stores keep it.
type memItem struct {
	version int64
	state   []byte
	expSec  int64
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty Memory store that reads the wall clock for expiry.
func NewMemory() *Memory {
	return &Memory{items: make(map[string]memItem), now: time.Now}
}

// SetNow makes m judge expiry by now instead of the wall clock, for tests whose
// clock is not the real one (a game expiring 48 h after a fake "now" in the past
// would otherwise be missing at once).
func (m *Memory) SetNow(now func() time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = now
}

// Create stores a new game at version 1; ErrExists if the code is taken by an unexpired item.
func (m *Memory) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkWrite("create", code, expiresAt); err != nil {
		return err
	}
	if err := checkSize("create", Item{Code: code, Version: 1, State: state, ExpiresAt: expiresAt}); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.items[code]; ok && !expired(old.expSec, m.now()) {
		return fmt.Errorf("create game %q: %w", code, ErrExists)
	}
	m.items[code] = memItem{version: 1, state: clone(state), expSec: epochSeconds(expiresAt)}
	return nil
}

// Get loads a game; every read is consistent, so consistent is ignored.
func (m *Memory) Get(ctx context.Context, code string, consistent bool) (Item, error) {
	if err := ctx.Err(); err != nil {
		return Item{}, err
	}
	if err := checkCode("get", code); err != nil {
		return Item{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[code]
	if !ok || expired(it.expSec, m.now()) {
		return Item{}, fmt.Errorf("get game %q: %w", code, ErrNotFound)
	}
	return Item{Code: code, Version: it.version, State: clone(it.state), ExpiresAt: time.Unix(it.expSec, 0)}, nil
}

// Update replaces the state only if the stored version is still expected, and returns the new version (expected+1).
func (m *Memory) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := checkWrite("update", code, expiresAt); err != nil {
		return 0, err
	}
	next := expected + 1
	if err := checkSize("update", Item{Code: code, Version: next, State: state, ExpiresAt: expiresAt}); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.items[code]
	if !ok || expired(old.expSec, m.now()) {
		return 0, fmt.Errorf("update game %q: %w", code, ErrNotFound)
	}
	if old.version != expected {
		return 0, fmt.Errorf("update game %q from version %d (now %d): %w", code, expected, old.version, ErrConflict)
	}
	m.items[code] = memItem{version: next, state: clone(state), expSec: epochSeconds(expiresAt)}
	return next, nil
}

// DeleteExpired forgets every game past its expiry, as DynamoDB's TTL does, and
// returns how many it removed.
func (m *Memory) DeleteExpired(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	n := 0
	for code, it := range m.items {
		if expired(it.expSec, now) {
			delete(m.items, code)
			n++
		}
	}
	return n, nil
}

// clone copies b, so that callers and the store never share a state slice.
func clone(b []byte) []byte {
	return append([]byte{}, b...)
}
