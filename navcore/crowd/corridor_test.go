package crowd

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

type wantCorner struct {
	pos   geom.Vec3
	flags query.StraightPathFlags
	poly  int // index in the tile, -1 for no polygon
}

func assertCorners(t *testing.T, want []wantCorner, got []query.StraightPathPoint) {
	t.Helper()
	require.Len(t, got, len(want))
	for i, w := range want {
		assert.Equal(t, w.pos, got[i].Pos, "corner %d position", i)
		assert.Equal(t, w.flags, got[i].Flags, "corner %d flags", i)
		poly := -1
		if got[i].Ref != 0 {
			poly = int(got[i].Ref.PolyIndex())
		}
		assert.Equal(t, w.poly, poly, "corner %d polygon", i)
	}
}

var walkCorners = []wantCorner{
	{geom.Vec3{-4.6152153, 10.1972942, -24.041275}, 0, 61},
	{geom.Vec3{3.48478508, 10.1972942, -34.241272}, 0, 58},
	{geom.Vec3{16.0847855, 10.1972942, -45.3412743}, 0, 39},
	{geom.Vec3{17.2847862, 10.1972942, -48.041275}, 0, 41},
	{geom.Vec3{22.0847855, 14.9972944, -70.541275}, 0, 24},
	{geom.Vec3{22.3847847, 14.9972944, -71.741272}, 0, 27},
	{geom.Vec3{23.7297325, 15.0986919, -73.5664291}, query.StraightPathEnd, -1},
}

func TestCorridorFindCornersDungeon(t *testing.T) {
	f := newDungeonFixture(t)
	c, err := NewCorridor(256)
	require.NoError(t, err)
	c.Reset(f.startRef, f.start)
	require.NoError(t, c.SetCorridor(f.end, f.path))
	assert.Equal(t, f.startRef, c.FirstPoly())
	assert.Equal(t, f.endRef, c.LastPoly())
	assert.Equal(t, f.end, c.Target())

	tile := f.tile(t)
	tests := []struct {
		name   string
		buffer int
		want   []wantCorner
	}{
		// One slot goes to the dropped start point: 4 slots give 3 corners.
		{"crowd buffer of 4", 4, walkCorners[:3]},
		{"whole path", 16, walkCorners},
		{"one slot holds only the start", 1, nil},
		{"no buffer", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			corners := make([]query.StraightPathPoint, tt.buffer)
			n, err := c.FindCorners(f.query, corners)
			require.NoError(t, err)
			assertCorners(t, tt.want, corners[:n])
			// Every corner but the target is a vertex of the polygon mesh.
			for _, corner := range corners[:n] {
				if corner.Flags&query.StraightPathEnd != 0 {
					continue
				}
				assert.Contains(t, tile.Verts, corner.Pos)
			}
		})
	}
}

// TestCorridorWalkDungeon walks the corridor as the crowd does, 0.1 per step
// towards the first corner, optimizing visibility towards the last corner
// every step and the topology every 10, and compares with the reference at
// checkpoints.
func TestCorridorWalkDungeon(t *testing.T) {
	f := newDungeonFixture(t)
	c, err := NewCorridor(256)
	require.NoError(t, err)
	c.Reset(f.startRef, f.start)
	require.NoError(t, c.SetCorridor(f.end, f.path))

	checkpoints := map[int]struct {
		pos     geom.Vec3
		path    []uint32
		corners []wantCorner
	}{
		1:   {geom.Vec3{-9.09646797, 10.1972942, -20.4030533}, walkPath, walkCorners[:3]},
		10:  {geom.Vec3{-8.39775467, 10.1972942, -20.9703255}, walkPath[1:], walkCorners[:3]},
		50:  {geom.Vec3{-5.29234552, 10.1972942, -23.4915352}, walkPath[1:], walkCorners[:3]},
		100: {geom.Vec3{-2.06549406, 10.1972942, -27.2520599}, walkPath[2:], walkCorners[1:4]},
		200: {geom.Vec3{4.23514414, 10.1972942, -34.9023209}, walkPath[7:], walkCorners[2:5]},
		400: {geom.Vec3{17.5351601, 10.1972942, -49.2148438}, walkPath[15:], walkCorners[4:7]},
	}
	corners := make([]query.StraightPathPoint, 4)
	for step := 1; step <= 400; step++ {
		n, err := c.FindCorners(f.query, corners)
		require.NoError(t, err)
		require.NotZero(t, n, "step %d", step)
		require.NoError(t, c.OptimizePathVisibility(corners[n-1].Pos, 18, f.query, f.filter))
		if step%10 == 0 {
			_, err := c.OptimizePathTopology(f.query, f.filter)
			require.NoError(t, err)
		}
		pos := c.Position()
		dx, dz := corners[0].Pos[0]-pos[0], corners[0].Pos[2]-pos[2]
		d := geom.Vec3{dx, 0, dz}
		length := geom.Len(d)
		stepLen := min(length, 0.1)
		scale := float32(0)
		if length > 0 {
			scale = stepLen / length
		}
		require.NoError(t, c.MovePosition(geom.Mad(pos, d, scale), f.query, f.filter))

		want, ok := checkpoints[step]
		if !ok {
			continue
		}
		assert.Equal(t, want.pos, c.Position(), "step %d position", step)
		assert.Equal(t, want.path, polyIndices(c.Path()), "step %d path", step)
		n, err = c.FindCorners(f.query, corners)
		require.NoError(t, err)
		assertCorners(t, want.corners, corners[:n])
	}

	// The target moves 1.5 along x and 1 along z: it slides along the
	// surface within the last polygon.
	target := c.Target()
	target[0] += 1.5
	target[2] += 1
	require.NoError(t, c.MoveTargetPosition(target, f.query, f.filter))
	assert.Equal(t, geom.Vec3{24.1847839, 15.0431366, -72.5664291}, c.Target())
	assert.Equal(t, walkPath[15:], polyIndices(c.Path()))
}

