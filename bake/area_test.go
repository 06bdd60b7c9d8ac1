package bake

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referenceAreas holds what the C++ build produced for a bake with user
// triangle areas ((i*7)%63 + 1, steep ones cleared), then, after erosion, a
// convex volume (a pentagon grown by rcOffsetPoly), a box and a cylinder,
// then the median filter. Hashes are FNV-1a 64 as in referenceBake; the
// offset polygon hash is over its float32 coordinates.
type referenceAreas struct {
	mesh                                                  string
	triangleAreasHash, rasterizedHash, erodedHash         uint64
	offsetCount                                           int
	offsetHash, inwardHash                                uint64
	convexHash, boxHash, cylinderHash, medianHash         uint64
	nullCount, box10Count, cylinder20Count, convex30Count int
}

var referenceAreaBakes = []referenceAreas{
	{
		mesh: "dungeon", triangleAreasHash: 0x1c0002cebfd29baa, rasterizedHash: 0xb888c3b4ff72d9fe, erodedHash: 0x1d6c136f20c448d4,
		offsetCount: 7, offsetHash: 0xccd56523a76d0730, inwardHash: 0xe786636760eaa1d6,
		convexHash: 0x9122201ebe2bad26, boxHash: 0x21d8d4d663e68987, cylinderHash: 0x8136f0167dde5777, medianHash: 0x3bba6c56cd483776,
		nullCount: 6069, box10Count: 239, cylinder20Count: 1823, convex30Count: 2461,
	},
	{
		mesh: "nav_test", triangleAreasHash: 0xe5ea232f147db376, rasterizedHash: 0xe3c8c8d09650f5ca, erodedHash: 0x0451277942e7bff4,
		offsetCount: 7, offsetHash: 0x502fd0dc86aa7973, inwardHash: 0xe6c61d0def24a084,
		convexHash: 0x3df2072988dbf938, boxHash: 0x7e8e73fd01248673, cylinderHash: 0x091fd7f63b6687f0, medianHash: 0x028cf401ecae05e8,
		nullCount: 11678, box10Count: 3353, cylinder20Count: 3436, convex30Count: 3444,
	},
	{
		mesh: "undulating", triangleAreasHash: 0x51c85f9e2b1406a1, rasterizedHash: 0xe14d0ac6417f35dc, erodedHash: 0x74786af20670e6a3,
		offsetCount: 7, offsetHash: 0x7a8e36199e62d9ac, inwardHash: 0x7530d664e59fc7ad,
		convexHash: 0x0b0679c43552622a, boxHash: 0x561a23b56f45cccf, cylinderHash: 0xb1718f4e29225b43, medianHash: 0x0c3ab0e11b38118b,
		nullCount: 8022, box10Count: 6512, cylinder20Count: 7433, convex30Count: 3333,
	},
}

func hashVertices(vs []mgl32.Vec3) uint64 {
	w := newFNV()
	for _, v := range vs {
		for _, c := range v {
			w.u32(math.Float32bits(c))
		}
	}
	return w.sum()
}

