//go:build unix && !linux

package pgtest

import "syscall"

// sysProcAttr runs a PostgreSQL program in its own process group, as cred
// when set.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true}
}
