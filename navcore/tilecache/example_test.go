package tilecache_test

import (
	"fmt"
	"log"
	"os"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// pathLength returns the length of the straight path from start to end on
// mesh, and the number of its corners.
func pathLength(mesh *navmesh.Mesh, start, end mgl32.Vec3) (float32, int) {
	q, err := query.New(mesh, 2048)
	if err != nil {
		log.Fatal(err)
	}
	filter := query.NewFilter()
	extents := mgl32.Vec3{2, 4, 2}
	from, err := q.FindNearestPoly(start, extents, filter)
	if err != nil {
		log.Fatal(err)
	}
	to, err := q.FindNearestPoly(end, extents, filter)
	if err != nil {
		log.Fatal(err)
	}
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(from.Ref, to.Ref, from.Point, to.Point, filter, path)
	if err != nil {
		log.Fatal(err)
	}
	points := make([]query.StraightPathPoint, 64)
	ns, _, err := q.FindStraightPath(from.Point, to.Point, path[:n], points, 0)
	if err != nil {
		log.Fatal(err)
	}
	length := float32(0)
	for i := 1; i < ns; i++ {
		length += geom.Dist(points[i].Pos, points[i-1].Pos)
	}
	return length, ns
}

// Example shows a runtime obstacle: load a tile cache, build its navmesh,
// drop a crate on a path, let Update carve it out (one snapshot swap), walk
// around it, and take it away again.
func Example() {
	file, err := os.ReadFile("testdata/tc48_dungeon.tset")
	if err != nil {
		log.Fatal(err)
	}
	cache, mesh, _, err := tilecache.Load(file, tilecache.Options{Workers: 2})
	if err != nil {
		log.Fatal(err)
	}
	// A game calls Update once a frame with a budget; here we run it
	// until everything is built.
	for done := false; !done; {
		if done, err = cache.Update(tilecache.Budget{MaxTiles: 8}); err != nil {
			log.Fatal(err)
		}
	}

	start, end := mgl32.Vec3{0.8, 10.2, -18.8}, mgl32.Vec3{-2.0, 10.2, -3.3}
	length, corners := pathLength(mesh, start, end)
	fmt.Printf("open:    %.1f m, %d corners\n", length, corners)

	before := mesh.Snapshot()
	crate, err := cache.AddObstacle(tilecache.Box(mgl32.Vec3{-2.1, 9.7, -12.5}, mgl32.Vec3{0.9, 11.7, -9.5}))
	if err != nil {
		log.Fatal(err)
	}
	for done := false; !done; {
		if done, err = cache.Update(tilecache.Budget{}); err != nil {
			log.Fatal(err)
		}
	}
	length, corners = pathLength(mesh, start, end)
	fmt.Printf("crate:   %.1f m, %d corners\n", length, corners)
	// Readers learn which tiles the update replaced, e.g. to recheck only
	// the paths crossing them.
	changed, complete := mesh.Snapshot().ChangesSince(before.Version(), nil)
	fmt.Printf("changed: %d tile(s) in %d snapshot swap (complete record: %v)\n",
		len(changed), mesh.Snapshot().Version()-before.Version(), complete)

	if err := cache.RemoveObstacle(crate); err != nil {
		log.Fatal(err)
	}
	if _, err := cache.Update(tilecache.Budget{}); err != nil {
		log.Fatal(err)
	}
	length, corners = pathLength(mesh, start, end)
	fmt.Printf("removed: %.1f m, %d corners\n", length, corners)
	// Output:
	// open:    15.8 m, 2 corners
	// crate:   16.2 m, 4 corners
	// changed: 1 tile(s) in 1 snapshot swap (complete record: true)
	// removed: 15.8 m, 2 corners
}
