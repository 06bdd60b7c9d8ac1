package query

import (
	"errors"
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// FuzzQueries throws arbitrary positions, refs, radii and extents at every
// public query on the dungeon tile: none may panic, every error must be one
// of the package's sentinels, and no count may exceed its buffer.
func FuzzQueries(f *testing.F) {
	mesh := testmesh.Dungeon(f)
	q, err := New(mesh, 64)
	if err != nil {
		f.Fatal(err)
	}
	base := mesh.Snapshot().Tile(0).PolyRefBase()
	filter := referenceFilter()

	f.Add(float32(21.8), float32(25.1), float32(-86.8), float32(40.6), float32(10.2), float32(-5.2), uint64(3), uint64(102), float32(4), float32(2), uint8(0))
	f.Add(float32(-9.17), float32(10.19), float32(-20.3), float32(23.7), float32(15.1), float32(-73.6), uint64(72), uint64(27), float32(0), float32(0.001), uint8(1))
	f.Add(float32(math.NaN()), float32(0), float32(0), float32(1e30), float32(-1e30), float32(0), uint64(0), uint64(1<<63), float32(-1), float32(1e38), uint8(2))
	f.Add(float32(3.4e38), float32(3.4e38), float32(-3.4e38), float32(0), float32(0), float32(0), uint64(117), uint64(118), float32(1e20), float32(3.4e38), uint8(255))

	f.Fuzz(func(t *testing.T, sx, sy, sz, ex, ey, ez float32, rawStart, rawEnd uint64, radius, extent float32, mode uint8) {
		start, end := geom.Vec3{sx, sy, sz}, geom.Vec3{ex, ey, ez}
		// Mostly refs into the tile (valid or one past), sometimes raw bits.
		startRef, endRef := navmesh.Ref(rawStart), navmesh.Ref(rawEnd)
		if mode&1 == 0 {
			startRef = base | navmesh.Ref(rawStart%130)
			endRef = base | navmesh.Ref(rawEnd%130)
		}
		extents := geom.Vec3{extent, extent * 2, extent}
		var buf [8]navmesh.Ref
		var parents [8]navmesh.Ref
		var costs [8]float32
		var points [6]StraightPathPoint
		var segments [6]WallSegment
		rng := &testmesh.LCG{State: rawStart ^ rawEnd}

		check := func(name string, n, max int, err error) {
			if err != nil {
				if !errors.Is(err, ErrInvalidParam) && !errors.Is(err, ErrInvalidRef) &&
					!errors.Is(err, ErrNotFound) && !errors.Is(err, ErrNoSlicedQuery) {
					t.Fatalf("%s: unexpected error %v", name, err)
				}
				return
			}
			if n < 0 || n > max {
				t.Fatalf("%s: count %d outside 0..%d", name, n, max)
			}
		}

		nearest, err := q.FindNearestPoly(start, extents, filter)
		check("FindNearestPoly", 0, 0, err)
		if err == nil && nearest.Ref != 0 && !q.IsValidPolyRef(nearest.Ref, filter) {
			t.Fatalf("nearest poly %#x is not valid", uint64(nearest.Ref))
		}
		n, _, err := q.QueryPolygons(start, extents, filter, buf[:])
		check("QueryPolygons", n, len(buf), err)
		n, _, err = q.FindPath(startRef, endRef, start, end, filter, buf[:])
		check("FindPath", n, len(buf), err)
		if err == nil {
			m, _, err := q.FindStraightPath(start, end, buf[:n], points[:], StraightPathOptions(mode>>1&3))
			check("FindStraightPath", m, len(points), err)
		}
		m, _, err := q.FindStraightPath(start, end, []navmesh.Ref{startRef, endRef, startRef}, points[:], StraightPathAllCrossings)
		check("FindStraightPath corridor", m, len(points), err)

		status, err := q.InitSlicedFindPath(startRef, endRef, start, end, filter, FindPathOptions(mode&2))
		check("InitSlicedFindPath", 0, 0, err)
		for i := 0; err == nil && status.InProgress() && i < 100; i++ {
			_, status, err = q.UpdateSlicedFindPath(int(mode%7) + 1)
			check("UpdateSlicedFindPath", 0, 0, err)
		}
		n, _, err = q.FinalizeSlicedFindPathPartial([]navmesh.Ref{endRef, startRef}, buf[:])
		check("FinalizeSlicedFindPathPartial", n, len(buf), err)

		hit, _, err := q.Raycast(startRef, start, end, filter, RaycastOptions(mode&1), endRef&^1, buf[:])
		check("Raycast", hit.PathCount, len(buf), err)
		_, n, _, err = q.MoveAlongSurface(startRef, start, end, filter, buf[:])
		check("MoveAlongSurface", n, len(buf), err)
		_, _, err = q.FindDistanceToWall(startRef, start, radius, filter)
		check("FindDistanceToWall", 0, 0, err)
		n, _, err = q.FindPolysAroundCircle(startRef, start, radius, filter, buf[:], parents[:], costs[:])
		check("FindPolysAroundCircle", n, len(buf), err)
		if err == nil && n > 0 {
			k, _, err := q.PathFromDijkstraSearch(buf[n-1], parents[:])
			check("PathFromDijkstraSearch", k, len(parents), err)
		}
		shape := []geom.Vec3{start, end, {sx + radius, sy, ez}}
		n, _, err = q.FindPolysAroundShape(startRef, shape, filter, buf[:], nil, costs[:])
		check("FindPolysAroundShape", n, len(buf), err)
		n, _, err = q.FindLocalNeighbourhood(startRef, start, radius, filter, buf[:], parents[:])
		check("FindLocalNeighbourhood", n, len(buf), err)
		n, _, err = q.PolyWallSegments(startRef, filter, mode&4 != 0, segments[:])
		check("PolyWallSegments", n, len(segments), err)
		_, _, err = q.FindRandomPointAroundCircle(startRef, start, radius, filter, rng.Next)
		check("FindRandomPointAroundCircle", 0, 0, err)
		_, err = q.FindRandomPoint(filter, rng.Next)
		check("FindRandomPoint", 0, 0, err)
		_, _, err = q.ClosestPointOnPoly(startRef, start)
		check("ClosestPointOnPoly", 0, 0, err)
		_, err = q.ClosestPointOnPolyBoundary(startRef, start)
		check("ClosestPointOnPolyBoundary", 0, 0, err)
		_, err = q.PolyHeight(startRef, start)
		check("PolyHeight", 0, 0, err)
		_, _, _, _, err = q.PortalPoints(startRef, endRef)
		check("PortalPoints", 0, 0, err)
		_, err = q.EdgeMidPoint(startRef, endRef)
		check("EdgeMidPoint", 0, 0, err)
		q.IsInClosedList(startRef)
	})
}
