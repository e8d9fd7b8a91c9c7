package scoring_test

import (
	"fmt"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// A sport game the mafia won, scored by FIIM: the player shot on night 2, the
// first night of shots, named two black players in the best move, the host
// removed a citizen, and the referee gave the Sheriff extra points. Then the
// standings of an evening of that one game.
func Example() {
	opts, _ := rules.Preset(rules.PresetSport)
	p := protocol.Protocol{Code: "K7QX2M", Rules: opts, Over: true, Complete: true, Winner: rules.MafiaTeam}
	cards := []rules.Role{rules.Don, rules.Mafia, rules.Mafia, rules.Sheriff}
	for n := 1; n <= 10; n++ {
		card := rules.Citizen
		if n <= len(cards) {
			card = cards[n-1]
		}
		p.Seats = append(p.Seats, protocol.Seat{Seat: n, ID: fmt.Sprintf("p%d", n), Role: card, Team: card.Team()})
	}
	p.Seats[6].Left = &protocol.Departure{Seat: 7, When: protocol.When{Night: 2}, How: protocol.LeftKilled}
	p.Nights = []protocol.Night{{Night: 1}, {Night: 2, BestMoves: []protocol.BestMove{{Seat: 7, Targets: []int{1, 4, 2}, Black: 2}}}}
	p.Seats[8].Left = &protocol.Departure{Seat: 9, When: protocol.When{Day: 2}, How: protocol.LeftRemoved}

	r, err := scoring.Game(p, scoring.FIIM(), []scoring.Extra{{Seat: 4, Points: 20, Reason: "checked the Don on night 2"}})
	if err != nil {
		panic(err)
	}
	for _, n := range []int{1, 4, 7, 9} {
		s := r.Seats[n-1]
		fmt.Printf("seat %d %s: win %s, best move %s, extra %s, auto-bonus %s, penalty %s: %s\n",
			s.Seat, s.Role, s.Points.Win, s.Points.BestMove, s.Points.Extra, s.Points.AutoBonus, s.Points.Penalty, s.Points.Total)
	}

	ids := []string{"ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal", "ivy", "jon"}
	st, err := scoring.Standings(scoring.FIIM(), []scoring.GameResult{{Number: 1, Players: ids, Result: r}})
	if err != nil {
		panic(err)
	}
	for _, s := range st[:4] {
		fmt.Printf("%d. %s: %s (compensation %s)\n", s.Place, s.Player, s.Points.Total, s.Points.Compensation)
	}
	// Output:
	// seat 1 don: win 1, best move 0, extra 0, auto-bonus 0.3, penalty 0: 1.3
	// seat 4 sheriff: win 0, best move 0, extra 0.2, auto-bonus 0.3, penalty 0: 0.5
	// seat 7 citizen: win 0, best move 0.5, extra 0, auto-bonus 0.3, penalty 0: 0.8
	// seat 9 citizen: win 0, best move 0, extra 0, auto-bonus 0.3, penalty -0.5: -0.2
	// 1. gus: 1.3 (compensation 0.5)
	// 2. ann: 1.3 (compensation 0)
	// 3. bob: 1.3 (compensation 0)
	// 3. cid: 1.3 (compensation 0)
}
