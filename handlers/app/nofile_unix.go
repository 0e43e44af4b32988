//go:build unix

package app

import "syscall"

// descriptorLimit returns the process's limit on open file descriptors
// (the soft RLIMIT_NOFILE, which Go raises to the hard one at start on
// Linux), or 0 when it cannot be read.
func descriptorLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return uint64(lim.Cur) //nolint:unconvert // int64 on some systems
}
