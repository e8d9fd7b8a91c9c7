package loadgen

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/harness/ports"
)

// serverBinary builds infra/server once per test binary.
var serverBinary = sync.OnceValues(func() (string, error) {
	root, err := localdynamo.RepoRoot()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "loadgen-server-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "citysleeps-server")
	cmd := exec.Command("go", "build", "-o", bin, "./infra/server")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./infra/server: %v\n%s", err, out)
	}
	return bin, nil
})

// child is the local server (infra/server) running as a child process of the
// test, on a fixed loopback-reachable port and data directory, so that it can
// be killed and started again on the same data.
type child struct {
	t       *testing.T
	bin     string
	port    int
	dataDir string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	logs   bytes.Buffer // stderr of every run
	starts int
}

// startChild builds and starts the server with the rate limit on (every bot
// sends from its own address) and its logs kept for the test.
func startChild(t *testing.T) *child {
	t.Helper()
	bin, err := serverBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The server starts again on the same port after every kill, while the
	// package's other tests make connections: a port no connection can take.
	port, err := ports.Quiet()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, bin: bin, port: port, dataDir: t.TempDir()}
	c.start()
	t.Cleanup(c.stop)
	return c
}

// URL is the server's base URL on loopback.
func (c *child) URL() string { return "http://127.0.0.1:" + strconv.Itoa(c.port) }

// start runs the server and waits until /api/health answers.
func (c *child) start() {
	c.t.Helper()
	c.mu.Lock()
	cmd := exec.Command(c.bin)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(c.port), "DATA_DIR="+c.dataDir,
		"FRONTEND_DIR="+filepath.Join(c.dataDir, "no-frontend"), "PUBLIC_URL="+c.URL(), "LOG_LEVEL=WARN")
	cmd.Stdout = nil
	cmd.Stderr = &lockedWriter{mu: &c.mu, w: &c.logs}
	if err := cmd.Start(); err != nil {
		c.mu.Unlock()
		c.t.Fatalf("start server: %v", err)
	}
	c.cmd, c.exited = cmd, make(chan struct{})
	exited := c.exited
	c.starts++
	c.mu.Unlock()
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(time.Minute)
	for {
		r, err := http.Get(c.URL() + "/api/health")
		if err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-exited:
			c.t.Fatalf("server exited at start: %s", c.log())
		default:
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("server not healthy after a minute: %v\n%s", err, c.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (c *child) kill() {
	c.mu.Lock()
	cmd, exited := c.cmd, c.exited
	c.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Kill() // SIGKILL: no shutdown, no flush
	<-exited
}

// stop kills the server if it runs.
func (c *child) stop() {
	c.kill()
}

// log returns what the server wrote to stderr.
func (c *child) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs.String()
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// panics lists the lines of a server log that report a panic or an internal error.
func panics(log string) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader([]byte(log)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if bytes.Contains([]byte(line), []byte(`"panic"`)) || bytes.Contains([]byte(line), []byte("goroutine ")) ||
			bytes.Contains([]byte(line), []byte(`"level":"ERROR"`)) {
			out = append(out, line)
		}
	}
	return out
}
