package benchmarks

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

// levels are the test levels of the C++ reference tables, in table order.
var levels = []string{"dungeon", "nav_test", "undulating"}

// referenceTileSize is the tile side of the reference tiled bakes
// (RecastDemo's tile sample) [Units: cells].
const referenceTileSize = 32

// levelGeometry returns testdata/<name>.obj; the file is read once per
// process.
func levelGeometry(tb testing.TB, name string) *bake.Geometry {
	tb.Helper()
	g, err := geometryCache.get(name, func() (*bake.Geometry, error) {
		return bake.LoadOBJ("../testdata/" + name + ".obj")
	})
	if err != nil {
		tb.Fatalf("level %s: %v", name, err)
	}
	return g
}

// soloBake returns the solo bake of level name with the reference settings
// (RecastDemo's defaults), baked once per process: the tile is the one the
// C++ solo sample builds, byte for byte.
func soloBake(tb testing.TB, name string) *bake.SoloResult {
	tb.Helper()
	g := levelGeometry(tb, name)
	result, err := soloCache.get(name, func() (*bake.SoloResult, error) {
		return bake.Solo(context.Background(), g, bake.DefaultSettings())
	})
	if err != nil {
		tb.Fatalf("solo bake of %s: %v", name, err)
	}
	return result
}

// soloMesh returns a one-tile mesh holding the solo bake of level name,
// made once per process; callers only read it.
func soloMesh(tb testing.TB, name string) *navmesh.Mesh {
	tb.Helper()
	data := soloBake(tb, name).TileData
	m, err := soloMeshCache.get(name, func() (*navmesh.Mesh, error) {
		m, err := navmesh.New(navmesh.SingleTileParams(data))
		if err != nil {
			return nil, err
		}
		if _, err := m.AddTile(data, 0); err != nil {
			return nil, err
		}
		return m, nil
	})
	if err != nil {
		tb.Fatalf("solo mesh of %s: %v", name, err)
	}
	return m
}

// tiledBake returns the tiled bake of level name (tile size 32, reference
// settings), baked once per process.
func tiledBake(tb testing.TB, name string) *bake.TiledResult {
	tb.Helper()
	g := levelGeometry(tb, name)
	result, err := tiledCache.get(name, func() (*bake.TiledResult, error) {
		settings := bake.DefaultSettings()
		settings.TileSize = referenceTileSize
		return bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
	})
	if err != nil {
		tb.Fatalf("tiled bake of %s: %v", name, err)
	}
	return result
}

// tiledMesh returns a new mesh holding the tiled bake of level name. Every
// call returns a mesh of its own, so a benchmark may remove and add tiles.
func tiledMesh(tb testing.TB, name string) *navmesh.Mesh {
	tb.Helper()
	m, err := tiledBake(tb, name).NavMesh()
	if err != nil {
		tb.Fatalf("tiled mesh of %s: %v", name, err)
	}
	return m
}

// cache builds a value per key once and keeps it for the process: the
// benchmarks run their set-up for every b.N, and baking or reading a level
// again each time would make a run take minutes.
type cache[T any] struct {
	mu     sync.Mutex
	values map[string]T
}

func (c *cache[T]) get(key string, build func() (T, error)) (T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.values[key]; ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		var zero T
		return zero, fmt.Errorf("build %s: %w", key, err)
	}
	if c.values == nil {
		c.values = map[string]T{}
	}
	c.values[key] = v
	return v, nil
}

var (
	geometryCache cache[*bake.Geometry]
	soloCache     cache[*bake.SoloResult]
	soloMeshCache cache[*navmesh.Mesh]
	tiledCache    cache[*bake.TiledResult]
)
