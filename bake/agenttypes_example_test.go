package bake_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Bake the dungeon for soldiers and ogres in one call, in tiles, and keep
// both meshes in one file. The ogres' mesh is eroded by their 1.5 m radius
// and leaves out what is lower than their 3 m: fewer polygons.
func ExampleTiledTypes() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	soldier := bake.DefaultSettings() // radius 0.6, height 2
	ogre := soldier
	ogre.AgentRadius, ogre.AgentHeight = 1.5, 3
	types := []bake.AgentType{{Name: "soldier", Settings: soldier}, {Name: "ogre", Settings: ogre}}

	result, err := bake.TiledTypes(context.Background(), level, types, bake.TiledOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for i, t := range result.Types {
		s := result.Results[i].Stats
		fmt.Printf("%s: %d tiles with data, %d polygons\n", t.Name, s.TilesWithData, s.Counts.Polys)
	}

	set, err := result.MeshSet()
	if err != nil {
		log.Fatal(err)
	}
	var file bytes.Buffer // or an os.File
	if err := navmesh.SaveSet(&file, set); err != nil {
		log.Fatal(err)
	}
	loaded, err := navmesh.LoadSet(&file)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("types in the file:", loaded.Names())
	// Output:
	// soldier: 41 tiles with data, 143 polygons
	// ogre: 38 tiles with data, 105 polygons
	// types in the file: [soldier ogre]
}

// Bake two agent types as one tile each: types with the same cell size,
// slope, climb and height rasterize, filter and compact the level once.
func ExampleSoloTypes() {
	level, err := bake.LoadOBJ("../testdata/nav_test.obj")
	if err != nil {
		log.Fatal(err)
	}
	small := bake.DefaultSettings()
	large := small
	large.AgentRadius = 1.5
	result, err := bake.SoloTypes(context.Background(), level, []bake.AgentType{
		{Name: "small", Settings: small},
		{Name: "large", Settings: large},
	}, bake.SoloTypesOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for i, t := range result.Types {
		fmt.Printf("%s: %d polygons\n", t.Name, result.Results[i].PolyMesh.PolyCount)
	}
	fmt.Printf("%d bakes, %d rasterization\n", result.Stats.Bakes, result.Stats.Rasterizations)
	// Output:
	// small: 155 polygons
	// large: 149 polygons
	// 2 bakes, 1 rasterization
}

// Bake a tile cache per agent type and keep them in one file: each type's
// cache inflates obstacles by its own radius, so an obstacle goes into
// every type's cache.
func ExampleTileCacheTypes() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	small := bake.DefaultSettings()
	small.TileSize = 48
	large := small
	large.AgentRadius = 1.5
	result, err := bake.TileCacheTypes(context.Background(), level, []bake.AgentType{
		{Name: "small", Settings: small},
		{Name: "large", Settings: large},
	}, bake.TileCacheOptions{})
	if err != nil {
		log.Fatal(err)
	}
	caches, meshes, err := result.Caches(tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	named := make([]tilecache.NamedCache, len(caches))
	for i, cache := range caches {
		if _, err := cache.Update(tilecache.Budget{}); err != nil { // build the tiles
			log.Fatal(err)
		}
		fmt.Printf("%s: %d layers, %d tiles, obstacles inflated by %.1f\n",
			meshes[i].Name, len(cache.Layers(nil)), meshes[i].Mesh.TileCount(), cache.Params().WalkableRadius)
		named[i] = tilecache.NamedCache{Name: meshes[i].Name, Cache: cache}
	}

	var file bytes.Buffer
	if err := tilecache.SaveSet(&file, named); err != nil {
		log.Fatal(err)
	}
	loaded, _, err := tilecache.LoadSet(file.Bytes(), tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("caches in the file:", loaded[0].Name, loaded[1].Name)
	// Output:
	// small: 30 layers, 30 tiles, obstacles inflated by 0.6
	// large: 23 layers, 23 tiles, obstacles inflated by 1.5
	// caches in the file: small large
}
