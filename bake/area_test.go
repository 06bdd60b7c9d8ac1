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
			centre := mgl32.Vec3{bmin[0] + extent[0]*0.3, bmin[1], bmin[2] + extent[2]*0.7}
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
				Min:  mgl32.Vec3{bmin[0] + extent[0]*0.2, bmin[1], bmin[2] + extent[2]*0.2},
				Max:  mgl32.Vec3{bmin[0] + extent[0]*0.5, bmin[1] + extent[1]*0.5, bmin[2] + extent[2]*0.5},
				Area: 10,
			}}
			g.CylinderVolumes = []CylinderVolume{{
				Base:   mgl32.Vec3{bmin[0] + extent[0]*0.6, bmin[1], bmin[2] + extent[2]*0.4},
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
