// Package seating draws the seating of a club's evening of Mafia: many tables, several
// rounds, and for every round who sits at which table and seat, and who sits out.
//
// The whole evening is drawn before the first round. Everyone plays the same number of
// games when the seats allow it (otherwise the counts differ by one), and those who sit
// out take turns. Among such schedules Draw searches for one in which every two players
// meet about as often as any other two, and every player's seats (seats 1, 2 and 10
// matter most at a sport table) and tables are spread over the evening. How well it did is a Score, the
// measure of mafiaratings' include/seating.php: squared deviations of pair meetings,
// seat numbers and tables, 0 when perfect.
//
//	sizes, err := seating.TableSizes(35, 4, 5, 20) // 9, 9, 9, 8: everyone plays
//	plan := seating.Plan{Players: 40, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 10}
//	s, err := seating.Draw(plan, seating.Options{Seed: seed})
//	where := s.Place(0, 17) // player 17 in round 1: table and seat, or sits out
//	s.Score().Total()       // compare: seating.Random(plan, seed)
//
// Before a round begins the organiser may swap two players, mark one absent, or add one
// who came late. Each change takes effect from a given round on (rounds are numbered
// from 0) and returns a new schedule in which the rounds before it are exactly as they
// were, and the rest changed only as far as it must be for the evening to stay fair: in
// every round those who have played the fewest games so far play, those who have played
// the most sit out, and among equals those who were to play still play. A player who
// keeps a table keeps the seat; a seat that empties is taken, in this order, by a player
// whose seat at the same table is gone, by one whose table shrank or closed, and by one
// who was to sit out or is new. Improve may follow, to seat the changed rounds better:
//
//	s, err = s.Absent(17, 3)                               // player 17 leaves before round 4
//	s, moved, err := s.Improve(3, seating.Options{Seed: 1}) // then better seats from round 4 on
//	b, err := s.MarshalBinary()                            // a few hundred bytes, for storage
//
// Everything here is pure: no I/O, no clock, and the only randomness is a generator
// seeded from the caller's seed, so a plan and a seed always give the same evening.
package seating
