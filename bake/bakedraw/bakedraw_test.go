package bakedraw_test

import (
	"context"
	"image/color"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/bakedraw"
	"github.com/archenav/archenav/navcore/debugdraw"
)

type stages struct {
	level       *bake.Geometry
	config      *bake.Config
	heightfield *bake.Heightfield
	result      *bake.SoloResult
}

// navTest bakes nav_test.obj once, keeping its intermediates, and
// rasterizes a 48×48-cell piece of its heightfield again (the bake does
// not keep it; the whole one makes a million triangles).
var navTest = sync.OnceValues(func() (*stages, error) {
	level, err := bake.LoadOBJ("../../testdata/nav_test.obj")
	if err != nil {
		return nil, err
	}
	settings := bake.DefaultSettings()
	result, err := bake.Solo(context.Background(), level, settings, bake.WithIntermediates())
	if err != nil {
		return nil, err
	}
	cfg := result.Config
	const cells = 48
	from, to := cfg.BMin, cfg.BMax
	from[0], from[2] = float32((cfg.BMin[0]+cfg.BMax[0])/2), float32((cfg.BMin[2]+cfg.BMax[2])/2)
	to[0], to[2] = from[0]+float32(cells*cfg.CellSize), from[2]+float32(cells*cfg.CellSize)
	hf, err := bake.NewHeightfield(cells, cells, from, to, cfg.CellSize, cfg.CellHeight)
	if err != nil {
		return nil, err
	}
	areas := make([]uint8, len(level.Triangles))
	if err := bake.MarkWalkableTriangles(cfg.WalkableSlopeAngle, level.Vertices, level.Triangles, areas); err != nil {
		return nil, err
	}
	if err := hf.RasterizeTriangles(level.Vertices, level.Triangles, areas, cfg.WalkableClimb); err != nil {
		return nil, err
	}
	return &stages{level: level, config: cfg, heightfield: hf, result: result}, nil
})

func load(t *testing.T) *stages {
	t.Helper()
	s, err := navTest()
	require.NoError(t, err)
	return s
}

func record(draw func(d debugdraw.Drawer)) *debugdraw.Recorder {
	r := &debugdraw.Recorder{}
	draw(r)
	return r
}

func TestGeometryTintsWhatTheBakeWouldNotWalkOn(t *testing.T) {
	s := load(t)
	r := record(func(d debugdraw.Drawer) { bakedraw.Geometry(d, s.level, s.config.WalkableSlopeAngle) })
	require.Equal(t, len(s.level.Triangles), r.Count(debugdraw.KindTriangle), "one triangle per input triangle")
	areas := make([]uint8, len(s.level.Triangles))
	require.NoError(t, bake.MarkWalkableTriangles(s.config.WalkableSlopeAngle, s.level.Vertices, s.level.Triangles, areas))
	for i, p := range r.Primitives {
		grey := p.Color.R == p.Color.G && p.Color.G == p.Color.B
		assert.Equal(t, areas[i] == bake.WalkableArea, grey, "triangle %d: grey exactly when walkable", i)
		tri := s.level.Triangles[i]
		assert.Equal(t, s.level.Vertices[tri[0]], p.Vertices[0])
	}
	broken := &bake.Geometry{Vertices: s.level.Vertices[:3], Triangles: [][3]int32{{0, 1, 2}, {0, 1, 3}, {-1, 0, 1}}}
	assert.Equal(t, 1, record(func(d debugdraw.Drawer) { bakedraw.Geometry(d, broken, 45) }).Len(), "bad indices skipped")
	assert.Zero(t, record(func(d debugdraw.Drawer) { bakedraw.Geometry(d, nil, 45) }).Len())
}

func TestHeightfieldDrawsABoxPerSpan(t *testing.T) {
	s := load(t)
	hf := s.heightfield
	r := record(func(d debugdraw.Drawer) { bakedraw.Heightfield(d, hf, false) })
	require.Positive(t, hf.WalkableSpanCount())
	require.Equal(t, 12*hf.SpanCount(), r.Len(), "12 triangles per span")
	assert.Equal(t, r.Len(), r.Count(debugdraw.KindTriangle))
	bmin, bmax, _ := r.Bounds()
	assert.InDelta(t, hf.BMin[0], bmin[0], 1e-3)
	assert.LessOrEqual(t, bmax[0], hf.BMin[0]+float32(float32(hf.Width)*hf.CellSize)+1e-3)

	r = record(func(d debugdraw.Drawer) { bakedraw.Heightfield(d, hf, true) })
	walkableTops := 0
	for i := 0; i < r.Len(); i += 12 {
		if r.Primitives[i].Color == (color.NRGBA{64, 128, 160, 255}) {
			walkableTops++
		}
	}
	assert.Equal(t, hf.WalkableSpanCount(), walkableTops, "walkable tops in their colour")
}