// TestAreaMarkingMatchesReference checks user triangle areas, the three
// volume kinds, OffsetPoly and the median filter against the C++ build.
func TestAreaMarkingMatchesReference(t *testing.T) {
	for _, ref := range referenceAreaBakes {
		t.Run(ref.mesh, func(t *testing.T) {
			g := loadTestMesh(t, ref.mesh)
			g.Areas = make([]uint8, len(g.Triangles))
			for i := range g.Areas {
				g.Areas[i] = uint8((i*7)%63 + 1)
			}
			cfg := defaultConfig(t, g)

			areas := append([]uint8(nil), g.Areas...)
			require.NoError(t, ClearUnwalkableTriangles(cfg.WalkableSlopeAngle, g.Vertices, g.Triangles, areas))
			assert.Equal(t, ref.triangleAreasHash, hashBytes(areas), "triangle areas")
			hf, err := NewHeightfield(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight)
			require.NoError(t, err)
			require.NoError(t, hf.RasterizeTriangles(g.Vertices, g.Triangles, areas, cfg.WalkableClimb))
			assert.Equal(t, ref.rasterizedHash, hashHeightfield(hf), "rasterized heightfield")

			bmin, bmax := cfg.BMin, cfg.BMax
			extent := mgl32.Vec3{bmax[0] - bmin[0], bmax[1] - bmin[1], bmax[2] - bmin[2]}
			centre := mgl32.Vec3{bmin[0] + float32(extent[0]*0.3), bmin[1], bmin[2] + float32(extent[2]*0.7)}
			var pentagon []mgl32.Vec3
			for _, p := range [][2]float32{{-8, -4}, {-2, -9}, {7, -6}, {9, 5}, {-5, 8}} {
				pentagon = append(pentagon, mgl32.Vec3{centre[0] + p[0], centre[1], centre[2] + p[1]})
			}
			grown := OffsetPoly(nil, pentagon, 2)
			require.Len(t, grown, ref.offsetCount)
			assert.Equal(t, ref.offsetHash, hashVertices(grown), "grown pentagon")
			assert.Equal(t, ref.inwardHash, hashVertices(OffsetPoly(nil, pentagon, -1.5)), "shrunk pentagon")

			g.ConvexVolumes = []ConvexVolume{{Vertices: grown, MinY: bmin[1], MaxY: bmax[1], Area: 30}}
			g.BoxVolumes = []BoxVolume{{
				Min:  mgl32.Vec3{bmin[0] + float32(extent[0]*0.2), bmin[1], bmin[2] + float32(extent[2]*0.2)},
				Max:  mgl32.Vec3{bmin[0] + float32(extent[0]*0.5), bmin[1] + float32(extent[1]*0.5), bmin[2] + float32(extent[2]*0.5)},
				Area: 10,
			}}
			g.CylinderVolumes = []CylinderVolume{{
				Base:   mgl32.Vec3{bmin[0] + float32(extent[0]*0.6), bmin[1], bmin[2] + float32(extent[2]*0.4)},
				Radius: extent[0] * 0.15, Height: extent[1], Area: 20,
			}}

			// Stage by stage, as the C++ harness ran it.
			chf, _, err := BuildCompact(g, cfg)
			require.NoError(t, err)
			assert.Equal(t, ref.erodedHash, hashBytes(chf.Areas), "eroded areas")
			require.NoError(t, chf.MarkConvexPolyArea(grown, bmin[1], bmax[1], 30))
			assert.Equal(t, ref.convexHash, hashBytes(chf.Areas), "convex volume")
			box := g.BoxVolumes[0]
			require.NoError(t, chf.MarkBoxArea(box.Min, box.Max, box.Area))
			assert.Equal(t, ref.boxHash, hashBytes(chf.Areas), "box volume")
			cylinder := g.CylinderVolumes[0]
			require.NoError(t, chf.MarkCylinderArea(cylinder.Base, cylinder.Radius, cylinder.Height, cylinder.Area))
			assert.Equal(t, ref.cylinderHash, hashBytes(chf.Areas), "cylinder volume")
			chf.MedianFilterWalkableArea()
			assert.Equal(t, ref.medianHash, hashBytes(chf.Areas), "median filter")
			counts := map[uint8]int{}
			for _, a := range chf.Areas {
				counts[a]++
			}
			assert.Equal(t, ref.nullCount, counts[NullArea])
			assert.Equal(t, ref.box10Count, counts[10])
			assert.Equal(t, ref.cylinder20Count, counts[20])
			assert.Equal(t, ref.convex30Count, counts[30])

			// All volumes at once give the same areas.
			again, _, err := BuildCompact(g, cfg)
			require.NoError(t, err)
			require.NoError(t, again.MarkAreaVolumes(g))
			assert.Equal(t, ref.cylinderHash, hashBytes(again.Areas), "MarkAreaVolumes")
		})
	}
}

