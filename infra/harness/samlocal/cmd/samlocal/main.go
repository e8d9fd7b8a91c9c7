// Command samlocal runs `sam local start-api` against dynalite on loopback:
// it starts dynalite with the games table made from template.yaml, writes
// the env-vars file that points every function at it, runs SAM CLI with
// that file and the arguments given after the flags, and stops dynalite
// when SAM CLI exits. `make sam-local` runs it.
//
//	go run ./infra/harness/samlocal/cmd/samlocal -env-vars bin/sam-env.json -- \
//	    sam local start-api --port 3000 --docker-network host
//
// The functions run in Docker containers: on Linux, `--docker-network host`
// lets them reach dynalite on the host's loopback; where Docker runs in a
// virtual machine (Docker Desktop), give -host host.docker.internal
// instead.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/harness/samlocal"
)

func main() {
	envVars := flag.String("env-vars", "bin/sam-env.json", "the env-vars file to write for SAM CLI")
	host := flag.String("host", "127.0.0.1", "the host name under which the functions' containers reach this machine")
	publicURL := flag.String("public-url", "", "the join links' base (empty: the host the request came to)")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("samlocal: give the command to run after --, such as: sam local start-api --docker-network host")
	}
	if err := run(*envVars, *host, *publicURL, flag.Args()); err != nil {
		log.Fatal(err)
	}
}

func run(envVars, host, publicURL string, command []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	db, err := localdynamo.Start(ctx)
	cancel()
	if err != nil {
		return err
	}
	defer db.Stop()
	endpoint := strings.Replace(db.Endpoint, "127.0.0.1", host, 1)
	if err := samlocal.Local(endpoint, db.Table, publicURL).Write(envVars); err != nil {
		return err
	}
	fmt.Printf("dynalite at %s, table %s; the functions reach it at %s (%s)\n", db.Endpoint, db.Table, endpoint, envVars)

	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("samlocal: %w", err)
	}
	// Ctrl-C reaches SAM CLI too (the terminal's process group); this
	// process waits for it to end, then stops dynalite.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	err = cmd.Wait()
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && !exit.Exited() {
		return nil // ended by the signal that ends a run
	}
	return err
}
