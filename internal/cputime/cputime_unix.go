//go:build unix && !linux

package cputime

import (
	"syscall"
	"time"
)

// Process returns the user and system CPU time the process has used
// (getrusage), 0 when it cannot be read.
func Process() time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// Thread is not read on this platform: it returns 0, false.
func Thread() (time.Duration, bool) { return 0, false }
