package bake_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
)

// Bake the dungeon test level as one tile with RecastDemo's settings.
func ExampleSolo() {
	g, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("polygons:", result.PolyMesh.PolyCount)
	fmt.Println("detail vertices:", len(result.DetailMesh.Verts))
	fmt.Println("detail triangles:", len(result.DetailMesh.Tris))
	fmt.Printf("tile fingerprint: %016x\n", result.Fingerprints.TileData)
	// Output:
	// polygons: 118
	// detail vertices: 513
	// detail triangles: 291
	// tile fingerprint: 9acbed5cd350892d
}

// One Baker bakes level after level, reusing its memory.
func ExampleBaker() {
	var baker bake.Baker
	for _, level := range []string{"dungeon", "nav_test"} {
		g, err := bake.LoadOBJ("../testdata/" + level + ".obj")
		if err != nil {
			log.Fatal(err)
		}
		result, err := baker.Solo(context.Background(), g, bake.DefaultSettings())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d polygons\n", level, result.PolyMesh.PolyCount)
	}
	// Output:
	// dungeon: 118 polygons
	// nav_test: 155 polygons
}
