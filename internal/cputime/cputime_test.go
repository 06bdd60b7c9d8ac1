package cputime

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spin burns the CPU for at least d of wall time.
func spin(d time.Duration) int {
	x := 0
	for start := time.Now(); time.Since(start) < d; {
		for i := range 10000 {
			x += i ^ x
		}
	}
	return x
}

// TestClocksCountWork: on Linux the thread's clock advances while the thread
// works, by no more than the wall time; the process's clock counts at least
// what the thread's does; sleeping costs the thread (almost) nothing. The
// spin runs until the thread's own clock has counted the work, so a busy
// machine (or qemu) that takes the CPU away only makes it longer.
func TestClocksCountWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the clocks are read on Linux; elsewhere they may return 0")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const work = 20 * time.Millisecond
	process0 := Process()
	thread0, ok := Thread()
	require.True(t, ok)
	wall0 := time.Now()
	thread1 := thread0
	for thread1-thread0 < work && time.Since(wall0) < 10*time.Second {
		spin(time.Millisecond)
		thread1, _ = Thread()
	}
	process1 := Process()
	wall := time.Since(wall0)
	assert.GreaterOrEqual(t, thread1-thread0, work, "thread clock over the spin (wall %v)", wall)
	assert.LessOrEqual(t, thread1-thread0, wall+time.Millisecond, "thread clock within the wall time")
	assert.GreaterOrEqual(t, process1-process0, thread1-thread0, "the process's clock counts the thread's")

	const nap = 100 * time.Millisecond
	time.Sleep(nap)
	thread2, _ := Thread()
	assert.Less(t, thread2-thread1, nap/2, "sleeping costs the thread (almost) no CPU")
}
