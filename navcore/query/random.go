package query

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// RandomPoint is the answer of the random point queries.
type RandomPoint struct {
	// Ref is the polygon the point lies on.
	Ref navmesh.Ref
	// Pos is the point, on the detail surface [Units: world units]
	Pos geom.Vec3
}

// FindRandomPoint picks a random point on the ground polygons filter passes
// (dtNavMeshQuery::findRandomPoint): a tile uniformly among the loaded
// tiles, a polygon of it with probability proportional to its area, and a
// uniform point in that polygon. random must return uniform numbers in
// [0, 1) (1 itself is accepted too, as float32(rand.Float64()) can round
// to it); the same sequence gives the same point as Detour. A draw outside
// [0, 1] (negative, above 1, NaN) is an error wrapping ErrInvalidParam, never
// a point off the mesh. ErrNotFound reports that the chosen tile has no
// polygon filter passes.
func (q *Query) FindRandomPoint(filter *Filter, random func() float32) (RandomPoint, error) {
	if err := checkFilter(filter); err != nil {
		return RandomPoint{}, err
	}
	if random == nil {
		return RandomPoint{}, fmt.Errorf("query: find random point: nil random func: %w", ErrInvalidParam)
	}
	snap := q.mesh.Snapshot()
	draw := randomDraw{random: random}

	// Reservoir-sample one tile, all tiles weighing the same.
	var tile *navmesh.Tile
	var tileSum float32
	for t := snap.NextTile(0); t != nil; t = snap.NextTile(t.Index() + 1) {
		if t.IsLink() {
			continue // no ground
		}
		const area = 1
		tileSum += area
		if draw.next()*tileSum <= area {
			tile = t
		}
	}
	if err := draw.check("find random point"); err != nil {
		return RandomPoint{}, err
	}
	if tile == nil {
		return RandomPoint{}, fmt.Errorf("query: find random point: no tiles: %w", ErrNotFound)
	}

	// Reservoir-sample one polygon, weighed by area.
	var poly *navmesh.Poly
	var polyRef navmesh.Ref
	base := tile.PolyRefBase()
	var areaSum float32
	for i := range tile.Polys {
		p := &tile.Polys[i]
		if p.Type() != navmesh.PolyTypeGround {
			continue
		}
		ref := base | navmesh.Ref(i)
		if !filter.Passes(ref, tile, p) {
			continue
		}
		area := polyArea(tile, p)
		areaSum += area
		if draw.next()*areaSum <= area {
			poly = p
			polyRef = ref
		}
	}
	if err := draw.check("find random point"); err != nil {
		return RandomPoint{}, err
	}
	if poly == nil {
		return RandomPoint{}, fmt.Errorf("query: find random point: no polygon passes the filter: %w", ErrNotFound)
	}
	pos := randomPointInPoly(tile, poly, &draw)
	if err := draw.check("find random point"); err != nil {
		return RandomPoint{}, err
	}
	return RandomPoint{Ref: polyRef, Pos: pos}, nil
}

