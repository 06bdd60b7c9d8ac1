package bake_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLevelsAcrossCPUs bakes the three RecastDemo levels and a 6×6-tile
// block of the generated 1 km level (benchmarks/bigworld, tiled, and the
// tile cache layers of the block's middle tiles), then runs queries on each
// navmesh (nearest polygon, path, straight path, raycast, move along the
// surface, distance to the wall) from a grid of points, and hashes every
// output's bits. The hashes were taken on amd64; .ci/crossarch.sh runs
// this test on arm64 under qemu, on 386, with GOAMD64=v3 and as WebAssembly,
// where any fused multiply-add or architecture-dependent maths would
// change them. The RecastDemo bakes themselves are checked against the C++
// by TestSoloMatchesRecast, TestTiledMatchesRecastDemoTable and
// TestTileCacheMatchesTheCPP.
func TestLevelsAcrossCPUs(t *testing.T) {
	tests := []struct {
		level       string
		bake, query string
	}{
		{"dungeon", "e0fbb7d7f79d6169", "21db9c975585c32d"},
		{"nav_test", "d9cb9b5dbee62324", "14f778480808e1d3"},
		{"undulating", "bb8159c2a29c118a", "c59157b4406eb3e9"},
		{"bigworld", "5541a7dd77e2ea62", "c4c9ca998b3216de"},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			bakeHash := fnv.New64a()
			var mesh *navmesh.Mesh
			if tt.level == "bigworld" {
				mesh = bakeBigworldBlock(t, bakeHash)
			} else {
				mesh = bakeLevel(t, tt.level, bakeHash)
			}
			assert.Equal(t, tt.bake, fmt.Sprintf("%016x", bakeHash.Sum64()), "bake")
			assert.Equal(t, tt.query, queryHash(t, mesh), "queries")
		})
	}
}

// bakeLevel bakes testdata/<level>.obj solo and tiled, hashes both and
// returns the tiled navmesh.
func bakeLevel(t *testing.T, level string, h hash.Hash64) *navmesh.Mesh {
	g, err := bake.LoadOBJ("../testdata/" + level + ".obj")
	require.NoError(t, err)
	solo, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	require.NoError(t, err)
	putFingerprints(h, solo.Fingerprints)
	tiled, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), bake.TiledOptions{})
	require.NoError(t, err)
	tiledPrint, err := tiled.Fingerprints()
	require.NoError(t, err)
	putFingerprints(h, tiledPrint)
	mesh, err := tiled.NavMesh()
	require.NoError(t, err)
	return mesh
}

// bakeBigworldBlock bakes the 6×6 tiles around the middle of the 1 km
// level and the tile cache layers of the middle 2×2, hashes them and
// returns the block's navmesh.
func bakeBigworldBlock(t *testing.T, h hash.Hash64) *navmesh.Mesh {
	g, err := bigworld.Default().Geometry()
	require.NoError(t, err)
	baker, err := bake.NewTileBaker(g, bigworld.Settings(), bake.TiledOptions{})
	require.NoError(t, err)
	tx, ty := baker.Grid()
	block := bake.TileRange{MinX: tx/2 - 3, MinY: ty/2 - 3, MaxX: tx/2 + 2, MaxY: ty/2 + 2}
	tiled, err := bake.Tiled(context.Background(), g, bigworld.Settings(), bake.TiledOptions{Tiles: &block})
	require.NoError(t, err)
	require.NotEmpty(t, tiled.Tiles)
	prints, err := tiled.Fingerprints()
	require.NoError(t, err)
	putFingerprints(h, prints)
	middle := bake.TileRange{MinX: tx/2 - 1, MinY: ty/2 - 1, MaxX: tx / 2, MaxY: ty / 2}
	layers, err := baker.BuildAllLayers(context.Background(), bake.TileCacheOptions{Tiles: &middle})
	require.NoError(t, err)
	require.NotEmpty(t, layers.Layers())
	putU64(h, layers.LayerHash())
	mesh, err := tiled.NavMesh()
	require.NoError(t, err)
	return mesh
}

func putFingerprints(h hash.Hash64, f bake.Fingerprints) {
	for _, v := range []uint64{f.PolyMesh, f.DetailMesh, f.TileData} {
		putU64(h, v)
	}
}

