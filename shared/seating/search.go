package seating

import (
	"math/bits"
	"math/rand/v2"
)

// scale turns the expected shares of seats and tables, fractions of a game, into whole
// numbers, so that the search does the same sums on every machine. It is the least
// common multiple of 1..16, exact for every table of up to 16 seats.
const scale = 720720

// rng draws the search's random numbers from a PCG seeded by the caller's seed. Only the
// generator's raw output is used (through intn), so a seed gives the same evening with
// every Go release.
type rng struct{ src *rand.PCG }

func newRNG(seed uint64) *rng { return &rng{src: rand.NewPCG(seed, 0x63697479736c6565)} }

// intn returns a number in [0, n), unbiased (Lemire's multiply-and-reject).
func (g *rng) intn(n int) int {
	hi, lo := bits.Mul64(g.src.Uint64(), uint64(n))
	if lo < uint64(n) {
		floor := -uint64(n) % uint64(n)
		for lo < floor {
			hi, lo = bits.Mul64(g.src.Uint64(), uint64(n))
		}
	}
	return int(hi)
}

// shuffle puts xs in a random order (Fisher–Yates).
func (g *rng) shuffle(xs []int) {
	for i := len(xs) - 1; i > 0; i-- {
		j := g.intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// engine improves the seating of the rounds from a given one on, by swaps that keep who
// plays in each round: two players at different tables exchange places, two players at
// one table exchange seats, or two tables of the same size exchange their games. It
// keeps the counts the score is made of, so a swap's effect on the score is known from a
// few of them. Its objective is Score's sums before the "nothing reaches 1" rule, in
// units of 1/scale; the pairs' mean and the constants drop out of the differences.
type engine struct {
	n, nt, ns int // players, tables, seat numbers
	from      int // the first round the engine may change
	rounds    []eround

	// The rounds (from from on) where players can change tables, and where seats can change.
	crossRounds, seatRounds []int

	meet           []int32 // meet[p*n+q]: games p and q play together
	tc, sc, gc, hc []int32 // per player: games at each table, in each seat, pair of seats, half
	te, se, ge, he []int64 // the same, expected, times scale
	sw             []int64 // the weight of each seat number
	pairOf, halfOf []int
	// Whether moving players between tables weighs their tables. Score leaves out the
	// tables of an evening of one or two tables; there the search spreads them only by
	// exchanging whole games between tables, which costs the pairs nothing.
	crossTables bool
}

// eround is one round as the engine sees it: the seated players one table after another.
type eround struct {
	slot    []int32    // player at each seat of the round
	start   []int32    // table t holds slot[start[t]:start[t+1]]
	tableOf []int32    // table of each slot
	seatOf  []int32    // seat number (from 0) of each slot
	twins   [][2]int32 // pairs of open tables of the same size
}

// newEngine returns the engine for s that may change the rounds from round from on.
func newEngine(s Schedule, from int) *engine {
	e := &engine{n: s.Players, nt: s.Tables(), ns: s.widest(), from: from}
	e.crossTables = e.nt >= 3
	n, nt, ns := e.n, e.nt, e.ns
	e.meet = make([]int32, n*n)
	e.tc, e.te = make([]int32, n*nt), make([]int64, n*nt)
	e.sc, e.se = make([]int32, n*ns), make([]int64, n*ns)
	e.gc, e.ge = make([]int32, n*(ns/2)), make([]int64, n*(ns/2))
	e.hc, e.he = make([]int32, n*2), make([]int64, n*2)
	e.pairOf, e.halfOf = seatGroups(ns)
	e.sw = make([]int64, ns)
	for k := range ns {
		e.sw[k] = int64(singleWeight * seatWeight(k+1))
	}
	e.rounds = make([]eround, len(s.Rounds))
	for ri, r := range s.Rounds {
		er := &e.rounds[ri]
		er.start = make([]int32, nt+1)
		seated, open, canSwapSeats := 0, 0, false
		for t, table := range r.Tables {
			er.start[t] = int32(seated)
			for k, p := range table {
				er.slot = append(er.slot, int32(p))
				er.tableOf = append(er.tableOf, int32(t))
				er.seatOf = append(er.seatOf, int32(k))
			}
			seated += len(table)
			if len(table) > 0 {
				open++
			}
			canSwapSeats = canSwapSeats || len(table) > 1
			for u := t + 1; u < nt; u++ {
				if len(table) > 0 && len(r.Tables[u]) == len(table) {
					er.twins = append(er.twins, [2]int32{int32(t), int32(u)})
				}
			}
		}
		er.start[nt] = int32(seated)
		if ri >= from && open > 1 {
			e.crossRounds = append(e.crossRounds, ri)
		}
		if ri >= from && canSwapSeats {
			e.seatRounds = append(e.seatRounds, ri)
		}
		for t, table := range r.Tables {
			for k, p := range table {
				for _, q := range table[k+1:] {
					e.meet[p*n+q]++
					e.meet[q*n+p]++
				}
				e.tc[p*nt+t]++
				e.countSeat(p, k, 1)
				for u, other := range r.Tables {
					e.te[p*nt+u] += int64(len(other)) * scale / int64(seated)
				}
				for j := range len(table) {
					share := scale / int64(len(table))
					e.se[p*ns+j] += share
					if g := e.pairOf[j]; g >= 0 {
						e.ge[p*(ns/2)+g] += share
					}
					e.he[p*2+e.halfOf[j]] += share
				}
			}
		}
	}
	return e
}

func (e *engine) countSeat(p, k int, by int32) {
	e.sc[p*e.ns+k] += by
	if g := e.pairOf[k]; g >= 0 {
		e.gc[p*(e.ns/2)+g] += by
	}
	e.hc[p*2+e.halfOf[k]] += by
}

// step returns the change of weight × (count − expected/scale)², times scale, when count
// goes up (up true) or down by one.
func step(count int32, expected int64, up bool) int64 {
	c := int64(count)
	if up {
		return scale*(2*c+1) - 2*expected
	}
	return scale*(1-2*c) + 2*expected
}

// tableMove is the change of the tables sum when player p moves from table a to table b.
func (e *engine) tableMove(p, a, b int) int64 {
	if a == b {
		return 0
	}
	i, j := p*e.nt+a, p*e.nt+b
	return step(e.tc[j], e.te[j], true) + step(e.tc[i], e.te[i], false)
}

// seatMove is the change of the seats sum when player p moves from seat index a to b.
func (e *engine) seatMove(p, a, b int) int64 {
	if a == b {
		return 0
	}
	i, j := p*e.ns+a, p*e.ns+b
	d := e.sw[b]*step(e.sc[j], e.se[j], true) + e.sw[a]*step(e.sc[i], e.se[i], false)
	if ga, gb := e.pairOf[a], e.pairOf[b]; ga != gb {
		w := e.ns / 2
		if gb >= 0 {
			d += pairWeight * step(e.gc[p*w+gb], e.ge[p*w+gb], true)
		}
		if ga >= 0 {
			d += pairWeight * step(e.gc[p*w+ga], e.ge[p*w+ga], false)
		}
	}
	if ha, hb := e.halfOf[a], e.halfOf[b]; ha != hb {
		d += halfWeight * (step(e.hc[p*2+hb], e.he[p*2+hb], true) + step(e.hc[p*2+ha], e.he[p*2+ha], false))
	}
	return d
}

// crossDelta is the change of the objective when the players in slots i and j, at
// different tables, exchange places; withSeats counts their seat numbers too.
func (e *engine) crossDelta(r *eround, i, j int, withSeats bool) int64 {
	a, b := int(r.slot[i]), int(r.slot[j])
	ta, tb := int(r.tableOf[i]), int(r.tableOf[j])
	ma, mb := e.meet[a*e.n:(a+1)*e.n], e.meet[b*e.n:(b+1)*e.n]
	var d int64
	for _, x := range r.slot[r.start[ta]:r.start[ta+1]] {
		d += int64(mb[x] - ma[x] + 1)
	}
	for _, y := range r.slot[r.start[tb]:r.start[tb+1]] {
		d += int64(ma[y] - mb[y] + 1)
	}
	// The loops took in a and b themselves (a player never meets himself): take out
	// mb[a]+1 and ma[b]+1.
	d = 2 * (d - 2*int64(ma[b]) - 2) * scale
	if e.crossTables {
		d += e.tableMove(a, ta, tb) + e.tableMove(b, tb, ta)
	}
	if withSeats {
		d += e.seatMove(a, int(r.seatOf[i]), int(r.seatOf[j])) + e.seatMove(b, int(r.seatOf[j]), int(r.seatOf[i]))
	}
	return d
}

func (e *engine) crossApply(r *eround, i, j int) {
	a, b := int(r.slot[i]), int(r.slot[j])
	ta, tb := int(r.tableOf[i]), int(r.tableOf[j])
	n := e.n
	for _, x := range r.slot[r.start[ta]:r.start[ta+1]] {
		if int(x) != a {
			e.meet[a*n+int(x)]--
			e.meet[int(x)*n+a]--
			e.meet[b*n+int(x)]++
			e.meet[int(x)*n+b]++
		}
	}
	for _, y := range r.slot[r.start[tb]:r.start[tb+1]] {
		if int(y) != b {
			e.meet[b*n+int(y)]--
			e.meet[int(y)*n+b]--
			e.meet[a*n+int(y)]++
			e.meet[int(y)*n+a]++
		}
	}
	e.tc[a*e.nt+ta]--
	e.tc[a*e.nt+tb]++
	e.tc[b*e.nt+tb]--
	e.tc[b*e.nt+ta]++
	e.seatApply(r, i, j)
}

// seatApply exchanges the players in slots i and j and their seat counts.
func (e *engine) seatApply(r *eround, i, j int) {
	a, b := int(r.slot[i]), int(r.slot[j])
	si, sj := int(r.seatOf[i]), int(r.seatOf[j])
	e.countSeat(a, si, -1)
	e.countSeat(a, sj, 1)
	e.countSeat(b, sj, -1)
	e.countSeat(b, si, 1)
	r.slot[i], r.slot[j] = int32(b), int32(a)
}

func (e *engine) twinDelta(r *eround, ta, tb int) int64 {
	var d int64
	for _, p := range r.slot[r.start[ta]:r.start[ta+1]] {
		d += e.tableMove(int(p), ta, tb)
	}
	for _, p := range r.slot[r.start[tb]:r.start[tb+1]] {
		d += e.tableMove(int(p), tb, ta)
	}
	return d
}

func (e *engine) twinApply(r *eround, ta, tb int) {
	ia, ib := int(r.start[ta]), int(r.start[tb])
	for k := range int(r.start[ta+1]) - ia {
		a, b := int(r.slot[ia+k]), int(r.slot[ib+k])
		e.tc[a*e.nt+ta]--
		e.tc[a*e.nt+tb]++
		e.tc[b*e.nt+tb]--
		e.tc[b*e.nt+ta]++
		r.slot[ia+k], r.slot[ib+k] = int32(b), int32(a)
	}
}

// threshold returns the worst change the search still takes at step i of steps: it
// falls from top to 0 over the first nine tenths of the steps (threshold accepting, a
// deterministic cousin of simulated annealing) and is 0 for the last tenth.
func threshold(i, steps int, top int64) int64 {
	cool := steps * 9 / 10
	if i >= cool || top <= 0 {
		return 0
	}
	f := int64((cool - i) * 1024 / cool)
	return top * f * f / (1024 * 1024)
}

// groups runs the first phase: who sits with whom, and at which table. strict takes
// only changes for the better; withSeats counts the seats too.
func (e *engine) groups(g *rng, steps int, top int64, strict, withSeats bool) {
	if len(e.crossRounds) == 0 {
		return
	}
	for i := range steps {
		limit := threshold(i, steps, top)
		if strict {
			limit = -1
		}
		r := &e.rounds[e.crossRounds[g.intn(len(e.crossRounds))]]
		if len(r.twins) > 0 && g.intn(10) == 0 {
			tw := r.twins[g.intn(len(r.twins))]
			if e.twinDelta(r, int(tw[0]), int(tw[1])) <= limit {
				e.twinApply(r, int(tw[0]), int(tw[1]))
			}
			continue
		}
		seated := len(r.slot)
		a := g.intn(seated)
		ta := int(r.tableOf[a])
		lo, size := int(r.start[ta]), int(r.start[ta+1]-r.start[ta])
		b := g.intn(seated - size)
		if b >= lo {
			b += size
		}
		if e.crossDelta(r, a, b, withSeats) <= limit {
			e.crossApply(r, a, b)
		}
	}
}

// seats runs the second phase: who sits in which seat at each table.
func (e *engine) seats(g *rng, steps int, top int64, strict bool) {
	if len(e.seatRounds) == 0 {
		return
	}
	for i := range steps {
		limit := threshold(i, steps, top)
		if strict {
			limit = -1
		}
		r := &e.rounds[e.seatRounds[g.intn(len(e.seatRounds))]]
		a := g.intn(len(r.slot))
		ta := int(r.tableOf[a])
		lo, size := int(r.start[ta]), int(r.start[ta+1]-r.start[ta])
		if size < 2 {
			continue
		}
		b := lo + g.intn(size-1)
		if b >= a {
			b++
		}
		sa, sb := int(r.seatOf[a]), int(r.seatOf[b])
		pa, pb := int(r.slot[a]), int(r.slot[b])
		if e.seatMove(pa, sa, sb)+e.seatMove(pb, sb, sa) <= limit {
			e.seatApply(r, a, b)
		}
	}
}

// write puts the engine's rounds back into s, which must be the schedule it was made from.
func (e *engine) write(s Schedule) {
	for ri := e.from; ri < len(s.Rounds); ri++ {
		r := &e.rounds[ri]
		for t, table := range s.Rounds[ri].Tables {
			for k := range table {
				table[k] = int(r.slot[int(r.start[t])+k])
			}
		}
	}
}
