package seating

// Score is the quality of a schedule in the measure of mafiaratings' include/seating.php:
// three sums of squared deviations from what a perfectly even evening would give. Lower
// is better and 0 is perfect. As there, each part is 0 as soon as none of its
// deviations reaches 1 (an evening cannot be more even than whole games allow), and
// otherwise the full sum.
//
//   - Pairs: for every pair of players, the games they play together minus the mean over
//     all pairs, squared. With equal games and tables of 10 the mean is games × 9 /
//     (players − 1), as in include/seating.php.
//   - Seats: for every player and seat number, the games in that seat minus the share
//     expected (games / 10 at tables of 10), squared and weighted 4 for seat 1, 3 for
//     seat 2, 2 for seat 10 and 1 for the others, all times 4; plus the same for
//     neighbouring pairs of seats (1–2, 3–4, …) times 2, and for the two halves of the
//     table (1–5 and 6–10) times 1.
//   - Tables: for every player and table, the games at that table minus the share
//     expected (games / tables), squared. As in include/seating.php, evenings of one or
//     two tables score 0 here (the draw still spreads their tables).
//
// The measure is carried over to what include/seating.php does not have: with tables of
// other sizes a player's expected share of a seat or a table is the sum, over the games
// the player plays, of that seat's or table's share of the game's seats; the seat numbers
// are those of the widest table, paired 1–2, 3–4, … (an odd last seat alone is in no
// pair) and halved with the odd middle seat in the first half; with unequal games the
// pairs' mean is the seats' pairs over all pairs of players.
type Score struct {
	Pairs  float64
	Seats  float64
	Tables float64
}

// Total returns the sum of the three parts, the one number two schedules are compared by.
func (s Score) Total() float64 { return s.Pairs + s.Seats + s.Tables }

// The weights of include/seating.php's seat numbers score.
const (
	singleWeight = 4 // every single seat number, on top of seatWeight
	pairWeight   = 2 // neighbouring seats 1–2, 3–4, …
	halfWeight   = 1 // seats 1–5 and 6–10
)

// seatWeight returns how much seat number seat (from 1) matters, as include/seating.php
// weighs it: seats 1, 2 and 10 most, in that order.
func seatWeight(seat int) int {
	switch seat {
	case 1:
		return 4
	case 2:
		return 3
	case 10:
		return 2
	}
	return 1
}

// seatGroups describes the seat numbers 1..seats: pairOf[k] is the neighbouring pair of
// seat k+1 (-1 for the last seat of an odd count), halfOf[k] its half (0 or 1).
func seatGroups(seats int) (pairOf, halfOf []int) {
	pairOf = make([]int, seats)
	halfOf = make([]int, seats)
	for k := range seats {
		pairOf[k] = k / 2
		if k == seats-1 && seats%2 == 1 {
			pairOf[k] = -1
		}
		if k >= (seats+1)/2 {
			halfOf[k] = 1
		}
	}
	return pairOf, halfOf
}

// widest returns the largest table of the schedule: the seat numbers in use are 1..widest.
func (s Schedule) widest() int {
	w := 0
	for _, r := range s.Rounds {
		for _, table := range r.Tables {
			w = max(w, len(table))
		}
	}
	return w
}

// Score returns the quality of s (see Score).
func (s Schedule) Score() Score {
	n, nt, ns := s.Players, s.Tables(), s.widest()
	if n == 0 || ns == 0 {
		return Score{}
	}
	meet := make([]int, n*n)
	seatCount := make([]float64, n*ns)
	seatShare := make([]float64, n*ns)
	tableCount := make([]float64, n*nt)
	tableShare := make([]float64, n*nt)
	pairsSeated := 0
	for _, r := range s.Rounds {
		seated := 0
		for _, table := range r.Tables {
			seated += len(table)
		}
		for t, table := range r.Tables {
			size := len(table)
			pairsSeated += size * (size - 1) / 2
			for k, p := range table {
				for _, q := range table[k+1:] {
					meet[p*n+q]++
				}
				seatCount[p*ns+k]++
				for j := range size {
					seatShare[p*ns+j] += 1 / float64(size)
				}
				tableCount[p*nt+t]++
				for u, other := range r.Tables {
					tableShare[p*nt+u] += float64(len(other)) / float64(seated)
				}
			}
		}
	}
	var sc Score

	if n >= 2 {
		mean := float64(pairsSeated) / float64(n*(n-1)/2)
		perfect := true
		for p := range n {
			for q := p + 1; q < n; q++ {
				d := float64(meet[p*n+q]+meet[q*n+p]) - mean
				d = float64(d * d) // the conversions keep a*b+c unfused: the same sums on every machine
				perfect = perfect && d < 1
				sc.Pairs += d
			}
		}
		if perfect {
			sc.Pairs = 0
		}
	}

	pairOf, halfOf := seatGroups(ns)
	perfect := true
	add := func(sum *float64, weight, d float64) {
		d = float64(d * d)
		perfect = perfect && d < 1
		*sum += float64(weight * d)
	}
	for p := range n {
		var pairDev [SeatLimit / 2]float64
		var halfDev [2]float64
		for k := range ns {
			d := seatCount[p*ns+k] - seatShare[p*ns+k]
			add(&sc.Seats, float64(singleWeight*seatWeight(k+1)), d)
			if pairOf[k] >= 0 {
				pairDev[pairOf[k]] += d
			}
			halfDev[halfOf[k]] += d
		}
		for _, d := range pairDev[:ns/2] {
			add(&sc.Seats, pairWeight, d)
		}
		for _, d := range halfDev {
			add(&sc.Seats, halfWeight, d)
		}
	}
	if perfect {
		sc.Seats = 0
	}

	if nt >= 3 {
		perfect := true
		// include/seating.php calls the tables perfect when no player is at a table a whole
		// game less than expected; here, like the other parts, when no one is a whole game
		// off either way.
		for i := range n * nt {
			d := tableCount[i] - tableShare[i]
			d = float64(d * d)
			perfect = perfect && d < 1
			sc.Tables += d
		}
		if perfect {
			sc.Tables = 0
		}
	}
	return sc
}
