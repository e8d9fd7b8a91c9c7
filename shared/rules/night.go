package rules

import (
	"slices"
	"time"
)

// startNight puts the city to sleep: every living player gets a night task.
// The day's round is over, and with it any word lost to fouls for it.
func (s *State) startNight(now time.Time) {
	s.Night++
	s.Choices, s.Done, s.Victims, s.Attempts = nil, nil, nil, nil
	s.Nominations, s.Ballots = nil, nil
	for i := range s.Players {
		s.Players[i].Silenced = false
	}
	s.Phase = Phase{Name: PhaseNight, Wake: 1, EndsAt: now.Add(seconds(s.Rules.Night))}
	s.log(ToAll, Event{Type: EvNightFell})
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }

// meetingNight reports whether tonight is a first night that is a meeting only
// (R-CLASSIC-02, R-SPORT-02, R-PARTY-02): nobody is killed or protected.
func (s *State) meetingNight() bool { return s.Rules.FirstNightMeeting && s.Night == 1 }

// nightAct records a player's one tap of this wake, whether their phone or the
// moderator made it (ActTapFor): an act of their role, or "sleep". A black
// player's shot after the mafia's time is noted as none (timeShot). Checks are
// answered at once, to the asker only, as a host nods or shakes his head
// (R-SPORT-11, R-SPORT-12, R-MANIAC-04/05).
func (s *State) nightAct(id string, a Action, now time.Time) {
	s.timeShot(id, a, now)
	if a.Type != ActSleep {
		p := s.player(id)
		s.Choices = append(s.Choices, Choice{Actor: id, Type: a.Type, Target: a.Target})
		act := Event{Type: EvAct, Actor: id, Target: a.Target, Result: string(a.Type)}
		if a.Type == ActKill && slices.Contains(s.LateShots, id) {
			act.Rule = "R-MANIAC-03" // too late: it counts as no shot
		}
		s.log(ToMod, act)
		if a.Type == ActKill && p.Role.Team() == MafiaTeam {
			s.log(ToMafia, Event{Type: EvShot, Actor: id, Target: a.Target})
		}
		if a.Type == ActCheck {
			s.answerCheck(p, a.Target)
		}
	}
	s.finish(id, now)
}

// answerCheck tells the asker what the host would: the Don learns whether the target
// is the Sheriff (R-SPORT-11); the Sheriff learns red or black, the Don showing black
// and the Maniac red (R-SPORT-12, R-MANIAC-05).
func (s *State) answerCheck(p *Player, target string) {
	t := s.player(target)
	c := Check{Night: s.Night, Target: target}
	if p.Role == Don {
		c.Kind, c.Yes = CheckSheriff, t.Role == Sheriff
	} else {
		c.Kind, c.Yes = CheckBlack, t.Role.Black()
	}
	p.Checks = append(p.Checks, c)
	result := map[CheckKind]map[bool]string{CheckSheriff: {true: "sheriff", false: "not_sheriff"}, CheckBlack: {true: "black", false: "red"}}[c.Kind][c.Yes]
	s.log(p.ID, Event{Type: EvChecked, Actor: p.ID, Target: target, Result: result})
	if c.Kind == CheckBlack && c.Yes && !slices.Contains(p.Named, target) {
		p.Named = append(p.Named, target)
	}
}

func (s *State) finish(id string, now time.Time) {
	if !slices.Contains(s.Done, id) {
		s.Done = append(s.Done, id)
	}
	s.nightMaybeOver(now)
}

// nightMaybeOver ends the wake once every living player has tapped.
func (s *State) nightMaybeOver(now time.Time) {
	for _, p := range s.living() {
		if !slices.Contains(s.Done, p.ID) {
			return
		}
	}
	s.complete(now)
}

// endWake ends a wake of the night. The first resolves the night's kills and
// protections; a second wake, where the rules hold one (Options.Wakes), follows
// whoever is alive and whatever happened; then morning.
func (s *State) endWake(now time.Time) {
	if s.Phase.Wake == 1 {
		s.Victims = s.victims()
		if s.Rules.Wakes() > 1 && !s.meetingNight() {
			s.Done = nil
			s.Phase = Phase{Name: PhaseNight, Wake: 2, EndsAt: now.Add(seconds(s.Rules.Night))}
			return
		}
	}
	s.morning(now)
}

func (s *State) roleAlive(r Role) bool {
	return slices.ContainsFunc(s.Players, func(p Player) bool { return p.Alive && p.Role == r })
}

