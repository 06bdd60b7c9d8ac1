package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const referenceDir = "../../plugin/testdata/reference"

// TestCrowdTraceIsTheCppTrace: -reference -trace on a recorded scenario
// writes, byte for byte, the trace the C++ harness wrote (one run without
// the path queue, one with 426 searches through it).
func TestCrowdTraceIsTheCppTrace(t *testing.T) {
	for _, run1 := range []struct{ name, mesh string }{
		{"cluster1", crowdTestMesh},
		{"nav_test_trips", filepath.Join(referenceDir, "navmesh_solo_nav_test.bin")},
	} {
		t.Run(run1.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "out.trace")
			require.NoError(t, run([]string{"crowd", "-navmesh", run1.mesh, "-scenario", filepath.Join(referenceDir, run1.name+".csv"),
				"-reference", "-ticks", "600", "-trace", trace}, &bytes.Buffer{}, &bytes.Buffer{}))
			got, err := os.ReadFile(trace)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(referenceDir, run1.name+".trace"))
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, got), "trace differs from the C++ trace")
		})
	}
}

// TestWriteScenarioRoundTrips: -write-scenario writes the random trips so
// that -scenario reads back the same float32 values and the same run.
func TestWriteScenarioRoundTrips(t *testing.T) {
	dir := t.TempDir()
	scenario, first, second := filepath.Join(dir, "s.csv"), filepath.Join(dir, "a.trace"), filepath.Join(dir, "b.trace")
	require.NoError(t, run([]string{"crowd", "-navmesh", crowdTestMesh, "-agents", "12", "-seed", "3", "-ticks", "60",
		"-write-scenario", scenario, "-trace", first}, &bytes.Buffer{}, &bytes.Buffer{}))
	require.NoError(t, run([]string{"crowd", "-navmesh", crowdTestMesh, "-scenario", scenario, "-ticks", "60",
		"-trace", second}, &bytes.Buffer{}, &bytes.Buffer{}))
	a, err := os.ReadFile(first)
	require.NoError(t, err)
	b, err := os.ReadFile(second)
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
	assert.Equal(t, 3*12, bytes.Count(a, []byte("\n")), "ticks 0, 29 and 59, 12 agents each")
}

// TestHexFloatIsCPercentA: the C library's printf("%a") output for these
// floats (glibc, float promoted to double), and each reads back.
func TestHexFloatIsCPercentA(t *testing.T) {
	for v, want := range map[float32]string{
		-17.556156:                    "-0x1.18e604p+4",
		2.6883717:                     "0x1.581c9p+1",
		0:                             "0x0p+0",
		1:                             "0x1p+0",
		0.5:                           "0x1p-1",
		-1.5e-40:                      "-0x1.a224p-133",
		1e30:                          "0x1.93e594p+99",
		3:                             "0x1.8p+1",
		float32(math.Copysign(0, -1)): "-0x0p+0",
		math.MaxFloat32:               "0x1.fffffep+127",
		math.SmallestNonzeroFloat32:   "0x1p-149",
	} {
		assert.Equal(t, want, hexFloat(v), "%v", v)
		back, err := strconv.ParseFloat(hexFloat(v), 32)
		require.NoError(t, err)
		assert.Equal(t, math.Float32bits(v), math.Float32bits(float32(back)))
	}
}
