package evening

import (
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// Viewer is who looks at an evening: the organiser, a player of the roster by
// id, or nobody in particular (Public: the TV, anyone with the code).
type Viewer struct {
	Organizer bool
	Player    string
	// Referee is the table (from 1) whose referee token the viewer holds.
	Referee int
}

// Public is the viewer without a token.
var Public = Viewer{}

// View is what one viewer sees of an evening. Everything but You is public: a
// club's roster, seating, standings and the referee's extra points with their
// reasons are read out in the room anyway; only while the standings are
// hidden (HiddenFrom) does the organiser see more of them than the others.
type View struct {
	Code      string        `json:"code"`
	Version   int64         `json:"version"`
	Rules     rules.Options `json:"rules"`
	Moderator string        `json:"moderator"`
	// Moderators are each table's moderator for the rounds to come, one a
	// table (State.ModeratorOf); a game keeps the one it was made with.
	Moderators []string `json:"moderators"`
	Lang       string   `json:"lang"`
	Tables     int      `json:"tables"`
	// RoundCount is the rounds planned; Round the rounds started, so the one
	// in play, from 1 (0 before the first).
	RoundCount int                `json:"roundCount"`
	Round      int                `json:"round"`
	Players    []Player           `json:"players"`
	Rounds     []RoundView        `json:"rounds"`
	Standings  []scoring.Standing `json:"standings"`
	// HiddenFrom is, while the standings are hidden, the first round (from
	// 1) whose games they leave out for all but the organiser, whose
	// standings are whole; 0 while they are shown.
	HiddenFrom int `json:"hiddenFrom,omitempty"`
	// RosterClosed: the roster takes no new name from a phone (State.Closed),
	// so a join page offers only the names on it.
	RosterClosed bool `json:"rosterClosed,omitempty"`
	// Quality is the seating's, once it is drawn.
	Quality   *Quality `json:"quality"`
	Organizer bool     `json:"organizer,omitempty"`
	You       *You     `json:"you,omitempty"`
	// Referees are the tables' consoles: every table's, with its referee
	// token, for the organiser; the referee's own table's for a referee;
	// none for others.
	Referees []Referee `json:"referees,omitempty"`
	// Reseat is the one-time link that moves a player's place to another
	// phone, in the answer to the organiser's "reseat" only, as a game's
	// (rules.View.Reseat): the service makes its key, of which it keeps only
	// a hash, and the HTTP layer its address. Target is the player's id.
	Reseat *rules.SeatLink `json:"reseat,omitempty"`
	// Moving lists the players whose link to another phone is still open,
	// in roster order, in the organiser's view only (the service sets it,
	// as a game's rules.View.Moving), so that the organiser's page knows when
	// a link it shows has been used.
	Moving []string `json:"moving,omitempty"`
}

// RoundView is one round of the seating: each table's players and, once the
// round has started, its game.
type RoundView struct {
	Round  int         `json:"round"`
	Tables []TableView `json:"tables"`
	// SitOut are those present who do not play this round.
	SitOut []string `json:"sitOut,omitempty"`
}

// TableView is one table of a round; a closed table has no players and no game.
type TableView struct {
	Table int    `json:"table"`
	Game  string `json:"game,omitempty"`
	// Over: the game has ended and is counted in the standings, or left out
	// of them (Uncounted); the organiser's page starts the next round once
	// every table is over. A game's end is public: its own view shows it to
	// anyone.
	Over bool `json:"over,omitempty"`
	// Uncounted says why a game that ended could not be counted (State.
	// Uncounted): the organiser's page shows it beside the table.
	Uncounted string   `json:"uncounted,omitempty"`
	Players   []string `json:"players"`
	// Extras are the referee's extra points at this game, in seat order,
	// left out where the viewer may not see the round's points (State.Hides).
	Extras []Extra `json:"extras,omitempty"`
}

// Quality is the seating's Score in mafiaratings' measure (0 is perfect), as
// it stands after every change of the roster, over the players it seats and,
// for comparison, the Score of a seating drawn by lot for the same evening.
type Quality struct {
	Score  float64 `json:"score"`
	Random float64 `json:"random"`
}

// You is a player's own place in the round in play: table and seat from 1,
// and the game with the token of the player's seat there (the service fills
// GameToken in, from a key the evening keeps secret). Table is 0 while the
// player sits out, or before the first round.
type You struct {
	PlayerID  string `json:"playerId"`
	Name      string `json:"name"`
	Table     int    `json:"table,omitempty"`
	Seat      int    `json:"seat,omitempty"`
	Game      string `json:"game,omitempty"`
	GameToken string `json:"gameToken,omitempty"`
}

// ViewOf is the viewer's view of the evening. Its standings are folded from
// the recorded games the viewer may see, with their extras (games and
// scoring.Standings), so that nothing of a hidden round reaches another than
// the organiser: not its points, nor its games counted, nor a player who
// played only there. It fails only on a stored evening that cannot be read
// back.
func ViewOf(s State, v Viewer) (View, error) {
	games, err := s.games(v)
	if err != nil {
		return View{}, err
	}
	standings, err := scoring.Standings(Scoring(), games)
	if err != nil {
		return View{}, err
	}
	out := View{Code: s.Code, Rules: s.Rules, Moderator: s.Moderator, Moderators: s.moderators(), Lang: s.Lang,
		Tables: s.Tables, RoundCount: s.Rounds, Round: len(s.Played), RosterClosed: s.Closed,
		Players: s.Players, Rounds: []RoundView{}, Standings: standings, Organizer: v.Organizer,
		Referees: s.referees(v)}
	if s.HiddenFrom != nil {
		out.HiddenFrom = *s.HiddenFrom + 1
	}
	if s.Drawn() {
		sc, err := s.seating()
		if err != nil {
			return View{}, err
		}
		out.Quality = &Quality{Score: quality(sc), Random: s.Random}
		for r := range sc.Rounds {
			seated, err := Seated(s, r)
			if err != nil {
				return View{}, err
			}
			rv := RoundView{Round: r + 1, Tables: make([]TableView, len(seated))}
			for t, players := range seated {
				rv.Tables[t] = TableView{Table: t + 1, Players: players}
				if r < len(s.Played) {
					rv.Tables[t].Game = s.Played[r][t]
					rv.Tables[t].Over = s.Recorded(rv.Tables[t].Game)
					rv.Tables[t].Uncounted = s.uncounted(rv.Tables[t].Game)
					if !s.Hides(v, r) {
						rv.Tables[t].Extras = s.extrasOf(rv.Tables[t].Game, players)
					}
				}
			}
			for _, p := range sc.Rounds[r].SitOut {
				rv.SitOut = append(rv.SitOut, playerID(p))
			}
			out.Rounds = append(out.Rounds, rv)
		}
	}
	if i := s.index(v.Player); i >= 0 {
		out.You = &You{PlayerID: v.Player, Name: s.Players[i].Name}
		if r := len(s.Played) - 1; r >= 0 {
			for _, t := range out.Rounds[r].Tables {
				for k, p := range t.Players {
					if p == v.Player {
						out.You.Table, out.You.Seat, out.You.Game = t.Table, k+1, t.Game
					}
				}
			}
		}
	}
	return out, nil
}
