package scoring

import (
	"cmp"
	"slices"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

// GameResult is one game of the evening as Standings adds it up: the game
// scored, and who sat where by the evening's player ids.
type GameResult struct {
	// Number is the game's place in the evening, distinct for every game (its
	// round, then its table). A player's name in the standings is the one
	// they had in the latest game; the number changes no point.
	Number int `json:"number"`
	// Players are the evening's player ids by seat: Players[0] sat in seat 1.
	Players []string `json:"players"`
	Result  Result   `json:"result"`
}

// Wins counts wins by side: a win counts for the side of the card played.
type Wins struct {
	Town   int `json:"town"`
	Mafia  int `json:"mafia"`
	Maniac int `json:"maniac"`
}

// Standing is one player's evening: their place, their games and wins, and
// their points with what they came from.
type Standing struct {
	// Place is from 1. Players who tie on every tie-break share a place, and
	// the next place is skipped: 1, 2, 2, 4.
	Place  int    `json:"place"`
	Player string `json:"player"`
	Name   string `json:"name"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	WinsBy Wins   `json:"winsBy"`
	// CardWins are the wins with a card other than a citizen's or a mafia's:
	// the Sheriff's, the Don's, the Doctor's….
	CardWins int   `json:"cardWins"`
	Points   Parts `json:"points"`
	// BestMoves are the best moves made, whether the table scores them or
	// not, and BlackGuessed the black players they named, in all.
	BestMoves    int `json:"bestMoves"`
	BlackGuessed int `json:"blackGuessed"`
	// FirstKilled counts the games the player was killed first in, on any
	// side: killed on the first night whose shots count.
	FirstKilled int `json:"firstKilled"`
	// Penalties counts the games the player left by a removal or by
	// warnings (R-SPORT-16).
	Penalties int `json:"penalties"`
}

// Standings adds up the evening's games by table t, the table they were
// scored by, and orders the players. It is a pure function of the games and
// the table: the games may come in any order, and the points are exact sums
// (Points), so the standings are always the same. Each part of a player's
// points is the sum of that part over their games, and under a compensation
// with a Share the compensation is added here, as CompensationPolicy says.
//
// The order follows the default sorting of mafiaratings' scoring
// (include/scoring.php, "(epg)wsk"): more points first; then more points
// beyond the wins (the best moves, the extra points, the auto-bonus and the
// penalties, together); then more wins; then more wins with a card other than
// a citizen's or a mafia's (CardWins); then more games killed first, whose
// luck was worst. Players equal on all of these share a place, and are listed
// by name, then by id.
//
// Standings refuses games it cannot add up (ErrInvalidGames): two with the
// same number, a game whose players are not one a seat, a seat with no player
// or one player in two seats, a seat whose parts do not add up to its total.
func Standings(t Table, games []GameResult) ([]Standing, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	type evening struct {
		Standing
		named                 int // the number of the game the name is from
		killed, compensations int // the games killed first, and compensated, under t's compensation
	}
	players := map[string]*evening{}
	numbers := map[int]bool{}
	for _, g := range games {
		bad := func(format string, args ...any) error {
			return refusef(ErrInvalidGames, "game %d: "+format, append([]any{g.Number}, args...)...)
		}
		if numbers[g.Number] {
			return nil, bad("given twice")
		}
		numbers[g.Number] = true
		if len(g.Players) != len(g.Result.Seats) {
			return nil, bad("%d players for %d seats", len(g.Players), len(g.Result.Seats))
		}
		for i, s := range g.Result.Seats {
			id := g.Players[i]
			switch {
			case s.Seat != i+1:
				return nil, bad("seat %d is numbered %d", i+1, s.Seat)
			case id == "":
				return nil, bad("seat %d has no player", s.Seat)
			case slices.Contains(g.Players[:i], id):
				return nil, bad("player %s sits in two seats", id)
			case s.Points.Total != s.Points.sum():
				return nil, bad("seat %d's parts add up to %s, not its total %s", s.Seat, s.Points.sum(), s.Points.Total)
			}
			e := players[id]
			if e == nil {
				e = &evening{Standing: Standing{Player: id}, named: g.Number}
				players[id] = e
			}
			if g.Number >= e.named {
				e.Name, e.named = s.Name, g.Number
			}
			e.Games++
			e.Points = e.Points.plus(s.Points)
			if s.Won {
				e.Wins++
				switch s.Team {
				case rules.Town:
					e.WinsBy.Town++
				case rules.MafiaTeam:
					e.WinsBy.Mafia++
				case rules.Loner:
					e.WinsBy.Maniac++
				}
				if s.Role != rules.Citizen && s.Role != rules.Mafia {
					e.CardWins++
				}
			}
			if s.BestMove != nil {
				e.BestMoves++
				e.BlackGuessed += s.BestMove.Black
			}
			if s.FirstKilled {
				e.FirstKilled++
			}
			if killedFirst(t.Compensation, s) {
				e.killed++
			}
			if compensated(t.Compensation, s) {
				e.compensations++
			}
			if s.Left == protocol.LeftRemoved || s.Left == protocol.LeftFouls {
				e.Penalties++
			}
		}
	}

	out := make([]Standing, 0, len(players))
	for _, e := range players {
		if c := t.Compensation; c.Share > 0 {
			ci := c.PerGame(e.Games, e.killed) * Points(e.compensations)
			e.Points.Compensation += ci
			e.Points.Total += ci
		}
		out = append(out, e.Standing)
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if c := rank(a, b); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Player, b.Player))
	})
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && rank(out[i-1], out[i]) == 0 {
			out[i].Place = out[i-1].Place
		}
	}
	return out, nil
}

// rank compares two standings by the tie-breaks (Standings): the better
// first, 0 where they share a place.
func rank(a, b Standing) int {
	beyond := func(s Standing) Points {
		return s.Points.BestMove + s.Points.Extra + s.Points.AutoBonus + s.Points.Penalty
	}
	return cmp.Or(
		cmp.Compare(b.Points.Total, a.Points.Total),
		cmp.Compare(beyond(b), beyond(a)),
		cmp.Compare(b.Wins, a.Wins),
		cmp.Compare(b.CardWins, a.CardWins),
		cmp.Compare(b.FirstKilled, a.FirstKilled),
	)
}
