package seating

import "testing"

// objective recomputes the engine's objective from its counts.
func (e *engine) objective() int64 {
	var sum int64
	for p := range e.n {
		for q := range e.n {
			if p < q {
				m := int64(e.meet[p*e.n+q])
				sum += m * m * scale
			}
		}
	}
	sq := func(c int32, ex int64) int64 { d := int64(c)*scale - ex; return d * d / scale }
	for i := range e.tc {
		sum += sq(e.tc[i], e.te[i])
	}
	for p := range e.n {
		for k := range e.ns {
			sum += e.sw[k] * sq(e.sc[p*e.ns+k], e.se[p*e.ns+k])
		}
		for g := range e.ns / 2 {
			sum += pairWeight * sq(e.gc[p*(e.ns/2)+g], e.ge[p*(e.ns/2)+g])
		}
		for h := range 2 {
			sum += halfWeight * sq(e.hc[p*2+h], e.he[p*2+h])
		}
	}
	return sum
}

func TestEngineDeltas(t *testing.T) {
	s, g, err := random(Plan{Players: 23, Tables: 3, MinSeats: 5, MaxSeats: 9, Rounds: 5}, 3)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(s, 0)
	for range 2000 {
		before := e.objective()
		r := &e.rounds[g.intn(len(e.rounds))]
		var d int64
		switch g.intn(3) {
		case 0:
			a := g.intn(len(r.slot))
			b := g.intn(len(r.slot))
			if r.tableOf[a] == r.tableOf[b] {
				continue
			}
			d = e.crossDelta(r, a, b, true)
			e.crossApply(r, a, b)
		case 1:
			if len(r.twins) == 0 {
				continue
			}
			tw := r.twins[0]
			d = e.twinDelta(r, int(tw[0]), int(tw[1]))
			e.twinApply(r, int(tw[0]), int(tw[1]))
		case 2:
			a := g.intn(len(r.slot))
			b := g.intn(len(r.slot))
			if a == b || r.tableOf[a] != r.tableOf[b] {
				continue
			}
			pa, pb := int(r.slot[a]), int(r.slot[b])
			d = e.seatMove(pa, int(r.seatOf[a]), int(r.seatOf[b])) + e.seatMove(pb, int(r.seatOf[b]), int(r.seatOf[a]))
			e.seatApply(r, a, b)
		}
		after := e.objective()
		if diff := after - before - d; diff > 100 || diff < -100 {
			t.Fatalf("delta %d, objective moved %d", d, after-before)
		}
	}
}
