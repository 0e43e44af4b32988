//go:build !unix

package app

// descriptorLimit returns 0: the system has no RLIMIT_NOFILE to read.
func descriptorLimit() uint64 { return 0 }
