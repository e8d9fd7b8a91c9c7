package rules

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestSeatedLobby: a table an evening seated (State.Table) keeps the people
// and the rules the evening gave it. Nobody new joins, nobody leaves or is
// sent away, the lock and the rules stay as they are, and none of that is
// offered; the host still orders the seats and deals, a place still moves to
// another device, and the table plays no game of its own after this one.
func TestSeatedLobby(t *testing.T) {
	o, err := Preset(PresetSport)
	if err != nil {
		t.Fatal(err)
	}
	o.DrawSeats = false
	s, err := New("EVE001", o, ModeratorApp, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if s, _, err = Join(s, fmt.Sprintf("Player %d", i+1), t0); err != nil {
			t.Fatal(err)
		}
	}
	s.Table = 2
	if !ViewOf(s, Public, t0).Phase.Seated {
		t.Error("the public view of a seated lobby does not say so")
	}
	// A sport table of 10 would be full anyway: an eleventh would be refused
	// as a full table, so the rules are made to take more first, as a
	// referee's configure once could.
	s.Rules.MaxPlayers = 12
	if _, _, err := JoinFrom(s, "Mallory", "dev-1", t0); !errors.Is(err, ErrSeated) {
		t.Errorf("a stranger's join: %v, want %v", err, ErrSeated)
	}
	host, player := Actor{Host: true}, Actor{Player: id(6)}
	for _, c := range []struct {
		actor Actor
		a     Action
	}{
		{player, Action{Type: ActLeave}},
		{host, Action{Type: ActKick, Target: id(6)}},
		{host, Action{Type: ActBan, Target: id(6)}},
		{host, Action{Type: ActLock}},
		{host, Action{Type: ActUnlock}},
		{host, Action{Type: ActConfigure, Options: &o}},
	} {
		if _, err := Apply(s, c.actor, c.a, t0); !errors.Is(err, ErrSeated) {
			t.Errorf("%s: %v, want %v", c.a.Type, err, ErrSeated)
		}
		for _, opt := range Legal(s, c.actor) {
			if opt.Type == c.a.Type {
				t.Errorf("%s is offered at a seated table", c.a.Type)
			}
		}
	}
	offered := func(a Actor, typ ActionType) bool {
		return slices.ContainsFunc(Legal(s, a), func(o Option) bool { return o.Type == typ })
	}
	for _, typ := range []ActionType{ActSeat, ActReseat, ActStart} {
		if !offered(host, typ) {
			t.Errorf("%s is not offered to the host of a seated table", typ)
		}
	}
	moved, err := Apply(s, host, Action{Type: ActSeat, Target: id(2), Seat: 1}, t0)
	if err != nil || moved.player(id(2)).Seat != 1 {
		t.Fatalf("the host orders the seats: %v", err)
	}
	g := &game{t: t, s: moved, now: t0}
	g.host(Action{Type: ActStart})
	for i := range g.s.Players {
		g.s.Players[i].Role = Citizen
	}
	g.s.Players[0].Role = Mafia
	g.host(Action{Type: ActRemove, Target: g.s.Players[0].ID})
	g.wantWinner(Town)
	if _, err := Again(g.s, "NEXT01", g.now); !errors.Is(err, ErrSeated) {
		t.Errorf("play again at a seated table: %v, want %v", err, ErrSeated)
	}
}
