package bake

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"testing"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/go-gl/mathgl/mgl32"
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
		w.u8(uint8(s.Height()))
		// The links as the C++ packs them, 6 bits each.
		var packed uint32
		for dir, con := range s.Connections() {
			packed |= uint32(min(con, 0x3f)) << (6 * dir)
		}
		w.u32(packed)
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
			checkColumns(t, hf)

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

func TestBuildCompactHeightfieldSmall(t *testing.T) {
	hf := newTestHeightfield(t, 3, 1, 1, 0.5, 40)
	setColumn(hf, 0, 0, spanSpec{0, 2, WalkableArea})
	setColumn(hf, 1, 0, spanSpec{0, 3, 7}, spanSpec{10, 12, NullArea}, spanSpec{20, 22, WalkableArea})
	setColumn(hf, 2, 0, spanSpec{0, 2, NullArea})

	chf, err := BuildCompactHeightfield(hf, 4, 1)
	require.NoError(t, err)
	assert.Equal(t, 3, chf.Width)
	assert.Equal(t, 1, chf.Height)
	assert.Equal(t, 4, chf.WalkableHeight)
	assert.Equal(t, 1, chf.WalkableClimb)
	assert.Equal(t, hf.BMin, chf.BMin)
	assert.Equal(t, hf.BMax[1]+4*0.5, chf.BMax[1])
	assert.Equal(t, []CompactCell{{0, 1}, {1, 2}, {3, 0}}, chf.Cells)
	require.Len(t, chf.Spans, 3)
	assert.Equal(t, []uint8{WalkableArea, 7, WalkableArea}, chf.Areas)

	type open struct {
		y uint16
		h uint8
	}
	var got []open
	for _, s := range chf.Spans {
		got = append(got, open{s.Y, uint8(s.Height())})
	}
	assert.Equal(t, []open{{2, 255}, {3, 7}, {22, 255}}, got, "open space above each span, clamped to 255")

	connections := func(s CompactSpan) [4]int {
		return [4]int{s.Connection(0), s.Connection(1), s.Connection(2), s.Connection(3)}
	}
	assert.Equal(t, [4]int{NotConnected, NotConnected, 0, NotConnected}, connections(chf.Spans[0]))
	assert.Equal(t, [4]int{0, NotConnected, NotConnected, NotConnected}, connections(chf.Spans[1]))
	assert.Equal(t, [4]int{NotConnected, NotConnected, NotConnected, NotConnected}, connections(chf.Spans[2]), "20 cells above its neighbour")

	_, err = BuildCompactHeightfield(hf, -1, 1)
	assert.Error(t, err)
}

// TestBuildCompactHeightfieldLayerLimit: column 1 stacks 70 walkable
// floors and the span of column 0 reaches the 66th, above the 62 layers a
// Recast link can name; here links have 12 bits and it is linked (Recast
// leaves it out, and a level of 125 floors baked to 63). Only a neighbour
// 4095 spans up its column, the most a column holds, is out of reach.
func TestBuildCompactHeightfieldLayerLimit(t *testing.T) {
	hf := newTestHeightfield(t, 2, 1, 1, 1, 8191)
	setColumn(hf, 0, 0, spanSpec{0, 65*4 + 1, WalkableArea})
	var stack []spanSpec
	for i := range 70 {
		stack = append(stack, spanSpec{uint16(i * 4), uint16(i*4 + 1), WalkableArea})
	}
	setColumn(hf, 1, 0, stack...)
	chf, unlinked, err := buildCompactHeightfield(hf, 2, 1)
	require.NoError(t, err)
	assert.Equal(t, 0, unlinked)
	assert.Equal(t, 65, chf.Spans[0].Connection(2))
	// The other way round: column 0 has a single span.
	assert.Equal(t, 0, chf.Spans[1+65].Connection(0))

	// 4096 spans, 2 cells apart: the top one is number 4095.
	setColumn(hf, 0, 0, spanSpec{0, 4095*2 + 1, WalkableArea})
	stack = stack[:0]
	for i := range 4096 {
		stack = append(stack, spanSpec{uint16(i * 2), uint16(i*2 + 1), WalkableArea})
	}
	setColumn(hf, 1, 0, stack...)
	chf, unlinked, err = buildCompactHeightfield(hf, 1, 0)
	require.NoError(t, err)
	assert.Equal(t, 4095, unlinked)
	assert.Equal(t, NotConnected, chf.Spans[0].Connection(2))
	assert.Equal(t, 0, chf.Spans[1+4095].Connection(0))
}

