package navmesh_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Load the C++ solo tile of dungeon.obj, count its tiles, polygons and
// links, and find the polygon under a point.
func Example() {
	mesh, format, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	snap := mesh.Snapshot() // an immutable view: safe to share between goroutines
	polys, links := 0, 0
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil {
			continue
		}
		polys += len(tile.Polys)
		for p := range tile.Polys {
			for l := tile.Polys[p].FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
				links++
			}
		}
	}
	fmt.Printf("%s file: %d tile, %d polygons, %d links\n", format, snap.TileCount(), polys, links)

	tile := snap.TileAt(0, 0, 0)
	ref, nearest := tile.FindNearestPoly(mgl32.Vec3{-9.17, 10.2, -20.34}, mgl32.Vec3{2, 4, 2})
	fmt.Printf("polygon %d at (%.2f, %.2f, %.2f)\n", ref.PolyIndex(), nearest[0], nearest[1], nearest[2])
	// Output:
	// DNAV file: 1 tile, 118 polygons, 230 links
	// polygon 72 at (-9.17, 10.20, -20.34)
}
