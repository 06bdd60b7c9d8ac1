// Package navcore_test checks the navcore packages together: every exported
// function and method that takes a pointer, slice, map, function or
// interface handles nil there without a panic.
package navcore_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/raster"
	"github.com/archenav/archenav/navcore/debugdraw/svg"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/navquery"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// fixture holds one working value of each receiver type the table needs.
type fixture struct {
	mesh    *navmesh.Mesh
	snap    *navmesh.Snapshot
	tile    *navmesh.Tile
	poly    *navmesh.Poly
	ref     navmesh.Ref
	pos     geom.Vec3
	end     navmesh.Ref // a polygon a path from ref reaches in more than two steps
	endPos  geom.Vec3   // a point on end
	data    *navmesh.TileData
	q       *query.Query
	filter  *query.Filter
	cache   *tilecache.Cache
	tset    *tilecache.TileSet
	corr    *crowd.Corridor
	hier    *hierarchy.Hierarchy
	search  *hierarchy.Searcher
	sampler *query.ComponentSampler
	nav     *navquery.Navigator
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{}
	var err error
	f.mesh, _, err = navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	f.snap = f.mesh.Snapshot()
	f.tile = f.snap.NextTile(0)
	f.ref = f.tile.PolyRefBase()
	f.poly = &f.tile.Polys[0]
	f.pos = geom.Vec3(f.tile.Verts[f.poly.Verts[0]])
	blob, err := os.ReadFile("../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	f.data, err = navmesh.ReadDNAV(blob)
	require.NoError(t, err)
	f.q, err = query.New(f.mesh, 256)
	require.NoError(t, err)
	f.filter = query.NewFilter()
	file, err := os.ReadFile("tilecache/testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	f.tset, err = tilecache.ReadTSET(file)
	require.NoError(t, err)
	small := &tilecache.TileSet{MeshParams: f.tset.MeshParams, CacheParams: f.tset.CacheParams, Layers: f.tset.Layers[20:23]}
	f.cache, _, err = tilecache.FromTileSet(small, tilecache.Options{})
	require.NoError(t, err)
	f.corr, err = crowd.NewCorridor(16)
	require.NoError(t, err)
	f.corr.Reset(f.ref, f.pos)
	// The last polygon of the tile the start reaches, by more than two.
	path := make([]navmesh.Ref, 16)
	n := 0
	for i := len(f.tile.Polys) - 1; i > 0 && f.end == 0; i-- {
		end := f.tile.PolyRefBase() | navmesh.Ref(i)
		endPos, _, err := f.q.ClosestPointOnPoly(end, f.pos)
		require.NoError(t, err)
		count, status, err := f.q.FindPath(f.ref, end, f.pos, endPos, f.filter, path)
		require.NoError(t, err)
		if count > 2 && !status.Partial() && !status.BufferTooSmall() {
			f.end, f.endPos, n = end, endPos, count
		}
	}
	require.NotZero(t, f.end)
	require.NoError(t, f.corr.SetCorridor(f.endPos, path[:n]))
	f.hier, err = hierarchy.New(f.mesh, f.filter, hierarchy.Options{})
	require.NoError(t, err)
	f.search, err = hierarchy.NewSearcher(f.q, f.hier)
	require.NoError(t, err)
	f.sampler, err = query.LargestComponentSampler(f.snap, f.filter)
	require.NoError(t, err)
	f.nav, err = navquery.New(f.mesh, navquery.Config{})
	require.NoError(t, err)
	return f
}

// fails asserts that err is an error: the nil argument was refused.
func fails(t *testing.T, err error) { t.Helper(); assert.Error(t, err) }

// nilCalls calls each function with nil in its nilable arguments (one
// call per argument where they differ in meaning) and checks the outcome:
// an error where the argument is needed, the documented empty answer where
// nil is an empty input. Keys are package.Function or package.Type.Method.
func nilCalls(f *fixture) map[string]func(t *testing.T) {
	v := mgl32.Vec3{}
	red := debugdraw.GroundBlue
	style := navdraw.DefaultStyle()
	buf := make([]navmesh.Ref, 8)
	return map[string]func(t *testing.T){
		// navmesh
		"navmesh.DetectFormat": func(t *testing.T) { assert.Equal(t, navmesh.FormatUnknown, navmesh.DetectFormat(nil)) },
		"navmesh.Snapshot.TilesAt": func(t *testing.T) {
			assert.Len(t, f.snap.TilesAt(0, 0, nil), 1)
		},
		"navmesh.Snapshot.NeighbourTilesAt": func(t *testing.T) { assert.Empty(t, f.snap.NeighbourTilesAt(0, 0, 0, nil)) },
		"navmesh.Mesh.TilesAt":              func(t *testing.T) { assert.Len(t, f.mesh.TilesAt(0, 0, nil), 1) },
		"navmesh.Mesh.NeighbourTilesAt":     func(t *testing.T) { assert.Empty(t, f.mesh.NeighbourTilesAt(0, 0, 0, nil)) },
		"navmesh.ValidateMeshNames":         func(t *testing.T) { fails(t, navmesh.ValidateMeshNames(nil)) },
		"navmesh.LoadSetBytes":              func(t *testing.T) { _, _, err := navmesh.LoadSetBytes(nil); fails(t, err) },
		"navmesh.ReadDNAV":                  func(t *testing.T) { _, err := navmesh.ReadDNAV(nil); fails(t, err) },
		"navmesh.Save": func(t *testing.T) {
			fails(t, navmesh.Save(io.Discard, nil))
			fails(t, navmesh.Save(nil, f.mesh))
		},
		"navmesh.Load":    func(t *testing.T) { _, err := navmesh.Load(nil); fails(t, err) },
		"navmesh.LoadSet": func(t *testing.T) { _, err := navmesh.LoadSet(nil); fails(t, err) },
		"navmesh.SaveSet": func(t *testing.T) {
			fails(t, navmesh.SaveSet(io.Discard, navmesh.MeshSet{{Name: "a"}}))
			fails(t, navmesh.SaveSet(nil, navmesh.MeshSet{{Name: "a", Mesh: f.mesh}}))
		},
		"navmesh.LoadBytes":        func(t *testing.T) { _, _, err := navmesh.LoadBytes(nil); fails(t, err) },
		"navmesh.SingleTileParams": func(t *testing.T) { assert.Zero(t, navmesh.SingleTileParams(nil)) },
		"navmesh.TileSetFromMesh":  func(t *testing.T) { assert.Nil(t, navmesh.TileSetFromMesh(nil)) },
		"navmesh.ReadMSET":         func(t *testing.T) { _, err := navmesh.ReadMSET(nil); fails(t, err) },
		"navmesh.WriteMSET": func(t *testing.T) {
			fails(t, navmesh.WriteMSET(io.Discard, nil))
			fails(t, navmesh.WriteMSET(nil, navmesh.TileSetFromMesh(f.mesh)))
		},
		"navmesh.Batch.Add": func(t *testing.T) {
			var b navmesh.Batch
			b.Add(nil, 0)
			_, err := f.mesh.Apply(&b, nil)
			fails(t, err)
		},
		"navmesh.Batch.Replace": func(t *testing.T) {
			var b navmesh.Batch
			b.Replace(nil)
			_, err := f.mesh.Apply(&b, nil)
			fails(t, err)
		},
		"navmesh.Mesh.Apply": func(t *testing.T) {
			refs, err := f.mesh.Apply(nil, nil)
			assert.NoError(t, err, "a nil batch is an empty one")
			assert.Empty(t, refs)
		},
		"navmesh.Mesh.AddTile": func(t *testing.T) { _, err := f.mesh.AddTile(nil, 0); fails(t, err) },
		"navmesh.Tile.PolyHeight": func(t *testing.T) {
			_, ok := f.tile.PolyHeight(nil, f.pos)
			assert.False(t, ok)
		},
		"navmesh.Tile.ClosestPointOnDetailEdges": func(t *testing.T) {
			assert.Equal(t, f.pos, geom.Vec3(f.tile.ClosestPointOnDetailEdges(nil, f.pos, false)), "no polygon: the position itself")
		},
		"navmesh.Tile.ClosestPointOnPoly": func(t *testing.T) {
			p, over := f.tile.ClosestPointOnPoly(nil, f.pos)
			assert.Equal(t, f.pos, geom.Vec3(p))
			assert.False(t, over)
		},
		"navmesh.Tile.QueryPolygons": func(t *testing.T) {
			assert.NotEmpty(t, f.tile.QueryPolygons(f.tile.Data.Header.BMin, f.tile.Data.Header.BMax, nil))
		},
		"navmesh.Tile.NearestAmong": func(t *testing.T) {
			ref, _, _, _ := f.tile.NearestAmong(f.pos, nil)
			assert.Zero(t, ref)
		},
		"navmesh.Tile.NearestAmongPoint": func(t *testing.T) {
			ref, _, _, _ := f.tile.NearestAmongPoint(fastgeom.FromVec3(f.pos), nil)
			assert.Zero(t, ref)
		},
		"navmesh.Snapshot.ChangesSince": func(t *testing.T) {
			changes, _ := f.snap.ChangesSince(0, nil)
			assert.NotNil(t, changes)
		},
		"navmesh.DNAVSize": func(t *testing.T) { assert.Zero(t, navmesh.DNAVSize(nil)) },
		"navmesh.WriteDNAV": func(t *testing.T) {
			fails(t, navmesh.WriteDNAV(io.Discard, nil))
			fails(t, navmesh.WriteDNAV(nil, f.data))
		},
		"navmesh.MarshalDNAV":               func(t *testing.T) { _, err := navmesh.MarshalDNAV(nil); fails(t, err) },
		"navmesh.Fingerprint":               func(t *testing.T) { assert.Equal(t, navmesh.Fingerprint([]byte{}), navmesh.Fingerprint(nil)) },
		"navmesh.FingerprintAppend":         func(t *testing.T) { assert.Equal(t, uint64(7), navmesh.FingerprintAppend(7, nil)) },
		"navmesh.TileDataFingerprint":       func(t *testing.T) { _, err := navmesh.TileDataFingerprint(nil); fails(t, err) },
		"navmesh.FingerprintAppendTileData": func(t *testing.T) { _, err := navmesh.FingerprintAppendTileData(0, nil); fails(t, err) },
		"navmesh.BuildTileData":             func(t *testing.T) { _, err := navmesh.BuildTileData(nil); fails(t, err) },
		"navmesh.SnapshotState": func(t *testing.T) {
			s := navmesh.SnapshotState(nil)
			assert.Nil(t, s.Snapshot(), "no snapshot: the zero state")
			_, err := s.AppendBinary(nil)
			assert.ErrorIs(t, err, navmesh.ErrStateMismatch)
		},
		"navmesh.Mesh.CaptureState": func(t *testing.T) {
			before := f.mesh.Snapshot()
			f.mesh.CaptureState(nil)
			assert.Same(t, before, f.mesh.Snapshot(), "a nil destination captures nothing")
		},
		"navmesh.Mesh.RestoreState": func(t *testing.T) {
			before := f.mesh.Snapshot()
			assert.ErrorIs(t, f.mesh.RestoreState(nil), navmesh.ErrStateMismatch)
			assert.Same(t, before, f.mesh.Snapshot(), "a refused state changes nothing")
		},
		"navmesh.MeshState.AppendBinary": func(t *testing.T) {
			var s navmesh.MeshState
			f.mesh.CaptureState(&s)
			data, err := s.AppendBinary(nil)
			require.NoError(t, err, "a nil buffer is an empty one")
			var back navmesh.MeshState
			require.NoError(t, back.UnmarshalBinary(data))
			assert.Equal(t, s.Version(), back.Version())
			assert.Equal(t, s.Params(), back.Params())
		},
		"navmesh.MeshState.UnmarshalBinary": func(t *testing.T) {
			s := navmesh.SnapshotState(f.snap)
			assert.ErrorIs(t, s.UnmarshalBinary(nil), navmesh.ErrMalformedFile)
			assert.Same(t, f.snap, s.Snapshot(), "a refused state changes nothing")
		},

		// query
		"query.New": func(t *testing.T) { _, err := query.New(nil, 16); fails(t, err) },
		"query.Filter.DefaultCost": func(t *testing.T) {
			assert.Zero(t, f.filter.DefaultCost(f.pos, f.pos, nil))
		},
		"query.Filter.DefaultPasses": func(t *testing.T) { assert.False(t, f.filter.DefaultPasses(nil)) },
		"query.Filter.Passes":        func(t *testing.T) { assert.False(t, f.filter.Passes(f.ref, nil, nil)) },
		"query.Query.MoveAlongSurface": func(t *testing.T) {
			_, _, _, err := f.q.MoveAlongSurface(f.ref, f.pos, f.pos, nil, buf)
			fails(t, err)
			_, _, _, err = f.q.MoveAlongSurface(f.ref, f.pos, f.pos, f.filter, nil)
			fails(t, err)
		},
		"query.Query.FindStraightPath": func(t *testing.T) {
			_, _, err := f.q.FindStraightPath(f.pos, f.pos, nil, make([]query.StraightPathPoint, 4), 0)
			fails(t, err)
			_, _, err = f.q.FindStraightPath(f.pos, f.pos, []navmesh.Ref{f.ref}, nil, 0)
			fails(t, err)
		},
		"query.Query.FindStraightPathOnCorridor": func(t *testing.T) {
			_, _, err := f.q.FindStraightPathOnCorridor(f.pos, f.pos, f.pos, nil, make([]query.StraightPathPoint, 4), 0)
			fails(t, err)
			_, _, err = f.q.FindStraightPathOnCorridor(f.pos, f.pos, f.pos, []navmesh.Ref{f.ref}, nil, 0)
			fails(t, err)
		},
		"query.Query.PolyWallSegments": func(t *testing.T) {
			_, _, err := f.q.PolyWallSegments(f.ref, nil, false, make([]query.WallSegment, 8))
			fails(t, err)
			_, _, err = f.q.PolyWallSegments(f.ref, f.filter, false, nil)
			fails(t, err)
		},
		"query.Query.FindDistanceToWall": func(t *testing.T) { _, _, err := f.q.FindDistanceToWall(f.ref, f.pos, 1, nil); fails(t, err) },
		"query.Query.FindPolysAroundCircle": func(t *testing.T) {
			_, _, err := f.q.FindPolysAroundCircle(f.ref, f.pos, 1, nil, buf, nil, nil)
			fails(t, err)
			_, _, err = f.q.FindPolysAroundCircle(f.ref, f.pos, 1, f.filter, nil, nil, nil)
			fails(t, err)
			n, _, err := f.q.FindPolysAroundCircle(f.ref, f.pos, 1, f.filter, buf, nil, nil)
			assert.NoError(t, err, "parents and costs are optional")
			assert.NotZero(t, n)
		},
		"query.Query.FindPolysAroundShape": func(t *testing.T) {
			shape := []geom.Vec3{f.pos, {f.pos[0] + 1, f.pos[1], f.pos[2]}, {f.pos[0], f.pos[1], f.pos[2] + 1}}
			_, _, err := f.q.FindPolysAroundShape(f.ref, nil, f.filter, buf, nil, nil)
			fails(t, err)
			_, _, err = f.q.FindPolysAroundShape(f.ref, shape, nil, buf, nil, nil)
			fails(t, err)
			_, _, err = f.q.FindPolysAroundShape(f.ref, shape, f.filter, nil, nil, nil)
			fails(t, err)
		},
		"query.Query.PathFromDijkstraSearch": func(t *testing.T) { _, _, err := f.q.PathFromDijkstraSearch(f.ref, nil); fails(t, err) },
		"query.Components": func(t *testing.T) {
			_, err := query.Components(nil, f.filter)
			fails(t, err)
			_, err = query.Components(f.snap, nil)
			fails(t, err)
		},
		"query.Query.OutOfReach": func(t *testing.T) { assert.False(t, f.q.OutOfReach(f.ref, f.ref, nil)) },
		"query.Query.FindNearestPolyInComponent": func(t *testing.T) {
			_, err := f.q.FindNearestPolyInComponent(f.ref, f.pos, nil)
			fails(t, err)
		},
		"query.Query.FindRandomPoint": func(t *testing.T) {
			_, err := f.q.FindRandomPoint(nil, func() float32 { return 0.5 })
			fails(t, err)
			_, err = f.q.FindRandomPoint(f.filter, nil)
			fails(t, err)
		},
		"query.Query.FindRandomPointAroundCircle": func(t *testing.T) {
			_, _, err := f.q.FindRandomPointAroundCircle(f.ref, f.pos, 1, nil, func() float32 { return 0.5 })
			fails(t, err)
			_, _, err = f.q.FindRandomPointAroundCircle(f.ref, f.pos, 1, f.filter, nil)
			fails(t, err)
		},
		"query.Query.Raycast": func(t *testing.T) {
			_, _, err := f.q.Raycast(f.ref, f.pos, f.pos, nil, 0, 0, buf)
			fails(t, err)
			_, _, err = f.q.Raycast(f.ref, f.pos, f.pos, f.filter, 0, 0, nil)
			assert.NoError(t, err, "an empty path buffer checks the start polygon only")
		},
		"query.Query.InitSlicedFindPath": func(t *testing.T) {
			_, err := f.q.InitSlicedFindPath(f.ref, f.ref, f.pos, f.pos, nil, 0)
			fails(t, err)
		},
		"query.Query.FinalizeSlicedFindPath": func(t *testing.T) { _, _, err := f.q.FinalizeSlicedFindPath(nil); fails(t, err) },
		"query.Query.FinalizeSlicedFindPathPartial": func(t *testing.T) {
			_, _, err := f.q.FinalizeSlicedFindPathPartial(nil, buf)
			fails(t, err)
			_, _, err = f.q.FinalizeSlicedFindPathPartial([]navmesh.Ref{f.ref}, nil)
			fails(t, err)
		},
		"query.LargestComponentSampler": func(t *testing.T) {
			_, err := query.LargestComponentSampler(nil, f.filter)
			fails(t, err)
			_, err = query.LargestComponentSampler(f.snap, nil)
			fails(t, err)
		},
		"query.ComponentSamplerAt": func(t *testing.T) {
			_, err := query.ComponentSamplerAt(nil, f.filter, f.ref)
			fails(t, err)
			_, err = query.ComponentSamplerAt(f.snap, nil, f.ref)
			fails(t, err)
		},
		"query.ComponentSampler.RandomPoint": func(t *testing.T) { _, err := f.sampler.RandomPoint(nil); fails(t, err) },
		"query.Query.IsValidPolyRef":         func(t *testing.T) { assert.False(t, f.q.IsValidPolyRef(f.ref, nil)) },
		"query.Query.FindPath": func(t *testing.T) {
			_, _, err := f.q.FindPath(f.ref, f.ref, f.pos, f.pos, nil, buf)
			fails(t, err)
			_, _, err = f.q.FindPath(f.ref, f.ref, f.pos, f.pos, f.filter, nil)
			fails(t, err)
		},
		"query.Query.FindLocalNeighbourhood": func(t *testing.T) {
			_, _, err := f.q.FindLocalNeighbourhood(f.ref, f.pos, 1, nil, buf, nil)
			fails(t, err)
			_, _, err = f.q.FindLocalNeighbourhood(f.ref, f.pos, 1, f.filter, nil, nil)
			fails(t, err)
		},
		"query.Query.FindNearestPoly": func(t *testing.T) {
			_, err := f.q.FindNearestPoly(f.pos, geom.Vec3{1, 1, 1}, nil)
			fails(t, err)
		},
		"query.Query.QueryPolygons": func(t *testing.T) {
			_, _, err := f.q.QueryPolygons(f.pos, geom.Vec3{1, 1, 1}, nil, buf)
			fails(t, err)
			n, status, err := f.q.QueryPolygons(f.pos, geom.Vec3{1, 1, 1}, f.filter, nil)
			require.NoError(t, err)
			assert.Zero(t, n)
			assert.True(t, status.BufferTooSmall())
		},
		"query.Query.QueryPolygonsFunc": func(t *testing.T) {
			fails(t, f.q.QueryPolygonsFunc(f.pos, geom.Vec3{1, 1, 1}, nil, func(*navmesh.Tile, []navmesh.Ref) {}))
			fails(t, f.q.QueryPolygonsFunc(f.pos, geom.Vec3{1, 1, 1}, f.filter, nil))
		},
		"query.Query.SearchNodes": func(t *testing.T) { assert.NotPanics(t, func() { f.q.SearchNodes(nil) }) },
		"query.Query.FindNearestGoal": func(t *testing.T) {
			goals := []query.Goal{{Ref: f.end, Pos: f.endPos}}
			for _, call := range []func() (query.NearestGoal, error){
				func() (query.NearestGoal, error) { return f.q.FindNearestGoal(f.ref, f.pos, nil, f.filter, buf) },
				func() (query.NearestGoal, error) { return f.q.FindNearestGoal(f.ref, f.pos, goals, nil, buf) },
				func() (query.NearestGoal, error) { return f.q.FindNearestGoal(f.ref, f.pos, goals, f.filter, nil) },
			} {
				found, err := call()
				fails(t, err)
				assert.Equal(t, -1, found.Index)
			}
		},
		"query.Query.CaptureSearch": func(t *testing.T) {
			q, err := query.New(f.mesh, 64)
			require.NoError(t, err)
			_, err = q.InitSlicedFindPath(f.ref, f.end, f.pos, f.endPos, f.filter, 0)
			require.NoError(t, err)
			assert.NotPanics(t, func() { q.CaptureSearch(nil) }, "a nil destination captures nothing")
			_, status, err := q.UpdateSlicedFindPath(1)
			require.NoError(t, err)
			assert.True(t, status.InProgress(), "the search goes on")
		},
		"query.Query.RestoreSearch": func(t *testing.T) {
			q, err := query.New(f.mesh, 64)
			require.NoError(t, err)
			_, err = q.InitSlicedFindPath(f.ref, f.end, f.pos, f.endPos, f.filter, 0)
			require.NoError(t, err)
			var s query.SearchState
			q.CaptureSearch(&s)
			require.True(t, s.Active())
			assert.ErrorIs(t, q.RestoreSearch(nil, f.filter), query.ErrBadSearchState)
			assert.ErrorIs(t, q.RestoreSearch(&s, nil), query.ErrBadSearchState, "an active search needs its filter")
			_, status, err := q.UpdateSlicedFindPath(1)
			require.NoError(t, err)
			assert.True(t, status.InProgress(), "a refused state changes nothing")
			assert.NoError(t, q.RestoreSearch(&query.SearchState{}, nil), "an inactive state needs no filter")
			_, _, err = q.UpdateSlicedFindPath(1)
			assert.ErrorIs(t, err, query.ErrNoSlicedQuery, "an inactive state leaves no search")
		},
		"query.SearchState.AppendBinary": func(t *testing.T) {
			q, err := query.New(f.mesh, 64)
			require.NoError(t, err)
			_, err = q.InitSlicedFindPath(f.ref, f.end, f.pos, f.endPos, f.filter, 0)
			require.NoError(t, err)
			var s, back query.SearchState
			q.CaptureSearch(&s)
			data, err := s.AppendBinary(nil)
			require.NoError(t, err, "a nil buffer is an empty one")
			require.NoError(t, back.UnmarshalBinary(data))
			assert.True(t, back.Active())
		},
		"query.SearchState.UnmarshalBinary": func(t *testing.T) {
			var s query.SearchState
			assert.ErrorIs(t, s.UnmarshalBinary(nil), query.ErrBadSearchState)
		},
		"query.Filter.AppendState": func(t *testing.T) {
			src := query.NewFilter()
			src.AreaCost[3], src.ExcludeFlags = 7, 4
			data := src.AppendState(nil)
			dst := query.NewFilter()
			rest, err := dst.ReadState(data)
			require.NoError(t, err, "a nil buffer is an empty one")
			assert.Empty(t, rest)
			assert.Equal(t, src, dst)
		},
		"query.Filter.ReadState": func(t *testing.T) {
			dst := query.NewFilter()
			_, err := dst.ReadState(nil)
			assert.ErrorIs(t, err, query.ErrBadSearchState)
			assert.Equal(t, query.NewFilter(), dst, "a refused state changes nothing")
		},

		// navquery: a nil filter is DefaultFilter
		"navquery.New": func(t *testing.T) {
			_, err := navquery.New(nil, navquery.Config{})
			assert.ErrorIs(t, err, navquery.ErrInvalidInput)
		},
		"navquery.Navigator.CalculatePath": func(t *testing.T) {
			got, err := f.nav.CalculatePath(f.pos, f.endPos, nil)
			require.NoError(t, err)
			want, err := f.nav.CalculatePath(f.pos, f.endPos, navquery.DefaultFilter())
			require.NoError(t, err)
			assert.Equal(t, navquery.PathComplete, got.Status)
			assert.Equal(t, want, got)
		},
		"navquery.Navigator.SamplePosition": func(t *testing.T) {
			got, found, err := f.nav.SamplePosition(f.pos, 1, nil)
			require.NoError(t, err)
			require.True(t, found)
			want, _, err := f.nav.SamplePosition(f.pos, 1, navquery.DefaultFilter())
			require.NoError(t, err)
			assert.Equal(t, want, got)
		},
		"navquery.Navigator.PathLength": func(t *testing.T) {
			_, err := f.nav.PathLength(nil, f.pos, f.endPos)
			assert.ErrorIs(t, err, navquery.ErrInvalidInput)
		},
		"navquery.Navigator.PathCost": func(t *testing.T) {
			_, err := f.nav.PathCost(nil, f.pos, f.endPos, f.filter)
			assert.ErrorIs(t, err, navquery.ErrInvalidInput)
			path, err := f.nav.CalculatePath(f.pos, f.endPos, nil)
			require.NoError(t, err)
			cost, err := f.nav.PathCost(path.Polygons, f.pos, f.endPos, nil)
			require.NoError(t, err)
			assert.Equal(t, path.Cost, cost)
		},
		"navquery.Navigator.NearestGoal": func(t *testing.T) {
			found, err := f.nav.NearestGoal(f.pos, nil, f.filter)
			assert.ErrorIs(t, err, navquery.ErrInvalidInput)
			assert.Equal(t, -1, found.Index)
			got, err := f.nav.NearestGoal(f.pos, []geom.Vec3{f.endPos}, nil)
			require.NoError(t, err)
			want, err := f.nav.NearestGoal(f.pos, []geom.Vec3{f.endPos}, navquery.DefaultFilter())
			require.NoError(t, err)
			assert.Zero(t, got.Index)
			assert.Equal(t, want, got)
		},

		// crowd
		"crowd.ReciprocalAvoidance.Solve": func(t *testing.T) {
			r, err := crowd.NewReciprocalAvoidance(4, 4)
			require.NoError(t, err)
			params := crowd.DefaultORCAParams()
			_, _, err = r.Solve(nil, &params, 0.1)
			fails(t, err)
			_, _, err = r.Solve(&crowd.ORCAAgent{Radius: 0.5, MaxSpeed: 1}, nil, 0.1)
			fails(t, err)
		},
		"crowd.Corridor.SetCorridor": func(t *testing.T) { fails(t, f.corr.SetCorridor(f.pos, nil)) },
		"crowd.Corridor.FindCorners": func(t *testing.T) { _, err := f.corr.FindCorners(nil, nil); fails(t, err) },
		"crowd.Corridor.FindCornersAfter": func(t *testing.T) {
			n, err := f.corr.FindCornersAfter(f.q, nil, 0)
			assert.NoError(t, err, "no room: no corners")
			assert.Zero(t, n)
		},
		"crowd.Corridor.OptimizePathVisibility": func(t *testing.T) {
			fails(t, f.corr.OptimizePathVisibility(f.pos, 1, nil, f.filter))
			fails(t, f.corr.OptimizePathVisibility(f.pos, 1, f.q, nil))
		},
		"crowd.Corridor.OptimizePathVisibilityAfter": func(t *testing.T) {
			fails(t, f.corr.OptimizePathVisibilityAfter(f.pos, 1, 0, nil, f.filter))
			fails(t, f.corr.OptimizePathVisibilityAfter(f.pos, 1, 0, f.q, nil))
		},
		"crowd.Corridor.OptimizePathTopology": func(t *testing.T) {
			_, err := f.corr.OptimizePathTopology(nil, f.filter)
			fails(t, err)
			_, err = f.corr.OptimizePathTopology(f.q, nil)
			fails(t, err)
		},
		"crowd.Corridor.MoveOverOffMeshConnection": func(t *testing.T) {
			_, _, _, err := f.corr.MoveOverOffMeshConnection(f.ref, nil)
			fails(t, err)
		},
		"crowd.Corridor.MovePosition": func(t *testing.T) {
			fails(t, f.corr.MovePosition(f.pos, nil, f.filter))
			fails(t, f.corr.MovePosition(f.pos, f.q, nil))
		},
		"crowd.Corridor.MovePositionToSurface": func(t *testing.T) {
			fails(t, f.corr.MovePositionToSurface(f.pos, nil, f.filter))
			fails(t, f.corr.MovePositionToSurface(f.pos, f.q, nil))
		},
		"crowd.Corridor.MovePositionNoFarther": func(t *testing.T) {
			fails(t, f.corr.MovePositionNoFarther(f.pos, nil, f.filter, false))
			fails(t, f.corr.MovePositionNoFarther(f.pos, f.q, nil, false))
		},
		"crowd.Corridor.MoveTargetPosition": func(t *testing.T) {
			fails(t, f.corr.MoveTargetPosition(f.pos, nil, f.filter))
			fails(t, f.corr.MoveTargetPosition(f.pos, f.q, nil))
		},
		"crowd.Corridor.TrimInvalidPath": func(t *testing.T) {
			fails(t, f.corr.TrimInvalidPath(f.ref, f.pos, nil, f.filter))
			fails(t, f.corr.TrimInvalidPath(f.ref, f.pos, f.q, nil))
		},
		"crowd.Corridor.IsValid": func(t *testing.T) {
			assert.False(t, f.corr.IsValid(4, nil, f.filter))
			assert.False(t, f.corr.IsValid(4, f.q, nil))
		},
		"crowd.MergeCorridorStartMoved":    func(t *testing.T) { assert.Zero(t, crowd.MergeCorridorStartMoved(nil, 0, nil)) },
		"crowd.MergeCorridorEndMoved":      func(t *testing.T) { assert.Zero(t, crowd.MergeCorridorEndMoved(nil, 0, nil)) },
		"crowd.MergeCorridorStartShortcut": func(t *testing.T) { assert.Zero(t, crowd.MergeCorridorStartShortcut(nil, 0, nil)) },
		"crowd.NewPathQueue": func(t *testing.T) {
			_, err := crowd.NewPathQueue(nil, crowd.DefaultPathQueueConfig())
			fails(t, err)
		},
		"crowd.PathQueue.Request": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			_, err = pq.Request(f.ref, f.ref, f.pos, f.pos, nil)
			fails(t, err)
		},
		"crowd.PathQueue.UpdateWith": func(t *testing.T) {
			// A nil Runner runs the searches on the caller, as Update.
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			id, err := pq.Request(f.ref, f.ref, f.pos, f.pos, f.filter)
			require.NoError(t, err)
			pq.UpdateWith(100, nil, 2)
			assert.Equal(t, crowd.PathRequestDone, pq.Status(id))
		},
		"crowd.PathQueue.Result": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			id, err := pq.Request(f.ref, f.ref, f.pos, f.pos, f.filter)
			require.NoError(t, err)
			pq.Update(100)
			n, status, err := pq.Result(id, nil)
			require.NoError(t, err)
			assert.Zero(t, n)
			assert.True(t, status.BufferTooSmall())
		},
		"crowd.ProximityGrid.QueryItems": func(t *testing.T) {
			g, err := crowd.NewProximityGrid(8, 1)
			require.NoError(t, err)
			require.NoError(t, g.Add(1, 0, 0, 1, 1))
			assert.Zero(t, g.QueryItems(-5, -5, 5, 5, nil))
		},
		"crowd.LocalBoundary.Update": func(t *testing.T) {
			b := crowd.NewLocalBoundary()
			fails(t, b.Update(f.ref, f.pos, 2, nil, f.filter))
			fails(t, b.Update(f.ref, f.pos, 2, f.q, nil))
		},
		"crowd.LocalBoundary.IsValid": func(t *testing.T) {
			b := crowd.NewLocalBoundary()
			assert.False(t, b.IsValid(nil, f.filter))
			assert.False(t, b.IsValid(f.q, nil))
		},
		"crowd.ObstacleAvoidance.SampleVelocityGrid": func(t *testing.T) {
			a, err := crowd.NewObstacleAvoidance(4, 4)
			require.NoError(t, err)
			_, _, err = a.SampleVelocityGrid(f.pos, 0.5, 1, f.pos, f.pos, nil, nil)
			fails(t, err)
		},
		"crowd.ObstacleAvoidance.SampleVelocityAdaptive": func(t *testing.T) {
			a, err := crowd.NewObstacleAvoidance(4, 4)
			require.NoError(t, err)
			_, _, err = a.SampleVelocityAdaptive(f.pos, 0.5, 1, f.pos, f.pos, nil, nil)
			fails(t, err)
			params := crowd.DefaultAvoidanceParams()
			_, _, err = a.SampleVelocityAdaptive(f.pos, 0.5, 1, geom.Vec3{}, geom.Vec3{1, 0, 0}, &params, nil)
			assert.NoError(t, err, "the debug record is optional")
		},
		"crowd.AvoidanceParams.AppendState": func(t *testing.T) {
			src := crowd.DefaultAvoidanceParams()
			src.GridSize = 21
			var dst crowd.AvoidanceParams
			rest, err := dst.ReadState(src.AppendState(nil))
			require.NoError(t, err, "a nil buffer is an empty one")
			assert.Empty(t, rest)
			assert.Equal(t, src, dst)
		},
		"crowd.AvoidanceParams.ReadState": func(t *testing.T) {
			dst := crowd.DefaultAvoidanceParams()
			_, err := dst.ReadState(nil)
			assert.ErrorIs(t, err, crowd.ErrBadState)
			assert.Equal(t, crowd.DefaultAvoidanceParams(), dst, "a refused state changes nothing")
		},
		"crowd.Corridor.CaptureState": func(t *testing.T) {
			kept := []navmesh.Ref{1, 2}
			assert.Equal(t, kept, f.corr.CaptureState(nil, kept), "a nil destination captures nothing")
			var s crowd.CorridorState
			paths := f.corr.CaptureState(&s, nil)
			assert.Equal(t, f.corr.Path(), paths, "nil paths are empty ones")
			assert.Equal(t, f.corr.PathCount(), s.PathCount())
		},
		"crowd.Corridor.RestoreState": func(t *testing.T) {
			c, err := crowd.NewCorridor(16)
			require.NoError(t, err)
			c.Reset(f.ref, f.pos)
			assert.ErrorIs(t, c.RestoreState(nil, f.corr.Path()), crowd.ErrBadState)
			var s crowd.CorridorState
			f.corr.CaptureState(&s, nil)
			assert.ErrorIs(t, c.RestoreState(&s, nil), crowd.ErrBadState, "the state's path is missing")
			assert.Equal(t, []navmesh.Ref{f.ref}, c.Path(), "a refused state changes nothing")
		},
		"crowd.CorridorState.AppendState": func(t *testing.T) {
			var s, back crowd.CorridorState
			path := f.corr.CaptureState(&s, nil)
			data := s.AppendState(nil, path, nil, 0)
			paths, err := back.ReadState(data, nil, 0, 16, nil)
			require.NoError(t, err, "a nil buffer, mesh and paths: no memories kept")
			assert.Equal(t, path, paths)
			assert.Equal(t, s.PathCount(), back.PathCount())
			assert.Equal(t, s.AppendState(nil, path, nil, 0), back.AppendState(nil, path, nil, 0))
			assert.Equal(t, s.AppendState(nil, nil, nil, 0)[:24], data[:24], "a nil path: position and target still written")
		},
		"crowd.CorridorState.ReadState": func(t *testing.T) {
			var s crowd.CorridorState
			paths, err := s.ReadState(nil, f.mesh, 0, 16, nil)
			assert.ErrorIs(t, err, crowd.ErrBadState)
			assert.Empty(t, paths)
		},
		"crowd.LocalBoundary.AppendState": func(t *testing.T) {
			b := crowd.NewLocalBoundary()
			require.NoError(t, b.Update(f.ref, f.pos, 5, f.q, f.filter))
			require.NotZero(t, b.SegmentCount())
			back := crowd.NewLocalBoundary()
			require.NoError(t, back.ReadState(b.AppendState(nil)), "a nil buffer is an empty one")
			assert.Equal(t, b.Segments(), back.Segments())
			assert.Equal(t, b.Polys(), back.Polys())
		},
		"crowd.LocalBoundary.ReadState": func(t *testing.T) {
			b := crowd.NewLocalBoundary()
			require.NoError(t, b.Update(f.ref, f.pos, 5, f.q, f.filter))
			before := b.Segments()
			assert.ErrorIs(t, b.ReadState(nil), crowd.ErrBadState)
			assert.Equal(t, before, b.Segments(), "a refused state changes nothing")
		},
		"crowd.PathQueue.CaptureState": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			id, err := pq.Request(f.ref, f.end, f.pos, f.endPos, f.filter)
			require.NoError(t, err)
			assert.NotPanics(t, func() { pq.CaptureState(nil) }, "a nil destination captures nothing")
			assert.Equal(t, crowd.PathRequestWaiting, pq.Status(id))
		},
		"crowd.PathQueue.CheckState": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			assert.ErrorIs(t, pq.CheckState(nil), crowd.ErrBadState)
		},
		"crowd.PathQueue.RestoreState": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			id, err := pq.Request(f.ref, f.end, f.pos, f.endPos, f.filter)
			require.NoError(t, err)
			assert.ErrorIs(t, pq.RestoreState(nil), crowd.ErrBadState)
			assert.Equal(t, crowd.PathRequestWaiting, pq.Status(id), "a refused state changes nothing")
		},
		"crowd.PathQueueState.AppendState": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			var s crowd.PathQueueState
			pq.CaptureState(&s)
			data, err := s.AppendState(nil, nil)
			require.NoError(t, err, "no requests: no filters to look up")
			var back crowd.PathQueueState
			require.NoError(t, back.ReadState(data, nil))
			assert.Equal(t, s.Slots(), back.Slots())
			_, err = pq.Request(f.ref, f.end, f.pos, f.endPos, f.filter)
			require.NoError(t, err)
			pq.CaptureState(&s)
			_, err = s.AppendState(nil, nil)
			assert.ErrorIs(t, err, crowd.ErrBadState, "a request's filter and no table to look it up in")
		},
		"crowd.PathQueueState.ReadState": func(t *testing.T) {
			pq, err := crowd.NewPathQueue(f.mesh, crowd.DefaultPathQueueConfig())
			require.NoError(t, err)
			_, err = pq.Request(f.ref, f.end, f.pos, f.endPos, f.filter)
			require.NoError(t, err)
			var s crowd.PathQueueState
			pq.CaptureState(&s)
			data, err := s.AppendState(nil, func(*query.Filter) (int, bool) { return 0, true })
			require.NoError(t, err)
			var back crowd.PathQueueState
			assert.ErrorIs(t, back.ReadState(data, nil), crowd.ErrBadState, "a request's filter and no table to take it from")
			assert.ErrorIs(t, back.ReadState(nil, func(int) *query.Filter { return f.filter }), crowd.ErrBadState)
			assert.Zero(t, back.Slots(), "a refused state changes nothing")
		},

		// collider
		"collider.NewConvexHull": func(t *testing.T) {
			_, err := collider.Place(collider.NewConvexHull(nil), collider.Pose{})
			assert.ErrorIs(t, err, collider.ErrInvalidShape, "a hull without a mesh is refused where it is placed")
		},
		"collider.NewTriangleMesh": func(t *testing.T) {
			_, err := collider.Place(collider.NewTriangleMesh(nil), collider.Pose{})
			assert.ErrorIs(t, err, collider.ErrInvalidShape, "a mesh collider without a mesh is refused where it is placed")
		},
		"collider.Placed.WorldVertices": func(t *testing.T) {
			p, err := collider.Place(collider.NewTriangleMesh(&collider.Mesh{
				Vertices:  []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}},
				Triangles: [][3]int32{{0, 2, 1}},
			}), collider.Pose{Rotation: mgl32.QuatIdent()})
			require.NoError(t, err)
			assert.Len(t, p.WorldVertices(nil), 3, "nil is an empty destination")
		},
		"collider.Placed.Triangulate": func(t *testing.T) {
			p, err := collider.Place(collider.NewBox(geom.Vec3{1, 1, 1}), collider.Pose{Rotation: mgl32.QuatIdent()})
			require.NoError(t, err)
			vertices, triangles := p.Triangulate(0, nil, nil)
			assert.Len(t, vertices, 8, "nil destinations are empty ones")
			assert.Len(t, triangles, 12)
		},

		// tilecache
		"tilecache.Scheduler.Run": func(t *testing.T) {
			var s tilecache.Scheduler
			assert.Zero(t, s.Run(4, nil, 2, time.Time{}, nil), "a nil build builds nothing")
			built := 0
			assert.Equal(t, 4, s.Run(4, nil, 1, time.Time{}, func(int, int) { built++ }), "a nil runner runs on goroutines of its own")
			assert.Equal(t, 4, built)
		},
		"tilecache.MeshProcessFunc.Process": func(t *testing.T) {
			var p tilecache.MeshProcessFunc
			assert.NotPanics(t, func() { p.Process(&navmesh.BuildParams{}) }, "a nil function does nothing")
			p = func(*navmesh.BuildParams) {}
			assert.NotPanics(t, func() { p.Process(nil) })
		},
		"tilecache.RecastDemoProcess.Process": func(t *testing.T) {
			p := &tilecache.RecastDemoProcess{}
			assert.NotPanics(t, func() { p.Process(nil) })
		},
		"tilecache.New": func(t *testing.T) {
			_, err := tilecache.New(f.tset.CacheParams, nil, tilecache.Options{})
			fails(t, err)
		},
		"tilecache.Cache.AddLayer": func(t *testing.T) { _, err := f.cache.AddLayer(nil); fails(t, err) },
		"tilecache.Cache.Layers":   func(t *testing.T) { assert.Len(t, f.cache.Layers(nil), 3) },
		"tilecache.Cache.LayersAt": func(t *testing.T) {
			info := f.cache.Layers(nil)[0]
			assert.NotEmpty(t, f.cache.LayersAt(info.Header.TX, info.Header.TY, nil))
		},
		"tilecache.Cache.Obstacles": func(t *testing.T) { assert.Empty(t, f.cache.Obstacles(nil)) },
		"tilecache.Cache.UpdateWith": func(t *testing.T) {
			_, err := f.cache.UpdateWith(tilecache.Budget{}, nil, 1)
			assert.NoError(t, err, "a nil runner is Update")
		},
		"tilecache.FastLZ.Compress": func(t *testing.T) {
			out, err := tilecache.FastLZ{}.Compress(nil, nil)
			require.NoError(t, err)
			back, err := tilecache.FastLZ{}.Decompress(nil, out)
			require.NoError(t, err)
			assert.Empty(t, back)
		},
		"tilecache.FastLZ.CompressLevel": func(t *testing.T) {
			_, err := tilecache.FastLZ{}.CompressLevel(nil, nil, 1)
			assert.NoError(t, err)
		},
		"tilecache.FastLZ.Decompress": func(t *testing.T) {
			out, err := tilecache.FastLZ{}.Decompress(nil, nil)
			assert.NoError(t, err)
			assert.Empty(t, out)
		},
		"tilecache.DetectFormat": func(t *testing.T) { assert.Equal(t, tilecache.FormatUnknown, tilecache.DetectFormat(nil)) },
		"tilecache.Load":         func(t *testing.T) { _, _, _, err := tilecache.Load(nil, tilecache.Options{}); fails(t, err) },
		"tilecache.Prism": func(t *testing.T) {
			o := tilecache.Prism(nil, 0, 1)
			fails(t, o.Validate())
		},
		"tilecache.ReadTSET": func(t *testing.T) { _, err := tilecache.ReadTSET(nil); fails(t, err) },
		"tilecache.WriteTSET": func(t *testing.T) {
			fails(t, tilecache.WriteTSET(io.Discard, nil))
			fails(t, tilecache.WriteTSET(nil, f.tset))
		},
		"tilecache.MarshalTSET": func(t *testing.T) {
			_, err := tilecache.MarshalTSET(nil)
			fails(t, err)
		},
		"tilecache.FingerprintAppendLayer": func(t *testing.T) {
			assert.Equal(t, uint64(7), tilecache.FingerprintAppendLayer(7, nil))
		},
		"tilecache.Summarize": func(t *testing.T) { _, err := tilecache.Summarize(nil); fails(t, err) },
		"tilecache.FromTileSet": func(t *testing.T) {
			_, _, err := tilecache.FromTileSet(nil, tilecache.Options{})
			fails(t, err)
		},
		"tilecache.EncodeLayer": func(t *testing.T) {
			_, err := tilecache.EncodeLayer(nil, tilecache.FastLZ{})
			fails(t, err)
			layer, err := tilecache.DecodeLayer(f.tset.Layers[20].Data, tilecache.FastLZ{})
			require.NoError(t, err)
			_, err = tilecache.EncodeLayer(layer, nil)
			fails(t, err)
		},
		"tilecache.DecodeLayer": func(t *testing.T) {
			_, err := tilecache.DecodeLayer(nil, tilecache.FastLZ{})
			fails(t, err)
			_, err = tilecache.DecodeLayer(f.tset.Layers[20].Data, nil)
			fails(t, err)
		},
		"tilecache.DecodeLayerHeader": func(t *testing.T) { _, err := tilecache.DecodeLayerHeader(nil); fails(t, err) },
		"tilecache.SaveSet": func(t *testing.T) {
			fails(t, tilecache.SaveSet(io.Discard, nil))
			fails(t, tilecache.SaveSet(io.Discard, []tilecache.NamedCache{{Name: "a"}}))
			fails(t, tilecache.SaveSet(nil, []tilecache.NamedCache{{Name: "a", Cache: f.cache}}))
		},
		"tilecache.Cache.Save": func(t *testing.T) { fails(t, f.cache.Save(nil)) },
		"tilecache.LoadSet":    func(t *testing.T) { _, _, err := tilecache.LoadSet(nil, tilecache.Options{}); fails(t, err) },
		"tilecache.Cache.CaptureState": func(t *testing.T) {
			f.cache.CaptureState(nil)
			var s tilecache.CacheState
			f.cache.CaptureState(&s)
			assert.Equal(t, f.cache.Params(), s.Params(), "a nil destination captured nothing, a real one still captures")
		},
		"tilecache.Cache.RestoreState": func(t *testing.T) {
			before := len(f.cache.Layers(nil))
			assert.ErrorIs(t, f.cache.RestoreState(nil), tilecache.ErrStateMismatch)
			assert.Len(t, f.cache.Layers(nil), before, "a refused state changes nothing")
		},
		"tilecache.Cache.CheckState": func(t *testing.T) {
			var s tilecache.CacheState
			f.cache.CaptureState(&s)
			data, err := s.AppendBinary(nil)
			require.NoError(t, err)
			assert.NoError(t, f.cache.CheckState(nil, data), "a nil state: data is only checked")
			assert.ErrorIs(t, f.cache.CheckState(nil, data[:len(data)-1]), tilecache.ErrMalformedFile)
			var back tilecache.CacheState
			assert.ErrorIs(t, f.cache.CheckState(&back, nil), tilecache.ErrMalformedFile)
			_, err = back.AppendBinary(nil)
			assert.ErrorIs(t, err, tilecache.ErrStateMismatch, "a refused state leaves s empty")
		},
		"tilecache.CacheState.AppendBinary": func(t *testing.T) {
			var s, back tilecache.CacheState
			f.cache.CaptureState(&s)
			data, err := s.AppendBinary(nil)
			require.NoError(t, err, "a nil buffer is an empty one")
			require.NoError(t, back.UnmarshalBinary(data))
			again, err := back.AppendBinary(nil)
			require.NoError(t, err)
			assert.Equal(t, data, again)
		},
		"tilecache.CacheState.UnmarshalBinary": func(t *testing.T) {
			var s tilecache.CacheState
			assert.ErrorIs(t, s.UnmarshalBinary(nil), tilecache.ErrMalformedFile)
		},

		// hierarchy
		"hierarchy.CorridorCost": func(t *testing.T) {
			_, err := hierarchy.CorridorCost(nil, f.filter, f.pos, f.pos, []navmesh.Ref{f.ref})
			fails(t, err)
			_, err = hierarchy.CorridorCost(f.snap, nil, f.pos, f.pos, []navmesh.Ref{f.ref})
			fails(t, err)
			_, err = hierarchy.CorridorCost(f.snap, f.filter, f.pos, f.pos, nil)
			fails(t, err)
		},
		"hierarchy.Searcher.InitSlicedFindPath": func(t *testing.T) {
			_, err := f.search.InitSlicedFindPath(f.ref, f.ref, f.pos, f.pos, nil)
			fails(t, err)
		},
		"hierarchy.Searcher.FinalizeSlicedFindPath": func(t *testing.T) {
			_, err := f.search.InitSlicedFindPath(f.ref, f.ref, f.pos, f.pos, f.filter)
			require.NoError(t, err)
			_, err = f.search.FinalizeSlicedFindPath(nil)
			fails(t, err)
		},
		"hierarchy.New": func(t *testing.T) {
			_, err := hierarchy.New(nil, f.filter, hierarchy.Options{})
			fails(t, err)
			_, err = hierarchy.New(f.mesh, nil, hierarchy.Options{})
			fails(t, err)
		},
		"hierarchy.Hierarchy.Matches": func(t *testing.T) { assert.False(t, f.hier.Matches(nil)) },
		"hierarchy.NewSearcher": func(t *testing.T) {
			_, err := hierarchy.NewSearcher(nil, f.hier)
			fails(t, err)
			_, err = hierarchy.NewSearcher(f.q, nil)
			fails(t, err)
			s, err := hierarchy.NewSearcher(f.q)
			require.NoError(t, err, "no hierarchy: plain A* for every filter")
			assert.Nil(t, s.HierarchyFor(f.filter))
		},
		"hierarchy.Searcher.HierarchyFor": func(t *testing.T) { assert.Nil(t, f.search.HierarchyFor(nil)) },
		"hierarchy.Searcher.FindPath": func(t *testing.T) {
			_, err := f.search.FindPath(f.ref, f.ref, f.pos, f.pos, nil, buf)
			fails(t, err)
			_, err = f.search.FindPath(f.ref, f.ref, f.pos, f.pos, f.filter, nil)
			fails(t, err)
		},
		"hierarchy.Hierarchy.UpdateLandmarksOf": func(t *testing.T) {
			f.hier.UpdateLandmarksOf(nil)
			path := make([]navmesh.Ref, 64)
			got, err := f.search.FindPath(f.ref, f.end, f.pos, f.endPos, f.filter, path)
			require.NoError(t, err, "a nil snapshot does nothing: searches go on")
			require.NotZero(t, got.Count)
			assert.False(t, got.Status.Partial())
			assert.Equal(t, []navmesh.Ref{f.ref, f.end}, []navmesh.Ref{path[0], path[got.Count-1]})
		},
		"hierarchy.Searcher.InitSlicedFindPathOn": func(t *testing.T) {
			_, err := f.search.InitSlicedFindPathOn(nil, f.ref, f.end, f.pos, f.endPos, f.filter)
			assert.ErrorIs(t, err, hierarchy.ErrInvalidParam)
			_, err = f.search.InitSlicedFindPathOn(f.snap, f.ref, f.end, f.pos, f.endPos, nil)
			fails(t, err)
		},

		// geom
		"geom.IntersectSegmentPoly2D": func(t *testing.T) {
			_, _, _, _, ok := geom.IntersectSegmentPoly2D(f.pos, f.pos, nil)
			assert.False(t, ok)
		},
		"geom.PointInPolygon": func(t *testing.T) { assert.False(t, geom.PointInPolygon(f.pos, nil)) },
		"geom.DistancePtPolyEdgesSqr": func(t *testing.T) {
			assert.False(t, geom.DistancePtPolyEdgesSqr(f.pos, nil, nil, nil))
			square := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}
			assert.False(t, geom.DistancePtPolyEdgesSqr(f.pos, square, nil, nil), "too short distance buffers")
		},
		"geom.PolyCenter": func(t *testing.T) {
			assert.Equal(t, geom.Vec3{}, geom.PolyCenter(nil, nil))
			assert.Equal(t, geom.Vec3{}, geom.PolyCenter([]uint16{0, 1, 2}, nil), "indices outside verts")
		},
		"geom.OverlapPolyPoly2D": func(t *testing.T) { assert.False(t, geom.OverlapPolyPoly2D(nil, nil)) },
		"geom.RandomPointInConvexPoly": func(t *testing.T) {
			assert.Equal(t, geom.Vec3{}, geom.RandomPointInConvexPoly(nil, nil, 0.5, 0.5))
		},

		// debugdraw: a nil Drawer draws nothing
		"debugdraw.Prism": func(t *testing.T) { debugdraw.Prism(nil, []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}}, 0, 1, red) },
		"debugdraw.PrismWire": func(t *testing.T) {
			debugdraw.PrismWire(nil, nil, 0, 1, 1, red)
			debugdraw.PrismWire(&debugdraw.Recorder{}, nil, 0, 1, 1, red)
		},
		"debugdraw.Recorder.Replay": func(t *testing.T) {
			r := &debugdraw.Recorder{}
			r.Line(v, v, 1, red)
			r.Replay(nil)
		},
		"debugdraw.Translate": func(t *testing.T) {
			d := debugdraw.Translate(nil, v)
			d.Line(v, v, 1, red)
		},
		"debugdraw.CullBackFaces": func(t *testing.T) {
			d := debugdraw.CullBackFaces(nil, mgl32.Vec3{0, -1, 0})
			d.Triangle(v, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}, red)
		},
		"debugdraw.Cylinder":     func(t *testing.T) { debugdraw.Cylinder(nil, v, mgl32.Vec3{1, 1, 1}, red) },
		"debugdraw.Circle":       func(t *testing.T) { debugdraw.Circle(nil, v, 1, 1, red) },
		"debugdraw.Disc":         func(t *testing.T) { debugdraw.Disc(nil, v, 1, red) },
		"debugdraw.CylinderWire": func(t *testing.T) { debugdraw.CylinderWire(nil, v, mgl32.Vec3{1, 1, 1}, 1, red) },
		"debugdraw.Cross":        func(t *testing.T) { debugdraw.Cross(nil, v, 1, 1, red) },
		"debugdraw.Arrow":        func(t *testing.T) { debugdraw.Arrow(nil, v, mgl32.Vec3{1, 0, 0}, 0.1, 0.1, 1, red) },
		"debugdraw.Arc":          func(t *testing.T) { debugdraw.Arc(nil, v, mgl32.Vec3{1, 0, 0}, 1, 0.1, 0.1, 1, red) },
		"debugdraw.BoxWire":      func(t *testing.T) { debugdraw.BoxWire(nil, v, mgl32.Vec3{1, 1, 1}, 1, red) },
		"debugdraw.Box":          func(t *testing.T) { debugdraw.Box(nil, v, mgl32.Vec3{1, 1, 1}, debugdraw.BoxFaces{}) },
		"debugdraw.Quad":         func(t *testing.T) { debugdraw.Quad(nil, v, v, v, v, red) },

		// raster, svg
		"raster.Canvas.EncodePNG": func(t *testing.T) {
			c, err := raster.New(debugdraw.NewView(0, 90, 1, v, 8, 8), raster.Options{})
			require.NoError(t, err)
			fails(t, c.EncodePNG(nil))
		},
		"svg.Canvas.WriteTo": func(t *testing.T) {
			c, err := svg.New(debugdraw.NewView(0, 90, 1, v, 8, 8), svg.Options{})
			require.NoError(t, err)
			_, err = c.WriteTo(nil)
			fails(t, err)
		},

		// navdraw: a nil Drawer draws nothing, a nil structure is nothing to draw
		"navdraw.TileCacheLayer": func(t *testing.T) {
			navdraw.TileCacheLayer(nil, nil, 1, 1, style)
			navdraw.TileCacheLayer(&debugdraw.Recorder{}, nil, 1, 1, style)
		},
		"navdraw.TileCacheLayerRegions": func(t *testing.T) {
			navdraw.TileCacheLayerRegions(nil, nil, 1, 1)
			navdraw.TileCacheLayerRegions(&debugdraw.Recorder{}, nil, 1, 1)
		},
		"navdraw.TileCacheObstacles": func(t *testing.T) {
			navdraw.TileCacheObstacles(nil, []tilecache.ObstacleInfo{{}}, style)
			navdraw.TileCacheObstacles(&debugdraw.Recorder{}, nil, style)
		},
		"navdraw.Obstacle": func(t *testing.T) {
			o := tilecache.Box(v, mgl32.Vec3{1, 1, 1})
			navdraw.Obstacle(nil, &o, red, red, 1)
			navdraw.Obstacle(&debugdraw.Recorder{}, nil, red, red, 1)
		},
		"navdraw.TileCacheContours": func(t *testing.T) {
			navdraw.TileCacheContours(nil, nil, 1, 1, style)
			navdraw.TileCacheContours(&debugdraw.Recorder{}, nil, 1, 1, style)
		},
		"navdraw.TileCachePolyMesh": func(t *testing.T) {
			navdraw.TileCachePolyMesh(nil, nil, 1, 1, style)
			navdraw.TileCachePolyMesh(&debugdraw.Recorder{}, nil, 1, 1, style)
		},
		"navdraw.Agents": func(t *testing.T) {
			navdraw.Agents(nil, []navdraw.Agent{{}}, navdraw.DefaultAgentLayers, style)
			navdraw.Agents(&debugdraw.Recorder{}, nil, navdraw.DefaultAgentLayers, style)
		},
		"navdraw.Boundary": func(t *testing.T) {
			navdraw.Boundary(nil, v, []crowd.BoundarySegment{{}}, style)
			navdraw.Boundary(&debugdraw.Recorder{}, v, nil, style)
		},
		"navdraw.AvoidanceSamples": func(t *testing.T) {
			navdraw.AvoidanceSamples(nil, v, []crowd.AvoidanceSample{{}}, style)
			navdraw.AvoidanceSamples(&debugdraw.Recorder{}, v, nil, style)
		},
		"navdraw.Mesh": func(t *testing.T) {
			navdraw.Mesh(nil, f.snap, navdraw.AllLayers, style)
			navdraw.Mesh(&debugdraw.Recorder{}, nil, navdraw.AllLayers, style)
		},
		"navdraw.Tile": func(t *testing.T) {
			navdraw.Tile(nil, f.tile, navdraw.AllLayers, style)
			navdraw.Tile(&debugdraw.Recorder{}, nil, navdraw.AllLayers, style)
		},
		"navdraw.Polygon": func(t *testing.T) {
			navdraw.Polygon(nil, f.snap, f.ref, red, style)
			navdraw.Polygon(&debugdraw.Recorder{}, nil, f.ref, red, style)
		},
		"navdraw.Corridor": func(t *testing.T) {
			navdraw.Corridor(nil, f.snap, []navmesh.Ref{f.ref}, style)
			navdraw.Corridor(&debugdraw.Recorder{}, nil, []navmesh.Ref{f.ref}, style)
			navdraw.Corridor(&debugdraw.Recorder{}, f.snap, nil, style)
		},
		"navdraw.StraightPath": func(t *testing.T) {
			navdraw.StraightPath(nil, []query.StraightPathPoint{{}, {}}, style)
			navdraw.StraightPath(&debugdraw.Recorder{}, nil, style)
		},
		"navdraw.Search": func(t *testing.T) {
			navdraw.Search(nil, f.snap, []query.SearchNode{{}}, style)
			navdraw.Search(&debugdraw.Recorder{}, nil, []query.SearchNode{{}}, style)
			navdraw.Search(&debugdraw.Recorder{}, f.snap, nil, style)
		},
	}
}

