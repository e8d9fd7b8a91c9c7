package scoring

import (
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"

	"citysleeps/shared/rules"
)

// Table is a club's scoring table: what each thing that happens in a game
// brings the player who did it or had it happen to them, as data rather than
// code, so that a club's variant is a document. It follows the idea of
// mafiaratings' scoring tables (include/scoring.php): groups of policies, each
// saying what happened, for which cards, and how many points. Here the groups
// are the win ("main" there), the best move ("legacy"), the referee's extra
// points and the auto-bonus ("extra"), the penalties ("penalty") and the
// first killed's compensation ("night1"). FIIM is the default.
type Table struct {
	// Name names the table where the standings are shown: "FIIM".
	Name         string             `json:"name"`
	Win          WinPolicy          `json:"win"`
	BestMove     BestMovePolicy     `json:"bestMove"`
	Extra        ExtraPolicy        `json:"extra"`
	AutoBonus    AutoBonusPolicy    `json:"autoBonus"`
	Penalty      PenaltyPolicy      `json:"penalty"`
	Compensation CompensationPolicy `json:"compensation"`
}

// WinPolicy is what a win brings. A loss brings nothing.
type WinPolicy struct {
	// Points is what a win brings any seat that Teams and Roles do not name.
	Points Points `json:"points"`
	// Teams gives a side's win other points than Points.
	Teams map[rules.Team]Points `json:"teams,omitempty"`
	// Roles gives a card's win other points than its side's: some clubs
	// reward the Sheriff's or the Don's win apart.
	Roles map[rules.Role]Points `json:"roles,omitempty"`
}

// For is what a win brings a seat with this card on this side.
func (w WinPolicy) For(role rules.Role, team rules.Team) Points {
	if p, ok := w.Roles[role]; ok {
		return p
	}
	if p, ok := w.Teams[team]; ok {
		return p
	}
	return w.Points
}

// BestMovePolicy is what a best move brings (rules.Options.BestMove): the
// player killed on the first night whose shots count names, in the last word,
// up to three players as black, and scores by how many of them were.
type BestMovePolicy struct {
	On bool `json:"on"`
	// Points[n] is what a best move with n black players among those named
	// brings, n from 0 to rules.BestMoveMax.
	Points [rules.BestMoveMax + 1]Points `json:"points"`
	// Teams are the sides whose best move scores: the town's, in FIIM (the
	// red cards, "roles 3" in mafiaratings' data). Another's is kept in the
	// standings' count of best moves but brings nothing.
	Teams []rules.Team `json:"teams"`
}

// ExtraPolicy bounds the referee's extra points (Extra): points for one seat
// in one game, up or down, entered on the console with a reason.
type ExtraPolicy struct {
	On bool `json:"on"`
	// Min and Max bound one seat's extra points in one game, Min ≤ 0 ≤ Max.
	Min Points `json:"min"`
	Max Points `json:"max"`
}

// AutoBonusPolicy is FIIM's auto-bonus ("автодопы"): points every seat gets
// in every game unless the referee takes them away by naming a worst move
// (Extra.WorstMove).
type AutoBonusPolicy struct {
	On     bool   `json:"on"`
	Points Points `json:"points"`
}

// PenaltyPolicy is what leaving the game for a breach costs (R-SPORT-16):
// a removal by the host (protocol.LeftRemoved) and the warning that removes
// (protocol.LeftFouls). Each is zero or less.
type PenaltyPolicy struct {
	On      bool   `json:"on"`
	Removed Points `json:"removed"`
	Fouls   Points `json:"fouls"`
}

