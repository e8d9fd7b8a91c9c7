package evening

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
)

// RecordSchemaVersion is the version of an evening's record (RecordSheet), as
// docs/EVENING-RECORD.md tells it. A club's own tools (an archive, a rating
// table) read the record, so it goes up when a field goes or changes its
// meaning; a new field does not change it, as with the protocol's
// (protocol.SchemaVersion).
const RecordSchemaVersion = 1

// RecordSheet is the evening for a club's files: its settings, its roster, the
// rounds started with each table's game and players, every recorded game's
// result for each player, and the standings. It is public, as the evening's
// public view is: it holds no token and no card that is not on a finished
// game's protocol.
type RecordSheet struct {
	SchemaVersion int           `json:"schemaVersion"`
	Code          string        `json:"code"`
	Rules         rules.Options `json:"rules"`
	Moderator     string        `json:"moderator"`
	Lang          string        `json:"lang"`
	Tables        int           `json:"tables"`
	// RoundCount is the rounds planned; Rounds the ones started.
	RoundCount int            `json:"roundCount"`
	Players    []RecordPlayer `json:"players"`
	Rounds     []RoundView    `json:"rounds"`
	// Games are the recorded games, by their number in the evening.
	Games     []RecordGame       `json:"games"`
	Standings []scoring.Standing `json:"standings"`
}

// RecordPlayer is one name on the roster. Whether a phone took it (Player's
// Joined) is left out: it is how the evening was run, not what happened in it.
type RecordPlayer struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Absent bool   `json:"absent"`
}

// RecordGame is one recorded game: where it was played (round and table from
// 1, and its number in the evening as the standings count it), who won, and
// every seat's result.
type RecordGame struct {
	Number int          `json:"number"`
	Round  int          `json:"round"`
	Table  int          `json:"table"`
	Game   string       `json:"game"`
	Winner rules.Team   `json:"winner"`
	Seats  []RecordSeat `json:"seats"`
}

// RecordSeat is one seat's game as scoring has it (scoring.SeatResult), named
// by the evening's player id. Player hides the embedded SeatResult.Player, the
// seat's id in its game ("p3" sat down third at that table): encoding/json
// takes the shallower of two fields of one name, so a reader sees only the
// evening's id, the one the roster and the standings use.
type RecordSeat struct {
	scoring.SeatResult
	Player string `json:"player"`
}

// RecordOf is the evening's record as it stands. Its rounds and standings are
// the public view's (ViewOf): the standings are folded once, by the view, so
// the record can never disagree with what the TV shows, and whatever the
// public may not see the record does not show either. Only the rounds
// started are in it (the rest of the seating may still change), and only the
// games recorded.
func RecordOf(s State) (RecordSheet, error) {
	v, err := ViewOf(s, Public)
	if err != nil {
		return RecordSheet{}, err
	}
	rec := RecordSheet{SchemaVersion: RecordSchemaVersion, Code: v.Code, Rules: v.Rules, Moderator: v.Moderator,
		Lang: v.Lang, Tables: v.Tables, RoundCount: v.RoundCount, Players: make([]RecordPlayer, len(v.Players)),
		Rounds: v.Rounds[:min(v.Round, len(v.Rounds))], Games: make([]RecordGame, 0, len(s.Results)),
		Standings: v.Standings}
	for i, p := range v.Players {
		rec.Players[i] = RecordPlayer{ID: p.ID, Name: p.Name, Absent: p.Absent}
	}
	for r := range rec.Rounds {
		// A closed table has no players: [] in a record, not null, so that a
		// reader can take every table's players as a list. (The view is this
		// call's own, so changing it changes nothing stored.)
		for t := range rec.Rounds[r].Tables {
			if rec.Rounds[r].Tables[t].Players == nil {
				rec.Rounds[r].Tables[t].Players = []string{}
			}
		}
	}
	// The games as the standings add them up: with their extras, and none
	// of a round whose standings are hidden (games).
	played, err := s.games(Public)
	if err != nil {
		return RecordSheet{}, err
	}
	results := slices.SortedFunc(slices.Values(played), func(a, b scoring.GameResult) int { return cmp.Compare(a.Number, b.Number) })
	for _, g := range results {
		at, ok := s.find(g.Result.Code)
		if !ok {
			return RecordSheet{}, fmt.Errorf("evening %s: recorded game %s was never started", s.Code, g.Result.Code)
		}
		// The view's fold has checked every game (scoring.Standings): one
		// player a seat, so g.Players[i] is seat i+1's.
		seats := make([]RecordSeat, len(g.Result.Seats))
		for i, sr := range g.Result.Seats {
			seats[i] = RecordSeat{SeatResult: sr, Player: g.Players[i]}
		}
		rec.Games = append(rec.Games, RecordGame{Number: g.Number, Round: at.Round + 1, Table: at.Table + 1,
			Game: g.Result.Code, Winner: g.Result.Winner, Seats: seats})
	}
	return rec, nil
}

