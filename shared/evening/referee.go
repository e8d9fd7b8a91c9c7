package evening

import "citysleeps/shared/rules"

// Who moderates each table: the app, or a referee with the table's own
// console link. A club puts a referee at its top table and lets the app run
// the others, or loses a referee after round 4 and hands that table to the
// app; so the choice is the table's, and the organiser may change it before
// any round (SetModerator). A game keeps the moderator it was made with.

// Referee is a table's console as a view shows it: the table (from 1), who
// moderates it, its game in the round in play, if any, and, in the
// organiser's view only, the table's referee token (the service fills it in,
// from the evening's key). That token is the host token of every game the
// table plays and of nothing else: the referee handed it moderates that
// table, round after round, and cannot change the evening.
type Referee struct {
	Table     int    `json:"table"`
	Moderator string `json:"moderator"`
	Game      string `json:"game,omitempty"`
	Token     string `json:"token,omitempty"`
}

// ErrNotYourTable: a referee giving extra points at a game of another table.
var ErrNotYourTable = refuse(rules.Forbidden, "not_your_table", "a referee gives extra points at their own table's games only")

// AtTable reports whether the game with a room code is one the evening
// started at table (from 1): a referee's own, whose extra points they give.
func (s State) AtTable(code string, table int) bool {
	g, ok := s.find(code)
	return ok && g.Table+1 == table
}

// ErrBadModerator: a moderator other than the app or a person, or a list of
// them that is not one a table.
var ErrBadModerator = refuse(rules.Invalid, "invalid", `a table's moderator must be "app" or "host"`)

// checkModerators refuses a table's moderators list that is not one of
// rules.ModeratorApp or rules.ModeratorHost a table; none is every table the
// evening's moderator.
func checkModerators(ms []string, tables int) error {
	if len(ms) == 0 {
		return nil
	}
	if len(ms) != tables {
		return refusef(ErrBadModerator, "moderators must name one moderator a table: %d for %d tables", len(ms), tables)
	}
	for _, m := range ms {
		if m != rules.ModeratorApp && m != rules.ModeratorHost {
			return ErrBadModerator
		}
	}
	return nil
}

// ModeratorOf is who moderates table t (from 0) in the games started from now
// on: the table's own, or the evening's for an evening that names none.
func (s State) ModeratorOf(t int) string {
	if t < len(s.Moderators) {
		return s.Moderators[t]
	}
	return s.Moderator
}

// SetModerator makes moderator the one of table (from 1) for the rounds that
// start after it; the game in play keeps its own. It is refused once every
// round has started (ErrEveningOver), since no game would take it.
func SetModerator(s State, table int, moderator string) (State, error) {
	switch {
	case table < 1 || table > s.Tables:
		return s, refusef(rules.ErrBadTarget, "table must be 1 to %d", s.Tables)
	case moderator != rules.ModeratorApp && moderator != rules.ModeratorHost:
		return s, ErrBadModerator
	case len(s.Played) >= s.Rounds:
		return s, refusef(ErrEveningOver, "every round has started: no game would take a new moderator")
	}
	n := s.clone()
	n.Moderators = s.moderators()
	n.Moderators[table-1] = moderator
	return n, nil
}

// referees are the tables' consoles the viewer may know of: every table's for
// the organiser, the viewer's own table's for its referee, none for others.
// The game is the table's in the round in play.
func (s State) referees(v Viewer) []Referee {
	var out []Referee
	for t := range s.Tables {
		if !v.Organizer && v.Referee != t+1 {
			continue
		}
		r := Referee{Table: t + 1, Moderator: s.ModeratorOf(t)}
		if n := len(s.Played); n > 0 {
			r.Game = s.Played[n-1][t]
		}
		out = append(out, r)
	}
	return out
}

// moderators are the tables' moderators, one a table.
func (s State) moderators() []string {
	out := make([]string, s.Tables)
	for t := range out {
		out[t] = s.ModeratorOf(t)
	}
	return out
}
