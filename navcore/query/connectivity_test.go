package query

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// evenPolys passes the polygons with an even index only.
type evenPolys struct{}

func (evenPolys) Passes(ref navmesh.Ref, _ *navmesh.Tile, _ *navmesh.Poly) bool {
	return ref.PolyIndex()%2 == 0
}

func (evenPolys) Cost(a, b geom.Vec3, _, _, _ PolyContext) float32 { return geom.Dist(a, b) }

// nearestInComponentBruteForce looks at every ground polygon of the
// component of start that filter passes.
func nearestInComponentBruteForce(s *navmesh.Snapshot, start navmesh.Ref, pos geom.Vec3, filter *Filter) (navmesh.Ref, float32) {
	conn, component := startComponent(s, start, filter)
	best, bestDist := navmesh.Ref(0), float32(math.MaxFloat32)
	for i := 0; i < s.MaxTiles(); i++ {
		tile := s.Tile(i)
		if tile == nil {
			continue
		}
		for p := range tile.Polys {
			ref := tile.PolyRefBase() | navmesh.Ref(p)
			poly := &tile.Polys[p]
			if poly.Type() != navmesh.PolyTypeGround || conn.Component(ref) != component || !filter.Passes(ref, tile, poly) {
				continue
			}
			closest, _ := tile.ClosestPointOnPoly(poly, pos)
			if d := geom.DistSqr(closest, pos); d < bestDist {
				best, bestDist = ref, d
			}
		}
	}
	return best, bestDist
}

// bakedNavTest loads nav_test baked as one tile with RecastDemo's settings,
// kept in testdata as a file (bake imports query, so query's tests cannot
// import bake; bake's TestQueryFixturesAreFresh keeps the file in step).
func bakedNavTest(t testing.TB) *navmesh.Mesh {
	t.Helper()
	mesh, _, err := navmesh.LoadFile("testdata/nav_test_solo.navmesh")
	require.NoError(t, err)
	return mesh
}

// tiledNavTest loads nav_test baked in tiles of 32 cells (see bakedNavTest).
func tiledNavTest(t testing.TB) *navmesh.Mesh {
	t.Helper()
	mesh, _, err := navmesh.LoadFile("testdata/nav_test_tiled32.navmesh")
	require.NoError(t, err)
	return mesh
}

