package rules

import "slices"

// Option is one action a viewer may take now, with the targets it accepts. The
// frontend draws its buttons from these and never re-implements a rule.
type Option struct {
	Type    ActionType `json:"type"`
	Targets []string   `json:"targets,omitempty"`
	// Abstain: a vote may be cast for nobody (R-PARTY-09).
	Abstain bool `json:"abstain,omitempty"`
	// Verdicts are the words a testament may use (R-CLASSIC-06).
	Verdicts []Verdict `json:"verdicts,omitempty"`
	// Fouls are the fouls a warn or a remove may name under these rules (R-SPORT-16).
	Fouls []string `json:"fouls,omitempty"`
	// Undoes are the decisions a "correct" takes back, one per correction,
	// the next first.
	Undoes []Decision `json:"undoes,omitempty"`
	// Max is the most of Targets one action names: a best move's (BestMoveMax).
	Max int `json:"max,omitempty"`
	// Taps are, on the moderator's "tap_for", what each seat of Targets may
	// tap, in the same order (tapfor.go).
	Taps []SeatTaps `json:"taps,omitempty"`
}

// Legal returns the actions actor may take in s now. Apply accepts exactly these.
func Legal(s State, actor Actor) []Option {
	if s.Phase.Name == PhaseGameOver {
		return nil
	}
	if actor.Host {
		return s.hostOptions()
	}
	p := s.player(actor.Player)
	if p == nil || s.Phase.Paused > 0 || s.Phase.Closing {
		return nil
	}
	return s.playerOptions(p)
}

// hostOptions are the host's actions now: the step's (stepOptions), and in
// every step, a hand-over and a pause too, the move of any seat to another
// device (ActReseat), since a phone can go flat at any moment, and the
// correction of the latest decisions while it is still possible (ActCorrect).
func (s *State) hostOptions() []Option {
	opts := s.stepOptions()
	if all := s.ids(func(*Player) bool { return true }); len(all) > 0 {
		opts = append(opts, Option{Type: ActReseat, Targets: all})
	}
	return append(opts, s.correctOption()...)
}

// stepOptions are the host's actions that the step in progress allows.
func (s *State) stepOptions() []Option {
	all := s.ids(func(*Player) bool { return true })
	alive := s.ids(func(p *Player) bool { return p.Alive })
	if s.Phase.Closing || s.Phase.Resuming {
		// A hand-over: every screen counts down to the same moment. The host's
		// pages wait for it like everyone; "advance" with now ends it at once,
		// for a script that cannot wait (docs/API.md).
		return []Option{{Type: ActAdvance}}
	}
	if s.Phase.Name == PhaseLobby && s.seated() {
		// The evening decided who sits here and by which rules (Seated).
		opts := []Option{{Type: ActManiacSide}}
		if len(all) > 0 {
			opts = append(opts, Option{Type: ActSeat, Targets: all})
		}
		if s.Rules.ValidateTable(len(s.Players)) == nil {
			opts = append(opts, Option{Type: ActStart})
		}
		return opts
	}
	if s.Phase.Name == PhaseLobby {
		opts := []Option{{Type: ActConfigure}, {Type: ActManiacSide}, {Type: ActLock}}
		if s.Locked {
			opts[2].Type = ActUnlock
		}
		if len(all) > 0 {
			opts = append(opts, Option{Type: ActKick, Targets: all}, Option{Type: ActBan, Targets: all}, Option{Type: ActSeat, Targets: all})
		}
		if s.Rules.ValidateTable(len(s.Players)) == nil {
			opts = append(opts, Option{Type: ActStart})
		}
		return opts
	}
	if s.Phase.Paused > 0 {
		return []Option{{Type: ActResume}}
	}
	opts := []Option{{Type: ActAdvance}, {Type: ActPause}}
	if s.Rules.countsFouls() {
		// A foul count stops at MaxWarnings, the most any rule counts to, so a
		// host cannot grow the story without end where fouls never remove.
		if t := s.ids(func(p *Player) bool { return p.Alive && p.Warnings < MaxWarnings }); len(t) > 0 {
			opts = append(opts, Option{Type: ActWarn, Targets: t, Fouls: s.Rules.foulsFor(ActWarn)})
		}
	}
	opts = append(opts, Option{Type: ActRemove, Targets: alive, Fouls: s.Rules.foulsFor(ActRemove)})
	opts = append(opts, s.tapForOption()...)
	if s.Moderator == ModeratorHost && s.Rules.Maniac && s.Day == 0 {
		opts = append(opts, Option{Type: ActManiacSide})
	}
	return opts
}