// choice returns the target of the first choice of type typ by a living player with
// role r, or "".
func (s *State) choice(r Role, typ ActionType) (actor, target string) {
	for _, c := range s.Choices {
		if p := s.player(c.Actor); p != nil && p.Alive && p.Role == r && c.Type == typ {
			return c.Actor, c.Target
		}
	}
	return "", ""
}

// mafiaDeadline is when the black team's time to agree on its kill runs out
// (Options.MafiaTime, R-MANIAC-03), or zero when it has the whole wake. The
// first wake's deadline is nightfall plus Options.Night while its taps are open
// (a pause moves both), so the engine needs no clock of its own to know it.
func (s *State) mafiaDeadline() time.Time {
	if s.Rules.MafiaTime <= 0 || s.Rules.MafiaTime >= s.Rules.Night || s.Phase.Name != PhaseNight || s.Phase.Wake > 1 || s.Phase.Paused > 0 {
		return time.Time{}
	}
	return s.Phase.EndsAt.Add(-seconds(s.Rules.Night - s.Rules.MafiaTime))
}

// timeShot notes a black player's shot made after the mafia's time: it will count
// as no shot (R-MANIAC-03: "no agreement within 30 seconds: the mafia missed").
func (s *State) timeShot(id string, a Action, now time.Time) {
	end := s.mafiaDeadline()
	if a.Type == ActKill && !end.IsZero() && now.After(end) && s.player(id).Role.Team() == MafiaTeam {
		s.LateShots = append(s.LateShots, id)
	}
}

// mafiaTarget turns the black players' shots into one kill, or "" for a miss,
// and names the rule that decided it. A shot made after the mafia's time counts
// as none.
func (s *State) mafiaTarget() (string, RuleID) {
	shots := map[string]string{}
	var shooters []string
	donShot := ""
	for _, p := range s.living() {
		if p.Role.Team() != MafiaTeam {
			continue
		}
		shooters = append(shooters, p.ID)
		for _, c := range s.Choices {
			if c.Actor == p.ID && c.Type == ActKill && !slices.Contains(s.LateShots, p.ID) {
				shots[p.ID] = c.Target
				if p.Role == Don {
					donShot = c.Target
				}
			}
		}
	}
	mode, rule := s.Rules.MafiaKill, RuleID("R-SPORT-10")
	if mode == KillDon && !s.roleAlive(Don) {
		// R-MANIAC-03: with the Don gone every living black player must shoot the
		// same seat, or it is a miss.
		mode, rule = KillUnanimous, "R-MANIAC-03"
	}
	switch mode {
	case KillUnanimous:
		// R-SPORT-10: all living black players on the same seat, or a miss.
		target := ""
		for _, id := range shooters {
			t, ok := shots[id]
			if !ok || (target != "" && t != target) {
				return "", rule
			}
			target = t
		}
		return target, rule
	case KillDon:
		return donShot, "R-MANIAC-03" // the Don's choice is final.
	default:
		// R-CLASSIC-04: the choice with the most shots; an even split is a miss.
		count := map[string]int{}
		for _, t := range shots {
			count[t]++
		}
		best, bestN, tied := "", 0, false
		for _, id := range shooters {
			t, ok := shots[id]
			if !ok {
				continue
			}
			switch n := count[t]; {
			case n > bestN:
				best, bestN, tied = t, n, false
			case n == bestN && t != best:
				tied = true
			}
		}
		rule = s.Rules.cite("R-CLASSIC-04", "R-PARTY-07")
		if tied {
			return "", rule
		}
		return best, rule
	}
}

