package plugin_test

import (
	"context"
	"fmt"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// A crate dropped on the floor of a dungeon room is a collider entity: the
// next tick rebuilds the tiles under it and the navmesh has its top.
func ExamplePlugin_SpawnCollider() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		fmt.Println(err)
		return
	}
	mesh, err := dynamic.New(context.Background(), level, bake.DefaultSettings(), dynamic.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := plugin.New(plugin.Config{DynamicMesh: mesh})
	if err != nil {
		fmt.Println(err)
		return
	}
	world := ecs.NewWorld()
	if err := p.Install(&world); err != nil {
		fmt.Println(err)
		return
	}
	crate := components.NewCollider(collider.NewBox(geom.Vec3{1.5, 0.5, 1.5}))
	e, err := p.SpawnCollider(&world, components.ColliderPose{Position: geom.Vec3{40.6, 10.7, 0.65}}, crate)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := p.Step(&world, 1.0/60); err != nil {
		fmt.Println(err)
		return
	}
	info, err := p.Collider(&world, e)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("in the mesh: %v, landed: %v\n", info.State.InMesh, info.State.Landed)
	// Output:
	// in the mesh: true, landed: true
}
