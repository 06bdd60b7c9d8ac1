package bake

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/navmesh"
)

// ErrIncompatibleBakes is wrapped by the errors of MergeNavMeshes when its
// inputs are not bakes of one level with one set of settings.
var ErrIncompatibleBakes = errors.New("the bakes do not fit together")

// MergeError is the error MergeNavMeshes returns about one of its inputs;
// it wraps ErrIncompatibleBakes.
type MergeError struct {
	// Input is the index of the input at fault; Other, when not -1, the
	// index of the input it disagrees with.
	Input, Other int
	// Problem says what is wrong; when Other is set it ends in words that
	// the other input's name completes ("origin [1 0 2] differs from
	// [0 0 0] of").
	Problem string
}

// Error says which input is at fault and why.
func (e *MergeError) Error() string {
	if e.Other < 0 {
		return fmt.Sprintf("bake: merge: input %d: %s", e.Input, e.Problem)
	}
	return fmt.Sprintf("bake: merge: input %d: %s input %d", e.Input, e.Problem, e.Other)
}

// Unwrap returns ErrIncompatibleBakes.
func (e *MergeError) Unwrap() error { return ErrIncompatibleBakes }

// mergedTile is one tile of a merge with the input it came from.
type mergedTile struct {
	data  *navmesh.TileData
	input int
}

// MergeNavMeshes returns a new navigation mesh holding the tiles of every
// input: the meshes of tiled bakes of parts of one level
// (TiledOptions.Tiles), on any number of machines. The tiles are added row
// by row (y, then x, then layer), as a whole bake adds them, so that the
// merge of range bakes covering a level is the whole level's bake: its
// files have the same bytes. Each tile keeps its polygons' current flags
// and areas.
//
// The inputs must share their origin, tile size and MaxTiles, and their
// tiles the agent settings and cell size they were baked with; MaxPolys
// becomes the largest of the inputs'. A tile that two inputs hold is an
// error: the ranges must not overlap. The errors are *MergeError values
// that wrap ErrIncompatibleBakes and name the inputs by index.
func MergeNavMeshes(meshes ...*navmesh.Mesh) (*navmesh.Mesh, error) {
	if len(meshes) == 0 {
		return nil, errors.New("bake: merge: no meshes")
	}
	params := make([]navmesh.Params, len(meshes))
	var tiles []mergedTile
	for i, m := range meshes {
		if m == nil {
			return nil, &MergeError{Input: i, Other: -1, Problem: "nil mesh"}
		}
		set := navmesh.TileSetFromMesh(m)
		params[i] = set.Params
		for _, tile := range set.Tiles {
			tiles = append(tiles, mergedTile{tile.Data, i})
		}
	}
	merged, err := mergeParams(params)
	if err != nil {
		return nil, err
	}
	if err := checkMergedTiles(tiles); err != nil {
		return nil, err
	}
	mesh, err := navmesh.New(merged)
	if err != nil {
		return nil, fmt.Errorf("bake: merge: %w", err)
	}
	var batch navmesh.Batch
	for _, tile := range tiles {
		batch.Add(tile.data, 0)
	}
	if _, err := mesh.Apply(&batch, nil); err != nil {
		return nil, fmt.Errorf("bake: merge: %w", err)
	}
	return mesh, nil
}

// mergeParams checks that the inputs' parameters agree and returns them
// with the largest MaxPolys.
func mergeParams(params []navmesh.Params) (navmesh.Params, error) {
	merged := params[0]
	for i, p := range params[1:] {
		i++
		switch {
		case p.Origin != merged.Origin:
			return navmesh.Params{}, &MergeError{Input: i, Other: 0, Problem: fmt.Sprintf("origin %v differs from %v of", p.Origin, merged.Origin)}
		case p.TileWidth != merged.TileWidth || p.TileHeight != merged.TileHeight:
			return navmesh.Params{}, &MergeError{Input: i, Other: 0, Problem: fmt.Sprintf("tiles %v × %v differ from %v × %v of",
				p.TileWidth, p.TileHeight, merged.TileWidth, merged.TileHeight)}
		case p.MaxTiles != merged.MaxTiles:
			return navmesh.Params{}, &MergeError{Input: i, Other: 0, Problem: fmt.Sprintf("room for %d tiles differs from %d of", p.MaxTiles, merged.MaxTiles)}
		}
		merged.MaxPolys = max(merged.MaxPolys, p.MaxPolys)
	}
	return merged, nil
}

// checkMergedTiles sorts tiles into grid order and checks that no two
// share a place and that all were baked for one agent and cell size.
func checkMergedTiles(tiles []mergedTile) error {
	slices.SortStableFunc(tiles, func(a, b mergedTile) int {
		ha, hb := &a.data.Header, &b.data.Header
		return cmp.Or(cmp.Compare(ha.Y, hb.Y), cmp.Compare(ha.X, hb.X), cmp.Compare(ha.Layer, hb.Layer))
	})
	for i := range tiles {
		h := &tiles[i].data.Header
		if i > 0 {
			if p := &tiles[i-1].data.Header; p.X == h.X && p.Y == h.Y && p.Layer == h.Layer {
				return &MergeError{Input: tiles[i].input, Other: tiles[i-1].input,
					Problem: fmt.Sprintf("holds tile (%d, %d, layer %d), as does", h.X, h.Y, h.Layer)}
			}
		}
		first := &tiles[0].data.Header
		switch {
		case h.WalkableHeight != first.WalkableHeight || h.WalkableRadius != first.WalkableRadius || h.WalkableClimb != first.WalkableClimb:
			return &MergeError{Input: tiles[i].input, Other: tiles[0].input, Problem: fmt.Sprintf(
				"tile (%d, %d) was baked for agents %v high, %v in radius, climbing %v, tile (%d, %d) for %v, %v, %v in",
				h.X, h.Y, h.WalkableHeight, h.WalkableRadius, h.WalkableClimb, first.X, first.Y, first.WalkableHeight, first.WalkableRadius, first.WalkableClimb)}
		case h.BVQuantFactor != first.BVQuantFactor:
			return &MergeError{Input: tiles[i].input, Other: tiles[0].input, Problem: fmt.Sprintf(
				"tile (%d, %d) was baked with cells %v wide, tile (%d, %d) with %v in", h.X, h.Y, 1/h.BVQuantFactor, first.X, first.Y, 1/first.BVQuantFactor)}
		}
	}
	return nil
}