// victims works out who dies tonight before the Doctor's last step: the mafia's
// target, the Commissar's and the Maniac's shots and the double death of
// R-PARTY-08, less the players sheltered from them. Cinderella's guest is safe
// from the mafia's sentence only (R-PARTY-05: «если в эту же ночь Мафия
// "приговорит" именно этого Игрока»); the Lover's guest and the Doctor's patient
// from every death of the night (shelter). It keeps the public news of saves
// and misses for the morning (announce).
//
// Each attempt keeps its killed line (State.Attempts): the cause and the rule
// of the first blow aimed at the player, told in the morning if they die.
func (s *State) victims() []string {
	if s.meetingNight() {
		return nil
	}
	var attempts []string
	aim := func(id, cause string, rule RuleID) {
		if id != "" && s.player(id).Alive && !slices.Contains(attempts, id) {
			attempts = append(attempts, id)
			s.Attempts = append(s.Attempts, Event{Type: EvKilled, Target: id, Result: cause, Rule: rule})
		}
	}
	mafia, rule := s.mafiaTarget()
	if cinderella, guest := s.choice(Cinderella, ActProtect); mafia != "" && mafia == guest {
		s.log(ToMod, Event{Type: EvHealed, Actor: cinderella, Target: mafia, Result: "protected", Rule: "R-PARTY-05"})
		mafia = ""
	}
	aim(mafia, CauseMafia, rule)
	if sheriff, shot := s.choice(Sheriff, ActShoot); shot != "" {
		if s.Rules.Commissar == CommissarShoot && !s.player(shot).Role.Black() {
			// R-CLASSIC-11: a miss on a citizen is announced, nobody dies.
			s.announce(Event{Type: EvSheriffMissed, Rule: "R-CLASSIC-11"})
		} else {
			// R-CLASSIC-11 hit on mafia; R-MANIAC-05 the shot victim dies.
			aim(shot, CauseSheriff, s.Rules.cite("R-CLASSIC-11", "R-MANIAC-05"))
		}
		s.log(ToMod, Event{Type: EvAct, Actor: sheriff, Target: shot, Result: "shot"})
	}
	if _, kill := s.choice(Maniac, ActKill); kill != "" {
		aim(kill, CauseManiac, "R-MANIAC-06")
	}
	if s.Rules.DoubleDeath && mafia != "" && s.player(mafia).Role == Sheriff && !s.sheltered(mafia) {
		// R-PARTY-08: the Commissar killed on a night he was right takes the named
		// mafia with him.
		for _, c := range s.player(mafia).Checks {
			if c.Night == s.Night && c.Kind == CheckBlack && c.Yes {
				aim(c.Target, CauseDoubleDeath, "R-PARTY-08")
			}
		}
	}
	return s.shelter(attempts, mafia)
}

// guarded is who cannot die tonight, whoever comes for them: the Lover's guest
// (R-CLASSIC-11: she «может спасти одного из игроков, проведя с ним ночь») and
// the patient of a Doctor who heals before the kills (R-CLASSIC-11: he «может
// спасти от гибели и мафию», the shooting Commissar's shot included). The
// Doctor who chooses among the victims saves later (doctorSave).
func (s *State) guarded() (lover, guest, doctor, patient string) {
	lover, guest = s.choice(Lover, ActProtect)
	if !s.Rules.DoctorVictims {
		doctor, patient = s.choice(Doctor, ActHeal)
	}
	return lover, guest, doctor, patient
}

// sheltered reports whether id is guarded tonight.
func (s *State) sheltered(id string) bool {
	_, guest, _, patient := s.guarded()
	return id != "" && (id == guest || id == patient)
}

// shelter spares the guarded among the night's attempts and keeps the news of
// it: the Lover's guest survives unannounced, as if nobody came; the Doctor's
// save is told as tellSave says, and a patient nobody came for is "healthy
// anyway" where the rules name the patient. The rest die.
func (s *State) shelter(attempts []string, mafia string) []string {
	lover, guest, doctor, patient := s.guarded()
	for _, id := range attempts {
		switch id {
		case guest:
			s.log(ToMod, Event{Type: EvHealed, Actor: lover, Target: id, Result: "protected", Rule: "R-CLASSIC-11"})
		case patient:
			s.tellSave(doctor, id, id == mafia)
		}
	}
	if patient != "" && !slices.Contains(attempts, patient) && s.Rules.DoctorNamesPatient {
		s.announce(Event{Type: EvTreated, Target: patient}) // "…who was healthy anyway"
	}
	return slices.DeleteFunc(attempts, func(id string) bool { return s.sheltered(id) })
}

// tellSave tells the Doctor's save of id. The table hears whom only where the
// rules name the patient (doctorNamesPatient). Else, with fromMafia, it hears
// without a name that the mafia's kill failed, as text 000's host says «Мафия
// попыталась убить мирного жителя, но доктор его вылечил» (R-CLASSIC-11); any
// other save is not told at all: text 004's morning names only who did not wake
// up («Astăzi numărul … nu sa trezit», R-MANIAC-07), and a save told would say
// that the mafia, the Commissar or the Maniac went for someone. The moderator
// hears whom, and which Doctor, in any case.
func (s *State) tellSave(doctor, id string, fromMafia bool) {
	rule := RuleID("R-CLASSIC-11")
	if s.Rules.DoctorVictims {
		rule = "R-MANIAC-07"
	}
	if s.Rules.DoctorNamesPatient {
		s.announce(Event{Type: EvHealed, Target: id, Rule: rule})
		return
	}
	if fromMafia {
		s.announce(Event{Type: EvHealed, Rule: rule})
	}
	s.log(ToMod, Event{Type: EvHealed, Actor: doctor, Target: id, Rule: rule})
}