func newWalkCorridor(t testing.TB, f *dungeonFixture) *Corridor {
	t.Helper()
	c, err := NewCorridor(256)
	require.NoError(t, err)
	c.Reset(f.startRef, f.start)
	require.NoError(t, c.SetCorridor(f.end, f.path))
	return c
}

func prepend(path []uint32, first ...uint32) []uint32 {
	return append(append([]uint32{}, first...), path...)
}

// TestCorridorStray pushes the agent off its corridor in several directions:
// the polygons it crossed are put in front of the corridor (or the ones it
// left behind dropped), and neither topology nor visibility optimization
// finds a better start from there. Values from the reference.
func TestCorridorStray(t *testing.T) {
	f := newDungeonFixture(t)
	tests := []struct {
		dx, dz float32
		pos    geom.Vec3
		path   []uint32
	}{
		{-3, 3, geom.Vec3{-12.1741028, 10.0595798, -17.340023}, prepend(walkPath, 80, 82, 81)},
		{3, 3, geom.Vec3{-6.17410278, 10.1972942, -17.340023}, walkPath[1:]},
		{-3, -3, geom.Vec3{-12.1741028, 9.99729443, -23.340023}, prepend(walkPath, 76, 82, 81)},
		{3, -3, geom.Vec3{-6.17410278, 10.1972942, -23.340023}, walkPath[1:]},
		{0, 5, geom.Vec3{-8.21521568, 10.1972942, -15.6412735}, prepend(walkPath[1:], 69)},
		{5, 0, geom.Vec3{-4.17410278, 10.1972942, -20.340023}, walkPath[2:]},
		{-5, 0, geom.Vec3{-14.1741028, 10.1386032, -20.340023}, prepend(walkPath, 82, 81)},
		{0, -5, geom.Vec3{-8.21521568, 10.1972942, -24.041275}, walkPath[1:]},
		{-2, 6, geom.Vec3{-11.9962635, 10.1972942, -15.5145397}, prepend(walkPath, 83, 80, 82, 81)},
		{6, -2, geom.Vec3{-3.17410278, 10.1972942, -22.340023}, walkPath[2:]},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v,%v", tt.dx, tt.dz), func(t *testing.T) {
			c := newWalkCorridor(t, f)
			require.NoError(t, c.MovePosition(geom.Vec3{f.start[0] + tt.dx, f.start[1], f.start[2] + tt.dz}, f.query, f.filter))
			assert.Equal(t, tt.pos, c.Position())
			assert.Equal(t, tt.path, polyIndices(c.Path()))

			changed, err := c.OptimizePathTopology(f.query, f.filter)
			require.NoError(t, err)
			assert.True(t, changed, "the reference reports a merge")
			assert.Equal(t, tt.path, polyIndices(c.Path()))

			corners := make([]query.StraightPathPoint, 4)
			n, err := c.FindCorners(f.query, corners)
			require.NoError(t, err)
			require.NotZero(t, n)
			require.NoError(t, c.OptimizePathVisibility(corners[n-1].Pos, 18, f.query, f.filter))
			assert.Equal(t, tt.path, polyIndices(c.Path()))
		})
	}
}

