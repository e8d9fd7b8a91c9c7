package scoring_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// sportCards are a sport table's cards by seat (R-SPORT-01): the Don, two
// mafia, the Sheriff and six citizens.
var sportCards = []rules.Role{rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff,
	rules.Citizen, rules.Citizen, rules.Citizen, rules.Citizen, rules.Citizen, rules.Citizen}

// finished is the protocol of a finished sport game, built by hand: the cards
// by seat, everyone alive, and winner's win. Night 1 is the meeting
// (R-SPORT-02), so night 2 is the first night of shots.
func finished(winner rules.Team, cards ...rules.Role) protocol.Protocol {
	if len(cards) == 0 {
		cards = sportCards
	}
	o, _ := rules.Preset(rules.PresetSport)
	o.BestMove = true
	p := protocol.Protocol{SchemaVersion: protocol.SchemaVersion, Code: "HAND01", Rules: o, Over: true, Complete: true,
		Winner: winner, Nights: []protocol.Night{{At: 1, Night: 1}, {At: 10, Night: 2}}}
	for i, c := range cards {
		p.Seats = append(p.Seats, protocol.Seat{Seat: i + 1, ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("Player %d", i+1),
			Role: c, Team: c.Team(), Alive: true})
	}
	return p
}

// leave makes seat n leave the game how, in night (a positive number) or in
// day (a negative one).
func leave(p *protocol.Protocol, n int, how string, when int) {
	d := &protocol.Departure{At: 20, Seat: n, How: how}
	if when > 0 {
		d.Night = when
	} else {
		d.Day = -when
	}
	p.Seats[n-1].Alive, p.Seats[n-1].Left = false, d
}

// bestMove is seat n's best move on night 2, killed there: three seats named,
// black of them black.
func bestMove(p *protocol.Protocol, n, black int) {
	leave(p, n, protocol.LeftKilled, 2)
	p.Nights[1].BestMoves = append(p.Nights[1].BestMoves, protocol.BestMove{At: 21, Seat: n, Targets: []int{1, 2, 3}, Black: black})
}

func mustGame(t *testing.T, p protocol.Protocol, tab scoring.Table, extras ...scoring.Extra) scoring.Result {
	t.Helper()
	r, err := scoring.Game(p, tab, extras)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// noAuto is FIIM without the auto-bonus, so that a seat's total shows the
// policy under test alone.
func noAuto() scoring.Table {
	tab := scoring.FIIM()
	tab.AutoBonus.On = false
	return tab
}

// TestWin (R-SPORT-14): a win brings the table's points to every seat of the
// winning side, whatever became of it, and nothing to the losers; a table
// may give a side's or a card's win more.
func TestWin(t *testing.T) {
	custom := noAuto()
	custom.Win.Teams = map[rules.Team]scoring.Points{rules.MafiaTeam: 120}
	custom.Win.Roles = map[rules.Role]scoring.Points{rules.Sheriff: 150, rules.Don: 130}
	for _, c := range []struct {
		name   string
		table  scoring.Table
		winner rules.Team
		want   string // the totals of seats 1 to 10
	}{
		{"FIIM, the town wins", noAuto(), rules.Town, "0 0 0 1 1 1 1 1 1 1"},
		{"FIIM, the mafia win", noAuto(), rules.MafiaTeam, "1 1 1 0 0 0 0 0 0 0"},
		{"by card and side, the town wins", custom, rules.Town, "0 0 0 1.5 1 1 1 1 1 1"},
		{"by card and side, the mafia win", custom, rules.MafiaTeam, "1.3 1.2 1.2 0 0 0 0 0 0 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := finished(c.winner)
			leave(&p, 5, protocol.LeftVote, -1) // a dead winner wins too
			r := mustGame(t, p, c.table)
			var got []string
			for _, s := range r.Seats {
				if s.Won != (s.Team == c.winner) {
					t.Errorf("seat %d (%s) won: %v", s.Seat, s.Team, s.Won)
				}
				got = append(got, s.Points.Total.String())
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("got %s, want %s", g, c.want)
			}
		})
	}
}

