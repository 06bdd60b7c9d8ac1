// Package level gives the demo its navmesh: the level embedded in the binary
// (RecastDemo's dungeon, see assets/README.md) or a file named on the
// command line, baked (as one tile, tiled, or into a tile cache whose
// obstacles can carve it) or loaded, with the figures the demo prints. An
// .obj level is baked for one or several agent types (sizes) in one call,
// each type getting a navmesh (and tile cache) of its own.
package level

import (
	"fmt"
	"github.com/archenav/archenav/bake/dynamic"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// AgentType is an agent size a level is baked for.
type AgentType struct {
	// Name names the type [Limit: 1..255 bytes, unique in a bake].
	Name string
	// Radius is the agents' radius the navmesh is eroded by
	// [Limit: > 0] [Units: world units].
	Radius float32
}

// DefaultTypeName names the one agent type of a level baked without
// Options.Types or loaded from a navmesh file.
const DefaultTypeName = "agent"

// DefaultTypes are the demo's two agent types: "small", RecastDemo's
// default agent (radius 0.6, the mesh the demo always had), and "large",
// radius 1.8 (six cells of 0.3, so that its navmesh is eroded by exactly
// its radius), whose navmesh keeps 1.2 m farther from every wall and lacks
// the narrow ramp up to the top floor of the dungeon's tower. (Every
// passage of the dungeon's lower floor is wide enough for radius 2.1; at
// 1.5 the large mesh still reaches the top floor.)
func DefaultTypes() []AgentType {
	return []AgentType{{Name: "small", Radius: 0.6}, {Name: "large", Radius: 1.8}}
}

// TypeMesh is the navmesh of one agent type.
type TypeMesh struct {
	AgentType
	// Mesh is the type's navmesh.
	Mesh *navmesh.Mesh
	// Cache is the tile cache Mesh is built from, with Options.TileCache;
	// nil otherwise.
	Cache *tilecache.Cache
	// Polygons counts Mesh's polygons (off-mesh links included).
	Polygons int
}

// Level is a navmesh ready for the crowd, one per agent type.
type Level struct {
	// Name is the level's file name ("dungeon.obj" for the embedded one).
	Name string
	// Mesh is the navmesh of the first agent type (Types[0].Mesh).
	Mesh *navmesh.Mesh
	// Baked reports whether the mesh was baked from triangles here (false:
	// loaded from a navmesh file).
	Baked bool
	// BakeTime is how long baking (or loading) took.
	BakeTime time.Duration
	// Triangles is the number of input triangles (0 when loaded).
	Triangles int
	// Tiles, Polygons and Vertices count the first type's navmesh.
	Tiles, Polygons, Vertices int
	// OffMeshConnections counts the navmesh's off-mesh connections (the
	// bake's drop and jump links with Options.Links).
	OffMeshConnections int
	// Cache is the tile cache Mesh is built from, with Options.TileCache;
	// nil otherwise.
	Cache *tilecache.Cache
	// Dynamic is the dynamic navmesh Mesh is built from, with
	// Options.Dynamic; nil otherwise.
	Dynamic *dynamic.Mesh
	// Types holds every agent type's navmesh, in the order of
	// Options.Types; Types[0] is Mesh and Cache. A loaded navmesh file
	// has one type, DefaultTypeName, of radius 0 (unknown).
	Types []TypeMesh
}

// Options tune baking.
type Options struct {
	// TileSize bakes a tiled navmesh with tiles this many cells wide; 0
	// bakes one tile [Limit: >= 0] [Units: cells of 0.3 world units]
	TileSize int
	// Workers is the number of goroutines baking tiles (0: GOMAXPROCS).
	Workers int
	// Links places the bake's drop and jump links
	// (bake.DefaultLinkSettings).
	Links bool
	// TileCache bakes an .obj level into a tile cache (bake.TileCache, tiles
	// of TileSize cells, 48 when 0) and builds the navmesh from it, so that
	// obstacles can carve it; not with Links.
	TileCache bool
	// Dynamic bakes an .obj level into a dynamic navmesh (bake/dynamic,
	// tiles of TileSize cells, 32 when 0), so that colliders add ground
	// to it; one agent type only, not with Links or TileCache.
	Dynamic bool
	// Types are the agent types an .obj level is baked for, in one call
	// (bake.SoloTypes, TiledTypes or TileCacheTypes) sharing what the
	// types' settings allow, each with RecastDemo's settings and its own
	// radius; none bakes one type of radius 0.6, DefaultTypeName. A
	// navmesh file is loaded as one type whatever this says
	// [Limit: <= 8 types].
	Types []AgentType
}

// maxTypes bounds Options.Types (the crowd takes up to 16).
const maxTypes = 8

// Load returns the level in path: a Wavefront .obj file is baked (see
// Options), anything else is read as a navmesh file (a C++ DNAV tile, a
// RecastDemo MSET tile set or an archenav mesh file). An empty path gives
// the embedded level.
func Load(path string, opts Options) (*Level, error) {
	if opts.TileSize < 0 {
		return nil, fmt.Errorf("level: tile size %d is negative", opts.TileSize)
	}
	if opts.TileCache && opts.Links {
		return nil, fmt.Errorf("level: a tile cache with drop and jump links is not supported here")
	}
	if opts.Dynamic && (opts.Links || opts.TileCache || len(opts.Types) > 1) {
		return nil, fmt.Errorf("level: a dynamic navmesh takes one agent type, without links or a tile cache")
	}
	if len(opts.Types) > maxTypes {
		return nil, fmt.Errorf("level: %d agent types, at most %d", len(opts.Types), maxTypes)
	}
	for _, t := range opts.Types {
		if !(t.Radius > 0) || t.Radius > 100 {
			return nil, fmt.Errorf("level: agent type %q: radius %v outside (0, 100]", t.Name, t.Radius)
		}
	}
	if path == "" {
		return Embedded(opts)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("level: %w", err)
	}
	name := filepath.Base(path)
	if strings.EqualFold(filepath.Ext(path), ".obj") {
		return bakeOBJ(name, data, opts)
	}
	return loadNavmesh(name, data)
}

// finish sets Mesh and Cache from the first type and counts its mesh's
// tiles, polygons and vertices, and every type's polygons.
func (l *Level) finish() *Level {
	l.Mesh, l.Cache = l.Types[0].Mesh, l.Types[0].Cache
	for t := range l.Types {
		snap := l.Types[t].Mesh.Snapshot()
		for i := 0; i < snap.MaxTiles(); i++ {
			tile := snap.Tile(i)
			if tile == nil || tile.Data == nil {
				continue
			}
			l.Types[t].Polygons += len(tile.Polys)
			if t == 0 {
				l.Tiles++
				l.Polygons += len(tile.Polys)
				l.Vertices += len(tile.Verts)
				l.OffMeshConnections += len(tile.Data.OffMeshConnections)
			}
		}
	}
	return l
}

// loadNavmesh reads a navmesh file: a C++ DNAV tile, a RecastDemo MSET
// tile set or an archenav mesh file.
func loadNavmesh(name string, file []byte) (*Level, error) {
	start := time.Now()
	mesh, _, err := navmesh.LoadBytes(file)
	if err != nil {
		return nil, fmt.Errorf("level: %s: not an .obj level nor a navmesh file this demo reads: %w", name, err)
	}
	l := &Level{Name: name, BakeTime: time.Since(start), Types: []TypeMesh{{AgentType: AgentType{Name: DefaultTypeName}, Mesh: mesh}}}
	return l.finish(), nil
}
