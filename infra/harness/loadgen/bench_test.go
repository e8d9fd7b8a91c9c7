package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"citysleeps/shared/bot"
	"citysleeps/shared/rules"
	"citysleeps/shared/service/servicetest"
)

// step makes the game move by one action: the first player, from a random
// seat, whose view offers something takes it (bot.Driver.Next); if nobody
// can, the host sends "advance". It reports false once the game is over.
func (tb *table) step(t testing.TB, rng *rand.Rand, n int) bool {
	ctx := context.Background()
	m, ok, err := tb.driver(rng).Next(ctx, rng.IntN(len(tb.ids)))
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		a := m.Action
		a.ID = fmt.Sprintf("b%d", n)
		id := tb.ids[m.Player]
		r, err := tb.clients[id].JSON(ctx, "", http.MethodPost, "/api/games/"+tb.code+"/actions", tb.tokens[id], a)
		if err != nil || (r.Status != http.StatusOK && r.Status != http.StatusConflict) {
			t.Fatalf("act %+v: %v %d %s", a, err, r.Status, r.Body)
		}
		return true
	}
	if tb.view(t, tb.host, tb.hostTok).Winner != nil {
		return false
	}
	r, err := tb.host.JSON(ctx, "", http.MethodPost, "/api/games/"+tb.code+"/actions", tb.hostTok, rules.Action{ID: fmt.Sprintf("a%d", n), Type: rules.ActAdvance, Now: true})
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("advance: %v %d %s", err, r.Status, r.Body)
	}
	return true
}

// benchTarget starts a server on store for a benchmark.
func benchTarget(b *testing.B, storeName string) *Target {
	b.Helper()
	o := TargetOptions{Store: storeName}
	if storeName == StoreBolt {
		o.Dir = b.TempDir()
	}
	target, err := Start(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { target.Close() })
	return target
}

// midGame is a sport game played (sequentially) into its second day.
func midGame(b *testing.B, target *Target, firstSource int) *table {
	b.Helper()
	tb := newTable(b, target.URL, rules.PresetSport, 10, firstSource)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 400; n++ {
		v := tb.view(b, tb.host, tb.hostTok)
		if v.Winner != nil {
			b.Fatal("the game ended before its second day")
		}
		if v.Phase.Day >= 2 && v.Phase.Name == rules.PhaseDay {
			return tb
		}
		tb.step(b, rng, n)
	}
	b.Fatal("no second day after 400 actions")
	return nil
}

// reportStore adds the meter's per-request figures of kind to the benchmark.
func reportStore(b *testing.B, target *Target, kind string) {
	k := target.Meter.Kinds()[kind]
	if k.Requests == 0 {
		return
	}
	n := float64(k.Requests)
	b.ReportMetric(float64(k.StoreCalls)/n, "store-calls/op")
	b.ReportMetric(k.ReadUnits/n, "RRU/op")
	b.ReportMetric(k.WriteUnits/n, "WRU/op")
	b.ReportMetric(float64(k.Bytes)/n, "resp-bytes/op")
	b.ReportMetric(float64(k.HandlerNs+k.StoreNs)/n/1e3, "server-µs/op")
}

