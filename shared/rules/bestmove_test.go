package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// bestMoveOption is what seat offers of a best move now, if anything.
func (g *game) bestMoveOption(seat int) (Option, bool) {
	opts := Legal(g.s, Actor{Player: id(seat)})
	i := slices.IndexFunc(opts, func(o Option) bool { return o.Type == ActBestMove })
	if i < 0 {
		return Option{}, false
	}
	return opts[i], true
}

// bestMove is seat's best move naming the seats named.
func bestMove(named ...int) Action {
	a := Action{Type: ActBestMove}
	for _, n := range named {
		a.Targets = append(a.Targets, id(n))
	}
	return a
}

// TestBestMoveOff: the preset's rules have no best move: the first night's
// killed is not offered one, and one sent is refused, changing nothing.
func TestBestMoveOff(t *testing.T) {
	g := sport10(t)
	if g.s.Rules.BestMove {
		t.Fatal("the sport preset has the best move on; none of the texts has it")
	}
	g.quietNight()
	g.skipDay()
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 3: {"kill:5"}})
	g.want(PhaseLastWord)
	if _, ok := g.bestMoveOption(5); ok {
		t.Fatal("a best move is offered under rules without it")
	}
	g.refuse(5, bestMove(1, 2, 3), ErrWrongPhase)
}

// TestBestMove: with the best move on, in a sport game whose first night is a
// meeting (R-SPORT-02), the player killed on night 2 names up to three other
// players still at the table, once, during the last word; the story tells
// everyone whom, and nothing of their cards. Nobody else, at no other time, is
// offered one, and every malformed one is refused, changing nothing.
func TestBestMove(t *testing.T) {
	g := newGame(t, PresetSport, 10, func(o *Options) { o.BestMove = true }, Don, Mafia, Mafia, Sheriff)
	g.night(nil) // the meeting: nobody dies, nobody speaks
	g.want(PhaseDay)
	g.refuse(1, bestMove(2), ErrWrongPhase)
	g.skipDay()
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 3: {"kill:5"}})
	g.want(PhaseLastWord)
	o, ok := g.bestMoveOption(5)
	if want := []string{id(1), id(2), id(3), id(4), id(6), id(7), id(8), id(9), id(10)}; !ok || !slices.Equal(o.Targets, want) || o.Max != BestMoveMax {
		t.Fatalf("the first killed is offered %+v (%v), want the nine others and at most %d", o, ok, BestMoveMax)
	}
	if _, ok := g.bestMoveOption(6); ok {
		t.Error("a player who does not speak is offered a best move")
	}
	g.refuse(6, bestMove(1), ErrNotYourTurn)
	for _, tc := range []struct {
		name string
		a    Action
		want error
		says string
	}{
		{"nobody", bestMove(), ErrBadField, "1 to 3"},
		{"four", bestMove(1, 2, 3, 4), ErrBadField, "1 to 3"},
		{"one twice", bestMove(1, 2, 1), ErrBadTarget, "once"},
		{"himself", bestMove(1, 5), ErrBadTarget, "himself"},
		{"no such seat", Action{Type: ActBestMove, Targets: []string{id(1), "p99"}}, ErrBadTarget, "not a valid target"},
	} {
		err := g.apply(Actor{Player: id(5)}, tc.a)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %v saying %q", tc.name, err, tc.want, tc.says)
		}
	}
	g.refuse(5, Action{Type: ActBestMove, Target: id(1)}, ErrBadField) // a target alone names nobody

	if err := g.apply(Actor{Player: id(5)}, bestMove(7, 1, 2)); err != nil {
		t.Fatal(err)
	}
	last := g.s.Events[len(g.s.Events)-1]
	if last.Type != EvBestMove || last.Actor != id(5) || !slices.Equal(last.Targets, []string{id(7), id(1), id(2)}) || last.To != ToAll {
		t.Fatalf("the story tells %+v", last)
	}
	for _, v := range []Viewer{Public, {Player: id(6)}, {Player: id(1)}} {
		events := ViewOf(g.s, v, g.now).Events
		if e := events[len(events)-1]; e.Type != EvBestMove || e.Result != "" || e.Role != "" || len(e.Targets) != 3 {
			t.Errorf("%+v is told %+v", v, e)
		}
	}
	if g.s.Phase.Name != PhaseLastWord || g.s.speaker() != id(5) {
		t.Fatalf("the best move ended the last word: %s, %s speaks", g.s.Phase.Name, g.s.speaker())
	}
	if _, ok := g.bestMoveOption(5); ok {
		t.Error("a second best move is offered")
	}
	g.refuse(5, bestMove(3), ErrAlreadyActed)
	g.lastWords()

	// Day 2 sends seat 7 away, night 3 kills seat 8: their last words have none.
	g.speeches(map[int]int{2: 7})
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 6: 7, 7: 7, 8: 7, 9: 7, 10: 7})
	g.want(PhaseLastWord)
	g.refuse(7, bestMove(1), ErrWrongPhase)
	g.lastWords()
	g.night(map[int][]string{1: {"kill:8"}, 2: {"kill:8"}, 3: {"kill:8"}})
	g.want(PhaseLastWord)
	if _, ok := g.bestMoveOption(8); ok {
		t.Error("night 3's killed is offered a best move")
	}
	g.refuse(8, bestMove(1), ErrWrongPhase)
}

// TestBestMoveOfEveryFirstVictim: where the first night is not a meeting,
// night 1 is the first night's kill; each player that night killed makes a
// best move, the Maniac's victim as the mafia's, since who killed whom is the
// night's secret (R-MANIAC-06).
func TestBestMoveOfEveryFirstVictim(t *testing.T) {
	g := newGame(t, PresetCustom, 10, func(o *Options) {
		o.BestMove, o.FirstNightMeeting, o.Maniac = true, false, true
	}, Don, Mafia, Mafia, Sheriff, Maniac)
	g.night(map[int][]string{1: {"kill:6"}, 2: {"kill:6"}, 3: {"kill:6"}, 5: {"kill:7"}})
	g.wantDead(6, 7)
	for _, seat := range []int{6, 7} {
		g.want(PhaseLastWord)
		if g.s.speaker() != id(seat) {
			t.Fatalf("%s speaks, want seat %d", g.s.speaker(), seat)
		}
		if o, ok := g.bestMoveOption(seat); !ok || slices.Contains(o.Targets, id(6)) || slices.Contains(o.Targets, id(7)) {
			t.Fatalf("seat %d is offered %+v (%v): want the living others", seat, o, ok)
		}
		if err := g.apply(Actor{Player: id(seat)}, bestMove(1)); err != nil {
			t.Fatal(err)
		}
		g.do(seat, ActEndSpeech, 0)
	}
	g.want(PhaseDay)
}

// TestBestMoveNeedsALastWord: rules that give the night's killed no last word
// cannot have a best move.
func TestBestMoveNeedsALastWord(t *testing.T) {
	o, _ := Preset(PresetCustom)
	o.BestMove, o.LastWords = true, LastWordsNone
	if err := o.Validate(); !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), "bestMove") {
		t.Errorf("bestMove without last words: %v", err)
	}
	o.LastWords = LastWordsTownNight
	if err := o.Validate(); err != nil {
		t.Errorf("bestMove with the town's last words at night: %v", err)
	}
}