// TestBuildCompactPrefix checks BuildCompact's counts against the reference
// solo bake figures.
func TestBuildCompactPrefix(t *testing.T) {
	for _, ref := range referenceBakes {
		t.Run(ref.mesh, func(t *testing.T) {
			g := loadTestMesh(t, ref.mesh)
			cfg := defaultConfig(t, g)
			chf, stats, err := BuildCompact(g, cfg)
			require.NoError(t, err)
			assert.Equal(t, ref.width, stats.GridWidth)
			assert.Equal(t, ref.height, stats.GridHeight)
			assert.Equal(t, ref.heightfieldSpans, stats.HeightfieldSpans)
			assert.Equal(t, ref.compactSpans, stats.CompactSpans)
			assert.Equal(t, ref.walkableAfterErode, stats.WalkableSpans)
			assert.Equal(t, 0, stats.UnlinkedLayer)
			assert.Equal(t, ref.erodedHash, hashBytes(chf.Areas))
			assert.Positive(t, stats.Rasterize)
			assert.Equal(t, 0, chf.BorderSize)
		})
	}
}

func TestBuildCompactOptions(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	cfg := defaultConfig(t, g)

	t.Run("without filters more spans stay walkable", func(t *testing.T) {
		noFilters := *cfg
		noFilters.Filters = Filters{}
		_, stats, err := BuildCompact(g, &noFilters)
		require.NoError(t, err)
		assert.Equal(t, 52106, stats.HeightfieldSpans)
		assert.Greater(t, stats.CompactSpans, 23569)
	})
	t.Run("no erosion with radius 0", func(t *testing.T) {
		noErode := *cfg
		noErode.WalkableRadius = 0
		_, stats, err := BuildCompact(g, &noErode)
		require.NoError(t, err)
		assert.Equal(t, stats.CompactSpans, stats.WalkableSpans)
	})
	t.Run("given areas are used and steep ones cleared", func(t *testing.T) {
		withAreas := *g
		withAreas.Areas = make([]uint8, len(g.Triangles))
		for i := range withAreas.Areas {
			withAreas.Areas[i] = 5
		}
		chf, stats, err := BuildCompact(&withAreas, cfg)
		require.NoError(t, err)
		assert.Equal(t, 23569, stats.CompactSpans, "same surface, other area")
		for _, a := range chf.Areas {
			assert.Contains(t, []uint8{NullArea, 5}, a)
		}
	})
	t.Run("errors", func(t *testing.T) {
		bad := *cfg
		bad.Width = 0
		_, _, err := BuildCompact(g, &bad)
		assert.ErrorContains(t, err, "grid")
		bad = *cfg
		bad.WalkableSlopeAngle = 91
		_, _, err = BuildCompact(g, &bad)
		assert.ErrorContains(t, err, "slope")
		_, _, err = BuildCompact(&Geometry{}, cfg)
		assert.ErrorContains(t, err, "no triangles")
		_, _, err = BuildCompact(g, nil)
		assert.ErrorContains(t, err, "config is nil")
	})
}

