package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/stretchr/testify/require"
)

// soakProfileEnvVar names a directory: TestHeapProfilesOfSoak writes a heap
// profile there after each simulated minute's GC (heap-NN.pprof), to find
// what a minute holds that another does not (go tool pprof -diff_base).
const soakProfileEnvVar = "ARCHENAV_SOAK_PROFILE"

// TestHeapProfilesOfSoak runs TestHeapStaysFlat's soak (ARCHENAV_SOAK long,
// 5 simulated minutes when unset) with every allocation sampled and writes
// a heap profile after each minute into the directory ARCHENAV_SOAK_PROFILE
// names. It is a tool for finding what grows, skipped unless that variable
// is set.
func TestHeapProfilesOfSoak(t *testing.T) {
	dir := os.Getenv(soakProfileEnvVar)
	if dir == "" {
		t.Skipf("set %s=DIR to write heap profiles of the soak", soakProfileEnvVar)
	}
	longtest.SkipSoak(t)
	length, _ := longtest.SoakDuration(t, 5*time.Minute)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	soakProfile = func(minute int) {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("heap-%02d.pprof", minute)))
		require.NoError(t, err)
		defer f.Close()
		require.NoError(t, pprof.Lookup("heap").WriteTo(f, 0))
	}
	defer func() { soakProfile = nil }()
	_, _, minutes := runSoak(t, soakRun{agents: 120, minutes: max(2, int(length/time.Minute)), workers: 2})
	for m, heap := range minutes {
		t.Logf("after minute %d: %.3f MB live", m+1, float64(heap)/1e6)
	}
}
