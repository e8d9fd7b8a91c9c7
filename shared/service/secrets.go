package service

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"citysleeps/shared/rules"
)

// CodeAlphabet is the room code's alphabet: capital letters and digits without the
// look-alikes 0/O and 1/I/L, so a code read off a TV can be typed without doubt.
const CodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// CodeLen is the length of a room code: 31^6 ≈ 8.9e8 codes, so a random one is
// almost never taken.
const CodeLen = 6

// tokenBytes is the randomness in a token: 144 bits (DESIGN.md asks for at least
// 128), which base64url writes in 24 characters without padding.
const tokenBytes = 18

// tokenLen is the length of a token as sent.
const tokenLen = 24

// hashLen is the stored length of a token's hash. A 16-byte prefix of SHA-256
// keeps 128 bits against guessing a token from its hash, which is all a stolen
// item could be attacked with (the tokens themselves have 144 bits), and saves
// 16 incompressible bytes per seat in every stored item.
const hashLen = 16

// newCode draws a room code from rnd, uniformly over CodeAlphabet: bytes of 248
// and over are thrown away so that every letter is equally likely.
func newCode(rnd io.Reader) (string, error) {
	const limit = 256 - 256%len(CodeAlphabet)
	out := make([]byte, 0, CodeLen)
	buf := make([]byte, 2*CodeLen)
	for len(out) < CodeLen {
		if _, err := io.ReadFull(rnd, buf); err != nil {
			return "", err
		}
		for _, b := range buf {
			if int(b) < limit && len(out) < CodeLen {
				out = append(out, CodeAlphabet[int(b)%len(CodeAlphabet)])
			}
		}
	}
	return string(out), nil
}

// normalizeCode turns a code as typed or routed into the stored form (upper case),
// and reports whether it can be a room code at all: anything else is a game that
// does not exist, refused before the store is asked.
func normalizeCode(code string) (string, bool) {
	if len(code) != CodeLen {
		return "", false
	}
	up := strings.ToUpper(code)
	for i := 0; i < len(up); i++ {
		if strings.IndexByte(CodeAlphabet, up[i]) < 0 {
			return "", false
		}
	}
	return up, true
}

// newToken draws a secret token from rnd.
func newToken(rnd io.Reader) (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := io.ReadFull(rnd, b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// hashToken is what is stored for a token: only a hash, so a leaked item gives
// nobody a seat.
func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:hashLen]
}

// wellFormedToken reports whether token could be one this service made. Its format
// is public, so checking it before hashing leaks nothing.
func wellFormedToken(token string) bool {
	if len(token) != tokenLen {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil
}

// who finds the viewer a token belongs to. "" is the public shared screen. Every
// stored hash is compared, in constant time, whether or not one matched already,
// so the time taken says nothing about which seat, if any, a token is near.
func (e *envelope) who(token string) (rules.Viewer, bool) { return whoOf(token, e.Host, e.Tokens) }

// whoOf finds, as who does, the holder of token among the host's hash and
// the players' (by id): a game's, or an evening's organiser and roster.
func whoOf(token string, host []byte, players map[string][]byte) (rules.Viewer, bool) {
	if token == "" {
		return rules.Public, true
	}
	if !wellFormedToken(token) {
		return rules.Viewer{}, false
	}
	h := hashToken(token)
	var v rules.Viewer
	found := 0
	if subtle.ConstantTimeCompare(h, host) == 1 {
		v, found = rules.Viewer{Host: true}, found+1
	}
	for id, ph := range players {
		if subtle.ConstantTimeCompare(h, ph) == 1 {
			v, found = rules.Viewer{Player: id}, found+1
		}
	}
	return v, found == 1
}

// MaxActionID is the longest client action id, join id or device id.
const MaxActionID = 64

// MinClientID is the shortest join id or device id: 16 characters of the
// alphabet below hold 96 bits if they are random, as the app's are (128 bits).
const MinClientID = 16

// validActionID reports whether id is 1 to 64 characters of [A-Za-z0-9_-]: enough
// for a UUID or a counter, and nothing that needs escaping in a log line.
func validActionID(id string) bool { return validClientID(id, 1) }

// validClientID reports whether id is minLen to MaxActionID characters of
// [A-Za-z0-9_-].
func validClientID(id string, minLen int) bool {
	if len(id) < minLen || len(id) > MaxActionID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// checkClientID refuses a client's join id or device id (named field) that is
// neither empty nor MinClientID to MaxActionID of [A-Za-z0-9_-]: a game's
// join and an evening's read them alike.
func checkClientID(field, id string) error {
	if id != "" && !validClientID(id, MinClientID) {
		return invalid(fmt.Sprintf("%s must be %d to %d letters, digits, '-' or '_'", field, MinClientID, MaxActionID))
	}
	return nil
}

// gameKeyLen is the length of a game's secret key (envelope.Key).
const gameKeyLen = 16

// joinToken is the token of the seat that a join with the client's joinID
// takes: an HMAC of the id under the game's key, as long as a random token. The
// same join sent again gets the same token, and finds its seat by the token's
// hash, which is all that is stored of it; without the key, which never leaves
// the store, nobody can work a token out from a join id.
func joinToken(key []byte, joinID string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(joinID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:tokenBytes])
}

// deviceKeyLen is the bytes kept of a device id's hash.
const deviceKeyLen = 9

// deviceKey is what the game keeps of a client's device id (rules.JoinFrom): a
// hash, so the stored game holds nothing the device sent.
func deviceKey(device string) string {
	sum := sha256.Sum256([]byte("device\x00" + device))
	return base64.RawURLEncoding.EncodeToString(sum[:deviceKeyLen])
}

// noise is Table.Noise for a revision of the game: an HMAC of the revision
// under the hashes of the host's token and of every seat's (sorted by seat
// id). Every reader of the revision computes the same; a client knows the
// hash of its own token at most, never all of them, so none can.
func (e *envelope) noise(version int64, tick int) uint64 {
	m := hmac.New(sha256.New, e.Host)
	for _, id := range slices.Sorted(maps.Keys(e.Tokens)) {
		m.Write(e.Tokens[id])
	}
	m.Write(binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, uint64(version)), uint64(tick)))
	return binary.BigEndian.Uint64(m.Sum(nil))
}
