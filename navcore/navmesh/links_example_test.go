package navmesh_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Join two parts of the dungeon that no path joins with a runtime link (a
// ladder, say), then take it away again.
func ExampleMesh_AddLink() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	extents := mgl32.Vec3{2, 4, 2}
	tile := mesh.Snapshot().TileAt(0, 0, 0)
	top, topPoint := tile.FindNearestPoly(mgl32.Vec3{21.81, 25.11, -86.81}, extents)
	yard, yardPoint := tile.FindNearestPoly(mgl32.Vec3{40.63, 10.20, -5.20}, extents)
	fmt.Println("joined before:", mesh.Snapshot().SameComponent(top, yard))

	id, err := mesh.AddLink(navmesh.LinkDesc{
		Start: topPoint, End: yardPoint, Radius: 0.5, Bidirectional: true, Flags: 1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	snap := mesh.Snapshot() // the link, whole, or not at all
	starts, ends, _ := snap.LinkAttached(id)
	fmt.Printf("link: %d start and %d end landed; joined: %v\n", starts, ends, snap.SameComponent(top, yard))

	if err := mesh.RemoveLink(id); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("joined after removal:", mesh.Snapshot().SameComponent(top, yard), "; the link's refs are stale:", !mesh.Snapshot().IsValid(id.Ref()))
	// Output:
	// joined before: false
	// link: 1 start and 1 end landed; joined: true
	// joined after removal: false ; the link's refs are stale: true
}