func TestCorridorTrimInvalidPath(t *testing.T) {
	f := newDungeonFixture(t)
	c := newWalkCorridor(t, f)

	// Disable the sixth polygon: the filter now rejects it.
	require.NoError(t, f.mesh.SetPolyFlags(f.path[5], 0x10))
	for _, tt := range []struct {
		lookAhead int
		want      bool
	}{{0, true}, {3, true}, {5, true}, {6, false}, {100, false}, {-1, true}} {
		assert.Equal(t, tt.want, c.IsValid(tt.lookAhead, f.query, f.filter), "look ahead %d", tt.lookAhead)
	}
	require.NoError(t, c.TrimInvalidPath(f.startRef, f.start, f.query, f.filter))
	assert.Equal(t, walkPath[:5], polyIndices(c.Path()))
	// The target moves onto the boundary of the last polygon kept.
	assert.Equal(t, geom.Vec3{1.98478508, 10.1972942, -29.741272}, c.Target())
	assert.Equal(t, f.start, c.Position())
	assert.True(t, c.IsValid(100, f.query, f.filter))
	require.NoError(t, f.mesh.SetPolyFlags(f.path[5], 1))

	// A valid corridor is left alone.
	c = newWalkCorridor(t, f)
	require.NoError(t, c.TrimInvalidPath(f.startRef, f.start, f.query, f.filter))
	assert.Equal(t, walkPath, polyIndices(c.Path()))
	assert.Equal(t, f.end, c.Target())

	// An invalid first polygon: back to the safe polygon and position.
	require.NoError(t, f.mesh.SetPolyFlags(f.path[0], 0x10))
	safe := geom.Vec3{1, 2, 3}
	require.NoError(t, c.TrimInvalidPath(f.path[1], safe, f.query, f.filter))
	assert.Equal(t, []uint32{walkPath[1]}, polyIndices(c.Path()))
	assert.Equal(t, geom.Vec3{-4.6152153, 10.1972942, -24.041275}, c.Target())
	assert.Equal(t, safe, c.Position())

	// A stale safe polygon: trimmed anyway, the target cannot move.
	c = newWalkCorridor(t, f)
	stale := f.path[1] + 1<<(navmesh.PolyBits+navmesh.TileBits)
	err := c.TrimInvalidPath(stale, safe, f.query, f.filter)
	assert.ErrorIs(t, err, navmesh.ErrInvalidRef)
	assert.Equal(t, []navmesh.Ref{stale}, c.Path())
	assert.Equal(t, f.end, c.Target())
}

func TestCorridorFixPathStart(t *testing.T) {
	tests := []struct {
		name  string
		path  []navmesh.Ref
		count int
		want  []navmesh.Ref
	}{
		{"one polygon", []navmesh.Ref{5}, 1, []navmesh.Ref{9, 0, 5}},
		{"two polygons", []navmesh.Ref{5, 6}, 2, []navmesh.Ref{9, 0, 6}},
		{"three polygons", []navmesh.Ref{5, 6, 7}, 3, []navmesh.Ref{9, 0, 7}},
		{"five polygons", []navmesh.Ref{5, 6, 7, 8, 4}, 5, []navmesh.Ref{9, 0, 7, 8, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCorridor(8)
			require.NoError(t, err)
			c.Reset(tt.path[0], geom.Vec3{})
			require.NoError(t, c.SetCorridor(geom.Vec3{4, 0, 4}, tt.path))
			c.FixPathStart(9, geom.Vec3{1, 1, 1})
			assert.Equal(t, tt.want, c.Path())
			assert.Equal(t, geom.Vec3{1, 1, 1}, c.Position())
			assert.Equal(t, geom.Vec3{4, 0, 4}, c.Target())
		})
	}
}

func TestCorridorArguments(t *testing.T) {
	for _, n := range []int{-1, 0, 2} {
		_, err := NewCorridor(n)
		assert.ErrorIs(t, err, ErrInvalidParam, "max path %d", n)
	}
	c, err := NewCorridor(3)
	require.NoError(t, err)
	assert.Equal(t, 3, c.MaxPath())
	assert.Zero(t, c.FirstPoly())
	assert.Zero(t, c.LastPoly())

	f := newDungeonFixture(t)
	_, err = c.FindCorners(f.query, make([]query.StraightPathPoint, 4))
	assert.ErrorIs(t, err, ErrInvalidParam, "empty corridor")
	assert.ErrorIs(t, c.MovePosition(f.start, f.query, f.filter), ErrInvalidParam)

	c.Reset(f.startRef, f.start)
	assert.ErrorIs(t, c.SetCorridor(f.end, nil), ErrInvalidParam)
	assert.ErrorIs(t, c.SetCorridor(f.end, f.path), ErrInvalidParam, "longer than the buffer")
	assert.Equal(t, []navmesh.Ref{f.startRef}, c.Path(), "unchanged")
	assert.Equal(t, f.start, c.Target())

	// A move to a non-finite point fails and changes nothing.
	nan := float32(math.NaN())
	assert.Error(t, c.MovePosition(geom.Vec3{nan, 0, 0}, f.query, f.filter))
	assert.Error(t, c.MoveTargetPosition(geom.Vec3{nan, 0, 0}, f.query, f.filter))
	assert.Equal(t, f.start, c.Position())
	assert.Equal(t, f.start, c.Target())

	// Topology needs three polygons.
	changed, err := c.OptimizePathTopology(f.query, f.filter)
	require.NoError(t, err)
	assert.False(t, changed)
	// Visibility towards the position itself does nothing.
	require.NoError(t, c.OptimizePathVisibility(f.start, 18, f.query, f.filter))
	assert.Equal(t, []navmesh.Ref{f.startRef}, c.Path())
}

