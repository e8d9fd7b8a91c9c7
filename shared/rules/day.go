package rules

import (
	"slices"
	"time"
)

// lastWords gives each of ids a last word (R-SPORT-09), then moves to next.
func (s *State) lastWords(ids []string, next PhaseName, now time.Time) {
	if len(ids) == 0 {
		s.enter(next, now)
		return
	}
	s.Phase = Phase{Name: PhaseLastWord, Queue: ids, Next: next}
	s.beginSpeech(now)
}

// enter opens a phase that follows speeches or votes.
func (s *State) enter(name PhaseName, now time.Time) {
	switch name {
	case PhaseDay:
		s.startDay(now)
	case PhaseIntro:
		// R-MANIAC-02: day 0, every player introduces themselves, from seat 1.
		s.Phase = Phase{Name: PhaseIntro, Queue: s.ids(func(p *Player) bool { return p.Alive })}
		s.beginSpeech(now)
	case PhaseVote:
		s.openVote(s.Phase.Candidates, now)
	default:
		s.startNight(now)
	}
}

// startDay opens a day of monologues, from the day's opener.
func (s *State) startDay(now time.Time) {
	s.Day++
	s.Nominations, s.Ballots, s.VoteRound, s.Repeats, s.Hands = nil, nil, 0, 0, nil
	s.log(ToAll, Event{Type: EvDayBegan})
	s.FirstSpeaker = s.dayOpener()
	s.speeches(s.FirstSpeaker, now)
}

// dayOpener is who opens today's monologues (R-SPORT-03). Day 1 starts at seat 1.
// Each later day starts at the next living seat after the one who opened the day
// before (texts 000, 002), or, with DayOpener "day_seat", at seat n on day n
// whoever has left, from the next living seat if that one has (text 004's closed
// rules: «în al doilea - la numărul doi»).
func (s *State) dayOpener() string {
	if s.Rules.DayOpener == OpenerDaySeat {
		return s.livingFrom((s.Day - 1) % len(s.Players))
	}
	return s.nextLiving(s.FirstSpeaker)
}

// speeches opens a round of monologues starting with first.
func (s *State) speeches(first string, now time.Time) {
	alive := s.ids(func(p *Player) bool { return p.Alive })
	i := max(0, slices.Index(alive, first))
	order := append(alive[i:len(alive):len(alive)], alive[:i]...)
	s.Phase = Phase{Name: PhaseDay, Queue: order}
	s.beginSpeech(now)
}

// nextLiving is the first living player seated after the player with id (or seat 1
// when id is "").
func (s *State) nextLiving(id string) string {
	return s.livingFrom(slices.IndexFunc(s.Players, func(p Player) bool { return p.ID == id }) + 1)
}

// livingFrom is the first living player from the seat at index start on, round
// the table.
func (s *State) livingFrom(start int) string {
	for k := range s.Players {
		p := s.Players[(start+k)%len(s.Players)]
		if p.Alive {
			return p.ID
		}
	}
	return ""
}

// beginSpeech starts the speech of the head of the queue, skipping a speaker who
// lost it to fouls (R-SPORT-16); with nobody left it ends the phase.
func (s *State) beginSpeech(now time.Time) {
	for len(s.Phase.Queue) > 0 && s.loseSpeech(s.player(s.Phase.Queue[0])) {
		s.log(ToAll, Event{Type: EvMuted, Target: s.Phase.Queue[0]})
		s.Phase.Queue = s.Phase.Queue[1:]
	}
	if len(s.Phase.Queue) == 0 {
		s.speechesOver(now)
		return
	}
	s.Phase.Nominated = 0
	d := map[PhaseName]int{PhaseIntro: s.Rules.Intro, PhaseDay: s.Rules.Speech, PhaseDefence: s.Rules.Defence, PhaseLastWord: s.Rules.LastWord}[s.Phase.Name]
	if s.Phase.Reason == ReasonExtra {
		d = s.Rules.ExtraSpeech
	}
	s.Phase.EndsAt = now.Add(seconds(d))
}

// loseSpeech reports whether fouls cost p the speech now due (R-SPORT-16): the
// day monologue after the warnings that mute, which spends them, and, once that
// is lost, every other speech of the round where the rules say so (silence).
func (s *State) loseSpeech(p *Player) bool {
	if s.Phase.Name == PhaseDay && p.Muted != 0 {
		p.Muted = 0
		s.silence(p)
		return true
	}
	return p.Silenced
}

// silence takes the word from p for the rest of this round when the warnings
// that mute cost the whole round (Options.MuteWholeRound, text 002 rule 23:
// «позбавляється слова на одне коло»): a defence and a last word after the
// day's vote too. The night ends it (startNight), so a last word in the morning
// belongs to the next round.
func (s *State) silence(p *Player) {
	if s.Rules.MuteWholeRound {
		p.Silenced = true
	}
}

// nextSpeaker ends the current speech ("Thank you", or time) and starts the next.
func (s *State) nextSpeaker(now time.Time) {
	s.Phase.Queue = s.Phase.Queue[1:]
	s.beginSpeech(now)
}

