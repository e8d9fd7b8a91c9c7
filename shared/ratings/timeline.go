package ratings

import (
	"math"
	"slices"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

// timeline places a protocol's facts in mafiaratings' rounds and moments.
// Round r is night r and day r (Game::api_help, round numbering), and the
// first night, a meeting, is night 0: night n of the protocol is round n-1,
// and a day is in the round of the night before it (day n after night n;
// in the maniac rules, with day 0's introductions told in night 1, day n
// after night n+1).
type timeline struct {
	p      protocol.Protocol
	nights map[int]*protocol.Night
	days   map[int]*protocol.Day
	// dayRound is the round of each day of the protocol.
	dayRound map[int]int
	// opener is the seat that opened each day's monologues (R-SPORT-03).
	opener map[int]int
	// resolved is, for a night whose shots were counted while the night
	// went on (a removal after them), the protocol position from which its
	// facts come after the shots.
	resolved map[int]int
}

func newTimeline(p protocol.Protocol) (*timeline, error) {
	t := &timeline{p: p, nights: map[int]*protocol.Night{}, days: map[int]*protocol.Day{}, dayRound: map[int]int{},
		opener: map[int]int{}, resolved: map[int]int{}}
	for i := range p.Nights {
		t.nights[p.Nights[i].Night] = &p.Nights[i]
	}
	days := make([]*protocol.Day, 0, len(p.Days))
	for i := range p.Days {
		d := &p.Days[i]
		t.days[d.Day] = d
		days = append(days, d)
		before := 0
		for _, n := range p.Nights {
			if n.At < d.At {
				before = max(before, n.Night)
			}
		}
		if before == 0 {
			return nil, unsupportedf("day %d comes before any night", d.Day)
		}
		t.dayRound[d.Day] = before - 1
	}
	slices.SortFunc(days, func(a, b *protocol.Day) int { return a.Day - b.Day })
	prev := 0
	for _, d := range days {
		// R-SPORT-03: day 1 opens at the first living seat, each later day at
		// the next living seat after the day before's opener; with dayOpener
		// "day_seat", day n at seat n, or the next living one.
		from := prev
		if p.Rules.DayOpener == rules.OpenerDaySeat {
			from = (d.Day - 1) % len(p.Seats)
		}
		prev = t.livingFrom(from, func(s int) bool { return t.aliveAt(s, d.At) })
		t.opener[d.Day] = prev
	}
	for _, n := range p.Nights {
		if at, ok := t.resolution(n); ok {
			t.resolved[n.Night] = at
		}
	}
	return t, nil
}

// resolution places night n's count of the shots among its facts, where a
// black player left the game that night. The engine counts the shots when
// every living player has made the night's first act: a black player
// removed before then has no shot, one removed after it has his. The story
// does not tell when that was, so the count is placed after as many of the
// night's removals of black players as give the night's outcome (a death,
// or none) from the shots of the black players still at the table then. It
// answers the protocol position from which the night's facts come after the
// count, and false when they all come before it (or no place gives the
// outcome, and the shots are left out).
func (t *timeline) resolution(n protocol.Night) (int, bool) {
	var removals []int
	killed := false
	for _, d := range n.Left {
		switch {
		case d.How == protocol.LeftKilled:
			killed = true
		case t.p.Seats[d.Seat-1].Role.Black():
			removals = append(removals, d.At)
		}
	}
	if !killed && !n.Missed {
		return 0, false // the game ended before the count
	}
	if len(removals) == 0 || t.shotsGive(n, math.MaxInt) {
		return 0, false
	}
	for i := len(removals) - 1; i >= 0; i-- {
		if t.shotsGive(n, removals[i]) {
			return removals[i], true
		}
	}
	return 0, false
}

// shotsGive reports whether night n's outcome is what the site reads from
// the shots (get_night_kill in include/game.php) when the night's facts from
// protocol position counted on come after the count: a kill when every black
// player at the table then shot the same seat, none otherwise.
func (t *timeline) shotsGive(n protocol.Night, counted int) bool {
	victim := 0
	for _, d := range n.Left {
		if d.How == protocol.LeftKilled {
			victim = d.Seat
		}
	}
	common, agreed := 0, true
	for _, s := range t.p.Seats {
		if !s.Role.Black() {
			continue
		}
		if l := s.Left; l != nil && (l.At < n.At || (l.Night == n.Night && l.How != protocol.LeftKilled && l.At < counted)) {
			continue // gone before the count
		}
		shot := shotOf(n, s.Seat)
		if victim > 0 && s.Seat != victim && shot != victim {
			return false
		}
		if shot == 0 || (common != 0 && shot != common) {
			agreed = false
		}
		common = shot
	}
	if victim == 0 && agreed && common > 0 {
		l := t.p.Seats[common-1].Left
		return l != nil && l.Night == n.Night
	}
	return true
}

// shotOf is the seat a black player shot in night n, 0 for none: a shot too
// late to count (R-MANIAC-03) is none.
func shotOf(n protocol.Night, seat int) int {
	for _, a := range n.Acts {
		if a.Seat == seat && a.Act == rules.ActKill && !a.Late {
			return a.Target
		}
	}
	return 0
}

// livingFrom is the first seat, from the seat after number from on round the
// table (from 0: seat 1 first), for which alive holds; 0 for none.
func (t *timeline) livingFrom(from int, alive func(seat int) bool) int {
	n := len(t.p.Seats)
	for k := range n {
		if s := (from+k)%n + 1; alive(s) {
			return s
		}
	}
	return 0
}

// aliveAt reports whether seat was still at the table at protocol position at.
func (t *timeline) aliveAt(seat, at int) bool {
	l := t.p.Seats[seat-1].Left
	return l == nil || l.At > at
}

// nightRound is the round of night n.
func nightRound(n int) int { return n - 1 }

// round is the round a fact of the night or day w falls in.
func (t *timeline) round(w protocol.When) int {
	if w.Night > 0 {
		return nightRound(w.Night)
	}
	return t.dayRound[w.Day]
}

// moment is the moment of the fact at protocol position at in the night or
// day w, as mafiaratings names moments (add_time_help in include/game.php).
// The protocol knows the order of the facts, not every speech's beginning,
// so a moment is placed between the facts that bound it:
//
//   - at night, before the morning: the night's start (the start of the
//     game on the meeting night), or its end for what came after the
//     shots were counted (resolution); after the morning's news of a
//     death: the killed's last word;
//   - by day, before the first vote: the speech of the last player who
//     nominated before it, or of the day's opener;
//   - between a vote and its revote: the tied players' speeches, the first of
//     them speaking; before the vote on all leaving: that vote;
//   - after the day's votes: the first voted out's last word.
func (t *timeline) moment(at int, w protocol.When) GameTime {
	if w.Night > 0 {
		r := nightRound(w.Night)
		if n := t.nights[w.Night]; n != nil {
			for _, d := range n.Left {
				if d.How == protocol.LeftKilled && d.At < at {
					return GameTime{Round: r, Time: TimeNightKillSpeech}
				}
			}
		}
		if from, ok := t.resolved[w.Night]; ok && at >= from {
			return GameTime{Round: r, Time: TimeNightEnd}
		}
		if r == 0 {
			return GameTime{Round: 0, Time: TimeStart}
		}
		return GameTime{Round: r, Time: TimeNightStart}
	}
	r := t.dayRound[w.Day]
	d := t.days[w.Day]
	if d == nil {
		return GameTime{Round: r, Time: TimeSpeaking, Speaker: t.opener[w.Day]}
	}
	i := 0
	for i < len(d.Votes) && d.Votes[i].At < at {
		i++
	}
	switch {
	case i == 0:
		speaker := t.opener[w.Day]
		for _, n := range d.Nominations {
			if n.At < at {
				speaker = n.By
			}
		}
		return GameTime{Round: r, Time: TimeSpeaking, Speaker: speaker}
	case i < len(d.Votes) && d.Votes[i].Kind == protocol.VoteAllLeave:
		return GameTime{Round: r, Time: TimeVotingKillAll, VotingRound: ptr(i)}
	case i < len(d.Votes):
		g := GameTime{Round: r, Time: TimeVoting, VotingRound: ptr(i)}
		if tied := d.Votes[i-1].Tied; len(tied) > 0 {
			g.Speaker = tied[0]
		}
		return g
	}
	for _, l := range d.Left {
		if l.How == protocol.LeftVote {
			return GameTime{Round: r, Time: TimeDayKillSpeech, Speaker: l.Seat}
		}
	}
	return GameTime{Round: r, Time: TimeVotingKillAll, VotingRound: ptr(i)}
}

// whoSpeaksFirst is the seat mafiaratings takes to open the day of round r
// under its rules code's rotation "first" (who_speaks_first in
// include/game.php): the first living seat on day 0, then the next living
// seat after the day before's opener, living counted at the day's start.
func (t *timeline) whoSpeaksFirst(r int) int {
	prev := 0
	for k := 0; k <= r; k++ {
		prev = t.livingFrom(prev, func(s int) bool { return t.aliveInDay(s, k) })
	}
	return prev
}

// aliveInDay reports whether seat is at the table when the day of round r
// begins: it left in no earlier round, and not in round r's night.
func (t *timeline) aliveInDay(seat, r int) bool {
	l := t.p.Seats[seat-1].Left
	if l == nil {
		return true
	}
	lr := t.round(l.When)
	return lr > r || (lr == r && l.Night == 0)
}

func ptr[T any](v T) *T { return &v }
