package bake_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
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

// Bake a level with the automatic drop and jump links: a 2 high ledge
// standing on a floor gets drops on its four sides.
func ExampleLinkSettings() {
	g := &bake.Geometry{}
	box := func(x0, z0, x1, z1, height float32) { // top and sides, facing out
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices,
			mgl32.Vec3{x0, 0, z0}, mgl32.Vec3{x1, 0, z0}, mgl32.Vec3{x1, 0, z1}, mgl32.Vec3{x0, 0, z1},
			mgl32.Vec3{x0, height, z0}, mgl32.Vec3{x1, height, z0}, mgl32.Vec3{x1, height, z1}, mgl32.Vec3{x0, height, z1})
		for _, t := range [][3]int32{{4, 6, 5}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}} {
			g.Triangles = append(g.Triangles, [3]int32{base + t[0], base + t[1], base + t[2]})
		}
	}
	box(0, 0, 20, 20, 0.1) // the floor
	box(6, 6, 14, 14, 2)   // the ledge

	settings := bake.DefaultSettings()
	settings.Links = bake.DefaultLinkSettings()
	result, err := bake.Solo(context.Background(), g, settings)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("drops:", result.Stats.Counts.DropLinks, "jumps:", result.Stats.Counts.JumpLinks)
	first := result.Links[0]
	kind, _ := navmesh.ParseAutoLinkUserID(first.UserID)
	fmt.Printf("%s from height %.1f to %.1f, area %d, flags %#x\n", kind, first.Start[1], first.End[1], first.Area, first.Flags)

	// Paths cost the links' areas as the settings say.
	filter := query.NewFilter()
	settings.Links.ApplyCosts(filter)
	fmt.Println("jump cost:", filter.AreaCost[settings.Links.JumpArea])
	// Output:
	// drops: 12 jumps: 0
	// drop from height 2.2 to 0.2, area 6, flags 0x20
	// jump cost: 1.5
}
