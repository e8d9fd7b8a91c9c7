package ports

import (
	"net"
	"strconv"
	"testing"
)

// TestQuiet: the port is free, below the ephemeral range, and taken by no
// port-0 listener opened while it is held free.
func TestQuiet(t *testing.T) {
	low := ephemeralLow()
	for range 20 {
		port, err := Quiet()
		if err != nil {
			t.Fatal(err)
		}
		if port < floor || port >= low {
			t.Fatalf("port %d outside %d–%d", port, floor, low-1)
		}
		l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
		if err != nil {
			t.Fatalf("port %d is not free: %v", port, err)
		}
		l.Close()
		any, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		if got := any.Addr().(*net.TCPAddr).Port; got < low {
			t.Errorf("a port-0 listener got %d, below the ephemeral range's %d: Quiet's ports are not out of its way", got, low)
		}
		any.Close()
	}
}
