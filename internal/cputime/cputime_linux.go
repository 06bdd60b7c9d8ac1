//go:build linux

package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// The clock ids of clock_gettime(2).
const (
	clockProcessCPUTimeID = 2
	clockThreadCPUTimeID  = 3
)

func clock(id uintptr) (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// Process returns the CPU time of the whole process, every thread, user and
// system (CLOCK_PROCESS_CPUTIME_ID), 0 when it cannot be read.
func Process() time.Duration {
	d, _ := clock(clockProcessCPUTimeID)
	return d
}

// Thread returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID); ok is false when the clock cannot be read.
// Pair it with runtime.LockOSThread.
func Thread() (d time.Duration, ok bool) { return clock(clockThreadCPUTimeID) }