// BenchmarkRequestPath measures one request at a time through HTTP on
// loopback into the local server's handler: a poll answered 304, a full poll
// of a game in its second day, and an action (the host pausing, resuming and
// ending the resume's hand-over: a read, a conditional write and, on bolt, an
// fsync), on the embedded store and in memory.
func BenchmarkRequestPath(b *testing.B) {
	for _, st := range []string{StoreBolt, StoreMemory} {
		b.Run(st, func(b *testing.B) {
			target := benchTarget(b, st)
			tb := midGame(b, target, 50000)
			id := tb.ids[0]
			c, tok := tb.clients[id], tb.tokens[id]
			path := "/api/games/" + tb.code
			ctx := context.Background()
			r, err := c.Do(ctx, "", http.MethodGet, path, tok, nil, "")
			if err != nil || r.Status != http.StatusOK {
				b.Fatalf("read: %v %d", err, r.Status)
			}
			etag := r.ETag
			b.Run("poll304", func(b *testing.B) {
				target.Meter.Reset()
				for b.Loop() {
					r, err := c.Do(ctx, "", http.MethodGet, path, tok, nil, etag)
					if err != nil || r.Status != http.StatusNotModified {
						b.Fatalf("%v %d", err, r.Status)
					}
				}
				reportStore(b, target, KindPoll304)
			})
			b.Run("poll200", func(b *testing.B) {
				target.Meter.Reset()
				for b.Loop() {
					r, err := c.Do(ctx, "", http.MethodGet, path, tok, nil, "")
					if err != nil || r.Status != http.StatusOK {
						b.Fatalf("%v %d", err, r.Status)
					}
				}
				reportStore(b, target, KindPoll200)
			})
			b.Run("action", func(b *testing.B) {
				// The host's round of pause, resume and "next" (servicetest.HostTurn)
				// adds to the story; a fresh game every 13 rounds keeps the state
				// the size of a real one.
				target.Meter.Reset()
				game, n := tb, 0
				for b.Loop() {
					if n > 0 && n%(13*servicetest.HostTurns) == 0 {
						b.StopTimer()
						game = midGame(b, target, 50100+n%4000)
						b.StartTimer()
					}
					a := servicetest.HostTurn(n)
					n++
					r, err := game.host.JSON(ctx, "", http.MethodPost, "/api/games/"+game.code+"/actions", game.hostTok, a)
					if err != nil || r.Status != http.StatusOK {
						b.Fatalf("%s (action %d): %v %d %s", a.Type, n, err, r.Status, r.Body)
					}
				}
				reportStore(b, target, KindAction)
			})
		})
	}
}

// BenchmarkPoll304Parallel measures how many polls answered 304 the local
// server serves per second on this machine, clients and server sharing it.
func BenchmarkPoll304Parallel(b *testing.B) {
	target := benchTarget(b, StoreBolt)
	tb := midGame(b, target, 51000)
	path := "/api/games/" + tb.code
	r, err := tb.clients[tb.ids[0]].Do(context.Background(), "", http.MethodGet, path, tb.tokens[tb.ids[0]], nil, "")
	if err != nil {
		b.Fatal(err)
	}
	etag := r.ETag
	b.SetParallelism(8)
	next := make(chan int, 1000)
	for i := range 1000 {
		next <- i
	}
	b.RunParallel(func(pb *testing.PB) {
		c := NewClient(target.URL, SourceAddr(52000+<-next), nil)
		defer c.Close()
		for pb.Next() {
			r, err := c.Do(context.Background(), "", http.MethodGet, path, tb.tokens[tb.ids[0]], nil, etag)
			if err != nil || r.Status != http.StatusNotModified {
				b.Errorf("%v %d", err, r.Status)
				return
			}
		}
	})
}

// BenchmarkGame plays whole 10-player games through the HTTP API, one request
// at a time, and reports per game: action requests, the largest stored item,
// and the DynamoDB units the store calls would be billed (polls not included:
// those follow the real cadence, see the load report).
func BenchmarkGame(b *testing.B) {
	for _, preset := range AllPresets {
		b.Run(preset, func(b *testing.B) {
			target := benchTarget(b, StoreMemory)
			rng := rand.New(rand.NewPCG(3, 4))
			games, actions := 0, 0
			target.Meter.Reset()
			for b.Loop() {
				tb := newTable(b, target.URL, preset, 10, 53000+games*11%4000)
				for n := 0; tb.step(b, rng, n); n++ {
					actions++
					if n > 2000 {
						b.Fatal("game not over after 2000 actions")
					}
				}
				games++
			}
			k := target.Meter.Kinds()[KindAction]
			_, largest := target.Meter.ItemSize("")
			b.ReportMetric(float64(actions)/float64(games), "actions/game")
			b.ReportMetric(float64(largest), "item-bytes-max")
			b.ReportMetric(k.WriteUnits/float64(games), "action-WRU/game")
			b.ReportMetric(k.ReadUnits/float64(games), "action-RRU/game")
		})
	}
}

