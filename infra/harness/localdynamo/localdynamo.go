// Package localdynamo runs dynalite, a DynamoDB-compatible server from npm, on a
// loopback port, with the games table created from template.yaml, so that tests
// and local tools reach the same DynamoDB API as production without AWS.
//
// dynalite is a devDependency in the repository's package.json: run `npm ci` at
// the repository root (`make test` does) before using this package. Without
// it, Start fails with a message that says so; tests never skip.
//
// Tests start it through package localdynamotest (MustStart, Shared); from
// TestMain or a tool:
//
//	srv, err := localdynamo.Start(ctx)
//	if err != nil { ... }
//	defer srv.Stop()
//	cmd.Env = append(os.Environ(), srv.Env()...) // TABLE_NAME, DYNAMODB_ENDPOINT
package localdynamo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"citysleeps/infra/harness/ports"
)

// DefaultTable is the name of the games table that Start creates.
const DefaultTable = "citysleeps-games"

// Region is the region clients of the local server sign requests for.
const Region = "us-east-1"

// startTimeout bounds how long Start waits for dynalite to answer.
const startTimeout = 30 * time.Second

// ErrNotInstalled means dynalite is not in node_modules (or node is missing).
var ErrNotInstalled = errors.New("localdynamo: dynalite is not installed")

// Server is a running dynalite process, in memory, listening on loopback.
type Server struct {
	// Endpoint is the server's base URL, such as http://127.0.0.1:40123.
	Endpoint string
	// Table is the games table Start created from template.yaml.
	Table string
	// TTLAttribute is the TTL attribute template.yaml names for the table.
	TTLAttribute string

	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
	out    *tailBuffer

	stopOnce sync.Once
	stopErr  error
}

// Start runs dynalite on a free loopback port, waits until it answers and
// creates the games table (DefaultTable) from template.yaml. The server runs
// until Stop, in a process group of its own; ctx bounds only the start.
func Start(ctx context.Context) (*Server, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	if pkg := filepath.Join(root, "node_modules", "dynalite", "package.json"); !exists(pkg) {
		return nil, fmt.Errorf("%w: %s is missing: run `npm ci` in %s (or `make test`, which does)", ErrNotInstalled, pkg, root)
	}
	launcher := filepath.Join(root, "infra", "harness", "localdynamo", "dynalite.js")
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("%w: node (Node.js 20 or later) is not on PATH: %v", ErrNotInstalled, err)
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()

	var s *Server
	for attempt := 1; ; attempt++ {
		s, err = launch(ctx, node, launcher, root)
		if err == nil {
			break
		}
		// Another process may take the port between choosing and binding it.
		if attempt < 3 && strings.Contains(err.Error(), "EADDRINUSE") {
			continue
		}
		return nil, err
	}
	if err := s.start(ctx, root); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// exists reports whether there is a file at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// launch starts dynalite through launcher (dynalite.js, which keeps it up
// when a client goes away mid-request) on a free port, with root's
// node_modules, and waits until it answers.
func launch(ctx context.Context, node, launcher, root string) (*Server, error) {
	port, err := ports.Quiet()
	if err != nil {
		return nil, fmt.Errorf("localdynamo: %w", err)
	}
	s := &Server{
		Endpoint: "http://127.0.0.1:" + strconv.Itoa(port),
		exited:   make(chan struct{}),
		out:      &tailBuffer{max: 8 << 10},
	}
	s.cmd = exec.Command(node, launcher, root, strconv.Itoa(port))
	s.cmd.Dir = root
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	s.cmd.SysProcAttr = procAttr()
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("localdynamo: run %s: %w", launcher, err)
	}
	go func() {
		s.cmd.Wait()
		close(s.exited)
	}()

	probe := NewClient(s.Endpoint, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := probe.ListTables(pctx, &dynamodb.ListTablesInput{})
		cancel()
		if err == nil {
			return s, nil
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("localdynamo: dynalite exited at start (%v): %s", s.cmd.ProcessState, s.out.String())
		case <-ctx.Done():
			s.Stop()
			return nil, fmt.Errorf("localdynamo: dynalite did not answer at %s: %v (last error: %v); output: %s",
				s.Endpoint, ctx.Err(), err, s.out.String())
		case <-tick.C:
		}
	}
}

// start creates the games table.
func (s *Server) start(ctx context.Context, root string) error {
	ttl, err := CreateGamesTable(ctx, s.Client(), filepath.Join(root, "template.yaml"), DefaultTable)
	if err != nil {
		return err
	}
	s.Table, s.TTLAttribute = DefaultTable, ttl
	return nil
}

// Stop ends the server's process group and waits for it to exit. Calling it
// again returns the first result.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		pid := s.cmd.Process.Pid
		select {
		case <-s.exited:
			s.stopErr = fmt.Errorf("localdynamo: dynalite had already exited (%v): %s", s.cmd.ProcessState, s.out.String())
			return
		default:
		}
		syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(3 * time.Second):
			syscall.Kill(-pid, syscall.SIGKILL)
			<-s.exited
		}
	})
	return s.stopErr
}

// PID returns the server's process ID, which is also its process group ID.
func (s *Server) PID() int {
	return s.cmd.Process.Pid
}

// Client returns a DynamoDB client for the server.
func (s *Server) Client() *dynamodb.Client {
	return NewClient(s.Endpoint)
}

// Env returns the environment variables that point the store's
// NewDynamoFromEnv at this server's games table.
func (s *Server) Env() []string {
	return []string{"TABLE_NAME=" + s.Table, "DYNAMODB_ENDPOINT=" + s.Endpoint}
}

// CreateTable creates another table like the games table, named name, for a
// test that wants one of its own, and waits until it is active.
func (s *Server) CreateTable(ctx context.Context, name string) error {
	path, err := TemplatePath()
	if err != nil {
		return err
	}
	_, err = CreateGamesTable(ctx, s.Client(), path, name)
	return err
}

// NewClient returns a DynamoDB client for a local server at endpoint, with
// fixed dummy credentials and region, reading nothing from the environment.
func NewClient(endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	}, optFns...)
}

// CreateGamesTable creates the table that template.yaml (at templatePath)
// defines as GamesTable, named name, through client, waits until it is
// active, and returns its TTL attribute.
func CreateGamesTable(ctx context.Context, client *dynamodb.Client, templatePath, name string) (ttlAttribute string, err error) {
	t, err := LoadTable(templatePath, GamesTableID)
	if err != nil {
		return "", err
	}
	in := t.Input
	in.TableName = aws.String(name)
	if _, err := client.CreateTable(ctx, &in); err != nil {
		return "", fmt.Errorf("localdynamo: create table %s: %w", name, err)
	}
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			return "", fmt.Errorf("localdynamo: describe table %s: %w", name, err)
		}
		if out.Table.TableStatus == types.TableStatusActive {
			return t.TTLAttribute, nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("localdynamo: table %s not active: %w", name, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// tailBuffer keeps the last max bytes written to it, for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if over := b.buf.Len() - b.max; over > 0 {
		b.buf.Next(over)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(b.buf.String())
}
