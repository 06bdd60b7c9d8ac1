package bake_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
)

// Bake a level in tiles of 32 cells on every core, then rebuild one tile
// in the navmesh, as a streaming or changing world would.
func ExampleTiled() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	result, err := bake.Tiled(context.Background(), level, bake.DefaultSettings(), bake.TiledOptions{TileSize: 32})
	if err != nil {
		log.Fatal(err)
	}
	s := result.Stats
	fmt.Printf("%d×%d tiles, %d with data: %d polygons, %d bytes\n", s.TilesX, s.TilesY, s.TilesWithData, s.Counts.Polys, s.Counts.TileBytes)

	mesh, err := result.NavMesh()
	if err != nil {
		log.Fatal(err)
	}
	// Rebuild tile (3, 0) and swap it in.
	tile, err := result.Baker.BuildTile(context.Background(), 3, 0)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := mesh.RemoveTile(mesh.TileRefAt(3, 0, 0)); err != nil {
		log.Fatal(err)
	}
	if _, err := mesh.AddTile(tile.Data, 0); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("tile (3, 0): %d polygons; the mesh holds %d tiles\n", len(mesh.TileAt(3, 0, 0).Polys), mesh.TileCount())
	// Output:
	// 8×11 tiles, 41 with data: 143 polygons, 32052 bytes
	// tile (3, 0): 4 polygons; the mesh holds 41 tiles
}

// Place the automatic links on a mesh baked without them (here a tiled
// bake; a tile cache's tiles or tiles from a file work alike), then store
// each in the tile its start lies in: on a tiled bake they come out as the
// bake with links would have placed them.
func ExampleTileBaker_PlaceLinks() {
	level, err := bake.LoadOBJ("../testdata/links_level.obj")
	if err != nil {
		log.Fatal(err)
	}
	plain, err := bake.Tiled(context.Background(), level, bake.DefaultSettings(), bake.TiledOptions{})
	if err != nil {
		log.Fatal(err)
	}
	mesh, err := plain.NavMesh()
	if err != nil {
		log.Fatal(err)
	}
	settings := bake.DefaultSettings()
	settings.Links = bake.DefaultLinkSettings()
	baker, err := bake.NewTileBaker(level, settings, bake.TiledOptions{})
	if err != nil {
		log.Fatal(err)
	}
	links, err := baker.PlaceLinks(context.Background(), mesh, 0)
	if err != nil {
		log.Fatal(err)
	}
	perTile := map[[2]int]int{}
	for _, l := range links {
		x, y := mesh.CalcTileLoc(l.Start)
		perTile[[2]int{x, y}]++
	}
	fmt.Printf("%d links starting in %d tiles\n", len(links), len(perTile))
	// Output:
	// 24 links starting in 8 tiles
}
