package rules

import "time"

// Again opens the next game of a table whose game is over ("play again with the
// same players"): a lobby under code with the same rules, moderator and language,
// and the same players in the same seats under the same ids, every card back in
// the deck. The host may then reseat, remove or let in players and start as in
// any lobby; rules with seats by lot draw them again at the start (R-SPORT-01).
func Again(s State, code string, now time.Time) (State, error) {
	s = Advance(s, now)
	if s.Phase.Name != PhaseGameOver {
		return State{}, refusal(ErrWrongPhase, "the game is not over yet")
	}
	if s.seated() {
		return State{}, refusal(ErrSeated, "the evening seats this table's next game, in its next round")
	}
	n, err := New(code, s.Rules, s.Moderator, s.Lang, now)
	if err != nil {
		return State{}, err
	}
	for i, p := range s.Players {
		n.Players = append(n.Players, Player{ID: p.ID, Name: p.Name, Seat: i + 1, Alive: true})
	}
	return n, nil
}
