package query

import (
	"fmt"
	"slices"
	"sort"

	"github.com/archenav/archenav/navcore/navmesh"
)

// ComponentSampler draws random points spread evenly by area over the
// ground polygons of one connected component of a snapshot (see
// Components): the place to spawn agents and pick their targets so that
// every target is within reach of every start, with no agent left on an
// island such as the top of a wall.
//
// Unlike FindRandomPoint, which picks a tile first with every tile equally
// likely (so small tiles get more than their share, and a pick fails when
// the tile holds no passing polygon), a sampler picks a polygon with
// probability proportional to its area over the whole component, then a
// uniform point in it; it never fails. Building one takes time linear in
// the snapshot's polygons; a draw takes O(log polygons) and allocates
// nothing. A sampler holds its snapshot and never changes, so it is safe
// for concurrent use (with a random func per goroutine); after the mesh
// changes, build a new one for the new snapshot.
type ComponentSampler struct {
	snap      *navmesh.Snapshot
	component uint32
	refs      []navmesh.Ref
	sorted    []navmesh.Ref // refs in increasing order, for Contains
	// cumulative[i] is the area of refs[0..i] (twice the xz area, as
	// polyArea gives it).
	cumulative []float64
}

// LargestComponentSampler returns the sampler of the connected component
// with the largest walkable area: the xz area of the ground polygons
// filter passes (off-mesh connections have none), the lowest component id
// winning a tie. The components are those a path search with filter cannot
// leave (Components): for a flag rule, two points of the sampler are
// joined by a path that filter allows (one way at least, when
// ComponentInfo.OneWay marks the component). With a Custom filter they are
// the components of the whole tile set, and the Custom rule, which the
// sampler also applies to each polygon, may still cut one apart. It returns
// ErrNotFound when no ground polygon passes filter.
func LargestComponentSampler(snap *navmesh.Snapshot, filter *Filter) (*ComponentSampler, error) {
	if snap == nil {
		return nil, fmt.Errorf("query: largest component sampler: nil snapshot: %w", ErrInvalidParam)
	}
	if err := checkFilter(filter); err != nil {
		return nil, fmt.Errorf("query: largest component sampler: %w", err)
	}
	conn := components(snap, filter)
	areas := make([]float64, conn.ComponentCount()+1)
	forEachSamplePoly(snap, conn, filter, func(ref navmesh.Ref, component uint32, area float64) {
		areas[component] += area
	})
	largest := uint32(0)
	for id := 1; id < len(areas); id++ {
		if areas[id] > areas[largest] {
			largest = uint32(id)
		}
	}
	if largest == 0 {
		return nil, fmt.Errorf("query: largest component sampler: no ground polygon with an area passes the filter: %w", ErrNotFound)
	}
	return newComponentSampler(snap, conn, filter, largest), nil
}

// ComponentSamplerAt returns the sampler of the connected component of
// polygon ref (see LargestComponentSampler for the components and the
// filter). It returns ErrInvalidRef for a ref that is not a polygon of snap
// and ErrNotFound when ref's component holds no ground polygon with an
// area that passes filter, ref itself failing filter included.
func ComponentSamplerAt(snap *navmesh.Snapshot, filter *Filter, ref navmesh.Ref) (*ComponentSampler, error) {
	if snap == nil {
		return nil, fmt.Errorf("query: component sampler: nil snapshot: %w", ErrInvalidParam)
	}
	if err := checkFilter(filter); err != nil {
		return nil, fmt.Errorf("query: component sampler: %w", err)
	}
	if err := checkRef(snap, "component sampler: ref", ref); err != nil {
		return nil, err
	}
	conn := components(snap, filter)
	component := conn.Component(ref)
	if component == 0 {
		return nil, fmt.Errorf("query: component sampler: polygon %#x fails the filter: %w", uint64(ref), ErrNotFound)
	}
	s := newComponentSampler(snap, conn, filter, component)
	if len(s.refs) == 0 {
		return nil, fmt.Errorf("query: component sampler: the component of %#x has no ground polygon with an area: %w", uint64(ref), ErrNotFound)
	}
	return s, nil
}

// newComponentSampler collects the polygons of component.
func newComponentSampler(snap *navmesh.Snapshot, conn *navmesh.Connectivity, filter *Filter, component uint32) *ComponentSampler {
	s := &ComponentSampler{snap: snap, component: component}
	var sum float64
	forEachSamplePoly(snap, conn, filter, func(ref navmesh.Ref, c uint32, area float64) {
		if c != component {
			return
		}
		sum += area
		s.refs = append(s.refs, ref)
		s.cumulative = append(s.cumulative, sum)
	})
	s.sorted = slices.Clone(s.refs)
	slices.Sort(s.sorted)
	return s
}

// forEachSamplePoly calls visit with every ground polygon of snap that
// filter passes, has a positive area and a component in conn, in slot
// order.
func forEachSamplePoly(snap *navmesh.Snapshot, conn *navmesh.Connectivity, filter *Filter, visit func(ref navmesh.Ref, component uint32, area float64)) {
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil || tile.Data == nil {
			continue
		}
		base := tile.PolyRefBase()
		for p := range tile.Polys {
			poly := &tile.Polys[p]
			if poly.Type() != navmesh.PolyTypeGround {
				continue
			}
			ref := base | navmesh.Ref(p)
			component := conn.Component(ref)
			if component == 0 || !filter.Passes(ref, tile, poly) {
				continue
			}
			if area := float64(polyArea(tile, poly)); area > 0 {
				visit(ref, component, area)
			}
		}
	}
}

// RandomPoint returns a random point of the component: a polygon picked
// with probability proportional to its area, then a uniform point in it, on
// its detail surface. random must return uniform numbers in [0, 1); it is
// called three times, and the same numbers give the same point. A nil
// random, or one that returns a number outside [0, 1], gives
// ErrInvalidParam.
func (s *ComponentSampler) RandomPoint(random func() float32) (RandomPoint, error) {
	if random == nil {
		return RandomPoint{}, fmt.Errorf("query: component sampler: nil random func: %w", ErrInvalidParam)
	}
	draw := randomDraw{random: random}
	total := s.cumulative[len(s.cumulative)-1]
	target := float64(draw.next()) * total
	i := sort.Search(len(s.cumulative), func(i int) bool { return s.cumulative[i] > target })
	i = min(i, len(s.refs)-1) // random() == 1 or rounding at the top
	ref := s.refs[i]
	tile, poly := s.snap.TileAndPolyUnchecked(ref)
	pos := randomPointInPoly(tile, poly, &draw)
	if err := draw.check("component sampler"); err != nil {
		return RandomPoint{}, err
	}
	return RandomPoint{Ref: ref, Pos: pos}, nil
}

// Component returns the component's id in Components(snapshot, filter).
func (s *ComponentSampler) Component() uint32 { return s.component }

// Polys returns the number of polygons points are drawn from.
func (s *ComponentSampler) Polys() int { return len(s.refs) }

// Area returns the xz area points are drawn from [Units: world units²].
func (s *ComponentSampler) Area() float32 { return float32(s.cumulative[len(s.cumulative)-1] / 2) }

// Contains reports whether points may be drawn on polygon ref.
func (s *ComponentSampler) Contains(ref navmesh.Ref) bool {
	_, found := slices.BinarySearch(s.sorted, ref)
	return found
}

// Snapshot returns the snapshot the sampler draws on.
func (s *ComponentSampler) Snapshot() *navmesh.Snapshot { return s.snap }
