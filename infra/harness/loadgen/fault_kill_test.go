package loadgen

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

// TestFaultKillServer plays several games against the local server (infra/server
// as a child process on the embedded store) and kills it with SIGKILL at random
// moments, most of them a few milliseconds after the players of a game were let
// go to vote (or to start the night) in the same instant, when the most writes
// are in flight. Each time the server is started again on the same data
// directory. Every game must go on to its end, and no action the server
// acknowledged may be missing from the final logs, doubled, or seen undone by a
// later poll.
func TestFaultKillServer(t *testing.T) {
	t.Parallel()
	srv := startChild(t)
	kills := scale(5, 25)

	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(42, 6))
	killed := 0
	busy := false
	last := time.Now()
	// kill takes the server down and up again, unless that happened less than
	// 700 ms ago (the games must move on between kills) or is happening now.
	kill := func(delay time.Duration) {
		mu.Lock()
		if busy || killed >= kills || time.Since(last) < 700*time.Millisecond {
			mu.Unlock()
			return
		}
		busy = true
		down := time.Duration(50+rng.IntN(400)) * time.Millisecond
		mu.Unlock()
		time.Sleep(delay)
		srv.kill()
		time.Sleep(down) // down for a moment, as a crashed process is
		srv.start()      // then back on the same data
		mu.Lock()
		killed++
		busy, last = false, time.Now()
		mu.Unlock()
	}
	onBurst := func(int) {
		mu.Lock()
		d := time.Duration(rng.IntN(15)) * time.Millisecond
		go1 := rng.IntN(3) == 0 // one burst in three
		mu.Unlock()
		if go1 {
			kill(d)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		// And at random moments, in case the bursts are few.
		defer wg.Done()
		for {
			mu.Lock()
			d := time.Duration(2000+rng.IntN(2000)) * time.Millisecond
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(d):
				kill(0)
			}
		}
	}()
	rep := play(t, srv.URL(), nil, Config{Games: scale(2, 12), Presets: []string{rules.PresetClassic, rules.PresetSport, rules.PresetParty, rules.PresetManiac},
		FirstSource: 10000, Seed: 3, OnBurst: onBurst})
	close(stop)
	wg.Wait()
	mu.Lock()
	n := killed
	mu.Unlock()
	t.Logf("killed the server %d times; %d of %d games finished; %d actions acknowledged, %d proven in the logs; "+
		"%d actions re-sent with the same id, %d requests without an answer, %d applied without acknowledgement",
		n, rep.Finished, rep.Games, rep.Acked, rep.Check.Checked, sum(rep.ActionRetries), sum(rep.TransportErrors), rep.Check.Unacked)
	if n == 0 {
		t.Fatal("the server was never killed: the games ended too soon")
	}
	requireIntact(t, rep)
	if p := panics(srv.log()); len(p) > 0 {
		t.Errorf("server log has %d panics or errors, first: %s", len(p), p[0])
	}
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
