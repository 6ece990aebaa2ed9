package pgtest

import "syscall"

// sysProcAttr runs a PostgreSQL program in its own process group, as cred
// when set, and has the kernel send it SIGQUIT (immediate shutdown) if the
// test binary dies without stopping it.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
}
