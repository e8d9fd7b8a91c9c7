package service

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"citysleeps/shared/rules"
)

// envelope is everything stored for one game: the rules state, and what the
// service needs to know who is asking and whether a request was already applied.
// It is stored in the same item as the state so that the token and replay checks
// are atomic with the write that changes the game.
type envelope struct {
	State rules.State `json:"s"`
	// Host is the hash of the host token.
	Host []byte `json:"h"`
	// Tokens maps each seated player's id to the hash of their token.
	Tokens map[string][]byte `json:"t,omitempty"`
	// Recent remembers the last applied actions, oldest first, at most maxRecent:
	// recentLen bytes of a hash of actor and action id each (see actionKey).
	Recent []byte `json:"r,omitempty"`
	// Next is the room code of the game this table plays next (Again).
	Next string `json:"n,omitempty"`
}

// hostActor stands for the host in an action's key. Player ids are "p1", "p2", …,
// so it cannot clash with one.
const hostActor = "host"

// maxRecent is how many applied action ids a game remembers: a client's retry
// comes within seconds, while 64 actions are several minutes of a 10-player game.
const maxRecent = 64

// recentLen is the bytes kept per remembered action. Client ids are random
// strings (a UUID is 36 characters) that deflate cannot shrink: 64 of them would be
// half of a stored game. A 64-bit hash is a quarter of that, and two different
// actions of the last 64 share one with odds of about 1 in 10^17; a client can
// only aim a collision at itself, since the actor is hashed in.
const recentLen = 8

// actionKey is what Recent keeps for an action: a hash of who sent it and its id,
// so the same id from another actor is another action.
func actionKey(a rules.Actor, id string) [recentLen]byte {
	who := a.Player
	if a.Host {
		who = hostActor
	}
	sum := sha256.Sum256([]byte(who + "\x00" + id))
	return [recentLen]byte(sum[:recentLen])
}

// seen reports whether the action id was already applied for this actor.
func (e *envelope) seen(a rules.Actor, id string) bool {
	k := actionKey(a, id)
	for r := e.Recent; len(r) >= recentLen; r = r[recentLen:] {
		if [recentLen]byte(r[:recentLen]) == k {
			return true
		}
	}
	return false
}

// remember records an applied action, forgetting the oldest beyond maxRecent.
func (e *envelope) remember(a rules.Actor, id string) {
	k := actionKey(a, id)
	r := append(e.Recent, k[:]...)
	if n := len(r) - maxRecent*recentLen; n > 0 {
		r = r[n:]
	}
	e.Recent = append([]byte(nil), r...)
}

// prune forgets the tokens of players who are no longer at the table (left or
// kicked in the lobby), so their tokens stop matching anyone.
func (e *envelope) prune() {
	for id := range e.Tokens {
		found := false
		for _, p := range e.State.Players {
			if p.ID == id {
				found = true
				break
			}
		}
		if !found {
			delete(e.Tokens, id)
		}
	}
}

// The stored form of a game is
//
//	format (1 byte) | timing (10 bytes) | deflate(JSON(envelope))
//
// JSON because the state is plain data that must outlive versions of this code;
// deflate because the JSON of a game repeats itself (field names, ids, event types)
// and a smaller item costs fewer DynamoDB capacity units on every read and write.
// Plain deflate (compress/flate) and not gzip: gzip is the same deflate stream with
// an 18-byte header and trailer, and its CRC guards against nothing that DynamoDB
// and bbolt do not already check. Compressing against a preset dictionary of the
// JSON a game is made of (codecDict) saves most of the cost of the field names and
// of the rules block, which every game repeats. Measured on finished 10-player sport
// games (BenchmarkStoredSize): 8-9 KB of JSON store as about 1.3 KB; deflate without
// the dictionary gives about 2.3 KB, gzip 18 bytes more, and BestCompression saves
// a few dozen bytes over the default level for more time.
//
// timing is the game's rules.Timing as stored, so that a poll of the shared screen
// can tell whether a deadline has passed, and what to hint, without decompressing
// anything: the deadline (8 bytes, big-endian Unix milliseconds, 0 for none), a
// byte of flags (timingHold, timingOver) and the hand-over in seconds (1 byte).
// Format 1, written before the hint needed more than the deadline, had the
// deadline alone; such games are still read.
const (
	formatV1    = 1
	formatV2    = 2
	headerLenV1 = 1 + 8
	headerLen   = 1 + 8 + 1 + 1
	// level: deflate's default level compresses a game's JSON within a few bytes
	// of BestCompression, in less time.
	level = flate.DefaultCompression
)

// The flags of the stored timing.
const (
	timingHold = 1 << iota
	timingOver
)

// writers and readers reuse deflate's large tables (about 700 KB for a writer)
// across requests. Reset clears a writer's match tables and refills its window
// from the dictionary, and a reader's window is refilled from the dictionary too,
// so no byte of one game can reach another's output; the pools hold buffers, not
// games.
var (
	writers = sync.Pool{New: func() any {
		w, err := flate.NewWriterDict(io.Discard, level, codecDict)
		if err != nil {
			panic(err) // only for a bad level, a constant
		}
		return w
	}}
	readers = sync.Pool{New: func() any {
		return flate.NewReaderDict(bytes.NewReader(nil), codecDict)
	}}
)

// encode returns the stored form of e.
func encode(e *envelope) ([]byte, error) {
	js, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode game: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(headerLen + len(js)/3)
	buf.Write(timingHeader(rules.TimingOf(e.State)))
	w := writers.Get().(*flate.Writer)
	defer writers.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(js); err != nil {
		return nil, fmt.Errorf("encode game: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("encode game: %w", err)
	}
	return buf.Bytes(), nil
}

// errFormat is the cause when a stored item is not something encode wrote.
var errFormat = errors.New("unknown stored format")

// decode reads what encode wrote.
func decode(b []byte) (*envelope, error) {
	n := 0
	switch {
	case len(b) >= headerLen && b[0] == formatV2:
		n = headerLen
	case len(b) >= headerLenV1 && b[0] == formatV1:
		n = headerLenV1
	default:
		return nil, errFormat
	}
	r := readers.Get().(io.ReadCloser)
	defer readers.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(b[n:]), codecDict); err != nil {
		return nil, err
	}
	js, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	e := new(envelope)
	if err := json.Unmarshal(js, e); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return e, nil
}

// timingHeader is the header of a game with timing t. The deadline is rounded
// down to the millisecond, so that it is never later than the real one.
func timingHeader(t rules.Timing) []byte {
	head := make([]byte, headerLen)
	head[0] = formatV2
	if !t.Due.IsZero() {
		binary.BigEndian.PutUint64(head[1:9], uint64(t.Due.Truncate(time.Millisecond).UnixMilli()))
	}
	if t.Hold {
		head[9] |= timingHold
	}
	if t.Over {
		head[9] |= timingOver
	}
	head[10] = byte(min(t.HandOver/time.Second, 255))
	return head
}

// storedTiming reads the timing from the header of a stored game; false for a
// game stored before the header held it.
func storedTiming(b []byte) (rules.Timing, bool) {
	if len(b) < headerLen || b[0] != formatV2 {
		return rules.Timing{}, false
	}
	t := rules.Timing{
		Hold:     b[9]&timingHold != 0,
		Over:     b[9]&timingOver != 0,
		HandOver: time.Duration(b[10]) * time.Second,
	}
	if ms := binary.BigEndian.Uint64(b[1:9]); ms != 0 {
		t.Due = time.UnixMilli(int64(ms))
	}
	return t, true
}