// flatCompact returns a compact heightfield of width × height cells of unit
// size, one walkable floor per cell at y = 1, built through the pipeline.
func flatCompact(t *testing.T, width, height int) *CompactHeightfield {
	t.Helper()
	hf := newTestHeightfield(t, width, height, 1, 1, 20)
	for z := range height {
		for x := range width {
			require.NoError(t, hf.AddSpan(x, z, 0, 1, WalkableArea, 1))
		}
	}
	chf, err := BuildCompactHeightfield(hf, 2, 1)
	require.NoError(t, err)
	return chf
}

// areaGrid returns the areas of a one-floor compact field as rows of z.
func areaGrid(chf *CompactHeightfield) [][]uint8 {
	grid := make([][]uint8, chf.Height)
	for z := range chf.Height {
		for x := range chf.Width {
			grid[z] = append(grid[z], chf.Areas[chf.Cells[x+z*chf.Width].Index])
		}
	}
	return grid
}

func TestErodeWalkableArea(t *testing.T) {
	const W = WalkableArea
	t.Run("radius 1 removes the outer ring", func(t *testing.T) {
		chf := flatCompact(t, 5, 4)
		require.NoError(t, chf.ErodeWalkableArea(1))
		assert.Equal(t, [][]uint8{
			{0, 0, 0, 0, 0},
			{0, W, W, W, 0},
			{0, W, W, W, 0},
			{0, 0, 0, 0, 0},
		}, areaGrid(chf))
	})
	t.Run("radius 2 on a 7×7 leaves the centre 3×3", func(t *testing.T) {
		// Chamfer distances: ring 0 is 0, ring 1 is 2, ring 2 is 4 (along an
		// axis from ring 1; diagonally it would be 5); erosion keeps >= 4.
		chf := flatCompact(t, 7, 7)
		require.NoError(t, chf.ErodeWalkableArea(2))
		assert.Equal(t, [][]uint8{
			{0, 0, 0, 0, 0, 0, 0},
			{0, 0, 0, 0, 0, 0, 0},
			{0, 0, W, W, W, 0, 0},
			{0, 0, W, W, W, 0, 0},
			{0, 0, W, W, W, 0, 0},
			{0, 0, 0, 0, 0, 0, 0},
			{0, 0, 0, 0, 0, 0, 0},
		}, areaGrid(chf))
	})
	t.Run("radius 3 on a 7×7 leaves the centre", func(t *testing.T) {
		chf := flatCompact(t, 7, 7)
		require.NoError(t, chf.ErodeWalkableArea(3))
		walkable := 0
		for _, a := range chf.Areas {
			if a != NullArea {
				walkable++
			}
		}
		assert.Equal(t, 1, walkable)
		assert.Equal(t, W, areaGrid(chf)[3][3])
	})
	t.Run("a hole erodes its surroundings", func(t *testing.T) {
		chf := flatCompact(t, 7, 7)
		chf.Areas[chf.Cells[3+3*7].Index] = NullArea
		require.NoError(t, chf.ErodeWalkableArea(1))
		grid := areaGrid(chf)
		assert.Equal(t, []uint8{0, W, 0, 0, 0, W, 0}, grid[3])
		assert.Equal(t, []uint8{0, W, W, W, W, W, 0}, grid[1])
	})
	t.Run("radius 0 changes nothing", func(t *testing.T) {
		chf := flatCompact(t, 3, 3)
		require.NoError(t, chf.ErodeWalkableArea(0))
		for _, a := range chf.Areas {
			assert.Equal(t, W, a)
		}
	})
	t.Run("radius above 127 erodes everything", func(t *testing.T) {
		chf := flatCompact(t, 600, 3) // distances cap at 255
		require.NoError(t, chf.ErodeWalkableArea(128))
		for _, a := range chf.Areas {
			require.Equal(t, NullArea, a)
		}
	})
	t.Run("negative radius", func(t *testing.T) {
		chf := flatCompact(t, 3, 3)
		assert.Error(t, chf.ErodeWalkableArea(-1))
	})
}