// announce keeps a piece of the night's public news for the morning.
func (s *State) announce(e Event) {
	e.Day, e.Night = s.Day, s.Night
	s.News = append(s.News, e)
}

// doctorSave applies the Doctor's last step (R-MANIAC-07): he saves one victim; a
// player already saved once cannot be saved again, and then the night's other victim
// is saved instead. Reading taken: "the other victim" is the first victim, in the
// order of the night, who was never saved. The save is told as tellSave says.
func (s *State) doctorSave() {
	doctor, pick := s.choice(Doctor, ActHeal)
	if !slices.Contains(s.Victims, pick) {
		return // nobody pointed at, or someone who was not dying
	}
	saved := pick
	if s.Rules.DoctorOncePerPlayer && s.player(pick).Saved {
		saved = ""
		for _, v := range s.Victims {
			if v != pick && !s.player(v).Saved {
				saved = v
				break
			}
		}
		s.log(ToMod, Event{Type: EvHealed, Actor: doctor, Target: pick, Result: "refused", Rule: "R-MANIAC-07"})
	}
	if saved == "" {
		return
	}
	s.player(saved).Saved = true
	s.Victims = slices.DeleteFunc(s.Victims, func(v string) bool { return v == saved })
	s.tellSave(doctor, saved, false)
}

// morning announces the night (R-CLASSIC-05, R-SPORT-13): who died or that nobody
// did, the Commissar's public right/wrong (R-PARTY-03), and the last words.
func (s *State) morning(now time.Time) {
	meeting := s.meetingNight()
	if s.Rules.DoctorVictims {
		s.doctorSave()
	}
	s.log(ToAll, Event{Type: EvMorning})
	for _, e := range s.News {
		s.log(ToAll, e)
	}
	s.News = nil
	if s.Rules.Commissar == CommissarPublic {
		if sheriff, target := s.choice(Sheriff, ActCheck); target != "" {
			result := "wrong"
			if s.player(target).Role.Black() {
				result = "right"
				s.player(sheriff).Right++
			}
			s.log(ToAll, Event{Type: EvCommissar, Result: result})
		}
	}
	// R-PARTY-06, R-PARTY-07: the Advocate wakes after the mafia's sentence, so an
	// Advocate who does not live to see the morning protects nobody.
	s.Defended = ""
	if advocate, client := s.choice(Advocate, ActDefend); !slices.Contains(s.Victims, advocate) {
		s.Defended = client
	}
	s.HalfVoter = ""
	if !meeting && len(s.Victims) == 0 {
		s.log(ToAll, Event{Type: EvMissed})
	}
	var words []string
	for _, id := range s.Victims {
		p := s.player(id)
		p.Alive = false
		s.log(ToAll, s.killedLine(id))
		s.showCard(p)
		if s.lastWordAtNight(p) {
			words = append(words, id)
		}
	}
	if s.Rules.HalfVote {
		// R-CLASSIC-10: the half vote is the just-killed "honest" player's; the
		// first town player among the night's dead.
		if i := slices.IndexFunc(s.Victims, func(id string) bool { return s.player(id).Role.Team() == Town }); i >= 0 {
			s.HalfVoter = s.Victims[i]
		}
	}
	s.Choices, s.Done, s.Victims, s.Attempts, s.LateShots = nil, nil, nil, nil, nil
	if s.checkWin(now) {
		return
	}
	next := PhaseDay
	if s.Rules.IntroRound && s.Day == 0 && meeting {
		next = PhaseIntro
	}
	s.lastWords(words, next, now)
}

// killedLine is the morning's line for the night's victim id: the attempt that
// killed them (victims). A game stored mid-night before the attempts were kept
// has none, and its victims die without a cause told.
func (s *State) killedLine(id string) Event {
	if i := slices.IndexFunc(s.Attempts, func(e Event) bool { return e.Target == id }); i >= 0 {
		return s.Attempts[i]
	}
	return Event{Type: EvKilled, Target: id}
}

// lastWordAtNight: who killed at night speaks (R-SPORT-09 everyone; R-MANIAC-08 town
// players but the Sheriff; R-CLASSIC-06 only the Commissar).
func (s *State) lastWordAtNight(p *Player) bool {
	switch s.Rules.LastWords {
	case LastWordsAll:
		return true
	case LastWordsTownNight:
		return p.Role.Team() == Town && p.Role != Sheriff
	case LastWordsSheriffNight:
		return p.Role == Sheriff
	}
	return false
}