// speechesOver moves on once a round of speeches has ended.
func (s *State) speechesOver(now time.Time) {
	switch s.Phase.Name {
	case PhaseIntro:
		s.startNight(now)
	case PhaseLastWord:
		if s.checkWin(now) {
			return
		}
		s.enter(s.Phase.Next, now)
	case PhaseDefence:
		if len(s.Phase.Candidates) == 0 {
			// Every accused was removed during the defence (R-SPORT-16): there
			// is nobody left to vote on.
			s.acquit(AcquitRemoved, now)
			return
		}
		if s.Phase.Next == PhaseVoteAll {
			s.openVoteAll(s.Phase.Candidates, s.Phase.Reason, now)
			return
		}
		s.openVote(s.Phase.Candidates, now)
	case PhaseDay:
		// R-MANIAC-09: those who raised a hand speak again, briefly, after the round.
		var hands []string
		for _, id := range s.Hands {
			if s.player(id).Alive {
				hands = append(hands, id)
			}
		}
		if s.Phase.Reason == ReasonNone && len(hands) > 0 {
			s.Hands = nil
			s.Phase = Phase{Name: PhaseDay, Queue: hands, Reason: ReasonExtra}
			s.beginSpeech(now)
			return
		}
		s.dayOver(now)
	}
}

// dayOver opens the vote after the monologues (R-SPORT-05, R-SPORT-06).
func (s *State) dayOver(now time.Time) {
	if s.Rules.Voting == VotingAnyone {
		// R-CLASSIC-03, R-MANIAC-10: every living player can be voted against.
		s.openVote(s.ids(func(p *Player) bool { return p.Alive }), now)
		return
	}
	var nominees []string
	for _, n := range s.Nominations {
		nominees = append(nominees, n.Target)
	}
	switch {
	case len(nominees) == 0:
		s.acquit(AcquitNoNominees, now)
	case len(nominees) == 1 && s.Day == 1 && s.Rules.Day1SingleNomineeStays && s.Repeats == 0:
		s.acquit(AcquitSingleNominee, now) // R-SPORT-06
	case s.Rules.NomineeDefence:
		// R-PARTY-09: each accused answers the accusation before the vote.
		s.Phase = Phase{Name: PhaseDefence, Queue: nominees, Candidates: nominees, Reason: ReasonAccused, Next: PhaseVote}
		s.beginSpeech(now)
	default:
		s.openVote(nominees, now)
	}
}

// withdraw takes back the speaker's own nomination made in this monologue
// (R-SPORT-04). The story forgets it was made, so nominating and withdrawing in
// a loop cannot grow the game.
func (s *State) withdraw(by string) {
	for i := len(s.Nominations) - 1; i >= 0; i-- {
		if n := s.Nominations[i]; n.By == by {
			s.forgetLast(func(e Event) bool { return e.Type == EvNominated && e.Actor == by && e.Target == n.Target })
			s.Nominations = slices.Delete(s.Nominations, i, i+1)
			s.Phase.Nominated--
			return
		}
	}
}

// unnominate takes back the nominations of a player who has left the game. One
// the speaker made in this monologue is no longer theirs to withdraw, and the
// nomination is theirs to make again: a withdrawal takes back only a nomination
// of the same monologue (R-SPORT-04), never one of an earlier speech.
func (s *State) unnominate(id string) {
	speaker, mine, made := s.speaker(), 0, s.Phase.Nominated
	for i := len(s.Nominations) - 1; i >= 0 && mine < made; i-- {
		if n := s.Nominations[i]; n.By == speaker {
			mine++
			if n.Target == id {
				s.Phase.Nominated--
			}
		}
	}
	s.Nominations = slices.DeleteFunc(s.Nominations, func(n Nomination) bool { return n.Target == id })
}

// testament is the night-killed Commissar's last word about a checked player
// (R-CLASSIC-06); in the Каттани variant a named mafia dies at once (R-CLASSIC-07).
func (s *State) testament(id, target string, verdict Verdict, now time.Time) {
	s.player(id).Spoke = true
	s.log(ToAll, Event{Type: EvTestament, Actor: id, Target: target, Result: string(verdict)})
	t := s.player(target)
	if s.Rules.TestamentKills && verdict == VerdictMafia && t.Alive && t.Role.Black() {
		t.Alive = false
		s.log(ToAll, Event{Type: EvEliminated, Target: target, Result: "testament", Rule: "R-CLASSIC-07"})
		s.showCard(t)
		s.checkWin(now)
	}
}

// reveal shows the Commissar's card; every mafia he rightly named leaves
// (R-PARTY-04).
func (s *State) reveal(id string, now time.Time) {
	p := s.player(id)
	p.Shown = true
	speaker := s.speaker()
	s.log(ToAll, Event{Type: EvRevealed, Actor: id})
	s.log(ToAll, Event{Type: EvRole, Target: id, Role: p.Role})
	for _, t := range p.Named {
		if q := s.player(t); q.Alive {
			q.Alive = false
			s.log(ToAll, Event{Type: EvEliminated, Target: t, Result: "reveal", Rule: "R-PARTY-04"})
			s.showCard(q)
			s.unnominate(t)
			s.Phase.Queue = slices.DeleteFunc(s.Phase.Queue, func(c string) bool { return c == t })
			s.Phase.Candidates = slices.DeleteFunc(s.Phase.Candidates, func(c string) bool { return c == t })
		}
	}
	if s.checkWin(now) {
		return
	}
	if s.speaker() != speaker {
		s.beginSpeech(now) // the speaker was among them
	}
}
