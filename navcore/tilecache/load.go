package tilecache

import (
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

// FromTileSet returns a new navmesh for set.MeshParams and a cache holding
// set's layers, added in file order as Sample_TempObstacles::loadAll adds
// them (the layers get slots 0, 1, 2..., not the refs in the file). Every
// layer's tile is queued: run Update to build them (in file order, as
// loadAll does). The cache starts without obstacles. On error nothing is
// returned.
func FromTileSet(set *TileSet, options Options) (*Cache, *navmesh.Mesh, error) {
	if set == nil {
		return nil, nil, fmt.Errorf("tilecache: load: nil tile set: %w", ErrInvalidParams)
	}
	mesh, err := navmesh.New(set.MeshParams)
	if err != nil {
		return nil, nil, fmt.Errorf("tilecache: load: %w", err)
	}
	cache, err := New(set.CacheParams, mesh, options)
	if err != nil {
		return nil, nil, fmt.Errorf("tilecache: load: %w", err)
	}
	for i, layer := range set.Layers {
		if _, err := cache.AddLayer(layer.Data); err != nil {
			return nil, nil, fmt.Errorf("tilecache: load: layer %d: %w", i, err)
		}
	}
	return cache, mesh, nil
}
