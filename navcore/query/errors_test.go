package query

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

func TestNewRejectsBadArguments(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	for _, maxNodes := range []int{0, -1, MaxNodes + 1} {
		_, err := New(mesh, maxNodes)
		assert.ErrorIs(t, err, ErrInvalidParam, "max nodes %d", maxNodes)
	}
	_, err := New(nil, 16)
	assert.ErrorIs(t, err, ErrInvalidParam)
	for _, maxNodes := range []int{1, 3, 4, 2048} {
		q, err := New(mesh, maxNodes)
		require.NoError(t, err, "max nodes %d", maxNodes)
		assert.Equal(t, maxNodes, q.MaxNodes())
		assert.Same(t, mesh, q.Mesh())
	}
}

func TestStatusString(t *testing.T) {
	assert.Equal(t, "complete", Status(0).String())
	assert.Equal(t, "partial, out of nodes", (StatusPartial | StatusOutOfNodes).String())
	s := StatusBufferTooSmall | StatusInProgress
	assert.True(t, s.BufferTooSmall())
	assert.True(t, s.InProgress())
	assert.False(t, s.Partial())
	assert.False(t, s.OutOfNodes())
}

func TestErrBufferTooSmallIsInvalidParam(t *testing.T) {
	assert.ErrorIs(t, ErrBufferTooSmall, ErrInvalidParam)
	assert.True(t, errors.Is(ErrInvalidRef, navmesh.ErrInvalidRef))
}

