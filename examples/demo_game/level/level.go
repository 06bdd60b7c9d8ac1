// Package level gives the demo its navmesh: the level embedded in the binary
// (RecastDemo's dungeon, see assets/README.md) or a file named on the
// command line, baked (as one tile, tiled, or into a tile cache whose
// obstacles can carve it) or loaded, with the figures the demo prints.
package level

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Level is a navmesh ready for the crowd.
type Level struct {
	// Name is the level's file name ("dungeon.obj" for the embedded one).
	Name string
	// Mesh is the navmesh.
	Mesh *navmesh.Mesh
	// Baked reports whether the mesh was baked from triangles here (false:
	// loaded from a navmesh file).
	Baked bool
	// BakeTime is how long baking (or loading) took.
	BakeTime time.Duration
	// Triangles is the number of input triangles (0 when loaded).
	Triangles int
	// Tiles, Polygons and Vertices count the navmesh.
	Tiles, Polygons, Vertices int
	// OffMeshConnections counts the navmesh's off-mesh connections (the
	// bake's drop and jump links with Options.Links).
	OffMeshConnections int
	// Cache is the tile cache the mesh is built from, with
	// Options.TileCache; nil otherwise.
	Cache *tilecache.Cache
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
}

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

// finish counts the mesh's tiles, polygons and vertices.
func (l *Level) finish() *Level {
	snap := l.Mesh.Snapshot()
	for i := 0; i < snap.MaxTiles(); i++ {
		if tile := snap.Tile(i); tile != nil && tile.Header != nil {
			l.Tiles++
			l.Polygons += len(tile.Polys)
			l.Vertices += len(tile.Verts)
			l.OffMeshConnections += len(tile.OffMeshConnections)
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
	return (&Level{Name: name, Mesh: mesh, BakeTime: time.Since(start)}).finish(), nil
}
