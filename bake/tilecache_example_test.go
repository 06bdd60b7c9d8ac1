package bake_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Bake a level into heightfield layers for a tile cache, with RecastDemo's
// tile cache settings (tiles of 48 cells).
func ExampleTileCache() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	result, err := bake.TileCache(context.Background(), level, bake.DefaultSettings(), bake.TileCacheOptions{TileSize: 48})
	if err != nil {
		log.Fatal(err)
	}
	s := result.Stats
	fmt.Printf("%d×%d tiles, %d with layers: %d layers, %d bytes raw\n", s.TilesX, s.TilesY, s.TilesWithLayers, s.Layers, s.LayerRawBytes)
	fmt.Printf("layerHash %016x\n", result.LayerHash())
	first := result.Tiles[0].Layers[0].Header
	fmt.Printf("first layer: tile (%d, %d), floors %d..%d\n", first.TX, first.TY, first.HMin, first.HMax)
	// Output:
	// 6×7 tiles, 24 with layers: 30 layers, 207360 bytes raw
	// layerHash 9750808d4fa04934
	// first layer: tile (2, 0), floors 75..127
}

// Bake a level in four parts, as four machines of a batch farm would, and
// merge the parts into the mesh of the whole level.
func ExampleMergeNavMeshes() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	settings := bake.DefaultSettings() // tiles of 32 cells: an 8×11 grid
	var parts []*navmesh.Mesh
	for _, tiles := range []bake.TileRange{
		{MinX: 0, MinY: 0, MaxX: 3, MaxY: 5}, {MinX: 4, MinY: 0, MaxX: 7, MaxY: 5},
		{MinX: 0, MinY: 6, MaxX: 3, MaxY: 10}, {MinX: 4, MinY: 6, MaxX: 7, MaxY: 10},
	} {
		result, err := bake.Tiled(context.Background(), level, settings, bake.TiledOptions{Tiles: &tiles})
		if err != nil {
			log.Fatal(err)
		}
		part, err := result.NavMesh()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("tiles %v: %d with data\n", tiles, part.TileCount())
		parts = append(parts, part)
	}
	mesh, err := bake.MergeNavMeshes(parts...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("merged: %d tiles\n", mesh.TileCount())
	// Output:
	// tiles 0:3,0:5: 5 with data
	// tiles 4:7,0:5: 11 with data
	// tiles 0:3,6:10: 15 with data
	// tiles 4:7,6:10: 10 with data
	// merged: 41 tiles
}
