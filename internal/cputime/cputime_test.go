package cputime

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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

// TestClocksCountWork: on Linux both clocks advance by at least most of a
// spin on this thread and by no more than the wall time on all threads;
// sleeping adds (almost) nothing to the thread's clock.
func TestClocksCountWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the clocks are read on Linux; elsewhere they may return 0")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const work = 30 * time.Millisecond
	process0 := Process()
	thread0, ok := Thread()
	assert.True(t, ok)
	wall0 := time.Now()
	spin(work)
	thread1, _ := Thread()
	process1 := Process()
	wall := time.Since(wall0)
	// A busy machine may take the CPU away during the spin: the thread gets
	// at least a third of it.
	assert.Greater(t, thread1-thread0, work/3, "thread clock over the spin")
	assert.LessOrEqual(t, thread1-thread0, wall+time.Millisecond, "thread clock within the wall time")
	assert.GreaterOrEqual(t, process1-process0, thread1-thread0, "the process's clock counts the thread's")

	time.Sleep(30 * time.Millisecond)
	thread2, _ := Thread()
	assert.Less(t, thread2-thread1, 10*time.Millisecond, "sleeping costs the thread no CPU")
}
