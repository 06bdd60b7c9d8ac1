package bake_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
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
