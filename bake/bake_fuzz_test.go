package bake

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// fuzzLevel is the level and the settings a FuzzBake input stands for:
// settingsBytes bytes of settings, then 9 bytes per triangle.
type fuzzLevel struct {
	settings Settings
	geometry *Geometry
}

const (
	fuzzSettingsBytes = 12
	fuzzMaxTriangles  = 48
)

// decodeFuzzLevel turns fuzz bytes into a small level (coordinates 0..12.75
// in x and z, 0..6.4 in y) and settings from most of the range a user may
// choose (cells no smaller than 0.1 × 0.05), with memory and tile limits
// that keep each bake small.
func decodeFuzzLevel(data []byte) (fuzzLevel, bool) {
	if len(data) < fuzzSettingsBytes+9 {
		return fuzzLevel{}, false
	}
	b := data[:fuzzSettingsBytes]
	s := DefaultSettings()
	// cells of 0.1 and more keep a level at 128 × 128 cells or fewer, so
	// that an input bakes in milliseconds
	s.CellSize = 0.1 + float32(float32(b[0])/255*0.9)
	s.CellHeight = 0.05 + float32(float32(b[1])/255*0.45)
	s.AgentHeight = 0.1 + float32(float32(b[2])/255*3)
	s.AgentRadius = float32(b[3]) / 255 * 2
	s.AgentMaxClimb = float32(b[4]) / 255 * 2
	s.AgentMaxSlope = float32(b[5]) / 255 * 90
	s.Partition = PartitionType(b[6] % 3)
	s.VertsPerPoly = 3 + int(b[6]/3%4)
	s.RegionMinSize = float32(b[7] % 16)
	s.RegionMergeSize = float32(b[7] / 16 * 3)
	s.EdgeMaxLen = float32(b[8] % 24)
	s.EdgeMaxError = float32(b[8]/24) * 0.3
	s.DetailSampleDist = float32(b[9]%10) * 0.9
	s.DetailSampleMaxError = float32(b[9] / 10 % 4)
	s.Filters = Filters{LowHangingObstacles: b[10]&1 != 0, LedgeSpans: b[10]&2 != 0, WalkableLowHeightSpans: b[10]&4 != 0}
	s.TileSize = 0
	if b[11] != 0 {
		s.TileSize = 4 + int(b[11]%60)
	}
	s.MaxMemory = 64 << 20
	s.MaxTiles = 256

	g := &Geometry{}
	for tris := data[fuzzSettingsBytes:]; len(tris) >= 9 && len(g.Triangles) < fuzzMaxTriangles; tris = tris[9:] {
		base := int32(len(g.Vertices))
		for k := range 3 {
			v := tris[3*k:]
			g.Vertices = append(g.Vertices, mgl32.Vec3{float32(v[0]) / 20, float32(v[1]) / 40, float32(v[2]) / 20})
		}
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2})
	}
	return fuzzLevel{settings: s, geometry: g}, true
}

// FuzzBake bakes random small levels with random settings, solo and tiled:
// a bake must not panic, and either fails with an error or gives tiles a
// navmesh takes, whose polygons lie in the level's bounds and answer a
// nearest-polygon query.
func FuzzBake(f *testing.F) {
	for _, seed := range fuzzBakeSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		level, ok := decodeFuzzLevel(data)
		if !ok {
			return
		}
		checkFuzzBake(t, level)
	})
}

func checkFuzzBake(t *testing.T, level fuzzLevel) {
	g, settings := level.geometry, level.settings
	var tiles []*navmesh.TileData
	var mesh *navmesh.Mesh
	if settings.TileSize == 0 {
		result, err := Solo(context.Background(), g, settings)
		if err != nil {
			return
		}
		tiles = []*navmesh.TileData{result.TileData}
		if mesh, err = navmesh.New(navmesh.SingleTileParams(result.TileData)); err == nil {
			_, err = mesh.AddTile(result.TileData, 0)
		}
		require.NoError(t, err, "a solo tile a mesh refuses")
	} else {
		result, err := Tiled(context.Background(), g, settings, TiledOptions{Workers: 2})
		if err != nil {
			require.False(t, errors.Is(err, context.Canceled), "%v", err)
			return
		}
		for _, tile := range result.Tiles {
			tiles = append(tiles, tile.Data)
		}
		if len(tiles) == 0 {
			return
		}
		mesh, err = result.NavMesh()
		require.NoError(t, err, "tiles a mesh refuses")
	}

	bmin, bmax := g.Bounds()
	q, err := query.New(mesh, 256)
	require.NoError(t, err)
	for _, data := range tiles {
		blob, err := navmesh.MarshalDNAV(data)
		require.NoError(t, err)
		again, err := navmesh.ReadDNAV(blob)
		require.NoError(t, err)
		require.Equal(t, len(data.Polys), len(again.Polys))
		slack := float32(2*settings.CellSize) + settings.AgentHeight + settings.CellHeight
		for _, v := range data.Verts { // the fuzz levels have no off-mesh connections
			for axis := range 3 {
				require.True(t, v[axis] >= bmin[axis]-slack && v[axis] <= bmax[axis]+slack, "vertex %v outside %v..%v", v, bmin, bmax)
			}
		}
		// the centre of the first polygon finds a polygon
		p := &data.Polys[0]
		var centre mgl32.Vec3
		for _, vi := range p.Verts[:p.VertCount] {
			centre = centre.Add(data.Verts[vi])
		}
		centre = centre.Mul(1 / float32(p.VertCount))
		nearest, err := q.FindNearestPoly(centre, mgl32.Vec3{1, 2, 1}, query.NewFilter())
		require.NoError(t, err)
		require.NotZero(t, nearest.Ref, "no polygon near the centre %v of a baked polygon", centre)
	}
}