func TestCorridorDoesNotAllocate(t *testing.T) {
	f := newDungeonFixture(t)
	c := newWalkCorridor(t, f)
	corners := make([]query.StraightPathPoint, 4)
	step := geom.Vec3{0.05, 0, -0.05}
	allocs := testing.AllocsPerRun(50, func() {
		c.Reset(f.startRef, f.start)
		_ = c.SetCorridor(f.end, f.path)
		n, _ := c.FindCorners(f.query, corners)
		_ = c.OptimizePathVisibility(corners[n-1].Pos, 18, f.query, f.filter)
		_ = c.OptimizePathVisibilityAfter(corners[n-1].Pos, 18, 0.3, f.query, f.filter)
		_, _ = c.OptimizePathTopology(f.query, f.filter)
		_ = c.MovePosition(geom.Add(c.Position(), step), f.query, f.filter)
		_ = c.MoveTargetPosition(geom.Add(c.Target(), step), f.query, f.filter)
		c.IsValid(16, f.query, f.filter)
		_ = c.TrimInvalidPath(f.startRef, f.start, f.query, f.filter)
	})
	assert.Zero(t, allocs)
}

func BenchmarkCorridor(b *testing.B) {
	f := newDungeonFixture(b)
	c := newWalkCorridor(b, f)
	corners := make([]query.StraightPathPoint, 4)
	b.Run("FindCorners", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = c.FindCorners(f.query, corners)
		}
	})
	b.Run("OptimizePathVisibility", func(b *testing.B) {
		n, _ := c.FindCorners(f.query, corners)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_ = c.OptimizePathVisibility(corners[n-1].Pos, 18, f.query, f.filter)
		}
	})
	b.Run("OptimizePathTopology", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = c.OptimizePathTopology(f.query, f.filter)
		}
	})
	b.Run("MovePosition", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			c.Reset(f.startRef, f.start)
			_ = c.SetCorridor(f.end, f.path)
			_ = c.MovePosition(geom.Vec3{f.start[0] + 0.1, f.start[1], f.start[2] - 0.1}, f.query, f.filter)
		}
	})
}

// TestCorridorFindCornersRemembersEnds walks a corridor as the crowd does
// (moves onto the surface, a moving target, shortcuts, a new mesh snapshot
// halfway) and checks every FindCorners against the same corridor with
// nothing remembered, which looks both end points up again: the same
// corners to the bit, every step.
func TestCorridorFindCornersRemembersEnds(t *testing.T) {
	f := newDungeonFixture(t)
	c := newWalkCorridor(t, f)
	corners := make([]query.StraightPathPoint, 4)
	fresh := make([]query.StraightPathPoint, 4)
	remembered := 0
	for step := 1; step <= 300; step++ {
		snapshot := f.query.Mesh().Snapshot()
		if c.inside.state == stateOf(f.query) && c.inside.ref == c.FirstPoly() && sameBits(c.inside.pos, c.Position()) {
			remembered++
		}
		forgetful := *c
		forgetful.inside, forgetful.clamped = insidePoint{}, clampedTarget{}
		wn, werr := forgetful.FindCorners(f.query, fresh)
		n, err := c.FindCorners(f.query, corners)
		require.Equal(t, werr, err, "step %d", step)
		require.Equal(t, fresh[:wn], corners[:n], "step %d", step)
		require.NotZero(t, n, "step %d", step)

		require.NoError(t, c.OptimizePathVisibility(corners[n-1].Pos, 18, f.query, f.filter))
		pos := c.Position()
		d := geom.Vec3{corners[0].Pos[0] - pos[0], 0, corners[0].Pos[2] - pos[2]}
		if length := geom.Len(d); length > 0.1 {
			d = geom.Scale(d, 0.1/length)
		}
		require.NoError(t, c.MovePositionToSurface(geom.Add(pos, d), f.query, f.filter))
		if step%50 == 0 {
			// The target slides, or the mesh gets a new snapshot.
			require.NoError(t, c.MoveTargetPosition(geom.Add(c.Target(), geom.Vec3{0.2, 0, 0.1}), f.query, f.filter))
			// Setting a polygon's flags to what they are still publishes a
			// new snapshot.
			first := c.FirstPoly()
			flags, err := f.mesh.PolyFlags(first)
			require.NoError(t, err)
			require.NoError(t, f.mesh.SetPolyFlags(first, flags))
			require.NotSame(t, snapshot, f.mesh.Snapshot())
		}
	}
	assert.Greater(t, remembered, 250, "the moves leave the position inside the first polygon")
}

