package bake

import (
	"encoding/binary"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// maxTileCacheTileBits bounds the tile bits of a tile cache bake's navmesh
// (Sample_TempObstacles keeps 22 bits for tiles and polygons together).
const maxTileCacheTileBits = 14

// TileCacheParams returns the tile cache settings of a tile cache bake of
// this level, as Sample_TempObstacles fills dtTileCacheParams: the origin
// at the level's minimum corner, the settings' cell size, tile size and
// agent values, MaxTiles room for ExpectedLayersPerTile layers per tile of
// the grid and TileCacheMaxObstacles obstacles.
func (b *TileBaker) TileCacheParams() tilecache.Params {
	s := &b.settings
	return tilecache.Params{
		Origin:                 b.bmin,
		CellSize:               s.CellSize,
		CellHeight:             s.CellHeight,
		Width:                  int32(s.TileSize),
		Height:                 int32(s.TileSize),
		WalkableHeight:         s.AgentHeight,
		WalkableRadius:         s.AgentRadius,
		WalkableClimb:          s.AgentMaxClimb,
		MaxSimplificationError: s.EdgeMaxError,
		MaxTiles:               int32(b.tilesX * b.tilesY * ExpectedLayersPerTile),
		MaxObstacles:           TileCacheMaxObstacles,
	}
}

// TileCacheNavMeshParams returns the navmesh parameters for the tiles built
// from a tile cache bake of this level, as Sample_TempObstacles sets them:
// tiles TileSize·CellSize wide from the level's minimum corner, MaxTiles
// 2^tileBits with tileBits = min(log2(nextPow2(tiles·4)), 14) over the
// grid's tiles, and MaxPolys 2^(22 - tileBits).
func (b *TileBaker) TileCacheNavMeshParams() navmesh.Params {
	tileBits := min(int(geom.Ilog2(geom.NextPow2(uint32(b.tilesX*b.tilesY*ExpectedLayersPerTile)))), maxTileCacheTileBits)
	return navmesh.Params{
		Origin:     b.bmin,
		TileWidth:  b.tileWorldSize,
		TileHeight: b.tileWorldSize,
		MaxTiles:   1 << tileBits,
		MaxPolys:   1 << (22 - tileBits),
	}
}

// Params returns the tile cache settings of the bake
// (TileBaker.TileCacheParams).
func (r *TileCacheResult) Params() tilecache.Params { return r.Baker.TileCacheParams() }

// NavMeshParams returns the navmesh parameters for the tiles built from the
// bake's layers (TileBaker.TileCacheNavMeshParams).
func (r *TileCacheResult) NavMeshParams() navmesh.Params { return r.Baker.TileCacheNavMeshParams() }

// Layers returns every layer of the bake in build order: tiles row by row
// (y, then x), then layer index.
func (r *TileCacheResult) Layers() []tilecache.Layer {
	layers := make([]tilecache.Layer, 0, r.Stats.Layers)
	for _, tile := range r.Tiles {
		layers = append(layers, tile.Layers...)
	}
	return layers
}

// LayerHash returns the bake's layerHash (LayerHash over Layers()).
func (r *TileCacheResult) LayerHash() uint64 {
	h := navmesh.Fingerprint(nil)
	for _, tile := range r.Tiles {
		for i := range tile.Layers {
			h = appendLayerHash(h, &tile.Layers[i])
		}
	}
	return h
}

// LayerHash returns the layerHash of the reference figures over layers in
// the order given: one FNV-1a 64 state over, per layer, its header's TX,
// TY, TLayer (int32), BMin, BMax (float32), HMin, HMax (uint16), Width,
// Height, MinX, MaxX, MinY, MaxY (uint8), little-endian, then its Heights,
// Areas and Cons grids. It does not depend on any compression.
func LayerHash(layers []tilecache.Layer) uint64 {
	h := navmesh.Fingerprint(nil)
	for i := range layers {
		h = appendLayerHash(h, &layers[i])
	}
	return h
}

// appendLayerHash continues the FNV-1a state h with layer l.
func appendLayerHash(h uint64, l *tilecache.Layer) uint64 {
	le := binary.LittleEndian
	var buf [46]byte
	hd := &l.Header
	le.PutUint32(buf[0:], uint32(hd.TX))
	le.PutUint32(buf[4:], uint32(hd.TY))
	le.PutUint32(buf[8:], uint32(hd.TLayer))
	for i := range 3 {
		le.PutUint32(buf[12+4*i:], math.Float32bits(hd.BMin[i]))
		le.PutUint32(buf[24+4*i:], math.Float32bits(hd.BMax[i]))
	}
	le.PutUint16(buf[36:], hd.HMin)
	le.PutUint16(buf[38:], hd.HMax)
	buf[40], buf[41], buf[42], buf[43], buf[44], buf[45] = hd.Width, hd.Height, hd.MinX, hd.MaxX, hd.MinY, hd.MaxY
	h = navmesh.FingerprintAppend(h, buf[:46])
	h = navmesh.FingerprintAppend(h, l.Heights)
	h = navmesh.FingerprintAppend(h, l.Areas)
	return navmesh.FingerprintAppend(h, l.Cons)
}
