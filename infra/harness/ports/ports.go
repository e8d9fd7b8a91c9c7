// Package ports finds loopback ports for the servers the tests start as
// processes of their own (the local server, dynalite), which must be told
// their port before they listen.
//
// A port found free by listening on port 0 is one of the kernel's ephemeral
// ports, the range every outgoing connection takes its local port from: in
// the moment between closing that listener and the server binding the port,
// or while a killed server is down before it starts again on the same port,
// any client connection of a test running beside it may take it, and the
// server fails with "address already in use". Quiet picks below that range,
// where the kernel never hands a port out by itself.
package ports

import (
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// floor is the lowest port Quiet picks: above the well-known and most
// registered services' ports that a developer's machine may run.
const floor = 10000

// Quiet returns a port, free on every interface now, below the kernel's
// ephemeral range (read from /proc, else Linux's default 32768), so that no
// outgoing connection or port-0 listener can take it afterwards.
func Quiet() (int, error) {
	top := ephemeralLow()
	for range 100 {
		port := floor + rand.IntN(top-floor)
		l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
		if err != nil {
			continue // a server of another test has it
		}
		l.Close()
		return port, nil
	}
	return 0, errors.New("ports: no free port below the ephemeral range after 100 tries")
}

// ephemeralLow is the first port of the kernel's ephemeral range.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > floor+1000 {
				return n
			}
		}
	}
	return 32768
}
