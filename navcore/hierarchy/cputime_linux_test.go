package hierarchy

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID), so that benchmarks on a loaded machine can
// report the work they did rather than the time they waited; ok is false
// when the clock cannot be read. Pair it with runtime.LockOSThread.
func threadCPUTime() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
