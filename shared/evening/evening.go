package evening

import (
	"fmt"
	"slices"
	"strconv"

	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/seating"
)

// The bounds of an evening: a club's night is three or four tables and four to
// ten rounds; MaxRoster keeps the largest evening (10 full tables and their
// substitutes, 12 rounds) well inside one stored item.
const (
	MaxTables = 10
	MaxRounds = 12
	MaxRoster = 100
)

// State is one evening as it is stored. Players are numbered in the seating by
// their place in Players: player "p1" is the seating's player 0.
type State struct {
	Code      string        `json:"code"`
	Rules     rules.Options `json:"rules"`
	Moderator string        `json:"moderator"`
	// Moderators are each table's (ModeratorOf), once the organiser has
	// named them; nil while every table has Moderator.
	Moderators []string `json:"moderators,omitempty"`
	Lang       string   `json:"lang"`
	Tables     int      `json:"tables"`
	Rounds     int      `json:"rounds"`
	Players    []Player `json:"players"`
	// Seed is the seating's (seating.Options.Seed), drawn once when the
	// evening is made, so that every request that draws the seating draws
	// the same one.
	Seed uint64 `json:"seed"`
	// Schedule is the seating (seating.Schedule.MarshalBinary), nil until the
	// first round starts; Random is the Score a seating by lot of the same
	// plan and seed gets, the yardstick the view shows beside the schedule's.
	Schedule []byte  `json:"schedule,omitempty"`
	Random   float64 `json:"random,omitempty"`
	// Played holds the room codes of the rounds started so far, by table; ""
	// for a table closed that round.
	Played [][]string `json:"played,omitempty"`
	// Results are the finished games, scored, each recorded once (Record),
	// as scored without the referee's extra points: those are in Extras.
	Results []scoring.GameResult `json:"results,omitempty"`
	// Uncounted are the finished games that could not be counted (Record),
	// each with why: the round goes on without their points.
	Uncounted []Uncounted `json:"uncounted,omitempty"`
	// Extras are the referee's extra points (SetExtra), at most one for a
	// player in a game, whether the game is recorded yet or not; the
	// standings add them to their games' results (games).
	Extras []Extra `json:"extras,omitempty"`
	// HiddenFrom is, while the standings are hidden (HideStandings), the
	// first round (from 0) whose games the public's standings leave out;
	// nil while they are shown.
	HiddenFrom *int `json:"hiddenFrom,omitempty"`
	// Closed: the roster takes no new name from a phone, only the
	// organiser's (door.go); the first round's draw closes it.
	Closed bool `json:"closed,omitempty"`
}

// Player is one name on the roster.
type Player struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Joined: a phone has taken this name (Join); a name typed by the
	// organiser that no phone has taken still plays.
	Joined bool `json:"joined,omitempty"`
	// Absent: the organiser marked the player gone (Absent); they sit at no
	// table from then on, and keep the points of the games they played.
	Absent bool `json:"absent,omitempty"`
}

// Settings are what an organiser decides when making an evening. The names are
// already cleaned (the service's one check of names).
type Settings struct {
	Rules     rules.Options
	Moderator string
	// Moderators, if set, are each table's, one a table (State.Moderators).
	Moderators []string
	Lang       string
	Tables     int
	Rounds     int
	Names      []string
	Seed       uint64
}

// The evening's refusals. They are the rules engine's kind of error, so the
// service turns them into its own as it does the rules' refusals.
var (
	ErrNameTaken    = refuse(rules.Conflict, "name_taken", "that name is on the evening's roster already, and a phone has taken it")
	ErrRosterSmall  = refuse(rules.Conflict, "roster_too_small", "the roster cannot fill the tables")
	ErrRosterFull   = refuse(rules.Conflict, "roster_full", "the roster is full")
	ErrTablePlaying = refuse(rules.Conflict, "table_playing", "a table of the round is still playing")
	ErrEveningOver  = refuse(rules.Conflict, "evening_over", "every round of the evening has started")
	ErrNotOrganizer = refuse(rules.Forbidden, "not_organizer", "only the organiser may do that")
)

