package scoring

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"citysleeps/shared/names"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

// MaxReason is the longest reason for extra points, in characters, and
// MaxReasonBytes in bytes of UTF-8: 200 letters of Cyrillic or Greek (two
// bytes each) fit, 200 emoji (four) do not, so that a reason's size on the
// standings and in the stored evening is bounded by what it shows.
const (
	MaxReason      = 200
	MaxReasonBytes = 2 * MaxReason
)

// Extra is the referee's word on one seat after a game, entered on the
// console: extra points, up or down, within the table's bound, and the
// worst move ("худший ход"), which takes the seat's auto-bonus away. Either
// needs a reason, as mafiaratings asks a comment for every bonus.
type Extra struct {
	Seat      int    `json:"seat"`
	Points    Points `json:"points"`
	Reason    string `json:"reason"`
	WorstMove bool   `json:"worstMove,omitempty"`
}

// Result is one game scored: every seat's points and what they came from.
type Result struct {
	// Code is the game's room code.
	Code   string       `json:"code"`
	Winner rules.Team   `json:"winner"`
	Seats  []SeatResult `json:"seats"`
}

// SeatResult is one seat's game: the card, whether its side won, what the
// scoring read in the protocol, and the points.
type SeatResult struct {
	Seat int `json:"seat"`
	// Player is the player's id in the game (protocol.Seat.ID); the evening
	// knows its own ids (GameResult.Players).
	Player string     `json:"player"`
	Name   string     `json:"name"`
	Role   rules.Role `json:"role"`
	Team   rules.Team `json:"team"`
	// Won: the seat's side won. A Maniac on the mafia's side wins with the
	// mafia, and a lone Maniac read as the town's wins with the town
	// (R-MANIAC-11).
	Won bool `json:"won"`
	// Left is how the player left the game (protocol.LeftKilled…), if they did.
	Left string `json:"left,omitempty"`
	// FirstKilled: killed on the first night whose shots count (night 1, or
	// night 2 after a meeting night: R-CLASSIC-02, R-SPORT-02).
	FirstKilled bool      `json:"firstKilled,omitempty"`
	BestMove    *BestMove `json:"bestMove,omitempty"`
	// Reason and WorstMove are the referee's (Extra).
	Reason    string `json:"reason,omitempty"`
	WorstMove bool   `json:"worstMove,omitempty"`
	Points    Parts  `json:"points"`
}

// BestMove is a best move as the protocol keeps it: the seats named, and how
// many of them were black.
type BestMove struct {
	Targets []int `json:"targets"`
	Black   int   `json:"black"`
}

// Parts are points and what they came from; Total is their sum.
type Parts struct {
	Win          Points `json:"win"`
	BestMove     Points `json:"bestMove"`
	Extra        Points `json:"extra"`
	AutoBonus    Points `json:"autoBonus"`
	Penalty      Points `json:"penalty"`
	Compensation Points `json:"compensation"`
	Total        Points `json:"total"`
}

// sum adds up the parts but the total.
func (p Parts) sum() Points {
	return p.Win + p.BestMove + p.Extra + p.AutoBonus + p.Penalty + p.Compensation
}

// plus adds q to p, part by part.
func (p Parts) plus(q Parts) Parts {
	return Parts{Win: p.Win + q.Win, BestMove: p.BestMove + q.BestMove, Extra: p.Extra + q.Extra,
		AutoBonus: p.AutoBonus + q.AutoBonus, Penalty: p.Penalty + q.Penalty,
		Compensation: p.Compensation + q.Compensation, Total: p.Total + q.Total}
}

