package query

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Filter decides which polygons a query may visit and what it costs to move
// across them (dtQueryFilter). The default behaviour, used when Custom is
// nil, passes a polygon when it has at least one IncludeFlags bit and no
// ExcludeFlags bit, and charges the distance travelled times the area's cost.
//
// Build one with NewFilter: the zero Filter includes no flags, so it passes
// nothing. A Filter may be shared by any number of queries as long as no one
// changes it meanwhile (a sliced path query keeps using it between calls).
type Filter struct {
	// AreaCost is the cost multiplier per area id [Limit: finite, >= 0;
	// A* needs costs >= 1 to stay admissible with its distance heuristic].
	// The queries that charge costs (FindPath, the sliced search, the
	// searches around a circle or shape, Raycast with RaycastUseCosts)
	// refuse a filter with a cost outside the limit with ErrInvalidParam;
	// SetAreaCost refuses it when it is set.
	AreaCost [navmesh.MaxAreas]float32
	// IncludeFlags: a polygon needs at least one of these flags to pass.
	IncludeFlags uint16
	// ExcludeFlags: a polygon with any of these flags fails.
	ExcludeFlags uint16
	// Custom, when not nil, replaces the default pass and cost rules. The
	// default rules are a few bit tests and a multiplication, written out in
	// the hottest loops; Custom costs an interface call per polygon visited.
	// Its costs must be >= 0 and not NaN (+Inf is allowed): a search that
	// meets another cost stops with ErrInvalidParam.
	Custom CustomFilter
}

// NewFilter returns the Detour default filter: every area costs 1, every
// flag is included, none is excluded.
func NewFilter() *Filter {
	f := &Filter{IncludeFlags: 0xffff}
	for i := range f.AreaCost {
		f.AreaCost[i] = 1
	}
	return f
}

// SetAreaCost sets the cost multiplier of area [Limit: 0..63], refusing a
// cost that is NaN, infinite or negative with ErrInvalidParam (and then
// changing nothing).
func (f *Filter) SetAreaCost(area int, cost float32) error {
	if area < 0 || area >= len(f.AreaCost) {
		return fmt.Errorf("query: set area cost: area %d outside 0..%d: %w", area, len(f.AreaCost)-1, ErrInvalidParam)
	}
	if !validCost(cost) {
		return fmt.Errorf("query: set area cost: area %d cost %v, want a finite number >= 0: %w", area, cost, ErrInvalidParam)
	}
	f.AreaCost[area] = cost
	return nil
}

// Validate returns an error wrapping ErrInvalidParam when f is nil or one
// of its area costs is NaN, infinite or negative. A Custom rule's costs are
// checked as the searches meet them.
func (f *Filter) Validate() error {
	if f == nil {
		return fmt.Errorf("query: nil filter: %w", ErrInvalidParam)
	}
	// On the bits, as every path search checks its filter: a float32 is
	// finite and >= 0 when its sign is clear and its exponent not all
	// ones, or when it is -0. Adding 0x00800000 to the bits of a finite
	// cost >= +0 leaves the sign bit clear; a sign bit set before or
	// after (-0 included) sends the filter to the exact check below.
	var bad uint32
	for c := f.AreaCost[:]; len(c) >= 4; c = c[4:] {
		b0, b1, b2, b3 := math.Float32bits(c[0]), math.Float32bits(c[1]), math.Float32bits(c[2]), math.Float32bits(c[3])
		bad |= b0 | (b0 + 0x00800000) | b1 | (b1 + 0x00800000) | b2 | (b2 + 0x00800000) | b3 | (b3 + 0x00800000)
	}
	if bad&0x80000000 == 0 && len(f.AreaCost)%4 == 0 {
		return nil
	}
	for area, cost := range f.AreaCost {
		if b := math.Float32bits(cost); b >= 0x7f800000 && b != 0x80000000 {
			return fmt.Errorf("query: filter AreaCost[%d] %v, want a finite number >= 0: %w", area, cost, ErrInvalidParam)
		}
	}
	return nil
}

// validCost reports whether cost is a finite number >= 0.
func validCost(cost float32) bool { return cost >= 0 && cost <= math.MaxFloat32 }

// PolyContext names one polygon of a step for CustomFilter.Cost: its
// reference, tile and polygon. All fields are zero when there is no such
// polygon (no previous polygon at the start, no next one at the goal).
type PolyContext struct {
	// Ref is the polygon's reference, 0 for none.
	Ref navmesh.Ref
	// Tile is the tile holding it, nil for none.
	Tile *navmesh.Tile
	// Poly is the polygon, nil for none.
	Poly *navmesh.Poly
}