func TestFindNearestPolyInComponentMatchesBruteForce(t *testing.T) {
	even := NewFilter()
	even.Custom = evenPolys{}
	enabled := NewFilter()
	enabled.ExcludeFlags = 0x10
	doors := testmesh.Dungeon(t)
	tile := doors.Snapshot().Tile(0)
	for p := 0; p < len(tile.Polys); p += 7 {
		require.NoError(t, doors.SetPolyFlags(tile.PolyRefBase()|navmesh.Ref(p), 0x11))
	}
	for _, level := range []struct {
		name string
		mesh *navmesh.Mesh
	}{{"dungeon", testmesh.Dungeon(t)}, {"nav_test", bakedNavTest(t)}, {"nav_test tiled", tiledNavTest(t)}, {"dungeon with doors", doors}} {
		for _, f := range []struct {
			name   string
			filter *Filter
		}{{"all", NewFilter()}, {"even polygons", even}, {"enabled", enabled}} {
			t.Run(level.name+"/"+f.name, func(t *testing.T) {
				q, err := New(level.mesh, 256)
				require.NoError(t, err)
				s := level.mesh.Snapshot()
				var refs []navmesh.Ref
				bmin := geom.Vec3{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
				bmax := geom.Vec3{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
				for i := 0; i < s.MaxTiles(); i++ {
					if tile := s.Tile(i); tile != nil {
						for p := range tile.Polys {
							refs = append(refs, tile.PolyRefBase()|navmesh.Ref(p))
						}
						for a := range 3 {
							bmin[a] = min(bmin[a], tile.Data.Header.BMin[a])
							bmax[a] = max(bmax[a], tile.Data.Header.BMax[a])
						}
					}
				}
				rng := rand.New(rand.NewPCG(4, 2))
				found := 0
				for i := range 400 {
					start := refs[rng.IntN(len(refs))]
					var pos geom.Vec3
					for a := range 3 {
						// Around the level, beyond its edges too.
						span := bmax[a] - bmin[a]
						pos[a] = bmin[a] - float32(span/4) + float32(rng.Float32()*span*1.5)
					}
					got, err := q.FindNearestPolyInComponent(start, pos, f.filter)
					require.NoError(t, err)
					wantRef, wantDist := nearestInComponentBruteForce(s, start, pos, f.filter)
					if wantRef == 0 {
						assert.Zero(t, got.Ref, "case %d", i)
						continue
					}
					found++
					require.NotZero(t, got.Ref, "case %d", i)
					assert.True(t, s.SameComponent(start, got.Ref), "case %d", i)
					assert.Equal(t, wantDist, geom.DistSqr(got.Point, pos), "case %d: %#x vs %#x", i, uint64(got.Ref), uint64(wantRef))
					closest, _, err := q.ClosestPointOnPoly(got.Ref, pos)
					require.NoError(t, err)
					assert.Equal(t, closest, got.Point)
				}
				assert.Greater(t, found, 200)
			})
		}
	}
}

func TestFindNearestPolyInComponentOnTheComponent(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 256)
	require.NoError(t, err)
	filter := NewFilter()
	_, _, _, start, end := walkSetup(t, 2048)
	require.True(t, mesh.Snapshot().SameComponent(start.Ref, end.Ref))
	// A position on the component: the polygon under it, at distance 0.
	got, err := q.FindNearestPolyInComponent(start.Ref, end.Point, filter)
	require.NoError(t, err)
	assert.Equal(t, end.Ref, got.Ref)
	assert.Equal(t, end.Point, got.Point)
	assert.True(t, got.OverPoly)
}

func TestFindNearestPolyInComponentBadInput(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 64)
	require.NoError(t, err)
	s := mesh.Snapshot()
	ref := s.Tile(0).PolyRefBase()
	none := NewFilter()
	none.IncludeFlags = 0

	got, err := q.FindNearestPolyInComponent(ref, geom.Vec3{}, none)
	require.NoError(t, err, "nothing passes: no polygon, no error")
	assert.Zero(t, got.Ref)

	for name, call := range map[string]func() error{
		"zero ref":  func() error { _, err := q.FindNearestPolyInComponent(0, geom.Vec3{}, NewFilter()); return err },
		"stale ref": func() error { _, err := q.FindNearestPolyInComponent(ref+1<<60, geom.Vec3{}, NewFilter()); return err },
		"NaN": func() error {
			_, err := q.FindNearestPolyInComponent(ref, geom.Vec3{float32(math.NaN()), 0, 0}, NewFilter())
			return err
		},
		"infinite": func() error {
			_, err := q.FindNearestPolyInComponent(ref, geom.Vec3{0, float32(math.Inf(1)), 0}, NewFilter())
			return err
		},
		"nil filter": func() error { _, err := q.FindNearestPolyInComponent(ref, geom.Vec3{}, nil); return err },
	} {
		err := call()
		assert.Error(t, err, name)
		if name == "zero ref" || name == "stale ref" {
			assert.ErrorIs(t, err, ErrInvalidRef, name)
		} else {
			assert.ErrorIs(t, err, ErrInvalidParam, name)
		}
	}
}

func TestFindNearestPolyInComponentDoesNotAllocate(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 64)
	require.NoError(t, err)
	s := mesh.Snapshot()
	ref := s.Tile(0).PolyRefBase()
	filter := NewFilter()
	_, err = q.FindNearestPolyInComponent(ref, geom.Vec3{}, filter)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(50, func() {
		_, _ = q.FindNearestPolyInComponent(ref, geom.Vec3{40, 0, 40}, filter)
	})
	assert.Zero(t, allocs)
}

