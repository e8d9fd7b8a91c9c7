package rules

import (
	"slices"
	"time"
)

// openVote opens a vote over candidates, in nomination order (R-SPORT-05).
func (s *State) openVote(candidates []string, now time.Time) {
	s.Ballots = nil
	s.Phase = Phase{Name: PhaseVote, Candidates: candidates, EndsAt: now.Add(seconds(s.Rules.Vote))}
}

// openVoteAll opens a yes/no vote about candidates: "shall all of them leave?"
// (R-SPORT-07) or "shall he leave?" after a justification (R-MANIAC-10).
func (s *State) openVoteAll(candidates []string, reason Reason, now time.Time) {
	s.Ballots = nil
	s.Phase = Phase{Name: PhaseVoteAll, Candidates: candidates, Reason: reason, EndsAt: now.Add(seconds(s.Rules.Vote))}
}

// unvote takes back a player's vote, to be cast again (Options.VoteChange).
func (s *State) unvote(id string) {
	s.Ballots = slices.DeleteFunc(s.Ballots, func(b Ballot) bool { return b.Voter == id })
}

// voteCast closes the vote once every living player has voted, or the half vote
// once it is cast.
func (s *State) voteCast(now time.Time) {
	if s.Phase.Reason == ReasonHalf {
		if s.hasBallot(s.HalfVoter) {
			s.complete(now)
		}
		return
	}
	for _, p := range s.living() {
		if !s.hasBallot(p.ID) {
			return
		}
	}
	s.complete(now)
}

// closeVote counts the ballots and carries out the result.
func (s *State) closeVote(now time.Time) {
	if s.waitForVotes(now) {
		return
	}
	ballots := slices.Clone(s.Ballots)
	if s.Phase.Name == PhaseVoteAll {
		yes := 0
		for _, b := range ballots {
			if b.Yes {
				yes++
			}
		}
		s.log(ToAll, Event{Type: EvVoted, Ballots: ballots, Result: string(s.Phase.Reason)})
		s.Ballots = nil
		s.settleVoteAll(yes, now)
		return
	}
	if s.Phase.Reason == ReasonHalf {
		s.closeHalfVote(now)
		return
	}
	if s.Rules.MissingVotesToLastNominee() {
		last := s.Phase.Candidates[len(s.Phase.Candidates)-1]
		for _, p := range s.living() {
			if !s.hasBallot(p.ID) {
				ballots = append(ballots, Ballot{Voter: p.ID, Target: last, Missing: true})
			}
		}
	}
	s.log(ToAll, Event{Type: EvVoted, Ballots: ballots})
	s.Ballots = nil
	count := map[string]int{}
	for _, b := range ballots {
		if b.Target != "" {
			count[b.Target]++
		}
	}
	top := 0
	for _, c := range s.Phase.Candidates {
		top = max(top, count[c])
	}
	var leaders []string
	for _, c := range s.Phase.Candidates {
		if count[c] == top && top > 0 {
			leaders = append(leaders, c)
		}
	}
	switch {
	case len(leaders) == 0:
		s.acquit(AcquitNoVotes, now)
	case len(leaders) == 1:
		s.leader(leaders[0], count[leaders[0]], now)
	case len(leaders) == 2 && s.halfVoteDue():
		s.openHalfVote(leaders, now)
	default:
		s.tie(leaders, now)
	}
}

// halfVoteDue: the half vote is on and last night's honest victim has not used it
// (R-CLASSIC-10).
func (s *State) halfVoteDue() bool {
	p := s.player(s.HalfVoter)
	return s.Rules.HalfVote && p != nil && !p.Alive && !p.Removed
}

// openHalfVote: the vote has split evenly between two, so the player killed last
// night, who has not yet seen who the mafia are, casts the deciding half vote
// between them (R-CLASSIC-10, text 000: «разделились поровну между двумя… решающие
// «полголоса»»). The living have voted; the step waits for the half vote alone.
func (s *State) openHalfVote(leaders []string, now time.Time) {
	for _, id := range leaders {
		s.log(ToAll, Event{Type: EvTie, Target: id, Result: "half_vote"})
	}
	s.openVote(leaders, now)
	s.Phase.Reason = ReasonHalf
}