// TestBadInput feeds every public query bad positions, extents, refs,
// filters and buffers: each must give its sentinel error and no panic.
func TestBadInput(t *testing.T) {
	q, filter, pair, start, end := walkSetup(t, 256)
	good, goodEnd := pair.Start, pair.End
	ref, endRef := start.Ref, end.Ref

	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	badPositions := []geom.Vec3{{nan, 0, 0}, {0, inf, 0}, {0, 0, -inf}}
	badRefs := []navmesh.Ref{0, ref | 1<<(navmesh.PolyBits+navmesh.TileBits+3), navmesh.EncodeRef(1, 0, 5000), navmesh.EncodeRef(1, 7, 1)}

	path := make([]navmesh.Ref, 16)
	points := make([]StraightPathPoint, 16)
	segments := make([]WallSegment, 16)
	random := (&testmesh.LCG{State: 1}).Next

	type call func(ref navmesh.Ref, pos geom.Vec3, filter *Filter) error
	calls := map[string]call{
		"FindPath": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.FindPath(r, endRef, p, goodEnd, f, path)
			return err
		},
		"FindPathEnd": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.FindPath(ref, r, good, p, f, path)
			return err
		},
		"InitSlicedFindPath": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, err := q.InitSlicedFindPath(r, endRef, p, goodEnd, f, FindPathAnyAngle)
			return err
		},
		"Raycast": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.Raycast(r, p, goodEnd, f, RaycastUseCosts, 0, path)
			return err
		},
		"RaycastPrev": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			if r == 0 {
				r = 1 // 0 means "no previous polygon"
			}
			_, _, err := q.Raycast(ref, p, goodEnd, f, 0, r, path)
			return err
		},
		"MoveAlongSurface": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, _, err := q.MoveAlongSurface(r, p, goodEnd, f, path)
			return err
		},
		"FindDistanceToWall": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.FindDistanceToWall(r, p, 3, f)
			return err
		},
		"FindPolysAroundCircle": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.FindPolysAroundCircle(r, p, 3, f, path, nil, nil)
			return err
		},
		"FindPolysAroundShape": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			shape := []geom.Vec3{p, {p[0] + 1, p[1], p[2]}, {p[0], p[1], p[2] + 1}}
			_, _, err := q.FindPolysAroundShape(r, shape, f, path, nil, nil)
			return err
		},
		"FindLocalNeighbourhood": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.FindLocalNeighbourhood(r, p, 3, f, path, nil)
			return err
		},
		"FindRandomPointAroundCircle": func(r navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.FindRandomPointAroundCircle(r, p, 3, f, random)
			return err
		},
		"PolyWallSegments": func(r navmesh.Ref, _ geom.Vec3, f *Filter) error {
			_, _, err := q.PolyWallSegments(r, f, true, segments)
			return err
		},
		"ClosestPointOnPoly": func(r navmesh.Ref, p geom.Vec3, _ *Filter) error {
			_, _, err := q.ClosestPointOnPoly(r, p)
			return err
		},
		"ClosestPointOnPolyBoundary": func(r navmesh.Ref, p geom.Vec3, _ *Filter) error {
			_, err := q.ClosestPointOnPolyBoundary(r, p)
			return err
		},
		"PolyHeight": func(r navmesh.Ref, p geom.Vec3, _ *Filter) error {
			_, err := q.PolyHeight(r, p)
			return err
		},
		"FindStraightPath": func(r navmesh.Ref, p geom.Vec3, _ *Filter) error {
			_, _, err := q.FindStraightPath(p, goodEnd, []navmesh.Ref{r}, points, 0)
			return err
		},
		"FindNearestPoly": func(_ navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, err := q.FindNearestPoly(p, testmesh.DungeonHalfExtents, f)
			return err
		},
		"QueryPolygons": func(_ navmesh.Ref, p geom.Vec3, f *Filter) error {
			_, _, err := q.QueryPolygons(p, testmesh.DungeonHalfExtents, f, path)
			return err
		},
		"QueryPolygonsFunc": func(_ navmesh.Ref, p geom.Vec3, f *Filter) error {
			return q.QueryPolygonsFunc(p, testmesh.DungeonHalfExtents, f, func(*navmesh.Tile, []navmesh.Ref) {})
		},
	}
	takesRef := map[string]bool{"FindNearestPoly": false, "QueryPolygons": false, "QueryPolygonsFunc": false}
	takesPos := map[string]bool{"PolyWallSegments": false}
	takesFilter := map[string]bool{"ClosestPointOnPoly": false, "ClosestPointOnPolyBoundary": false, "PolyHeight": false, "FindStraightPath": false}

	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			pos := good
			if name == "FindPathEnd" {
				pos = goodEnd
			}
			r := ref
			if name == "FindPathEnd" {
				r = endRef
			}
			require.NoError(t, call(r, pos, filter), "good input")
			if _, ok := takesPos[name]; !ok {
				for _, p := range badPositions {
					assert.ErrorIs(t, call(r, p, filter), ErrInvalidParam, "position %v", p)
				}
			}
			if _, ok := takesRef[name]; !ok {
				for _, bad := range badRefs {
					err := call(bad, pos, filter)
					if name == "FindStraightPath" && bad == 0 {
						assert.ErrorIs(t, err, ErrInvalidParam)
						continue
					}
					assert.ErrorIs(t, err, ErrInvalidRef, "ref %#x", uint64(bad))
				}
			}
			if _, ok := takesFilter[name]; !ok {
				assert.ErrorIs(t, call(r, pos, nil), ErrInvalidParam, "nil filter")
			}
		})
	}
}