func BenchmarkFindNearestPolyInComponent(b *testing.B) {
	mesh := bakedNavTest(b)
	q, err := New(mesh, 64)
	require.NoError(b, err)
	s := mesh.Snapshot()
	filter := NewFilter()
	rng := rand.New(rand.NewPCG(1, 1))
	random := func() float32 { return rng.Float32() }
	type pair struct {
		start navmesh.Ref
		pos   geom.Vec3
	}
	var pairs []pair
	for len(pairs) < 256 {
		a, err := q.FindRandomPoint(filter, random)
		require.NoError(b, err)
		c, err := q.FindRandomPoint(filter, random)
		require.NoError(b, err)
		if !s.SameComponent(a.Ref, c.Ref) {
			pairs = append(pairs, pair{a.Ref, c.Pos})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		p := pairs[i%len(pairs)]
		if _, err := q.FindNearestPolyInComponent(p.start, p.pos, filter); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOutOfReachMatchesFindPath disables a seeded sixth of the dungeon's
// polygons and checks every ordered pair of polygons: with the filter that
// excludes them, OutOfReach is true exactly when FindPath ends partial,
// but for starts on a disabled polygon, where it falls back to the whole
// tile set's components and may only err towards false.
func TestOutOfReachMatchesFindPath(t *testing.T) {
	const disabled = 0x10
	mesh := testmesh.Dungeon(t)
	tile := mesh.Snapshot().Tile(0)
	rng := rand.New(rand.NewPCG(6, 1))
	for p := range tile.Polys {
		if rng.IntN(6) == 0 {
			require.NoError(t, mesh.SetPolyFlags(tile.PolyRefBase()|navmesh.Ref(p), 1|disabled))
		}
	}
	s := mesh.Snapshot()
	tile = s.Tile(0)
	q, err := New(mesh, 256)
	require.NoError(t, err)
	filter := NewFilter()
	filter.ExcludeFlags = disabled
	custom := NewFilter()
	custom.Custom = evenPolys{}
	conn, err := Components(s, filter)
	require.NoError(t, err)
	assert.Same(t, s.FlagConnectivity(0xffff, disabled), conn)
	conn, err = Components(s, custom)
	require.NoError(t, err)
	assert.Same(t, s.Connectivity(), conn)

	path := make([]navmesh.Ref, 256)
	centre := func(ref navmesh.Ref) geom.Vec3 {
		p, _, err := q.ClosestPointOnPoly(ref, geom.Vec3{})
		require.NoError(t, err)
		return p
	}
	counts := map[string]int{}
	for a := range tile.Polys {
		for b := range tile.Polys {
			start, end := tile.PolyRefBase()|navmesh.Ref(a), tile.PolyRefBase()|navmesh.Ref(b)
			_, status, err := q.FindPath(start, end, centre(start), centre(end), filter, path)
			require.NoError(t, err)
			out := q.OutOfReach(start, end, filter)
			switch {
			case tile.Polys[a].Flags&disabled != 0:
				if out {
					assert.True(t, status.Partial(), "%d -> %d", a, b)
				}
				counts["disabled start"]++
			default:
				assert.Equal(t, status.Partial(), out, "%d -> %d", a, b)
				if out {
					counts["out of reach"]++
				}
			}
			if q.OutOfReach(start, end, custom) {
				assert.False(t, s.SameComponent(start, end))
			}
		}
	}
	t.Logf("%v", counts)
	assert.Greater(t, counts["out of reach"], 2832, "more than the unfiltered components part")

	assert.False(t, q.OutOfReach(0, tile.PolyRefBase(), filter))
	assert.False(t, q.OutOfReach(tile.PolyRefBase(), tile.PolyRefBase(), filter))
	assert.False(t, q.OutOfReach(tile.PolyRefBase(), tile.PolyRefBase()+1<<60, filter), "stale")
	assert.False(t, q.OutOfReach(tile.PolyRefBase(), tile.PolyRefBase()+1, nil))
}
