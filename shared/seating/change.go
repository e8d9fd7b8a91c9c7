package seating

import (
	"cmp"
	"fmt"
	"slices"
)

// Swap exchanges players a and b from round from on: each takes the other's seats and
// turns at sitting out. When that would make their games differ by more than the
// evening allows (one had sat out already and the other not), the turns at sitting out
// are put right as for every change (see the package documentation).
func (s Schedule) Swap(a, b, from int) (Schedule, error) {
	if err := s.checkChange(from); err != nil {
		return Schedule{}, err
	}
	if a == b || !s.isPlayer(a) || !s.isPlayer(b) {
		return Schedule{}, fmt.Errorf("%w: cannot swap players %d and %d of %d", ErrInvalid, a, b, s.Players)
	}
	c := s.clone()
	for ri := from; ri < len(c.Rounds); ri++ {
		r := &c.Rounds[ri]
		for _, table := range r.Tables {
			exchange(table, a, b)
		}
		exchange(r.SitOut, a, b)
		slices.Sort(r.SitOut)
	}
	if err := c.rebalance(from); err != nil {
		return Schedule{}, err
	}
	return c, nil
}

// Absent takes player p out of the evening from round from on. The seats p leaves are
// taken by players who were to sit out; only when nobody sits out does a table lose a
// seat (when the rules allow a smaller game) or close (when they do not), with the
// tables kept as even as TableSizes would make them.
func (s Schedule) Absent(p, from int) (Schedule, error) {
	if err := s.checkChange(from); err != nil {
		return Schedule{}, err
	}
	if !s.isPlayer(p) {
		return Schedule{}, fmt.Errorf("%w: no player %d of %d", ErrInvalid, p, s.Players)
	}
	c := s.clone()
	for ri := from; ri < len(c.Rounds); ri++ {
		r := &c.Rounds[ri]
		for _, table := range r.Tables {
			if k := slices.Index(table, p); k >= 0 {
				table[k] = -1
			}
		}
		if k := slices.Index(r.SitOut, p); k >= 0 {
			r.SitOut = slices.Delete(r.SitOut, k, k+1)
		}
	}
	if err := c.rebalance(from); err != nil {
		return Schedule{}, err
	}
	return c, nil
}

// Late adds a player who comes late, from round from on, and returns the schedule and
// the new player's number (the old schedule's Players). Having played the fewest games,
// the new player takes a seat in every round from from on: one freed by a player who now
// sits out instead, or a new one when the rules let the tables grow.
func (s Schedule) Late(from int) (Schedule, int, error) {
	if err := s.checkChange(from); err != nil {
		return Schedule{}, 0, err
	}
	if s.Players >= PlayerLimit {
		return Schedule{}, 0, fmt.Errorf("%w: at most %d players", ErrInvalid, PlayerLimit)
	}
	c := s.clone()
	p := c.Players
	c.Players++
	for ri := from; ri < len(c.Rounds); ri++ {
		c.Rounds[ri].SitOut = append(c.Rounds[ri].SitOut, p)
	}
	if err := c.rebalance(from); err != nil {
		return Schedule{}, 0, err
	}
	return c, p, nil
}

// Improve searches, with the budget and seed of o, for a better seating of the rounds
// from round from on, keeping who plays in each round. It takes only swaps that lower
// the Score's sums, so it moves no one without a reason, and it returns s itself when
// it finds nothing that lowers the Score. moved is how many seats changed: the players,
// counted once for each round, who now sit at another table or seat.
func (s Schedule) Improve(from int, o Options) (improved Schedule, moved int, err error) {
	if err := s.checkChange(from); err != nil {
		return Schedule{}, 0, err
	}
	c := s.clone()
	e := newEngine(c, from)
	g := newRNG(o.Seed)
	steps := o.steps(s.Players, len(s.Rounds))
	e.groups(g, steps*3/4, 0, true, true)
	e.seats(g, steps-steps*3/4, 0, true)
	e.write(c)
	if c.Score().Total() >= s.Score().Total() {
		return s, 0, nil
	}
	for ri := from; ri < len(c.Rounds); ri++ {
		for t, table := range c.Rounds[ri].Tables {
			for k, p := range table {
				if s.Rounds[ri].Tables[t][k] != p {
					moved++
				}
			}
		}
	}
	return c, moved, nil
}

func (s Schedule) checkChange(from int) error {
	if err := s.validate(); err != nil {
		return err
	}
	if from < 0 || from > len(s.Rounds) {
		return fmt.Errorf("%w: round %d of %d", ErrInvalid, from, len(s.Rounds))
	}
	return nil
}

