package service_test

import (
	"sync"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// benchStores are the stores the request-path benchmarks run on: the embedded
// on-disk store of `make run` (every write fsynced) and memory, which shows the
// service's own cost.
var benchStores = []struct {
	name string
	open func(b *testing.B) store.Store
}{
	{"memory", func(*testing.B) store.Store { return store.NewMemory() }},
	{"bolt", func(b *testing.B) store.Store { return openBolt(b) }},
}

// midGame makes a 10-player sport game at the start of day 2 on st, with a clock
// that stands still so no deadline passes during a benchmark.
func midGame(b *testing.B, st store.Store) (*service.Service, servicetest.Game) {
	b.Helper()
	now := time.Now()
	svc := service.New(st, service.WithLogger(quiet), service.WithClock(func() time.Time { return now }))
	for range 20 {
		g := servicetest.NewGame(b, svc, service.CreateRequest{Preset: "sport"}, 10)
		g.Start(b, svc)
		v := servicetest.PlayUntil(b, svc, g, func(v rules.View) bool { return v.Phase.Day == 2 && v.Phase.Name == rules.PhaseDay })
		if v.Phase.Name == rules.PhaseDay {
			return svc, g
		}
	}
	b.Fatal("no bot game lasted until day 2")
	return nil, servicetest.Game{}
}

// BenchmarkAct measures one action through the whole path (load, decode, apply,
// encode, conditional write) on a game in its second day: the host pausing and
// resuming (servicetest.HostTurn). Every 63 actions the game is put back as
// it was, so it
// does not grow with b.N.
func BenchmarkAct(b *testing.B) {
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			st := s.open(b)
			svc, g := midGame(b, st)
			start, err := st.Get(ctx, g.Code, true)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i > 0 && i%63 == 0 {
					b.StopTimer()
					it, err := st.Get(ctx, g.Code, true)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := st.Update(ctx, g.Code, it.Version, start.State, it.ExpiresAt); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if _, err := svc.Act(ctx, g.Code, g.Host, servicetest.HostTurn(i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkRead measures a poll (load, decode, view) of a game in its second day,
// by a player, the host and the shared screen.
func BenchmarkRead(b *testing.B) {
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			svc, g := midGame(b, s.open(b))
			for _, who := range []struct{ name, token string }{
				{"player", g.Players[0].Token}, {"host", g.Host}, {"public", ""},
			} {
				b.Run(who.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := svc.Read(ctx, g.Code, who.token); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkRevision measures the cheap check an HTTP layer can answer
// If-None-Match with.
func BenchmarkRevision(b *testing.B) {
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			svc, g := midGame(b, s.open(b))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Revision(ctx, g.Code, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// capacity adds up the capacity units DynamoDB (here dynalite) reports.
type capacity struct {
	mu          sync.Mutex
	read, write float64
	requests    int
}

func (c *capacity) hook(op string, r, w float64) {
	c.mu.Lock()
	c.read, c.write, c.requests = c.read+r, c.write+w, c.requests+1
	c.mu.Unlock()
}

func (c *capacity) reset() {
	c.mu.Lock()
	c.read, c.write, c.requests = 0, 0, 0
	c.mu.Unlock()
}

func (c *capacity) report(b *testing.B, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b.ReportMetric(c.read/float64(n), "RCU/op")
	b.ReportMetric(c.write/float64(n), "WCU/op")
	b.ReportMetric(float64(c.requests)/float64(n), "requests/op")
}

// BenchmarkDynaliteCapacity reports the DynamoDB capacity units of a poll and of
// an action on a game in its second day, as the DynamoDB API (dynalite) reports
// them: a poll is one eventually consistent read, an action one strongly
// consistent read and one conditional write.
func BenchmarkDynaliteCapacity(b *testing.B) {
	var c capacity
	svc, g := midGame(b, dynamo(b, store.DynamoOptions{Capacity: c.hook}))
	b.Run("poll", func(b *testing.B) {
		c.reset()
		n := 0
		for b.Loop() {
			if _, err := svc.Read(ctx, g.Code, g.Players[0].Token); err != nil {
				b.Fatal(err)
			}
			n++
		}
		c.report(b, n)
	})
	b.Run("act", func(b *testing.B) {
		c.reset()
		n := 0
		for b.Loop() {
			if _, err := svc.Act(ctx, g.Code, g.Host, servicetest.HostTurn(n)); err != nil {
				b.Fatal(err)
			}
			n++
		}
		c.report(b, n)
	})
}

// BenchmarkTenVotesAtOnce measures ten votes cast at the same instant in one game
// through a service with local locks, as the local server runs them: the time
// until every voter has their answer (ns/op is per burst of ten), and the store
// writes the burst cost. Before each burst the game is put back at the start of
// the vote.
func BenchmarkTenVotesAtOnce(b *testing.B) {
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			st := &gatedStore{Store: s.open(b)}
			now := time.Now()
			svc := service.New(st, service.WithLogger(quiet), service.WithLocalLocks(),
				service.WithClock(func() time.Time { return now }))
			g, _ := toFirstVote(b, svc)
			start, err := st.Get(ctx, g.Code, true)
			if err != nil {
				b.Fatal(err)
			}
			bursts, writes := 0, int64(0)
			for b.Loop() {
				b.StopTimer()
				it, err := st.Get(ctx, g.Code, true)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.Store.Update(ctx, g.Code, it.Version, start.State, it.ExpiresAt); err != nil {
					b.Fatal(err)
				}
				before := st.Writes()
				b.StartTimer()
				var wg sync.WaitGroup
				for i, p := range g.Players {
					a := rules.Action{ID: servicetest.ActionID(), Type: rules.ActVote, Target: g.Players[(i*3)%len(g.Players)].ID}
					wg.Go(func() {
						if _, err := svc.Act(ctx, g.Code, p.Token, a); err != nil {
							b.Error(err)
						}
					})
				}
				wg.Wait()
				bursts, writes = bursts+1, writes+st.Writes()-before
			}
			b.ReportMetric(float64(writes)/float64(bursts), "writes/op")
		})
	}
}