// TestCompactHeightfieldBeyond24BitIndices builds a compact heightfield with
// more than 2^24 spans, where the reference's 24-bit cell index wraps around
// and the bake silently fails, and checks indices, links and erosion at the
// far end. It needs about 650 MB and 10 s, so it is a long test
// (ARCHENAV_LONG=1).
func TestCompactHeightfieldBeyond24BitIndices(t *testing.T) {
	longtest.Skip(t)
	const width, height = 4096, 4100 // 16,793,600 columns, one span each
	hf, err := NewHeightfield(width, height, mgl32.Vec3{}, mgl32.Vec3{width, 10, height}, 1, 1)
	require.NoError(t, err)
	hf.Pool = make([]Span, width*height)
	for i := range hf.Pool {
		hf.Pool[i] = Span{Min: 0, Max: 1, Area: WalkableArea, Next: noSpan}
		hf.Columns[i] = int32(i)
	}

	chf, err := BuildCompactHeightfield(hf, 2, 1)
	require.NoError(t, err)
	hf = nil
	require.Len(t, chf.Spans, width*height)
	require.Greater(t, len(chf.Spans), 1<<24)

	last := width*height - 1
	assert.Equal(t, CompactCell{Index: uint32(last), Count: 1}, chf.Cells[last])
	beyond := 4097*width + 100 // an interior column of row 4097, past 2^24
	assert.Equal(t, CompactCell{Index: uint32(beyond), Count: 1}, chf.Cells[beyond])
	x, z := beyond%width, beyond/width
	for dir := range 4 {
		require.Equal(t, 0, chf.Spans[beyond].Connection(dir))
		neighbour := neighbourSpan(chf, x, z, &chf.Spans[beyond], dir)
		assert.Equal(t, beyond+DirOffsetX(dir)+DirOffsetZ(dir)*width, neighbour)
	}

	require.NoError(t, chf.ErodeWalkableArea(1))
	walkable := 0
	for _, a := range chf.Areas {
		if a != NullArea {
			walkable++
		}
	}
	assert.Equal(t, (width-2)*(height-2), walkable, "only the outer ring is eroded")
	assert.Equal(t, NullArea, chf.Areas[last])
	assert.Equal(t, WalkableArea, chf.Areas[beyond])
}

var benchmarkMeshes = []string{"dungeon", "nav_test", "undulating"}

// benchmarkStages holds a mesh and its bake prefix up to each stage, shared
// by the stage benchmarks.
type benchmarkStages struct {
	geometry   *Geometry
	config     *Config
	areas      []uint8
	rasterized *Heightfield
	filtered   *Heightfield
	compact    *CompactHeightfield
}

func prepareStages(b *testing.B, mesh string) *benchmarkStages {
	b.Helper()
	s := &benchmarkStages{geometry: loadTestMesh(b, mesh)}
	s.config = defaultConfig(b, s.geometry)
	cfg := s.config
	s.areas = make([]uint8, len(s.geometry.Triangles))
	require.NoError(b, MarkWalkableTriangles(cfg.WalkableSlopeAngle, s.geometry.Vertices, s.geometry.Triangles, s.areas))
	hf, err := NewHeightfield(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight)
	require.NoError(b, err)
	require.NoError(b, hf.RasterizeTriangles(s.geometry.Vertices, s.geometry.Triangles, s.areas, cfg.WalkableClimb))
	s.rasterized = cloneHeightfield(hf)
	hf.FilterLowHangingWalkableObstacles(cfg.WalkableClimb)
	hf.FilterLedgeSpans(cfg.WalkableHeight, cfg.WalkableClimb)
	hf.FilterWalkableLowHeightSpans(cfg.WalkableHeight)
	s.filtered = hf
	s.compact, err = BuildCompactHeightfield(hf, cfg.WalkableHeight, cfg.WalkableClimb)
	require.NoError(b, err)
	return s
}

func cloneHeightfield(hf *Heightfield) *Heightfield {
	c := *hf
	c.Columns = append([]int32(nil), hf.Columns...)
	c.Pool = append([]Span(nil), hf.Pool...)
	return &c
}

func BenchmarkBuildCompactHeightfield(b *testing.B) {
	for _, mesh := range benchmarkMeshes {
		b.Run(mesh, func(b *testing.B) {
			s := prepareStages(b, mesh)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := BuildCompactHeightfield(s.filtered, s.config.WalkableHeight, s.config.WalkableClimb); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildCompact times the whole prefix, from triangles to the eroded
// compact heightfield.
func BenchmarkBuildCompact(b *testing.B) {
	for _, mesh := range benchmarkMeshes {
		b.Run(mesh, func(b *testing.B) {
			g := loadTestMesh(b, mesh)
			cfg := defaultConfig(b, g)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, _, err := BuildCompact(g, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
