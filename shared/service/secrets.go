package service

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

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
func (e *envelope) who(token string) (rules.Viewer, bool) {
	if token == "" {
		return rules.Public, true
	}
	if !wellFormedToken(token) {
		return rules.Viewer{}, false
	}
	h := hashToken(token)
	var v rules.Viewer
	found := 0
	if subtle.ConstantTimeCompare(h, e.Host) == 1 {
		v, found = rules.Viewer{Host: true}, found+1
	}
	for id, ph := range e.Tokens {
		if subtle.ConstantTimeCompare(h, ph) == 1 {
			v, found = rules.Viewer{Player: id}, found+1
		}
	}
	return v, found == 1
}

// normalizeName trims a player's name and collapses every run of white space
// inside it (tabs and newlines included) to one space, then refuses what would
// mislead at the table: an empty or over-long name, invalid UTF-8, control
// characters and the invisible bidirectional controls that can reorder the text
// around a name on other people's screens.
func normalizeName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", invalid("a name must be valid UTF-8 text")
	}
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return "", invalid("a name is needed")
	}
	if n := utf8.RuneCountInString(name); n > rules.MaxName {
		return "", invalid("a name is at most 24 characters")
	}
	for _, r := range name {
		if unicode.IsControl(r) || isBidiControl(r) {
			return "", invalid("a name may not contain control characters")
		}
	}
	return name, nil
}

// isBidiControl reports the explicit directional formatting characters (Unicode
// UAX #9): embeddings, overrides, isolates and marks.
func isBidiControl(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F:
		return true
	case r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// MaxActionID is the longest client action id.
const MaxActionID = 64

// validActionID reports whether id is 1 to 64 characters of [A-Za-z0-9_-]: enough
// for a UUID or a counter, and nothing that needs escaping in a log line.
func validActionID(id string) bool {
	if id == "" || len(id) > MaxActionID {
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
