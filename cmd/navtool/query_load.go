package main

import (
	"fmt"
	"os"

	"github.com/archenav/archenav/navcore/navmesh"
)

// loadNavmesh reads a navmesh file for `navtool query`: a C++ DNAV tile
// (which becomes a one-tile mesh over the tile's bounds, as
// dtNavMesh::init with tile data) or a RecastDemo MSET tile set.
//
// Stand-in until navmesh.LoadFile is on main; then this file goes and
// runQuery calls navmesh.LoadFile, which also reads archenav mesh files.
func loadNavmesh(path string) (*navmesh.Mesh, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	switch format := navmesh.DetectFormat(file); format {
	case navmesh.FormatDNAV:
		data, err := navmesh.ReadDNAV(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		h := &data.Header
		mesh, err := navmesh.New(navmesh.Params{
			Origin:     h.BMin,
			TileWidth:  h.BMax[0] - h.BMin[0],
			TileHeight: h.BMax[2] - h.BMin[2],
			MaxTiles:   1,
			MaxPolys:   int(h.PolyCount),
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if _, err := mesh.AddTile(data, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return mesh, nil
	case navmesh.FormatMSET:
		set, err := navmesh.ReadMSET(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		mesh, err := navmesh.New(set.Params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for i, tile := range set.Tiles {
			if _, err := mesh.AddTile(tile.Data, tile.Ref); err != nil {
				return nil, fmt.Errorf("%s: tile %d: %w", path, i, err)
			}
		}
		return mesh, nil
	default:
		return nil, fmt.Errorf("%s: %s files are not supported here", path, format)
	}
}
