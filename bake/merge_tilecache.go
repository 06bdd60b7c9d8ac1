package bake

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// mergedLayer is one layer of a tile cache merge with the input it came
// from.
type mergedLayer struct {
	header tilecache.LayerHeader
	data   []byte
	input  int
}

// MergeTileCaches returns a new navmesh and tile cache holding the layers
// of every input: the caches of tile cache bakes of parts of one level
// (TileCacheOptions.Tiles), loaded from their files. The layers are added
// row by row (y, then x, then layer), as a whole bake adds them, so that
// the merge of range bakes covering a level is the whole level's bake: its
// files have the same bytes. Every layer's tile is queued: run Update to
// build them. options are the new cache's; its Compressor must read the
// inputs' layers.
//
// The inputs must share their tile cache and navmesh parameters exactly
// (a tile cache bake derives them all from the level's grid) and hold no
// obstacles; a layer that two inputs hold is an error. The errors are
// *MergeError values that wrap ErrIncompatibleBakes and name the inputs by
// index.
func MergeTileCaches(options tilecache.Options, caches ...*tilecache.Cache) (*tilecache.Cache, *navmesh.Mesh, error) {
	if len(caches) == 0 {
		return nil, nil, errors.New("bake: merge: no tile caches")
	}
	var layers []mergedLayer
	for i, c := range caches {
		if c == nil {
			return nil, nil, &MergeError{Input: i, Other: -1, Problem: "nil tile cache"}
		}
		if n := c.ObstacleCount(); n > 0 {
			return nil, nil, &MergeError{Input: i, Other: -1, Problem: fmt.Sprintf("holds %d obstacles: only bakes merge", n)}
		}
		if i > 0 {
			if err := sameTileCacheParams(caches[0], c, i); err != nil {
				return nil, nil, err
			}
		}
		for _, l := range c.Layers(nil) {
			layers = append(layers, mergedLayer{l.Header, l.Data, i})
		}
	}
	slices.SortStableFunc(layers, func(a, b mergedLayer) int {
		return cmp.Or(cmp.Compare(a.header.TY, b.header.TY), cmp.Compare(a.header.TX, b.header.TX), cmp.Compare(a.header.TLayer, b.header.TLayer))
	})
	set := &tilecache.TileSet{MeshParams: caches[0].Mesh().Params(), CacheParams: caches[0].Params()}
	for i, l := range layers {
		if i > 0 {
			if p := &layers[i-1]; p.header.TX == l.header.TX && p.header.TY == l.header.TY && p.header.TLayer == l.header.TLayer {
				return nil, nil, &MergeError{Input: l.input, Other: p.input,
					Problem: fmt.Sprintf("holds layer %d of tile (%d, %d), as does", l.header.TLayer, l.header.TX, l.header.TY)}
			}
		}
		set.Layers = append(set.Layers, tilecache.StoredLayer{Data: l.data})
	}
	cache, mesh, err := tilecache.FromTileSet(set, options)
	if err != nil {
		return nil, nil, fmt.Errorf("bake: merge: %w", err)
	}
	return cache, mesh, nil
}

// sameTileCacheParams checks that input i (c) has the parameters of input
// 0 (first).
func sameTileCacheParams(first, c *tilecache.Cache, i int) error {
	if p, q := c.Params(), first.Params(); p != q {
		return &MergeError{Input: i, Other: 0, Problem: fmt.Sprintf("tile cache parameters %s differ from %s of", describeCacheParams(p), describeCacheParams(q))}
	}
	if p, q := c.Mesh().Params(), first.Mesh().Params(); p != q {
		return &MergeError{Input: i, Other: 0, Problem: fmt.Sprintf("navmesh parameters %+v differ from %+v of", p, q)}
	}
	return nil
}

// describeCacheParams spells out tile cache parameters for an error.
func describeCacheParams(p tilecache.Params) string {
	return fmt.Sprintf("(origin %v, cells %v × %v, tiles %d × %d, agent %v high, %v in radius, climbing %v, error %v, %d layers, %d obstacles)",
		p.Origin, p.CellSize, p.CellHeight, p.Width, p.Height, p.WalkableHeight, p.WalkableRadius, p.WalkableClimb,
		p.MaxSimplificationError, p.MaxTiles, p.MaxObstacles)
}
