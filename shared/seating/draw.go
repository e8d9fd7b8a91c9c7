package seating

import "fmt"

// Plan is what an organiser decides before the evening: how many players, tables and
// rounds, and the rules' fewest and most players in a game (sport: 10 and 10; classic
// might allow 5 to 20). The seats at each table follow from it (TableSizes).
type Plan struct {
	Players  int
	Tables   int
	MinSeats int
	MaxSeats int
	Rounds   int
}

// Options steer a draw or an improvement. The same plan and options always give the
// same schedule.
type Options struct {
	// Seed picks one of the many good schedules.
	Seed uint64
	// Steps is how many swaps the search tries. 0 means the default budget: 4,000 for
	// every player and round, at least 500,000 and at most 8,000,000. For 40 players at
	// 4 tables of 10 over 10 rounds that is 1,600,000 steps, under 0.1 s of one core,
	// and a search of a minute (750 times as many steps) scores within a few per cent
	// of it (see the package's benchmarks). A larger budget serves a report of what an
	// evening could reach.
	Steps int
}

// defaultSteps returns the default budget of a search (see Options.Steps).
func defaultSteps(players, rounds int) int {
	return min(max(4000*players*rounds, 500_000), 8_000_000)
}

// steps returns the budget the options ask for an evening of players and rounds.
func (o Options) steps(players, rounds int) int {
	if o.Steps > 0 {
		return o.Steps
	}
	return defaultSteps(players, rounds)
}

// Draw returns the seating of a whole evening: who sits at which table and seat in every
// round, and who sits out. Everyone plays the same number of games when the seats allow
// it, and otherwise the counts differ by one; those who sit out take turns, so nobody
// sits out twice before everyone has sat out once. Among such schedules it searches for
// one with a low Score: pairs of players meet as evenly as possible, and every player's
// seats and tables are spread. Draw is Random(p, o.Seed) improved by o.Steps swaps, and
// never scores worse than it.
func Draw(p Plan, o Options) (Schedule, error) {
	s, g, err := random(p, o.Seed)
	if err != nil {
		return Schedule{}, err
	}
	start := s.Score().Total()
	best := s.clone()
	search(best, 0, g, o.steps(p.Players, p.Rounds))
	if best.Score().Total() > start {
		return s, nil
	}
	return best, nil
}

// search improves the rounds of s from round from on, in place, with the given budget:
// three quarters of it on who sits with whom and at which table, the rest on seats.
func search(s Schedule, from int, g *rng, steps int) {
	e := newEngine(s, from)
	groupSteps := steps * 3 / 4
	e.groups(g, groupSteps, 8*scale, false, false)
	e.seats(g, steps-groupSteps, 8*scale, false)
	e.write(s)
}

// Random returns a schedule drawn by lot: the same turns at sitting out as Draw, and the
// players of each round dealt to the seats at random. It is what Draw starts from, and
// the yardstick its Score is measured against.
func Random(p Plan, seed uint64) (Schedule, error) {
	s, _, err := random(p, seed)
	return s, err
}

func random(p Plan, seed uint64) (Schedule, *rng, error) {
	if p.Rounds < 1 || p.Rounds > RoundLimit {
		return Schedule{}, nil, fmt.Errorf("%w: %d rounds, 1 to %d", ErrInvalid, p.Rounds, RoundLimit)
	}
	sizes, err := TableSizes(p.Players, p.Tables, p.MinSeats, p.MaxSeats)
	if err != nil {
		return Schedule{}, nil, err
	}
	seated := 0
	for _, size := range sizes {
		seated += size
	}
	g := newRNG(seed)
	// The turns at sitting out: a random order of the players, taken in turn, so
	// that nobody sits out twice before everyone has sat out once.
	turns := make([]int, p.Players)
	for i := range turns {
		turns[i] = i
	}
	g.shuffle(turns)
	out := p.Players - seated
	s := Schedule{Players: p.Players, MinSeats: p.MinSeats, MaxSeats: p.MaxSeats, Rounds: make([]Round, p.Rounds)}
	sitsOut := make([]bool, p.Players)
	for r := range s.Rounds {
		clear(sitsOut)
		var round Round
		for k := range out {
			q := turns[(r*out+k)%p.Players]
			sitsOut[q] = true
		}
		players := make([]int, 0, seated)
		for q := range p.Players {
			if sitsOut[q] {
				round.SitOut = append(round.SitOut, q)
			} else {
				players = append(players, q)
			}
		}
		g.shuffle(players)
		round.Tables = make([][]int, len(sizes))
		for t, size := range sizes {
			round.Tables[t], players = players[:size:size], players[size:]
		}
		s.Rounds[r] = round
	}
	return s, g, nil
}