func refuse(k rules.Kind, code, msg string) *rules.Error {
	return &rules.Error{Kind: k, Code: code, Message: msg}
}

// refusef is a refusal like base with its own message.
func refusef(base *rules.Error, format string, args ...any) *rules.Error {
	return refuse(base.Kind, base.Code, fmt.Sprintf(format, args...))
}

// New returns an evening before its first round. The tables and rounds are
// bounded (1 to MaxTables, 1 to MaxRounds); a name may be on the roster once.
// A roster typed in may be short of the tables: a club types its regulars and
// the others join by the QR code at the door, so the first round, not the
// making, checks that the tables can be filled.
func New(code string, set Settings) (State, error) {
	switch {
	case set.Tables < 1 || set.Tables > MaxTables:
		return State{}, refuse(rules.Invalid, "invalid", fmt.Sprintf("tables must be 1 to %d", MaxTables))
	case set.Rounds < 1 || set.Rounds > MaxRounds:
		return State{}, refuse(rules.Invalid, "invalid", fmt.Sprintf("rounds must be 1 to %d", MaxRounds))
	case len(set.Names) > MaxRoster:
		return State{}, refusef(ErrRosterFull, "at most %d players on a roster", MaxRoster)
	}
	if err := checkModerators(set.Moderators, set.Tables); err != nil {
		return State{}, err
	}
	// The evening's seating gives every seat (seats 1, 2 and 10 matter most),
	// so its games keep the seats they are given instead of drawing them by
	// lot at the deal (R-SPORT-01's draw is the seating's, done for the
	// whole evening).
	set.Rules.DrawSeats = false
	s := State{Code: code, Rules: set.Rules, Moderator: set.Moderator, Lang: set.Lang,
		Tables: set.Tables, Rounds: set.Rounds, Seed: set.Seed, Players: []Player{}}
	if len(set.Moderators) > 0 {
		s.Moderators = slices.Clone(set.Moderators)
	}
	for _, name := range set.Names {
		if s.player(name) >= 0 {
			return State{}, refusef(ErrNameTaken, "%q is on the roster twice", name)
		}
		s.Players = append(s.Players, Player{ID: playerID(len(s.Players)), Name: name})
	}
	return s, nil
}

// need is how many players the tables take at the least.
func (s State) need() int { return s.Tables * s.Rules.MinPlayers }

func (s State) tooSmall() error {
	return refusef(ErrRosterSmall, "%d tables of these rules need at least %d players; the roster has %d present",
		s.Tables, s.need(), len(s.Present()))
}

// playerID is the id of the roster's i-th player.
func playerID(i int) string { return "p" + strconv.Itoa(i+1) }

// player is the index of the player named name on the roster, or -1.
func (s State) player(name string) int {
	return slices.IndexFunc(s.Players, func(p Player) bool { return p.Name == name })
}

// index is the roster index of player id, or -1.
func (s State) index(id string) int {
	n, err := strconv.Atoi(id[min(1, len(id)):])
	if err != nil || id == "" || id[0] != 'p' || n < 1 || n > len(s.Players) || s.Players[n-1].ID != id {
		return -1
	}
	return n - 1
}

// Name is the name of the roster's player id, "" for none.
func (s State) Name(id string) string {
	if i := s.index(id); i >= 0 {
		return s.Players[i].Name
	}
	return ""
}

// Join gives a phone the name on the roster, and returns the evening and the
// player's id. A name on the roster goes to the first phone that asks for it
// (ErrNameTaken for the next). A name not on it is a player who came late,
// while the roster is open (ErrRosterClosed): added to the roster before the
// seating is drawn, and after that seated from the next round on (seating's
// Late), as long as a round is left to play.
func Join(s State, name string) (State, string, error) {
	if i := s.player(name); i >= 0 {
		switch {
		case s.Players[i].Joined:
			return s, "", ErrNameTaken
		case s.Players[i].Absent:
			return s, "", refusef(ErrAbsent, "%q has left the evening: the organiser can add them again under another name", name)
		}
		n := s.clone()
		n.Players[i].Joined = true
		return n, n.Players[i].ID, nil
	}
	if s.Closed {
		return s, "", ErrRosterClosed
	}
	return s.add(name, true)
}

