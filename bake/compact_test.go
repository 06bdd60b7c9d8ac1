package bake

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referenceBake holds what the C++ build (recastnavigation 1.6.0, g++ -O2,
// RecastDemo's OBJ loader and default settings) produced for each stage of
// the bake prefix. Hashes are FNV-1a 64 over little-endian values:
// triangle areas (u8 each); heightfield spans column by column, bottom to top
// (min u16, max u16, area u8); compact cells (index u32, count u32) then
// spans (y u16, h u8, connections u32, area u8); eroded areas (u8 each).
type referenceBake struct {
	mesh                         string
	vertices, triangles          int
	verticesHash, trianglesHash  uint64
	width, height                int
	triangleAreasHash            uint64
	heightfieldSpans             int
	rasterizedHash, filteredHash uint64
	compactSpans                 int
	compactHash                  uint64
	walkableAfterErode           int
	erodedHash                   uint64
}

var referenceBakes = []referenceBake{
	{
		mesh: "dungeon", vertices: 5101, triangles: 10133,
		verticesHash: 0xf8dd8625994953b1, trianglesHash: 0xb81fcab9269e6199,
		width: 248, height: 330, triangleAreasHash: 0x19082d6437cf9108,
		heightfieldSpans: 52106, rasterizedHash: 0x778d60ffd2d7e202, filteredHash: 0xb612105ddd0bc808,
		compactSpans: 23569, compactHash: 0xf3562a0e67f3eb68,
		walkableAfterErode: 17500, erodedHash: 0x0fc54b169587ef2b,
	},
	{
		mesh: "nav_test", vertices: 884, triangles: 1612,
		verticesHash: 0x48617408e3aaee05, trianglesHash: 0x6578bd0f90e5a2a2,
		width: 305, height: 258, triangleAreasHash: 0x15a14f1275fb60a7,
		heightfieldSpans: 120183, rasterizedHash: 0x5a6954d7630333bd, filteredHash: 0x497a7d3e547d3ea6,
		compactSpans: 56795, compactHash: 0xba6542be87f5a6a8,
		walkableAfterErode: 45117, erodedHash: 0x3f5a8232c8f88526,
	},
	{
		mesh: "undulating", vertices: 2800, triangles: 5202,
		verticesHash: 0xcd45b382ad54f2df, trianglesHash: 0x580f73d7082ae9c6,
		width: 330, height: 331, triangleAreasHash: 0x14e2e05eeb1ed242,
		heightfieldSpans: 108710, rasterizedHash: 0x1bd0b661b5bfecf0, filteredHash: 0xf1b42c9c3d234353,
		compactSpans: 105795, compactHash: 0x5c83c5ad5c9074ec,
		walkableAfterErode: 97773, erodedHash: 0x7df321c4a25961fc,
	},
}

type fnvWriter struct{ h hash.Hash64 }

func newFNV() *fnvWriter { return &fnvWriter{fnv.New64a()} }

func (w *fnvWriter) u8(v uint8) { w.h.Write([]byte{v}) }
func (w *fnvWriter) u16(v uint16) {
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], v)
	w.h.Write(b[:])
}
func (w *fnvWriter) u32(v uint32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	w.h.Write(b[:])
}
func (w *fnvWriter) sum() uint64 { return w.h.Sum64() }

func hashHeightfield(hf *Heightfield) uint64 {
	w := newFNV()
	for _, first := range hf.Columns {
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			w.u16(hf.Pool[s].Min)
			w.u16(hf.Pool[s].Max)
			w.u8(hf.Pool[s].Area)
		}
	}
	return w.sum()
}

func hashCompact(chf *CompactHeightfield) uint64 {
	w := newFNV()
	for _, c := range chf.Cells {
		w.u32(c.Index)
		w.u32(c.Count)
	}
	for i, s := range chf.Spans {
		w.u16(s.Y)
		w.u8(s.H)
		w.u32(s.Connections)
		w.u8(chf.Areas[i])
	}
	return w.sum()
}

func hashBytes(b []uint8) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

func loadTestMesh(tb testing.TB, name string) *Geometry {
	tb.Helper()
	g, err := LoadOBJ("../testdata/" + name + ".obj")
	require.NoError(tb, err)
	return g
}

func defaultConfig(tb testing.TB, g *Geometry) *Config {
	tb.Helper()
	s := DefaultSettings()
	bmin, bmax := g.Bounds()
	cfg, err := s.Config(bmin, bmax)
	require.NoError(tb, err)
	return cfg
}

// TestBakePrefixMatchesReference runs each stage on the three test meshes and
// compares every intermediate result with the C++ build, bit for bit.
func TestBakePrefixMatchesReference(t *testing.T) {
	for _, ref := range referenceBakes {
		t.Run(ref.mesh, func(t *testing.T) {
			g := loadTestMesh(t, ref.mesh)
			require.Len(t, g.Vertices, ref.vertices)
			require.Len(t, g.Triangles, ref.triangles)
			cfg := defaultConfig(t, g)
			require.Equal(t, ref.width, cfg.Width)
			require.Equal(t, ref.height, cfg.Height)

			hf, err := NewHeightfield(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight)
			require.NoError(t, err)
			areas := make([]uint8, len(g.Triangles))
			require.NoError(t, MarkWalkableTriangles(cfg.WalkableSlopeAngle, g.Vertices, g.Triangles, areas))
			assert.Equal(t, ref.triangleAreasHash, hashBytes(areas), "triangle areas")
			require.NoError(t, hf.RasterizeTriangles(g.Vertices, g.Triangles, areas, cfg.WalkableClimb))
			assert.Equal(t, ref.heightfieldSpans, hf.SpanCount())
			assert.Equal(t, ref.rasterizedHash, hashHeightfield(hf), "rasterized heightfield")

			hf.FilterLowHangingWalkableObstacles(cfg.WalkableClimb)
			hf.FilterLedgeSpans(cfg.WalkableHeight, cfg.WalkableClimb)
			hf.FilterWalkableLowHeightSpans(cfg.WalkableHeight)
			assert.Equal(t, ref.filteredHash, hashHeightfield(hf), "filtered heightfield")
			assert.Equal(t, ref.compactSpans, hf.WalkableSpanCount())

			chf, err := BuildCompactHeightfield(hf, cfg.WalkableHeight, cfg.WalkableClimb)
			require.NoError(t, err)
			assert.Len(t, chf.Spans, ref.compactSpans)
			assert.Equal(t, ref.compactHash, hashCompact(chf), "compact heightfield")

			require.NoError(t, chf.ErodeWalkableArea(cfg.WalkableRadius))
			assert.Equal(t, ref.erodedHash, hashBytes(chf.Areas), "eroded areas")
		})
	}
}