func TestMedianFilterWalkableArea(t *testing.T) {
	chf := flatCompact(t, 5, 5)
	set := func(x, z int, a uint8) { chf.Areas[chf.Cells[x+z*5].Index] = a }
	set(0, 2, 5) // a lone cell of area 5
	for z := 2; z <= 4; z++ {
		for x := 2; x <= 4; x++ {
			set(x, z, 7) // a 3×3 block of area 7 in the corner
		}
	}
	set(0, 4, NullArea)
	chf.MedianFilterWalkableArea()
	const W = WalkableArea
	// The lone cell takes its neighbours' area, the block loses its inner
	// corner, missing neighbours count as the cell's own area, and
	// non-walkable spans stay non-walkable.
	assert.Equal(t, [][]uint8{
		{W, W, W, W, W},
		{W, W, W, W, W},
		{W, W, W, 7, 7},
		{W, W, 7, 7, 7},
		{0, W, 7, 7, 7},
	}, areaGrid(chf))
}

func TestMarkAreasOnAFlatField(t *testing.T) {
	const W = WalkableArea
	t.Run("box", func(t *testing.T) {
		chf := flatCompact(t, 5, 5)
		chf.Areas[chf.Cells[2+2*5].Index] = NullArea
		require.NoError(t, chf.MarkBoxArea(mgl32.Vec3{1.5, 0, 1}, mgl32.Vec3{3, 2, 2.9}, 9))
		assert.Equal(t, [][]uint8{
			{W, W, W, W, W},
			{W, 9, 9, 9, W},
			{W, 9, 0, 9, W},
			{W, W, W, W, W},
			{W, W, W, W, W},
		}, areaGrid(chf), "coordinates truncate to cells; removed spans stay removed")
	})
	t.Run("box above the floor", func(t *testing.T) {
		chf := flatCompact(t, 3, 3)
		require.NoError(t, chf.MarkBoxArea(mgl32.Vec3{0, 2, 0}, mgl32.Vec3{3, 5, 3}, 9))
		for _, a := range chf.Areas {
			assert.Equal(t, W, a)
		}
	})
	t.Run("box outside the field", func(t *testing.T) {
		chf := flatCompact(t, 3, 3)
		require.NoError(t, chf.MarkBoxArea(mgl32.Vec3{-5, 0, -5}, mgl32.Vec3{-2, 5, 5}, 9))
		require.NoError(t, chf.MarkBoxArea(mgl32.Vec3{0, 0, 3}, mgl32.Vec3{3, 5, 5}, 9))
		for _, a := range chf.Areas {
			assert.Equal(t, W, a)
		}
	})
	t.Run("cylinder", func(t *testing.T) {
		chf := flatCompact(t, 5, 5)
		require.NoError(t, chf.MarkCylinderArea(mgl32.Vec3{2.5, 0, 2.5}, 1.2, 3, 4))
		assert.Equal(t, [][]uint8{
			{W, W, W, W, W},
			{W, W, 4, W, W},
			{W, 4, 4, 4, W},
			{W, W, 4, W, W},
			{W, W, W, W, W},
		}, areaGrid(chf), "cell centres strictly inside the circle")
	})
	t.Run("convex polygon", func(t *testing.T) {
		chf := flatCompact(t, 5, 5)
		triangle := []mgl32.Vec3{{0, 0, 0}, {5, 0, 0}, {0, 0, 5}}
		require.NoError(t, chf.MarkConvexPolyArea(triangle, 0, 3, 2))
		assert.Equal(t, [][]uint8{
			{2, 2, 2, 2, W},
			{2, 2, 2, W, W},
			{2, 2, W, W, W},
			{2, W, W, W, W},
			{W, W, W, W, W},
		}, areaGrid(chf))
	})
	t.Run("errors leave the field alone", func(t *testing.T) {
		chf := flatCompact(t, 3, 3)
		assert.ErrorContains(t, chf.MarkBoxArea(mgl32.Vec3{2, 0, 0}, mgl32.Vec3{1, 1, 1}, 1), "min corner")
		assert.ErrorContains(t, chf.MarkBoxArea(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 64), "area 64")
		assert.ErrorContains(t, chf.MarkCylinderArea(mgl32.Vec3{}, -1, 1, 1), "radius")
		assert.ErrorContains(t, chf.MarkConvexPolyArea([]mgl32.Vec3{{0, 0, 0}, {1, 0, 0}}, 0, 1, 1), "2 points")
		g := &Geometry{
			BoxVolumes:      []BoxVolume{{Min: mgl32.Vec3{}, Max: mgl32.Vec3{3, 3, 3}, Area: 1}},
			CylinderVolumes: []CylinderVolume{{Radius: 0}},
		}
		assert.ErrorContains(t, chf.MarkAreaVolumes(g), "cylinder volume 0")
		for _, a := range chf.Areas {
			assert.Equal(t, W, a)
		}
	})
}