// closeHalfVote carries out the half vote: the player it falls on leaves. Without
// it the tie stands and goes where ties go.
func (s *State) closeHalfVote(now time.Time) {
	leaders, ballots := s.Phase.Candidates, slices.Clone(s.Ballots)
	s.Ballots, s.HalfVoter = nil, ""
	if len(ballots) == 0 {
		s.tie(leaders, now)
		return
	}
	s.log(ToAll, Event{Type: EvVoted, Ballots: ballots})
	s.sentence([]string{ballots[0].Target}, "R-CLASSIC-10", now)
}

// waitForVotes: voting is compulsory (R-MANIAC-10, text 004: «Votarea este
// obligatorie pentru toată lumea»), so when a vote's time is up with votes
// missing, the table hears who has not voted and the vote is held open once
// more, as long again; a human moderator's "advance" does the same. The next
// time it is counted as it stands, and the missing are named again: a phone that
// never votes cannot hold the day. It reports whether the vote was held open.
func (s *State) waitForVotes(now time.Time) bool {
	if s.Rules.NonVoters != NonVotersCompulsory || s.Phase.Reason == ReasonHalf {
		return false
	}
	missing := s.ids(func(p *Player) bool { return p.Alive && !s.hasBallot(p.ID) })
	result := "wait"
	if s.Phase.Extended {
		result = "lost"
	}
	for _, id := range missing {
		s.log(ToAll, Event{Type: EvNotVoted, Target: id, Result: result})
	}
	if len(missing) == 0 || s.Phase.Extended {
		return false
	}
	s.Phase.Extended = true
	s.Phase.EndsAt = now.Add(seconds(s.Rules.Vote))
	return true
}

// leader handles a single player with most votes.
func (s *State) leader(id string, votes int, now time.Time) {
	p := s.player(id)
	if s.Rules.Ties == TiesJustify && s.VoteRound == 0 && !p.Justified {
		// R-MANIAC-10: one minute to justify, then a revote; with fewer votes he
		// stays. Reading taken: the revote is a yes/no vote on him alone.
		p.Justified = true
		s.FirstCount = votes
		s.VoteRound = 1
		s.Phase = Phase{Name: PhaseDefence, Queue: []string{id}, Candidates: []string{id}, Reason: ReasonJustify, Next: PhaseVoteAll}
		s.beginSpeech(now)
		return
	}
	s.sentence([]string{id}, s.leaderRule(p), now)
}

// leaderRule is the rule by which the one player with the most votes leaves:
// after a justification, or the second time (R-MANIAC-10); the car crash's
// revote (R-SPORT-07); a single nominee who takes every vote (R-SPORT-06); or
// the vote itself.
func (s *State) leaderRule(p *Player) RuleID {
	switch {
	case s.Rules.Ties == TiesJustify && (p.Justified || s.VoteRound > 0):
		return "R-MANIAC-10"
	case s.Rules.Ties == TiesCarCrash && s.VoteRound > 0:
		return "R-SPORT-07"
	case len(s.Phase.Candidates) == 1 && s.Rules.MissingVotesToLastNominee():
		return "R-SPORT-06"
	}
	return s.Rules.voteRule()
}

// tie handles a tie for most votes.
func (s *State) tie(leaders []string, now time.Time) {
	if s.Rules.FourLeftNoRevote && s.aliveCount() == 4 {
		s.log(ToAll, Event{Type: EvTie, Result: "four_left"})
		s.acquit(AcquitFourLeft, now) // R-SPORT-08
		return
	}
	if s.Phase.Reason != ReasonHalf { // the half vote's step has named them already
		for _, id := range leaders {
			s.log(ToAll, Event{Type: EvTie, Target: id})
		}
	}
	switch s.Rules.Ties {
	case TiesCarCrash:
		// R-SPORT-07: defence speeches and a revote among the tied; a tie again
		// puts "shall all of them leave?" to the table.
		if s.VoteRound == 0 {
			s.VoteRound = 1
			s.Phase = Phase{Name: PhaseDefence, Queue: leaders, Candidates: leaders, Reason: ReasonCarCrash, Next: PhaseVote}
			s.beginSpeech(now)
			return
		}
		s.openVoteAll(leaders, ReasonCarCrash, now)
	case TiesRevote:
		// R-PARTY-10: accusations and the vote again from scratch, at most
		// TieRepeats times, then nobody leaves.
		if s.Repeats >= s.Rules.TieRepeats {
			s.acquit(AcquitTie, now)
			return
		}
		s.Repeats++
		s.Nominations = nil
		if s.Rules.Voting == VotingAnyone {
			s.openVote(s.ids(func(p *Player) bool { return p.Alive }), now)
			return
		}
		s.speeches(s.FirstSpeaker, now)
	case TiesJustify:
		// Read literally (Options.JustifiedLeaves), who justified on an earlier
		// day leaves at once, tied or not.
		if spent := s.justifiedBefore(leaders); len(spent) > 0 {
			s.sentence(spent, "R-MANIAC-10", now)
			return
		}
		// R-MANIAC-10: two tied each justify, then a new vote between them; three or
		// more tied all stay. A justification is once per game, so one who has used
		// it does not speak again; the new vote is held all the same.
		if len(leaders) == 2 && s.VoteRound == 0 {
			s.VoteRound = 1
			var speakers []string
			for _, id := range leaders {
				if p := s.player(id); !p.Justified {
					p.Justified = true
					speakers = append(speakers, id)
				}
			}
			if len(speakers) == 0 {
				s.openVote(leaders, now)
				return
			}
			s.Phase = Phase{Name: PhaseDefence, Queue: speakers, Candidates: leaders, Reason: ReasonJustify, Next: PhaseVote}
			s.beginSpeech(now)
			return
		}
		s.acquit(AcquitTie, now)
	default:
		s.acquit(AcquitTie, now)
	}
}

