package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Bolt is a Store kept in one file on disk with bbolt, for running the game
// without AWS. Every write is in a bbolt transaction fsynced before it returns,
// so a write that was acknowledged survives a crash of the process or machine;
// writes that arrive while one is being written share the next transaction
// (see commit).
// It enforces the same version check, expiry and size limit (MaxItemSize, as
// ItemSize counts it) as the DynamoDB store.
//
// A file can be open in one process at a time; OpenBolt waits up to a few
// seconds for another process to close it.
type Bolt struct {
	db *bolt.DB

	mu  sync.Mutex
	now func() time.Time

	// The group commit: writes waiting for the next transaction, and whether
	// one is being written.
	wmu     sync.Mutex
	pending []*boltWrite
	writing bool
	// beforeTx, if set (tests), runs at the start of each write transaction.
	beforeTx func()
}

var _ Store = (*Bolt)(nil)

// boltBucket holds one key per game: the room code.
var boltBucket = []byte("games")

// boltFormat is the first byte of every value; a value is
// format (1) | version (8, big-endian) | expiry epoch seconds (8) | state.
const (
	boltFormat    = 1
	boltHeaderLen = 1 + 8 + 8
)

// boltLockTimeout is how long OpenBolt waits for another process to release the file.
const boltLockTimeout = 5 * time.Second

// OpenBolt opens the store in the file at path, creating the file and its
// directory if they do not exist.
func OpenBolt(path string) (*Bolt, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: boltLockTimeout})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("store: open %s: file is in use by another process: %w", path, err)
		}
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(boltBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return &Bolt{db: db, now: time.Now}, nil
}

// Close closes the file. Calls after Close return errors.
func (b *Bolt) Close() error {
	return b.db.Close()
}

// SetNow makes b judge expiry by now instead of the wall clock, for tests.
func (b *Bolt) SetNow(now func() time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.now = now
}

// clock returns the time to judge expiry by.
func (b *Bolt) clock() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.now()
}

// Create stores a new game at version 1; ErrExists if the code is taken by an unexpired item.
func (b *Bolt) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkWrite("create", code, expiresAt); err != nil {
		return err
	}
	it := Item{Code: code, Version: 1, State: state, ExpiresAt: expiresAt}
	if err := checkSize("create", it); err != nil {
		return err
	}
	now := b.clock()
	err := b.commit(func(bk *bolt.Bucket) error {
		if v := bk.Get([]byte(code)); v != nil {
			old, err := decodeBolt(code, v)
			if err != nil {
				return err
			}
			if !expired(old.expSec, now) {
				return ErrExists
			}
		}
		return bk.Put([]byte(code), encodeBolt(1, epochSeconds(expiresAt), state))
	})
	if err != nil {
		return fmt.Errorf("create game %q: %w", code, err)
	}
	return nil
}

// Get loads a game; every read is consistent, so consistent is ignored.
func (b *Bolt) Get(ctx context.Context, code string, consistent bool) (Item, error) {
	if err := ctx.Err(); err != nil {
		return Item{}, err
	}
	if err := checkCode("get", code); err != nil {
		return Item{}, err
	}
	now := b.clock()
	var it memItem
	err := b.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(boltBucket).Get([]byte(code))
		if v == nil {
			return ErrNotFound
		}
		var err error
		it, err = decodeBolt(code, v) // copies the state out of the transaction's memory
		if err != nil {
			return err
		}
		if expired(it.expSec, now) {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return Item{}, fmt.Errorf("get game %q: %w", code, err)
	}
	return Item{Code: code, Version: it.version, State: it.state, ExpiresAt: time.Unix(it.expSec, 0)}, nil
}

// Update replaces the state only if the stored version is still expected, and returns the new version (expected+1).
func (b *Bolt) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
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
	now := b.clock()
	err := b.commit(func(bk *bolt.Bucket) error {
		v := bk.Get([]byte(code))
		if v == nil {
			return ErrNotFound
		}
		old, err := decodeBolt(code, v)
		if err != nil {
			return err
		}
		if expired(old.expSec, now) {
			return ErrNotFound
		}
		if old.version != expected {
			return fmt.Errorf("stored version is %d: %w", old.version, ErrConflict)
		}
		return bk.Put([]byte(code), encodeBolt(next, epochSeconds(expiresAt), state))
	})
	if err != nil {
		return 0, fmt.Errorf("update game %q from version %d: %w", code, expected, err)
	}
	return next, nil
}

// DeleteExpired forgets every game past its expiry, as DynamoDB's TTL does, and
// returns how many it removed. A local server may call it now and then to keep
// the file small; expired games are treated as missing whether or not it runs.
func (b *Bolt) DeleteExpired(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := b.clock()
	n := 0
	err := b.db.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket(boltBucket)
		var dead [][]byte
		err := bk.ForEach(func(k, v []byte) error {
			it, err := decodeBolt(string(k), v)
			if err != nil {
				return err
			}
			if expired(it.expSec, now) {
				dead = append(dead, clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range dead {
			if err := bk.Delete(k); err != nil {
				return err
			}
		}
		n = len(dead)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: delete expired games: %w", err)
	}
	return n, nil
}

// encodeBolt lays out a stored game's value.
func encodeBolt(version, expSec int64, state []byte) []byte {
	v := make([]byte, boltHeaderLen+len(state))
	v[0] = boltFormat
	binary.BigEndian.PutUint64(v[1:9], uint64(version))
	binary.BigEndian.PutUint64(v[9:17], uint64(expSec))
	copy(v[boltHeaderLen:], state)
	return v
}

// decodeBolt reads a value that encodeBolt wrote, copying the state.
func decodeBolt(code string, v []byte) (memItem, error) {
	if len(v) < boltHeaderLen || v[0] != boltFormat {
		return memItem{}, fmt.Errorf("store: game %q: malformed value (%d bytes)", code, len(v))
	}
	return memItem{
		version: int64(binary.BigEndian.Uint64(v[1:9])),
		expSec:  int64(binary.BigEndian.Uint64(v[9:17])),
		state:   clone(v[boltHeaderLen:]),
	}, nil
}
