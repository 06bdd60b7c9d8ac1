package bake

import (
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// tileStage names a step of the tile pipeline, for timings.
type tileStage int

const (
	tileStageRasterize tileStage = iota
	tileStageFilters
	tileStageCompact
	tileStageErode
	tileStageDistanceField
	tileStageRegions
	tileStageContours
	tileStagePolyMesh
	tileStageDetailMesh
	tileStageTileData
	tileStageCount
)

var tileStageNames = [tileStageCount]string{
	"rasterize", "filters", "compact", "erode", "distance field", "regions",
	"contours", "poly mesh", "detail mesh", "tile data",
}

func (s tileStage) String() string { return tileStageNames[s] }

// TileCounts are the sizes of what the stages of one tile produced.
type TileCounts struct {
	// HeightfieldSpans counts the solid spans after rasterization.
	HeightfieldSpans int
	// CompactSpans counts the spans of the compact heightfield.
	CompactSpans int
	// WalkableSpans counts the compact spans still walkable after erosion.
	WalkableSpans int
	// Regions is the region id bound of the partition (MaxRegions).
	Regions int
	// Contours counts the region contours.
	Contours int
	// PolyVerts and Polys size the poly mesh.
	PolyVerts, Polys int
	// DetailVerts and DetailTris size the detail mesh.
	DetailVerts, DetailTris int
	// TileBytes is the size of the tile as a C++ DNAV blob.
	TileBytes int
}

// add adds o's counts to c.
func (c *TileCounts) add(o *TileCounts) {
	c.HeightfieldSpans += o.HeightfieldSpans
	c.CompactSpans += o.CompactSpans
	c.WalkableSpans += o.WalkableSpans
	c.Regions += o.Regions
	c.Contours += o.Contours
	c.PolyVerts += o.PolyVerts
	c.Polys += o.Polys
	c.DetailVerts += o.DetailVerts
	c.DetailTris += o.DetailTris
	c.TileBytes += o.TileBytes
}

// TileResult is one baked tile.
type TileResult struct {
	// X and Y locate the tile in the grid.
	X, Y int
	// BMin and BMax bound the tile without its border; y spans the level
	// [Units: world units]
	BMin, BMax mgl32.Vec3
	// Data is the tile, ready for navmesh.Mesh.AddTile; nil when nothing
	// in the tile is walkable.
	Data *navmesh.TileData
	// Triangles counts the input triangles the tile looked at (those of
	// the chunks overlapping it).
	Triangles int
	// Counts are the sizes of the stage products.
	Counts TileCounts
	// PolyMeshHash and DetailMeshHash fingerprint the tile's poly mesh and
	// detail mesh as the reference tables do (0 when there are none).
	PolyMeshHash, DetailMeshHash uint64
	// StageTimes holds the time spent in each stage, indexed like
	// TiledStats.StageNames.
	StageTimes [tileStageCount]time.Duration
	// Warnings are problems the stages built through.
	Warnings []string
}
