package e2e

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// parallelGames is how many browser tests run at once unless -test.parallel
// says otherwise. A whole game spends most of its time waiting on the game's
// own clock (its hand-overs, the phones' polls), not on a core: with the
// default (GOMAXPROCS, two here) two cores stood idle much of the run; four
// at once keep them about four fifths busy.
const parallelGames = 4

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(parallelGames))
	}
	os.Exit(m.Run())
}
