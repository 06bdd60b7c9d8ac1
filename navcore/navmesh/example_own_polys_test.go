package navmesh_test

import (
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

// A tile's data goes into two meshes: the first links the data's polygons
// in place; the second gets a copy of them with WithOwnPolys, made once,
// which it links in place in turn (without it, that mesh would copy them
// itself).
func ExampleTileData_WithOwnPolys() {
	first, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	data := first.TileAt(0, 0, 0).Data
	second, err := navmesh.New(first.Params())
	if err != nil {
		fmt.Println(err)
		return
	}
	own := data.WithOwnPolys()
	if _, err := second.AddTile(own, 0); err != nil {
		fmt.Println(err)
		return
	}
	tile := second.TileAt(0, 0, 0)
	fmt.Println("polygons:", len(tile.Polys))
	fmt.Println("in the copy's array:", &tile.Polys[0] == &own.Polys[0])
	fmt.Println("in the first mesh's array:", &tile.Polys[0] == &data.Polys[0])
	// Output:
	// polygons: 118
	// in the copy's array: true
	// in the first mesh's array: false
}
