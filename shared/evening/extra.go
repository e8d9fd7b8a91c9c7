package evening

import (
	"fmt"
	"slices"

	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// The organiser's word on the standings: the referee's extra points for a
// player in a game (SetExtra), and the standings hidden from the room for a
// final round (HideStandings, ShowStandings).

// Extra is the referee's extra points for one player in one game of the
// evening, up or down within the scoring table's bound (scoring.ExtraPolicy),
// with the reason read out to the room. The evening keeps it by game and
// player, not by seat: the organiser names players, and an extra may come
// before its game is recorded, when only the seating says who sits where.
type Extra struct {
	// Game is the room code of the game, Player the evening's id of the
	// player who played it.
	Game   string         `json:"game"`
	Player string         `json:"player"`
	Points scoring.Points `json:"points"`
	Reason string         `json:"reason"`
	// WorstMove is the referee's "худший ход" (scoring.Extra.WorstMove),
	// which takes the player's auto-bonus in the game away.
	WorstMove bool `json:"worstMove,omitempty"`
}

// The refusals of the organiser's word on the standings.
var (
	// ErrInvalidExtra: extra points beyond the table's bound, or with no
	// reason or one that is not plain text (scoring.CheckExtra says which).
	// It carries scoring's code, so the API has one word for a bad extra.
	ErrInvalidExtra = refuse(rules.Invalid, scoring.ErrInvalidExtra.Code, "invalid extra points")
	// ErrStandingsHidden: the standings are hidden already.
	ErrStandingsHidden = refuse(rules.Conflict, "standings_hidden", "the standings are hidden already")
	// ErrStandingsShown: the standings are not hidden, so there is nothing to show.
	ErrStandingsShown = refuse(rules.Conflict, "standings_shown", "the standings are not hidden")
)

// SetExtra sets the referee's extra points for a player in a game of the
// evening: the game must be one the evening started (recorded or still in
// play), the player one seated at it, the points within the table's bound
// and the reason 1 to scoring.MaxReason characters of text, trimmed
// (scoring.CheckExtra). It replaces the player's extra in that game, if any:
// one value a player a game, so the referee corrects an extra by entering it
// again; Points 0 without a worst move takes it away, and needs no reason.
//
// The extra is kept apart from the game's result, and the standings add it
// (games), so it counts the same whether it came before the game was
// recorded or after.
//
// The reasons of all the evening's extras hold MaxReasons bytes at most: an
// extra is one a player a game, and 10 tables of 12 rounds seat 1,200 of
// them, whose longest reasons (scoring.MaxReasonBytes) would not fit the
// stored evening; a club's referees write a few words each.
func SetExtra(s State, e Extra) (State, error) {
	g, ok := s.find(e.Game)
	if !ok {
		return s, refusef(rules.ErrBadTarget, "%q is not a game of the evening's rounds started so far", e.Game)
	}
	seated, err := Seated(s, g.Round)
	if err != nil {
		return s, err
	}
	players := seated[g.Table]
	seat := slices.Index(players, e.Player) + 1
	if seat == 0 {
		return s, refusef(rules.ErrBadTarget, "%q did not play game %s (round %d, table %d)", e.Player, e.Game, g.Round+1, g.Table+1)
	}
	if e.Points != 0 || e.WorstMove {
		checked, err := scoring.CheckExtra(Scoring(), len(players), scoring.Extra{Seat: seat, Points: e.Points, Reason: e.Reason, WorstMove: e.WorstMove})
		if err != nil {
			msg := err.Error()
			if se, ok := scoring.AsError(err); ok {
				msg = se.Message
			}
			return s, refusef(ErrInvalidExtra, "%s in game %s: %s", e.Player, e.Game, msg)
		}
		e.Reason = checked.Reason
		if total := s.reasons(e) + len(e.Reason); total > MaxReasons {
			return s, refusef(ErrInvalidExtra, "the evening's reasons hold %d bytes at most, and this one would make %d: write it shorter", MaxReasons, total)
		}
	}
	n := s.clone()
	n.Extras = slices.DeleteFunc(n.Extras, func(x Extra) bool { return x.Game == e.Game && x.Player == e.Player })
	if e.Points != 0 || e.WorstMove {
		n.Extras = append(n.Extras, e)
	}
	return n, nil
}

// MaxReasons bounds the bytes of all the reasons of an evening's extras.
const MaxReasons = 48 << 10

// reasons is the bytes of the reasons of the evening's extras, but the one
// e replaces.
func (s State) reasons(e Extra) int {
	n := 0
	for _, x := range s.Extras {
		if x.Game != e.Game || x.Player != e.Player {
			n += len(x.Reason)
		}
	}
	return n
}

// HideStandings hides the standings from everyone but the organiser, for a
// final round whose winner the room should learn only at the end: from then
// on the public's standings (and a player's) are those of the rounds before
// the round in play, or, between rounds, of every round played, so they stay
// as they stood before the hidden round started; the organiser sees them
// whole. They are hidden by round, not by game, so that a game of the round
// ending before the others shows no more than one still playing. Hiding the
// standings once every game is recorded would hide nothing (ErrEveningOver),
// and hiding them twice is ErrStandingsHidden.
func HideStandings(s State) (State, error) {
	if s.HiddenFrom != nil {
		return s, ErrStandingsHidden
	}
	from := len(s.Played)
	if len(Pending(s)) > 0 {
		from-- // the round in play
	}
	if from >= s.Rounds {
		return s, refusef(ErrEveningOver, "every game of the evening is recorded: there is no round left to hide")
	}
	n := s.clone()
	n.HiddenFrom = &from
	return n, nil
}

// ShowStandings shows the hidden standings to everyone
// (ErrStandingsShown if they are not hidden).
func ShowStandings(s State) (State, error) {
	if s.HiddenFrom == nil {
		return s, ErrStandingsShown
	}
	n := s.clone()
	n.HiddenFrom = nil
	return n, nil
}

// Hides reports whether the viewer may not see the points of round (from 0)
// now: the standings are hidden from that round on, and the viewer is not
// the organiser.
func (s State) Hides(v Viewer, round int) bool {
	return s.HiddenFrom != nil && !v.Organizer && round >= *s.HiddenFrom
}

// games are the recorded games the viewer may see (Hides), each with its
// extras. The extras are added here, when the standings are added up, rather
// than written into the recorded result: the result stays the game's score
// as Record took it, an extra entered before the game ended or after it is
// the same entry in Extras, and changing one changes nothing else, so the
// standings are always exactly the sum of the games' points with their
// extras (scoring.WithExtras is the step scoring.Game applies extras by; a
// game with none is left as it was scored, with none).
func (s State) games(v Viewer) ([]scoring.GameResult, error) {
	var out []scoring.GameResult
	for _, g := range s.Results {
		if s.Hides(v, (g.Number-1)/s.Tables) {
			continue
		}
		var extras []scoring.Extra
		for _, e := range s.Extras {
			if e.Game != g.Result.Code {
				continue
			}
			seat := slices.Index(g.Players, e.Player) + 1
			if seat == 0 {
				return nil, fmt.Errorf("evening %s: an extra for %s, who is not in game %s", s.Code, e.Player, e.Game)
			}
			extras = append(extras, scoring.Extra{Seat: seat, Points: e.Points, Reason: e.Reason, WorstMove: e.WorstMove})
		}
		if len(extras) > 0 {
			r, err := scoring.WithExtras(Scoring(), g.Result, extras)
			if err != nil {
				return nil, err
			}
			g.Result = r
		}
		out = append(out, g)
	}
	return out, nil
}

// extrasOf are the extras of the game with a room code, in the order of its
// players (the round's seating, players[0] in seat 1).
func (s State) extrasOf(code string, players []string) []Extra {
	var out []Extra
	for _, p := range players {
		i := slices.IndexFunc(s.Extras, func(e Extra) bool { return e.Game == code && e.Player == p })
		if i >= 0 {
			out = append(out, s.Extras[i])
		}
	}
	return out
}
