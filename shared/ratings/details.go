package ratings

import (
	"fmt"
	"slices"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

// builder fills a Game's players from the protocol, one detail at a time,
// and keeps which features the record holds.
type builder struct {
	t *timeline
	g *Game
	// on are the features the record holds; a feature omitted is off for
	// good.
	on      map[string]bool
	omitted map[string]bool
}

func (b *builder) player(seat int) *Player { return &b.g.Players[seat-1] }

// hold turns features on, unless they were omitted.
func (b *builder) hold(features ...string) {
	for _, f := range features {
		if !b.omitted[f] {
			b.on[f] = true
		}
	}
}

// omit leaves a feature out of the record, saying why; the first reason
// stands.
func (b *builder) omit(feature, format string, args ...any) {
	if b.omitted == nil {
		b.omitted = map[string]bool{}
	}
	b.on[feature] = false
	if !b.omitted[feature] {
		b.omitted[feature] = true
		b.g.Omitted = append(b.g.Omitted, Omission{Feature: feature, Reason: fmt.Sprintf(format, args...)})
	}
}

// deaths tells how and when each player left: voted out by day, killed at
// night, removed by warnings or by the moderator, with the moment of a
// removal.
func (b *builder) deaths() {
	b.hold(FeatureDeath, FeatureDeathRound, FeatureDeathType, FeatureDeathTime)
	for _, s := range b.t.p.Seats {
		if l := s.Left; l != nil {
			d := &Death{Round: b.t.round(l.When)}
			switch l.How {
			case protocol.LeftKilled:
				d.Type = DeathNight
			case protocol.LeftVote:
				d.Type = DeathDay
			case protocol.LeftFouls:
				d.Type, d.Time = DeathWarnings, ptr(b.t.moment(l.At, l.When))
			default:
				d.Type, d.Time = DeathKickOut, ptr(b.t.moment(l.At, l.When))
			}
			b.player(s.Seat).Death = d
		}
	}
}

// deathTime is when seat left, as the site reads a death without its last
// word (get_player_death_time in include/game.php): the night's shots for
// the killed, the day's vote for the voted out, the moment of a removal; nil
// for a player at the table to the end.
func (b *builder) deathTime(seat int) *GameTime {
	d := b.player(seat).Death
	switch {
	case d == nil:
		return nil
	case d.Time != nil:
		return d.Time
	case d.Type == DeathNight:
		return &GameTime{Round: d.Round, Time: TimeShooting}
	}
	return &GameTime{Round: d.Round, Time: TimeVoting}
}

// momentRank orders the moments of a round (gametime_to_int in
// include/game.php).
var momentRank = map[string]int{TimeStart: 0, TimeNightStart: 3, TimeShooting: 4, TimeDon: 5, TimeSheriff: 6, TimeNightEnd: 7,
	TimeNightKillSpeech: 9, TimeSpeaking: 10, TimeVoting: 12, TimeVotingKillAll: 13, TimeDayKillSpeech: 14, TimeEnd: 15}

// compareMoments compares two moments by round and moment only: negative when a
// comes first, 0 in the same moment. A nil moment is the end of the game.
func compareMoments(a, c *GameTime) int {
	if a == nil || c == nil {
		switch {
		case a == nil && c == nil:
			return 0
		case a == nil:
			return 1
		}
		return -1
	}
	if a.Round != c.Round {
		return a.Round - c.Round
	}
	return momentRank[a.Time] - momentRank[c.Time]
}

// warnings tells each player's warnings and their moments; the site counts
// four at most.
func (b *builder) warnings() {
	b.hold(FeatureWarnings, FeatureWarningTimes)
	for _, s := range b.t.p.Seats {
		if len(s.Fouls) > 4 {
			b.omit(FeatureWarnings, "seat %d had %d warnings; mafiaratings counts 4 at most", s.Seat, len(s.Fouls))
			b.omit(FeatureWarningTimes, "there are no warnings in the record")
		}
		for _, f := range s.Fouls {
			p := b.player(s.Seat)
			p.Warnings = append(p.Warnings, b.t.moment(f.At, f.When))
		}
	}
}

// checks tells the Don's and the Sheriff's checks: the round in which each
// checked player was checked. The site keeps one check of each player by
// each of them: a player checked again keeps the first, which the second
// only repeats.
func (b *builder) checks() {
	o := b.t.p.Rules
	if o.DonChecks {
		b.hold(FeatureDonChecks)
	}
	if o.Sheriff && o.Commissar != rules.CommissarShoot {
		b.hold(FeatureSheriffChecks)
	}
	for _, n := range b.t.p.Nights {
		for _, a := range n.Acts {
			if a.Act != rules.ActCheck || a.Target < 1 || a.Target > len(b.g.Players) {
				continue
			}
			field, feature := &b.player(a.Target).Sheriff, FeatureSheriffChecks
			if b.t.p.Seats[a.Seat-1].Role == rules.Don {
				field, feature = &b.player(a.Target).Don, FeatureDonChecks
			}
			b.hold(feature)
			if *field == nil {
				*field = ptr(nightRound(n.Night))
			}
		}
	}
}

// legacy tells the best move, where the rules have it: the seats the first
// night's killed named in the last word.
func (b *builder) legacy() {
	if !b.t.p.Rules.BestMove {
		return
	}
	b.hold(FeatureLegacy)
	for _, n := range b.t.p.Nights {
		for _, m := range n.BestMoves {
			b.player(m.Seat).Legacy = slices.Clone(m.Targets)
		}
	}
}

// shooting tells each black player's shot of every night after the meeting,
// as the site reads it: the night's kill is the seat every black player at
// the table shot, and there is none when they differ or one did not shoot.
// A shot too late to count (R-MANIAC-03) is none. Shots that killed by
// another reckoning (a majority, R-CLASSIC-04; the Don's choice, R-MANIAC-03)
// would be read otherwise, and are left out.
func (b *builder) shooting() {
	b.hold(FeatureShooting)
	var black []int
	for _, s := range b.t.p.Seats {
		if s.Role.Black() {
			black = append(black, s.Seat)
		}
	}
	for _, n := range b.t.p.Nights {
		r := nightRound(n.Night)
		if r < 1 {
			continue
		}
		victim := 0
		for _, d := range n.Left {
			if d.How == protocol.LeftKilled {
				victim = d.Seat
			}
		}
		if victim == 0 && !n.Missed {
			continue // the game ended before the night's morning: its shots never counted
		}
		at := &GameTime{Round: r, Time: TimeShooting}
		common, agreed := 0, true
		for _, s := range black {
			c := compareMoments(at, b.deathTime(s))
			if c > 0 {
				continue // gone before the night
			}
			shot := shotOf(n, s)
			p := b.player(s)
			for len(p.Shooting) < r {
				p.Shooting = append(p.Shooting, nil)
			}
			if shot > 0 {
				p.Shooting[r-1] = ptr(shot)
			}
			if c < 0 && victim > 0 && shot != victim {
				b.omit(FeatureShooting, "night %d: seat %d was killed, and black seat %d %s; mafiaratings kills only when every black player shot the same seat", n.Night, victim, s, shotSaid(shot))
			}
			if shot == 0 || (common != 0 && shot != common) {
				agreed = false
			}
			common = shot
		}
		if victim == 0 && agreed && common > 0 && !b.leftIn(common, n.Night) {
			b.omit(FeatureShooting, "night %d: every black player shot seat %d, who did not die; mafiaratings would read it as a kill", n.Night, common)
		}
	}
	for i := range b.g.Players {
		p := &b.g.Players[i]
		for len(p.Shooting) > 0 && p.Shooting[len(p.Shooting)-1] == nil {
			p.Shooting = p.Shooting[:len(p.Shooting)-1]
		}
		if len(p.Shooting) == 0 {
			p.Shooting = nil
		}
	}
}

// shotSaid tells a black player's shot, for a reason.
func shotSaid(target int) string {
	if target == 0 {
		return "did not shoot"
	}
	return fmt.Sprintf("shot seat %d", target)
}

// leftIn reports whether seat left the game in night n.
func (b *builder) leftIn(seat, night int) bool {
	l := b.t.p.Seats[seat-1].Left
	return l != nil && l.Night == night
}

// nominations tells whom each player nominated each day. The site keeps one
// nomination a player a day, and reads their order from the seats, from the
// day's first speaker as its rotation says.
func (b *builder) nominations() {
	if b.t.p.Rules.Voting != rules.VotingNominees {
		b.omit(FeatureNominating, "the rules vote against anyone (voting: anyone), with no nominations")
		return
	}
	b.hold(FeatureNominating)
	for _, d := range b.t.p.Days {
		r := b.t.dayRound[d.Day]
		if len(d.Nominations) == 0 {
			continue
		}
		if opener, first := b.t.opener[d.Day], b.t.whoSpeaksFirst(r); opener != first {
			b.omit(FeatureNominating, "day %d opened at seat %d; mafiaratings' rotation opens it at seat %d", d.Day, opener, first)
		}
		n := len(b.g.Players)
		opener, last := b.t.opener[d.Day], -1
		for _, nm := range d.Nominations {
			if b.takenBack(d, nm.Target) {
				continue
			}
			p := b.player(nm.By)
			switch {
			case len(d.Votes) > 0 && nm.At > d.Votes[0].At:
				b.omit(FeatureNominating, "day %d: seats were nominated again after a tied vote; mafiaratings keeps one nomination a player a day", d.Day)
			case len(p.Nominating) > r && p.Nominating[r] != nil:
				b.omit(FeatureNominating, "day %d: seat %d nominated twice; mafiaratings keeps one nomination a player a day", d.Day, nm.By)
			}
			if order := (nm.By - opener + n) % n; order < last {
				b.omit(FeatureNominating, "day %d: seat %d nominated after a seat that speaks later; mafiaratings orders nominations by seat", d.Day, nm.By)
			} else {
				last = order
			}
			for len(p.Nominating) <= r {
				p.Nominating = append(p.Nominating, nil)
			}
			p.Nominating[r] = ptr(nm.Target)
		}
	}
}

// takenBack reports whether the nominations of seat on day d were taken back
// before the vote: the seat was removed that day before it (R-SPORT-16), and
// whoever nominated it may nominate again.
func (b *builder) takenBack(d protocol.Day, seat int) bool {
	l := b.t.p.Seats[seat-1].Left
	if l == nil || l.Day != d.Day || (l.How != protocol.LeftRemoved && l.How != protocol.LeftFouls) {
		return false
	}
	return len(d.Votes) == 0 || l.At < d.Votes[0].At
}

// voting tells every vote, round by round: whom each player voted for, in
// the day's vote and in its revote among the tied, and yes or no to "shall
// all of them leave?" (R-SPORT-07). The site reads a vote as every player at
// the table voting for one candidate, a revote as among the tied only, and
// who leaves from the count: a game whose votes say otherwise (an abstention,
// a vote held again from the start, a half vote, a justification) leaves its
// votes out.
func (b *builder) voting() {
	b.hold(FeatureVoting)
	allLeave := b.t.p.Rules.Ties == rules.TiesCarCrash
	for _, d := range b.t.p.Days {
		if len(d.Votes) == 0 {
			continue
		}
		if why := b.unreadable(d); why != "" {
			b.omit(FeatureVoting, "day %d: %s", d.Day, why)
			continue
		}
		r := b.t.dayRound[d.Day]
		again := len(d.Votes) > 1
		for _, s := range b.t.p.Seats {
			var v RoundVote
			v.Again = again
			for _, round := range d.Votes {
				for _, bl := range round.Ballots {
					if bl.Voter != s.Seat {
						continue
					}
					if round.Kind == protocol.VoteAllLeave {
						v.KillAll = ptr(bl.Yes != nil && *bl.Yes)
					} else {
						v.For = append(v.For, bl.Target)
					}
				}
				if round.Kind == protocol.VoteAllLeave && v.KillAll == nil && b.t.aliveAt(s.Seat, round.At) {
					v.KillAll = ptr(false) // a vote not given stays (R-SPORT-07)
				}
			}
			if len(v.For) == 0 && v.KillAll == nil {
				continue
			}
			if v.KillAll != nil {
				allLeave = true
			}
			p := b.player(s.Seat)
			for len(p.Voting) <= r {
				p.Voting = append(p.Voting, RoundVote{})
			}
			p.Voting[r] = v
		}
		// The nominees are who the day's first vote was over.
		if b.on[FeatureNominating] {
			for _, bl := range d.Votes[0].Ballots {
				if !slices.ContainsFunc(d.Nominations, func(n protocol.Nomination) bool { return n.Target == bl.Target }) {
					b.omit(FeatureNominating, "day %d: seat %d voted for seat %d, whom nobody nominated", d.Day, bl.Voter, bl.Target)
				}
			}
		}
	}
	if allLeave {
		b.hold(FeatureKillAll)
	}
	if !b.on[FeatureVoting] && allLeave {
		b.omit(FeatureKillAll, "the votes are left out")
	}
}

// settle takes out of the players every field whose feature the record does
// not hold, as the site would (Game::cleanup_features), and the votes on all
// leaving with their feature.
func (b *builder) settle() {
	for i := range b.g.Players {
		p := &b.g.Players[i]
		if !b.on[FeatureDonChecks] {
			p.Don = nil
		}
		if !b.on[FeatureSheriffChecks] {
			p.Sheriff = nil
		}
		if !b.on[FeatureLegacy] {
			p.Legacy = nil
		}
		if !b.on[FeatureShooting] {
			p.Shooting = nil
		}
		if !b.on[FeatureNominating] {
			p.Nominating = nil
		}
		if !b.on[FeatureVoting] {
			p.Voting = nil
		}
		if !b.on[FeatureKillAll] {
			for r := range p.Voting {
				p.Voting[r].KillAll = nil
			}
		}
		if !b.on[FeatureWarnings] {
			p.Warnings = nil
		}
	}
}

// unreadable says why the site would read day d's votes otherwise than they
// went, or "" when it reads them as they went.
func (b *builder) unreadable(d protocol.Day) string {
	var last *protocol.Vote
	for j := range d.Votes {
		v := &d.Votes[j]
		switch v.Kind {
		case protocol.VoteCandidates:
			if j > 0 && d.Votes[j-1].Kind != protocol.VoteCandidates {
				return "a vote after the vote on all leaving"
			}
			if len(v.NotVoted) > 0 {
				return fmt.Sprintf("vote %d was counted without seat %d, who did not vote (R-MANIAC-10); mafiaratings' players all vote", v.Round, v.NotVoted[0])
			}
			if j > 0 && len(d.Votes[j-1].Tied) == 0 {
				return fmt.Sprintf("vote %d was held again with no tie before it", v.Round)
			}
			voted := map[int]bool{}
			for _, bl := range v.Ballots {
				switch {
				case bl.Target == 0:
					return fmt.Sprintf("seat %d abstained in vote %d; mafiaratings' players all vote for a candidate", bl.Voter, v.Round)
				case !b.t.aliveAt(bl.Target, v.At):
					return fmt.Sprintf("seat %d voted for seat %d, who was removed before vote %d was counted and so not counted (R-SPORT-16); mafiaratings would count the vote", bl.Voter, bl.Target, v.Round)
				case j > 0 && !slices.Contains(d.Votes[j-1].Tied, bl.Target):
					return fmt.Sprintf("vote %d was held again over seats that were not tied (R-PARTY-10); mafiaratings' revote is among the tied", v.Round)
				}
				voted[bl.Voter] = true
			}
			for _, s := range b.t.p.Seats {
				if b.t.aliveAt(s.Seat, v.At) && !voted[s.Seat] {
					return fmt.Sprintf("seat %d did not vote in vote %d; mafiaratings' players all vote", s.Seat, v.Round)
				}
			}
			last = v
		case protocol.VoteAllLeave:
			if j != len(d.Votes)-1 || last == nil {
				return "the vote on all leaving is not the day's last"
			}
		default:
			return fmt.Sprintf("vote %d is a %s vote, which mafiaratings does not have", v.Round, v.Kind)
		}
	}
	// Who left by the vote must be who the site counts out of the last vote.
	count := map[int]int{}
	top := 0
	for _, bl := range last.Ballots {
		count[bl.Target]++
		top = max(top, count[bl.Target])
	}
	var leaders, out []int
	for t, c := range count {
		if c == top {
			leaders = append(leaders, t)
		}
	}
	for _, l := range d.Left {
		if l.How == protocol.LeftVote {
			out = append(out, l.Seat)
		}
	}
	slices.Sort(leaders)
	slices.Sort(out)
	want := []int(nil)
	if all := d.Votes[len(d.Votes)-1]; all.Kind == protocol.VoteAllLeave {
		yes := 0
		for _, bl := range all.Ballots {
			if bl.Yes != nil && *bl.Yes {
				yes++
			}
		}
		if yes*2 > len(last.Ballots) {
			want = leaders
		}
	} else if len(leaders) == 1 {
		want = leaders
	}
	if !slices.Equal(out, want) {
		return fmt.Sprintf("seats %v left by the vote, where mafiaratings counts seats %v out", out, want)
	}
	return ""
}