// justifiedBefore are the leaders of the day's vote who used their
// justification on an earlier day, when they leave for having the most votes
// again even in a tie (Options.JustifiedLeaves, R-MANIAC-10: «el părăsește
// automat masa»). A justification made today is answered by today's revote.
func (s *State) justifiedBefore(leaders []string) []string {
	if !s.Rules.JustifiedLeaves || s.VoteRound > 0 {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(leaders), func(id string) bool { return !s.player(id).Justified })
}

// settleVoteAll carries out a yes/no vote.
func (s *State) settleVoteAll(yes int, now time.Time) {
	if s.Phase.Reason == ReasonJustify {
		if yes < s.FirstCount {
			s.acquit(AcquitJustified, now)
			return
		}
		s.sentence(s.Phase.Candidates, "R-MANIAC-10", now)
		return
	}
	// R-SPORT-07: more than half of the living players for: all leave.
	if yes*2 > s.aliveCount() {
		s.sentence(s.Phase.Candidates, "R-SPORT-07", now)
		return
	}
	s.acquit(AcquitAllStay, now)
}

// acquit ends the day with nobody leaving, and night falls.
func (s *State) acquit(why Acquittal, now time.Time) {
	s.log(ToAll, Event{Type: EvAcquitted, Result: string(why), Rule: s.acquittalRule(why)})
	s.startNight(now)
}

// acquittalRule is the rule by which nobody leaves today. A tie that stands
// under "ties: none" is a house option, and no rule text decides it.
func (s *State) acquittalRule(why Acquittal) RuleID {
	switch why {
	case AcquitRemoved:
		return "R-SPORT-16"
	case AcquitNoNominees, AcquitSingleNominee:
		return "R-SPORT-06"
	case AcquitFourLeft:
		return "R-SPORT-08"
	case AcquitAllStay:
		return "R-SPORT-07"
	case AcquitJustified:
		return "R-MANIAC-10"
	case AcquitTie:
		switch s.Rules.Ties {
		case TiesRevote:
			return s.Rules.cite("R-PARTY-10", "R-CLASSIC-03")
		case TiesJustify:
			return "R-MANIAC-10"
		}
		return ""
	}
	return s.Rules.voteRule() // AcquitNoVotes
}

// sentence sends the voted-out players away by rule, each with a last word
// where the rules give one (R-SPORT-09), unless the Advocate defended them for
// today (R-PARTY-06).
func (s *State) sentence(ids []string, rule RuleID, now time.Time) {
	var words []string
	for _, id := range ids {
		p := s.player(id)
		if id == s.Defended {
			s.log(ToAll, Event{Type: EvDefended, Target: id, Rule: "R-PARTY-06"})
			continue
		}
		p.Alive = false
		s.log(ToAll, Event{Type: EvEliminated, Target: id, Result: "vote", Rule: rule})
		s.showCard(p)
		if s.Rules.LastWords == LastWordsAll {
			words = append(words, id)
		}
	}
	if s.checkWin(now) {
		return
	}
	s.lastWords(words, PhaseNight, now)
}
