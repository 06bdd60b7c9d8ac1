package level

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

//go:embed assets/dungeon.obj
var dungeonOBJ []byte

// EmbeddedName is the file name of the level built into the demo.
const EmbeddedName = "dungeon.obj"

// Embedded bakes the level built into the demo: RecastDemo's dungeon.
func Embedded(opts Options) (*Level, error) {
	return bakeOBJ(EmbeddedName, dungeonOBJ, opts)
}

// bakeOBJ bakes a Wavefront OBJ level with RecastDemo's default settings
// (agent radius 0.6, height 2, climb 0.9): as one tile, or tiled when
// opts.TileSize is set; with the default drop and jump links when
// opts.Links is set.
func bakeOBJ(name string, obj []byte, opts Options) (*Level, error) {
	start := time.Now()
	geometry, err := bake.ReadOBJ(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	settings := bake.DefaultSettings()
	if opts.Links {
		settings.Links = bake.DefaultLinkSettings()
	}
	var mesh *navmesh.Mesh
	var cache *tilecache.Cache
	switch {
	case opts.TileCache:
		if cache, err = bakeTileCache(geometry, settings, opts); err != nil {
			return nil, fmt.Errorf("level: %s: %w", name, err)
		}
		mesh = cache.Mesh()
	case opts.TileSize > 0:
		result, err := bake.Tiled(context.Background(), geometry, settings, bake.TiledOptions{TileSize: opts.TileSize, Workers: opts.Workers})
		if err != nil {
			return nil, fmt.Errorf("level: %s: %w", name, err)
		}
		if mesh, err = result.NavMesh(); err != nil {
			return nil, fmt.Errorf("level: %s: %w", name, err)
		}
	default:
		result, err := bake.Solo(context.Background(), geometry, settings)
		if err != nil {
			return nil, fmt.Errorf("level: %s: %w", name, err)
		}
		if mesh, err = result.NavMesh(); err != nil {
			return nil, fmt.Errorf("level: %s: %w", name, err)
		}
	}
	l := &Level{
		Name:      name,
		Mesh:      mesh,
		Cache:     cache,
		Baked:     true,
		BakeTime:  time.Since(start),
		Triangles: len(geometry.Triangles),
	}
	return l.finish(), nil
}

// tileCacheSize is the tile size of a tile cache bake when Options.TileSize
// is 0: RecastDemo's TempObstacles sample's [Units: cells]
const tileCacheSize = 48

// bakeTileCache bakes geometry's heightfield layers and builds every tile
// of the cache's navmesh.
func bakeTileCache(geometry *bake.Geometry, settings bake.Settings, opts Options) (*tilecache.Cache, error) {
	size := opts.TileSize
	if size == 0 {
		size = tileCacheSize
	}
	result, err := bake.TileCache(context.Background(), geometry, settings, bake.TileCacheOptions{TileSize: size, Workers: opts.Workers})
	if err != nil {
		return nil, err
	}
	cache, _, err := result.Cache(tilecache.Options{Workers: max(opts.Workers, 1)})
	if err != nil {
		return nil, err
	}
	for done := false; !done; {
		if done, err = cache.Update(tilecache.Budget{}); err != nil {
			return nil, err
		}
	}
	return cache, nil
}
