// Package evening is the club's evening of Mafia as pure state and rules: the
// roster, the tables and rounds, the seating drawn for the whole evening
// (package seating), the room codes of each round's games, and every finished
// game's points (package scoring). It does no I/O and reads no clock: the
// service loads an evening, changes it with these functions and stores it back
// under its version, as it does a game.
//
// An evening goes: New with the settings and the names typed in; Join as phones
// take those names (or come late); StartRound, which draws the seating at the
// first round (Draw) and takes the room codes of the games the service made for
// the round; Record of each game once it is over, at most once per room code;
// and again StartRound once every table of the round is recorded. Before a
// round begins the organiser may Swap two players, mark one Absent or add a
// Late one; each changes the seating from the next round not yet started on,
// never a round started or a game recorded. The organiser also enters the
// referee's extra points for a player in a game (SetExtra), before or after
// the game is recorded, and may hide the standings from all but the organiser
// for a final round (HideStandings, ShowStandings). The standings are never
// stored: View folds them from the recorded games the viewer may see, each
// with its extras (scoring.WithExtras, then scoring.Standings), so they are
// always exactly the sum of the games' points with their extras.
//
//	s, err := evening.New("K7QX2M", evening.Settings{Rules: opts, Moderator: "app", Lang: "en",
//		Tables: 2, Rounds: 3, Names: names, Seed: seed})
//	s, id, err := evening.Join(s, "Аня")            // a phone takes "Аня"
//	s, err = evening.Draw(s)                        // before round 1
//	tables, err := evening.Seated(s, 0)             // who sits where in round 1
//	s, err = evening.StartRound(s, 0, codes)        // the round's games, by table
//	s, recorded, err := evening.Record(s, result)   // a game over, scored (once)
//	v, err := evening.ViewOf(s, evening.Viewer{Player: id})
//	rec, err := evening.RecordOf(s)                 // for a club's files
//	err = rec.WriteCSV(w)                           // its games, one row a seat
//
// RecordOf's record (docs/EVENING-RECORD.md) takes its rounds and standings
// from the public view, so it never folds the games a second time.
package evening
