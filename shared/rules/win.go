package rules

import "time"

// winner decides whether the game is over, and who won. The checks run in a fixed
// order so exactly one side wins:
//  1. town: no black player and no Maniac playing alone (R-CLASSIC-08, R-SPORT-14,
//     R-PARTY-11, R-MANIAC-11; a Maniac on the mafia's side must also be gone; a
//     lone Maniac read as the town's, Options.LoneManiac "town", need not);
//  2. maniac: a lone Maniac who is one of the last two (R-MANIAC-11 leaves this
//     open; the default reading, "last_two");
//  3. mafia: parity (R-SPORT-14; a Maniac on the mafia's side counts with the
//     mafia), or no one else left (R-CLASSIC-08 elimination), or the last pair of
//     one black and one other (R-PARTY-11).
func (s *State) winner() Team {
	black, others, total := 0, 0, 0
	maniacAlive := false
	for _, p := range s.living() {
		total++
		switch {
		case p.Role.Team() == MafiaTeam:
			black++
		case p.Role == Maniac:
			maniacAlive = true
			if s.Rules.ManiacSide == "mafia" {
				black++
			} else {
				others++
			}
		default:
			others++
		}
	}
	loneManiac := maniacAlive && s.Rules.ManiacSide != "mafia"
	townsManiac := loneManiac && s.Rules.LoneManiac == "town"
	trueBlack := black
	if maniacAlive && s.Rules.ManiacSide == "mafia" {
		trueBlack--
	}
	switch {
	case trueBlack == 0 && (!maniacAlive || townsManiac):
		return Town
	case loneManiac && !townsManiac && total <= 2:
		return Loner
	case black == 0:
		return ""
	case s.Rules.Win == "parity" && black >= others:
		return MafiaTeam
	case others == 0:
		return MafiaTeam
	case s.Rules.LastPairMafia && total == 2 && trueBlack == 1:
		return MafiaTeam
	}
	return ""
}

// checkWin ends the game if a side has won, and reports whether it did.
func (s *State) checkWin(time.Time) bool {
	w := s.winner()
	if w == "" {
		return false
	}
	s.Winner = w
	s.Phase = Phase{Name: PhaseGameOver}
	s.log(ToAll, Event{Type: EvGameOver, Result: string(w)})
	return true
}

// Advance applies every transition that fell due before now: a speech whose time is
// up, a night or a vote whose deadline passed. Only games the app moderates move by
// the clock; a human moderator moves the game on with "advance". A paused game does
// not move.
func Advance(s State, now time.Time) State {
	if !s.due(now) {
		return s
	}
	n := s.clone()
	for i := 0; i < 1000 && n.due(now); i++ {
		n.timeout(n.Phase.EndsAt)
		n.Ticks++
	}
	return n
}

func (s *State) due(now time.Time) bool {
	next := NextDeadline(*s)
	return !next.IsZero() && !now.Before(next)
}

// NextDeadline is when Advance may next change s by itself, or zero if the clock
// cannot move it: a lobby not yet started, a finished or paused game, or one a
// person moderates.
// Before it, Advance returns s unchanged.
func NextDeadline(s State) time.Time {
	if s.Moderator != ModeratorApp || s.Phase.Paused != 0 || (s.Phase.Name == PhaseLobby && !s.Phase.Closing) || s.Phase.Name == PhaseGameOver {
		return time.Time{}
	}
	return s.Phase.EndsAt
}

// complete ends the current step before its deadline, because a tap completed
// it: "Thank you", the last vote, the last night task. When the app moderates
// with a hand-over (Options.HandOver), the step stays, closing, and its deadline
// comes forward to the end of the hand-over, when the clock opens the next step
// exactly as the deadline would have: the table hears what comes, and every
// phone has time to learn of it. Otherwise the next step opens now.
func (s *State) complete(now time.Time) {
	h := seconds(s.Rules.HandOver)
	if s.Moderator != ModeratorApp || h <= 0 {
		s.timeout(now)
		return
	}
	s.Phase.Closing = true
	if end := now.Add(h); s.Phase.EndsAt.IsZero() || end.Before(s.Phase.EndsAt) {
		s.Phase.EndsAt = end
	}
}

// timeout ends the current step as its deadline would: the speech ends, the night
// is resolved with the acts made so far, the vote is counted.
func (s *State) timeout(now time.Time) {
	s.Phase.Closing = false
	switch s.Phase.Name {
	case PhaseLobby:
		s.startNight(now)
	case PhaseNight, PhaseNightDoctor:
		s.endNightStep(now)
	case PhaseIntro, PhaseDay, PhaseDefence, PhaseLastWord:
		s.nextSpeaker(now)
	case PhaseVote, PhaseVoteAll:
		s.closeVote(now)
	}
}