// TestCorridorOptimizeVisibilityOnePolygon: for a corridor of one polygon,
// OptimizePathVisibility (which casts no ray) leaves what casting the ray
// and merging it would leave.
func TestCorridorOptimizeVisibilityOnePolygon(t *testing.T) {
	f := newDungeonFixture(t)
	c, err := NewCorridor(256)
	require.NoError(t, err)
	shortcut := make([]navmesh.Ref, corridorMaxShortcut)
	for _, next := range []geom.Vec3{f.end, geom.Add(f.start, geom.Vec3{3, 0, -2}), geom.Add(f.start, geom.Vec3{-1, 0, 0.5})} {
		c.Reset(f.startRef, f.start)
		require.NoError(t, c.OptimizePathVisibility(next, 18, f.query, f.filter))
		hit, _, err := f.query.Raycast(f.startRef, f.start, next, f.filter, 0, 0, shortcut)
		require.NoError(t, err)
		path := []navmesh.Ref{f.startRef}
		n := MergeCorridorStartShortcut(path, 1, shortcut[:hit.PathCount])
		assert.Equal(t, path[:n], c.Path())
		assert.Equal(t, f.start, c.Position())
	}
}

// TestCorridorOptimizePathVisibilityAfter loads a corridor with a detour
// (the start polygon, its neighbour 81 and back) that a 5 m ray towards
// the third corner shortcuts, after a ray that a closed filter stopped:
// the next ray is skipped while the agent stands within minMove of where
// that one started and looks at the same corner in the same mesh, and is
// cast otherwise.
func TestCorridorOptimizePathVisibilityAfter(t *testing.T) {
	f := newDungeonFixture(t)
	detour := append([]navmesh.Ref{f.path[0], f.path[0]&^0xfffff | 81}, f.path...)
	closed := query.NewFilter()
	closed.IncludeFlags = 0
	var next geom.Vec3
	prepare := func(t *testing.T) *Corridor {
		c, err := NewCorridor(256)
		require.NoError(t, err)
		c.Reset(f.startRef, f.start)
		require.NoError(t, c.SetCorridor(f.end, detour))
		corners := make([]query.StraightPathPoint, 4)
		n, err := c.FindCorners(f.query, corners)
		require.NoError(t, err)
		require.Equal(t, 3, n)
		next = corners[n-1].Pos
		// A ray the closed filter stops: nothing changes, the ray is recorded.
		require.NoError(t, c.OptimizePathVisibilityAfter(next, 5, 0.5, f.query, closed))
		require.Equal(t, len(detour), c.PathCount())
		return c
	}
	kept, shortcut := len(detour), len(f.path)
	tests := []struct {
		name string
		call func(t *testing.T, c *Corridor) error
		want int
	}{
		{"same place and corner", func(t *testing.T, c *Corridor) error {
			return c.OptimizePathVisibilityAfter(next, 5, 0.5, f.query, f.filter)
		}, kept},
		{"minMove 0", func(t *testing.T, c *Corridor) error {
			return c.OptimizePathVisibilityAfter(next, 5, 0, f.query, f.filter)
		}, shortcut},
		{"every tick", func(t *testing.T, c *Corridor) error {
			return c.OptimizePathVisibility(next, 5, f.query, f.filter)
		}, shortcut},
		{"other corner", func(t *testing.T, c *Corridor) error {
			return c.OptimizePathVisibilityAfter(geom.Add(next, geom.Vec3{0.001, 0, 0}), 5, 0.5, f.query, f.filter)
		}, shortcut},
		// A move would drop the detour; the position is set instead.
		{"moved less", func(t *testing.T, c *Corridor) error {
			c.position = geom.Add(f.start, geom.Vec3{-0.1, 0, 0})
			return c.OptimizePathVisibilityAfter(next, 5, 0.5, f.query, f.filter)
		}, kept},
		{"moved more", func(t *testing.T, c *Corridor) error {
			c.position = geom.Add(f.start, geom.Vec3{-0.1, 0, 0})
			return c.OptimizePathVisibilityAfter(next, 5, 0.05, f.query, f.filter)
		}, shortcut},
		{"reloaded", func(t *testing.T, c *Corridor) error {
			require.NoError(t, c.SetCorridor(f.end, detour))
			return c.OptimizePathVisibilityAfter(next, 5, 0.5, f.query, f.filter)
		}, shortcut},
		{"reset", func(t *testing.T, c *Corridor) error {
			c.Reset(f.startRef, f.start)
			require.NoError(t, c.SetCorridor(f.end, detour))
			return c.OptimizePathVisibilityAfter(next, 5, 0.5, f.query, f.filter)
		}, shortcut},
		{"mesh changed", func(t *testing.T, c *Corridor) error {
			far := f.path[len(f.path)-1]
			flags, err := f.mesh.PolyFlags(far)
			require.NoError(t, err)
			require.NoError(t, f.mesh.SetPolyFlags(far, flags))
			return c.OptimizePathVisibilityAfter(next, 5, 0.5, f.query, f.filter)
		}, shortcut},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := prepare(t)
			require.NoError(t, tt.call(t, c))
			assert.Equal(t, tt.want, c.PathCount())
			if tt.want == shortcut {
				assert.Equal(t, walkPath, polyIndices(c.Path()))
			}
		})
	}

	c := prepare(t)
	for _, bad := range []float32{-1, float32(math.NaN()), float32(math.Inf(1))} {
		assert.ErrorIs(t, c.OptimizePathVisibilityAfter(next, 5, bad, f.query, f.filter), ErrInvalidParam, "%v", bad)
	}
	assert.Equal(t, kept, c.PathCount())
}

