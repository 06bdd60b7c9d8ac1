package level

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"github.com/archenav/archenav/bake/dynamic"
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
// (agent height 2, climb 0.9), once per agent type of opts.Types (radius
// 0.6 alone when there are none), in one call: as one tile, or tiled when
// opts.TileSize is set, or into tile caches with opts.TileCache; with the
// default drop and jump links when opts.Links is set.
func bakeOBJ(name string, obj []byte, opts Options) (*Level, error) {
	start := time.Now()
	geometry, err := bake.ReadOBJ(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	types := bakeTypes(opts)
	l := &Level{Name: name, Baked: true, Triangles: len(geometry.Triangles)}
	var set navmesh.MeshSet
	var caches []*tilecache.Cache
	switch {
	case opts.Dynamic:
		settings := types[0].Settings
		settings.TileSize = cmp.Or(opts.TileSize, 32)
		if l.Dynamic, err = dynamic.New(context.Background(), geometry, settings, dynamic.Options{Workers: opts.Workers}); err == nil {
			set = navmesh.MeshSet{{Name: types[0].Name, Mesh: l.Dynamic.NavMesh()}}
		}
	case opts.TileCache:
		caches, set, err = bakeTileCaches(geometry, types, opts)
	case opts.TileSize > 0:
		var result *bake.TiledTypesResult
		result, err = bake.TiledTypes(context.Background(), geometry, types, bake.TiledOptions{TileSize: opts.TileSize, Workers: opts.Workers})
		if err == nil {
			set, err = result.MeshSet()
		}
	default:
		var result *bake.SoloTypesResult
		result, err = bake.SoloTypes(context.Background(), geometry, types, bake.SoloTypesOptions{Workers: opts.Workers})
		if err == nil {
			set, err = result.MeshSet()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	l.BakeTime = time.Since(start)
	for i, t := range types {
		mesh := TypeMesh{AgentType: AgentType{Name: t.Name, Radius: t.Settings.AgentRadius}, Mesh: set[i].Mesh}
		if caches != nil {
			mesh.Cache = caches[i]
		}
		l.Types = append(l.Types, mesh)
	}
	return l.finish(), nil
}

// bakeTypes returns the bake's agent types: RecastDemo's default settings
// with each type's radius.
func bakeTypes(opts Options) []bake.AgentType {
	wanted := opts.Types
	if len(wanted) == 0 {
		wanted = []AgentType{{Name: DefaultTypeName, Radius: bake.DefaultSettings().AgentRadius}}
	}
	types := make([]bake.AgentType, len(wanted))
	for i, t := range wanted {
		types[i] = bake.AgentType{Name: t.Name, Settings: bake.DefaultSettings()}
		types[i].Settings.AgentRadius = t.Radius
		if opts.Links {
			types[i].Settings.Links = bake.DefaultLinkSettings()
		}
	}
	return types
}

// tileCacheSize is the tile size of a tile cache bake when Options.TileSize
// is 0: RecastDemo's TempObstacles sample's [Units: cells]
const tileCacheSize = 48

// bakeTileCaches bakes geometry's heightfield layers for every type in one
// call and builds every tile of each type's cache's navmesh.
func bakeTileCaches(geometry *bake.Geometry, types []bake.AgentType, opts Options) ([]*tilecache.Cache, navmesh.MeshSet, error) {
	size := opts.TileSize
	if size == 0 {
		size = tileCacheSize
	}
	result, err := bake.TileCacheTypes(context.Background(), geometry, types, bake.TileCacheOptions{TileSize: size, Workers: opts.Workers})
	if err != nil {
		return nil, nil, err
	}
	caches, set, err := result.Caches(tilecache.Options{Workers: max(opts.Workers, 1)})
	if err != nil {
		return nil, nil, err
	}
	for _, cache := range caches {
		for done := false; !done; {
			if done, err = cache.Update(tilecache.Budget{}); err != nil {
				return nil, nil, err
			}
		}
	}
	return caches, set, nil
}
