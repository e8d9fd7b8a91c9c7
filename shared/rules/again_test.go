package rules

import (
	"errors"
	"reflect"
	"testing"
)

// TestAgain: a finished game's table sits down to the next game in a lobby, with
// the same players in the same seats, the same rules, and nothing of the last game.
func TestAgain(t *testing.T) {
	g := sport10(t)
	if _, err := Again(g.s, "NEXT01", g.now); !errors.Is(err, ErrWrongPhase) {
		t.Fatalf("a game in play: %v", err)
	}
	g.host(Action{Type: ActRemove, Target: id(2)})
	g.host(Action{Type: ActRemove, Target: id(3)})
	g.host(Action{Type: ActRemove, Target: id(1)})
	g.wantWinner(Town)
	n, err := Again(g.s, "NEXT01", g.now)
	if err != nil {
		t.Fatal(err)
	}
	if n.Code != "NEXT01" || n.Phase.Name != PhaseLobby || n.Rules != g.s.Rules || n.Moderator != g.s.Moderator || n.Lang != g.s.Lang {
		t.Fatalf("next game: %s %s rules %v moderator %s lang %s", n.Code, n.Phase.Name, n.Rules == g.s.Rules, n.Moderator, n.Lang)
	}
	if len(n.Players) != 10 || len(n.Events) != 0 || n.Winner != "" || n.Day != 0 || n.Night != 0 {
		t.Fatalf("next game: %d players, %d events, winner %q", len(n.Players), len(n.Events), n.Winner)
	}
	for i, p := range n.Players {
		old := g.s.Players[i]
		if want := (Player{ID: old.ID, Name: old.Name, Seat: old.Seat, Alive: true}); !reflect.DeepEqual(p, want) {
			t.Errorf("seat %d: %+v, was %+v", i+1, p, old)
		}
	}
	// The lobby works as any other: full at ten, and the host can start.
	if _, late, err := Join(n, "Late", g.now); !errors.Is(err, ErrTableFull) {
		t.Fatalf("an eleventh player joined a table of ten: %s %v", late, err)
	}
	if _, err := Apply(n, Actor{Host: true}, Action{Type: ActStart}, g.now); err != nil {
		t.Fatalf("start the next game: %v", err)
	}
}
