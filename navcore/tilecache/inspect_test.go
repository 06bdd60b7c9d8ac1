package tilecache

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

func statusOf(t *testing.T, cache *Cache, ref ObstacleRef) ObstacleStatus {
	t.Helper()
	for _, info := range cache.Obstacles(nil) {
		if info.Ref == ref {
			return info.Status
		}
	}
	return 0
}

func TestObstaclesReportTheirStatus(t *testing.T) {
	cache := loadDungeon(t, 1)
	// A box over several tiles, so that a budget of one tile leaves it
	// half built.
	big := Box(dungeonPoint.Sub(mgl32.Vec3{10, 1, 10}), dungeonPoint.Add(mgl32.Vec3{10, 1, 10}))
	ref, err := cache.AddObstacle(big)
	require.NoError(t, err)
	small, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)

	infos := cache.Obstacles(nil)
	require.Len(t, infos, 2)
	assert.Equal(t, ref, infos[0].Ref, "slot order")
	assert.Equal(t, big, infos[0].Obstacle)
	assert.Equal(t, big.Min, infos[0].BMin)
	assert.Equal(t, big.Max, infos[0].BMax)
	assert.Equal(t, ObstaclePending, infos[0].Status)
	assert.Equal(t, ObstaclePending, infos[1].Status)
	assert.InDelta(t, dungeonPoint[0]-1, infos[1].BMin[0], 1e-5, "a cylinder's bounds")

	_, err = cache.Update(Budget{MaxTiles: 1})
	require.NoError(t, err)
	assert.Equal(t, ObstacleBuilding, statusOf(t, cache, ref), "resolved, tiles left")
	upToDate, err := cache.ObstacleUpToDate(ref)
	require.NoError(t, err)
	assert.False(t, upToDate)

	updateUntilDone(t, cache)
	for _, r := range []ObstacleRef{ref, small} {
		assert.Equal(t, ObstacleUpToDate, statusOf(t, cache, r))
		upToDate, err := cache.ObstacleUpToDate(r)
		require.NoError(t, err)
		assert.True(t, upToDate, "the status agrees with ObstacleUpToDate")
	}

	require.NoError(t, cache.MoveObstacle(small, Cylinder(dungeonPoint, 0.5, 2)))
	assert.Equal(t, ObstaclePending, statusOf(t, cache, small), "a move waits for Update again")
	require.NoError(t, cache.RemoveObstacle(ref))
	assert.Equal(t, ObstacleRemoving, statusOf(t, cache, ref), "the removed handle is reported")
	assert.Len(t, cache.Obstacles(nil), 2)
	updateUntilDone(t, cache)
	infos = cache.Obstacles(infos[:0])
	require.Len(t, infos, 1, "the removal resolved, the slot freed")
	assert.Equal(t, small, infos[0].Ref)
	assert.Equal(t, "removing", ObstacleRemoving.String())
	assert.Zero(t, testing.AllocsPerRun(10, func() { infos = cache.Obstacles(infos[:0]) }))
}

