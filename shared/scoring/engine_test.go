package scoring_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

var t0 = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

var host = rules.Actor{Host: true}

// table is a game played through the rules engine with a human moderator:
// players named after their seats (p1 sits in seat 1), the cards dealt as the
// test says and citizens in the other seats.
type table struct {
	t *testing.T
	s rules.State
}

func newTable(t *testing.T, preset string, tweak func(*rules.Options), cards ...rules.Role) *table {
	t.Helper()
	o, err := rules.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	o.DrawSeats = false
	if tweak != nil {
		tweak(&o)
	}
	s, err := rules.New("SCORE1", o, rules.ModeratorHost, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range max(o.MinPlayers, len(cards)) {
		if s, _, err = rules.Join(s, fmt.Sprintf("Player %d", i+1), t0); err != nil {
			t.Fatal(err)
		}
	}
	tb := &table{t: t, s: s}
	tb.host(rules.Action{Type: rules.ActStart})
	for i := range tb.s.Players {
		tb.s.Players[i].Role = rules.Citizen
		if i < len(cards) {
			tb.s.Players[i].Role = cards[i]
		}
	}
	tb.next()
	return tb
}

// sport is a sport table (R-SPORT-01): the Don in seat 1, the mafia in 2 and
// 3, the Sheriff in 4, citizens in 5 to 10.
func sport(t *testing.T, tweak func(*rules.Options)) *table {
	t.Helper()
	return newTable(t, rules.PresetSport, tweak, rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff)
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

// do is seat n's action on seat target.
func (tb *table) do(n int, typ rules.ActionType, target int) {
	tb.t.Helper()
	tb.apply(rules.Actor{Player: seat(n)}, rules.Action{Type: typ, Target: seat(target)})
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

// remove is the host's removal of each seat (R-SPORT-16).
func (tb *table) remove(seats ...int) {
	tb.t.Helper()
	for _, n := range seats {
		if tb.s.Phase.Closing { // the speaker was removed: the next one's hand-over
			tb.host(rules.Action{Type: rules.ActAdvance, Now: true})
		}
		tb.host(rules.Action{Type: rules.ActRemove, Target: seat(n), Foul: rules.FoulPeeking})
	}
}

// score is the finished game's protocol scored by FIIM.
func (tb *table) score(extras ...scoring.Extra) (protocol.Protocol, scoring.Result) {
	tb.t.Helper()
	p := protocol.Of(tb.s)
	r, err := scoring.Game(p, scoring.FIIM(), extras)
	if err != nil {
		tb.t.Fatal(err)
	}
	return p, r
}

// parts are a seat's points as "win bestMove extra autoBonus penalty
// compensation = total", for short comparisons.
func parts(s scoring.SeatResult) string {
	p := s.Points
	return fmt.Sprintf("%s %s %s %s %s %s = %s", p.Win, p.BestMove, p.Extra, p.AutoBonus, p.Penalty, p.Compensation, p.Total)
}

// TestRemovalTakenBackIsNoPenalty (R-SPORT-16, R-SPORT-14): the host removes
// seat 10 and takes it back ("correct"); then removes four citizens, and the
// black and the red are three each: the mafia win. The protocol is the game
// after the correction, so seat 10 is no removal and pays no penalty, and the
// four removed pay FIIM's −0.5 each.
func TestRemovalTakenBackIsNoPenalty(t *testing.T) {
	tb := sport(t, nil)
	tb.until(rules.PhaseDay)
	tb.remove(10)
	tb.host(rules.Action{Type: rules.ActCorrect})
	tb.remove(5, 6, 7, 9)
	p, r := tb.score()
	if p.Winner != rules.MafiaTeam || p.WinRule != "R-SPORT-14" || len(p.Corrections) != 1 || p.Corrections[0].Seat != 10 {
		t.Fatalf("the game: winner %s by %s, corrections %+v", p.Winner, p.WinRule, p.Corrections)
	}
	want := map[int]string{
		1:  "1 0 0 0.3 0 0 = 1.3",     // the Don won
		2:  "1 0 0 0.3 0 0 = 1.3",     // a mafia won
		4:  "0 0 0 0.3 0 0 = 0.3",     // the Sheriff lost
		5:  "0 0 0 0.3 -0.5 0 = -0.2", // removed
		10: "0 0 0 0.3 0 0 = 0.3",     // removed, and taken back
	}
	for n, w := range want {
		if got := parts(r.Seats[n-1]); got != w {
			t.Errorf("seat %d: got %s, want %s", n, got, w)
		}
	}
	if r.Seats[9].Left != "" || r.Seats[4].Left != protocol.LeftRemoved {
		t.Errorf("seat 10 left %q, seat 5 %q", r.Seats[9].Left, r.Seats[4].Left)
	}
}

// TestFourWarningsRemove (R-SPORT-16): the fourth warning removes seat 5, a
// departure by warnings, which FIIM penalises as a removal; the town then
// removes the black players by the host's hand, and wins (R-SPORT-14).
func TestFourWarningsRemove(t *testing.T) {
	tb := sport(t, nil)
	tb.until(rules.PhaseDay)
	for range 4 {
		tb.host(rules.Action{Type: rules.ActWarn, Target: seat(5), Foul: rules.FoulSpeech})
	}
	tb.remove(1, 2, 3)
	p, r := tb.score()
	if p.Winner != rules.Town {
		t.Fatalf("winner %s", p.Winner)
	}
	if got, want := parts(r.Seats[4]), "1 0 0 0.3 -0.5 0 = 0.8"; got != want || r.Seats[4].Left != protocol.LeftFouls {
		t.Errorf("seat 5 (left %q): got %s, want %s", r.Seats[4].Left, got, want)
	}
	if got, want := parts(r.Seats[0]), "0 0 0 0.3 -0.5 0 = -0.2"; got != want {
		t.Errorf("the Don, removed: got %s, want %s", got, want)
	}
}

// TestBestMoveAndTheFirstKilled (rules.Options.BestMove, R-SPORT-02,
// R-SPORT-10): seat 7, shot on night 2, the first night of shots after the
// meeting, names seats 1, 4 and 2 in the last word, two of them black: FIIM's
// 0.5. The host then removes three citizens and the mafia win, so seat 7 is a
// red player killed first in a lost game: in an evening of this one game,
// round(0.4 × 1) is no game, and Ci is its most, 0.5. The referee gives seat 4
// extra points and names seat 2's worst move, which takes the auto-bonus.
func TestBestMoveAndTheFirstKilled(t *testing.T) {
	tb := sport(t, func(o *rules.Options) { o.BestMove = true })
	tb.until(rules.PhaseDay)
	tb.until(rules.PhaseNight)
	for _, v := range []int{1, 2, 3} {
		tb.do(v, rules.ActKill, 7)
	}
	tb.until(rules.PhaseLastWord)
	tb.apply(rules.Actor{Player: seat(7)}, rules.Action{Type: rules.ActBestMove, Targets: []string{seat(1), seat(4), seat(2)}})
	tb.until(rules.PhaseDay)
	tb.remove(5, 6, 8)
	_, r := tb.score(
		scoring.Extra{Seat: 4, Points: 40, Reason: "found the Don on night 2"},
		scoring.Extra{Seat: 2, WorstMove: true, Reason: "shot without the team"},
	)
	seven := r.Seats[6]
	if !seven.FirstKilled || seven.Won || seven.BestMove == nil || seven.BestMove.Black != 2 {
		t.Fatalf("seat 7: %+v", seven)
	}
	for n, w := range map[int]string{
		7: "0 0.5 0 0.3 0 0 = 0.8", // Ci comes with the evening
		4: "0 0 0.4 0.3 0 0 = 0.7",
		2: "1 0 0 0 0 0 = 1",
		1: "1 0 0 0.3 0 0 = 1.3",
	} {
		if got := parts(r.Seats[n-1]); got != w {
			t.Errorf("seat %d: got %s, want %s", n, got, w)
		}
	}

	ids := make([]string, len(r.Seats))
	for i := range ids {
		ids[i] = fmt.Sprintf("e%d", i+1)
	}
	st, err := scoring.Standings(scoring.FIIM(), []scoring.GameResult{{Number: 1, Players: ids, Result: r}})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 7, the Don and a mafia have 1.3 each: seat 7's points beyond the
	// win are more, and the Don's win is with a card of his own.
	var order []string
	for _, s := range st[:3] {
		order = append(order, fmt.Sprintf("%d %s %s %s", s.Place, s.Player, s.Points.Compensation, s.Points.Total))
	}
	if got, want := fmt.Sprint(order), "[1 e7 0.5 1.3 2 e1 0 1.3 3 e3 0 1.3]"; got != want {
		t.Errorf("standings: got %s, want %s", got, want)
	}
}

// TestRefusesAGameUnderWay: the moderator's live protocol is no score.
func TestRefusesAGameUnderWay(t *testing.T) {
	tb := sport(t, nil)
	tb.until(rules.PhaseDay)
	if _, err := scoring.Game(protocol.Of(tb.s), scoring.FIIM(), nil); err == nil || !errors.Is(err, scoring.ErrNotOver) {
		t.Errorf("got %v, want %v", err, scoring.ErrNotOver)
	}
}
