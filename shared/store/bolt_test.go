package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"citysleeps/shared/store"
	"citysleeps/shared/store/storetest"
)

// openBolt opens a store in a fresh file that is closed when t ends.
func openBolt(tb testing.TB) *store.Bolt {
	tb.Helper()
	b, err := store.OpenBolt(filepath.Join(tb.TempDir(), "sub", "games.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := b.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return b
}

func TestBoltConformance(t *testing.T) {
	storetest.RunConformance(t, func(t *testing.T) store.Store { return openBolt(t) })
}

func TestBoltSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	exp := time.Now().Add(time.Hour).Truncate(time.Second)
	b, err := store.OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Create(ctx, "KEEP", []byte("v1"), exp); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Update(ctx, "KEEP", 1, []byte("v2"), exp); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "KEEP", true); err == nil {
		t.Error("Get after Close succeeded")
	}

	b, err = store.OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	it, err := b.Get(ctx, "KEEP", true)
	if err != nil {
		t.Fatal(err)
	}
	if it.Version != 2 || string(it.State) != "v2" || !it.ExpiresAt.Equal(exp) {
		t.Fatalf("after reopening got v%d %q %v, want v2 \"v2\" %v", it.Version, it.State, it.ExpiresAt, exp)
	}
}

func TestBoltDeleteExpired(t *testing.T) {
	ctx := context.Background()
	b := openBolt(t)
	now := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	b.SetNow(func() time.Time { return now })
	for i := range 10 {
		if err := b.Create(ctx, fmt.Sprintf("G%d", i), []byte("s"), now.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(5 * time.Hour) // G0..G5 are past their expiry
	n, err := b.DeleteExpired(ctx)
	if err != nil || n != 6 {
		t.Fatalf("DeleteExpired = %d, %v; want 6, nil", n, err)
	}
	for i := range 10 {
		_, err := b.Get(ctx, fmt.Sprintf("G%d", i), false)
		if gone := errors.Is(err, store.ErrNotFound); gone != (i <= 5) {
			t.Errorf("G%d: Get error %v", i, err)
		}
	}
}

// crashChildEnv, when set to a bolt file's path, makes the test binary the
// writer that TestBoltCrash kills.
const crashChildEnv = "CITYSLEEPS_BOLT_CRASH_CHILD"

const crashCode = "CRASH"

// crashState is the state written at version v: its size varies so that
// writes touch different numbers of pages.
func crashState(v int64) []byte {
	b := make([]byte, 64+int(v*7919%20000))
	binary.BigEndian.PutUint64(b, uint64(v))
	for i := 8; i < len(b); i++ {
		b[i] = byte(int64(i) * (v | 1))
	}
	return b
}

// crashChild updates the game over and over, printing "ack N" once version N
// is committed, until it is killed (or, as a bound, a minute has passed).
func crashChild(path string) int {
	ctx := context.Background()
	b, err := store.OpenBolt(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	it, err := b.Get(ctx, crashCode, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	v, exp := it.Version, time.Now().Add(time.Hour)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		next, err := b.Update(ctx, crashCode, v, crashState(v+1), exp)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		v = next
		// os.Stdout is unbuffered: the line is in the pipe before the next write starts.
		fmt.Fprintf(os.Stdout, "ack %d\n", v)
	}
	return 0
}

// TestBoltCrash kills a writer process with SIGKILL at random moments and
// checks that every version it acknowledged is in the file afterwards.
func TestBoltCrash(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crash.db")

	b, err := store.OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Create(ctx, crashCode, crashState(1), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	b.Close()

	lastAcked := int64(1)
	const rounds = 6
	for round := range rounds {
		killAfter := 3 + rng.IntN(80)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acks, killed := 0, false
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			v, err := strconv.ParseInt(strings.TrimPrefix(sc.Text(), "ack "), 10, 64)
			if err != nil {
				t.Fatalf("round %d: child said %q", round, sc.Text())
			}
			if v != lastAcked+1 {
				t.Fatalf("round %d: child acked version %d after %d", round, v, lastAcked)
			}
			lastAcked = v
			acks++
			if acks == killAfter && !killed {
				// Kill a little later, at a random point of the next write.
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			}
		}
		// Lines already in the pipe when the child died were acknowledged too.
		err = cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child ended with %v, want killed by SIGKILL; stderr: %s", round, err, stderr.String())
		}

		b, err := store.OpenBolt(path)
		if err != nil {
			t.Fatalf("round %d: reopen after the crash: %v", round, err)
		}
		it, err := b.Get(ctx, crashCode, true)
		b.Close()
		if err != nil {
			t.Fatalf("round %d: Get after the crash: %v", round, err)
		}
		// The write in flight at the kill may or may not have committed; none later can have.
		if it.Version < lastAcked || it.Version > lastAcked+1 {
			t.Fatalf("round %d: stored version %d, last acknowledged %d", round, it.Version, lastAcked)
		}
		if !bytes.Equal(it.State, crashState(it.Version)) {
			t.Fatalf("round %d: state of version %d is not the one written", round, it.Version)
		}
		t.Logf("round %d: killed after %d acks; last acked v%d, stored v%d", round, acks, lastAcked, it.Version)
		lastAcked = it.Version
	}
}

// benchState is a game state of typical compressed size.
var benchState = bytes.Repeat([]byte("city sleeps "), 2048/12)

func BenchmarkBolt(b *testing.B) {
	ctx := context.Background()
	st := openBolt(b)
	exp := time.Now().Add(time.Hour)
	if err := st.Create(ctx, "BENCH", benchState, exp); err != nil {
		b.Fatal(err)
	}
	b.Run("Get", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.Get(ctx, "BENCH", true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Update", func(b *testing.B) {
		it, err := st.Get(ctx, "BENCH", true)
		if err != nil {
			b.Fatal(err)
		}
		v := it.Version
		for b.Loop() {
			if v, err = st.Update(ctx, "BENCH", v, benchState, exp); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMemory(b *testing.B) {
	ctx := context.Background()
	st := store.NewMemory()
	exp := time.Now().Add(time.Hour)
	if err := st.Create(ctx, "BENCH", benchState, exp); err != nil {
		b.Fatal(err)
	}
	b.Run("Get", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.Get(ctx, "BENCH", true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Update", func(b *testing.B) {
		v := int64(1)
		var err error
		for b.Loop() {
			if v, err = st.Update(ctx, "BENCH", v, benchState, exp); err != nil {
				b.Fatal(err)
			}
		}
	})
}