// CompensationPolicy is the first killed's compensation (FIIM's "Ci"): a
// player killed on the first night whose shots count, on one of Teams, gets
// points for that game, for a lost game only when LostOnly.
//
// With Share 0 every such game brings Points. With a Share, the compensation
// depends on the player's whole evening, as FIIM's does: for each such game
// the player gets Points × killed ÷ expected, at most Points, where killed is
// how many of the player's games of the evening they were killed first on one
// of Teams (won or lost), and expected is Share percent of the games they
// played, rounded to a whole game. It is rounded to hundredths once per game.
// Game cannot know it, so Standings adds it (PerGame).
type CompensationPolicy struct {
	On       bool         `json:"on"`
	Points   Points       `json:"points"`
	Share    int          `json:"share"`
	Teams    []rules.Team `json:"teams"`
	LostOnly bool         `json:"lostOnly"`
}

// PerGame is the compensation for each game a player was killed first in and
// that c compensates: games is how many games of the evening they played,
// killed how many of them they were killed first in on one of Teams. Without
// a Share it is Points. With one, expected is Share percent of games, the
// half rounded up, and the compensation Points × killed ÷ expected, at most
// Points, in hundredths with the half rounded up; where expected is no game
// (fewer than half a game), Points. FIIM: killed first in 1 of 4 games, 0.25.
func (c CompensationPolicy) PerGame(games, killed int) Points {
	if !c.On || killed <= 0 || games <= 0 {
		return 0
	}
	if c.Share == 0 {
		return c.Points
	}
	expected := (games*c.Share + 50) / 100
	if expected == 0 || killed >= expected {
		return c.Points
	}
	// Points × killed ÷ expected in hundredths, the half rounded up.
	return Points((2*int64(c.Points)*int64(killed) + int64(expected)) / (2 * int64(expected)))
}

// FIIM is the default table: the FIIM scoring ("ФИИМ", scoring 19) as
// mafiaratings encodes it in its latest version, 7 (db/alter153.sql, with
// include/scoring.php reading it):
//   - a win: 1, whatever the card;
//   - the best move, of a red player: 0.5 for two black players named, 0.7
//     for three, nothing for fewer;
//   - the referee's extra points, as entered (bonus()); the bound of ±0.7 is
//     this table's, as FIIM's data leaves them unbounded;
//   - the auto-bonus: 0.3 for every player, taken away by a worst move;
//   - a removal or the warnings that remove: −0.5;
//   - Ci, the first killed's compensation: for each lost game a red player
//     was killed in on the first night, 0.5 × killed ÷ round(0.4 × games),
//     at most 0.5, counted over the evening.
//
// Its matters with nothing in this game's protocols to match are left out: a
// surrender (−0.5), and a removal that makes the other side win (−0.7).
func FIIM() Table {
	town := []rules.Team{rules.Town}
	return Table{
		Name:         "FIIM",
		Win:          WinPolicy{Points: Point},
		BestMove:     BestMovePolicy{On: true, Points: [rules.BestMoveMax + 1]Points{0, 0, 50, 70}, Teams: town},
		Extra:        ExtraPolicy{On: true, Min: -70, Max: 70},
		AutoBonus:    AutoBonusPolicy{On: true, Points: 30},
		Penalty:      PenaltyPolicy{On: true, Removed: -50, Fouls: -50},
		Compensation: CompensationPolicy{On: true, Points: 50, Share: 40, Teams: slices.Clone(town), LostOnly: true},
	}
}

// teams and roles are the sides and cards a table may name.
var (
	teams = []rules.Team{rules.Town, rules.MafiaTeam, rules.Loner}
	roles = []rules.Role{rules.Citizen, rules.Mafia, rules.Don, rules.Sheriff, rules.Doctor, rules.Lover,
		rules.Advocate, rules.Cinderella, rules.Maniac}
)

// maxName is the longest table name, in characters.
const maxName = 60

