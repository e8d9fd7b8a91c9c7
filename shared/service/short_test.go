package service_test

import "testing"

// sized is short under go test -short and full otherwise. make test runs
// this package with -short, where a few races and a short game find what
// thousands of steps would under the race detector; make soak runs it at
// full size.
func sized(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}