func TestOffsetPoly(t *testing.T) {
	// Counter-clockwise with x to the right and z up.
	square := []mgl32.Vec3{{0, 1, 0}, {2, 1, 0}, {2, 1, 2}, {0, 1, 2}}
	reversed := []mgl32.Vec3{{0, 1, 2}, {2, 1, 2}, {2, 1, 0}, {0, 1, 0}}
	assertCorners := func(t *testing.T, want, got []mgl32.Vec3) {
		t.Helper()
		require.Len(t, got, len(want))
		for i := range want {
			assert.InDeltaSlice(t, want[i][:], got[i][:], 1e-6, "corner %d", i)
		}
	}
	t.Run("convex right angles are bevelled", func(t *testing.T) {
		assertCorners(t, []mgl32.Vec3{
			{-0.5, 1, -0.25}, {-0.25, 1, -0.5}, {2.25, 1, -0.5}, {2.5, 1, -0.25},
			{2.5, 1, 2.25}, {2.25, 1, 2.5}, {-0.25, 1, 2.5}, {-0.5, 1, 2.25},
		}, OffsetPoly(nil, square, 0.5))
	})
	t.Run("the other winding mitres and moves the other way", func(t *testing.T) {
		assertCorners(t, []mgl32.Vec3{{0.5, 1, 1.5}, {1.5, 1, 1.5}, {1.5, 1, 0.5}, {0.5, 1, 0.5}},
			OffsetPoly(nil, reversed, 0.5))
		assertCorners(t, []mgl32.Vec3{{-0.5, 1, 2.5}, {2.5, 1, 2.5}, {2.5, 1, -0.5}, {-0.5, 1, -0.5}},
			OffsetPoly(nil, reversed, -0.5))
	})
	t.Run("obtuse corners are mitred", func(t *testing.T) {
		var hexagon []mgl32.Vec3
		for i := range 6 {
			angle := float64(i) * math.Pi / 3
			hexagon = append(hexagon, mgl32.Vec3{float32(math.Cos(angle)), 0, float32(math.Sin(angle))})
		}
		grown := OffsetPoly(nil, hexagon, 0.5)
		require.Len(t, grown, 6)
		for _, v := range grown {
			// The miter reaches 0.5/cos(30°) further out.
			assert.InDelta(t, 1+0.5/math.Cos(math.Pi/6), math.Hypot(float64(v[0]), float64(v[2])), 1e-6)
		}
	})
	t.Run("appends to dst", func(t *testing.T) {
		out := OffsetPoly([]mgl32.Vec3{{9, 9, 9}}, reversed, 1)
		assert.Len(t, out, 5)
		assert.Equal(t, mgl32.Vec3{9, 9, 9}, out[0])
	})
}

// BenchmarkErode times erosion by the default agent radius.
func BenchmarkErode(b *testing.B) {
	for _, mesh := range benchmarkMeshes {
		b.Run(mesh, func(b *testing.B) {
			s := prepareStages(b, mesh)
			chf := *s.compact
			chf.Areas = make([]uint8, len(s.compact.Areas))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				copy(chf.Areas, s.compact.Areas)
				b.StartTimer()
				if err := chf.ErodeWalkableArea(s.config.WalkableRadius); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
