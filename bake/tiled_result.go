package bake

import (
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

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
	// Triangles counts the input triangles the tile looked at: those of
	// the chunks of the level that overlap the tile and its border.
	Triangles int
	// Fingerprints identify the tile's poly mesh (before the area
	// mapping), detail mesh and tile data; zero for products the tile did
	// not get to.
	Fingerprints Fingerprints
	// Stats holds the tile's time per stage, sizes and warnings.
	Stats BuildStats
}

// addCounts adds o's counts to c.
func addCounts(c, o *BuildCounts) {
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
