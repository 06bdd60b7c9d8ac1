package bake

import (
	"encoding/binary"
	"fmt"

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
	// Links are the automatic drop and jump links stored in the tile
	// (those starting in it), after the geometry's own connections.
	Links []OffMeshConnection

	// solid and linkParams keep, between a tiled bake's tiles and its
	// links, the solid spans of the tile's core and what built its data.
	solid      *solidColumns
	linkParams *navmesh.BuildParams
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
	c.DropLinks += o.DropLinks
	c.JumpLinks += o.JumpLinks
}

// Fingerprints identifies a tiled bake bit for bit, tiles with data in grid
// order (y, then x): PolyMesh and DetailMesh are FNV-1a 64 over the tiles'
// poly mesh and detail mesh fingerprints, 8 little-endian bytes each;
// TileData is FNV-1a 64 over the tiles' DNAV blobs one after the other.
func (r *TiledResult) Fingerprints() (Fingerprints, error) {
	polyMesh, detailMesh, tileData := navmesh.Fingerprint(nil), navmesh.Fingerprint(nil), navmesh.Fingerprint(nil)
	var buf [8]byte
	for _, tile := range r.Tiles {
		binary.LittleEndian.PutUint64(buf[:], tile.Fingerprints.PolyMesh)
		polyMesh = navmesh.FingerprintAppend(polyMesh, buf[:])
		binary.LittleEndian.PutUint64(buf[:], tile.Fingerprints.DetailMesh)
		detailMesh = navmesh.FingerprintAppend(detailMesh, buf[:])
		var err error
		if tileData, err = navmesh.FingerprintAppendTileData(tileData, tile.Data); err != nil {
			return Fingerprints{}, fmt.Errorf("bake: fingerprint of tile (%d, %d): %w", tile.X, tile.Y, err)
		}
	}
	return Fingerprints{PolyMesh: polyMesh, DetailMesh: detailMesh, TileData: tileData}, nil
}
