package service

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

func lobby(t *testing.T) rules.State {
	t.Helper()
	opts, err := rules.Preset(rules.PresetSport)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.New("K7QX2M", opts, rules.ModeratorApp, "en", time.Unix(1_800_000_000, 0))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCodecRoundTrip(t *testing.T) {
	s := lobby(t)
	s, id, err := rules.Join(s, "Аня", s.Created)
	if err != nil {
		t.Fatal(err)
	}
	env := &envelope{State: s, Host: hashToken("host"), Tokens: map[string][]byte{id: hashToken("anya")}}
	env.remember(rules.Actor{Host: true}, "a1")
	b, err := encode(env)
	if err != nil {
		t.Fatal(err)
	}
	if b[0] != formatV2 {
		t.Fatalf("format byte = %d, want %d", b[0], formatV2)
	}
	got, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(env)
	have, _ := json.Marshal(got)
	if !bytes.Equal(want, have) {
		t.Fatalf("round trip changed the game:\n got %s\nwant %s", have, want)
	}
	if !got.seen(rules.Actor{Host: true}, "a1") {
		t.Error("the remembered action was lost")
	}
}

func TestDecodeRefusesGarbage(t *testing.T) {
	good, err := encode(&envelope{State: lobby(t), Host: hashToken("h")})
	if err != nil {
		t.Fatal(err)
	}
	cut := good[:len(good)-4]
	flipped := bytes.Clone(good)
	flipped[headerLen+2] ^= 0xff
	for name, b := range map[string][]byte{
		"empty":       nil,
		"header only": good[:headerLen],
		"format 3":    append([]byte{3}, good[1:]...),
		"truncated":   cut,
		"corrupted":   flipped,
		"plain JSON":  []byte(`{"s":{}}`),
	} {
		if _, err := decode(b); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
}

func TestRecentIsBoundedAndPerActor(t *testing.T) {
	env := &envelope{}
	host := rules.Actor{Host: true}
	p1 := rules.Actor{Player: "p1"}
	env.remember(p1, "same")
	if !env.seen(p1, "same") {
		t.Fatal("p1's action not seen")
	}
	if env.seen(host, "same") || env.seen(rules.Actor{Player: "p2"}, "same") {
		t.Fatal("an id of p1 counted as another actor's")
	}
	for i := range maxRecent {
		env.remember(host, "h"+strings.Repeat("x", i))
	}
	if len(env.Recent) != maxRecent*recentLen {
		t.Fatalf("recent holds %d bytes, want %d", len(env.Recent), maxRecent*recentLen)
	}
	if env.seen(p1, "same") {
		t.Error("the oldest action was not forgotten after 64 more")
	}
	if !env.seen(host, "h") || !env.seen(host, "h"+strings.Repeat("x", maxRecent-1)) {
		t.Error("one of the last 64 actions was forgotten")
	}
}

// TestStoredTiming: the header holds the timing every viewer may know, so a
// shared screen's poll is hinted without decompressing the game.
func TestStoredTiming(t *testing.T) {
	now := time.Unix(1_800_000_000, 123_456_789)
	night := lobby(t)
	night.Phase = rules.Phase{Name: rules.PhaseNight, Wake: 1, EndsAt: now}
	hand := time.Duration(night.Rules.HandOver) * time.Second
	cases := []struct {
		name string
		edit func(*rules.State)
		want rules.Timing
	}{
		{"app game at night", func(*rules.State) {}, rules.Timing{Due: now.Truncate(time.Millisecond), HandOver: hand}},
		{"lobby", func(s *rules.State) { s.Phase = rules.Phase{Name: rules.PhaseLobby} }, rules.Timing{HandOver: hand}},
		{"paused", func(s *rules.State) { s.Phase.Paused = time.Second }, rules.Timing{HandOver: hand}},
		{"resuming", func(s *rules.State) { s.Phase.Paused, s.Phase.Resuming = time.Second, true }, rules.Timing{Hold: true, Due: now.Truncate(time.Millisecond), HandOver: hand}},
		{"human moderator", func(s *rules.State) { s.Moderator = rules.ModeratorHost }, rules.Timing{HandOver: hand}},
		{"human moderator's hand-over", func(s *rules.State) { s.Moderator, s.Phase.Closing = rules.ModeratorHost, true }, rules.Timing{Hold: true, Due: now.Truncate(time.Millisecond), HandOver: hand}},
		{"game over", func(s *rules.State) { s.Phase = rules.Phase{Name: rules.PhaseGameOver, EndsAt: now} }, rules.Timing{Over: true, HandOver: hand}},
		{"no hand-over", func(s *rules.State) { s.Rules.HandOver = 0 }, rules.Timing{Due: now.Truncate(time.Millisecond)}},
	}
	for _, c := range cases {
		s := night
		c.edit(&s)
		b, err := encode(&envelope{State: s, Host: hashToken("h")})
		if err != nil {
			t.Fatal(err)
		}
		got, ok := storedTiming(b)
		if !ok || got != c.want {
			t.Errorf("%s: timing %+v (%v), want %+v", c.name, got, ok, c.want)
		}
		if !got.Due.IsZero() && got.Due.After(s.Phase.EndsAt) {
			t.Errorf("%s: due %v is after the deadline %v", c.name, got.Due, s.Phase.EndsAt)
		}
	}
}

// TestDecodeFormatV1: games stored before the timing header (a deadline alone)
// are still read, and tell no timing, so that a poll decodes them.
func TestDecodeFormatV1(t *testing.T) {
	env := &envelope{State: lobby(t), Host: hashToken("h")}
	b, err := encode(env)
	if err != nil {
		t.Fatal(err)
	}
	v1 := append([]byte{formatV1, 0, 0, 0, 0, 0, 0, 0, 0}, b[headerLen:]...)
	got, err := decode(v1)
	if err != nil {
		t.Fatal(err)
	}
	if got.State.Code != env.State.Code || !bytes.Equal(got.Host, env.Host) {
		t.Fatalf("format 1 read as %+v", got)
	}
	if _, ok := storedTiming(v1); ok {
		t.Error("a format 1 game claims a stored timing")
	}
}

func TestNewCode(t *testing.T) {
	seen := map[byte]int{}
	for range 2000 {
		c, err := newCode(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := normalizeCode(c); !ok || n != c {
			t.Fatalf("code %q is not a valid code", c)
		}
		for i := 0; i < len(c); i++ {
			seen[c[i]]++
		}
	}
	for _, bad := range "0O1IL" {
		if seen[byte(bad)] > 0 {
			t.Errorf("look-alike %q in codes", bad)
		}
	}
	if len(seen) != len(CodeAlphabet) {
		t.Errorf("codes use %d characters, want all %d", len(seen), len(CodeAlphabet))
	}
	// 12000 characters over 31: about 387 each; far outside 250..550 is a bias.
	for c, n := range seen {
		if n < 250 || n > 550 {
			t.Errorf("character %q drawn %d times of 12000", c, n)
		}
	}
}

func TestNormalizeCode(t *testing.T) {
	for in, want := range map[string]string{"K7QX2M": "K7QX2M", "k7qx2m": "K7QX2M"} {
		if got, ok := normalizeCode(in); !ok || got != want {
			t.Errorf("normalizeCode(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "K7QX2", "K7QX2MM", "K7QX0M", "K7QXOM", "K7QX1M", "K7QXIM", "K7QXLM", "K7QX M", "K7QX2Ж"} {
		if _, ok := normalizeCode(in); ok {
			t.Errorf("normalizeCode(%q) accepted", in)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	good := map[string]string{
		"Аня":                               "Аня",
		"  Anya  ":                          "Anya",
		"Anya \t\n  Karenina":               "Anya Karenina",
		"\u00a0Nbsp\u00a0":                  "Nbsp",
		"a\u0085b":                          "a b",
		"👨‍👩‍👧 family":                      "👨‍👩‍👧 family",
		strings.Repeat("ж", 24):             strings.Repeat("ж", 24),
		" " + strings.Repeat("a", 24) + " ": strings.Repeat("a", 24),
	}
	for in, want := range good {
		got, err := normalizeName(in)
		if err != nil || got != want {
			t.Errorf("normalizeName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{"", "   ", "\t\n", strings.Repeat("ж", 25), "a\x00b", "a\x7fb", "evil\u202Eeman", "a\u2066b", "\xff\xfe"}
	for _, in := range bad {
		if got, err := normalizeName(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("normalizeName(%q) = %q, %v; want ErrInvalid", in, got, err)
		}
	}
}

func TestValidActionID(t *testing.T) {
	for _, id := range []string{"a", "A-z_09", strings.Repeat("x", 64), "550e8400-e29b-41d4-a716-446655440000"} {
		if !validActionID(id) {
			t.Errorf("id %q refused", id)
		}
	}
	for _, id := range []string{"", strings.Repeat("x", 65), "a b", "a/b", "é", "a.b", "a\x00"} {
		if validActionID(id) {
			t.Errorf("id %q accepted", id)
		}
	}
}

func TestWho(t *testing.T) {
	host, err := newToken(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := newToken(rand.Reader)
	forged, _ := newToken(rand.Reader)
	if len(host) != tokenLen || !wellFormedToken(host) {
		t.Fatalf("token %q is not %d base64url characters", host, tokenLen)
	}
	env := &envelope{Host: hashToken(host), Tokens: map[string][]byte{"p1": hashToken(p1)}}
	cases := []struct {
		token string
		want  rules.Viewer
		ok    bool
	}{
		{"", rules.Public, true},
		{host, rules.Viewer{Host: true}, true},
		{p1, rules.Viewer{Player: "p1"}, true},
		{forged, rules.Viewer{}, false},
		{"not a token", rules.Viewer{}, false},
		{host + "x", rules.Viewer{}, false},
		{strings.ToUpper(host), rules.Viewer{}, host == strings.ToUpper(host)},
	}
	for _, c := range cases {
		got, ok := env.who(c.token)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("who(%q) = %+v, %v; want %+v, %v", c.token, got, ok, c.want, c.ok)
		}
	}
}