func (s Schedule) isPlayer(p int) bool { return p >= 0 && p < s.Players }

// exchange puts b where a was in xs, and a where b was.
func exchange(xs []int, a, b int) {
	for i, x := range xs {
		switch x {
		case a:
			xs[i] = b
		case b:
			xs[i] = a
		}
	}
}

// rebalance makes the rounds from round from on legal and fair again after a change
// left them with empty seats (-1), players to seat (in SitOut who should play) or
// unfair turns at sitting out, moving as few players as it can (see the package documentation).
func (s *Schedule) rebalance(from int) error {
	n, nt := s.Players, s.Tables()
	games := make([]int, n)
	for _, r := range s.Rounds[:from] {
		for _, table := range r.Tables {
			for _, p := range table {
				games[p]++
			}
		}
	}
	wasSeated := make([]bool, n)
	plays := make([]bool, n)
	placed := make([]bool, n)
	for ri := from; ri < len(s.Rounds); ri++ {
		old := s.Rounds[ri]
		clear(wasSeated)
		clear(plays)
		clear(placed)
		occupied := make([]int, nt)
		var present []int
		for t, table := range old.Tables {
			for _, p := range table {
				if p >= 0 {
					present = append(present, p)
					wasSeated[p] = true
					occupied[t]++
				}
			}
		}
		present = append(present, old.SitOut...)
		sizes, err := openSizes(len(present), nt, s.MinSeats, s.MaxSeats)
		if err != nil {
			return fmt.Errorf("round %d: %w", ri+1, err)
		}
		// The fullest tables keep the most seats.
		order := make([]int, nt)
		for t := range order {
			order[t] = t
		}
		slices.SortStableFunc(order, func(t, u int) int {
			return cmp.Or(cmp.Compare(occupied[u], occupied[t]), cmp.Compare(len(old.Tables[u]), len(old.Tables[t])))
		})
		slices.SortStableFunc(sizes, func(a, b int) int { return cmp.Compare(b, a) })
		newSize := make([]int, nt)
		seats := 0
		for i, t := range order {
			newSize[t] = sizes[i]
			seats += sizes[i]
		}
		// Who plays: the fewest games first, then those who were to play.
		slices.SortFunc(present, func(p, q int) int {
			return cmp.Or(cmp.Compare(games[p], games[q]), compareBool(wasSeated[q], wasSeated[p]),
				cmp.Compare(tieBreak(p, ri), tieBreak(q, ri)), cmp.Compare(p, q))
		})
		seats = min(seats, len(present))
		for _, p := range present[:seats] {
			plays[p] = true
			games[p]++
		}
		// Where: a player who still plays keeps a seat that is still there.
		tables := make([][]int, nt)
		for t := range tables {
			if newSize[t] == 0 {
				continue
			}
			tables[t] = make([]int, newSize[t])
			for k := range tables[t] {
				tables[t][k] = -1
				if k < len(old.Tables[t]) {
					if p := old.Tables[t][k]; p >= 0 && plays[p] {
						tables[t][k] = p
						placed[p] = true
					}
				}
			}
		}
		// Then one whose seat is gone stays at the same table if it has an empty seat.
		for t, table := range old.Tables {
			for _, p := range table {
				if p >= 0 && plays[p] && !placed[p] {
					if k := slices.Index(tables[t], -1); k >= 0 {
						tables[t][k] = p
						placed[p] = true
					}
				}
			}
		}
		// Then the others whose table shrank or closed, then those who come in.
		var rest []int
		for _, table := range old.Tables {
			for _, p := range table {
				if p >= 0 && plays[p] && !placed[p] {
					rest = append(rest, p)
				}
			}
		}
		for _, p := range present[:seats] {
			if !wasSeated[p] {
				rest = append(rest, p)
			}
		}
		for _, table := range tables {
			for k, p := range table {
				if p < 0 {
					table[k], rest = rest[0], rest[1:]
				}
			}
		}
		var out []int // nil when everyone plays
		out = append(out, present[seats:]...)
		slices.Sort(out)
		s.Rounds[ri] = Round{Tables: tables, SitOut: out}
	}
	return nil
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// tieBreak orders players who are equal in every other way, differently in each round
// so that the same player is not always the one picked (splitmix64).
func tieBreak(p, round int) uint64 {
	z := uint64(p)<<32 | uint64(round) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
