package query

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// floodComponents labels the polygons of s by flooding their links, each
// link followed both ways, through the polygons pass lets in: a brute-force
// oracle for the components, independent of navmesh.Connectivity. It
// returns the label of every polygon let in (from 1) and the walkable area
// (as polyArea sums it) of the ground polygons of each label that filter
// passes.
func floodComponents(s *navmesh.Snapshot, pass func(navmesh.Ref, *navmesh.Tile, *navmesh.Poly) bool, filter *Filter) (map[navmesh.Ref]int, map[int]float64) {
	neighbours := map[navmesh.Ref][]navmesh.Ref{}
	var order []navmesh.Ref
	for i := 0; i < s.MaxTiles(); i++ {
		tile := s.Tile(i)
		if tile == nil {
			continue
		}
		for p := range tile.Polys {
			ref := tile.PolyRefBase() | navmesh.Ref(p)
			poly := &tile.Polys[p]
			if !pass(ref, tile, poly) {
				continue
			}
			order = append(order, ref)
			for l := poly.FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
				next := tile.Links[l].Ref
				neighbours[ref] = append(neighbours[ref], next)
				neighbours[next] = append(neighbours[next], ref)
			}
		}
	}
	label := map[navmesh.Ref]int{}
	in := map[navmesh.Ref]bool{}
	for _, ref := range order {
		in[ref] = true
	}
	areas := map[int]float64{}
	next := 0
	for _, start := range order {
		if label[start] != 0 {
			continue
		}
		next++
		label[start] = next
		stack := []navmesh.Ref{start}
		for len(stack) > 0 {
			ref := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			tile, poly := s.TileAndPolyUnchecked(ref)
			if poly.Type() == navmesh.PolyTypeGround && filter.Passes(ref, tile, poly) {
				if area := float64(polyArea(tile, poly)); area > 0 {
					areas[next] += area
				}
			}
			for _, n := range neighbours[ref] {
				if in[n] && label[n] == 0 {
					label[n] = next
					stack = append(stack, n)
				}
			}
		}
	}
	return label, areas
}

// largestByFlood returns the ground polygons with an area that filter
// passes in the flood component of largest area (the lowest label on a
// tie).
func largestByFlood(s *navmesh.Snapshot, filter *Filter) map[navmesh.Ref]bool {
	pass := func(_ navmesh.Ref, _ *navmesh.Tile, p *navmesh.Poly) bool {
		return filter.Custom != nil || (p.Flags&filter.IncludeFlags != 0 && p.Flags&filter.ExcludeFlags == 0)
	}
	label, areas := floodComponents(s, pass, filter)
	best := 0
	for l := 1; l <= len(label); l++ {
		if areas[l] > areas[best] {
			best = l
		}
	}
	return componentPolys(s, label, best, filter)
}

// componentPolys returns the ground polygons with an area that filter
// passes under flood label want.
func componentPolys(s *navmesh.Snapshot, label map[navmesh.Ref]int, want int, filter *Filter) map[navmesh.Ref]bool {
	out := map[navmesh.Ref]bool{}
	for ref, l := range label {
		tile, poly := s.TileAndPolyUnchecked(ref)
		if l == want && poly.Type() == navmesh.PolyTypeGround && filter.Passes(ref, tile, poly) && polyArea(tile, poly) > 0 {
			out[ref] = true
		}
	}
	return out
}

// samplerLevels are the meshes the sampler tests run on, with islands
// (wall tops), several tiles and disabled polygons that cut components.
func samplerLevels(t *testing.T) []struct {
	name string
	mesh *navmesh.Mesh
} {
	doors := testmesh.Dungeon(t)
	tile := doors.Snapshot().Tile(0)
	for p := 0; p < len(tile.Polys); p += 5 {
		require.NoError(t, doors.SetPolyFlags(tile.PolyRefBase()|navmesh.Ref(p), 0x11))
	}
	return []struct {
		name string
		mesh *navmesh.Mesh
	}{{"dungeon", testmesh.Dungeon(t)}, {"nav_test", bakedNavTest(t)}, {"nav_test tiled", tiledNavTest(t)}, {"dungeon with doors", doors}}
}

