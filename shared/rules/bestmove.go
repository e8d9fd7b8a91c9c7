package rules

import "slices"

// The best move (Options.BestMove) is a club's: the player killed on the first
// night names in the last word the players he takes for black. It changes nothing in the game; the
// protocol keeps it, with how many of them were black, for the club's
// ratings. None of the five texts has it.

// BestMoveMax is the most players a best move names.
const BestMoveMax = 3

// firstShotNight is the first night whose shots count: night 1, or night 2
// when the first night is a meeting (R-CLASSIC-02, R-SPORT-02).
func (o Options) firstShotNight() int {
	if o.FirstNightMeeting {
		return 2
	}
	return 1
}

// bestMoveTargets are the players p, who speaks a last word, may name in a
// best move now, or none: it is the morning's after the first night whose
// shots count, p has not made it yet, and names any of the others still at
// the table. Every player that night killed has one, whoever killed them: offered
// to the mafia's victim alone, it would tell him, and the table watching him,
// who killed him (a Maniac's victim or the Commissar's is not the mafia's),
// which is the night's secret until the end.
func (s *State) bestMoveTargets(p *Player) []string {
	if !s.Rules.BestMove || p.BestMove || s.Phase.Next == PhaseNight || s.Night != s.Rules.firstShotNight() {
		return nil
	}
	return s.ids(func(q *Player) bool { return q.Alive && q.ID != p.ID })
}

// checkBestMove refuses a best move that does not name one to BestMoveMax
// players of o's targets, each once, or that names its maker.
func checkBestMove(o Option, targets []string, maker string) error {
	if len(targets) < 1 || len(targets) > BestMoveMax {
		return refusef(ErrBadField, "a best move names 1 to %d players, not %d", BestMoveMax, len(targets))
	}
	for i, t := range targets {
		switch {
		case t == maker:
			return refusal(ErrBadTarget, "best_move: a player names others, never himself")
		case slices.Contains(targets[:i], t):
			return refusal(ErrBadTarget, "best_move: each player is named once")
		}
		if err := inTargets(o, t); err != nil {
			return err
		}
	}
	return nil
}

// bestMoveRefusal explains why p may not make a best move now.
func (s *State) bestMoveRefusal(p *Player) error {
	switch {
	case !s.Rules.BestMove:
		return refusal(ErrWrongPhase, "these rules have no best move")
	case s.Phase.Name != PhaseLastWord:
		return refusal(ErrWrongPhase, "a best move is made in a last word")
	case s.speaker() != p.ID:
		return ErrNotYourTurn
	case p.BestMove:
		return refusal(ErrAlreadyActed, "you have made your best move")
	}
	return refusal(ErrWrongPhase, "a best move is made only in the last word of the first night's killed")
}

// bestMove records the best move of id. It is said aloud at the table, so the
// story tells everyone whom it names; how many of them are black is in the
// cards, which every view keeps to itself until the end.
func (s *State) bestMove(id string, targets []string) {
	s.player(id).BestMove = true
	s.log(ToAll, Event{Type: EvBestMove, Actor: id, Targets: slices.Clone(targets)})
}
