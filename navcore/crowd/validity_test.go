package crowd

import (
	"runtime"
	"time"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// passOdd is a custom filter that passes polygons with an odd index, or all
// of them once every is set.
type passOdd struct{ every bool }

func (f *passOdd) Passes(ref navmesh.Ref, _ *navmesh.Tile, _ *navmesh.Poly) bool {
	return f.every || ref.PolyIndex()%2 == 1
}

func (f *passOdd) Cost(a, b geom.Vec3, _, _, _ query.PolyContext) float32 { return geom.Dist(a, b) }

// validityWalk is the fixture the validity tests share: a dungeon mesh of
// their own (they change flags), a query on it, the walk's two ends, the
// polygons between them, and a corridor along them and a boundary around
// the start, both checked once.
type validityWalk struct {
	mesh       *navmesh.Mesh
	q          *query.Query
	filter     *query.Filter
	start, end query.NearestPoly
	path       []navmesh.Ref
	corridor   *Corridor
	boundary   LocalBoundary
}

func newValidityWalk(t *testing.T) *validityWalk {
	t.Helper()
	w := &validityWalk{mesh: testmesh.Dungeon(t), filter: dungeonFilter()}
	var err error
	w.q, err = query.New(w.mesh, 2048)
	require.NoError(t, err)
	w.start, err = w.q.FindNearestPoly(walkStart, testmesh.DungeonHalfExtents, w.filter)
	require.NoError(t, err)
	w.end, err = w.q.FindNearestPoly(walkEnd, testmesh.DungeonHalfExtents, w.filter)
	require.NoError(t, err)
	path := make([]navmesh.Ref, 256)
	n, _, err := w.q.FindPath(w.start.Ref, w.end.Ref, w.start.Point, w.end.Point, w.filter, path)
	require.NoError(t, err)
	w.path = path[:n]
	w.corridor, err = NewCorridor(256)
	require.NoError(t, err)
	w.corridor.Reset(w.start.Ref, w.start.Point)
	require.NoError(t, w.corridor.SetCorridor(w.end.Point, w.path))
	w.boundary = NewLocalBoundary()
	require.NoError(t, w.boundary.Update(w.start.Ref, w.start.Point, 7.2, w.q, w.filter))
	require.NotEmpty(t, w.boundary.Polys())
	return w
}

// TestValidityFollowsMeshAndFilter checks the corridor's and the boundary's
// validity, which remember their last successful check, against a fresh
// check after each change that can matter: a polygon's flags (a new mesh
// snapshot), the filter's flags, a custom filter, the polygons themselves.
func TestValidityFollowsMeshAndFilter(t *testing.T) {
	w := newValidityWalk(t)
	mesh, q, filter, start, end, c, b := w.mesh, w.q, w.filter, w.start, w.end, w.corridor, &w.boundary

	fresh := func(refs []navmesh.Ref, f *query.Filter) bool {
		for _, ref := range refs {
			if !q.IsValidPolyRef(ref, f) {
				return false
			}
		}
		return true
	}
	check := func(step string, f *query.Filter, wantCorridor, wantBoundary bool) {
		t.Helper()
		for range 2 { // the second time from the cache, if any
			assert.Equal(t, wantCorridor, c.IsValid(10, q, f), "%s: corridor", step)
			assert.Equal(t, fresh(c.Path()[:10], f), c.IsValid(10, q, f), "%s: corridor, fresh", step)
			assert.Equal(t, wantBoundary, b.IsValid(q, f), "%s: boundary", step)
			assert.Equal(t, fresh(b.Polys(), f), b.IsValid(q, f), "%s: boundary, fresh", step)
		}
	}
	check("valid", filter, true, true)

	// Disable the corridor's third polygon: a new snapshot.
	third := c.Path()[2]
	require.NoError(t, mesh.SetPolyFlags(third, 0x10))
	check("polygon disabled", filter, false, fresh(b.Polys(), filter))
	all := query.NewFilter()
	check("a filter that takes disabled polygons", all, true, true)
	require.NoError(t, mesh.SetPolyFlags(third, 0x01))
	check("enabled again", filter, true, true)

	// The filter's flags change in place.
	saved := filter.IncludeFlags
	filter.IncludeFlags = 0x02
	check("include flags", filter, false, false)
	filter.IncludeFlags = saved
	filter.ExcludeFlags = 0x01
	check("exclude flags", filter, false, false)
	filter.ExcludeFlags = 0
	check("flags back", filter, true, true)

	// A custom filter is asked every time.
	custom := *filter
	odd := &passOdd{}
	custom.Custom = odd
	check("custom", &custom, false, false)
	odd.every = true
	check("custom changed its mind", &custom, true, true)

	// The corridor's polygons change.
	c.FixPathStart(start.Ref, start.Point)
	check("placeholder", filter, false, true)
	require.NoError(t, c.SetCorridor(end.Point, w.path))
	check("path again", filter, true, true)
	assert.False(t, c.IsValid(10, q, nil), "nil filter")
	c.Reset(0, start.Point)
	assert.False(t, c.IsValid(10, q, filter), "zero ref")

	// The boundary's polygons change: gathered elsewhere, around a polygon
	// that is then disabled, the boundary is checked afresh.
	require.NoError(t, b.Update(end.Ref, end.Point, 7.2, q, filter))
	check("boundary moved", filter, false, true)
	require.NoError(t, mesh.SetPolyFlags(end.Ref, 0x10))
	check("boundary's polygon disabled", filter, false, false)
	require.NoError(t, mesh.SetPolyFlags(end.Ref, 0x01))
	check("boundary's polygon enabled", filter, false, true)
	assert.False(t, b.IsValid(q, nil), "nil filter")
	assert.True(t, b.IsValid(q, filter), "valid after a nil filter")
	b.Reset()
	assert.False(t, b.IsValid(q, filter), "a reset boundary")
}

// TestValidityAcrossRestoredVersions: after the mesh is restored to a
// saved state, its versions count on from the saved one, so a version
// number the caches checked against names another tile set. A corridor
// and a boundary checked against version v+1 before the restore are
// checked again against the v+1 after it, where a polygon of both is
// disabled.
func TestValidityAcrossRestoredVersions(t *testing.T) {
	w := newValidityWalk(t)
	mesh, q, filter, start, end, c, b := w.mesh, w.q, w.filter, w.start, w.end, w.corridor, &w.boundary

	var saved navmesh.MeshState
	mesh.CaptureState(&saved)
	// Version v+1: a polygon far from the corridor changes flags.
	require.NoError(t, mesh.SetPolyFlags(end.Ref, 0x01|0x08))
	version := mesh.Snapshot().Version()
	require.True(t, c.IsValid(10, q, filter))
	require.True(t, b.IsValid(q, filter))

	// Restored, then version v+1 again: the start polygon, in both lists,
	// is disabled.
	require.NoError(t, mesh.RestoreState(&saved))
	require.NoError(t, mesh.SetPolyFlags(start.Ref, 0x10))
	require.Equal(t, version, mesh.Snapshot().Version(), "the version repeats")
	assert.False(t, q.IsValidPolyRef(start.Ref, filter))
	assert.False(t, c.IsValid(10, q, filter), "corridor")
	assert.False(t, b.IsValid(q, filter), "boundary")
}

// TestValidityKeepsNoSnapshot: a corridor and a boundary that were checked
// against a snapshot do not keep it in memory once the mesh has moved on,
// however long they go unchecked.
func TestValidityKeepsNoSnapshot(t *testing.T) {
	w := newValidityWalk(t)
	mesh, q, filter, start, c, b := w.mesh, w.q, w.filter, w.start, w.corridor, &w.boundary

	freed := make(chan struct{})
	func() {
		old := mesh.Snapshot()
		runtime.SetFinalizer(old, func(*navmesh.Snapshot) { close(freed) })
		require.True(t, c.IsValid(10, q, filter))
		require.True(t, b.IsValid(q, filter))
	}()
	require.NoError(t, mesh.SetPolyFlags(start.Ref, 0x01|0x08))
	for range 20 {
		runtime.GC()
		select {
		case <-freed:
			runtime.KeepAlive(c)
			runtime.KeepAlive(b)
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the snapshot the corridor and the boundary were checked against is still in memory")
}
