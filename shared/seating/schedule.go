package seating

import (
	"errors"
	"fmt"
	"slices"
)

// The limits of an evening. They keep a stored schedule and a draw's memory small (the
// search keeps a players × players table of meetings).
const (
	PlayerLimit = 500 // players in one evening
	TableLimit  = 50  // tables in one round
	SeatLimit   = 30  // seats at one table
	RoundLimit  = 50  // rounds in one evening
)

// ErrTooFewPlayers is returned when the players cannot fill the tables a plan asks for,
// even with every table at its smallest.
var ErrTooFewPlayers = errors.New("seating: too few players")

// ErrInvalid is returned for a plan, a change or a stored schedule that breaks the
// limits or the rules of a seating (a player seated twice, a round out of range).
var ErrInvalid = errors.New("seating: invalid")

// Schedule is the seating of a whole evening: for every round, who sits at which table
// and seat, and who sits out. Players are numbered 0..Players-1; tables and seats keep
// the same numbers all evening. A player found in neither a table nor SitOut of a round
// is away that round: not yet arrived (see Late) or gone (see Absent).
//
// A Schedule is a value: the functions that change one return a new Schedule and leave
// the old one as it was.
type Schedule struct {
	Players  int     // players in the evening, late ones included
	MinSeats int     // fewest players a game may have under the evening's rules
	MaxSeats int     // most players a game may have under the evening's rules
	Rounds   []Round // the rounds in the order they are played
}

// Round is one round of an evening. Tables[t][s] is the player in seat s+1 at table
// t+1; a table with no seats is closed this round (too few players came for all of
// them). SitOut lists, in ascending order, the players who are present but do not play
// this round; it is nil when everyone plays.
type Round struct {
	Tables [][]int
	SitOut []int
}

// Place is where a player is in one round: at a table and seat (both numbered from 1),
// sitting out, or away (Table 0 and SitsOut false).
type Place struct {
	Table   int
	Seat    int
	SitsOut bool
}

// Tables returns how many tables the evening has.
func (s Schedule) Tables() int {
	if len(s.Rounds) == 0 {
		return 0
	}
	return len(s.Rounds[0].Tables)
}

// Place returns where player sits in round (both numbered from 0). It returns the zero
// Place, away, for a round or player out of range.
func (s Schedule) Place(round, player int) Place {
	if round < 0 || round >= len(s.Rounds) {
		return Place{}
	}
	r := s.Rounds[round]
	for t, table := range r.Tables {
		if k := slices.Index(table, player); k >= 0 {
			return Place{Table: t + 1, Seat: k + 1}
		}
	}
	if _, ok := slices.BinarySearch(r.SitOut, player); ok {
		return Place{SitsOut: true}
	}
	return Place{}
}

// Games returns how many games each player plays in the evening, indexed by player.
func (s Schedule) Games() []int {
	games := make([]int, s.Players)
	for _, r := range s.Rounds {
		for _, table := range r.Tables {
			for _, p := range table {
				games[p]++
			}
		}
	}
	return games
}

// clone returns a deep copy of s, so that a change never touches the schedule it was
// given.
func (s Schedule) clone() Schedule {
	c := s
	c.Rounds = make([]Round, len(s.Rounds))
	for i, r := range s.Rounds {
		c.Rounds[i] = r.clone()
	}
	return c
}

func (r Round) clone() Round {
	c := Round{Tables: make([][]int, len(r.Tables)), SitOut: slices.Clone(r.SitOut)}
	for t, table := range r.Tables {
		c.Tables[t] = slices.Clone(table)
	}
	return c
}

// validate checks everything a schedule promises: its limits, table sizes within the
// rules (or closed), every player at most once in a round, and SitOut in order.
func (s Schedule) validate() error {
	if s.Players < 0 || s.Players > PlayerLimit {
		return fmt.Errorf("%w: %d players, at most %d", ErrInvalid, s.Players, PlayerLimit)
	}
	if s.MinSeats < 1 || s.MaxSeats < s.MinSeats || s.MaxSeats > SeatLimit {
		return fmt.Errorf("%w: %d to %d seats at a table", ErrInvalid, s.MinSeats, s.MaxSeats)
	}
	if len(s.Rounds) < 1 || len(s.Rounds) > RoundLimit {
		return fmt.Errorf("%w: %d rounds, 1 to %d", ErrInvalid, len(s.Rounds), RoundLimit)
	}
	tables := len(s.Rounds[0].Tables)
	if tables < 1 || tables > TableLimit {
		return fmt.Errorf("%w: %d tables, 1 to %d", ErrInvalid, tables, TableLimit)
	}
	seen := make([]int, s.Players) // the round+1 a player was last seen in
	for i, r := range s.Rounds {
		if len(r.Tables) != tables {
			return fmt.Errorf("%w: round %d has %d tables, not %d", ErrInvalid, i+1, len(r.Tables), tables)
		}
		open := 0
		mark := func(p int) error {
			if p < 0 || p >= s.Players {
				return fmt.Errorf("%w: round %d has player %d of %d", ErrInvalid, i+1, p, s.Players)
			}
			if seen[p] == i+1 {
				return fmt.Errorf("%w: player %d is placed twice in round %d", ErrInvalid, p, i+1)
			}
			seen[p] = i + 1
			return nil
		}
		for t, table := range r.Tables {
			if len(table) == 0 {
				if table != nil {
					return fmt.Errorf("%w: round %d has a closed table %d that is not nil", ErrInvalid, i+1, t+1)
				}
				continue
			}
			open++
			if len(table) < s.MinSeats || len(table) > s.MaxSeats {
				return fmt.Errorf("%w: table %d of round %d has %d seats, not %d to %d",
					ErrInvalid, t+1, i+1, len(table), s.MinSeats, s.MaxSeats)
			}
			for _, p := range table {
				if err := mark(p); err != nil {
					return err
				}
			}
		}
		if open == 0 {
			return fmt.Errorf("%w: round %d has no open table", ErrInvalid, i+1)
		}
		if r.SitOut != nil && len(r.SitOut) == 0 {
			return fmt.Errorf("%w: round %d has an empty SitOut that is not nil", ErrInvalid, i+1)
		}
		if !slices.IsSorted(r.SitOut) {
			return fmt.Errorf("%w: round %d lists those who sit out out of order", ErrInvalid, i+1)
		}
		for _, p := range r.SitOut {
			if err := mark(p); err != nil {
				return err
			}
		}
	}
	return nil
}