func (s *State) playerOptions(p *Player) []Option {
	if s.Phase.Name == PhaseLobby {
		if s.seated() {
			return nil // the evening's seat is left by the evening's roster (its absent mark)
		}
		return []Option{{Type: ActLeave}}
	}
	var opts []Option
	if s.Phase.Name == PhaseLastWord && s.speaker() == p.ID {
		opts = append(opts, Option{Type: ActEndSpeech})
		if t := s.testamentTargets(p); len(t) > 0 {
			opts = append(opts, Option{Type: ActTestament, Targets: t, Verdicts: []Verdict{VerdictMafia, VerdictHonest}})
		}
		if t := s.bestMoveTargets(p); len(t) > 0 {
			opts = append(opts, Option{Type: ActBestMove, Targets: t, Max: BestMoveMax})
		}
		return opts
	}
	if !p.Alive {
		if s.Phase.Name == PhaseVote && s.halfVoteOpen(p) {
			return []Option{{Type: ActVote, Targets: s.Phase.Candidates}}
		}
		return nil
	}
	switch s.Phase.Name {
	case PhaseNight:
		if slices.Contains(s.Done, p.ID) {
			return nil
		}
		return append(s.nightTasks(p), Option{Type: ActSleep})
	case PhaseIntro, PhaseDefence:
		if s.speaker() == p.ID {
			opts = append(opts, Option{Type: ActEndSpeech})
		}
	case PhaseDay:
		// R-MANIAC-09: anyone may raise a hand during the round, the speaker too
		// (one out of time raises it during their own speech); a hand raised
		// after the round does not count, so none is offered in the further
		// speeches or later.
		if s.Rules.ExtraSpeech > 0 && s.Phase.Reason == ReasonNone && !slices.Contains(s.Hands, p.ID) {
			opts = append(opts, Option{Type: ActRaiseHand})
		}
		if s.speaker() == p.ID {
			if t := s.nominationTargets(p.ID); len(t) > 0 {
				opts = append(opts, Option{Type: ActNominate, Targets: t})
			}
			if s.Phase.Nominated > 0 {
				opts = append(opts, Option{Type: ActWithdraw})
			}
			opts = append(opts, Option{Type: ActEndSpeech})
		}
	case PhaseVote:
		if s.Phase.Reason != ReasonHalf {
			opts = append(opts, s.voteOptions(p, Option{Type: ActVote, Targets: s.Phase.Candidates, Abstain: s.abstainAllowed()})...)
		}
	case PhaseVoteAll:
		opts = append(opts, s.voteOptions(p, Option{Type: ActVoteAll})...)
	}
	if s.revealOpen(p) {
		opts = append(opts, Option{Type: ActReveal})
	}
	return opts
}

// abstainAllowed: a vote may be cast for nobody (R-PARTY-09), unless voting is
// compulsory (R-MANIAC-10) or a missing vote goes to the last nominee (R-SPORT-05).
func (s *State) abstainAllowed() bool {
	switch s.Rules.NonVoters {
	case NonVotersAbstain:
		return true
	case NonVotersCompulsory:
		return false
	}
	return s.Rules.Voting == VotingAnyone
}

// ids lists the ids of the players that pass keep, in seat order.
func (s *State) ids(keep func(*Player) bool) []string {
	var out []string
	for i := range s.Players {
		if keep(&s.Players[i]) {
			out = append(out, s.Players[i].ID)
		}
	}
	return out
}

// speaker is the player whose speech it is, or "".
func (s *State) speaker() string {
	switch s.Phase.Name {
	case PhaseIntro, PhaseDay, PhaseDefence, PhaseLastWord:
		if len(s.Phase.Queue) > 0 {
			return s.Phase.Queue[0]
		}
	}
	return ""
}

func (s *State) hasBallot(id string) bool {
	return slices.ContainsFunc(s.Ballots, func(b Ballot) bool { return b.Voter == id })
}

func (s *State) nominated(id string) bool {
	return slices.ContainsFunc(s.Nominations, func(n Nomination) bool { return n.Target == id })
}

// nominationTargets are the players the speaker may put up: the other living
// players not yet nominated today, while the speaker and the day still have
// nominations left. Nobody nominates himself: text 003 «может выставить другого
// игрока», text 001's accusations are «против друг друга» (R-SPORT-04,
// R-PARTY-09).
func (s *State) nominationTargets(speaker string) []string {
	if s.Rules.Voting != VotingNominees || s.Phase.Nominated >= s.Rules.NominationsPerSpeech {
		return nil
	}
	if s.Rules.MaxNominees > 0 && len(s.Nominations) >= s.Rules.MaxNominees {
		return nil
	}
	return s.ids(func(p *Player) bool { return p.Alive && p.ID != speaker && !s.nominated(p.ID) })
}

