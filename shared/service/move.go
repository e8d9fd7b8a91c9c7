package service

import (
	"cmp"
	"context"
	"crypto/subtle"
	"time"

	"citysleeps/shared/rules"
)

// A seat moves to another device (a phone that went flat, a substitute) by a
// one-time link: the host's rules.ActReseat opens one for the seat, and the
// answer to it carries the key, the one time the key leaves the server (Act);
// a join with the key takes the seat (takeSeat) and closes the link. The game
// keeps only a hash of each key, as of tokens.

// seatKeyLife is how long a link stays open: time to find another phone and
// scan a code, and not much more, as the code may be on a screen the whole
// table sees.
const seatKeyLife = 10 * time.Minute

// maxOpen is the most links a game keeps open at once, each seat's latest
// one: a new link closes the oldest beyond it. Several phones dying at once is
// rare, and a host who opens links for every seat in a loop must not grow the
// stored game past its budget (storedBudget).
const maxOpen = 4

// The codes of a seat key refused.
const (
	// CodeSeatKeyInvalid: no link of this game has the key: it was never made
	// here, was used, or a newer link for the seat replaced it. Only hashes of
	// open links are kept, so these cannot be told apart.
	CodeSeatKeyInvalid = "seat_key_invalid"
	// CodeSeatKeyExpired: the link was open, and its time is up.
	CodeSeatKeyExpired = "seat_key_expired"
)

// openLink is what a game keeps of a link: the hash of its key and when it
// closes, in Unix seconds.
type openLink struct {
	Hash []byte `json:"h"`
	Ends int64  `json:"e"`
}

// closed reports whether the link's time is up at now.
func (l openLink) closed(now time.Time) bool { return now.Unix() >= l.Ends }

// hashSeatKey is what is stored of a seat key: a hash, as for tokens, made
// apart from theirs so that no key can ever pass for a token.
func hashSeatKey(key string) []byte { return hashToken("seat\x00" + key) }

// open opens a link with key for seat id at now, closing the seat's earlier
// one and, beyond maxOpen, the oldest, and returns it as the host is shown it.
func (e *envelope) open(id, key string, now time.Time) *rules.SeatLink {
	if e.Moving == nil {
		e.Moving = map[string]openLink{}
	}
	delete(e.Moving, id)
	for len(e.Moving) >= maxOpen {
		delete(e.Moving, e.oldestLink())
	}
	l := openLink{Hash: hashSeatKey(key), Ends: now.Add(seatKeyLife).Unix()}
	e.Moving[id] = l
	return &rules.SeatLink{Target: id, Key: key, ExpiresAt: time.Unix(l.Ends, 0).UTC()}
}

// oldestLink is the seat whose link closes first (the lowest id among equals,
// so that every try of a request closes the same one).
func (e *envelope) oldestLink() string {
	oldest := ""
	for id, l := range e.Moving {
		if o, ok := e.Moving[oldest]; !ok || cmp.Or(cmp.Compare(l.Ends, o.Ends), cmp.Compare(id, oldest)) < 0 {
			oldest = id
		}
	}
	return oldest
}

// link finds the seat whose open link has key. Every stored hash is compared,
// in constant time, whether or not one matched already, as who compares
// tokens.
func (e *envelope) link(key string) (string, openLink, bool) {
	if !wellFormedToken(key) {
		return "", openLink{}, false
	}
	h := hashSeatKey(key)
	var seat string
	var found openLink
	n := 0
	for id, l := range e.Moving {
		if subtle.ConstantTimeCompare(h, l.Hash) == 1 {
			seat, found, n = id, l, n+1
		}
	}
	return seat, found, n == 1
}

// moving lists, in seat order, the seats whose link is still open at now.
func (e *envelope) moving(now time.Time) []string {
	var out []string
	for _, p := range e.State.Players {
		if l, ok := e.Moving[p.ID]; ok && !l.closed(now) {
			out = append(out, p.ID)
		}
	}
	return out
}

// takeSeat is a join with a seat key: it moves the seat whose link has the key
// to the device that sends it (rules.Move), in any phase, and returns the seat
// with a new token. The seat's old token matches nobody from then on, and the
// link is closed. A join id makes it safe to send again, as for any join: the
// key is used by the first try, and the same join then finds the seat it took.
//
// The seat keeps its name (a substitute who sits in plays under it), so a
// name is refused here; a key that no link of this game has is
// CodeSeatKeyInvalid, a link whose time is up CodeSeatKeyExpired, both 403,
// and neither changes anything.
func (s *Service) takeSeat(ctx context.Context, code string, req JoinRequest) (Joined, error) {
	if req.Name != "" {
		return Joined{}, invalid("a seat key takes the seat as it is, name and all: send it without a name")
	}
	return s.seatDevice(ctx, "move", code, req, func(env *envelope, device string, now time.Time) (rules.State, string, error) {
		seat, l, ok := env.link(req.SeatKey)
		switch {
		case !ok:
			return rules.State{}, "", seatKeyRefused(CodeSeatKeyInvalid, "this link holds no seat of this game: it was used, replaced by a newer one, or made for another game; ask the host for a new one")
		case l.closed(now):
			return rules.State{}, "", seatKeyRefused(CodeSeatKeyExpired, "this link's time is up; ask the host for a new one")
		}
		st, err := rules.Move(env.State, seat, device, now)
		return st, seat, err
	})
}

// seatKeyRefused is the refusal of a seat key, with its code.
func seatKeyRefused(code, msg string) error {
	return &Error{Kind: ErrForbidden, Code: code, Message: msg}
}