// recordColumn is one column of the record's CSV: its header and its cell in
// a seat's row.
type recordColumn struct {
	name string
	cell func(g RecordGame, s RecordSeat) string
}

// partColumn is the column of one part of a seat's points.
func partColumn(name string, part func(scoring.Parts) scoring.Points) recordColumn {
	return recordColumn{name, func(_ RecordGame, s RecordSeat) string { return part(s.Points).String() }}
}

// recordColumns are the CSV's columns in order, each header beside how its
// cells are written, so that the two cannot drift apart.
var recordColumns = []recordColumn{
	{"round", func(g RecordGame, _ RecordSeat) string { return strconv.Itoa(g.Round) }},
	{"table", func(g RecordGame, _ RecordSeat) string { return strconv.Itoa(g.Table) }},
	{"game", func(g RecordGame, _ RecordSeat) string { return g.Game }},
	{"seat", func(_ RecordGame, s RecordSeat) string { return strconv.Itoa(s.Seat) }},
	{"player", func(_ RecordGame, s RecordSeat) string { return s.Player }},
	{"name", func(_ RecordGame, s RecordSeat) string { return spreadsheetText(s.Name) }},
	{"role", func(_ RecordGame, s RecordSeat) string { return string(s.Role) }},
	{"team", func(_ RecordGame, s RecordSeat) string { return string(s.Team) }},
	// 1 or 0, so that a spreadsheet's SUM of the column counts the wins.
	{"won", func(_ RecordGame, s RecordSeat) string {
		if s.Won {
			return "1"
		}
		return "0"
	}},
	partColumn("points", func(p scoring.Parts) scoring.Points { return p.Total }),
	partColumn("win", func(p scoring.Parts) scoring.Points { return p.Win }),
	partColumn("bestMove", func(p scoring.Parts) scoring.Points { return p.BestMove }),
	partColumn("extra", func(p scoring.Parts) scoring.Points { return p.Extra }),
	partColumn("autoBonus", func(p scoring.Parts) scoring.Points { return p.AutoBonus }),
	partColumn("penalty", func(p scoring.Parts) scoring.Points { return p.Penalty }),
	partColumn("compensation", func(p scoring.Parts) scoring.Points { return p.Compensation }),
}

// WriteCSV writes the record's games as CSV (RFC 4180: encoding/csv's quoting,
// CRLF line ends, UTF-8): a header row, then one row for each seat of each
// recorded game, the games in their order and each game's seats in seat
// order. A CSV is one table, so it is this one only: the roster, the rounds
// and the standings are the JSON record's, and a spreadsheet sums these rows
// into standings itself.
func (r RecordSheet) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	row := make([]string, len(recordColumns))
	for i, c := range recordColumns {
		row[i] = c.name
	}
	if err := cw.Write(row); err != nil {
		return err
	}
	for _, g := range r.Games {
		for _, s := range g.Seats {
			for i, c := range recordColumns {
				row[i] = c.cell(g, s)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// spreadsheetText guards a cell of free text for the spreadsheets a club
// opens the CSV in. Excel, LibreOffice and Google Sheets take a cell that
// begins with =, +, - or @ for a formula (and some strip a leading tab or
// carriage return before they look), so a player who joined as
// =HYPERLINK("http://…") would have a formula run on the computer of whoever
// opens the club's file: CSV injection, as OWASP names it. A leading
// apostrophe makes them show the text as it is. Only the names need it: every
// other cell is the app's own (ids, codes, roles, and numbers, whose minus is
// a negative number meant as one).
func spreadsheetText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
