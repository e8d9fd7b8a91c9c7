package evening

import (
	"bufio"
	"cmp"
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
// a seat's row; decimal: the cell is a decimal number, written with the
// decimal mark of the evening's language (CSVDecimal).
type recordColumn struct {
	name    string
	cell    func(g RecordGame, s RecordSeat) string
	decimal bool
}

// partColumn is the column of one part of a seat's points.
func partColumn(name string, part func(scoring.Parts) scoring.Points) recordColumn {
	return recordColumn{name, func(_ RecordGame, s RecordSeat) string { return part(s.Points).String() }, true}
}

// recordColumns are the CSV's columns in order, each header beside how its
// cells are written, so that the two cannot drift apart.
var recordColumns = []recordColumn{
	{"round", func(g RecordGame, _ RecordSeat) string { return strconv.Itoa(g.Round) }, false},
	{"table", func(g RecordGame, _ RecordSeat) string { return strconv.Itoa(g.Table) }, false},
	{"game", func(g RecordGame, _ RecordSeat) string { return g.Game }, false},
	{"seat", func(_ RecordGame, s RecordSeat) string { return strconv.Itoa(s.Seat) }, false},
	{"player", func(_ RecordGame, s RecordSeat) string { return s.Player }, false},
	{"name", func(_ RecordGame, s RecordSeat) string { return spreadsheetText(s.Name) }, false},
	{"role", func(_ RecordGame, s RecordSeat) string { return string(s.Role) }, false},
	{"team", func(_ RecordGame, s RecordSeat) string { return string(s.Team) }, false},
	// 1 or 0, so that a spreadsheet's SUM of the column counts the wins.
	{"won", func(_ RecordGame, s RecordSeat) string {
		if s.Won {
			return "1"
		}
		return "0"
	}, false},
	partColumn("points", func(p scoring.Parts) scoring.Points { return p.Total }),
	partColumn("win", func(p scoring.Parts) scoring.Points { return p.Win }),
	partColumn("bestMove", func(p scoring.Parts) scoring.Points { return p.BestMove }),
	partColumn("extra", func(p scoring.Parts) scoring.Points { return p.Extra }),
	partColumn("autoBonus", func(p scoring.Parts) scoring.Points { return p.AutoBonus }),
	partColumn("penalty", func(p scoring.Parts) scoring.Points { return p.Penalty }),
	partColumn("compensation", func(p scoring.Parts) scoring.Points { return p.Compensation }),
}

// CSVMark is the byte order mark the CSV begins with: Excel reads a CSV as
// UTF-8 only after it (else as the system's code page, which turns Cyrillic
// names into mojibake); LibreOffice and Google Sheets take it as well.
const CSVMark = "\uFEFF"

// CSVSeparator is the list separator of the CSV of an evening in lang, and
// CSVDecimal its decimal mark: those of the spreadsheets of a club that
// speaks it. Excel opens a CSV with the system's list separator, which is
// ';' wherever the decimal mark is a comma (Russian, Ukrainian and Romanian
// settings), so a comma-separated file there is one column of garble.
func CSVSeparator(lang string) rune {
	if CSVDecimal(lang) == "," {
		return ';'
	}
	return ','
}

// CSVDecimal is the decimal mark of the CSV of an evening in lang
// (CSVSeparator).
func CSVDecimal(lang string) string {
	switch lang {
	case "ru", "uk", "ro":
		return ","
	}
	return "."
}

// WriteCSV writes the record's games as CSV in the way of the evening's
// language (CSVMark, CSVSeparator, CSVDecimal): a header row, then one row
// for each seat of each recorded game, the games in their order and each
// game's seats in seat order, with CRLF line ends as RFC 4180 has them. Every
// field is quoted (RFC 4180 allows it; every spreadsheet reads a quoted
// number as a number): a separator inside a name then never splits its
// cell, whichever separator the spreadsheet that opens the file splits on,
// so no part of a name starts a cell of its own (a name "x;=1+2" is one cell
// that begins with x, not a formula cell "=1+2" where ';' separates lists).
// A CSV is one table, so it is this one only: the roster, the rounds and the
// standings are the JSON record's, and a spreadsheet sums these rows into
// standings itself.
func (r RecordSheet) WriteCSV(w io.Writer) error {
	sep, decimal := string(CSVSeparator(r.Lang)), CSVDecimal(r.Lang)
	b := bufio.NewWriter(w)
	b.WriteString(CSVMark)
	row := func(cell func(c recordColumn) string) {
		for i, c := range recordColumns {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(`"` + strings.ReplaceAll(cell(c), `"`, `""`) + `"`)
		}
		b.WriteString("\r\n")
	}
	row(func(c recordColumn) string { return c.name })
	for _, g := range r.Games {
		for _, s := range g.Seats {
			row(func(c recordColumn) string {
				v := c.cell(g, s)
				if c.decimal {
					v = strings.Replace(v, ".", decimal, 1)
				}
				return v
			})
		}
	}
	return b.Flush()
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
