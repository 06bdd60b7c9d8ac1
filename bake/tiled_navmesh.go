package bake

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// NavMeshParams returns the navmesh parameters for the baked tiles: the
// origin at the level's minimum corner, tiles TileSize·CellSize wide,
// MaxTiles the tile grid's size rounded up to a power of two (so every tile
// of the grid has room) and MaxPolys the largest tile's polygon count
// rounded up to a power of two. A tile rebuilt later with more polygons
// than that needs a mesh made with a larger MaxPolys.
func (r *TiledResult) NavMeshParams() navmesh.Params {
	tilesX, tilesY := r.Baker.Grid()
	maxPolys := 1
	for _, tile := range r.Tiles {
		maxPolys = max(maxPolys, len(tile.Data.Polys))
	}
	return navmesh.Params{
		Origin:     r.Baker.bmin,
		TileWidth:  r.Baker.tileWorldSize,
		TileHeight: r.Baker.tileWorldSize,
		MaxTiles:   int(geom.NextPow2(uint32(tilesX * tilesY))),
		MaxPolys:   int(geom.NextPow2(uint32(maxPolys))),
	}
}

// NavMesh returns a navigation mesh holding every baked tile, added row by
// row in one navmesh.Batch (one snapshot published), linked to each other
// across their borders as AddTile one tile after the other would link
// them. The first mesh made from a result links the tiles' polygons in
// place (see navmesh.TileData); a second one holds copies. A bake in which
// no tile has data gives a mesh without tiles (tiles may be added later);
// its Stats.Warnings then say what to check.
func (r *TiledResult) NavMesh() (*navmesh.Mesh, error) {
	if r == nil || r.Baker == nil {
		return nil, errors.New("bake: navmesh of an empty tiled result")
	}
	m, err := navmesh.New(r.NavMeshParams())
	if err != nil {
		return nil, fmt.Errorf("bake: tiled navmesh: %w", err)
	}
	var batch navmesh.Batch
	for _, tile := range r.Tiles {
		batch.Add(tile.Data, 0)
	}
	if _, err := m.Apply(&batch, nil); err != nil {
		return nil, fmt.Errorf("bake: tiled navmesh (change i is Tiles[i]): %w", err)
	}
	return m, nil
}