// TestWinWithTheManiac (R-MANIAC-01, R-MANIAC-11): the Maniac wins alone as
// one of the last two, with the mafia when he plays on their side, and with
// the town when a lone Maniac is read as the town's (LoneManiac "town"). The
// host's last word on his side (protocol.Side) is the side.
func TestWinWithTheManiac(t *testing.T) {
	cards := []rules.Role{rules.Don, rules.Mafia, rules.Sheriff, rules.Doctor, rules.Maniac, rules.Citizen, rules.Citizen}
	for _, c := range []struct {
		side   rules.ManiacSide
		hosts  rules.ManiacSide // the host's last word, if any
		lone   rules.LoneManiac
		winner rules.Team
		won    bool
	}{
		{rules.ManiacAlone, "", rules.LoneLastTwo, rules.Loner, true},
		{rules.ManiacAlone, "", rules.LoneLastTwo, rules.Town, false},
		{rules.ManiacAlone, "", rules.LoneLastTwo, rules.MafiaTeam, false},
		{rules.ManiacAlone, "", rules.LoneTown, rules.Town, true},
		{rules.ManiacMafia, "", rules.LoneTown, rules.Town, false},
		{rules.ManiacMafia, "", rules.LoneLastTwo, rules.MafiaTeam, true},
		{rules.ManiacAlone, rules.ManiacMafia, rules.LoneLastTwo, rules.MafiaTeam, true},
		{rules.ManiacMafia, rules.ManiacAlone, rules.LoneLastTwo, rules.MafiaTeam, false},
	} {
		t.Run(fmt.Sprintf("%s %s %s %s", c.side, c.hosts, c.lone, c.winner), func(t *testing.T) {
			p := finished(c.winner, cards...)
			p.Rules.Maniac, p.Rules.ManiacSide, p.Rules.LoneManiac = true, c.side, c.lone
			if c.hosts != "" {
				p.ManiacSide = &protocol.Side{At: 2, Side: c.hosts}
			}
			r := mustGame(t, p, noAuto())
			m := r.Seats[4]
			if m.Won != c.won || (m.Points.Win == scoring.Point) != c.won {
				t.Errorf("the Maniac: won %v with %s, want %v", m.Won, m.Points.Win, c.won)
			}
			if d := r.Seats[0]; d.Won != (c.winner == rules.MafiaTeam) {
				t.Errorf("the Don: won %v", d.Won)
			}
		})
	}
}

// TestBestMove (rules.Options.BestMove): FIIM scores a red player's best move
// by the black players named: 0.5 for two, 0.7 for three, nothing for fewer.
// A black player's best move (a mafia the Maniac shot) is kept but brings
// nothing, and a table with the best move off scores none.
func TestBestMove(t *testing.T) {
	off := noAuto()
	off.BestMove.On = false
	for _, c := range []struct {
		name  string
		table scoring.Table
		seat  int
		black int
		want  scoring.Points
	}{
		{"none black", noAuto(), 7, 0, 0},
		{"one black", noAuto(), 7, 1, 0},
		{"two black", noAuto(), 7, 2, 50},
		{"three black", noAuto(), 7, 3, 70},
		{"the Sheriff's, three black", noAuto(), 4, 3, 70},
		{"a mafia's", noAuto(), 2, 3, 0},
		{"the best move off", off, 7, 3, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := finished(rules.Town)
			bestMove(&p, c.seat, c.black)
			s := mustGame(t, p, c.table).Seats[c.seat-1]
			if s.Points.BestMove != c.want || s.BestMove == nil || s.BestMove.Black != c.black || !s.FirstKilled {
				t.Errorf("got %s (%+v, first killed %v), want %s", s.Points.BestMove, s.BestMove, s.FirstKilled, c.want)
			}
		})
	}
}

// TestPenalty (R-SPORT-16): FIIM takes 0.5 for a removal by the host and for
// the warning that removes; leaving by the vote, a shot, a testament
// (R-CLASSIC-07) or a reveal (R-PARTY-04) costs nothing.
func TestPenalty(t *testing.T) {
	off := noAuto()
	off.Penalty.On = false
	harsh := noAuto()
	harsh.Penalty.Removed = -100
	for _, c := range []struct {
		how   string
		table scoring.Table
		want  scoring.Points
	}{
		{protocol.LeftRemoved, noAuto(), -50},
		{protocol.LeftFouls, noAuto(), -50},
		{protocol.LeftRemoved, harsh, -100},
		{protocol.LeftFouls, harsh, -50},
		{protocol.LeftRemoved, off, 0},
		{protocol.LeftVote, noAuto(), 0},
		{protocol.LeftKilled, noAuto(), 0},
		{protocol.LeftTestament, noAuto(), 0},
		{protocol.LeftReveal, noAuto(), 0},
	} {
		t.Run(fmt.Sprintf("%s %s", c.how, c.table.Penalty.Removed), func(t *testing.T) {
			p := finished(rules.MafiaTeam)
			leave(&p, 6, c.how, -2)
			s := mustGame(t, p, c.table).Seats[5]
			if s.Points.Penalty != c.want || s.Points.Total != c.want || s.Left != c.how {
				t.Errorf("got %s (total %s, left %q), want %s", s.Points.Penalty, s.Points.Total, s.Left, c.want)
			}
		})
	}
}