// Game scores one finished game by table t, with the referee's extras (at
// most one a seat). It reads the protocol as it is: the protocol is the game
// as it went on after the host's corrections (protocol.Correction), so a
// warning taken back is no foul and a removal taken back no penalty, and a
// game scored again after a correction scores as corrected.
//
// A seat gets, as t says: the win's points if its side won; its best move's,
// by how many black players it named; the referee's extra points; the
// auto-bonus, unless the referee named a worst move; the penalty of a removal
// or of the warnings that remove (R-SPORT-16); and, under a compensation
// without a Share, the first killed's compensation. A compensation with a
// Share depends on the whole evening, and Standings adds it.
//
// Game refuses a protocol of a game that is not over (ErrNotOver), one with no
// winner or a seat with no card, or one that lost the night of its best moves
// (ErrInvalidProtocol), an invalid table (ErrInvalidTable), and extras out of
// the table's bound, with no reason, or for a seat the game does not have
// (ErrInvalidExtra).
func Game(p protocol.Protocol, t Table, extras []Extra) (Result, error) {
	if err := t.Validate(); err != nil {
		return Result{}, err
	}
	if !p.Over {
		return Result{}, refusef(ErrNotOver, "game %s goes on", p.Code)
	}
	if !slices.Contains(teams, p.Winner) {
		return Result{}, refusef(ErrInvalidProtocol, "the winner is %q, not one of %v", p.Winner, teams)
	}
	for i, s := range p.Seats {
		if s.Seat != i+1 {
			return Result{}, refusef(ErrInvalidProtocol, "seat %d is numbered %d", i+1, s.Seat)
		}
		if !slices.Contains(roles, s.Role) || s.Team != s.Role.Team() {
			return Result{}, refusef(ErrInvalidProtocol, "seat %d has card %q on side %q", s.Seat, s.Role, s.Team)
		}
	}
	first := firstShotNight(p.Rules)
	if t.BestMove.On && p.Rules.BestMove && !p.Complete && p.WholeFrom > first {
		return Result{}, refusef(ErrInvalidProtocol, "the protocol is whole from night %d, and lost night %d, where the best move is made", p.WholeFrom, first)
	}
	moves, err := bestMoves(p)
	if err != nil {
		return Result{}, err
	}
	bySeat, err := checkExtras(t, len(p.Seats), extras)
	if err != nil {
		return Result{}, err
	}

	side := p.Rules.ManiacSide
	if p.ManiacSide != nil {
		side = p.ManiacSide.Side
	}
	r := Result{Code: p.Code, Winner: p.Winner, Seats: make([]SeatResult, len(p.Seats))}
	for i, s := range p.Seats {
		sr := SeatResult{Seat: s.Seat, Player: s.ID, Name: s.Name, Role: s.Role, Team: s.Team,
			Won: won(s.Team, p.Winner, side, p.Rules.LoneManiac)}
		if s.Left != nil {
			sr.Left = s.Left.How
			sr.FirstKilled = s.Left.How == protocol.LeftKilled && s.Left.Night == first
		}
		if sr.Won {
			sr.Points.Win = t.Win.For(s.Role, s.Team)
		}
		if m, ok := moves[s.Seat]; ok {
			sr.BestMove = &BestMove{Targets: slices.Clone(m.Targets), Black: m.Black}
			if t.BestMove.On && slices.Contains(t.BestMove.Teams, s.Team) {
				sr.Points.BestMove = t.BestMove.Points[m.Black]
			}
		}
		if t.Penalty.On {
			switch sr.Left {
			case protocol.LeftRemoved:
				sr.Points.Penalty = t.Penalty.Removed
			case protocol.LeftFouls:
				sr.Points.Penalty = t.Penalty.Fouls
			}
		}
		if c := t.Compensation; c.Share == 0 && compensated(c, sr) {
			sr.Points.Compensation = c.Points
		}
		r.Seats[i] = sr
	}
	return withExtras(t, r, bySeat), nil
}

// WithExtras returns r, a game scored by table t, with the referee's extras
// (at most one a seat) in place of those it was scored with: each seat's
// extra points, reason and worst move, so its auto-bonus and its total; a
// seat no extra names has none. It is the very step by which Game applies
// extras, so a game scored with none and given its extras here is the game
// Game scores with them. An evening relies on it: it keeps each game's result
// as scored without extras and adds the extras the referee entered, before
// or after the game ended, whenever it adds up the standings.
//
// It refuses an invalid table (ErrInvalidTable) and the extras Game refuses
// (ErrInvalidExtra).
func WithExtras(t Table, r Result, extras []Extra) (Result, error) {
	if err := t.Validate(); err != nil {
		return Result{}, err
	}
	bySeat, err := checkExtras(t, len(r.Seats), extras)
	if err != nil {
		return Result{}, err
	}
	return withExtras(t, r, bySeat), nil
}

// withExtras is WithExtras of extras checked and by seat. It writes to a copy
// of r's seats, so the caller's result is left as it was.
func withExtras(t Table, r Result, bySeat map[int]Extra) Result {
	r.Seats = slices.Clone(r.Seats)
	for i := range r.Seats {
		sr := &r.Seats[i]
		e := bySeat[sr.Seat]
		sr.Points.Extra, sr.Reason, sr.WorstMove = e.Points, e.Reason, e.WorstMove
		sr.Points.AutoBonus = 0
		if t.AutoBonus.On && !sr.WorstMove {
			sr.Points.AutoBonus = t.AutoBonus.Points
		}
		sr.Points.Total = sr.Points.sum()
	}
	return r
}

// firstShotNight is the first night whose shots count: night 1, or night 2
// when the first night is a meeting (R-CLASSIC-02, R-SPORT-02). The best move
// is made in the last word of that night's killed.
func firstShotNight(o rules.Options) int {
	if o.FirstNightMeeting {
		return 2
	}
	return 1
}