// CustomFilter plugs caller logic into a Filter. Implementations must be
// safe to call from every goroutine that queries with the Filter and must not
// keep the tile or polygon pointers.
type CustomFilter interface {
	// Passes reports whether a query may visit the polygon.
	Passes(ref navmesh.Ref, tile *navmesh.Tile, poly *navmesh.Poly) bool
	// Cost returns the cost of moving from a to b [Units: world units] across
	// cur, having come from prev and going on to next.
	Cost(a, b geom.Vec3, prev, cur, next PolyContext) float32
}

// Passes reports whether poly, polygon ref of tile, may be visited, with
// Custom's rule when it is set (dtQueryFilter::passFilter). A nil poly
// does not pass.
func (f *Filter) Passes(ref navmesh.Ref, tile *navmesh.Tile, poly *navmesh.Poly) bool {
	if poly == nil {
		return false
	}
	if f.Custom != nil {
		return f.customPasses(ref, tile, poly)
	}
	return poly.Flags&f.IncludeFlags != 0 && poly.Flags&f.ExcludeFlags == 0
}

// DefaultPasses is the default pass rule, ignoring Custom: useful for a
// CustomFilter that refines it. A nil poly does not pass.
func (f *Filter) DefaultPasses(poly *navmesh.Poly) bool {
	if poly == nil {
		return false
	}
	return poly.Flags&f.IncludeFlags != 0 && poly.Flags&f.ExcludeFlags == 0
}

// Cost returns the cost of moving from a to b across cur, with Custom's
// rule when it is set.
func (f *Filter) Cost(a, b geom.Vec3, prev, cur, next PolyContext) float32 {
	if f.Custom != nil {
		return f.Custom.Cost(a, b, prev, cur, next)
	}
	return f.DefaultCost(a, b, cur.Poly)
}

// DefaultCost is the default cost rule, ignoring Custom: the distance from
// a to b times the area cost of cur. A nil cur costs 0.
func (f *Filter) DefaultCost(a, b geom.Vec3, cur *navmesh.Poly) float32 {
	if cur == nil {
		return 0
	}
	return dist(a, b) * f.AreaCost[cur.AreaAndType&0x3f]
}

//go:noinline
func (f *Filter) customPasses(ref navmesh.Ref, tile *navmesh.Tile, poly *navmesh.Poly) bool {
	return f.Custom.Passes(ref, tile, poly)
}

// cost is Cost for the search loops, with the polygons of a step unpacked.
func (f *Filter) cost(a, b *geom.Vec3,
	prevRef navmesh.Ref, prevTile *navmesh.Tile, prevPoly *navmesh.Poly,
	curRef navmesh.Ref, curTile *navmesh.Tile, curPoly *navmesh.Poly,
	nextRef navmesh.Ref, nextTile *navmesh.Tile, nextPoly *navmesh.Poly) float32 {
	if f.Custom != nil {
		return f.customCost(a, b, prevRef, prevTile, prevPoly, curRef, curTile, curPoly, nextRef, nextTile, nextPoly)
	}
	dx := b[0] - a[0]
	dy := b[1] - a[1]
	dz := b[2] - a[2]
	return geom.Sqrt(float32(dx*dx)+float32(dy*dy)+float32(dz*dz)) * offMeshAreaCost(f, curTile, curPoly)
}

// offMeshAreaCost is the default rules' cost per unit of length across
// poly of tile: its area's cost, or a runtime link's own Cost
// (navmesh.LinkDesc.Cost) when it has one.
func offMeshAreaCost(f *Filter, tile *navmesh.Tile, poly *navmesh.Poly) float32 {
	areaCost := f.AreaCost[poly.AreaAndType&0x3f]
	if poly.Type() == navmesh.PolyTypeOffMeshConnection {
		return tile.OffMeshAreaCost(areaCost)
	}
	return areaCost
}

//go:noinline
func (f *Filter) customCost(a, b *geom.Vec3,
	prevRef navmesh.Ref, prevTile *navmesh.Tile, prevPoly *navmesh.Poly,
	curRef navmesh.Ref, curTile *navmesh.Tile, curPoly *navmesh.Poly,
	nextRef navmesh.Ref, nextTile *navmesh.Tile, nextPoly *navmesh.Poly) float32 {
	return f.Custom.Cost(*a, *b,
		PolyContext{prevRef, prevTile, prevPoly},
		PolyContext{curRef, curTile, curPoly},
		PolyContext{nextRef, nextTile, nextPoly})
}

// dist is dtVdist.
func dist(a, b geom.Vec3) float32 {
	dx := b[0] - a[0]
	dy := b[1] - a[1]
	dz := b[2] - a[2]
	return geom.Sqrt(float32(dx*dx) + float32(dy*dy) + float32(dz*dz))
}
