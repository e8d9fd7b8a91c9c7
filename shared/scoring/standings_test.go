package scoring_test

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// played is one seat's game for the standings, built by hand: card, win and
// the parts of its points but the compensation.
func played(role rules.Role, won bool, win, bestMove, extra, autoBonus, penalty scoring.Points) scoring.SeatResult {
	p := scoring.Parts{Win: win, BestMove: bestMove, Extra: extra, AutoBonus: autoBonus, Penalty: penalty}
	p.Total = win + bestMove + extra + autoBonus + penalty
	return scoring.SeatResult{Role: role, Team: role.Team(), Won: won, Points: p}
}

// evening is a game of the evening: seats by player id.
func evening(number int, seats map[string]scoring.SeatResult) scoring.GameResult {
	g := scoring.GameResult{Number: number}
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for id := range seats {
			if !yield(id) {
				return
			}
		}
	}) {
		s := seats[id]
		s.Seat, s.Name = len(g.Players)+1, "Name of "+id
		g.Players = append(g.Players, id)
		g.Result.Seats = append(g.Result.Seats, s)
	}
	return g
}

// line is a standing for short comparisons: place, player, points.
func line(s scoring.Standing) string {
	return fmt.Sprintf("%d %s %s", s.Place, s.Player, s.Points.Total)
}

