package protocol

import (
	"strconv"

	"citysleeps/shared/rules"
)

// Of is the protocol of game s as it stands: the whole record once the game is
// over, the record so far before that. Apply rules.Advance first for the game
// at a later moment.
func Of(s rules.State) Protocol {
	events, whole := rules.History(s)
	p := Protocol{SchemaVersion: SchemaVersion, Code: s.Code, Lang: s.Lang, Moderator: s.Moderator, Created: s.Created,
		Rules: s.Rules, Over: s.Phase.Name == rules.PhaseGameOver, Complete: whole == 0, WholeFrom: whole,
		Seats: make([]Seat, 0, len(s.Players)), Nights: []Night{}, Days: []Day{}}
	b := builder{p: &p, seats: map[string]int{}, nights: map[int]int{}, days: map[int]int{}}
	for _, pl := range s.Players {
		b.seats[pl.ID] = pl.Seat
		p.Seats = append(p.Seats, Seat{Seat: pl.Seat, ID: pl.ID, Name: pl.Name, Role: pl.Role, Team: team(pl.Role), Alive: pl.Alive})
	}
	for at, e := range events {
		b.add(at, e)
	}
	return p
}

// team is the side of a dealt card; none before the deal.
func team(r rules.Role) rules.Team {
	if r == "" {
		return ""
	}
	return r.Team()
}

// builder reads a game's story into a protocol, one event at a time.
type builder struct {
	p      *Protocol
	seats  map[string]int // player id → seat
	nights map[int]int    // night → index in p.Nights
	days   map[int]int    // day → index in p.Days
	// now is where the story has got to: the night or day last begun. A day
	// runs from its first speech to nightfall; the morning, its last words
	// and day 0's introductions belong to the night before.
	now When
	// notVoted are the seats a compulsory vote counts without, named before
	// the vote's result.
	notVoted []int
}

// night is night n's record, begun at at when the story has none yet.
func (b *builder) night(at, n int) *Night {
	i, ok := b.nights[n]
	if !ok {
		i = len(b.p.Nights)
		b.nights[n] = i
		b.p.Nights = append(b.p.Nights, Night{At: at, Night: n, Acts: []Act{}, Left: []Departure{}})
	}
	return &b.p.Nights[i]
}

// day is day n's record, begun at at when the story has none yet.
func (b *builder) day(at, n int) *Day {
	i, ok := b.days[n]
	if !ok {
		i = len(b.p.Days)
		b.days[n] = i
		b.p.Days = append(b.p.Days, Day{At: at, Day: n, Nominations: []Nomination{}, Votes: []Vote{}, Left: []Departure{}})
	}
	return &b.p.Days[i]
}

// seat is the seat numbered n, or nil for none; the players sit in seat
// order, from 1.
func (b *builder) seat(n int) *Seat {
	if n < 1 || n > len(b.p.Seats) {
		return nil
	}
	return &b.p.Seats[n-1]
}

// nightActs are the night acts the protocol lists; the moderator's other "act"
// lines (the Commissar's shot told again as it is resolved) repeat them.
var nightActs = map[string]bool{
	string(rules.ActKill): true, string(rules.ActCheck): true, string(rules.ActHeal): true,
	string(rules.ActProtect): true, string(rules.ActDefend): true, string(rules.ActShoot): true,
}

func (b *builder) add(at int, e rules.Event) {
	switch e.Type {
	case rules.EvNightFell:
		b.now = When{Night: e.Night}
		b.night(at, e.Night)
	case rules.EvDayBegan:
		b.now = When{Day: e.Day}
		b.day(at, e.Day)
	case rules.EvKilled:
		b.left(Departure{At: at, Seat: b.seats[e.Target], How: LeftKilled, Cause: e.Result, Rule: e.Rule})
	case rules.EvEliminated:
		d := Departure{At: at, Seat: b.seats[e.Target], How: e.Result, Rule: e.Rule}
		if d.How == LeftVote && b.now.Day > 0 {
			d.Vote = len(b.day(at, b.now.Day).Votes)
		}
		b.left(d)
	case rules.EvRemoved:
		how := LeftRemoved
		if e.Result == "fouls" {
			how = LeftFouls
		}
		b.left(Departure{At: at, Seat: b.seats[e.Target], How: how, Foul: e.Foul, Rule: e.Rule})
	case rules.EvWarned:
		if p := b.seat(b.seats[e.Target]); p != nil {
			count, _ := strconv.Atoi(e.Result)
			p.Fouls = append(p.Fouls, Foul{At: at, When: b.now, Count: count, Foul: e.Foul})
		}
	case rules.EvCorrected:
		b.p.Corrections = append(b.p.Corrections, Correction{At: at, When: b.now, Undid: rules.ActionType(e.Result), Seat: b.seats[e.Target]})
	case rules.EvManiacSide:
		b.p.ManiacSide = &Side{At: at, Side: rules.ManiacSide(e.Result)}
	case rules.EvGameOver:
		b.p.Winner, b.p.WinRule = rules.Team(e.Result), e.Rule
	default:
		if b.now.Day > 0 {
			b.dayEvent(at, b.day(at, b.now.Day), e)
		} else if b.now.Night > 0 {
			b.nightEvent(at, b.night(at, b.now.Night), e)
		}
	}
}