// FindRandomPointAroundCircle picks a random point on the ground polygons
// reachable from startRef, through portals within maxRadius of center, that
// filter passes (dtNavMeshQuery::findRandomPointAroundCircle). Polygons are
// weighed by area; a polygon only partly inside the circle counts whole, so
// the point can lie outside the circle. random must return uniform numbers
// in [0, 1) (1 is accepted); a draw outside [0, 1] is an error wrapping
// ErrInvalidParam, as for FindRandomPoint.
//
// maxRadius [Limit: >= 0] [Units: world units]
func (q *Query) FindRandomPointAroundCircle(startRef navmesh.Ref, center geom.Vec3, maxRadius float32, filter *Filter, random func() float32) (RandomPoint, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find random point around circle: start ref", startRef); err != nil {
		return RandomPoint{}, 0, err
	}
	if err := checkPos("find random point around circle: center", center); err != nil {
		return RandomPoint{}, 0, err
	}
	if err := checkRadius("find random point around circle: radius", maxRadius); err != nil {
		return RandomPoint{}, 0, err
	}
	if err := checkFilter(filter); err != nil {
		return RandomPoint{}, 0, err
	}
	if random == nil {
		return RandomPoint{}, 0, fmt.Errorf("query: find random point around circle: nil random func: %w", ErrInvalidParam)
	}
	startTile, startPoly := snap.TileAndPolyUnchecked(startRef)
	if !filter.Passes(startRef, startTile, startPoly) {
		return RandomPoint{}, 0, fmt.Errorf("query: find random point around circle: start polygon fails the filter: %w", ErrInvalidParam)
	}

	pool := q.nodes
	open := q.open
	q.startSearch(startRef, center, 0)
	draw := randomDraw{random: random}

	var status Status
	radiusSqr := maxRadius * maxRadius
	var areaSum float32
	var randomTile *navmesh.Tile
	var randomPoly *navmesh.Poly
	var randomRef navmesh.Ref

	for !open.empty() {
		bestNode := open.closeCheapest()

		bestRef := bestNode.ref
		bestTile, bestPoly := snap.TileAndPolyUnchecked(bestRef)

		// Reservoir-sample the ground polygons by area.
		if bestPoly.Type() == navmesh.PolyTypeGround {
			area := polyArea(bestTile, bestPoly)
			areaSum += area
			if draw.next()*areaSum <= area {
				randomTile = bestTile
				randomPoly = bestPoly
				randomRef = bestRef
			}
		}

		parentRef := pool.refAt(bestNode.parent)

		links := bestTile.Links
		for i := bestPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
			neighbourRef := links[i].Ref
			if neighbourRef == 0 || neighbourRef == parentRef {
				continue
			}
			neighbourTile, neighbourPoly := snap.TileAndPolyUnchecked(neighbourRef)
			if !filter.Passes(neighbourRef, neighbourTile, neighbourPoly) {
				continue
			}
			va, vb, ok := portalPoints(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile)
			if !ok {
				continue
			}
			if d, _ := geom.DistancePtSegSqr2D(center, va, vb); d > radiusSqr {
				continue
			}
			neighbourNode := pool.get(neighbourRef, 0)
			if neighbourNode == nil {
				status |= StatusOutOfNodes
				continue
			}
			if neighbourNode.flags&nodeClosed != 0 {
				continue
			}
			if neighbourNode.flags == 0 {
				neighbourNode.pos = lerp(va, vb, 0.5)
			}
			total := bestNode.total + dist(bestNode.pos, neighbourNode.pos)
			q.reachAtTotal(neighbourNode, bestNode, total)
		}
	}

	if err := draw.check("find random point around circle"); err != nil {
		return RandomPoint{}, 0, err
	}
	if randomPoly == nil {
		return RandomPoint{}, status, fmt.Errorf("query: find random point around circle: no ground polygon reached: %w", ErrNotFound)
	}
	pos := randomPointInPoly(randomTile, randomPoly, &draw)
	if err := draw.check("find random point around circle"); err != nil {
		return RandomPoint{}, 0, err
	}
	return RandomPoint{Ref: randomRef, Pos: pos}, status, nil
}

// randomDraw calls a caller's random function and remembers the first value
// outside [0, 1], which would put a point off its polygon or make it NaN. A
// bad value is replaced by 0 so the search runs on harmlessly to the check.
type randomDraw struct {
	random func() float32
	bad    float32
	failed bool
}

func (d *randomDraw) next() float32 {
	v := d.random()
	if v >= 0 && v <= 1 {
		return v
	}
	if !d.failed {
		d.bad, d.failed = v, true
	}
	return 0
}

// check returns an error wrapping ErrInvalidParam when a draw was bad.
func (d *randomDraw) check(what string) error {
	if !d.failed {
		return nil
	}
	return fmt.Errorf("query: %s: random func returned %v, want a number in [0, 1): %w", what, d.bad, ErrInvalidParam)
}

// polyArea returns twice the xz-plane area of a polygon, summed over its
// fan triangles as Detour does.
func polyArea(tile *navmesh.Tile, poly *navmesh.Poly) float32 {
	var area float32
	va := tile.Verts[poly.Verts[0]]
	for j := 2; j < int(poly.VertCount); j++ {
		vb := tile.Verts[poly.Verts[j-1]]
		vc := tile.Verts[poly.Verts[j]]
		area += geom.TriArea2D(va, vb, vc)
	}
	return area
}

// randomPointInPoly picks a uniform point in poly with two numbers from
// draw and puts it on the detail surface.
func randomPointInPoly(tile *navmesh.Tile, poly *navmesh.Poly, draw *randomDraw) geom.Vec3 {
	var verts [navmesh.MaxVertsPerPoly]geom.Vec3
	var areas [navmesh.MaxVertsPerPoly]float32
	nv := int(poly.VertCount)
	for j := 0; j < nv; j++ {
		verts[j] = tile.Verts[poly.Verts[j]]
	}
	s := draw.next()
	t := draw.next()
	pt := geom.RandomPointInConvexPoly(verts[:nv], areas[:nv], s, t)
	closest, _ := tile.ClosestPointOnPoly(poly, pt)
	return closest
}