// TestCorridorMoveStandingStill moves a corridor to where it stands (as
// a crowd does with an agent that stands still) and compares with the same
// move on a copy that remembers nothing: the same position, path and error,
// whichever move and whether or not the move is skipped.
func TestCorridorMoveStandingStill(t *testing.T) {
	f := newDungeonFixture(t)
	loop := append([]navmesh.Ref{f.path[0], f.path[0]&^0xfffff | 81}, f.path...)
	moves := map[string]func(c *Corridor, pos geom.Vec3) error{
		"move":         func(c *Corridor, pos geom.Vec3) error { return c.MovePosition(pos, f.query, f.filter) },
		"to surface":   func(c *Corridor, pos geom.Vec3) error { return c.MovePositionToSurface(pos, f.query, f.filter) },
		"no farther":   func(c *Corridor, pos geom.Vec3) error { return c.MovePositionNoFarther(pos, f.query, f.filter, true) },
		"nil filter":   func(c *Corridor, pos geom.Vec3) error { return c.MovePosition(pos, f.query, nil) },
		"other filter": func(c *Corridor, pos geom.Vec3) error { return c.MovePosition(pos, f.query, query.NewFilter()) },
	}
	tests := []struct {
		name    string
		path    []navmesh.Ref
		offset  geom.Vec3 // from where the agent stands
		skipped bool
	}{
		{"same point", f.path, geom.Vec3{}, true},
		{"other height", f.path, geom.Vec3{0, 0.7, 0}, true},
		{"NaN height", f.path, geom.Vec3{0, float32(math.NaN()), 0}, false},
		{"moved", f.path, geom.Vec3{0.05, 0, 0}, false},
		{"first polygon again later", loop, geom.Vec3{}, false},
	}
	for _, tt := range tests {
		for name, move := range moves {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				c := newWalkCorridor(t, f)
				require.NoError(t, c.MovePosition(geom.Add(f.start, geom.Vec3{0.3, 0, -0.2}), f.query, f.filter))
				require.NoError(t, c.SetCorridor(f.end, tt.path))
				pos := geom.Add(c.Position(), tt.offset)
				fresh, err := NewCorridor(256)
				require.NoError(t, err)
				fresh.Reset(c.path[0], c.Position())
				require.NoError(t, fresh.SetCorridor(c.Target(), c.Path()))
				require.Equal(t, insidePoint{}, fresh.inside)

				assert.Equal(t, tt.skipped && name != "nil filter", c.standsStill(pos, f.query, filterOf(name, f.filter)))
				gotErr, wantErr := move(c, pos), move(fresh, pos)
				assert.Equal(t, wantErr, gotErr)
				assert.Equal(t, fresh.Position(), c.Position())
				assert.Equal(t, fresh.Path(), c.Path())
			})
		}
	}
}

// filterOf returns the filter TestCorridorMoveStandingStill's move name uses.
func filterOf(name string, filter *query.Filter) *query.Filter {
	switch name {
	case "nil filter":
		return nil
	case "other filter":
		return query.NewFilter()
	}
	return filter
}