func TestLayerStagesMatchThePublishedTile(t *testing.T) {
	cache := loadDungeon(t, 1)
	_, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	snap := cache.Mesh().Snapshot()

	checked, carved := 0, 0
	for _, info := range cache.Layers(nil) {
		stages, err := cache.LayerStages(info.Ref)
		require.NoError(t, err)
		h := info.Header
		assert.Equal(t, h, stages.Layer.Header)
		cells := int(h.Width) * int(h.Height)
		require.Len(t, stages.Regions, cells)
		require.Len(t, stages.Contours, stages.RegionCount, "one contour per region")
		for i := range cells {
			if stages.Layer.Areas[i] == NullArea {
				assert.Equal(t, uint8(0xff), stages.Regions[i], "no region without ground")
			} else {
				assert.Less(t, int(stages.Regions[i]), stages.RegionCount)
			}
		}
		for _, c := range stages.Contours {
			for _, v := range c.Vertices {
				assert.LessOrEqual(t, int(v.X), int(h.Width))
				assert.LessOrEqual(t, int(v.Z), int(h.Height))
				assert.True(t, v.Portal == NoPortal || v.Portal < 4)
			}
		}
		// The poly mesh is the published tile's polygons, vertex by vertex.
		tile := snap.TileAt(int(h.TX), int(h.TY), int(h.TLayer))
		if len(stages.Polygons) == 0 {
			assert.Nil(t, tile)
			continue
		}
		require.NotNil(t, tile)
		require.Len(t, stages.Polygons, len(tile.Polys))
		require.Len(t, stages.Vertices, len(tile.Verts))
		for p, poly := range stages.Polygons {
			tp := &tile.Polys[p]
			require.Equal(t, int(tp.VertCount), poly.Count)
			for j := range poly.Count {
				require.Equal(t, tp.Verts[j], poly.Vertices[j])
				n := poly.Neighbours[j]
				switch {
				case n == EdgeWall:
					assert.Zero(t, tp.Neighbours[j])
				case n&EdgePortal != 0:
					assert.NotZero(t, tp.Neighbours[j]&navmesh.ExternalLink, "a portal is a tile border edge")
				default:
					assert.Equal(t, n+1, tp.Neighbours[j])
				}
			}
			wantArea := poly.Area
			if wantArea == WalkableArea {
				wantArea = navmesh.AreaGround // RecastDemoProcess
			}
			assert.Equal(t, wantArea, tp.Area())
			v := stages.Vertices[poly.Vertices[0]]
			world := mgl32.Vec3{h.BMin[0] + float32(float32(v[0])*cache.params.CellSize), h.BMin[1] + float32(float32(v[1])*cache.params.CellHeight), h.BMin[2] + float32(float32(v[2])*cache.params.CellSize)}
			assert.InDelta(t, world[0], tile.Verts[tp.Verts[0]][0], 1e-3)
			assert.InDelta(t, world[2], tile.Verts[tp.Verts[0]][2], 1e-3)
		}
		checked++
		// The cells under the cylinder's centre are carved.
		x := int((dungeonPoint[0] - h.BMin[0]) / cache.params.CellSize)
		z := int((dungeonPoint[2] - h.BMin[2]) / cache.params.CellSize)
		if x >= 0 && z >= 0 && x < int(h.Width) && z < int(h.Height) && stages.Layer.Heights[x+z*int(h.Width)] != 0xff {
			y := h.BMin[1] + float32(float32(stages.Layer.Heights[x+z*int(h.Width)])*cache.params.CellHeight)
			if y >= dungeonPoint[1]-0.5 && y <= dungeonPoint[1]+2 {
				assert.Equal(t, NullArea, stages.Layer.Areas[x+z*int(h.Width)])
				carved++
			}
		}
	}
	assert.Positive(t, checked)
	assert.Positive(t, carved, "the obstacle shows in the stages")
	_, err = cache.LayerStages(0)
	assert.ErrorIs(t, err, ErrInvalidLayerRef)
}

// TestInspectionDuringUpdates reads obstacles and layer stages from another
// goroutine while obstacles change and Update runs (for -race).
func TestInspectionDuringUpdates(t *testing.T) {
	cache := loadDungeon(t, 2)
	layers := cache.Layers(nil)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var infos []ObstacleInfo
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			infos = cache.Obstacles(infos[:0])
			for _, info := range infos {
				if info.Status < ObstaclePending || info.Status > ObstacleRemoving {
					t.Errorf("status %d", info.Status)
				}
			}
			if _, err := cache.LayerStages(layers[i%len(layers)].Ref); err != nil {
				t.Error(err)
			}
		}
	}()
	ref, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	for i := range 20 {
		_, err := cache.Update(Budget{MaxTiles: 1})
		require.NoError(t, err)
		require.NoError(t, cache.MoveObstacle(ref, Cylinder(dungeonPoint.Add(mgl32.Vec3{float32(i%3) * 0.3, 0, 0}), 1, 2)))
	}
	close(done)
	<-finished
}
