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
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/reuse"
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
	// Acted remembers applied actions, oldest first, at most maxRecent of
	// them, recentLen bytes each (see remember).
	Acted []byte `json:"a,omitempty"`
	// Key is the game's secret for the tokens of joins that name a join id
	// (joinToken), made at the first such join.
	Key []byte `json:"k,omitempty"`
	// JoinsFull is when the game's allowance of joins is whole again, in Unix
	// milliseconds (takeJoin); 0 when it is whole.
	JoinsFull int64 `json:"j,omitempty"`
	// Next is the room code of the game this table plays next (Again).
	Next string `json:"n,omitempty"`
	// Moving holds the open links that move a seat to another device, by
	// player id: each seat's latest, at most maxOpen (open).
	Moving seatLinks `json:"m,omitempty"`
}

// maxRecent is how many applied actions a game remembers, and recentLen the
// bytes kept of each: the actor (2 bytes: 0 for the host, n for player "pn")
// and a 48-bit hash of the action's id. Client ids are random strings (a UUID
// is 36 characters) that deflate cannot shrink; two ids of one actor share a
// hash with odds of 2^-48, and a client can only aim a collision at itself.
const (
	maxRecent = 64
	recentLen = 8
)

// recentEntry is what Acted keeps of one applied action.
func recentEntry(a rules.Actor, id string) [recentLen]byte {
	var e [recentLen]byte
	if !a.Host {
		who := actorNumber(a.Player)
		copy(e[:2], who[:])
	}
	sum := sha256.Sum256([]byte(id))
	copy(e[2:], sum[:])
	return e
}

// refereeActor names a table's referee as an actor on its evening: the
// table's number follows ("referee/2").
const refereeActor = "referee/"

// actorNumber is an actor's number in Acted, so that each actor's action ids
// are their own: n for player "pn", and for the referee of table t
// (refereeActor) a number of its own from the top down, 0xFFFF-t, which no
// roster reaches (evening.MaxRoster).
func actorNumber(player string) [2]byte {
	n := 0xFFFF // not an actor this service names: shares one number
	if t, ok := strings.CutPrefix(player, refereeActor); ok {
		if t, err := strconv.Atoi(t); err == nil && t >= 1 && t <= evening.MaxTables {
			n = 0xFFFF - t
		}
	} else if p, err := strconv.Atoi(strings.TrimPrefix(player, "p")); err == nil && p >= 1 && p < 0xFFFF-evening.MaxTables {
		n = p
	}
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], uint16(n))
	return b
}

// seen reports whether the action id was already applied for this actor.
func (e *envelope) seen(a rules.Actor, id string) bool { return seenIn(e.Acted, a, id) }

// seenIn reports whether acted, a record of applied actions kept by
// rememberIn, holds the action id of this actor.
func seenIn(acted []byte, a rules.Actor, id string) bool {
	want := recentEntry(a, id)
	for r := acted; len(r) >= recentLen; r = r[recentLen:] {
		if [recentLen]byte(r[:recentLen]) == want {
			return true
		}
	}
	return false
}

// remember records an applied action. Beyond maxRecent it forgets the oldest
// action that is not its actor's latest: every actor's last action is
// remembered until that actor acts again, however long that takes and whatever
// the others do, and the rest of the room goes to the latest actions of all.
//
// That is the window a retry can come in. A client sends its actions one at a
// time and resends one (after a timeout, or a 503 with Retry-After) before it
// sends the next, so its retry names its latest action, however late it comes.
// A client that sends many at once (a bot, a host with the control link open
// on two devices) has the rest: a table has at most 31 actors, so at least 33
// of the 64 places hold the game's latest actions, whoever made them. (The game
// used to remember its last 64 actions of anyone, so a busy table made a
// host's late retry new again within a minute.)
func (e *envelope) remember(a rules.Actor, id string) { e.Acted = rememberIn(e.Acted, a, id) }

// rememberIn returns acted with the action added, as remember keeps it.
func rememberIn(acted []byte, a rules.Actor, id string) []byte {
	entry := recentEntry(a, id)
	r := append(slices.Clip(acted), entry[:]...)
	for len(r) > maxRecent*recentLen {
		drop := 0
		for i := 0; i+recentLen < len(r); i += recentLen {
			if actorLater(r, i) {
				drop = i
				break
			}
		}
		r = slices.Delete(r, drop, drop+recentLen)
	}
	return r
}

// actorLater reports whether the actor of the entry at byte i of r has a later
// entry.
func actorLater(r []byte, i int) bool {
	for j := i + recentLen; j+recentLen <= len(r); j += recentLen {
		if r[j] == r[i] && r[j+1] == r[i+1] {
			return true
		}
	}
	return false
}