// TestCorridorFindCornersMemory asks for the corners twice with a change
// between (or none): the second answer is the remembered one (marked here
// to tell) only while nothing changed, and is always what a corridor that
// remembers nothing finds.
func TestCorridorFindCornersMemory(t *testing.T) {
	f := newDungeonFixture(t)
	marker := query.StraightPathPoint{Pos: geom.Vec3{1, 2, 3}, Ref: 12345}
	tests := []struct {
		name       string
		change     func(t *testing.T, c *Corridor)
		size       int
		remembered bool
	}{
		{"nothing", func(*testing.T, *Corridor) {}, 4, true},
		{"stands still", func(t *testing.T, c *Corridor) {
			require.NoError(t, c.MovePosition(c.Position(), f.query, f.filter))
		}, 4, true},
		{"other buffer", func(*testing.T, *Corridor) {}, 3, false},
		{"moved", func(t *testing.T, c *Corridor) {
			require.NoError(t, c.MovePosition(geom.Add(c.Position(), geom.Vec3{0.2, 0, 0}), f.query, f.filter))
		}, 4, false},
		{"target moved", func(t *testing.T, c *Corridor) {
			require.NoError(t, c.MoveTargetPosition(geom.Add(c.Target(), geom.Vec3{0.2, 0, 0}), f.query, f.filter))
		}, 4, false},
		{"reloaded", func(t *testing.T, c *Corridor) { require.NoError(t, c.SetCorridor(f.end, f.path)) }, 4, false},
		{"start fixed", func(t *testing.T, c *Corridor) { c.FixPathStart(c.FirstPoly(), c.Position()) }, 4, false},
		{"mesh changed", func(t *testing.T, c *Corridor) {
			flags, err := f.mesh.PolyFlags(f.path[3])
			require.NoError(t, err)
			require.NoError(t, f.mesh.SetPolyFlags(f.path[3], flags))
		}, 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newWalkCorridor(t, f)
			require.NoError(t, c.MovePosition(geom.Add(f.start, geom.Vec3{0.3, 0, -0.2}), f.query, f.filter))
			first := make([]query.StraightPathPoint, 4)
			n, err := c.FindCorners(f.query, first)
			require.NoError(t, err)
			require.Equal(t, 3, n)
			c.memo.corners[0] = marker

			tt.change(t, c)
			got := make([]query.StraightPathPoint, tt.size)
			n, err = c.FindCorners(f.query, got)
			require.NoError(t, err)
			if tt.remembered {
				assert.Equal(t, marker, got[0])
				got[0] = first[0]
			}
			fresh, err := NewCorridor(256)
			require.NoError(t, err)
			fresh.Reset(c.FirstPoly(), c.Position())
			require.NoError(t, fresh.SetCorridor(c.Target(), c.Path()))
			want := make([]query.StraightPathPoint, tt.size)
			wantN, err := fresh.FindCorners(f.query, want)
			require.NoError(t, err)
			assert.Equal(t, wantN, n)
			assert.Equal(t, want[:wantN], got[:n])
		})
	}
}

// freshCorners returns the corners a corridor that remembers nothing finds
// at pos with c's path and target.
func freshCorners(t *testing.T, f *dungeonFixture, c *Corridor, pos geom.Vec3, size int) []query.StraightPathPoint {
	t.Helper()
	fresh, err := NewCorridor(256)
	require.NoError(t, err)
	fresh.Reset(c.FirstPoly(), pos)
	require.NoError(t, fresh.SetCorridor(c.Target(), c.Path()))
	want := make([]query.StraightPathPoint, size)
	n, err := fresh.FindCorners(f.query, want)
	require.NoError(t, err)
	return want[:n]
}