// TestExtra: the referee's extra points within FIIM's bound of ±0.7, each
// with a reason, and the worst move that takes the auto-bonus away; the rest
// is refused. WithExtras of the game scored without extras gives the same
// result or the same refusal: an evening adds them so.
func TestExtra(t *testing.T) {
	none := scoring.FIIM()
	none.Extra = scoring.ExtraPolicy{}
	noBonus := scoring.FIIM()
	noBonus.AutoBonus.On = false
	long := strings.Repeat("ж", scoring.MaxReason)
	for _, c := range []struct {
		name   string
		table  scoring.Table
		extras []scoring.Extra
		want   string // seat 3's extra and auto-bonus, or the refusal
	}{
		{"none", scoring.FIIM(), nil, "0 0.3"},
		{"the most", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 70, Reason: "led the mafia"}}, "0.7 0.3"},
		{"the least", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: -70, Reason: "gave the team away"}}, "-0.7 0.3"},
		{"a worst move", scoring.FIIM(), []scoring.Extra{{Seat: 3, WorstMove: true, Reason: "shot his Don"}}, "0 0"},
		{"both", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: -20, WorstMove: true, Reason: "shot his Don"}}, "-0.2 0"},
		{"the longest reason", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: " " + long + "\n"}}, "0.1 0.3"},
		{"another seat's", scoring.FIIM(), []scoring.Extra{{Seat: 4, Points: 10, Reason: "x"}}, "0 0.3"},
		{"above the bound", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 71, Reason: "x"}}, "invalid_extra"},
		{"below the bound", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: -100, Reason: "x"}}, "invalid_extra"},
		{"no reason", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: " \n"}}, "invalid_extra"},
		{"too long a reason", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: long + "!"}}, "invalid_extra"},
		{"a control character", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: "a\x07b"}}, "invalid_extra"},
		{"a direction mark", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: "a\u202eb"}}, "invalid_extra"},
		{"new lines", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: "a\nb"}}, "0.1 0.3"},
		{"no such seat", scoring.FIIM(), []scoring.Extra{{Seat: 11, Points: 10, Reason: "x"}}, "invalid_extra"},
		{"seat 0", scoring.FIIM(), []scoring.Extra{{Seat: 0, Points: 10, Reason: "x"}}, "invalid_extra"},
		{"twice a seat", scoring.FIIM(), []scoring.Extra{{Seat: 3, Points: 10, Reason: "x"}, {Seat: 3, Points: 10, Reason: "y"}}, "invalid_extra"},
		{"a table without extras", none, []scoring.Extra{{Seat: 3, Points: 10, Reason: "x"}}, "invalid_extra"},
		{"a worst move without an auto-bonus", noBonus, []scoring.Extra{{Seat: 3, WorstMove: true, Reason: "x"}}, "invalid_extra"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := scoring.Game(finished(rules.Town), c.table, c.extras)
			later, lerr := scoring.WithExtras(c.table, mustGame(t, finished(rules.Town), c.table), c.extras)
			if e, _ := scoring.AsError(err); (err == nil) != (lerr == nil) || err == nil && !reflect.DeepEqual(later, r) ||
				err != nil && !errors.Is(lerr, e) {
				t.Errorf("WithExtras after the game: %+v, %v; Game with them: %+v, %v", later, lerr, r, err)
			}
			got := ""
			if e, ok := scoring.AsError(err); ok {
				got = e.Code
			} else if err != nil {
				t.Fatal(err)
			} else {
				s := r.Seats[2]
				got = fmt.Sprintf("%s %s", s.Points.Extra, s.Points.AutoBonus)
				if s.Points.Total != s.Points.Extra+s.Points.AutoBonus {
					t.Errorf("total %s", s.Points.Total)
				}
				if s.Reason != "" && s.Reason != strings.TrimSpace(s.Reason) {
					t.Errorf("the reason %q is not trimmed", s.Reason)
				}
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestCompensationWithoutShare: a table whose compensation does not depend
// on the evening (Share 0) gives its points in the game itself, to a player
// of its sides killed on the first night whose shots count, in a lost game
// when LostOnly says so. A player voted out, or killed on a later night, is
// not the first killed; nor is one killed on a meeting night, which has no
// shots (R-SPORT-02).
func TestCompensationWithoutShare(t *testing.T) {
	fixed := noAuto()
	fixed.BestMove.On = false
	fixed.Compensation = scoring.CompensationPolicy{On: true, Points: 40, Teams: []rules.Team{rules.Town}, LostOnly: true}
	anyGame := fixed
	anyGame.Compensation.LostOnly = false
	for _, c := range []struct {
		name   string
		table  scoring.Table
		winner rules.Team
		seat   int
		how    string
		when   int
		want   scoring.Points
	}{
		{"killed first, lost", fixed, rules.MafiaTeam, 7, protocol.LeftKilled, 2, 40},
		{"killed first, won", fixed, rules.Town, 7, protocol.LeftKilled, 2, 0},
		{"killed first, won, any game", anyGame, rules.Town, 7, protocol.LeftKilled, 2, 40},
		{"the Sheriff killed first", fixed, rules.MafiaTeam, 4, protocol.LeftKilled, 2, 40},
		{"a mafia killed first", anyGame, rules.Town, 2, protocol.LeftKilled, 2, 0},
		{"killed on night 3", fixed, rules.MafiaTeam, 7, protocol.LeftKilled, 3, 0},
		{"killed on the meeting night", fixed, rules.MafiaTeam, 7, protocol.LeftKilled, 1, 0},
		{"voted out on day 1", fixed, rules.MafiaTeam, 7, protocol.LeftVote, -1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := finished(c.winner)
			leave(&p, c.seat, c.how, c.when)
			s := mustGame(t, p, c.table).Seats[c.seat-1]
			if s.Points.Compensation != c.want || s.Points.Total != s.Points.Win+c.want {
				t.Errorf("got %s (total %s), want %s", s.Points.Compensation, s.Points.Total, c.want)
			}
		})
	}

	// Without a meeting night, night 1 has the first shots (R-CLASSIC-02 off).
	p := finished(rules.MafiaTeam)
	p.Rules.FirstNightMeeting = false
	leave(&p, 7, protocol.LeftKilled, 1)
	if s := mustGame(t, p, fixed).Seats[6]; !s.FirstKilled || s.Points.Compensation != 40 {
		t.Errorf("killed on night 1 with no meeting: first killed %v, %s", s.FirstKilled, s.Points.Compensation)
	}
	// FIIM's compensation has a Share: the game leaves it to the evening.
	if s := mustGame(t, p, noAuto()).Seats[6]; !s.FirstKilled || s.Points.Compensation != 0 {
		t.Errorf("FIIM in the game: first killed %v, %s", s.FirstKilled, s.Points.Compensation)
	}
}

// TestGameRefuses: a game not over, a protocol with no winner or a seat with
// no card, one that lost the night of the best move, and an invalid table.
func TestGameRefuses(t *testing.T) {
	badTable := scoring.FIIM()
	badTable.Penalty.Removed = 50
	for _, c := range []struct {
		name  string
		p     func(*protocol.Protocol)
		table scoring.Table
		want  *scoring.Error
	}{
		{"a game under way", func(p *protocol.Protocol) { p.Over = false }, scoring.FIIM(), scoring.ErrNotOver},
		{"no winner", func(p *protocol.Protocol) { p.Winner = "" }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"a seat with no card", func(p *protocol.Protocol) { p.Seats[3].Role, p.Seats[3].Team = "", "" }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"a card on the wrong side", func(p *protocol.Protocol) { p.Seats[3].Team = rules.MafiaTeam }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"seats out of order", func(p *protocol.Protocol) { p.Seats[0], p.Seats[1] = p.Seats[1], p.Seats[0] }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"the best move's night lost", func(p *protocol.Protocol) { p.Complete, p.WholeFrom = false, 3 }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"a best move with four black", func(p *protocol.Protocol) { bestMove(p, 7, 4) }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"two best moves by a seat", func(p *protocol.Protocol) { bestMove(p, 7, 1); bestMove(p, 7, 2) }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"a best move by no seat", func(p *protocol.Protocol) { bestMove(p, 7, 1); p.Nights[1].BestMoves[0].Seat = 12 }, scoring.FIIM(), scoring.ErrInvalidProtocol},
		{"an invalid table", func(*protocol.Protocol) {}, badTable, scoring.ErrInvalidTable},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := finished(rules.Town)
			c.p(&p)
			if _, err := scoring.Game(p, c.table, nil); !errors.Is(err, c.want) {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}

	// Without the best move in the rules or in the table, a lost night is no matter.
	p := finished(rules.Town)
	p.Complete, p.WholeFrom = false, 3
	p.Rules.BestMove = false
	if _, err := scoring.Game(p, scoring.FIIM(), nil); err != nil {
		t.Errorf("a long game without the best move: %v", err)
	}
}
