package rules

import "time"

// Move records that player id's seat has moved to another device: a phone went
// flat, or a substitute sits in. The host asks for it with ActReseat, which
// changes nothing here: the service gives the host a one-time link for the
// seat, and the phone that opens it takes the seat through Move.
//
// The seat keeps everything it had (its id, number, name, card, checks, votes,
// fouls), and the story tells only that it moved ("#4 moved to another
// phone"), its latest move alone, so that moving a seat again and again does
// not grow the game. In the lobby the seat's device key (JoinFrom) becomes the
// new device's, so that a ban refuses the phone in use. As in Apply, the
// transitions that fell due before now come first, and a refusal returns s as
// it was.
func Move(s State, id, device string, now time.Time) (State, error) {
	n := Advance(s, now)
	switch {
	case n.Phase.Name == PhaseGameOver:
		return s, ErrGameOver
	case n.player(id) == nil:
		return s, refusal(ErrBadTarget, "move: there is no such seat at the table")
	}
	n = n.clone()
	if n.Phase.Name == PhaseLobby && !n.Phase.Closing {
		n.player(id).Device = device
	}
	n.everywhere(func(g *State) {
		g.forget(func(e Event) bool { return e.Type == EvMoved && e.Target == id })
		g.log(ToAll, Event{Type: EvMoved, Target: id})
	})
	return n, nil
}