// TestCorridorFindCornersAfter asks for the corners with a refresh
// distance, then again after a change: the remembered answer (marked here
// to tell) comes back only after a move shorter than the distance, with the
// first corner more than twice the distance away; any other change, or
// distance 0, searches afresh.
func TestCorridorFindCornersAfter(t *testing.T) {
	f := newDungeonFixture(t)
	step := func(dx, dz float32) func(t *testing.T, c *Corridor) {
		return func(t *testing.T, c *Corridor) {
			require.NoError(t, c.MovePosition(geom.Add(c.Position(), geom.Vec3{dx, 0, dz}), f.query, f.filter))
		}
	}
	tests := []struct {
		name       string
		distance   float32
		change     func(t *testing.T, c *Corridor)
		remembered bool
	}{
		{"moved less than the distance", 0.15, step(0.1, 0), true},
		{"moved farther than the distance", 0.15, step(0.1, 0.12), false},
		{"distance 0", 0, step(0.01, 0), false},
		{"distance NaN", float32(math.NaN()), step(0.01, 0), false},
		{"distance infinite", float32(math.Inf(1)), step(0.01, 0), false},
		{"first corner within twice the distance", 3, step(0.01, 0), false},
		{"target moved", 0.15, func(t *testing.T, c *Corridor) {
			require.NoError(t, c.MoveTargetPosition(geom.Add(c.Target(), geom.Vec3{0.05, 0, 0}), f.query, f.filter))
		}, false},
		{"reloaded", 0.15, func(t *testing.T, c *Corridor) { require.NoError(t, c.SetCorridor(f.end, f.path)) }, false},
		{"mesh changed", 0.15, func(t *testing.T, c *Corridor) {
			flags, err := f.mesh.PolyFlags(f.path[3])
			require.NoError(t, err)
			require.NoError(t, f.mesh.SetPolyFlags(f.path[3], flags))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newWalkCorridor(t, f)
			require.NoError(t, c.MovePosition(geom.Add(f.start, geom.Vec3{0.3, 0, -0.2}), f.query, f.filter))
			first := make([]query.StraightPathPoint, 4)
			n, err := c.FindCornersAfter(f.query, first, tt.distance)
			require.NoError(t, err)
			require.Equal(t, 3, n)
			require.Equal(t, freshCorners(t, f, c, c.Position(), 4), first[:n])
			firstCorner := geom.Dist2D(first[0].Pos, c.Position())
			require.Greater(t, firstCorner, float32(0.3), "the first corner is farther than twice 0.15")
			require.Less(t, firstCorner, float32(6), "and nearer than twice 3")
			// Marked by its polygon only: the memory reads the position.
			marker := first[0]
			marker.Ref = 12345
			c.memo.corners[0] = marker

			tt.change(t, c)
			got := make([]query.StraightPathPoint, 4)
			n, err = c.FindCornersAfter(f.query, got, tt.distance)
			require.NoError(t, err)
			if tt.remembered {
				assert.Equal(t, marker, got[0])
				return
			}
			assert.Equal(t, freshCorners(t, f, c, c.Position(), 4), got[:n])
		})
	}

	_, err := (&Corridor{}).FindCornersAfter(f.query, make([]query.StraightPathPoint, 4), 1)
	assert.ErrorIs(t, err, ErrInvalidParam, "an empty corridor")
	_, err = newWalkCorridor(t, f).FindCornersAfter(nil, make([]query.StraightPathPoint, 4), 1)
	assert.Error(t, err, "no query")
}

// TestCorridorFindCornersAfterWalk walks an agent down its corridor in
// steps of 6 cm with a sideways wobble, asking for its corners with a
// refresh distance of 0.15 at every step. Every answer is what a corridor
// that remembers nothing finds at the position of the last search, which
// lies within the distance, and an answer found elsewhere has the path of
// that search and never its first corner within the distance of the agent;
// the walk reaches the end.
func TestCorridorFindCornersAfterWalk(t *testing.T) {
	f := newDungeonFixture(t)
	const distance = 0.15
	c := newWalkCorridor(t, f)
	corners := make([]query.StraightPathPoint, 4)
	reused, searched := 0, 0
	var pathAtSearch []navmesh.Ref
	for i := 0; i < 2000 && geom.Dist2D(c.Position(), c.Target()) > 0.1; i++ {
		n, err := c.FindCornersAfter(f.query, corners, distance)
		require.NoError(t, err)
		require.Positive(t, n, "step %d", i)
		at := c.memo.pos
		require.Less(t, geom.Dist2D(at, c.Position()), float32(distance), "step %d", i)
		if at != c.Position() {
			reused++
			require.Greater(t, geom.Dist2D(corners[0].Pos, c.Position()), float32(distance), "step %d", i)
			require.Equal(t, pathAtSearch, c.Path(), "step %d: the path is the one searched", i)
		} else {
			searched++
			pathAtSearch = append(pathAtSearch[:0], c.Path()...)
		}
		require.Equal(t, freshCorners(t, f, c, at, 4), corners[:n], "step %d", i)

		// Walk 6 cm towards the first corner, wobbling sideways.
		dir := geom.Sub(corners[0].Pos, c.Position())
		dir[1] = 0
		dist := geom.Len(dir)
		walk := min(dist, 0.06)
		wobble := float32(0.02 * math.Sin(float64(i)))
		next := geom.Add(c.Position(), geom.Vec3{float32(dir[0]/dist*walk) - float32(dir[2]/dist*wobble), 0, float32(dir[2]/dist*walk) + float32(dir[0]/dist*wobble)})
		require.NoError(t, c.MovePosition(next, f.query, f.filter))
	}
	assert.Less(t, geom.Dist2D(c.Position(), c.Target()), float32(0.1), "the walk reaches the target")
	assert.Greater(t, reused, searched, "most steps reuse the corners")
	assert.Positive(t, searched)
	t.Logf("%d steps reused the corners, %d searched", reused, searched)
}
