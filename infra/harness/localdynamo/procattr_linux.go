package localdynamo

import "syscall"

// procAttr puts dynalite in a process group of its own, so that Stop ends it
// and anything it starts, and has the kernel kill it if this process dies
// first, so that no server outlives a crashed test.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