// prune forgets the tokens, open links and remembered actions of players who
// are no longer at the table (left, kicked or banned in the lobby), so their
// tokens and links stop matching anyone and a new player given the same id
// starts afresh.
func (e *envelope) prune() {
	seated := map[[2]byte]bool{{}: true} // the host
	for _, p := range e.State.Players {
		seated[actorNumber(p.ID)] = true
	}
	gone := func(id string) bool {
		return !slices.ContainsFunc(e.State.Players, func(p rules.Player) bool { return p.ID == id })
	}
	maps.DeleteFunc(e.Tokens, func(id string, _ []byte) bool { return gone(id) })
	maps.DeleteFunc(e.Moving, func(id string, _ openLink) bool { return gone(id) })
	var kept []byte
	for r := e.Acted; len(r) >= recentLen; r = r[recentLen:] {
		if seated[[2]byte(r[:2])] {
			kept = append(kept, r[:recentLen]...)
		}
	}
	e.Acted = kept
}

// seat gives player id the token with hash h, as a new player or a seat moved
// to another device: the actions remembered of whoever had the id before, and
// the seat's open link, are forgotten, so that a new player's action cannot
// pass for a replay of theirs and a link moves a seat once. prune does that for
// a write's end; this is for an id freed and given again within one batch of
// writes (a leave and a join written together).
func (e *envelope) seat(id string, h []byte) {
	e.Tokens[id] = h
	delete(e.Moving, id)
	who := actorNumber(id)
	var kept []byte
	for r := e.Acted; len(r) >= recentLen; r = r[recentLen:] {
		if [2]byte(r[:2]) != who {
			kept = append(kept, r[:recentLen]...)
		}
	}
	e.Acted = kept
}

// joinBurst and joinEvery are a game's allowance of new seats: joinBurst at
// once (a full table of the largest rule set and ten more), then one every
// joinEvery. A whole party joins at once; someone who joins and leaves in a
// loop, from however many addresses, gets ten seats a minute, each a write.
const (
	joinBurst = 40
	joinEvery = 6 * time.Second
)

// CodeJoinLimited is the code of a join refused because the game gave many
// seats in a short time (ErrLimited).
const CodeJoinLimited = "join_limited"

// takeJoin takes one seat from the game's allowance at now, or says how long
// until there is one (the "generic cell rate algorithm": JoinsFull moves on by
// joinEvery per join, and a join may not push it more than joinBurst joins
// ahead of now). It changes nothing when it refuses.
func (e *envelope) takeJoin(now time.Time) error {
	full := max(e.JoinsFull, now.UnixMilli()) + joinEvery.Milliseconds()
	if over := time.Duration(full-now.UnixMilli())*time.Millisecond - joinBurst*joinEvery; over > 0 {
		return &Error{Kind: ErrLimited, Code: CodeJoinLimited, RetryAfter: over,
			Message: "many players have joined this game in a short time; try again in a few seconds"}
	}
	e.JoinsFull = full
	return nil
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
// so no byte of one game can reach another's output; the lists hold buffers, not
// games (package reuse says why not a sync.Pool).
var (
	writers = reuse.New(16, func() *flate.Writer {
		w, err := flate.NewWriterDict(io.Discard, level, codecDict)
		if err != nil {
			panic(err) // only for a bad level, a constant
		}
		return w
	})
	readers = reuse.New(16, func() io.ReadCloser {
		return flate.NewReaderDict(bytes.NewReader(nil), codecDict)
	})
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
	w := writers.Get()
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

// storedBudget is the most bytes the stored form of a game takes: with the
// item's other attributes (about 40 bytes, store.ItemSize) it fits one DynamoDB
// read unit of 4 KB, so a poll costs half a read unit and an action's read one,
// however long the game has gone on. A full table of the longest names, every
// token and remembered action id, and the current round of the story fit in it
// (TestPropertyStoredSize); the story before the round is told more briefly
// when it must be (pack).
const storedBudget = 4000

// pack is encode for a write: when the game's stored form would be over
// storedBudget, the host's decisions kept to be taken back give way first,
// the oldest first (a table of thirty long names holds fewer than three), and
// then its story is condensed (rules.Condense) at the least level that brings
// it within; e keeps what is stored, so the answer shows it. A game that does
// not fit even at the briefest level is returned as it is, over the budget
// (the store takes up to 400 KB).
func pack(e *envelope) ([]byte, error) {
	b, err := encode(e)
	for err == nil && len(b) > storedBudget && len(e.State.Corrections) > 0 {
		e.State.Corrections = e.State.Corrections[1:]
		b, err = encode(e)
	}
	story := e.State
	for level := 1; err == nil && len(b) > storedBudget && level <= rules.CondenseLevels; level++ {
		e.State = rules.Condense(story, level)
		b, err = encode(e)
	}
	return b, err
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
	r := readers.Get()
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
