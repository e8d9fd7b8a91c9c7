//go:build unix && !linux

package localdynamo

import "syscall"

// procAttr puts dynalite in a process group of its own, so that Stop ends it
// and anything it starts.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
