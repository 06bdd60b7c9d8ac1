package benchmarks

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The harness tests check the benchmarks' inputs, not speed: the levels bake
// to the C++ reference products, and the random workloads are the same on
// every run.

func TestLCGIsSeededAndInRange(t *testing.T) {
	a, b, other := &lcg{state: pairSeed}, &lcg{state: pairSeed}, &lcg{state: pairSeed + 1}
	differs := false
	for range 1000 {
		x := a.next()
		require.Equal(t, x, b.next())
		require.GreaterOrEqual(t, x, float32(0))
		require.Less(t, x, float32(1))
		if other.next() != x {
			differs = true
		}
	}
	assert.True(t, differs, "another seed gives the same sequence")
}

// TestSoloBakesAreTheReference checks that the benchmarks bake what the C++
// baked: the reference README's counts and tile data fingerprints.
func TestSoloBakesAreTheReference(t *testing.T) {
	tests := []struct {
		level             string
		polys, detailTris int
		tileBytes         int
		tileData          string
	}{
		{"dungeon", 118, 291, 19064, "9acbed5cd350892d"},
		{"nav_test", 155, 561, 28056, "e8bf2566e9f8bd5e"},
		{"undulating", 216, 3198, 67456, "7d5b8435c56c980b"},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			result := soloBake(t, tt.level)
			counts := result.Stats.Counts
			assert.Equal(t, tt.polys, counts.Polys)
			assert.Equal(t, tt.detailTris, counts.DetailTris)
			assert.Equal(t, tt.tileBytes, counts.TileBytes)
			assert.Equal(t, tt.tileData, fmt.Sprintf("%016x", result.Fingerprints.TileData))
			assert.Equal(t, 1, soloMesh(t, tt.level).TileCount())
		})
	}
}

// TestTiledBakesAreTheReference checks the tiled bakes against the
// reference README's tiled table.
func TestTiledBakesAreTheReference(t *testing.T) {
	tests := []struct {
		level                       string
		tilesX, tilesY, tiles       int
		polys, verts, detail, bytes int
	}{
		{"dungeon", 8, 11, 41, 143, 398, 344, 32052},
		{"nav_test", 10, 9, 66, 272, 819, 710, 62992},
		{"undulating", 11, 11, 121, 357, 884, 3080, 112296},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			stats := tiledBake(t, tt.level).Stats
			assert.Equal(t, [3]int{tt.tilesX, tt.tilesY, tt.tiles}, [3]int{stats.TilesX, stats.TilesY, stats.TilesWithData})
			assert.Equal(t, [4]int{tt.polys, tt.verts, tt.detail, tt.bytes},
				[4]int{stats.Counts.Polys, stats.Counts.PolyVerts, stats.Counts.DetailTris, stats.Counts.TileBytes})
			assert.Equal(t, tt.tiles, tiledMesh(t, tt.level).TileCount())
		})
	}
}

func TestPairSetIsDeterministic(t *testing.T) {
	mesh := soloMesh(t, "dungeon")
	a, err := newPairSet(mesh, 200, pairSeed)
	require.NoError(t, err)
	b, err := newPairSet(mesh, 200, pairSeed)
	require.NoError(t, err)
	c, err := newPairSet(mesh, 200, pairSeed+1)
	require.NoError(t, err)

	require.Equal(t, 200, a.len())
	assert.Equal(t, a.starts, b.starts)
	assert.Equal(t, a.ends, b.ends)
	assert.Equal(t, a.paths, b.paths)
	assert.Equal(t, a.partial, b.partial)
	assert.NotEqual(t, a.starts, c.starts)
	for k := range a.len() {
		require.NotZero(t, a.startRefs[k], "pair %d", k)
		require.NotZero(t, a.endRefs[k], "pair %d", k)
		require.NotEmpty(t, a.paths[k], "pair %d", k)
		require.Equal(t, a.startRefs[k], a.paths[k][0], "pair %d", k)
	}
	// The dungeon has unconnected parts: some pairs end partial, most not.
	assert.Greater(t, a.partial, 0)
	assert.Less(t, a.partial, a.len()/2)
	assert.Greater(t, a.meanPolys, 5.0)
}

func TestPairRunnerRunsAWholePair(t *testing.T) {
	mesh := soloMesh(t, "dungeon")
	set, err := newPairSet(mesh, 20, pairSeed)
	require.NoError(t, err)
	r, err := newPairRunner(mesh)
	require.NoError(t, err)
	for k := range set.len() {
		points, err := r.run(set, k)
		require.NoError(t, err)
		require.GreaterOrEqual(t, points, 2, "pair %d: a straight path has a start and an end", k)
		assert.Equal(t, set.starts[k], r.points[0].Pos, "pair %d", k)
	}
}

// TestTileWriterEdits runs the writer of the concurrent benchmark for a few
// edits: the tile goes and comes back in its slot, and the mesh keeps its
// tile count.
func TestTileWriterEdits(t *testing.T) {
	mesh := tiledMesh(t, "dungeon")
	set, err := newPairSet(mesh, 200, pairSeed)
	require.NoError(t, err)
	w, err := newTileWriter(mesh, set)
	require.NoError(t, err)
	before := mesh.TileByRef(w.ref)
	require.NotNil(t, before)
	w.start()
	for w.edits.Load() < 3 {
		time.Sleep(100 * time.Microsecond)
	}
	edits, _, err := w.stop()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, edits, 3)
	after := mesh.TileByRef(w.ref)
	require.NotNil(t, after)
	assert.Equal(t, before.Index(), after.Index())
	assert.Equal(t, before.Data, after.Data)
	assert.Equal(t, 41, mesh.TileCount())
}

// TestPairsWhileATileChanges runs whole pairs on two goroutines sharing the
// tiled dungeon while the writer removes and adds back its busiest tile:
// no pair may fail for any other reason than the tile being gone (run it
// with -race).
func TestPairsWhileATileChanges(t *testing.T) {
	mesh := tiledMesh(t, "dungeon")
	set, err := newPairSet(mesh, 500, pairSeed)
	require.NoError(t, err)
	w, err := newTileWriter(mesh, set)
	require.NoError(t, err)
	runners := make([]*pairRunner, 2)
	for g := range runners {
		runners[g], err = newPairRunner(mesh)
		require.NoError(t, err)
	}
	w.start()
	failed, err := runPairs(runners, set, 2000, true)
	edits, _, writerErr := w.stop()
	require.NoError(t, err)
	require.NoError(t, writerErr)
	t.Logf("%d edits, %d of 2000 pairs met the tile gone", edits, failed)
	assert.Less(t, failed, 2000/10)
	assert.Equal(t, 41, mesh.TileCount())
}