func putU64(h hash.Hash64, v uint64) {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], v)
	h.Write(buf[:])
}

// queryHash runs the queries from a 12×12 grid of points over the mesh's
// bounds, each paired with the point seven places further on, and hashes
// every result.
func queryHash(t *testing.T, mesh *navmesh.Mesh) string {
	q, err := query.New(mesh, 4096)
	require.NoError(t, err)
	filter := query.NewFilter()
	// Each kind of query also gets a hash of its own, logged, to tell
	// which one differs when the total does.
	h := fnv.New64a()
	kinds := map[string]hash.Hash64{}
	kind := "nearest"
	putU := func(v uint64) {
		putU64(h, v)
		if kinds[kind] == nil {
			kinds[kind] = fnv.New64a()
		}
		putU64(kinds[kind], v)
	}
	putF := func(fs ...float32) {
		for _, f := range fs {
			if f != f {
				// A NaN's sign and payload are the CPU's (amd64 makes
				// negative NaNs, arm64 positive ones): only NaN-ness is
				// promised. FindDistanceToWall's normal is NaN when the
				// point lies on the wall.
				f = float32(math.NaN())
			}
			putU(uint64(math.Float32bits(f)))
		}
	}
	bmin, bmax := meshBounds(mesh)
	const n = 12
	var points []query.NearestPoly
	for i := range n {
		for j := range n {
			p := geom.Vec3{
				bmin[0] + float32(float32(bmax[0]-bmin[0])*(float32(i)+0.5)/n),
				float32(bmin[1]+bmax[1]) / 2,
				bmin[2] + float32(float32(bmax[2]-bmin[2])*(float32(j)+0.5)/n),
			}
			nearest, err := q.FindNearestPoly(p, geom.Vec3{4, bmax[1] - bmin[1], 4}, filter)
			require.NoError(t, err)
			putU(uint64(nearest.Ref))
			putF(nearest.Point[:]...)
			if nearest.Ref != 0 {
				points = append(points, nearest)
			}
		}
	}
	path := make([]navmesh.Ref, 512)
	straight := make([]query.StraightPathPoint, 512)
	visited := make([]navmesh.Ref, 64)
	for i, a := range points {
		b := points[(i+7)%len(points)]
		kind = "path"
		count, status, err := q.FindPath(a.Ref, b.Ref, a.Point, b.Point, filter, path)
		require.NoError(t, err)
		putU(uint64(count))
		putU(uint64(status))
		for _, ref := range path[:count] {
			putU(uint64(ref))
		}
		kind = "straight path"
		if count > 0 {
			ns, _, err := q.FindStraightPath(a.Point, b.Point, path[:count], straight, query.StraightPathAllCrossings)
			require.NoError(t, err)
			for _, p := range straight[:ns] {
				putF(p.Pos[:]...)
				putU(uint64(p.Ref))
			}
		}
		kind = "raycast"
		hit, _, err := q.Raycast(a.Ref, a.Point, b.Point, filter, 0, 0, path)
		require.NoError(t, err)
		putF(hit.T)
		putF(hit.HitNormal[:]...)
		putU(uint64(hit.PathCount))
		kind = "move along surface"
		end, nv, _, err := q.MoveAlongSurface(a.Ref, a.Point, b.Point, filter, visited)
		require.NoError(t, err)
		putF(end[:]...)
		putU(uint64(nv))
		kind = "distance to wall"
		wall, _, err := q.FindDistanceToWall(a.Ref, a.Point, 5, filter)
		require.NoError(t, err)
		putF(wall.Distance)
		putF(wall.Pos[:]...)
		putF(wall.Normal[:]...)
	}
	require.NotEmpty(t, points)
	for name, k := range kinds {
		t.Logf("%s: %016x", name, k.Sum64())
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// meshBounds returns the bounds of the mesh's tiles.
func meshBounds(mesh *navmesh.Mesh) (bmin, bmax geom.Vec3) {
	first := true
	for tile := range mesh.Snapshot().Tiles() {
		h := tile.Data.Header
		if first {
			bmin, bmax, first = h.BMin, h.BMax, false
			continue
		}
		bmin, bmax = geom.Min(bmin, h.BMin), geom.Max(bmax, h.BMax)
	}
	return bmin, bmax
}
