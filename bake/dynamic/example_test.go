package dynamic_test

import (
	"context"
	"fmt"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// A pit dug across a corridor cuts the level in two; a bridge over it
// joins the parts again.
func ExampleMesh_AddCollider() {
	level, err := bake.LoadOBJ("../../testdata/dungeon.obj")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := dynamic.New(context.Background(), level, bake.DefaultSettings(), dynamic.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	q, err := query.New(m.NavMesh(), 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	complete := func() bool {
		filter := query.NewFilter()
		a, _ := q.FindNearestPoly(geom.Vec3{11, 10.5, 0.65}, geom.Vec3{2, 2, 2}, filter)
		b, _ := q.FindNearestPoly(geom.Vec3{26, 10.5, 0.65}, geom.Vec3{2, 2, 2}, filter)
		path := make([]navmesh.Ref, 256)
		_, status, err := q.FindPath(a.Ref, b.Ref, a.Point, b.Point, filter, path)
		return err == nil && !status.Partial()
	}
	fmt.Println("before:", complete())

	pit := collider.NewBox(geom.Vec3{1.5, 1, 6}).Carving()
	if _, err := m.AddCollider(pit, collider.Pose{Position: geom.Vec3{18, 10.2, 0.65}}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := m.Update(tilecache.Budget{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("with a pit:", complete())

	bridge := collider.NewBox(geom.Vec3{3, 0.15, 1.5})
	if _, err := m.AddCollider(bridge, collider.Pose{Position: geom.Vec3{18, 10.05, 0.65}}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := m.Update(tilecache.Budget{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("with a bridge:", complete(), "tiles rebuilt:", m.LastUpdate().TilesBuilt)
	// Output:
	// before: true
	// with a pit: false
	// with a bridge: true tiles rebuilt: 1
}
