package tilecache

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
)

// bigWorld is a tiled level of copies×copies dungeons side by side: the C++
// file's 30 layers moved by whole dungeon grids (6×7 tiles), 270 layers on
// an 18×21 tile grid for copies 3.
func bigWorld(t testing.TB, copies int, options Options) *Cache {
	t.Helper()
	set, _ := readDungeonTSET(t)
	const gridX, gridY = 6, 7
	params := set.CacheParams
	params.MaxTiles = 1024
	params.MaxObstacles = 4096
	meshParams := set.MeshParams
	meshParams.MaxTiles = 1024
	mesh, err := navmesh.New(meshParams)
	require.NoError(t, err)
	cache, err := New(params, mesh, options)
	require.NoError(t, err)
	tw := float32(params.Width) * params.CellSize
	for cy := range copies {
		for cx := range copies {
			for _, stored := range set.Layers {
				layer, err := DecodeLayer(stored.Data, FastLZ{})
				require.NoError(t, err)
				h := &layer.Header
				h.TX += int32(cx * gridX)
				h.TY += int32(cy * gridY)
				dx, dz := float32(float32(cx*gridX)*tw), float32(float32(cy*gridY)*tw)
				h.BMin[0] += dx
				h.BMax[0] += dx
				h.BMin[2] += dz
				h.BMax[2] += dz
				data, err := EncodeLayer(layer, FastLZ{})
				require.NoError(t, err)
				_, err = cache.AddLayer(data)
				require.NoError(t, err)
			}
		}
	}
	updateUntilDone(t, cache)
	return cache
}

// tileBlobs returns every tile's C++ blob by location.
func tileBlobs(t testing.TB, s *navmesh.Snapshot) map[[3]int32][]byte {
	t.Helper()
	out := map[[3]int32][]byte{}
	for i := range s.MaxTiles() {
		if tile := s.Tile(i); tile != nil {
			blob, err := navmesh.MarshalDNAV(tile.Data)
			require.NoError(t, err)
			out[[3]int32{tile.Data.Header.X, tile.Data.Header.Y, tile.Data.Header.Layer}] = blob
		}
	}
	return out
}

// randomObstacles places n obstacles at polygon centres of s: cylinders,
// boxes, oriented boxes and prisms, every tenth a wide box over many tiles.
func randomObstacles(s *navmesh.Snapshot, n int, rng *rand.Rand) []Obstacle {
	var tiles []*navmesh.Tile
	for i := range s.MaxTiles() {
		if tile := s.Tile(i); tile != nil {
			tiles = append(tiles, tile)
		}
	}
	slices.SortFunc(tiles, func(a, b *navmesh.Tile) int {
		return cmp.Or(cmp.Compare(a.Data.Header.Y, b.Data.Header.Y), cmp.Compare(a.Data.Header.X, b.Data.Header.X), cmp.Compare(a.Data.Header.Layer, b.Data.Header.Layer))
	})
	out := make([]Obstacle, 0, n)
	for len(out) < n {
		tile := tiles[rng.IntN(len(tiles))]
		poly := &tile.Polys[rng.IntN(len(tile.Polys))]
		var c mgl32.Vec3
		for _, v := range poly.Verts[:poly.VertCount] {
			c = c.Add(tile.Verts[v])
		}
		c = c.Mul(1 / float32(poly.VertCount))
		size := 0.5 + float32(2*float32(rng.Float32()))
		switch i := len(out); {
		case i%10 == 9:
			half := 20 + float32(15*rng.Float32())
			out = append(out, Box(c.Sub(mgl32.Vec3{half, 1, half}), c.Add(mgl32.Vec3{half, 2, half})))
		case i%4 == 0:
			out = append(out, Cylinder(c.Sub(mgl32.Vec3{0, 0.5, 0}), size, 2))
		case i%4 == 1:
			out = append(out, Box(c.Sub(mgl32.Vec3{size, 0.5, size}), c.Add(mgl32.Vec3{size, 1.5, size})))
		case i%4 == 2:
			out = append(out, OrientedBox(c.Add(mgl32.Vec3{0, 0.5, 0}), mgl32.Vec3{size, 1, size / 2}, 6.28*rng.Float32()))
		default:
			pts := []mgl32.Vec2{{c[0] - size, c[2]}, {c[0], c[2] - size}, {c[0] + size, c[2] + float32(size/2)}}
			out = append(out, Prism(pts, c[1]-0.5, c[1]+1.5))
		}
	}
	return out
}