// fuzzBakeSeeds returns inputs for a few levels: a floor, a ramp onto a
// step, two floors over each other, each solo and tiled, and settings at
// the edges of their ranges.
func fuzzBakeSeeds() [][]byte {
	defaults := []byte{65, 76, 170, 76, 115, 128, 0, 0x48, 12 + 24*4, 6 + 10, 7, 0}
	quad := func(x0, z0, x1, z1, y0, y1 byte) []byte {
		return []byte{x0, y0, z0, x0, y1, z1, x1, y1, z1, x0, y0, z0, x1, y1, z1, x1, y0, z0}
	}
	floor := quad(0, 0, 250, 250, 0, 0)
	ramp := append(quad(0, 0, 150, 120, 0, 0), quad(150, 0, 250, 120, 0, 60)...)
	stacked := append(quad(0, 0, 250, 250, 0, 0), quad(30, 30, 220, 220, 200, 200)...)
	withSettings := func(settings []byte, tris []byte) []byte { return append(append([]byte{}, settings...), tris...) }
	tiled := append([]byte{}, defaults...)
	tiled[11] = 28 // tile size 32
	extreme := []byte{0, 0, 255, 255, 255, 255, 5, 0xff, 255, 255, 0xff, 1}
	return [][]byte{
		withSettings(defaults, floor),
		withSettings(defaults, ramp),
		withSettings(defaults, stacked),
		withSettings(tiled, floor),
		withSettings(tiled, ramp),
		withSettings(tiled, stacked),
		withSettings(extreme, ramp),
	}
}

// TestBakeFuzzSeedsBake: the seed levels bake to navmeshes (so the fuzzer
// starts from inputs that reach every stage).
func TestBakeFuzzSeedsBake(t *testing.T) {
	for i, seed := range fuzzBakeSeeds()[:6] {
		level, ok := decodeFuzzLevel(seed)
		require.True(t, ok)
		if level.settings.TileSize == 0 {
			result, err := Solo(context.Background(), level.geometry, level.settings)
			require.NoError(t, err, "seed %d", i)
			require.NotZero(t, len(result.TileData.Polys), "seed %d", i)
		} else {
			result, err := Tiled(context.Background(), level.geometry, level.settings, TiledOptions{})
			require.NoError(t, err, "seed %d", i)
			require.NotEmpty(t, result.Tiles, "seed %d", i)
		}
		checkFuzzBake(t, level)
	}
}

// TestWriteBakeFuzzSeeds writes the seeds into testdata/fuzz/FuzzBake
// (BAKE_WRITE_FUZZ_SEEDS=1).
func TestWriteBakeFuzzSeeds(t *testing.T) {
	if os.Getenv("BAKE_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set BAKE_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz/FuzzBake")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzBake")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	names := []string{"floor", "ramp", "stacked", "floor_tiled", "ramp_tiled", "stacked_tiled", "extreme_settings"}
	for i, seed := range fuzzBakeSeeds() {
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(seed)))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "seed_"+names[i]), []byte(content), 0o644))
	}
}

// TestShortAgentPolygonsAreFound: with an agent under two cell heights high
// the detail mesh (a cell height above the spans, as in Recast) rose above
// the tile's bounds, and nearest-polygon queries missed most polygons
// (found by FuzzBake, input bf2964e740476f8f). The tile's top now holds
// the detail mesh; the C++'s tile misses them too.
func TestShortAgentPolygonsAreFound(t *testing.T) {
	for _, tileSize := range []int{0, 32} {
		settings := DefaultSettings()
		settings.CellSize, settings.CellHeight = 0.05, 0.11
		settings.AgentHeight, settings.AgentRadius, settings.AgentMaxClimb = 0.1, 0.4, 0.4
		settings.TileSize = tileSize
		g := &Geometry{
			Vertices:  []mgl32.Vec3{{0, 5, 0}, {0, 5, 3}, {3, 5, 3}, {3, 5, 0}},
			Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
		}
		level := fuzzLevel{settings: settings, geometry: g}
		checkFuzzBake(t, level)
		var tiles []*navmesh.TileData
		if tileSize == 0 {
			result, err := Solo(context.Background(), g, settings)
			require.NoError(t, err)
			tiles = append(tiles, result.TileData)
		} else {
			result, err := Tiled(context.Background(), g, settings, TiledOptions{})
			require.NoError(t, err)
			for _, tile := range result.Tiles {
				tiles = append(tiles, tile.Data)
			}
		}
		for _, data := range tiles {
			// every BV node lies within the tile's quantised box
			top := uint16((data.Header.BMax[1] - data.Header.BMin[1]) * data.Header.BVQuantFactor)
			for _, node := range data.BVTree {
				require.LessOrEqual(t, node.BMin[1], top|1, "node %+v above the tile top %v", node, data.Header.BMax[1])
			}
		}
	}
}