// testamentTargets are the players a night-killed Commissar checked and may name in
// his last word (R-CLASSIC-06).
func (s *State) testamentTargets(p *Player) []string {
	if !s.Rules.Testament || p.Role != Sheriff || p.Spoke || s.Phase.Next != PhaseDay {
		return nil
	}
	var out []string
	for _, c := range p.Checks {
		if c.Kind == CheckBlack && !slices.Contains(out, c.Target) {
			out = append(out, c.Target)
		}
	}
	return out
}

// revealOpen: the Commissar may show his card on a day before the first vote, once
// he has been right often enough (R-PARTY-04).
func (s *State) revealOpen(p *Player) bool {
	return s.Rules.RevealAfter > 0 && p.Role == Sheriff && p.Alive && !p.Shown &&
		p.Right >= s.Rules.RevealAfter && s.VoteRound == 0 && s.Repeats == 0 &&
		(s.Phase.Name == PhaseDay || (s.Phase.Name == PhaseDefence && s.Phase.Next == PhaseVote && s.Phase.Reason == ReasonAccused))
}

// halfVoteOpen: last night's victim casts the deciding half vote once a vote has
// split evenly between two (R-CLASSIC-10).
func (s *State) halfVoteOpen(p *Player) bool {
	return s.Phase.Reason == ReasonHalf && s.HalfVoter == p.ID && !s.hasBallot(p.ID)
}

// voteOptions are p's options in an open vote: the vote itself until p has
// voted, then, where votes may change (Options.VoteChange), "withdraw", which
// takes the vote back so that p can vote again. The vote closes when the last
// living player votes, at its deadline or when the host moves on; after that,
// in the hand-over too, every vote is final. A withdrawn vote is no vote: it
// counts as a missing one if it is not cast again.
func (s *State) voteOptions(p *Player, vote Option) []Option {
	switch {
	case !s.hasBallot(p.ID):
		return []Option{vote}
	case s.Rules.VoteChange:
		return []Option{{Type: ActWithdraw}}
	}
	return nil
}

// nightTasks are what a player's tap means in this wake (Options.Wakes), by
// role. Each living player taps once a wake: one of these acts, or "sleep",
// which every player has beside them, so taps give no role away.
func (s *State) nightTasks(p *Player) []Option {
	others := s.ids(func(q *Player) bool { return q.Alive && q.ID != p.ID })
	alive := s.ids(func(q *Player) bool { return q.Alive })
	if s.meetingNight() {
		if s.checksAtMeeting(p) {
			return []Option{{Type: ActCheck, Targets: others}}
		}
		return nil
	}
	if s.Phase.Wake == 2 {
		switch {
		case p.Role == Don && s.Rules.DonChecks:
			return []Option{{Type: ActCheck, Targets: others}} // R-SPORT-11, R-MANIAC-04
		case p.Role == Doctor && s.Rules.DoctorVictims:
			// R-MANIAC-07: he is shown the victims (You.Victims) and points at one;
			// any living seat may be tapped, as every phone shows the same seats,
			// and pointing at someone who is not dying saves nobody.
			return []Option{{Type: ActHeal, Targets: alive}}
		}
		return nil
	}
	switch p.Role {
	case Mafia, Don, Maniac:
		return []Option{{Type: ActKill, Targets: others}}
	case Sheriff:
		// One act a night: check, shoot, or either (R-MANIAC-05).
		switch s.Rules.Commissar {
		case CommissarCheck, CommissarPublic:
			return []Option{{Type: ActCheck, Targets: others}}
		case CommissarShoot:
			return []Option{{Type: ActShoot, Targets: others}}
		case CommissarCheckOrShoot:
			return []Option{{Type: ActCheck, Targets: others}, {Type: ActShoot, Targets: others}}
		}
	case Doctor:
		if !s.Rules.DoctorVictims {
			return []Option{{Type: ActHeal, Targets: alive}}
		}
	case Lover, Cinderella:
		return []Option{{Type: ActProtect, Targets: others}}
	case Advocate:
		return []Option{{Type: ActDefend, Targets: others}}
	}
	return nil
}

// checksAtMeeting reports whether p checks on a first night that is a meeting:
// with FirstNightChecks, the Don who looks for the Sheriff and a Commissar who
// checks (text 000: «Комиссар может получить у Ведущего информацию о том,
// является ли выбранный им игрок Мафией», «Дон может получить… является ли
// выбранный им игрок Комиссаром»). A Commissar who only shoots has nothing to
// do on a night without kills.
func (s *State) checksAtMeeting(p *Player) bool {
	if !s.Rules.FirstNightChecks {
		return false
	}
	return p.Role == Don && s.Rules.DonChecks || p.Role == Sheriff && s.Rules.Commissar != CommissarShoot
}

// chose reports whether id already made a night choice of this type.
func (s *State) chose(id string, typ ActionType) bool {
	return slices.ContainsFunc(s.Choices, func(c Choice) bool { return c.Actor == id && c.Type == typ })
}
