package bake

import (
	"fmt"

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
			h = tilecache.FingerprintAppendLayer(h, &tile.Layers[i])
		}
	}
	return h
}

// LayerHash returns the layerHash of the reference figures over layers in
// the order given (tilecache.FingerprintAppendLayer over each, from one
// FNV-1a 64 state): per layer its header's TX, TY, TLayer (int32), BMin,
// BMax (float32), HMin, HMax (uint16), Width, Height, MinX, MaxX, MinY,
// MaxY (uint8), little-endian, then its Heights, Areas and Cons grids. It
// does not depend on any compression.
func LayerHash(layers []tilecache.Layer) uint64 {
	h := navmesh.Fingerprint(nil)
	for i := range layers {
		h = tilecache.FingerprintAppendLayer(h, &layers[i])
	}
	return h
}

// Encoded returns every encoded layer of the bake in build order, nil when
// it had no Compressor.
func (r *TileCacheResult) Encoded() [][]byte {
	var encoded [][]byte
	for _, tile := range r.Tiles {
		encoded = append(encoded, tile.Encoded...)
	}
	return encoded
}

// Cache returns a new navmesh (NavMeshParams) and a tile cache (Params)
// holding the bake's layers, added in build order as
// Sample_TempObstacles::build adds them, so the cache's files are the C++
// sample's. Every layer's tile is queued: run Update to build them. The
// layers are the bake's encoded ones when it had a Compressor, which
// options.Compressor must then read (nil means FastLZ); else they are
// encoded with options.Compressor now.
func (r *TileCacheResult) Cache(options tilecache.Options) (*tilecache.Cache, *navmesh.Mesh, error) {
	set := &tilecache.TileSet{MeshParams: r.NavMeshParams(), CacheParams: r.Params()}
	compressor := options.Compressor
	if compressor == nil {
		compressor = tilecache.FastLZ{}
	}
	for _, tile := range r.Tiles {
		for i := range tile.Layers {
			var data []byte
			if tile.Encoded != nil {
				data = tile.Encoded[i]
			} else {
				var err error
				if data, err = tilecache.EncodeLayer(&tile.Layers[i], compressor); err != nil {
					return nil, nil, fmt.Errorf("bake: tile cache: %w", err)
				}
			}
			set.Layers = append(set.Layers, tilecache.StoredLayer{Data: data})
		}
	}
	cache, mesh, err := tilecache.FromTileSet(set, options)
	if err != nil {
		return nil, nil, fmt.Errorf("bake: tile cache: %w", err)
	}
	return cache, mesh, nil
}
