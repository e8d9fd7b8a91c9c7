package seating_test

import (
	"fmt"

	"citysleeps/shared/seating"
)

func ExampleTableSizes() {
	sizes, err := seating.TableSizes(35, 4, 5, 20)
	fmt.Println(sizes, err)
	_, err = seating.TableSizes(30, 4, 10, 10)
	fmt.Println(err)
	// Output:
	// [9 9 9 8] <nil>
	// seating: too few players: 30 players cannot fill 4 tables of at least 10
}

func ExampleDraw() {
	plan := seating.Plan{Players: 45, Tables: 4, MinSeats: 10, MaxSeats: 10, Rounds: 9}
	s, err := seating.Draw(plan, seating.Options{Seed: 2024})
	if err != nil {
		panic(err)
	}
	fmt.Println("games of the first five:", s.Games()[:5])
	fmt.Println("sit out in round 1:", len(s.Rounds[0].SitOut))
	random, _ := seating.Random(plan, 2024)
	fmt.Println("better than by lot:", s.Score().Total() < random.Score().Total()/4)

	// Player 7 leaves before round 4: in each later round somebody who was to sit out
	// takes the seat.
	s, err = s.Absent(7, 3)
	if err != nil {
		panic(err)
	}
	fmt.Println("player 7 in round 4:", s.Place(3, 7))
	// Output:
	// games of the first five: [8 8 8 8 8]
	// sit out in round 1: 5
	// better than by lot: true
	// player 7 in round 4: {0 0 false}
}
