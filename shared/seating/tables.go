package seating

import "fmt"

// TableSizes returns how many seats each of tables tables gets when players come to an
// evening whose rules allow minSeats to maxSeats players in a game. The tables are
// filled as evenly as possible, larger tables first, so that everyone plays every round
// when the seats allow it: 35 players at 4 tables of 5 to 20 get 9, 9, 9 and 8 seats.
// When there are more players than tables × maxSeats every table gets maxSeats and the
// rest sit out in turn. When there are fewer than tables × minSeats the tables cannot all
// be filled and TableSizes returns an error wrapping ErrTooFewPlayers that says so.
func TableSizes(players, tables, minSeats, maxSeats int) ([]int, error) {
	if tables < 1 || tables > TableLimit {
		return nil, fmt.Errorf("%w: %d tables, 1 to %d", ErrInvalid, tables, TableLimit)
	}
	if minSeats < 1 || maxSeats < minSeats || maxSeats > SeatLimit {
		return nil, fmt.Errorf("%w: %d to %d seats at a table", ErrInvalid, minSeats, maxSeats)
	}
	if players < 0 || players > PlayerLimit {
		return nil, fmt.Errorf("%w: %d players, at most %d", ErrInvalid, players, PlayerLimit)
	}
	if players < tables*minSeats {
		return nil, fmt.Errorf("%w: %d players cannot fill %d tables of at least %d",
			ErrTooFewPlayers, players, tables, minSeats)
	}
	sizes := make([]int, tables)
	if players >= tables*maxSeats {
		for t := range sizes {
			sizes[t] = maxSeats
		}
		return sizes, nil
	}
	for t := range sizes {
		sizes[t] = players / tables
		if t < players%tables {
			sizes[t]++
		}
	}
	return sizes, nil
}

// openSizes is TableSizes for a round after a change: when too few players are present
// to open every table, as many tables open as can be filled and the rest close (size
// 0), so that a round goes on with one table fewer rather than not at all.
func openSizes(players, tables, minSeats, maxSeats int) ([]int, error) {
	open := min(tables, players/minSeats)
	if open == 0 {
		return nil, fmt.Errorf("%w: %d players cannot fill a table of at least %d",
			ErrTooFewPlayers, players, minSeats)
	}
	sizes, err := TableSizes(players, open, minSeats, maxSeats)
	if err != nil {
		return nil, err
	}
	return append(sizes, make([]int, tables-open)...), nil
}
