package service

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"citysleeps/shared/rules"
)

// A seat moves to another device (a phone that went flat, a substitute) by a
// one-time link: the host's rules.ActReseat opens one for the seat, and the
// answer to it carries the key, the one time the key leaves the server (Act);
// a join with the key takes the seat (takeSeat) and closes the link. The game
// keeps only a hash of each key, as of tokens. An evening's organiser moves a
// player's evening place the same way, with the same keys (ActReseat,
// takePlace): both keep their links as seatLinks.

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
	// CodeSeatCodeNeeded: in a game the app moderates a link takes its seat
	// only with the seat's code too (seatCode); none was sent. The link stays
	// as it was.
	CodeSeatCodeNeeded = "seat_code_needed"
	// CodeSeatCodeWrong: the seat's code sent with the link is not the
	// seat's. It counts against the link, which closes at the seatCodeTries'th.
	CodeSeatCodeWrong = "seat_code_wrong"
)

// A seat's code is seatCodeDigits digits, and a link takes seatCodeTries
// wrong ones before it closes: a guess comes true once in 333,333 links.
const (
	seatCodeDigits = 6
	seatCodeTries  = 3
)

// seatCode is the code of the seat whose token hash is th, in a game the app
// moderates: what only the seat's own phone shows (rules.You.SeatCode), so
// that a link moves the seat only with its player taking part. It is drawn
// from the token's hash, which never leaves the server, and so changes when
// the seat moves: the new phone shows a new one.
func seatCode(th []byte) string {
	m := hmac.New(sha256.New, []byte("seat code"))
	m.Write(th)
	n := binary.BigEndian.Uint64(m.Sum(nil)) % 1_000_000
	return fmt.Sprintf("%0*d", seatCodeDigits, n)
}

// needsSeatCode reports whether a link takes its seat only with the seat's
// code in a game moderated by moderator, in phase (closing: its hand-over):
// when the app moderates, once the cards are dealt, which is from the
// lobby's hand-over on (the cards are on the phones while it counts down).
// A person who moderates sees every card anyway, and moves seats as before.
func needsSeatCode(moderator string, phase rules.PhaseName, closing bool) bool {
	dealt := phase != rules.PhaseLobby || closing
	return moderator == rules.ModeratorApp && dealt && phase != rules.PhaseGameOver
}

// countedRefusal is a refusal whose step still writes what it changed: a
// wrong seat code counts against its link, so that guessing costs the link
// and not only a request. The request answers err.
type countedRefusal struct{ err error }

func (c *countedRefusal) Error() string { return c.err.Error() }
func (c *countedRefusal) Unwrap() error { return c.err }

// counted reports whether err is a refusal whose change is written.
func counted(err error) (*countedRefusal, bool) {
	var c *countedRefusal
	return c, errors.As(err, &c)
}

// openLink is what a game keeps of a link: the hash of its key, when it
// closes, in Unix seconds, and how many wrong seat codes it was sent.
type openLink struct {
	Hash  []byte `json:"h"`
	Ends  int64  `json:"e"`
	Wrong int    `json:"w,omitempty"`
}

// closed reports whether the link's time is up at now.
func (l openLink) closed(now time.Time) bool { return now.Unix() >= l.Ends }

// hashSeatKey is what is stored of a seat key: a hash, as for tokens, made
// apart from theirs so that no key can ever pass for a token.
func hashSeatKey(key string) []byte { return hashToken("seat\x00" + key) }

// seatLinks are the open links by the id they move: a game's seats
// (envelope.Moving), or an evening's players (eveningItem.Moving), each id's
// latest link only. A game and an evening keep them alike, so that a key is
// made, kept, found and timed out the same way in both.
type seatLinks map[string]openLink

// open opens a link with key for id at now, closing id's earlier one and,
// when most is above 0, the oldest beyond most, and returns it as the host
// (or the evening's organiser) is shown it. It makes the map if there is
// none yet.
func (m *seatLinks) open(id, key string, now time.Time, most int) *rules.SeatLink {
	if *m == nil {
		*m = seatLinks{}
	}
	delete(*m, id)
	for most > 0 && len(*m) >= most {
		delete(*m, m.oldest())
	}
	l := openLink{Hash: hashSeatKey(key), Ends: now.Add(seatKeyLife).Unix()}
	(*m)[id] = l
	return &rules.SeatLink{Target: id, Key: key, ExpiresAt: time.Unix(l.Ends, 0).UTC()}
}

// oldest is the id whose link closes first (the lowest id among equals, so
// that every try of a request closes the same one).
func (m seatLinks) oldest() string {
	oldest := ""
	for id, l := range m {
		if o, ok := m[oldest]; !ok || cmp.Or(cmp.Compare(l.Ends, o.Ends), cmp.Compare(id, oldest)) < 0 {
			oldest = id
		}
	}
	return oldest
}

