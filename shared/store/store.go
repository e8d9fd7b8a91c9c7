package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Item is one stored game.
type Item struct {
	Code      string    // room code, the key
	Version   int64     // 1 after Create, +1 on every Update
	State     []byte    // opaque, already compact (the caller compresses)
	ExpiresAt time.Time // when the game may be forgotten (TTL); items past it are treated as missing
}

// The errors every Store returns, wrapped with %w: test for them with errors.Is.
var (
	// ErrNotFound means there is no such game, or it has expired.
	ErrNotFound = errors.New("store: game not found")
	// ErrExists means Create was given a room code an unexpired game already holds.
	ErrExists = errors.New("store: game already exists")
	// ErrConflict means the version given to Update is no longer the current one:
	// reload the game and apply the action again.
	ErrConflict = errors.New("store: game changed since it was read")
	// ErrTooLarge means the item is over the backend's size limit (see MaxItemSize).
	ErrTooLarge = errors.New("store: game too large to store")
	// ErrThrottled means the backend refused the request for now because of the
	// request rate (DynamoDB's throttling): the request may pass later, after a
	// longer pause than a conflict needs.
	ErrThrottled = errors.New("store: request throttled")
)

// Store keeps games as opaque state bytes under optimistic versioning.
// Implementations are safe for concurrent use.
type Store interface {
	// Create stores a new game at version 1; ErrExists if the code is taken by an unexpired item.
	Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error
	// Get loads a game. consistent=true asks for a strongly consistent read (the read before a write);
	// false allows an eventually consistent one (polls).
	Get(ctx context.Context, code string, consistent bool) (Item, error)
	// Update replaces the state only if the stored version is still `expected`, and returns the new version (expected+1).
	Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error)
}

// Capacity receives the capacity one request consumed, for measuring cost.
// op is the Store method that made the request ("Create", "Get" or "Update");
// readUnits and writeUnits are DynamoDB read and write capacity units.
// It is called from the goroutine that made the request, so it must be safe for
// concurrent use when the Store is.
type Capacity func(op string, readUnits, writeUnits float64)

// The op names passed to a Capacity hook.
const (
	OpCreate = "Create"
	OpGet    = "Get"
	OpUpdate = "Update"
)

// MaxItemSize is the largest item, in bytes as ItemSize counts them, that a Store
// accepts: DynamoDB's limit of 400 KB per item. The embedded stores enforce the
// same limit so that a game that fits locally also fits in production.
const MaxItemSize = 400 * 1024

// Attribute names of a stored game. DynamoDB keeps them in every item, and they
// count towards its size.
const (
	attrCode      = "code"
	attrVersion   = "version"
	attrState     = "state"
	attrExpiresAt = TTLAttribute
)

// TTLAttribute is the name of the attribute that holds an item's expiry time,
// in epoch seconds; the DynamoDB table's TimeToLiveSpecification must name it.
const TTLAttribute = "expiresAt"

// ItemSize returns the size of it as DynamoDB counts it against MaxItemSize:
// the UTF-8 length of each attribute name plus the size of its value, with
// numbers taking one byte per two significant digits plus one.
// ExpiresAt counts as the epoch seconds that are stored.
func ItemSize(it Item) int {
	return len(attrCode) + len(it.Code) +
		len(attrVersion) + numberSize(it.Version) +
		len(attrState) + len(it.State) +
		len(attrExpiresAt) + numberSize(epochSeconds(it.ExpiresAt))
}

// numberSize is the size DynamoDB gives a number attribute's value: digits are
// stored two to a byte in base 100, aligned on the decimal point, plus one byte
// of exponent (and one for a negative sign).
func numberSize(n int64) int {
	if n == 0 {
		return 1
	}
	neg := n < 0
	s := strconv.FormatInt(n, 10)
	if neg {
		s = s[1:]
	}
	exp := len(s) - 1 // exponent of the leading digit
	digits := len(strings.TrimRight(s, "0"))
	size := 1 + (digits+1)/2
	// An even count of digits starting on an even exponent straddles one more base-100 pair.
	if digits%2 == 0 && exp%2 == 0 {
		size++
	}
	if neg {
		size++
	}
	return size
}

// epochSeconds is t in whole seconds since the epoch, rounded up, so that a game
// is never treated as expired before the time it was given.
func epochSeconds(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() != 0 {
		s++
	}
	return s
}

// expired reports whether an item stored with expiry expSec (epoch seconds) is
// past it at now.
func expired(expSec int64, now time.Time) bool {
	return now.Unix() >= expSec
}

// checkWrite validates the arguments of Create and Update, shared by every backend.
func checkWrite(op, code string, expiresAt time.Time) error {
	if err := checkCode(op, code); err != nil {
		return err
	}
	if expiresAt.IsZero() {
		return fmt.Errorf("store: %s game %q: zero expiry time", op, code)
	}
	return nil
}

// checkCode rejects an empty room code, which no backend can store.
func checkCode(op, code string) error {
	if code == "" {
		return fmt.Errorf("store: %s: empty room code", op)
	}
	return nil
}

// checkSize returns ErrTooLarge, wrapped, when it is over MaxItemSize.
func checkSize(op string, it Item) error {
	if n := ItemSize(it); n > MaxItemSize {
		return fmt.Errorf("%s game %q: item is %d bytes, over the limit of %d: %w",
			op, it.Code, n, MaxItemSize, ErrTooLarge)
	}
	return nil
}
