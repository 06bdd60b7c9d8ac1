package crowd_test

import (
	"fmt"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// An agent asks the path queue for a path across the dungeon, loads it into
// its corridor and walks it: each tick it steers to the next corner, moves
// 0.5 units along the surface and straightens the corridor ahead.
func Example() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	q, err := query.New(mesh, 2048) // the agent's goroutine's Query
	if err != nil {
		fmt.Println(err)
		return
	}
	filter := query.NewFilter()
	extents := geom.Vec3{2, 4, 2}
	start, _ := q.FindNearestPoly(geom.Vec3{-9.17, 10.2, -20.34}, extents, filter)
	goal, _ := q.FindNearestPoly(geom.Vec3{23.73, 15.1, -73.57}, extents, filter)

	// The path queue: request, update until done, claim.
	queue, err := crowd.NewPathQueue(mesh, crowd.DefaultPathQueueConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	id, err := queue.Request(start.Ref, goal.Ref, start.Point, goal.Point, filter)
	if err != nil {
		fmt.Println(err)
		return
	}
	updates := 0
	for queue.Status(id) == crowd.PathRequestWaiting {
		queue.Update(100)
		updates++
	}
	path := make([]navmesh.Ref, 256)
	n, status, err := queue.Result(id, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("path of %d polygons (%s) after %d update(s)\n", n, status, updates)

	// The corridor walk.
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
	const step = 0.5
	ticks := 0
	for ; ticks < 1000; ticks++ {
		m, err := corridor.FindCorners(q, corners)
		if err != nil || m == 0 {
			break
		}
		pos, next := corridor.Position(), corners[0].Pos
		d := geom.Dist2D(pos, next)
		if corners[m-1].Flags&query.StraightPathEnd != 0 && m == 1 && d <= step {
			break // the goal is within this step
		}
		if err := corridor.OptimizePathVisibility(corners[m-1].Pos, 18, q, filter); err != nil {
			break
		}
		t := min(step/d, 1)
		target := geom.Vec3{pos[0] + float32((next[0]-pos[0])*t), pos[1], pos[2] + float32((next[2]-pos[2])*t)}
		if err := corridor.MovePosition(target, q, filter); err != nil {
			break
		}
	}
	p := corridor.Position()
	fmt.Printf("%d ticks, corridor of %d polygon(s), at (%.1f, %.1f, %.1f)\n", ticks, corridor.PathCount(), p[0], p[1], p[2])
	// Output:
	// path of 22 polygons (complete) after 1 update(s)
	// 132 ticks, corridor of 1 polygon(s), at (23.6, 15.1, -73.4)
}