// TestNilArguments calls every exported function and method of navcore
// that takes a nilable argument with nil there: none panics, each refuses
// with an error or gives its documented empty answer. The list of
// functions comes from the source, so a new one without a case fails.
func TestNilArguments(t *testing.T) {
	f := newFixture(t)
	calls := nilCalls(f)
	for _, name := range nilableFunctions(t) {
		t.Run(name, func(t *testing.T) {
			call, ok := calls[name]
			if !assert.True(t, ok, "%s takes a nilable argument and has no case in nilCalls", name) {
				return
			}
			assert.NotPanics(t, func() { call(t) })
		})
		delete(calls, name)
	}
	assert.Empty(t, calls, "cases for functions that no longer take a nilable argument")
}

// nilableFunctions lists the exported functions and methods (of exported
// types) of the navcore packages with a parameter of pointer, slice, map,
// function or interface type, as package.Function or package.Type.Method.
func nilableFunctions(t *testing.T) []string {
	t.Helper()
	var dirs []string
	require.NoError(t, filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir() || path == ".":
			return nil
		case d.Name() == "internal" || d.Name() == "testdata":
			return filepath.SkipDir
		}
		dirs = append(dirs, path)
		return nil
	}))
	nonTest := func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
	type parsed struct {
		name  string
		files []*ast.File
	}
	var packages []parsed
	interfaces := map[string]bool{"error": true, "any": true, "io.Writer": true, "io.Reader": true}
	for _, dir := range dirs {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, nonTest, 0)
		require.NoError(t, err)
		for name, pkg := range pkgs {
			p := parsed{name: name}
			for _, file := range pkg.Files {
				p.files = append(p.files, file)
				ast.Inspect(file, func(n ast.Node) bool {
					if spec, ok := n.(*ast.TypeSpec); ok {
						if _, ok := spec.Type.(*ast.InterfaceType); ok {
							interfaces[spec.Name.Name] = true
							interfaces[name+"."+spec.Name.Name] = true
						}
					}
					return true
				})
			}
			packages = append(packages, p)
		}
	}
	nilable := func(pkg string, e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.StarExpr, *ast.InterfaceType, *ast.FuncType, *ast.MapType, *ast.ChanType, *ast.Ellipsis:
			return true
		case *ast.ArrayType:
			return e.Len == nil
		case *ast.Ident:
			return interfaces[e.Name] || interfaces[pkg+"."+e.Name]
		case *ast.SelectorExpr:
			return interfaces[fmt.Sprint(e.X)+"."+e.Sel.Name]
		}
		return false
	}
	var names []string
	for _, p := range packages {
		for _, file := range p.files {
			for _, decl := range file.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || !fn.Name.IsExported() {
					continue
				}
				name := p.name + "." + fn.Name.Name
				if fn.Recv != nil {
					recv := fn.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					id, ok := recv.(*ast.Ident)
					if !ok || !id.IsExported() {
						continue
					}
					name = p.name + "." + id.Name + "." + fn.Name.Name
				}
				for _, param := range fn.Type.Params.List {
					if nilable(p.name, param.Type) {
						names = append(names, name)
						break
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}