func TestCompactHeightfieldDrawsASquarePerSpan(t *testing.T) {
	s := load(t)
	chf := s.result.CompactHeightfield
	require.NotNil(t, chf)
	regions := map[uint16]bool{}
	for _, span := range chf.Spans {
		regions[span.Region] = true
	}
	for _, mode := range []bakedraw.CompactMode{bakedraw.CompactAreas, bakedraw.CompactRegions, bakedraw.CompactDistance} {
		r := record(func(d debugdraw.Drawer) { bakedraw.CompactHeightfield(d, chf, mode) })
		require.Equal(t, 2*len(chf.Spans), r.Count(debugdraw.KindTriangle), "mode %d", mode)
		colours := map[color.NRGBA]bool{}
		for _, p := range r.Primitives {
			colours[p.Color] = true
		}
		switch mode {
		case bakedraw.CompactRegions:
			assert.Len(t, colours, len(regions), "a colour per region")
			for i, span := range chf.Spans[:50] {
				if span.Region != 0 {
					assert.Equal(t, debugdraw.IndexColor(int(span.Region), 192), r.Primitives[2*i].Color)
				}
			}
		case bakedraw.CompactDistance:
			brightest := uint8(0)
			for c := range colours {
				brightest = max(brightest, c.R)
			}
			maxDist := uint16(0)
			for _, dist := range chf.Dist {
				maxDist = max(maxDist, dist)
			}
			assert.InDelta(t, 255*float64(maxDist)/float64(chf.MaxDistance), brightest, 1, "shaded up to the largest distance")
		}
	}
	noDistance := *chf
	noDistance.Dist = nil
	assert.Zero(t, record(func(d debugdraw.Drawer) { bakedraw.CompactHeightfield(d, &noDistance, bakedraw.CompactDistance) }).Len())
}

func TestContoursDrawALinePerVertex(t *testing.T) {
	s := load(t)
	cset := s.result.Contours
	require.NotNil(t, cset)
	simplified, raw := 0, 0
	for _, c := range cset.Contours {
		simplified += len(c.Verts)
		raw += len(c.RawVerts)
	}
	r := record(func(d debugdraw.Drawer) { bakedraw.Contours(d, cset, bakedraw.SimplifiedContours) })
	assert.Equal(t, simplified, r.Count(debugdraw.KindLine))
	assert.Equal(t, simplified, r.Count(debugdraw.KindPoint))
	r = record(func(d debugdraw.Drawer) { bakedraw.Contours(d, cset, bakedraw.RawContours) })
	assert.Equal(t, raw, r.Count(debugdraw.KindLine))
	assert.Equal(t, raw, r.Count(debugdraw.KindPoint))

	// One arc per contour edge towards a region with a higher id.
	arcs, centres := 0, 0
	regions := map[uint16]bool{}
	for _, c := range cset.Contours {
		regions[c.Region] = true
	}
	for _, c := range cset.Contours {
		if len(c.Verts) > 0 {
			centres++
		}
		for _, v := range c.Verts {
			n := uint16(v[3] & bake.ContourRegionMask)
			if n != 0 && n >= c.Region && regions[n] {
				arcs++
			}
		}
	}
	require.Positive(t, arcs)
	r = record(func(d debugdraw.Drawer) { bakedraw.RegionConnections(d, cset) })
	assert.Equal(t, arcs*(debugdraw.ArcSegments+4), r.Count(debugdraw.KindLine))
	assert.Equal(t, centres, r.Count(debugdraw.KindPoint))
}

func TestPolyMeshDrawsPolygonsEdgesAndVertices(t *testing.T) {
	s := load(t)
	mesh := s.result.PolyMesh
	nvp := mesh.MaxVertsPerPoly
	triangles, inner, boundary := 0, 0, 0
	for i := range mesh.PolyCount {
		p := mesh.Polys[i*2*nvp : (i+1)*2*nvp]
		n := 0
		for n < nvp && p[n] != bake.MeshNullIndex {
			n++
		}
		triangles += n - 2
		for j := range n {
			if p[nvp+j]&0x8000 == 0 {
				inner++
			} else {
				boundary++
			}
		}
	}
	r := record(func(d debugdraw.Drawer) { bakedraw.PolyMesh(d, mesh) })
	assert.Equal(t, triangles, r.Count(debugdraw.KindTriangle))
	assert.Equal(t, inner/2+boundary, r.Count(debugdraw.KindLine), "inner edges once, boundary edges once")
	assert.Equal(t, len(mesh.Verts), r.Count(debugdraw.KindPoint))
}

func TestPolyMeshDetailDrawsTrianglesEdgesAndVertices(t *testing.T) {
	s := load(t)
	detail := s.result.DetailMesh
	outline, inside, verts := 0, 0, 0
	for _, m := range detail.Meshes {
		verts += int(m[1])
		for _, tri := range detail.Tris[m[2] : m[2]+m[3]] {
			for k := range 3 {
				if (tri[3]>>(2*k))&3 != 0 {
					outline++
				} else {
					inside++
				}
			}
		}
	}
	r := record(func(d debugdraw.Drawer) { bakedraw.PolyMeshDetail(d, detail) })
	assert.Equal(t, len(detail.Tris), r.Count(debugdraw.KindTriangle))
	assert.Equal(t, outline+inside/2, r.Count(debugdraw.KindLine))
	assert.Equal(t, verts, r.Count(debugdraw.KindPoint))
	for i, m := range detail.Meshes[:10] {
		assert.Equal(t, debugdraw.IndexColor(i, 192), r.Primitives[m[2]].Color, "polygon %d in its colour", i)
	}
}

func TestNilStagesDrawNothing(t *testing.T) {
	r := record(func(d debugdraw.Drawer) {
		bakedraw.Heightfield(d, nil, true)
		bakedraw.CompactHeightfield(d, nil, bakedraw.CompactAreas)
		bakedraw.Contours(d, nil, bakedraw.RawContours)
		bakedraw.RegionConnections(d, nil)
		bakedraw.PolyMesh(d, nil)
		bakedraw.PolyMeshDetail(d, nil)
	})
	assert.Zero(t, r.Len())
}
