package crowd_test

import (
	"fmt"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// An agent walking 6 cm a tick towards its first corner asks for its
// corners every tick. With a refresh distance of 0.15 the corridor searches
// them again only after 15 cm of walking, a change of its path, or near the
// first corner, and the walk is the same as with a search every tick.
func ExampleCorridor_FindCornersAfter() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	q, err := query.New(mesh, 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	filter := query.NewFilter()
	extents := geom.Vec3{2, 4, 2}
	start, _ := q.FindNearestPoly(geom.Vec3{-9.17, 10.2, -20.34}, extents, filter)
	goal, _ := q.FindNearestPoly(geom.Vec3{11.22, 10.2, -0.93}, extents, filter)
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(start.Ref, goal.Ref, start.Point, goal.Point, filter, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	walk := func(refresh float32) {
		corridor, err := crowd.NewCorridor(256)
		if err != nil {
			fmt.Println(err)
			return
		}
		corridor.Reset(start.Ref, start.Point)
		if err := corridor.SetCorridor(goal.Point, path[:n]); err != nil {
			fmt.Println(err)
			return
		}
		corners := make([]query.StraightPathPoint, 4)
		const step = 0.06
		ticks := 0
		for ; ticks < 2000; ticks++ {
			m, err := corridor.FindCornersAfter(q, corners, refresh)
			if err != nil || m == 0 {
				break
			}
			pos, next := corridor.Position(), corners[0].Pos
			d := geom.Dist2D(pos, next)
			if m == 1 && corners[0].Flags&query.StraightPathEnd != 0 && d <= step {
				break // the goal is within this step
			}
			t := min(step/d, 1)
			target := geom.Vec3{pos[0] + float32((next[0]-pos[0])*t), pos[1], pos[2] + float32((next[2]-pos[2])*t)}
			if err := corridor.MovePosition(target, q, filter); err != nil {
				break
			}
		}
		p := corridor.Position()
		fmt.Printf("refresh %.2f: %d ticks, at (%.1f, %.1f, %.1f)\n", refresh, ticks, p[0], p[1], p[2])
	}
	walk(0) // FindCorners: a search every tick
	walk(0.15)
	// Output:
	// refresh 0.00: 473 ticks, at (11.2, 10.2, -0.9)
	// refresh 0.15: 473 ticks, at (11.2, 10.2, -0.9)
}
