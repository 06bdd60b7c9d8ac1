package plugin_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// Two rooms joined by a bridge 1.6 m wide: soldiers (radius 0.3) walk
// over it, ogres (radius 1) do not fit, so each type walks a navmesh baked
// for its size (bake.SoloTypes) and the ogre stops as near the far room
// as its own mesh lets it.
func ExampleConfig_agentTypes() {
	level := &bake.Geometry{}
	floor := func(x0, z0, x1, z1 float32) {
		b := int32(len(level.Vertices))
		level.Vertices = append(level.Vertices, geom.Vec3{x0, 0, z0}, geom.Vec3{x1, 0, z0}, geom.Vec3{x1, 0, z1}, geom.Vec3{x0, 0, z1})
		level.Triangles = append(level.Triangles, [3]int32{b, b + 2, b + 1}, [3]int32{b, b + 3, b + 2})
	}
	floor(0, 0, 8, 10)     // west room
	floor(8, 4.2, 12, 5.8) // the bridge
	floor(12, 0, 20, 10)   // east room
	types := []bake.AgentType{{Name: "soldier"}, {Name: "ogre"}}
	for i, radius := range []float32{0.3, 1} {
		types[i].Settings = bake.DefaultSettings()
		types[i].Settings.AgentRadius = radius
	}
	baked, err := bake.SoloTypes(context.Background(), level, types, bake.SoloTypesOptions{})
	if err != nil {
		log.Fatal(err)
	}
	set, err := baked.MeshSet()
	if err != nil {
		log.Fatal(err)
	}

	p, err := plugin.New(plugin.Config{
		AgentTypes: []plugin.AgentTypeConfig{
			{Name: "soldier", Mesh: set.Find("soldier")},
			{Name: "ogre", Mesh: set.Find("ogre")},
		},
		MaxAgentRadius: 1, // the largest agent
	})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := p.Install(&world); err != nil {
		log.Fatal(err)
	}
	var agents []ecs.Entity
	for i, name := range []string{"soldier", "ogre"} {
		params := components.AgentParamsForRadius([]float32{0.3, 1}[i])
		if params.Type, err = p.AgentType(name); err != nil {
			log.Fatal(err)
		}
		e, err := p.Spawn(&world, geom.Vec3{3, 0, 3 + float32(4*float32(i))}, params)
		if err != nil {
			log.Fatal(err)
		}
		if err := p.RequestMoveTarget(&world, e, geom.Vec3{17, 0, 5}); err != nil {
			log.Fatal(err)
		}
		agents = append(agents, e)
	}
	for range 600 { // 10 s
		if err := p.Step(&world, 1.0/60); err != nil {
			log.Fatal(err)
		}
	}
	for _, e := range agents {
		info, err := p.State(&world, e)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: in the east room %v, partial path %v\n", info.TypeName, info.Position[0] > 12, info.Partial)
	}
	// Output:
	// soldier: in the east room true, partial path false
	// ogre: in the east room false, partial path true
}
