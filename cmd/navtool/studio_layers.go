package main

import (
	"encoding/binary"
	"fmt"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/bakedraw"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
)

// studioLayer is one drawing layer of the page: what `navtool draw` and
// RecastDemo's draw modes show, drawn by the library's drawers.
type studioLayer struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Bake marks the layers of a solo bake's stages, which only a solo
	// bake of an OBJ level has.
	Bake bool `json:"bake"`
	// On is whether the page shows it at first.
	On bool `json:"on"`
}

// studioLayers lists the layers in drawing order.
var studioLayers = []studioLayer{
	{Name: "input", Label: "Input triangles (by slope)", On: true},
	{Name: "heightfield", Label: "Heightfield (span tops)", Bake: true},
	{Name: "compact-regions", Label: "Compact spans by region", Bake: true},
	{Name: "compact-distance", Label: "Compact spans by distance", Bake: true},
	{Name: "contours", Label: "Contours", Bake: true},
	{Name: "polymesh", Label: "Poly mesh", Bake: true},
	{Name: "detail", Label: "Detail mesh", Bake: true},
	{Name: "polygons", Label: "Navmesh polygons", On: true},
	{Name: "tiles", Label: "Tiles"},
	{Name: "links", Label: "Off-mesh links", On: true},
	{Name: "obstacles", Label: "Tile cache obstacles", On: true},
	{Name: "bvtree", Label: "BV tree"},
}

// maxLayerBytes bounds one encoded layer: a level whose heightfield would
// take more gets an error naming a coarser cell size.
const maxLayerBytes = 96 << 20

// layer returns the encoded layer name of the current version (with s.mu
// held), drawing it on first use.
func (s *studio) layer(name string) ([]byte, error) {
	if data, ok := s.layers[name]; ok {
		return data, nil
	}
	var rec debugdraw.Recorder
	if err := s.drawLayer(&rec, name); err != nil {
		return nil, err
	}
	data, err := encodeLayer(&rec)
	if err != nil {
		return nil, fmt.Errorf("layer %s: %w", name, err)
	}
	s.layers[name] = data
	return data, nil
}

// drawLayer draws layer name of the current state into d.
func (s *studio) drawLayer(d debugdraw.Drawer, name string) error {
	style := navdraw.DefaultStyle()
	snap := s.mesh.Snapshot()
	needSolo := func() error {
		if s.solo == nil || s.solo.CompactHeightfield == nil {
			return fmt.Errorf("layer %s: only a solo bake (tile size 0) of an OBJ level keeps its stages", name)
		}
		return nil
	}
	switch name {
	case "input":
		if s.level != nil {
			bakedraw.Geometry(d, s.level, s.settings.AgentMaxSlope)
		}
	case "heightfield":
		if err := needSolo(); err != nil {
			return err
		}
		hf, err := s.heightfield()
		if err != nil {
			return err
		}
		bakedraw.Heightfield(topFaces{d}, hf, true)
	case "compact-regions", "compact-distance":
		if err := needSolo(); err != nil {
			return err
		}
		mode := bakedraw.CompactRegions
		if name == "compact-distance" {
			mode = bakedraw.CompactDistance
		}
		bakedraw.CompactHeightfield(d, s.solo.CompactHeightfield, mode)
	case "contours":
		if err := needSolo(); err != nil {
			return err
		}
		bakedraw.Contours(d, s.solo.Contours, bakedraw.SimplifiedContours)
	case "polymesh":
		if err := needSolo(); err != nil {
			return err
		}
		bakedraw.PolyMesh(d, s.solo.PolyMesh)
	case "detail":
		if err := needSolo(); err != nil {
			return err
		}
		bakedraw.PolyMeshDetail(d, s.solo.DetailMesh)
	case "polygons":
		style.PolygonAlpha = 200
		navdraw.Mesh(d, snap, navdraw.Polygons|navdraw.InnerEdges|navdraw.Walls|navdraw.TileBorders, style)
	case "tiles":
		navdraw.Mesh(d, snap, navdraw.TileBounds, style)
	case "links":
		navdraw.Mesh(d, snap, navdraw.OffMeshConnections, style)
	case "bvtree":
		navdraw.Mesh(d, snap, navdraw.BVTree, style)
	case "obstacles":
		if s.cache != nil {
			navdraw.TileCacheObstacles(d, s.cache.Obstacles(nil), style)
		}
	default:
		return fmt.Errorf("unknown layer %q", name)
	}
	return nil
}