// Drawn reports whether the seating is drawn.
func (s State) Drawn() bool { return s.Schedule != nil }

// Draw draws the seating of the whole evening (seating.Draw with its default
// budget, well under a second of one core for 40 players over 10 rounds, so
// within a Lambda's request), from the evening's seed: the same roster always
// gives the same seating. Players marked Absent before it are not drawn. It
// closes the roster to the phones' new names (door.go). A drawn evening is
// returned as it is.
func Draw(s State) (State, error) {
	if s.Drawn() {
		return s, nil
	}
	sc, random, err := s.drawPresent()
	if err != nil {
		return s, err
	}
	n := s.clone()
	if n.Schedule, err = sc.MarshalBinary(); err != nil {
		return s, err
	}
	n.Random, n.Closed = random, true
	return n, nil
}

// seating decodes the drawn schedule.
func (s State) seating() (seating.Schedule, error) {
	var sc seating.Schedule
	if err := sc.UnmarshalBinary(s.Schedule); err != nil {
		return seating.Schedule{}, fmt.Errorf("evening %s: stored seating: %w", s.Code, err)
	}
	return sc, nil
}

// Seated returns who sits where in round (from 0) of a drawn evening: by
// table, the players' ids in seat order; nil for a closed table.
func Seated(s State, round int) ([][]string, error) {
	sc, err := s.seating()
	if err != nil {
		return nil, err
	}
	if round < 0 || round >= len(sc.Rounds) {
		return nil, fmt.Errorf("evening %s: no round %d", s.Code, round+1)
	}
	out := make([][]string, len(sc.Rounds[round].Tables))
	for t, table := range sc.Rounds[round].Tables {
		for _, p := range table {
			out[t] = append(out[t], playerID(p))
		}
	}
	return out, nil
}

// NextRound is the round (from 0) the organiser may start now: refused when
// every round has started (ErrEveningOver), and while a game of the round in
// play is not recorded (ErrTablePlaying), so that a player is never at two
// tables at once.
func NextRound(s State) (int, error) {
	if len(s.Played) >= s.Rounds {
		return 0, ErrEveningOver
	}
	if p := Pending(s); len(p) > 0 {
		return 0, refusef(ErrTablePlaying, "table %d of round %d is still playing", p[0].Table+1, p[0].Round+1)
	}
	return len(s.Played), nil
}

// Ready is the round (from 0) the organiser may start now (NextRound), and
// before the draw it checks at once that the roster can fill every table
// (ErrRosterSmall), which the draw would find only after its work.
func Ready(s State) (int, error) {
	r, err := NextRound(s)
	if err == nil && !s.Drawn() && len(s.Present()) < s.need() {
		err = s.tooSmall()
	}
	return r, err
}

// StartRound starts round (from 0) of a drawn evening with the room codes of
// its games by table ("" for a closed table), which the service made with the
// players of Seated. It refuses a round that is not NextRound, as when another
// request started it meanwhile.
func StartRound(s State, round int, codes []string) (State, error) {
	next, err := NextRound(s)
	if err != nil {
		return s, err
	}
	if round != next {
		return s, refusef(ErrTablePlaying, "round %d has started already", round+1)
	}
	seated, err := Seated(s, round)
	if err != nil {
		return s, err
	}
	if len(codes) != len(seated) {
		return s, fmt.Errorf("evening %s: %d games for %d tables", s.Code, len(codes), len(seated))
	}
	for t := range seated {
		if (codes[t] == "") != (seated[t] == nil) {
			return s, fmt.Errorf("evening %s: table %d's game does not match its seats", s.Code, t+1)
		}
	}
	n := s.clone()
	n.Played = append(n.Played, slices.Clone(codes))
	return n, nil
}

// Game is a game of the evening: its room code and where in the evening it is
// (round and table, from 0).
type Game struct {
	Code  string
	Round int
	Table int
}

// Number is the game's place in the evening (scoring.GameResult.Number).
func (s State) Number(g Game) int { return g.Round*s.Tables + g.Table + 1 }