// BenchmarkLoad runs the load tool for eight games at once (one op; sped up
// eightfold; two with -short, make test's pass that only keeps it working)
// against the local server on the embedded store, and reports the latency
// percentiles and the share of 304s. The full-size run is the loadgen
// command (see doc.go).
func BenchmarkLoad(b *testing.B) {
	target := benchTarget(b, StoreBolt)
	games := 8
	if testing.Short() {
		games = 2
	}
	var rep Report
	for i := 0; b.Loop(); i++ {
		target.Meter.Reset()
		res, err := Run(context.Background(), Config{URL: target.URL, Meter: target.Meter, Games: games, Speed: 8, Burst: true,
			GameTimeout: hungAfter, FirstSource: 60000 + i*games*11})
		if err != nil {
			b.Fatal(err)
		}
		rep = Build(res, target)
	}
	if rep.Finished != games || rep.Check.Lost+rep.Check.Doubled+rep.Rollbacks != 0 {
		b.Fatalf("%d of %d finished, %d lost, %d doubled, %d rollbacks", rep.Finished, games, rep.Check.Lost, rep.Check.Doubled, rep.Rollbacks)
	}
	b.ReportMetric(rep.Latency["action"].P99, "action-p99-ms")
	b.ReportMetric(rep.Latency["poll"].P99, "poll-p99-ms")
	b.ReportMetric(100*rep.Share304, "%304")
}

// BenchmarkRealGame plays real games in virtual time (PlayRealGames: two of
// each preset per op, one with -short) and reports what one 45-minute game costs and how soon
// a player asked to act sees it.
func BenchmarkRealGame(b *testing.B) {
	var rep RealReport
	each := 2
	if testing.Short() {
		each = 1
	}
	for b.Loop() {
		var err error
		if rep, err = PlayRealGames(context.Background(), AllPresets, []string{rules.ModeratorApp}, each, 1, People, nil); err != nil {
			b.Fatal(err)
		}
	}
	m := rep.Modes[rules.ModeratorApp]
	b.ReportMetric(m.Cost.Requests, "requests/game")
	b.ReportMetric(m.Cost.Total, "USD/game")
	b.ReportMetric(m.PhoneEveryMs, "phone-poll-ms")
	b.ReportMetric(m.ScreenEveryMs, "screen-poll-ms")
	b.ReportMetric(m.Opened["all"].P95, "opened-shown-p95-ms")
}

// BenchmarkVoteBurst measures what the table's busiest moment costs: the ten
// players of a game voting in the same instant (classic: everyone votes,
// against anyone), through HTTP, each vote a read-apply-conditional-write that
// conflicts with the others and is retried inside the service. One op is one
// burst: until all ten are acknowledged. It reports the store's version
// conflicts and calls per burst.
func BenchmarkVoteBurst(b *testing.B) {
	for _, st := range []string{StoreBolt, StoreMemory} {
		b.Run(st, func(b *testing.B) {
			target := benchTarget(b, st)
			rng := rand.New(rand.NewPCG(5, 6))
			var conflicts, calls int64
			bursts := 0
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				tb := newTable(b, target.URL, rules.PresetClassic, 10, 54000+(i*11)%4000)
				views := map[string]View{}
				for n := 0; n < 200; n++ {
					v := tb.view(b, tb.host, tb.hostTok)
					if v.Phase.Name == rules.PhaseVote {
						break
					}
					tb.step(b, rng, n)
				}
				for _, id := range tb.ids {
					views[id] = tb.view(b, tb.clients[id], tb.tokens[id])
				}
				before, _ := target.Meter.Conflicts()
				callsBefore := storeCalls(target)
				release := make(chan struct{})
				var wg sync.WaitGroup
				b.StartTimer()
				for _, id := range tb.ids {
					a, ok := bot.Choose(views[id].View, rng)
					if !ok || a.Type != rules.ActVote {
						continue
					}
					a.ID = fmt.Sprintf("v%d-%s", i, id)
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-release
						r, err := tb.clients[id].JSON(context.Background(), "", http.MethodPost, "/api/games/"+tb.code+"/actions", tb.tokens[id], a)
						if err != nil || (r.Status != http.StatusOK && r.Status != http.StatusConflict) {
							b.Errorf("vote: %v %d %s", err, r.Status, r.Body)
						}
					}()
				}
				close(release)
				wg.Wait()
				b.StopTimer()
				after, _ := target.Meter.Conflicts()
				conflicts += after - before
				calls += storeCalls(target) - callsBefore
				bursts++
				b.StartTimer()
			}
			b.ReportMetric(float64(conflicts)/float64(bursts), "conflicts/burst")
			b.ReportMetric(float64(calls)/float64(bursts), "store-calls/burst")
		})
	}
}

// storeCalls is the store calls made so far by actions.
func storeCalls(t *Target) int64 {
	return t.Meter.Kinds()[KindAction].StoreCalls
}
