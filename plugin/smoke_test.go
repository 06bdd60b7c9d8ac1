package plugin

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

func TestSmokeCrowd(t *testing.T) {
	mesh := loadDungeon(t)
	for _, n := range []int{100, 500} {
		f := newCrowd(t, mesh, n, 1, Config{Reference: true})
		f.step(t, 600)
		t.Logf("%d agents: reached %d", n, f.reached(t, 1))
	}
}

func TestStageTimes(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	mesh := loadDungeon(t)
	f := newCrowd(t, mesh, 2000, 1, Config{Reference: true})
	cpu := map[string]*float64{}
	for _, name := range f.plugin.Schedule().Stages() {
		sys, _ := f.plugin.Schedule().Stage(name)
		acc := new(float64)
		cpu[name] = acc
		require.NoError(t, f.plugin.Schedule().Replace(name, &cpuTimed{System: sys, total: acc}))
	}
	f.step(t, 600)
	for _, name := range f.plugin.Schedule().Stages() {
		t.Logf("%-18s %.3f cpu-ms", name, *cpu[name]/600)
	}
}

type cpuTimed struct {
	System
	total *float64
}

func (c *cpuTimed) Update(w *ecs.World) {
	start := threadCPU()
	c.System.Update(w)
	*c.total += float64(threadCPU()-start) / 1e6
}

func threadCPU() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