// heightfield rasterizes the level again as the last solo bake did, up to
// its span filters: the solid heightfield, which the bake does not keep.
func (s *studio) heightfield() (*bake.Heightfield, error) {
	cfg := s.solo.Config
	hf, err := bake.NewHeightfield(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight)
	if err != nil {
		return nil, err
	}
	areas := make([]uint8, len(s.level.Triangles))
	if s.level.Areas != nil {
		copy(areas, s.level.Areas)
		err = bake.ClearUnwalkableTriangles(cfg.WalkableSlopeAngle, s.level.Vertices, s.level.Triangles, areas)
	} else {
		err = bake.MarkWalkableTriangles(cfg.WalkableSlopeAngle, s.level.Vertices, s.level.Triangles, areas)
	}
	if err != nil {
		return nil, err
	}
	if err := hf.RasterizeTriangles(s.level.Vertices, s.level.Triangles, areas, cfg.WalkableClimb); err != nil {
		return nil, err
	}
	if cfg.Filters.LowHangingObstacles {
		hf.FilterLowHangingWalkableObstacles(cfg.WalkableClimb)
	}
	if cfg.Filters.LedgeSpans {
		hf.FilterLedgeSpans(cfg.WalkableHeight, cfg.WalkableClimb)
	}
	if cfg.Filters.WalkableLowHeightSpans {
		hf.FilterWalkableLowHeightSpans(cfg.WalkableHeight)
	}
	return hf, nil
}

// topFaces passes on the triangles that face up or down (a span's top and
// bottom), dropping the sides: a heightfield seen in 3D reads by its tops,
// at a sixth of the triangles.
type topFaces struct{ debugdraw.Drawer }

func (t topFaces) Triangle(a, b, c mgl32.Vec3, fill color.NRGBA) {
	n := geom.Cross(geom.Sub(b, a), geom.Sub(c, a))
	if n[1]*n[1] > float32(0.25)*geom.LenSqr(n) {
		t.Drawer.Triangle(a, b, c, fill)
	}
}

// encodeLayer writes the recorded primitives as the page reads them, all
// little-endian: three uint32 counts of triangle, line and point vertices,
// then for each kind in that order its positions (float32 x, y, z per
// vertex) and its colours (RGBA bytes per vertex, not premultiplied);
// line widths and point sizes [pixels] follow as one float32 per line and
// per point.
func encodeLayer(rec *debugdraw.Recorder) ([]byte, error) {
	var counts [3]int
	for _, p := range rec.Primitives {
		switch p.Kind {
		case debugdraw.KindTriangle:
			counts[0] += 3
		case debugdraw.KindLine:
			counts[1] += 2
		case debugdraw.KindPoint:
			counts[2]++
		}
	}
	size := 12 + 16*(counts[0]+counts[1]+counts[2]) + 4*(counts[1]/2+counts[2])
	if size > maxLayerBytes {
		return nil, fmt.Errorf("%d triangles, %d lines and %d points are more than the page can take (%d MiB): a coarser cell size draws fewer",
			counts[0]/3, counts[1]/2, counts[2], maxLayerBytes>>20)
	}
	out := make([]byte, 0, size)
	for _, n := range counts {
		out = binary.LittleEndian.AppendUint32(out, uint32(n))
	}
	kinds := [3]struct {
		kind     debugdraw.Kind
		vertices int
	}{{debugdraw.KindTriangle, 3}, {debugdraw.KindLine, 2}, {debugdraw.KindPoint, 1}}
	for _, k := range kinds {
		for _, p := range rec.Primitives {
			if p.Kind != k.kind {
				continue
			}
			for _, v := range p.Vertices[:k.vertices] {
				for _, c := range v {
					out = binary.LittleEndian.AppendUint32(out, math.Float32bits(c))
				}
			}
		}
		for _, p := range rec.Primitives {
			if p.Kind != k.kind {
				continue
			}
			for range k.vertices {
				out = append(out, p.Color.R, p.Color.G, p.Color.B, p.Color.A)
			}
		}
		if k.kind == debugdraw.KindTriangle {
			continue
		}
		for _, p := range rec.Primitives {
			if p.Kind == k.kind {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(p.Size))
			}
		}
	}
	return out, nil
}
