package protocol_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

// table is a scripted game with a human moderator: players named after their
// seats (p1 sits in seat 1), the cards dealt as the test says.
type table struct {
	t *testing.T
	s rules.State
}

func newTable(t *testing.T, preset string, tweak func(*rules.Options), roles ...rules.Role) *table {
	t.Helper()
	o, err := rules.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	o.DrawSeats = false
	if tweak != nil {
		tweak(&o)
	}
	s, err := rules.New("PROTO1", o, rules.ModeratorHost, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range max(o.MinPlayers, len(roles)) {
		if s, _, err = rules.Join(s, fmt.Sprintf("Player %d", i+1), t0); err != nil {
			t.Fatal(err)
		}
	}
	tb := &table{t: t, s: s}
	tb.host(rules.Action{Type: rules.ActStart})
	for i := range tb.s.Players {
		tb.s.Players[i].Role = rules.Citizen
		if i < len(roles) {
			tb.s.Players[i].Role = roles[i]
		}
	}
	tb.next() // the hand-over into the first night
	return tb
}

func seat(n int) string { return fmt.Sprintf("p%d", n) }

func (tb *table) apply(actor rules.Actor, a rules.Action) {
	tb.t.Helper()
	n, err := rules.Apply(tb.s, actor, a, t0)
	if err != nil {
		tb.t.Fatalf("%+v %s %s in %s: %v", actor, a.Type, a.Target, tb.s.Phase.Name, err)
	}
	tb.s = n
}

func (tb *table) host(a rules.Action) { tb.t.Helper(); tb.apply(host, a) }

// do is seat n's action on seat target (0: none).
func (tb *table) do(n int, typ rules.ActionType, target int) {
	tb.t.Helper()
	a := rules.Action{Type: typ}
	if target > 0 {
		a.Target = seat(target)
	}
	tb.apply(rules.Actor{Player: seat(n)}, a)
}

// next is the moderator's "next": the step ends, then its hand-over.
func (tb *table) next() {
	tb.t.Helper()
	if !tb.s.Phase.Closing {
		tb.host(rules.Action{Type: rules.ActAdvance})
	}
	tb.host(rules.Action{Type: rules.ActAdvance, Now: true})
}

// until moves on until the game is in phase.
func (tb *table) until(phase rules.PhaseName) {
	tb.t.Helper()
	for i := 0; tb.s.Phase.Name != phase || tb.s.Phase.Closing; i++ {
		if i > 100 {
			tb.t.Fatalf("no %s: %s", phase, tb.s.Phase.Name)
		}
		tb.next()
	}
}

// speaks waits for seat n's speech in the day's round.
func (tb *table) speaks(n int) {
	tb.t.Helper()
	for i := 0; len(tb.s.Phase.Queue) == 0 || tb.s.Phase.Queue[0] != seat(n) || tb.s.Phase.Closing; i++ {
		if i > 30 {
			tb.t.Fatalf("seat %d does not speak: %s %v", n, tb.s.Phase.Name, tb.s.Phase.Queue)
		}
		tb.next()
	}
}

// votes casts the day's ballots: voter seat → the seat voted for.
func (tb *table) votes(ballots map[int]int) {
	tb.t.Helper()
	tb.until(rules.PhaseVote)
	for _, v := range slices.Sorted(mapKeys(ballots)) {
		tb.do(v, rules.ActVote, ballots[v])
	}
	tb.next()
}

func mapKeys(m map[int]int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func want[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
}

func yes(b bool) *bool { return &b }

// TestSportProtocol: a club game (R-SPORT) as its protocol tells it. Day 1: two
// nominations, a foul named, a vote with a missing ballot counted for the last
// nominee (R-SPORT-05), a tie, the defences and a second tie, and the all-leave
// vote that sends both away (R-SPORT-07). Night 2: three shots on one seat
// (R-SPORT-10), the Don's check (R-SPORT-11) and the Sheriff's (R-SPORT-12),
// each with its answer. Day 2: a removal for peeking (R-SPORT-16) brings the
// black and the red to three each: the mafia win (R-SPORT-14).
func TestSportProtocol(t *testing.T) {
	tb := newTable(t, rules.PresetSport, nil, rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff)
	tb.until(rules.PhaseDay)
	tb.do(1, rules.ActNominate, 5)
	tb.speaks(2)
	tb.do(2, rules.ActNominate, 6)
	tb.host(rules.Action{Type: rules.ActWarn, Target: seat(3), Foul: rules.FoulWords})
	tb.votes(map[int]int{1: 6, 2: 6, 3: 6, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5, 9: 6}) // 10 does not vote
	tb.until(rules.PhaseVote)
	tb.votes(map[int]int{1: 6, 2: 6, 3: 6, 4: 6, 5: 5, 6: 5, 7: 5, 8: 5, 9: 5, 10: 6})
	tb.until(rules.PhaseVoteAll)
	for v := 1; v <= 10; v++ {
		tb.apply(rules.Actor{Player: seat(v)}, rules.Action{Type: rules.ActVoteAll, Yes: yes(v <= 6)})
	}
	tb.until(rules.PhaseNight)
	for _, v := range []int{1, 2, 3} {
		tb.do(v, rules.ActKill, 7)
	}
	tb.do(4, rules.ActCheck, 1)
	tb.next()
	tb.do(1, rules.ActCheck, 4)
	tb.until(rules.PhaseDay)
	tb.host(rules.Action{Type: rules.ActRemove, Target: seat(8), Foul: rules.FoulPeeking})

	p := protocol.Of(tb.s)
	want(t, "over, complete", [2]bool{p.Over, p.Complete}, [2]bool{true, true})
	want(t, "winner", [2]string{string(p.Winner), string(p.WinRule)}, [2]string{"mafia", "R-SPORT-14"})
	want(t, "seat 3's fouls", p.Seats[2].Fouls, []protocol.Foul{{At: p.Seats[2].Fouls[0].At, When: protocol.When{Day: 1}, Count: 1, Foul: rules.FoulWords}})
	left := func(n int) protocol.Departure {
		d := *p.Seats[n-1].Left
		d.At = 0
		return d
	}
	want(t, "seat 5 left", left(5), protocol.Departure{Seat: 5, When: protocol.When{Day: 1}, How: protocol.LeftVote, Vote: 3, Rule: "R-SPORT-07"})
	want(t, "seat 6 left", left(6), protocol.Departure{Seat: 6, When: protocol.When{Day: 1}, How: protocol.LeftVote, Vote: 3, Rule: "R-SPORT-07"})
	want(t, "seat 7 left", left(7), protocol.Departure{Seat: 7, When: protocol.When{Night: 2}, How: protocol.LeftKilled, Cause: rules.CauseMafia, Rule: "R-SPORT-10"})
	want(t, "seat 8 left", left(8), protocol.Departure{Seat: 8, When: protocol.When{Day: 2}, How: protocol.LeftRemoved, Foul: rules.FoulPeeking, Rule: "R-SPORT-16"})
	if p.Seats[0].Left != nil || !p.Seats[0].Alive || p.Seats[0].Role != rules.Don || p.Seats[0].Team != rules.MafiaTeam {
		t.Errorf("seat 1: %+v", p.Seats[0])
	}

	want(t, "nights", len(p.Nights), 2)
	want(t, "days", len(p.Days), 2)
	day := p.Days[0]
	var noms [][2]int
	for _, n := range day.Nominations {
		noms = append(noms, [2]int{n.By, n.Target})
	}
	want(t, "day 1's nominations", noms, [][2]int{{1, 5}, {2, 6}})
	want(t, "day 1's rounds", len(day.Votes), 3)
	first := day.Votes[0]
	want(t, "the first vote", [2]any{first.Kind, first.Tied}, [2]any{protocol.VoteCandidates, []int{5, 6}})
	want(t, "R-SPORT-05: seat 10's ballot", first.Ballots[len(first.Ballots)-1], protocol.Ballot{Voter: 10, Target: 6, Missing: true})
	want(t, "seat 4's ballot", first.Ballots[3], protocol.Ballot{Voter: 4, Target: 5})
	want(t, "the revote", [2]any{day.Votes[1].Round, day.Votes[1].Tied}, [2]any{2, []int{5, 6}})
	all := day.Votes[2]
	want(t, "R-SPORT-07: the all-leave vote", [3]any{all.Kind, all.Ballots[0], all.Ballots[9]},
		[3]any{protocol.VoteAllLeave, protocol.Ballot{Voter: 1, Yes: yes(true)}, protocol.Ballot{Voter: 10, Yes: yes(false)}})
	want(t, "day 1's leavers", []int{day.Left[0].Seat, day.Left[1].Seat}, []int{5, 6})

	night := p.Nights[1]
	var acts []string
	for _, a := range night.Acts {
		acts = append(acts, fmt.Sprintf("%d %s %d %s", a.Seat, a.Act, a.Target, a.Answer))
	}
	want(t, "night 2's acts", acts, []string{"1 kill 7 ", "2 kill 7 ", "3 kill 7 ", "4 check 1 black", "1 check 4 sheriff"})
	want(t, "night 2's dead", len(night.Left), 1)
	if n1 := p.Nights[0]; len(n1.Acts) != 0 || len(n1.Left) != 0 || n1.Missed {
		t.Errorf("R-SPORT-02: the meeting night %+v", n1)
	}
	if s := p.Days[1]; len(s.Left) != 1 || s.Left[0].How != protocol.LeftRemoved {
		t.Errorf("day 2: %+v", s)
	}
}

// TestBestMoveProtocol: with the best move on, the player the mafia kill on
// night 2, the first night of shots after the meeting (R-SPORT-02), names
// three seats in the last word; the protocol keeps them in the night, with how
// many were black (the Don's and a mafia's seats, and the Sheriff's), live for
// the moderator and however briefly the stored story is told.
func TestBestMoveProtocol(t *testing.T) {
	tb := newTable(t, rules.PresetSport, func(o *rules.Options) { o.BestMove = true }, rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff)
	tb.until(rules.PhaseDay)
	tb.until(rules.PhaseNight)
	for _, v := range []int{1, 2, 3} {
		tb.do(v, rules.ActKill, 7)
	}
	tb.until(rules.PhaseLastWord)
	tb.apply(rules.Actor{Player: seat(7)}, rules.Action{Type: rules.ActBestMove, Targets: []string{seat(1), seat(4), seat(2)}})
	tb.until(rules.PhaseDay)

	p := protocol.Of(tb.s)
	moves := p.Nights[1].BestMoves
	if len(moves) != 1 {
		t.Fatalf("night 2's best moves: %+v", moves)
	}
	want(t, "seat 7's best move", moves[0], protocol.BestMove{At: moves[0].At, Seat: 7, Targets: []int{1, 4, 2}, Black: 2})
	if d := p.Seats[6].Left; d == nil || moves[0].At <= d.At || moves[0].At >= p.Days[1].At {
		t.Errorf("the best move at %d, not between seat 7's death (%+v) and day 2 (at %d)", moves[0].At, d, p.Days[1].At)
	}
	if p.Nights[0].BestMoves != nil || p.Over {
		t.Errorf("the meeting night %+v; over %v", p.Nights[0], p.Over)
	}
	for level := 1; level <= 8; level++ {
		want(t, fmt.Sprintf("told at level %d", level), protocol.Of(rules.Condense(tb.s, level)).Nights[1].BestMoves, moves)
	}
}

// TestSavesProtocol: a custom table with every saver. Night 2: the mafia shoot
// Cinderella's guest (R-PARTY-05), the Maniac the Lover's (R-CLASSIC-11), the
// Commissar who shoots hits a citizen (R-CLASSIC-11) and the Doctor's patient
// was healthy anyway. Night 3: the Doctor saves the mafia's victim. Then an
// even split between two is broken by the half vote of the night's victim
// (R-CLASSIC-10).
func TestSavesProtocol(t *testing.T) {
	tb := newTable(t, rules.PresetCustom, func(o *rules.Options) {
		o.MinPlayers, o.MaxPlayers = 11, 11
		o.Don, o.DonChecks = false, false
		o.Doctor, o.Lover, o.Cinderella, o.Maniac = true, true, true, true
		o.Commissar, o.DoctorNamesPatient, o.HalfVote = rules.CommissarShoot, true, true
		o.Voting, o.NonVoters, o.Ties = rules.VotingAnyone, rules.NonVotersAbstain, rules.TiesNone
		o.WarningsToMute, o.WarningsToRemove = 0, 0
	}, rules.Mafia, rules.Mafia, rules.Sheriff, rules.Doctor, rules.Lover, rules.Cinderella, rules.Maniac)
	tb.until(rules.PhaseDay)
	tb.votes(map[int]int{})
	tb.until(rules.PhaseNight)
	tb.do(1, rules.ActKill, 8)
	tb.do(2, rules.ActKill, 8)
	tb.do(6, rules.ActProtect, 8)
	tb.do(7, rules.ActKill, 9)
	tb.do(5, rules.ActProtect, 9)
	tb.do(3, rules.ActShoot, 10)
	tb.do(4, rules.ActHeal, 11)
	tb.until(rules.PhaseDay)
	tb.votes(map[int]int{})
	tb.until(rules.PhaseNight)
	tb.do(1, rules.ActKill, 10)
	tb.do(2, rules.ActKill, 10)
	tb.do(4, rules.ActHeal, 10)
	tb.do(7, rules.ActKill, 11)
	tb.until(rules.PhaseDay)
	tb.votes(map[int]int{1: 8, 2: 8, 3: 9, 4: 9})
	tb.until(rules.PhaseVote)
	tb.do(11, rules.ActVote, 8)
	tb.until(rules.PhaseNight)

	p := protocol.Of(tb.s)
	n2 := p.Nights[1]
	want(t, "night 2's saves", n2.Saved, []protocol.Save{{Seat: 8, By: rules.Cinderella, Rule: "R-PARTY-05"}, {Seat: 9, By: rules.Lover, Rule: "R-CLASSIC-11"}})
	want(t, "night 2: the Commissar missed, the patient was healthy, nobody died", [3]any{n2.SheriffMissed, n2.Treated, n2.Missed}, [3]any{true, 11, true})
	n3 := p.Nights[2]
	want(t, "night 3's saves", n3.Saved, []protocol.Save{{Seat: 10, By: rules.Doctor, Rule: "R-CLASSIC-11"}})
	want(t, "night 3's dead", []any{n3.Left[0].Seat, n3.Left[0].Cause, n3.Left[0].Rule}, []any{11, rules.CauseManiac, rules.RuleID("R-MANIAC-06")})
	day := p.Days[2]
	want(t, "the half vote", [3]any{day.Votes[0].Tied, day.Votes[1].Kind, day.Votes[1].Ballots}, [3]any{[]int{8, 9}, protocol.VoteHalf, []protocol.Ballot{{Voter: 11, Target: 8, Half: true}}})
	d := *p.Seats[7].Left
	want(t, "R-CLASSIC-10: seat 8 left", [3]any{d.How, d.Vote, d.Rule}, [3]any{protocol.LeftVote, 2, rules.RuleID("R-CLASSIC-10")})
	if p.Over || p.Winner != "" {
		t.Errorf("a game under way: over %v, winner %q", p.Over, p.Winner)
	}
}

// TestProtocolOfALongGame: a game whose stored story was told more briefly
// (rules.Condense) has the same protocol as before, until even the past had to
// be cut: then it says from which night it is whole.
func TestProtocolOfALongGame(t *testing.T) {
	tb := newTable(t, rules.PresetSport, nil, rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff)
	tb.until(rules.PhaseDay)
	tb.do(1, rules.ActNominate, 5)
	tb.speaks(2)
	tb.do(2, rules.ActNominate, 6)
	tb.votes(map[int]int{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 5, 7: 5, 8: 5, 9: 5, 10: 5})
	tb.until(rules.PhaseNight)
	for _, v := range []int{1, 2, 3} {
		tb.do(v, rules.ActKill, 7)
	}
	tb.until(rules.PhaseDay)
	tb.until(rules.PhaseNight)
	whole := protocol.Of(tb.s)
	for level := 1; level <= rules.CondenseLevels; level++ {
		p := protocol.Of(rules.Condense(tb.s, level))
		js, _ := json.Marshal(p)
		wantJS, _ := json.Marshal(whole)
		switch {
		case level <= 8 && string(js) != string(wantJS):
			t.Errorf("level %d: the protocol changed:\n%s\nwant\n%s", level, js, wantJS)
		case level > 8 && (p.Complete || p.WholeFrom == 0):
			t.Errorf("level %d: complete %v, whole from night %d", level, p.Complete, p.WholeFrom)
		}
	}
}

// TestCorrectionsInTheProtocol: a warning to the wrong seat and a removal of
// the wrong seat, both taken back (rules.ActCorrect), leave no foul and no
// departure in the protocol, which lists them as corrections, in order, in
// day 1, each with the seat it was about.
func TestCorrectionsInTheProtocol(t *testing.T) {
	tb := newTable(t, rules.PresetSport, nil, rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff)
	tb.until(rules.PhaseDay)
	tb.host(rules.Action{Type: rules.ActWarn, Target: seat(3), Foul: rules.FoulWords})
	tb.host(rules.Action{Type: rules.ActCorrect})
	tb.host(rules.Action{Type: rules.ActRemove, Target: seat(8), Foul: rules.FoulPeeking})
	tb.host(rules.Action{Type: rules.ActCorrect})

	p := protocol.Of(tb.s)
	if len(p.Seats[2].Fouls) != 0 || p.Seats[7].Left != nil || !p.Seats[7].Alive {
		t.Errorf("after the corrections: seat 3 %+v, seat 8 %+v", p.Seats[2], p.Seats[7])
	}
	var got []protocol.Correction
	for _, c := range p.Corrections {
		c.At = 0
		got = append(got, c)
	}
	want(t, "corrections", got, []protocol.Correction{
		{When: protocol.When{Day: 1}, Undid: rules.ActWarn, Seat: 3},
		{When: protocol.When{Day: 1}, Undid: rules.ActRemove, Seat: 8},
	})
}

// TestTapsForSeatsInTheProtocol (issue 28): in night 2 the phones of seats 2
// and 5 die, and the moderator taps for them: seat 2's shot and seat 5's
// sleep. The protocol tells the shot among the night's acts as seat 2's own,
// and both seats in the night's tappedFor, in order, each before the act it
// made, live and however briefly the stored story is told.
func TestTapsForSeatsInTheProtocol(t *testing.T) {
	tb := newTable(t, rules.PresetSport, nil, rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff)
	tb.until(rules.PhaseDay)
	tb.until(rules.PhaseNight)
	tapFor := func(n int, tap rules.Tap) {
		tb.t.Helper()
		tb.host(rules.Action{Type: rules.ActTapFor, Target: seat(n), Tap: &tap})
	}
	tb.do(1, rules.ActKill, 7)
	tapFor(2, rules.Tap{Type: rules.ActKill, Target: seat(7)})
	tb.do(3, rules.ActKill, 7)
	tapFor(5, rules.Tap{Type: rules.ActSleep})
	tb.until(rules.PhaseDay)

	p := protocol.Of(tb.s)
	night := p.Nights[1]
	var acts []string
	for _, a := range night.Acts {
		acts = append(acts, fmt.Sprintf("%d %s %d", a.Seat, a.Act, a.Target))
	}
	want(t, "night 2's acts", acts, []string{"1 kill 7", "2 kill 7", "3 kill 7"})
	var tapped []int
	for _, h := range night.TappedFor {
		tapped = append(tapped, h.Seat)
	}
	want(t, "night 2's taps by the moderator", tapped, []int{2, 5})
	if len(night.TappedFor) == 2 && !(night.Acts[0].At < night.TappedFor[0].At && night.TappedFor[0].At < night.Acts[1].At) {
		t.Errorf("the tap for seat 2 at %d, not between the acts at %d and %d", night.TappedFor[0].At, night.Acts[0].At, night.Acts[1].At)
	}
	want(t, "seat 7 left", p.Seats[6].Left.Cause, rules.CauseMafia)
	if p.Nights[0].TappedFor != nil {
		t.Errorf("the meeting night %+v", p.Nights[0])
	}
	for level := 1; level <= 8; level++ {
		want(t, fmt.Sprintf("told at level %d", level), protocol.Of(rules.Condense(tb.s, level)).Nights[1].TappedFor, night.TappedFor)
	}
}