func samplerFilters() []struct {
	name   string
	filter *Filter
} {
	even := NewFilter()
	even.Custom = evenPolys{}
	enabled := NewFilter()
	enabled.ExcludeFlags = 0x10
	return []struct {
		name   string
		filter *Filter
	}{{"all", NewFilter()}, {"enabled", enabled}, {"even polygons", even}}
}

func TestLargestComponentSamplerMatchesFlood(t *testing.T) {
	for _, level := range samplerLevels(t) {
		for _, f := range samplerFilters() {
			t.Run(level.name+"/"+f.name, func(t *testing.T) {
				s := level.mesh.Snapshot()
				want := largestByFlood(s, f.filter)
				require.NotEmpty(t, want)
				sampler, err := LargestComponentSampler(s, f.filter)
				require.NoError(t, err)
				assert.Equal(t, len(want), sampler.Polys())
				var wantArea float64
				for ref := range want {
					assert.True(t, sampler.Contains(ref), "%#x", uint64(ref))
					tile, poly := s.TileAndPolyUnchecked(ref)
					wantArea += float64(polyArea(tile, poly))
				}
				assert.InDelta(t, wantArea/2, float64(sampler.Area()), wantArea*1e-6)

				// Every point lies on a polygon of the component, on its
				// surface, and the polygons are hit in proportion to
				// their area.
				rng := rand.New(rand.NewPCG(7, uint64(len(want))))
				draws := 20000
				if longtest.Race {
					draws = 3000 // the race detector makes each draw ten times slower
				}
				hits := map[navmesh.Ref]int{}
				for range draws {
					point, err := sampler.RandomPoint(rng.Float32)
					require.NoError(t, err)
					require.True(t, want[point.Ref], "%#x outside the largest component", uint64(point.Ref))
					hits[point.Ref]++
					closest, over, err := level.mesh.ClosestPointOnPoly(point.Ref, point.Pos)
					require.NoError(t, err)
					require.True(t, over)
					require.InDelta(t, 0, geom.Dist(closest, point.Pos), 1e-3)
				}
				for ref := range want {
					tile, poly := s.TileAndPolyUnchecked(ref)
					expected := float64(draws) * float64(polyArea(tile, poly)) / wantArea
					if expected >= 20 {
						assert.InDelta(t, expected, float64(hits[ref]), float64(5*math.Sqrt(expected))+1, "%#x", uint64(ref))
					}
				}
			})
		}
	}
}

func TestLargestComponentSamplerSkipsIslands(t *testing.T) {
	// The dungeon has wall tops and other islands that FindRandomPoint
	// lands on; the sampler never does.
	mesh := testmesh.Dungeon(t)
	s := mesh.Snapshot()
	filter := NewFilter()
	conn := s.Connectivity()
	require.Greater(t, conn.ComponentCount(), 1)
	sampler, err := LargestComponentSampler(s, filter)
	require.NoError(t, err)
	q, err := New(mesh, 64)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	islands := 0
	for range 2000 {
		p, err := q.FindRandomPoint(filter, rng.Float32)
		require.NoError(t, err)
		if conn.Component(p.Ref) != sampler.Component() {
			islands++
		}
		point, err := sampler.RandomPoint(rng.Float32)
		require.NoError(t, err)
		assert.Equal(t, sampler.Component(), conn.Component(point.Ref))
	}
	assert.Positive(t, islands, "FindRandomPoint lands on islands")
}

