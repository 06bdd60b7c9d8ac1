package navmesh_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Keep one mesh per agent type in one file, each under its type's name,
// and pick a type's mesh after loading. (Both meshes are the dungeon's C++
// tile here; package bake's SoloTypes, TiledTypes and TileCacheTypes bake
// a mesh per type.)
func ExampleSaveSet() {
	soldier, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	ogre, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	var file bytes.Buffer
	set := navmesh.MeshSet{{Name: "soldier", Mesh: soldier}, {Name: "ogre", Mesh: ogre}}
	if err := navmesh.SaveSet(&file, set); err != nil {
		fmt.Println(err)
		return
	}

	loaded, err := navmesh.LoadSet(bytes.NewReader(file.Bytes()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("types:", loaded.Names())
	fmt.Println("ogre tiles:", loaded.Find("ogre").TileCount())

	// A loader of one mesh does not guess which type is meant.
	_, err = navmesh.Load(bytes.NewReader(file.Bytes()))
	fmt.Println(errors.Is(err, navmesh.ErrSeveralMeshes))
	// Output:
	// types: [soldier ogre]
	// ogre tiles: 1
	// true
}