// Validate refuses a table that cannot be scored by, naming the value (by its
// JSON path) and what it must be: every value within ±MaxPoints, a win worth
// nothing less than zero, penalties of zero or less, an extra bound around
// zero, a compensation share in percent, sides and cards the game has, and
// every policy that is on counting for some side.
func (t Table) Validate() error {
	bad := func(format string, args ...any) error { return refusef(ErrInvalidTable, format, args...) }
	if n := utf8.RuneCountInString(t.Name); n > maxName || !utf8.ValidString(t.Name) {
		return bad("name must be at most %d characters of UTF-8", maxName)
	}
	within := func(path string, p Points) error {
		if p < -MaxPoints || p > MaxPoints {
			return bad("%s must be between %s and %s, not %s", path, -MaxPoints, MaxPoints, p)
		}
		return nil
	}
	type value struct {
		path string
		p    Points
	}
	wins := []value{{"win.points", t.Win.Points}}
	for _, team := range slices.Sorted(maps.Keys(t.Win.Teams)) {
		wins = append(wins, value{"win.teams." + string(team), t.Win.Teams[team]})
	}
	for _, role := range slices.Sorted(maps.Keys(t.Win.Roles)) {
		wins = append(wins, value{"win.roles." + string(role), t.Win.Roles[role]})
	}
	values := []value{{"extra.min", t.Extra.Min}, {"extra.max", t.Extra.Max}, {"autoBonus.points", t.AutoBonus.Points},
		{"penalty.removed", t.Penalty.Removed}, {"penalty.fouls", t.Penalty.Fouls}, {"compensation.points", t.Compensation.Points}}
	for n, p := range t.BestMove.Points {
		values = append(values, value{fmt.Sprintf("bestMove.points[%d]", n), p})
	}
	for _, v := range append(wins, values...) {
		if err := within(v.path, v.p); err != nil {
			return err
		}
	}
	for _, v := range wins {
		if v.p < 0 {
			return bad("%s must not be below 0: a win never costs points", v.path)
		}
	}
	for team := range t.Win.Teams {
		if !slices.Contains(teams, team) {
			return bad("win.teams names %q, which is not a side (%v)", team, teams)
		}
	}
	for role := range t.Win.Roles {
		if !slices.Contains(roles, role) {
			return bad("win.roles names %q, which is not a card (%v)", role, roles)
		}
	}
	if err := checkTeams("bestMove.teams", t.BestMove.On, t.BestMove.Teams); err != nil {
		return err
	}
	if err := checkTeams("compensation.teams", t.Compensation.On, t.Compensation.Teams); err != nil {
		return err
	}
	if t.Extra.Min > 0 || t.Extra.Max < 0 {
		return bad("extra.min must be 0 or less and extra.max 0 or more, not %s and %s", t.Extra.Min, t.Extra.Max)
	}
	if t.Extra.On && t.Extra.Min == t.Extra.Max {
		return bad("extra points that are on need extra.min below extra.max")
	}
	if t.Penalty.Removed > 0 || t.Penalty.Fouls > 0 {
		return bad("penalty.removed and penalty.fouls must be 0 or less, not %s and %s", t.Penalty.Removed, t.Penalty.Fouls)
	}
	if t.Compensation.Points < 0 {
		return bad("compensation.points must be 0 or more, not %s", t.Compensation.Points)
	}
	if t.Compensation.Share < 0 || t.Compensation.Share > 100 {
		return bad("compensation.share is a percentage of the games, from 0 to 100, not %d", t.Compensation.Share)
	}
	return nil
}

// checkTeams refuses a list of sides that names one twice or one the game does
// not have, or, for a policy that is on, names none.
func checkTeams(path string, on bool, list []rules.Team) error {
	for i, team := range list {
		if !slices.Contains(teams, team) {
			return refusef(ErrInvalidTable, "%s names %q, which is not a side (%v)", path, team, teams)
		}
		if slices.Contains(list[:i], team) {
			return refusef(ErrInvalidTable, "%s names %q twice", path, team)
		}
	}
	if on && len(list) == 0 {
		return refusef(ErrInvalidTable, "%s names no side, so the policy would count for nobody", path)
	}
	return nil
}
