// Package scoring turns the club's evening into points and standings: each
// finished game's protocol (package protocol) scored by a scoring table, and
// the evening's games added up into one ordered list of players.
//
// A Table is data, not code, in the manner of mafiaratings' scoring tables
// (include/scoring.php): what a win brings, a best move by the black players
// it named, the referee's extra points and their bound, the auto-bonus, the
// penalties for leaving by a removal or by warnings, and the first killed's
// compensation, each policy switched on or off. FIIM returns the FIIM table
// ("ФИИМ") as mafiaratings encodes it, the default. Points are exact
// hundredths (Points), written in JSON as decimals.
//
// Game scores one protocol; the protocol is the game after the host's
// corrections, so a correction made on the console reaches the points when
// the game is scored again. Standings is a pure fold of the games' results:
// the same games in any order give the same standings.
//
//	t := scoring.FIIM()
//	r, err := scoring.Game(p, t, []scoring.Extra{{Seat: 4, Points: 30, Reason: "found the Don on day 1"}})
//	if err != nil { /* the game is not over, or an extra is out of bounds */ }
//	standings, err := scoring.Standings(t, []scoring.GameResult{
//		{Number: 1, Players: idsBySeat, Result: r},
//		// ... the evening's other games ...
//	})
//	data, _ := json.Marshal(standings) // place, name, games, wins, points and their parts
//
// Nothing here stores, sends or times anything: the evening's store keeps the
// results, and its pages show the standings.
package scoring
