package plugin

import (
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/require"
)

// TestSameSeedSamePositions: the same agents, targets and ticks give the
// same positions to the bit, run after run.
func TestSameSeedSamePositions(t *testing.T) {
	mesh := loadDungeon(t)
	run := func() []geom.Vec3 {
		f := newCrowd(t, mesh, 150, 11, Config{})
		f.step(t, 240)
		return f.positions(t)
	}
	first := run()
	require.Equal(t, first, run())
}

// TestWorkersAreBitIdentical: the parallel stages give exactly the result
// of one goroutine, whatever the number of workers (run it with -race).
func TestWorkersAreBitIdentical(t *testing.T) {
	mesh := loadDungeon(t)
	ticks, agents := 150, 150
	if testing.Short() {
		ticks, agents = 60, 100
	}
	var want []geom.Vec3
	for _, workers := range []int{1, 2, 5} {
		f := newCrowd(t, mesh, agents, 12, Config{Workers: workers})
		f.step(t, ticks)
		got := f.positions(t)
		f.plugin.Schedule().Finalize(f.world)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got, "%d workers", workers)
	}
}

// TestReferenceModeWithWorkers: Reference mode, whose path queue serves one
// request at a time, gives the same positions with 1 and 4 workers (120
// agents with random trips, 120 ticks). This compares worker counts with each other;
// the comparison with recorded dtCrowd runs is TestMatchesReferenceCrowd.
func TestReferenceModeWithWorkers(t *testing.T) {
	mesh := loadDungeon(t)
	var want []geom.Vec3
	for _, workers := range []int{1, 4} {
		f := newCrowd(t, mesh, 120, 13, Config{Workers: workers, Reference: true})
		f.step(t, 120)
		got := f.positions(t)
		f.plugin.Schedule().Finalize(f.world)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got)
	}
}
