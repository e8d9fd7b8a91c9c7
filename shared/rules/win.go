package rules

import "time"

// winner decides whether the game is over, who won, and by which rule. The
// checks run in a fixed order so exactly one side wins:
//  1. town: no black player and no Maniac playing alone (R-CLASSIC-08, R-SPORT-14,
//     R-PARTY-11, R-MANIAC-11; a Maniac on the mafia's side must also be gone; a
//     lone Maniac read as the town's, Options.LoneManiac "town", need not);
//  2. maniac: a lone Maniac who is one of the last two (R-MANIAC-11 leaves this
//     open; the default reading, "last_two");
//  3. mafia: parity (R-SPORT-14; a Maniac on the mafia's side counts with the
//     mafia, one alone with the peaceful, or with Options.LoneManiacApart with
//     neither), or no one else left (R-CLASSIC-08 elimination), or the last pair
//     of one black and one other (R-PARTY-11).
//
// Wherever a Maniac is dealt, R-MANIAC-11 tells how he counts, so it decides.
func (s *State) winner() (Team, RuleID) {
	black, others, total := 0, 0, 0
	maniacAlive := false
	for _, p := range s.living() {
		total++
		switch {
		case p.Role.Team() == MafiaTeam:
			black++
		case p.Role == Maniac:
			maniacAlive = true
			if s.Rules.ManiacSide == ManiacMafia {
				black++
			} else {
				others++
			}
		default:
			others++
		}
	}
	loneManiac := maniacAlive && s.Rules.ManiacSide != ManiacMafia
	townsManiac := loneManiac && s.Rules.LoneManiac == LoneTown
	trueBlack := black
	if maniacAlive && s.Rules.ManiacSide == ManiacMafia {
		trueBlack--
	}
	peaceful := others
	if loneManiac && s.Rules.LoneManiacApart {
		peaceful-- // R-MANIAC-11: «locuitorii pașnici și negri», he is neither
	}
	cite := func(ids ...RuleID) RuleID {
		if s.Rules.Maniac {
			return "R-MANIAC-11"
		}
		return s.Rules.cite(ids...)
	}
	switch {
	case trueBlack == 0 && (!maniacAlive || townsManiac):
		return Town, cite("R-SPORT-14", "R-CLASSIC-08", "R-PARTY-11")
	case loneManiac && !townsManiac && total <= 2:
		return Loner, "R-MANIAC-11"
	case black == 0:
		return "", ""
	case s.Rules.Win == WinParity && black >= peaceful:
		return MafiaTeam, cite("R-SPORT-14")
	case others == 0:
		return MafiaTeam, cite("R-CLASSIC-08", "R-PARTY-11")
	case s.Rules.LastPairMafia && total == 2 && trueBlack == 1:
		return MafiaTeam, cite("R-PARTY-11")
	}
	return "", ""
}

// checkWin ends the game if a side has won, and reports whether it did.
func (s *State) checkWin(time.Time) bool {
	w, rule := s.winner()
	if w == "" {
		return false
	}
	s.Winner = w
	s.Phase = Phase{Name: PhaseGameOver}
	s.log(ToAll, Event{Type: EvGameOver, Result: string(w), Rule: rule})
	return true
}

// Advance applies every transition that fell due before now: a step whose
// deadline passed (only when the app moderates: a human moderator moves the game
// on with "advance"), and the end of a hand-over (in either mode). A paused game
// does not move.
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
// cannot move it: a lobby not yet started, a finished or paused game, or a step
// a person moderates (but for its hand-over). Before it, Advance returns s
// unchanged.
func NextDeadline(s State) time.Time {
	switch {
	case s.Phase.Closing || s.Phase.Resuming:
		return s.Phase.EndsAt
	case s.Moderator != ModeratorApp, s.Phase.Paused != 0, s.Phase.Name == PhaseLobby, s.Phase.Name == PhaseGameOver:
		return time.Time{}
	}
	return s.Phase.EndsAt
}

// complete ends the current step before its deadline: a tap completed it
// ("Thank you", the last vote, the last night tap) or the host moved on. With a
// hand-over (Options.HandOver) the step stays, closing, until the hand-over
// ends, and then the clock opens the next step exactly as the deadline would
// have: the table hears what comes, and every phone has time to learn of it.
// When the app moderates and the step's own deadline comes sooner, it stands.
// Without a hand-over the next step opens now.
func (s *State) complete(now time.Time) {
	h := seconds(s.Rules.HandOver)
	if h <= 0 {
		s.timeout(now)
		return
	}
	s.Phase.Closing = true
	end := now.Add(h)
	if s.Moderator != ModeratorApp || s.Phase.EndsAt.IsZero() || end.Before(s.Phase.EndsAt) {
		s.Phase.EndsAt = end
	}
}

// resume lets a paused step go on: after a hand-over, so that every screen
// starts its clock at the same moment, or at once without one.
func (s *State) resume(now time.Time) {
	if h := seconds(s.Rules.HandOver); h > 0 {
		s.Phase.Resuming = true
		s.Phase.EndsAt = now.Add(h)
		return
	}
	s.goOn(now)
}

// goOn restarts a paused step's clock at now with the time it had left.
func (s *State) goOn(now time.Time) {
	s.Phase.EndsAt = now.Add(s.Phase.Paused)
	s.Phase.Paused, s.Phase.Resuming = 0, false
}

// timeout ends the current step as its deadline would: the speech ends, the
// wake of the night is over with the taps made so far, the vote is counted. At
// the end of a resume's hand-over the paused step goes on instead.
func (s *State) timeout(now time.Time) {
	if s.Phase.Resuming {
		s.goOn(now)
		return
	}
	s.Phase.Closing = false
	switch s.Phase.Name {
	case PhaseLobby:
		s.startNight(now)
	case PhaseNight:
		s.endWake(now)
	case PhaseIntro, PhaseDay, PhaseDefence, PhaseLastWord:
		s.nextSpeaker(now)
	case PhaseVote, PhaseVoteAll:
		s.closeVote(now)
	}
}
