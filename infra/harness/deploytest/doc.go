// Package deploytest checks what deploys the game against the code it deploys:
// template.yaml (parsed with goformation) against the HTTP routes, the functions
// and the store's table calls; the Makefile's sam build targets; and the function
// binaries themselves, run under AWS's Lambda Runtime Interface Emulator against
// dynalite and driven with API Gateway HTTP API events, with their size and init
// time measured beside a bare function's (infra/harness/bare).
//
// It has only tests: go test ./infra/harness/deploytest (make test runs it).
package deploytest
