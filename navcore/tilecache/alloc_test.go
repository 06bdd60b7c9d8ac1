package tilecache

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestObstacleChangesAllocateNothing: once the cache has held an
// obstacle, adding, moving and removing obstacles allocates nothing.
func TestObstacleChangesAllocateNothing(t *testing.T) {
	cache := loadDungeon(t, 1)
	other := mgl32.Vec3{15.9544315, 14.295619, -66.1843567}
	ref, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	allocs := testing.AllocsPerRun(50, func() {
		_ = cache.MoveObstacle(ref, Cylinder(other, 1, 2))
		_ = cache.MoveObstacle(ref, Cylinder(dungeonPoint, 1, 2))
		_ = cache.RemoveObstacle(ref)
		cache.mu.Lock()
		cache.resolve()
		cache.pending = cache.pending[:0]
		for i := range cache.layers {
			cache.layers[i].pending = false
		}
		cache.mu.Unlock()
		ref, _ = cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	})
	assert.Zero(t, allocs)
}

// TestTileBuildAllocatesNothing: a worker's layer build, from the
// compressed layer through obstacle marking, regions, contours, polygons
// and the mesh process to the tile-data input, allocates nothing once
// its builder has seen layers of that size.
func TestTileBuildAllocatesNothing(t *testing.T) {
	cache := loadDungeon(t, 1)
	for _, row := range readObstacles(t, "testdata/tc48_dungeon_obstacles.csv") {
		_, err := cache.AddObstacle(row.obstacle)
		require.NoError(t, err)
	}
	updateUntilDone(t, cache)
	b := &builder{}
	inputs := make([]buildInput, 0, len(cache.layers))
	for i := range cache.layers {
		l := &cache.layers[i]
		inputs = append(inputs, buildInput{params: &cache.params, compressor: cache.compressor, process: cache.process,
			header: l.header, data: l.data, obstacles: l.obstacles, slots: cache.obstacles})
	}
	run := func() {
		for i := range inputs {
			if err := b.buildPolygons(&inputs[i]); err != nil {
				panic(err)
			}
			b.prepareParams(&inputs[i])
		}
	}
	run()
	assert.Zero(t, testing.AllocsPerRun(10, run))
}

// TestUpdateAllocatesOnlyTheTiles measures a steady-state obstacle move
// and Update: what is left allocates the published tiles (BuildTileData,
// the mesh's new tile versions, its snapshot and change record), a fixed
// number per rebuilt tile whatever the obstacles.
func TestUpdateAllocatesOnlyTheTiles(t *testing.T) {
	cache := loadDungeon(t, 1)
	other := mgl32.Vec3{15.9544315, 14.295619, -66.1843567}
	ref, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	positions := [2]mgl32.Vec3{other, dungeonPoint}
	i := 0
	tiles := 0
	move := func() {
		i++
		_ = cache.MoveObstacle(ref, Cylinder(positions[i%2], 1, 2))
		cache.mu.Lock()
		cache.resolve()
		tiles += len(cache.pending)
		cache.mu.Unlock()
		_, _ = cache.Update(Budget{})
	}
	for range 4 {
		move()
	}
	tiles = 0
	const runs = 20
	allocs := testing.AllocsPerRun(runs, move)
	perTile := allocs * float64(runs+1) / float64(tiles)
	t.Logf("%.1f allocations per update, %.1f per rebuilt tile", allocs, perTile)
	assert.Less(t, perTile, 25.0)
}