// won reports whether a seat on side team won when winner did. The Maniac's
// side is the host's last word (R-MANIAC-01); R-MANIAC-11 and the reading of
// a lone Maniac (rules.Options.LoneManiac) say whom he wins with.
func won(team, winner rules.Team, side rules.ManiacSide, lone rules.LoneManiac) bool {
	if team != rules.Loner {
		return team == winner
	}
	switch winner {
	case rules.MafiaTeam:
		return side == rules.ManiacMafia
	case rules.Town:
		return side != rules.ManiacMafia && lone == rules.LoneTown
	}
	return winner == rules.Loner
}

// killedFirst reports whether the seat counts towards c: killed first, on one
// of c's sides.
func killedFirst(c CompensationPolicy, s SeatResult) bool {
	return s.FirstKilled && slices.Contains(c.Teams, s.Team)
}

// compensated reports whether the seat's game brings c's compensation.
func compensated(c CompensationPolicy, s SeatResult) bool {
	return c.On && killedFirst(c, s) && !(c.LostOnly && s.Won)
}

// bestMoves are the protocol's best moves by the seat that made each.
func bestMoves(p protocol.Protocol) (map[int]protocol.BestMove, error) {
	moves := map[int]protocol.BestMove{}
	for _, n := range p.Nights {
		for _, m := range n.BestMoves {
			switch _, twice := moves[m.Seat]; {
			case m.Seat < 1 || m.Seat > len(p.Seats):
				return nil, refusef(ErrInvalidProtocol, "a best move by seat %d, which the game does not have", m.Seat)
			case twice:
				return nil, refusef(ErrInvalidProtocol, "seat %d made two best moves", m.Seat)
			case len(m.Targets) > rules.BestMoveMax || m.Black < 0 || m.Black > len(m.Targets):
				return nil, refusef(ErrInvalidProtocol, "seat %d's best move names %d seats, %d of them black", m.Seat, len(m.Targets), m.Black)
			}
			moves[m.Seat] = m
		}
	}
	return moves, nil
}

// checkExtras refuses extras t does not allow (CheckExtra) or two for one
// seat, and returns them by seat with their reasons trimmed.
func checkExtras(t Table, seats int, extras []Extra) (map[int]Extra, error) {
	bySeat := map[int]Extra{}
	for _, e := range extras {
		if _, twice := bySeat[e.Seat]; twice {
			return nil, refusef(ErrInvalidExtra, "seat %d: one entry a seat: change it rather than add another", e.Seat)
		}
		e, err := CheckExtra(t, seats, e)
		if err != nil {
			return nil, err
		}
		bySeat[e.Seat] = e
	}
	return bySeat, nil
}

// CheckExtra refuses an extra that t does not allow in a game of seats seats
// (ErrInvalidExtra), and returns it with its reason trimmed: the check Game
// and WithExtras make of each extra, for one who keeps an extra before its
// game is scored (an evening's referee enters them while the game plays) and
// must refuse it then rather than when the standings are added up. The reason
// is shown on the standings to the whole room, so it must be text that reads
// as it is: no control characters but new lines, and no direction marks
// that would turn the text around it.
func CheckExtra(t Table, seats int, e Extra) (Extra, error) {
	bad := func(format string, args ...any) error {
		return refusef(ErrInvalidExtra, "seat %d: "+format, append([]any{e.Seat}, args...)...)
	}
	e.Reason = strings.TrimSpace(e.Reason)
	switch {
	case e.Seat < 1 || e.Seat > seats:
		return Extra{}, bad("the game has seats 1 to %d", seats)
	case e.Points != 0 && !t.Extra.On:
		return Extra{}, bad("the table gives no extra points")
	case e.Points < t.Extra.Min || e.Points > t.Extra.Max:
		return Extra{}, bad("extra points are from %s to %s, not %s", t.Extra.Min, t.Extra.Max, e.Points)
	case e.WorstMove && !t.AutoBonus.On:
		return Extra{}, bad("the table has no auto-bonus for a worst move to take away")
	case e.Reason == "":
		return Extra{}, bad("extra points need a reason")
	case !utf8.ValidString(e.Reason) || utf8.RuneCountInString(e.Reason) > MaxReason || len(e.Reason) > MaxReasonBytes:
		return Extra{}, bad("a reason is at most %d characters, and %d bytes, of UTF-8", MaxReason, MaxReasonBytes)
	case names.Stacked(e.Reason):
		return Extra{}, bad("a reason may not stack more than two accents on a letter")
	case strings.ContainsFunc(e.Reason, func(r rune) bool {
		return unicode.IsControl(r) && r != '\n' || unicode.Is(unicode.Bidi_Control, r)
	}):
		return Extra{}, bad("a reason is text: no control characters but new lines, and no direction marks")
	}
	return e, nil
}