// nightEvent reads what only a night tells: its acts and the morning's news.
func (b *builder) nightEvent(at int, n *Night, e rules.Event) {
	switch e.Type {
	case rules.EvAct:
		if nightActs[e.Result] {
			n.Acts = append(n.Acts, Act{At: at, Seat: b.seats[e.Actor], Act: rules.ActionType(e.Result), Target: b.seats[e.Target],
				Late: e.Rule != "", Rule: e.Rule})
		}
	case rules.EvChecked:
		b.answer(at, n, e)
	case rules.EvHealed:
		b.saved(n, e)
	case rules.EvCommissar:
		n.Commissar = e.Result
	case rules.EvMissed:
		n.Missed = true
	case rules.EvSheriffMissed:
		n.SheriffMissed = true
	case rules.EvTreated:
		n.Treated = b.seats[e.Target]
	case rules.EvTestament:
		n.Testaments = append(n.Testaments, Testament{At: at, Seat: b.seats[e.Actor], Target: b.seats[e.Target], Verdict: e.Result})
	case rules.EvBestMove:
		n.BestMoves = append(n.BestMoves, b.bestMove(at, e))
	case rules.EvTappedFor:
		n.TappedFor = append(n.TappedFor, Hand{At: at, Seat: b.seats[e.Target]})
	}
}

// bestMove reads a best move, counting the black cards among the seats it
// names.
func (b *builder) bestMove(at int, e rules.Event) BestMove {
	m := BestMove{At: at, Seat: b.seats[e.Actor], Targets: []int{}}
	for _, id := range e.Targets {
		n := b.seats[id]
		m.Targets = append(m.Targets, n)
		if p := b.seat(n); p != nil && p.Role.Black() {
			m.Black++
		}
	}
	return m
}

// dayEvent reads what only a day tells: nominations, hands, votes and how the
// day ended.
func (b *builder) dayEvent(at int, d *Day, e rules.Event) {
	switch e.Type {
	case rules.EvNominated:
		d.Nominations = append(d.Nominations, Nomination{At: at, By: b.seats[e.Actor], Target: b.seats[e.Target]})
	case rules.EvHand:
		d.Hands = append(d.Hands, Hand{At: at, Seat: b.seats[e.Target]})
	case rules.EvRevealed:
		d.Revealed = &Hand{At: at, Seat: b.seats[e.Actor]}
	case rules.EvNotVoted:
		if e.Result == "lost" {
			b.notVoted = append(b.notVoted, b.seats[e.Target])
		}
	case rules.EvVoted:
		d.Votes = append(d.Votes, b.vote(at, len(d.Votes)+1, e))
		b.notVoted = nil
	case rules.EvTie:
		if n := len(d.Votes); n > 0 && e.Target != "" {
			d.Votes[n-1].Tied = append(d.Votes[n-1].Tied, b.seats[e.Target])
		}
	case rules.EvDefended:
		d.Defended = append(d.Defended, Defence{Seat: b.seats[e.Target], Rule: e.Rule})
	case rules.EvAcquitted:
		d.Stayed = &Stay{At: at, Why: e.Result, Rule: e.Rule}
	}
}

// vote reads a vote's result: a vote over candidates carries no result, a
// yes/no vote the reason it was held.
func (b *builder) vote(at, round int, e rules.Event) Vote {
	v := Vote{At: at, Round: round, Kind: VoteCandidates, Ballots: []Ballot{}, NotVoted: b.notVoted}
	switch rules.Reason(e.Result) {
	case rules.ReasonCarCrash:
		v.Kind = VoteAllLeave
	case rules.ReasonJustify:
		v.Kind = VoteJustify
	}
	for _, x := range e.Ballots {
		bl := Ballot{Voter: b.seats[x.Voter], Target: b.seats[x.Target], Half: x.Half, Missing: x.Missing}
		if v.Kind != VoteCandidates {
			yes := x.Yes
			bl.Yes = &yes
		}
		if x.Half {
			v.Kind = VoteHalf
		}
		v.Ballots = append(v.Ballots, bl)
	}
	return v
}

// answer puts a check's answer on the act it answers; a check whose act the
// story no longer tells is an act of its own.
func (b *builder) answer(at int, n *Night, e rules.Event) {
	seat, target := b.seats[e.Actor], b.seats[e.Target]
	for i := len(n.Acts) - 1; i >= 0; i-- {
		if a := &n.Acts[i]; a.Seat == seat && a.Act == rules.ActCheck && a.Target == target && a.Answer == "" {
			a.Answer = e.Result
			return
		}
	}
	n.Acts = append(n.Acts, Act{At: at, Seat: seat, Act: rules.ActCheck, Target: target, Answer: e.Result})
}

// saved reads a save. The Doctor's is told twice where the rules keep the
// patient's name from the table (a line for everyone without it, one for the
// moderator with it), and once, by name, where they do not: the lines that name
// nobody add nothing. A save the Lover or Cinderella made names its maker.
func (b *builder) saved(n *Night, e rules.Event) {
	switch {
	case e.Target == "":
	case e.Result == "refused":
		n.Refused = append(n.Refused, b.seats[e.Target])
	case e.Result == "protected":
		var by rules.Role
		if p := b.seat(b.seats[e.Actor]); p != nil {
			by = p.Role
		}
		n.Saved = append(n.Saved, Save{Seat: b.seats[e.Target], By: by, Rule: e.Rule})
	default:
		n.Saved = append(n.Saved, Save{Seat: b.seats[e.Target], By: rules.Doctor, Rule: e.Rule})
	}
}

// left records a departure with the seat, and in the night or day it happened.
func (b *builder) left(d Departure) {
	d.When = b.now
	if p := b.seat(d.Seat); p != nil {
		p.Left = &d
	}
	switch {
	case d.Day > 0:
		day := b.day(d.At, d.Day)
		day.Left = append(day.Left, d)
	case d.Night > 0:
		n := b.night(d.At, d.Night)
		n.Left = append(n.Left, d)
	}
}