// TestBurstLosesNothing adds 300 obstacles to a 270-layer level in one
// burst, with some covering dozens of layers and hundreds of layers
// waiting at once (the C++ drops rebuilds past 64 pending and marks at most
// 8 layers per obstacle). The mesh must equal adding them one at a time,
// whatever the Update budget; removing them all in a burst must give back
// the first mesh byte for byte.
func TestBurstLosesNothing(t *testing.T) {
	serial := bigWorld(t, 3, Options{})
	initial := tileBlobs(t, serial.Mesh().Snapshot())
	require.Len(t, initial, 9*30)
	obstacles := randomObstacles(serial.Mesh().Snapshot(), 300, rand.New(rand.NewPCG(5, 6)))

	// One at a time, each brought up to date before the next.
	wide, widest := 0, 0
	for _, o := range obstacles {
		_, err := serial.AddObstacle(o)
		require.NoError(t, err)
		updateUntilDone(t, serial)
		p := place(o)
		n := len(serial.queryLayers(p.bmin, p.bmax, nil))
		if n > 8 {
			wide++
		}
		widest = max(widest, n)
	}
	assert.GreaterOrEqual(t, wide, 10, "obstacles touching more than 8 layers")
	t.Logf("%d obstacles touch more than 8 layers, the widest %d", wide, widest)
	want := tileBlobs(t, serial.Mesh().Snapshot())
	require.NotEqual(t, initial, want)

	variants := []struct {
		budget  Budget
		workers int
	}{{Budget{}, 2}, {Budget{MaxTiles: 7}, 1}}
	if longtest.Enabled() {
		variants = append(variants, struct {
			budget  Budget
			workers int
		}{Budget{}, 1}, struct {
			budget  Budget
			workers int
		}{Budget{MaxTiles: 7}, 2})
	}
	for _, v := range variants {
		budget, workers := v.budget, v.workers
		{
			burst := bigWorld(t, 3, Options{Workers: workers})
			refs := make([]ObstacleRef, len(obstacles))
			for i, o := range obstacles {
				var err error
				refs[i], err = burst.AddObstacle(o)
				require.NoError(t, err)
			}
			burst.mu.Lock()
			burst.resolve()
			queued := len(burst.pending)
			burst.mu.Unlock()
			assert.Greater(t, queued, 64, "layers waiting at once")

			calls := updateWithin(t, burst, budget)
			if budget.MaxTiles > 0 {
				assert.GreaterOrEqual(t, calls, queued/budget.MaxTiles)
			}
			assert.Equal(t, want, tileBlobs(t, burst.Mesh().Snapshot()), "burst with budget %+v on %d workers", budget, workers)
			assertSameSummary(t, serial, burst)

			for _, ref := range refs {
				require.NoError(t, burst.RemoveObstacle(ref))
			}
			updateWithin(t, burst, budget)
			assert.Equal(t, initial, tileBlobs(t, burst.Mesh().Snapshot()), "all removed")
			assert.Zero(t, burst.ObstacleCount())
		}
	}
}

// updateWithin calls Update with budget until the cache is up to date and
// returns the number of calls.
func updateWithin(t testing.TB, cache *Cache, budget Budget) int {
	t.Helper()
	for calls := 1; ; calls++ {
		done, err := cache.Update(budget)
		require.NoError(t, err)
		if done {
			return calls
		}
		require.Less(t, calls, 100000)
	}
}

func assertSameSummary(t *testing.T, a, b *Cache) {
	t.Helper()
	sa, err := Summarize(a.Mesh().Snapshot())
	require.NoError(t, err)
	sb, err := Summarize(b.Mesh().Snapshot())
	require.NoError(t, err)
	assert.Equal(t, sa, sb)
}
