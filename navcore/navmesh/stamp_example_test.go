package navmesh_test

import (
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

// A cache remembers what it was checked against by the snapshot's stamp:
// unlike the snapshot itself it keeps no tile in memory, and unlike the
// version it names one snapshot only, even after a restore makes the
// versions count again from a saved one.
func ExampleSnapshot_Stamp() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	var saved navmesh.MeshState
	mesh.CaptureState(&saved)
	ref := mesh.Snapshot().TileAt(0, 0, 0).PolyRefBase() // polygon 0

	checked := mesh.Snapshot().Stamp() // a cache checked polygon 0 here
	if err := mesh.SetPolyFlags(ref, 0x02); err != nil {
		fmt.Println(err)
		return
	}
	before := mesh.Snapshot()
	if err := mesh.RestoreState(&saved); err != nil {
		fmt.Println(err)
		return
	}
	if err := mesh.SetPolyFlags(ref, 0x04); err != nil {
		fmt.Println(err)
		return
	}
	after := mesh.Snapshot()
	fmt.Println("same version:", before.Version() == after.Version())
	fmt.Println("same stamp:", before.Stamp() == after.Stamp())
	fmt.Println("still what the cache checked:", after.Stamp() == checked)
	// Output:
	// same version: true
	// same stamp: false
	// still what the cache checked: false
}
