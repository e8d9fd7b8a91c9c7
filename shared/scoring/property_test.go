package scoring_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// randomGame plays a game of a preset to its end through the rules engine:
// the players take random legal actions (the mafia mostly agree on a shot),
// and the host moves the game on, warns and removes players during the day's
// speeches, and sometimes takes the last decision back.
func randomGame(t *rapid.T) rules.State {
	preset := rapid.SampledFrom([]string{rules.PresetClassic, rules.PresetSport, rules.PresetParty, rules.PresetManiac}).Draw(t, "preset")
	o, _ := rules.Preset(preset)
	if o.LastWords != rules.LastWordsNone {
		o.BestMove = rapid.Bool().Draw(t, "best move")
	}
	s, err := rules.New("RANDOM", o, rules.ModeratorHost, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rapid.IntRange(o.MinPlayers, min(o.MaxPlayers, o.MinPlayers+2)).Draw(t, "players") {
		if s, _, err = rules.Join(s, fmt.Sprintf("Player %d", i+1), t0); err != nil {
			t.Fatal(err)
		}
	}
	start := rules.Action{Type: rules.ActStart}
	start.Deal[0] = rapid.Byte().Draw(t, "seed")
	apply := func(actor rules.Actor, a rules.Action) {
		n, err := rules.Apply(s, actor, a, t0)
		if err != nil {
			t.Fatalf("%+v %s %s in %s: %v", actor, a.Type, a.Target, s.Phase.Name, err)
		}
		s = n
	}
	apply(host, start)
	for i := 0; s.Phase.Name != rules.PhaseGameOver; i++ {
		if i == 3000 {
			t.Fatalf("no winner after %d steps", i)
		}
		var actors []rules.Actor
		for _, p := range s.Players {
			if len(rules.Legal(s, rules.Actor{Player: p.ID})) > 0 {
				actors = append(actors, rules.Actor{Player: p.ID})
			}
		}
		if len(actors) == 0 || rapid.IntRange(0, 9).Draw(t, "host's turn") == 0 {
			hostMove(t, s, apply)
			continue
		}
		actor := rapid.SampledFrom(actors).Draw(t, "actor")
		o := rapid.SampledFrom(rules.Legal(s, actor)).Draw(t, "option")
		a := rules.Action{Type: o.Type}
		if len(o.Targets) > 0 {
			a.Target = rapid.SampledFrom(o.Targets).Draw(t, "target")
			for _, c := range s.Choices {
				if o.Type == rules.ActKill && slices.Contains(o.Targets, c.Target) && rapid.IntRange(0, 3).Draw(t, "agree") > 0 {
					a.Target = c.Target
				}
			}
		}
		switch o.Type {
		case rules.ActVoteAll:
			yes := rapid.Bool().Draw(t, "yes")
			a.Yes = &yes
		case rules.ActTestament:
			a.Verdict = rapid.SampledFrom(o.Verdicts).Draw(t, "verdict")
		case rules.ActBestMove:
			a.Target = ""
			a.Targets = rapid.SliceOfNDistinct(rapid.SampledFrom(o.Targets), 1, min(o.Max, len(o.Targets)), rapid.ID).Draw(t, "named")
		}
		apply(actor, a)
	}
	return s
}

// hostMove is the host's: a warning or a removal in the day's speeches, a
// correction of the last decision, or "next".
func hostMove(t *rapid.T, s rules.State, apply func(rules.Actor, rules.Action)) {
	legal := func(typ rules.ActionType) (rules.Option, bool) {
		i := slices.IndexFunc(rules.Legal(s, host), func(o rules.Option) bool { return o.Type == typ })
		if i < 0 {
			return rules.Option{}, false
		}
		return rules.Legal(s, host)[i], true
	}
	speeches := s.Phase.Name == rules.PhaseDay && !s.Phase.Closing && s.Phase.Paused == 0
	switch rapid.IntRange(0, 7).Draw(t, "host's move") {
	case 0, 1:
		if o, ok := legal(rules.ActWarn); ok && speeches {
			apply(host, rules.Action{Type: rules.ActWarn, Target: rapid.SampledFrom(o.Targets).Draw(t, "warned")})
			return
		}
	case 2:
		if o, ok := legal(rules.ActRemove); ok && speeches {
			apply(host, rules.Action{Type: rules.ActRemove, Target: rapid.SampledFrom(o.Targets).Draw(t, "removed")})
			return
		}
	case 3:
		if _, ok := legal(rules.ActCorrect); ok {
			apply(host, rules.Action{Type: rules.ActCorrect})
			return
		}
	}
	apply(host, rules.Action{Type: rules.ActAdvance, Now: true})
}

// TestPropertyAnyGameScores: every finished game of every preset scores by
// FIIM: each seat's total is the sum of its parts; the win's points go to the
// winners and only to them; the penalty to the players removed, by the host
// or by warnings (R-SPORT-16), corrections taken into account; the best
// move's points to a red best move of two or three black players. Scored
// again, a game gives the same result, and its JSON reads back the same.
func TestPropertyAnyGameScores(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := protocol.Of(randomGame(t))
		r, err := scoring.Game(p, scoring.FIIM(), nil)
		if err != nil {
			t.Fatal(err)
		}
		winners := 0
		for i, s := range r.Seats {
			ps := p.Seats[i]
			pts := s.Points
			if pts.Total != pts.Win+pts.BestMove+pts.Extra+pts.AutoBonus+pts.Penalty+pts.Compensation {
				t.Fatalf("seat %d: %+v", s.Seat, pts)
			}
			if s.Won {
				winners++
			}
			if (pts.Win == scoring.Point) != s.Won || (s.Team != rules.Loner && s.Won != (s.Team == p.Winner)) {
				t.Fatalf("seat %d (%s) won %v with %s; the winner %s", s.Seat, s.Team, s.Won, pts.Win, p.Winner)
			}
			removed := ps.Left != nil && (ps.Left.How == protocol.LeftRemoved || ps.Left.How == protocol.LeftFouls)
			if (pts.Penalty == -50) != removed || (pts.Penalty != 0 && pts.Penalty != -50) {
				t.Fatalf("seat %d left %+v, penalty %s", s.Seat, ps.Left, pts.Penalty)
			}
			good := s.BestMove != nil && s.Team == rules.Town && s.BestMove.Black >= 2
			if (pts.BestMove != 0) != good || pts.AutoBonus != 30 || pts.Compensation != 0 || pts.Extra != 0 {
				t.Fatalf("seat %d: %+v with best move %+v", s.Seat, pts, s.BestMove)
			}
		}
		if winners == 0 {
			t.Fatalf("nobody won %s's game", p.Winner)
		}
		again, err := scoring.Game(p, scoring.FIIM(), nil)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("scored again: %+v, %v", again, err)
		}
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back scoring.Result
		if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("read back %+v, %v\nwant %+v", back, err, r)
		}
	})
}