func TestComponentSamplerAtMatchesFlood(t *testing.T) {
	for _, level := range samplerLevels(t) {
		filter := NewFilter()
		filter.ExcludeFlags = 0x10
		s := level.mesh.Snapshot()
		pass := func(_ navmesh.Ref, _ *navmesh.Tile, p *navmesh.Poly) bool {
			return p.Flags&filter.IncludeFlags != 0 && p.Flags&filter.ExcludeFlags == 0
		}
		label, _ := floodComponents(s, pass, filter)
		checked := 0
		for ref, l := range label {
			tile, poly := s.TileAndPolyUnchecked(ref)
			want := componentPolys(s, label, l, filter)
			sampler, err := ComponentSamplerAt(s, filter, ref)
			if len(want) == 0 {
				assert.ErrorIs(t, err, ErrNotFound, "%s: %#x", level.name, uint64(ref))
				continue
			}
			require.NoError(t, err, "%s: %#x", level.name, uint64(ref))
			require.Equal(t, len(want), sampler.Polys(), "%s: %#x", level.name, uint64(ref))
			for w := range want {
				require.True(t, sampler.Contains(w))
			}
			if poly.Type() == navmesh.PolyTypeGround && polyArea(tile, poly) > 0 {
				assert.True(t, sampler.Contains(ref))
			}
			checked++
		}
		assert.Greater(t, checked, 50, level.name)
	}
}

func TestComponentSamplerIsDeterministicAndDoesNotAllocate(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	sampler, err := LargestComponentSampler(mesh.Snapshot(), NewFilter())
	require.NoError(t, err)
	draw := func(seed uint64) []RandomPoint {
		rng := rand.New(rand.NewPCG(seed, 0))
		var out []RandomPoint
		for range 100 {
			p, err := sampler.RandomPoint(rng.Float32)
			require.NoError(t, err)
			out = append(out, p)
		}
		return out
	}
	assert.Equal(t, draw(3), draw(3))
	assert.NotEqual(t, draw(3), draw(4))

	// The extreme draws stay on the component.
	for _, value := range []float32{0, 0.9999999, 1} {
		p, err := sampler.RandomPoint(func() float32 { return value })
		require.NoError(t, err)
		assert.True(t, sampler.Contains(p.Ref), "random %v", value)
	}

	rng := rand.New(rand.NewPCG(5, 0))
	random := rng.Float32
	allocs := testing.AllocsPerRun(1000, func() { _, _ = sampler.RandomPoint(random) })
	assert.Zero(t, allocs)
}

func TestComponentSamplerBadDraws(t *testing.T) {
	sampler, err := LargestComponentSampler(testmesh.Dungeon(t).Snapshot(), NewFilter())
	require.NoError(t, err)
	_, err = sampler.RandomPoint(nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	for _, bad := range []float32{-0.5, 1.5, float32(math.NaN()), float32(math.Inf(1))} {
		_, err := sampler.RandomPoint(func() float32 { return bad })
		assert.ErrorIs(t, err, ErrInvalidParam, "%v", bad)
		assert.ErrorContains(t, err, "want a number in [0, 1)")
	}
}

func TestComponentSamplerBadInput(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	s := mesh.Snapshot()
	none := NewFilter()
	none.IncludeFlags = 0
	ref := s.Tile(0).PolyRefBase()

	_, err := LargestComponentSampler(s, none)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = LargestComponentSampler(s, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, err = LargestComponentSampler(nil, NewFilter())
	assert.ErrorIs(t, err, ErrInvalidParam)

	_, err = ComponentSamplerAt(s, none, ref)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = ComponentSamplerAt(s, NewFilter(), 0)
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, err = ComponentSamplerAt(s, NewFilter(), ref+1<<60)
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, err = ComponentSamplerAt(s, nil, ref)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, err = ComponentSamplerAt(nil, NewFilter(), ref)
	assert.ErrorIs(t, err, ErrInvalidParam)
}

// TestComponentSamplerConcurrentDraws: one sampler, several goroutines each
// with its own random source, the same points as drawn one after the other
// (run it with -race).
func TestComponentSamplerConcurrentDraws(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	sampler, err := LargestComponentSampler(mesh.Snapshot(), NewFilter())
	require.NoError(t, err)
	draw := func(seed uint64) []RandomPoint {
		rng := rand.New(rand.NewPCG(seed, 9))
		out := make([]RandomPoint, 500)
		for i := range out {
			out[i], _ = sampler.RandomPoint(rng.Float32)
		}
		return out
	}
	const goroutines = 4
	want := make([][]RandomPoint, goroutines)
	for g := range want {
		want[g] = draw(uint64(g))
	}
	got := make([][]RandomPoint, goroutines)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = draw(uint64(g))
		}()
	}
	wg.Wait()
	assert.Equal(t, want, got)
}