func TestBadExtentsRadiiAndBuffers(t *testing.T) {
	q, filter, pair, start, end := walkSetup(t, 256)
	pos := pair.Start
	nan := float32(math.NaN())

	for _, ext := range []geom.Vec3{{0, 4, 2}, {2, -1, 2}, {2, 4, 0}, {nan, 1, 1}, {1, float32(math.Inf(1)), 1}, {}} {
		_, err := q.FindNearestPoly(pos, ext, filter)
		assert.ErrorIs(t, err, ErrInvalidParam, "extents %v", ext)
		_, _, err = q.QueryPolygons(pos, ext, filter, make([]navmesh.Ref, 4))
		assert.ErrorIs(t, err, ErrInvalidParam, "extents %v", ext)
	}
	for _, radius := range []float32{-1, nan, float32(math.Inf(1))} {
		_, _, err := q.FindDistanceToWall(start.Ref, pos, radius, filter)
		assert.ErrorIs(t, err, ErrInvalidParam, "radius %v", radius)
		_, _, err = q.FindPolysAroundCircle(start.Ref, pos, radius, filter, make([]navmesh.Ref, 4), nil, nil)
		assert.ErrorIs(t, err, ErrInvalidParam, "radius %v", radius)
		_, _, err = q.FindLocalNeighbourhood(start.Ref, pos, radius, filter, make([]navmesh.Ref, 4), nil)
		assert.ErrorIs(t, err, ErrInvalidParam, "radius %v", radius)
		_, _, err = q.FindRandomPointAroundCircle(start.Ref, pos, radius, filter, (&testmesh.LCG{}).Next)
		assert.ErrorIs(t, err, ErrInvalidParam, "radius %v", radius)
	}

	_, _, err := q.FindPath(start.Ref, end.Ref, pos, pair.End, filter, nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.FindStraightPath(pos, pair.End, []navmesh.Ref{start.Ref}, nil, 0)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.FindStraightPath(pos, pair.End, nil, make([]StraightPathPoint, 4), 0)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, _, _, err = q.MoveAlongSurface(start.Ref, pos, pair.End, filter, nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.FindPolysAroundCircle(start.Ref, pos, 2, filter, nil, nil, nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.FindPolysAroundCircle(start.Ref, pos, 2, filter, make([]navmesh.Ref, 4), make([]navmesh.Ref, 3), nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.FindPolysAroundCircle(start.Ref, pos, 2, filter, make([]navmesh.Ref, 4), nil, make([]float32, 2))
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.FindPolysAroundShape(start.Ref, []geom.Vec3{pos, pos}, filter, make([]navmesh.Ref, 4), nil, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, _, err = q.FindLocalNeighbourhood(start.Ref, pos, 2, filter, nil, nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.PolyWallSegments(start.Ref, filter, false, nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, _, err = q.PathFromDijkstraSearch(start.Ref, nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	_, err = q.FindRandomPoint(filter, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, _, err = q.FindRandomPointAroundCircle(start.Ref, pos, 2, filter, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	assert.ErrorIs(t, q.QueryPolygonsFunc(pos, testmesh.DungeonHalfExtents, filter, nil), ErrInvalidParam)
	assert.False(t, q.IsValidPolyRef(start.Ref, nil))
	assert.False(t, q.IsValidPolyRef(0, filter))

	// A position outside the polygon has no height there.
	_, err = q.PolyHeight(start.Ref, geom.Vec3{pos[0] + 1000, pos[1], pos[2]})
	assert.ErrorIs(t, err, ErrInvalidParam)

	// Nothing passes: not found.
	none := NewFilter()
	none.IncludeFlags = 0
	_, err = q.FindRandomPoint(none, (&testmesh.LCG{}).Next)
	assert.ErrorIs(t, err, ErrNotFound)
	_, _, err = q.FindRandomPointAroundCircle(start.Ref, pos, 2, none, (&testmesh.LCG{}).Next)
	assert.ErrorIs(t, err, ErrInvalidParam, "the start polygon must pass the filter")
	nearest, err := q.FindNearestPoly(pos, testmesh.DungeonHalfExtents, none)
	require.NoError(t, err)
	assert.Zero(t, nearest.Ref, "no polygon is not an error")
}

func TestSlicedMisuse(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 256)
	require.NoError(t, err)
	_, _, err = q.UpdateSlicedFindPath(10)
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
	_, _, err = q.FinalizeSlicedFindPath(make([]navmesh.Ref, 8))
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
	_, _, err = q.FinalizeSlicedFindPathPartial([]navmesh.Ref{1}, make([]navmesh.Ref, 8))
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
	_, _, err = q.FinalizeSlicedFindPathPartial(nil, make([]navmesh.Ref, 8))
	assert.ErrorIs(t, err, ErrInvalidParam)

	// A failed init leaves no query to update.
	_, err = q.InitSlicedFindPath(0, 0, geom.Vec3{}, geom.Vec3{}, referenceFilter(), 0)
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, _, err = q.UpdateSlicedFindPath(10)
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
}

func TestStaleRefs(t *testing.T) {
	q, filter, pair, start, end := walkSetup(t, 2048)
	mesh := q.Mesh()

	// Start a sliced search, then replace the tile: its slot gets a new salt.
	status, err := q.InitSlicedFindPath(start.Ref, end.Ref, pair.Start, pair.End, filter, 0)
	require.NoError(t, err)
	require.True(t, status.InProgress())
	_, _, err = q.UpdateSlicedFindPath(2)
	require.NoError(t, err)

	snap := mesh.Snapshot()
	data, err := mesh.RemoveTile(snap.Tile(0).Ref())
	require.NoError(t, err)
	_, err = mesh.AddTile(data, 0)
	require.NoError(t, err)

	_, _, err = q.FindPath(start.Ref, end.Ref, pair.Start, pair.End, filter, make([]navmesh.Ref, 16))
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, _, err = q.ClosestPointOnPoly(start.Ref, pair.Start)
	assert.ErrorIs(t, err, ErrInvalidRef)
	assert.False(t, q.IsValidPolyRef(start.Ref, filter))

	// The sliced search notices and fails; finalizing reports no query.
	_, _, err = q.UpdateSlicedFindPath(100)
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, _, err = q.FinalizeSlicedFindPath(make([]navmesh.Ref, 16))
	assert.ErrorIs(t, err, ErrNoSlicedQuery)

	// New refs work.
	fresh, err := q.FindNearestPoly(pair.Start, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	assert.NotEqual(t, start.Ref, fresh.Ref)
	assert.Equal(t, start.Ref.PolyIndex(), fresh.Ref.PolyIndex())
}

func TestIsInClosedListAndPortals(t *testing.T) {
	q, filter, pair, start, end := walkSetup(t, 2048)
	path := make([]navmesh.Ref, 64)
	n, status, err := q.FindPath(start.Ref, end.Ref, pair.Start, pair.End, filter, path)
	require.NoError(t, err)
	require.False(t, status.Partial())
	require.Equal(t, 22, n)

	// The search closed every polygon of the corridor.
	for _, ref := range path[:n] {
		assert.True(t, q.IsInClosedList(ref), "ref %#x", uint64(ref))
	}
	assert.False(t, q.IsInClosedList(0))

	snap := q.Mesh().Snapshot()
	for i := 0; i+1 < n; i++ {
		left, right, fromType, toType, err := q.PortalPoints(path[i], path[i+1])
		require.NoError(t, err)
		assert.Equal(t, navmesh.PolyTypeGround, fromType)
		assert.Equal(t, navmesh.PolyTypeGround, toType)
		// Both ends are vertices of both polygons.
		for _, ref := range []navmesh.Ref{path[i], path[i+1]} {
			tile, poly, err := snap.TileAndPoly(ref)
			require.NoError(t, err)
			var verts []geom.Vec3
			for _, v := range poly.Verts[:poly.VertCount] {
				verts = append(verts, tile.Verts[v])
			}
			assert.Contains(t, verts, left)
			assert.Contains(t, verts, right)
		}
		mid, err := q.EdgeMidPoint(path[i], path[i+1])
		require.NoError(t, err)
		assert.Equal(t, geom.Vec3{(left[0] + right[0]) * 0.5, (left[1] + right[1]) * 0.5, (left[2] + right[2]) * 0.5}, mid)
	}
	// Not neighbours.
	_, _, _, _, err = q.PortalPoints(path[0], path[n-1])
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, err = q.EdgeMidPoint(path[0], path[n-1])
	assert.ErrorIs(t, err, ErrInvalidParam)
}