// Pending returns the games started and not yet recorded, in the order they
// were started.
func Pending(s State) []Game {
	var out []Game
	for r, codes := range s.Played {
		for t, code := range codes {
			if code != "" && !s.Recorded(code) {
				out = append(out, Game{Code: code, Round: r, Table: t})
			}
		}
	}
	return out
}

// Recorded reports whether the game with this room code is recorded: counted
// in the standings, or found over and left out (Uncounted).
func (s State) Recorded(code string) bool {
	return slices.ContainsFunc(s.Results, func(g scoring.GameResult) bool { return g.Result.Code == code }) ||
		s.uncounted(code) != ""
}

// Uncounted is a finished game of the evening that could not be counted, and
// why, in words for the organiser.
type Uncounted struct {
	Code string `json:"code"`
	Why  string `json:"why"`
}

// uncounted is why the game with this room code was left out, or "".
func (s State) uncounted(code string) string {
	if i := slices.IndexFunc(s.Uncounted, func(u Uncounted) bool { return u.Code == code }); i >= 0 {
		return s.Uncounted[i].Why
	}
	return ""
}

// Record adds a finished game of the evening, scored (scoring.Game), and
// reports whether it did: a game already recorded is never recorded again,
// however many requests find it over, so each game counts once. The seats'
// players are the game's ids ("p3" sat down third at the table), which Record
// turns into the evening's by the round's seating.
//
// A game whose seats are not exactly the ones the seating made (which the
// seated lobby, rules.State.Table, leaves no way to, but a game stored
// before it could have) is recorded as Uncounted, with why: its points would
// go to someone who did not play them, and the evening goes on without them
// rather than stop.
func Record(s State, r scoring.Result) (State, bool, error) {
	if s.Recorded(r.Code) {
		return s, false, nil
	}
	g, ok := s.find(r.Code)
	if !ok {
		return s, false, fmt.Errorf("evening %s: game %s is not one of its games", s.Code, r.Code)
	}
	seated, err := Seated(s, g.Round)
	if err != nil {
		return s, false, err
	}
	players, why := seatsOf(seated[g.Table], r)
	n := s.clone()
	if why != "" {
		n.Uncounted = append(n.Uncounted, Uncounted{Code: r.Code,
			Why: fmt.Sprintf("table %d of round %d: %s, so its points are left out of the standings", g.Table+1, g.Round+1, why)})
		return n, true, nil
	}
	n.Results = append(n.Results, scoring.GameResult{Number: s.Number(g), Players: players, Result: r})
	return n, true, nil
}

// seatsOf turns the game's seats into the evening's players of its table (in
// seating order), or says why they are not exactly that table.
func seatsOf(table []string, r scoring.Result) ([]string, string) {
	if len(r.Seats) != len(table) {
		return nil, fmt.Sprintf("the game had %d players, the seating %d", len(r.Seats), len(table))
	}
	players := make([]string, len(r.Seats))
	for i, seat := range r.Seats {
		n, err := strconv.Atoi(seat.Player[min(1, len(seat.Player)):])
		if err != nil || n < 1 || n > len(table) || seat.Player[0] != 'p' || slices.Contains(players, table[n-1]) {
			return nil, fmt.Sprintf("%q sat in seat %d, whom the seating did not put there", seat.Name, seat.Seat)
		}
		players[i] = table[n-1]
	}
	return players, ""
}

// find is the started game with the room code.
func (s State) find(code string) (Game, bool) {
	for r, codes := range s.Played {
		if t := slices.Index(codes, code); t >= 0 {
			return Game{Code: code, Round: r, Table: t}, true
		}
	}
	return Game{}, false
}

// Scoring is the evening's scoring table: FIIM's, the default every evening
// has until the organiser can choose another.
func Scoring() scoring.Table { return scoring.FIIM() }

// clone copies s so that a change leaves the original as it was.
func (s State) clone() State {
	n := s
	n.Players = slices.Clone(s.Players)
	n.Played = slices.Clone(s.Played)
	n.Results = slices.Clone(s.Results)
	n.Uncounted = slices.Clone(s.Uncounted)
	n.Extras = slices.Clone(s.Extras)
	n.Moderators = slices.Clone(s.Moderators)
	return n
}
