package loadgen

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the load and fault tests run side by side: they spend most of
// their time waiting on the bots' poll intervals, not on a CPU, so the default
// of GOMAXPROCS parallel tests would only make `go test ./...` slower. An
// explicit -test.parallel is kept.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}

// long turns the short forms of the load and fault tests, which `go test ./...`
// runs, into longer bench runs: go test ./infra/harness/loadgen -run 'Load|Fault' -long -v
var long = flag.Bool("long", false, "run the load and fault tests at bench size")

// scale returns short or, with -long, long.
func scale(short, longer int) int {
	if *long {
		return longer
	}
	return short
}

// testSpeed is the speed-up of the tests' clients: their games take seconds.
const testSpeed = 8

// hungAfter stops a game that hangs, and nothing else: a game's end is what
// the tests wait for, however slow the machine. The slowest short game seen
// took about a minute (TestLoadDynamo's, beside the browser tests and a
// busy core), so a game still running after ten of those is hung, and its
// failure says where it stood (game.end). It stays well inside make test's
// TEST_TIMEOUT, so that the game's own message is the one seen.
const hungAfter = 10 * time.Minute

// play runs games against url and returns the report; it fails t if the run
// itself fails. A game fails only if it hangs (hungAfter).
func play(t *testing.T, url string, target *Target, cfg Config) Report {
	t.Helper()
	cfg.URL = url
	if cfg.Speed == 0 {
		cfg.Speed = testSpeed
	}
	cfg.Burst = true
	cfg.GameTimeout = hungAfter
	if target != nil {
		cfg.Meter = target.Meter
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.GameTimeout+time.Minute)
	defer cancel()
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rep := Build(res, target)
	if testing.Verbose() {
		t.Log("\n" + rep.Text())
	}
	return rep
}

// requireIntact fails t unless every game finished and no acknowledged action
// was lost, doubled or seen undone.
func requireIntact(t *testing.T, rep Report) {
	t.Helper()
	if rep.Finished != rep.Games {
		t.Errorf("%d of %d games finished; errors: %s", rep.Finished, rep.Games, strings.Join(rep.GameErrors, "; "))
	}
	if rep.Check.Lost != 0 || rep.Check.Doubled != 0 || rep.Rollbacks != 0 {
		t.Errorf("%d lost, %d doubled actions, %d rollbacks: %s", rep.Check.Lost, rep.Check.Doubled, rep.Rollbacks,
			strings.Join(append(rep.Check.Problems, rep.GameErrors...), "; "))
	}
	if rep.Acked == 0 || rep.Check.Checked == 0 {
		t.Errorf("nothing was checked: %d actions acknowledged, %d found in the log", rep.Acked, rep.Check.Checked)
	}
	for k, n := range rep.Statuses {
		if strings.Contains(k, " 500") {
			t.Errorf("%d answers %q", n, k)
		}
	}
}