// TestTieBreaks: the standings' order, mafiaratings' default sorting
// ("(epg)wsk"): points; then the points beyond the wins; then wins; then wins
// with a card of one's own; then games killed first. Players equal on all of
// these share a place, listed by name.
func TestTieBreaks(t *testing.T) {
	tab := noAuto()
	for _, c := range []struct {
		name  string
		games []scoring.GameResult
		want  []string
	}{
		{"points", []scoring.GameResult{evening(1, map[string]scoring.SeatResult{
			"a": played(rules.Citizen, false, 0, 0, 0, 0, 0),
			"b": played(rules.Citizen, true, 100, 0, 0, 0, 0),
		})}, []string{"1 b 1", "2 a 0"}},
		{"the points beyond the wins", []scoring.GameResult{
			evening(1, map[string]scoring.SeatResult{
				"a": played(rules.Citizen, true, 100, 0, 0, 0, 0),
				"b": played(rules.Citizen, false, 0, 70, 30, 0, 0),
			})}, []string{"1 b 1", "2 a 1"}},
		{"wins", []scoring.GameResult{
			evening(1, map[string]scoring.SeatResult{
				"a": played(rules.Citizen, false, 0, 0, 50, 0, 0),
				"b": played(rules.Citizen, true, 0, 0, 50, 0, 0), // a table whose win brings nothing
			})}, []string{"1 b 0.5", "2 a 0.5"}},
		{"wins with a card", []scoring.GameResult{
			evening(1, map[string]scoring.SeatResult{
				"a": played(rules.Citizen, true, 100, 0, 0, 0, 0),
				"b": played(rules.Sheriff, true, 100, 0, 0, 0, 0),
				"c": played(rules.Mafia, true, 100, 0, 0, 0, 0),
				"d": played(rules.Don, true, 100, 0, 0, 0, 0),
			})}, []string{"1 b 1", "1 d 1", "3 a 1", "3 c 1"}},
		{"killed first", func() []scoring.GameResult {
			g := evening(1, map[string]scoring.SeatResult{
				"a": played(rules.Citizen, true, 100, 0, 0, 0, 0),
				"b": played(rules.Citizen, true, 100, 0, 0, 0, 0),
			})
			g.Result.Seats[1].FirstKilled = true
			return []scoring.GameResult{g}
		}(), []string{"1 b 1", "2 a 1"}},
		{"shared places", []scoring.GameResult{
			evening(1, map[string]scoring.SeatResult{
				"c": played(rules.Citizen, true, 100, 0, 0, 0, 0),
				"a": played(rules.Citizen, true, 100, 0, 0, 0, 0),
				"b": played(rules.Citizen, true, 100, 0, 0, 0, 0),
				"d": played(rules.Citizen, false, 0, 0, 0, 0, 0),
			})}, []string{"1 a 1", "1 b 1", "1 c 1", "4 d 0"}},
		{"penalties are points", []scoring.GameResult{
			evening(1, map[string]scoring.SeatResult{
				"a": played(rules.Citizen, true, 100, 0, 0, 0, -50),
				"b": played(rules.Citizen, false, 0, 0, 0, 0, 0),
			}),
			evening(2, map[string]scoring.SeatResult{
				"a": played(rules.Citizen, false, 0, 0, 0, 0, 0),
				"b": played(rules.Citizen, false, 0, 0, 40, 0, 0),
			})}, []string{"1 a 0.5", "2 b 0.4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := scoring.Standings(tab, c.games)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range st {
				got = append(got, line(s))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestStandingCounts: a player's games, wins by side, best moves, first
// kills and penalties, over an evening; and the name of the latest game. Her
// game killed first as a citizen, and lost, brings FIIM's Ci: round(0.4 × 3)
// is one game, so the most, 0.5.
func TestStandingCounts(t *testing.T) {
	g1 := evening(1, map[string]scoring.SeatResult{"a": played(rules.Don, true, 100, 0, 0, 30, 0)})
	g2 := evening(2, map[string]scoring.SeatResult{"a": played(rules.Citizen, false, 0, 50, 0, 30, -50)})
	g2.Result.Seats[0].BestMove = &scoring.BestMove{Targets: []int{1, 2, 3}, Black: 2}
	g2.Result.Seats[0].FirstKilled, g2.Result.Seats[0].Left = true, protocol.LeftRemoved
	g3 := evening(3, map[string]scoring.SeatResult{"a": played(rules.Maniac, true, 100, 0, 0, 30, 0)})
	g3.Result.Seats[0].Name = "Ann"
	st, err := scoring.Standings(noAuto(), []scoring.GameResult{g3, g1, g2})
	if err != nil {
		t.Fatal(err)
	}
	want := scoring.Standing{Place: 1, Player: "a", Name: "Ann", Games: 3, Wins: 2, WinsBy: scoring.Wins{Mafia: 1, Maniac: 1},
		CardWins: 2, Points: scoring.Parts{Win: 200, BestMove: 50, AutoBonus: 90, Penalty: -50, Compensation: 50, Total: 340},
		BestMoves: 1, BlackGuessed: 2, FirstKilled: 1, Penalties: 1}
	if len(st) != 1 || !reflect.DeepEqual(st[0], want) {
		t.Errorf("got %+v\nwant %+v", st, want)
	}
}

// TestCompensationOverTheEvening: FIIM's Ci depends on the player's evening.
// Ann is killed first as a citizen in 2 of her 7 games, losing one and
// winning the other: round(0.4 × 7) is 3, so the lost one brings
// 0.5 × 2 ÷ 3 = 0.33 and the won one nothing. Bob, killed first as the Don,
// is of no side FIIM compensates.
func TestCompensationOverTheEvening(t *testing.T) {
	var games []scoring.GameResult
	for n := 1; n <= 7; n++ {
		ann, bob := played(rules.Citizen, n != 1, 0, 0, 0, 0, 0), played(rules.Don, n == 1, 0, 0, 0, 0, 0)
		ann.FirstKilled, bob.FirstKilled = n <= 2, n == 3
		games = append(games, evening(n, map[string]scoring.SeatResult{"ann": ann, "bob": bob}))
	}
	st, err := scoring.Standings(scoring.FIIM(), games)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]scoring.Points{}
	for _, s := range st {
		got[s.Player] = s.Points.Compensation
		if s.Points.Total != s.Points.Compensation {
			t.Errorf("%s: total %s", s.Player, s.Points.Total)
		}
	}
	if want := map[string]scoring.Points{"ann": 33, "bob": 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}

	off := scoring.FIIM()
	off.Compensation.On = false
	if st, _ := scoring.Standings(off, games); st[0].Points.Compensation != 0 || st[1].Points.Compensation != 0 {
		t.Errorf("compensation off: %+v", st)
	}
}

// TestStandingsRefuse: games that cannot be added up.
func TestStandingsRefuse(t *testing.T) {
	one := func() scoring.GameResult {
		return evening(1, map[string]scoring.SeatResult{"a": played(rules.Citizen, true, 100, 0, 0, 0, 0), "b": played(rules.Don, false, 0, 0, 0, 0, 0)})
	}
	for _, c := range []struct {
		name  string
		games func() []scoring.GameResult
	}{
		{"a game twice", func() []scoring.GameResult { return []scoring.GameResult{one(), one()} }},
		{"a seat with no player", func() []scoring.GameResult { g := one(); g.Players[1] = ""; return []scoring.GameResult{g} }},
		{"a player in two seats", func() []scoring.GameResult { g := one(); g.Players[1] = "a"; return []scoring.GameResult{g} }},
		{"fewer players than seats", func() []scoring.GameResult { g := one(); g.Players = g.Players[:1]; return []scoring.GameResult{g} }},
		{"a total that is not the sum", func() []scoring.GameResult {
			g := one()
			g.Result.Seats[0].Points.Total = 90
			return []scoring.GameResult{g}
		}},
		{"seats out of order", func() []scoring.GameResult { g := one(); g.Result.Seats[0].Seat = 2; return []scoring.GameResult{g} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := scoring.Standings(scoring.FIIM(), c.games()); !errors.Is(err, scoring.ErrInvalidGames) {
				t.Errorf("got %v, want %v", err, scoring.ErrInvalidGames)
			}
		})
	}
	if st, err := scoring.Standings(scoring.FIIM(), nil); err != nil || st == nil || len(st) != 0 {
		t.Errorf("no games: %v, %v", st, err)
	}
}

// TestPropertyStandingsAreAFold: the standings are the same whatever the
// order the games come in, and each player's points are exactly the sums of
// their games' points, part by part, with the evening's compensation where
// the table has a share; the places follow the tie-breaks.
func TestPropertyStandingsAreAFold(t *testing.T) {
	cards := []rules.Role{rules.Citizen, rules.Sheriff, rules.Doctor, rules.Mafia, rules.Don, rules.Maniac}
	lefts := []string{"", protocol.LeftKilled, protocol.LeftVote, protocol.LeftRemoved, protocol.LeftFouls}
	rapid.Check(t, func(t *rapid.T) {
		tab := scoring.FIIM()
		if rapid.Bool().Draw(t, "fixed compensation") {
			tab.Compensation.Share = 0
		}
		pool := rapid.IntRange(1, 12).Draw(t, "players")
		var ids []string
		for i := range pool {
			ids = append(ids, fmt.Sprintf("e%d", i+1))
		}
		part := rapid.Int64Range(-150, 150)
		numbers := rapid.SliceOfDistinct(rapid.IntRange(-5, 40), rapid.ID).Draw(t, "numbers")
		var games []scoring.GameResult
		for _, n := range numbers {
			g := scoring.GameResult{Number: n}
			g.Players = rapid.SliceOfNDistinct(rapid.SampledFrom(ids), 1, min(pool, 10), rapid.ID).Draw(t, "seated")
			for i, id := range g.Players {
				role := rapid.SampledFrom(cards).Draw(t, "card")
				s := scoring.SeatResult{Seat: i + 1, Player: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("%s in game %d", id, n),
					Role: role, Team: role.Team(), Won: rapid.Bool().Draw(t, "won"), FirstKilled: rapid.Bool().Draw(t, "first"),
					Left: rapid.SampledFrom(lefts).Draw(t, "left")}
				if rapid.Bool().Draw(t, "best move") {
					s.BestMove = &scoring.BestMove{Targets: []int{1, 2, 3}, Black: rapid.IntRange(0, 3).Draw(t, "black")}
				}
				s.Points = scoring.Parts{Win: scoring.Points(part.Draw(t, "win")), BestMove: scoring.Points(part.Draw(t, "bm")),
					Extra: scoring.Points(part.Draw(t, "extra")), AutoBonus: scoring.Points(part.Draw(t, "auto")),
					Penalty: scoring.Points(part.Draw(t, "penalty")), Compensation: scoring.Points(part.Draw(t, "comp"))}
				s.Points.Total = s.Points.Win + s.Points.BestMove + s.Points.Extra + s.Points.AutoBonus + s.Points.Penalty + s.Points.Compensation
				g.Result.Seats = append(g.Result.Seats, s)
			}
			games = append(games, g)
		}

		st, err := scoring.Standings(tab, games)
		if err != nil {
			t.Fatal(err)
		}
		shuffled := rapid.Permutation(games).Draw(t, "order")
		again, err := scoring.Standings(tab, shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st, again) {
			t.Fatalf("in another order:\n%+v\nwant\n%+v", again, st)
		}

		// The sums, game by game, as a reader of the results would make them.
		type sums struct {
			parts                     scoring.Parts
			games, killed, compensate int
			latest                    int
			name                      string
		}
		want := map[string]*sums{}
		for _, g := range games {
			for i, s := range g.Result.Seats {
				w := want[g.Players[i]]
				if w == nil {
					w = &sums{latest: g.Number}
					want[g.Players[i]] = w
				}
				p := &w.parts
				p.Win += s.Points.Win
				p.BestMove += s.Points.BestMove
				p.Extra += s.Points.Extra
				p.AutoBonus += s.Points.AutoBonus
				p.Penalty += s.Points.Penalty
				p.Compensation += s.Points.Compensation
				w.games++
				if s.FirstKilled && s.Team == rules.Town {
					w.killed++
					if !s.Won {
						w.compensate++
					}
				}
				if g.Number >= w.latest {
					w.latest, w.name = g.Number, s.Name
				}
			}
		}
		if len(st) != len(want) {
			t.Fatalf("%d standings for %d players", len(st), len(want))
		}
		for i, s := range st {
			w := want[s.Player]
			p := w.parts
			if tab.Compensation.Share > 0 {
				p.Compensation += tab.Compensation.PerGame(w.games, w.killed) * scoring.Points(w.compensate)
			}
			p.Total = p.Win + p.BestMove + p.Extra + p.AutoBonus + p.Penalty + p.Compensation
			if s.Points != p || s.Games != w.games || s.Name != w.name {
				t.Fatalf("%s: got %+v, %d games, %q; want %+v, %d games, %q", s.Player, s.Points, s.Games, s.Name, p, w.games, w.name)
			}
			if s.Wins != s.WinsBy.Town+s.WinsBy.Mafia+s.WinsBy.Maniac {
				t.Fatalf("%s: %d wins, by side %+v", s.Player, s.Wins, s.WinsBy)
			}
			if i == 0 {
				if s.Place != 1 {
					t.Fatalf("the first place is %d", s.Place)
				}
				continue
			}
			switch c := compareRank(st[i-1], s); {
			case c > 0:
				t.Fatalf("%s is before %s", line(st[i-1]), line(s))
			case c == 0 && s.Place != st[i-1].Place:
				t.Fatalf("%s and %s tie, and do not share the place", line(st[i-1]), line(s))
			case c < 0 && s.Place != i+1:
				t.Fatalf("%s is the %d-th", line(s), i+1)
			}
		}
	})
}

// compareRank is the tie-breaks as the standings document them.
func compareRank(a, b scoring.Standing) int {
	beyond := func(s scoring.Standing) scoring.Points {
		return s.Points.BestMove + s.Points.Extra + s.Points.AutoBonus + s.Points.Penalty
	}
	return cmp.Or(cmp.Compare(b.Points.Total, a.Points.Total), cmp.Compare(beyond(b), beyond(a)),
		cmp.Compare(b.Wins, a.Wins), cmp.Compare(b.CardWins, a.CardWins), cmp.Compare(b.FirstKilled, a.FirstKilled))
}