// find finds the id whose open link has key. Every stored hash is compared,
// in constant time, whether or not one matched already, as who compares
// tokens.
func (m seatLinks) find(key string) (string, openLink, bool) {
	if !wellFormedToken(key) {
		return "", openLink{}, false
	}
	h := hashSeatKey(key)
	var id string
	var found openLink
	n := 0
	for i, l := range m {
		if subtle.ConstantTimeCompare(h, l.Hash) == 1 {
			id, found, n = i, l, n+1
		}
	}
	return id, found, n == 1
}

// usable is the id whose open link has key at now, or the refusal of the
// key: CodeSeatKeyInvalid when no link has it, CodeSeatKeyExpired when its
// time is up. The refusal's message names what the link moves ("seat",
// "place"), where ("game", "evening") and who makes links ("host",
// "organiser").
func (m seatLinks) usable(key string, now time.Time, what, where, who string) (string, openLink, error) {
	id, l, ok := m.find(key)
	switch {
	case !ok:
		return "", openLink{}, seatKeyRefused(CodeSeatKeyInvalid, fmt.Sprintf("this link holds no %s of this %s: it was used, replaced by a newer one, or made for another %s; ask the %s for a new one", what, where, where, who))
	case l.closed(now):
		return "", openLink{}, seatKeyRefused(CodeSeatKeyExpired, fmt.Sprintf("this link's time is up; ask the %s for a new one", who))
	}
	return id, l, nil
}

// open opens a link with key for seat id at now (seatLinks.open), at most
// maxOpen in the game.
func (e *envelope) open(id, key string, now time.Time) *rules.SeatLink {
	return e.Moving.open(id, key, now, maxOpen)
}

// moving lists, in seat order, the seats whose link is still open at now.
func (e *envelope) moving(now time.Time) []string {
	ids := make([]string, len(e.State.Players))
	for i, p := range e.State.Players {
		ids[i] = p.ID
	}
	return e.Moving.openOf(ids, now)
}

// openOf lists those of ids, in their order, whose link is still open at now:
// what a host's or an organiser's page needs to know that a link it shows
// has been used (or has run out).
func (m seatLinks) openOf(ids []string, now time.Time) []string {
	var out []string
	for _, id := range ids {
		if l, ok := m[id]; ok && !l.closed(now) {
			out = append(out, id)
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
		seat, l, err := env.Moving.usable(req.SeatKey, now, "seat", "game", "host")
		if err != nil {
			return rules.State{}, "", err
		}
		if at := rules.Advance(env.State, now).Phase; needsSeatCode(env.State.Moderator, at.Name, at.Closing) {
			if err := env.checkSeatCode(seat, l, req.SeatCode); err != nil {
				return rules.State{}, "", err
			}
		}
		st, err := rules.Move(env.State, seat, device, now)
		return st, seat, err
	})
}

// seatKeyRefused is the refusal of a seat key, with its code.
func seatKeyRefused(code, msg string) error {
	return &Error{Kind: ErrForbidden, Code: code, Message: msg}
}

// checkSeatCode checks the seat's code sent with its link l (seatLinks.check)
// against the seat's token.
func (e *envelope) checkSeatCode(seat string, l openLink, code string) error {
	return e.Moving.check(seat, l, code, e.Tokens[seat], "host")
}

// check checks the code sent with link l of seat id against the code of the
// seat whose token hash is th (matchSeatCode): a wrong one counts against
// the link (miss); who makes links is named in the refusal.
func (m seatLinks) check(id string, l openLink, code string, th []byte, who string) error {
	err := matchSeatCode(code, th)
	if errors.Is(err, errWrongSeatCode) {
		return m.miss(id, l, who)
	}
	return err
}

// errWrongSeatCode is a seat code that is not the seat's.
var errWrongSeatCode = errors.New("wrong seat code")

// matchSeatCode checks a seat code against the code of the seat whose token
// hash is th (seatCode): nil when it is the seat's, CodeSeatCodeNeeded's
// refusal when none is sent (which changes nothing), errWrongSeatCode for
// another. Codes are compared in constant time.
func matchSeatCode(code string, th []byte) error {
	switch {
	case code == "":
		return seatKeyRefused(CodeSeatCodeNeeded, "this seat moves with its seat code too: the code on its card, on the player's own phone")
	case subtle.ConstantTimeCompare([]byte(code), []byte(seatCode(th))) != 1:
		return errWrongSeatCode
	}
	return nil
}

// miss counts a wrong seat code against link l of seat id, and closes the
// link at the seatCodeTries'th: a refusal that is written (countedRefusal),
// so that guessing costs the link and not only a request.
func (m seatLinks) miss(id string, l openLink, who string) error {
	l.Wrong++
	msg := fmt.Sprintf("that is not the seat's code; %d more tries on this link", seatCodeTries-l.Wrong)
	if l.Wrong >= seatCodeTries {
		delete(m, id)
		msg = fmt.Sprintf("that is not the seat's code, and this link is closed; ask the %s for a new one", who)
	} else {
		m[id] = l
	}
	return &countedRefusal{seatKeyRefused(CodeSeatCodeWrong, msg)}
}
