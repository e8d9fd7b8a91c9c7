package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
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

// TestRecentKeepsEachActorsLatest: every actor's latest applied action is
// remembered until that actor acts again, however many actions the others take
// meanwhile, so a host's retry that comes late after a table's worth of votes is
// still a replay (issue 12: the game used to forget any id after 64 actions of
// anyone); and the game remembers at most maxRecent actions.
func TestRecentKeepsEachActorsLatest(t *testing.T) {
	env := &envelope{}
	host := rules.Actor{Host: true}
	p1 := rules.Actor{Player: "p1"}
	env.remember(host, "pause-1")
	env.remember(p1, "same")
	if !env.seen(p1, "same") || !env.seen(host, "pause-1") {
		t.Fatal("an applied action is not seen")
	}
	if env.seen(host, "same") || env.seen(rules.Actor{Player: "p2"}, "same") {
		t.Fatal("an id of p1 counted as another actor's")
	}
	for i := range 1000 {
		env.remember(rules.Actor{Player: fmt.Sprintf("p%d", 2+i%29)}, fmt.Sprintf("vote-%d", i))
	}
	if !env.seen(host, "pause-1") || !env.seen(p1, "same") {
		t.Error("an actor's latest action was forgotten after 1000 actions of the others")
	}
	if len(env.Acted) != maxRecent*recentLen {
		t.Errorf("%d bytes remembered, want %d", len(env.Acted), maxRecent*recentLen)
	}
	// A burst of one actor's actions at once is remembered whole.
	for i := range 30 {
		env.remember(host, fmt.Sprintf("warn-%d", i))
	}
	for i := range 30 {
		if !env.seen(host, fmt.Sprintf("warn-%d", i)) {
			t.Errorf("warn-%d of a burst of 30 forgotten", i)
		}
	}
	if env.seen(host, "pause-1") {
		t.Error("the host's action before the burst is remembered beyond the bound")
	}
	// Players who leave are forgotten with their tokens, so a newcomer given
	// the same id starts afresh.
	env.State.Players = []rules.Player{{ID: "p2"}}
	env.Tokens = map[string][]byte{"p1": hashToken("a"), "p2": hashToken("b")}
	env.prune()
	if env.seen(p1, "same") || env.Tokens["p1"] != nil || env.Tokens["p2"] == nil || !env.seen(host, "warn-29") {
		t.Errorf("after p1 left: p1 seen %v, tokens %v", env.seen(p1, "same"), env.Tokens)
	}
	for r := env.Acted; len(r) > 0; r = r[recentLen:] {
		if who := [2]byte(r[:2]); who != [2]byte{} && who != actorNumber("p2") {
			t.Errorf("an action of player %v is remembered after prune", who)
		}
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

// TestBudget: a request's store calls and pauses end DefaultBudget after it
// starts, or reserve before its caller's deadline (a Lambda function's) when
// that comes first, so it always has time to answer.
func TestBudget(t *testing.T) {
	s := New(nil)
	for _, left := range []time.Duration{0, 10 * time.Second, 2 * time.Second, reserve / 2} {
		ctx := context.Background()
		if left > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, left)
			defer cancel()
		}
		before := time.Now()
		b, cancel := s.withBudget(ctx)
		defer cancel()
		after := time.Now()
		end, ok := b.Deadline()
		caller, has := ctx.Deadline()
		switch {
		case !ok:
			t.Errorf("%v left: no budget", left)
		case has && caller.Add(-reserve).Before(before.Add(DefaultBudget)):
			if !end.Equal(caller.Add(-reserve)) {
				t.Errorf("%v left: the budget ends %v before the caller's deadline, want %v", left, caller.Sub(end), reserve)
			}
		case end.Before(before.Add(DefaultBudget)) || end.After(after.Add(DefaultBudget)):
			t.Errorf("%v left: the budget ends in %v, want %v", left, end.Sub(before), DefaultBudget)
		}
	}
}
