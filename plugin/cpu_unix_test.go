//go:build unix

package plugin

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system:
// on a machine shared with other work it varies less than wall time.
func processCPU() time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}
