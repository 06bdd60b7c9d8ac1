package query

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// polyBatchSize is how many polygons a box query hands over at a time.
const polyBatchSize = 32

// maxTileCells bounds how many tile-grid cells a box query walks cell by
// cell; a larger box walks the loaded tiles instead.
const maxTileCells = 1 << 12

// NearestPoly is the answer of FindNearestPoly.
type NearestPoly struct {
	// Ref is the nearest polygon, 0 when no polygon touches the search box.
	Ref navmesh.Ref
	// Point is the point of that polygon closest to the search center.
	Point geom.Vec3
	// OverPoly reports whether the center lies over the polygon, seen from
	// above: inside it or on its edge. (Detour's findNearestPoly says false
	// for a center on an edge the polygon shares with no other, such as a
	// wall: its point-in-polygon test leaves edges out.)
	OverPoly bool
}

// FindNearestPoly returns the polygon nearest to center among those whose
// bounds overlap the box center ± halfExtents and that filter passes
// (dtNavMeshQuery::findNearestPoly). A polygon the center lies over counts as
// at distance 0 when the height difference is within the tile's walkable
// climb. No polygon in the box is not an error: Ref is then 0.
//
// halfExtents [Limit: each component > 0] [Units: world units]
func (q *Query) FindNearestPoly(center, halfExtents geom.Vec3, filter *Filter) (nearest NearestPoly, err error) {
	snap := q.mesh.Snapshot()
	if err := checkBox(center, halfExtents, filter); err != nil {
		return NearestPoly{}, fmt.Errorf("query: find nearest poly: %w", err)
	}
	// point and overPoly are written with every ref, so only these need
	// resetting (cheaper than writing the whole collector). The points move
	// one component at a time: copied whole, a point read back in one
	// 8-byte move from two 4-byte stores just made waits for them (a
	// store-forwarding stall).
	c := &q.nearest
	c.center.X, c.center.Y, c.center.Z = center[0], center[1], center[2]
	c.distSqr, c.ref = math.MaxFloat32, 0
	q.queryPolygons(snap, center, halfExtents, filter, c.process)
	if c.ref == 0 {
		return NearestPoly{}, nil
	}
	nearest.Ref = c.ref
	nearest.Point[0], nearest.Point[1], nearest.Point[2] = c.point.X, c.point.Y, c.point.Z
	nearest.OverPoly = c.overPoly || onEdgeXZ(c.center, c.point)
	return nearest, nil
}

// onEdgeXZ reports whether closest, the point of a polygon nearest to
// center (not inside it), is center itself seen from above, to within
// rounding: center lies on the polygon's edge.
func onEdgeXZ(center, closest fastgeom.Point) bool {
	scale := max(1, geom.Abs(center.X), geom.Abs(center.Z))
	tolerance := edgeTolerance * scale
	dx, dz := closest.X-center.X, closest.Z-center.Z
	return float32(dx*dx)+float32(dz*dz) <= tolerance*tolerance
}

// edgeTolerance is how far, relative to the coordinates (at least 1), a
// point may lie from a polygon's edge seen from above and count as on it:
// a few float32 roundings.
const edgeTolerance = float32(4e-7)

// nearestCollector keeps the nearest polygon seen so far. Its points are
// fastgeom points, which NearestAmongPoint takes and returns in registers.
type nearestCollector struct {
	center   fastgeom.Point
	distSqr  float32
	ref      navmesh.Ref
	point    fastgeom.Point
	overPoly bool
}

func (c *nearestCollector) process(tile *navmesh.Tile, refs []navmesh.Ref) {
	if ref, closest, over, d := tile.NearestAmongPoint(c.center, refs); d < c.distSqr {
		c.point = closest
		c.distSqr = d
		c.ref = ref
		c.overPoly = over
	}
}

// QueryPolygons writes into polys the polygons whose bounds overlap the box
// center ± halfExtents and that filter passes, and returns how many it wrote
// (dtNavMeshQuery::queryPolygons). When more polygons qualify than polys
// holds, the first len(polys) are kept and the status has
// StatusBufferTooSmall.
//
// halfExtents [Limit: each component > 0] [Units: world units]
func (q *Query) QueryPolygons(center, halfExtents geom.Vec3, filter *Filter, polys []navmesh.Ref) (int, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkBox(center, halfExtents, filter); err != nil {
		return 0, 0, fmt.Errorf("query: query polygons: %w", err)
	}
	q.collect = polyCollector{dst: polys}
	q.queryPolygons(snap, center, halfExtents, filter, q.collect.process)
	var status Status
	if q.collect.overflow {
		status = StatusBufferTooSmall
	}
	n := q.collect.n
	q.collect = polyCollector{}
	return n, status, nil
}

// polyCollector copies polygon refs into a caller buffer.
type polyCollector struct {
	dst      []navmesh.Ref
	n        int
	overflow bool
}

func (c *polyCollector) process(_ *navmesh.Tile, refs []navmesh.Ref) {
	copied := copy(c.dst[c.n:], refs)
	if copied < len(refs) {
		c.overflow = true
	}
	c.n += copied
}

// QueryPolygonsFunc calls visit with the polygons whose bounds overlap the
// box center ± halfExtents and that filter passes, in batches of at most 32
// polygons of one tile. refs is only valid during the call. visit must not
// call the Query.
//
// halfExtents [Limit: each component > 0] [Units: world units]
func (q *Query) QueryPolygonsFunc(center, halfExtents geom.Vec3, filter *Filter, visit func(tile *navmesh.Tile, refs []navmesh.Ref)) error {
	snap := q.mesh.Snapshot()
	if err := checkBox(center, halfExtents, filter); err != nil {
		return fmt.Errorf("query: query polygons: %w", err)
	}
	if visit == nil {
		return fmt.Errorf("query: query polygons: nil visit func: %w", ErrInvalidParam)
	}
	q.queryPolygons(snap, center, halfExtents, filter, visit)
	return nil
}

// checkBox validates the arguments of a box query.
func checkBox(center, halfExtents geom.Vec3, filter *Filter) error {
	if !geom.IsFinite(center) {
		return checkPos("center", center) // only here: checkPos is too big to inline
	}
	if !geom.IsFinite(halfExtents) || !(halfExtents[0] > 0 && halfExtents[1] > 0 && halfExtents[2] > 0) {
		return fmt.Errorf("query: half extents %v must be finite and positive: %w", halfExtents, ErrInvalidParam)
	}
	return checkFilter(filter)
}

// queryPolygons walks the tiles under the box center ± halfExtents, row by
// row, and hands each tile's passing polygons to visit.
//
// The box is kept in fastgeom points down to the BV tree walk: built as a
// geom.Vec3 in memory and handed on at once, it cost a store-forwarding
// stall a call.
func (q *Query) queryPolygons(snap *navmesh.Snapshot, center, halfExtents geom.Vec3, filter *Filter, visit func(tile *navmesh.Tile, refs []navmesh.Ref)) {
	bmin := fastgeom.Point{X: center[0] - halfExtents[0], Y: center[1] - halfExtents[1], Z: center[2] - halfExtents[2]}
	bmax := fastgeom.Point{X: center[0] + halfExtents[0], Y: center[1] + halfExtents[1], Z: center[2] + halfExtents[2]}
	minX, minY := snap.TileLocXZ(bmin.X, bmin.Z)
	maxX, maxY := snap.TileLocXZ(bmax.X, bmax.Z)

	// The locations are int32's range, so the box's width in cells is
	// counted in int64 (an int overflows on 32-bit CPUs), and the walk
	// counts cells rather than stepping to maxX, where x++ wraps there.
	width, height := int64(maxX)-int64(minX)+1, int64(maxY)-int64(minY)+1
	if width > maxTileCells || height > maxTileCells || width*height > maxTileCells {
		q.queryPolygonsWideBox(snap, minX, minY, maxX, maxY, bmin, bmax, filter, visit)
		return
	}
	for dy := range int(height) {
		for dx := range int(width) {
			q.tiles = snap.TilesAt(minX+dx, minY+dy, q.tiles[:0])
			for _, tile := range q.tiles {
				q.queryPolygonsInTile(tile, bmin, bmax, filter, visit)
			}
			// Cleared cell by cell: a cell with fewer layers than the
			// one before would leave its tiles beyond the length, kept
			// alive after the mesh replaced them. (A loop: clear calls
			// the runtime, which costs more than the one or two tiles; so
			// does the forward loop, which the compiler turns into clear.)
			for i := len(q.tiles) - 1; i >= 0; i-- {
				q.tiles[i] = nil
			}
		}
	}
}

// tileCell is a tile-grid cell.
type tileCell struct{ x, y int }

// queryPolygonsWideBox visits the same tiles in the same order as the cell
// walk of queryPolygons, for a box spanning too many cells to walk: it looks
// at the loaded tiles instead.
func (q *Query) queryPolygonsWideBox(snap *navmesh.Snapshot, minX, minY, maxX, maxY int, bmin, bmax fastgeom.Point, filter *Filter, visit func(tile *navmesh.Tile, refs []navmesh.Ref)) {
	cells := q.cells[:0]
	for tile := snap.NextTile(0); tile != nil; tile = snap.NextTile(tile.Index() + 1) {
		x, y := int(tile.Data.Header.X), int(tile.Data.Header.Y)
		if x >= minX && x <= maxX && y >= minY && y <= maxY {
			cells = append(cells, tileCell{x, y})
		}
	}
	slices.SortFunc(cells, func(a, b tileCell) int {
		if a.y != b.y {
			return cmp.Compare(a.y, b.y)
		}
		return cmp.Compare(a.x, b.x)
	})
	cells = slices.Compact(cells)
	for _, c := range cells {
		q.tiles = snap.TilesAt(c.x, c.y, q.tiles[:0])
		for _, tile := range q.tiles {
			q.queryPolygonsInTile(tile, bmin, bmax, filter, visit)
		}
		clear(q.tiles)
	}
	q.cells = cells[:0]
}

// queryPolygonsInTile hands visit the polygons of tile that overlap
// [qmin, qmax] and pass filter, using the tile's BV tree when it has one
// (dtNavMeshQuery::queryPolygonsInTile).
func (q *Query) queryPolygonsInTile(tile *navmesh.Tile, qmin, qmax fastgeom.Point, filter *Filter, visit func(tile *navmesh.Tile, refs []navmesh.Ref)) {
	if len(tile.Data.BVTree) > 0 {
		q.queryBVTree(tile, qmin, qmax, filter, visit)
		return
	}
	qminVec, qmaxVec := qmin.Vec3(), qmax.Vec3()
	batch := &q.polyBatch
	n := 0
	base := tile.PolyRefBase()
	for i := range tile.Polys {
		poly := &tile.Polys[i]
		if poly.Type() == navmesh.PolyTypeOffMeshConnection {
			continue
		}
		ref := base | navmesh.Ref(i)
		if !filter.Passes(ref, tile, poly) {
			continue
		}
		bmin := tile.Verts[poly.Verts[0]]
		bmax := bmin
		for j := 1; j < int(poly.VertCount); j++ {
			v := tile.Verts[poly.Verts[j]]
			bmin = geom.Min(bmin, v)
			bmax = geom.Max(bmax, v)
		}
		if geom.OverlapBounds(qminVec, qmaxVec, bmin, bmax) {
			n = batchRef(batch, n, ref, tile, visit)
		}
	}
	if n > 0 {
		visit(tile, batch[:n])
	}
}

// queryBVTree is queryPolygonsInTile on a tile with a BV tree: the walk
// down the tree's nodes that overlap the box, whose quantised bounds it
// compares with the box's. walkBVTree does the walk, a batch at a time, so
// that its loop keeps its state in registers (with the calls to visit in
// the same loop, the compiler kept the node index and the batch count on
// the stack, a store and a load on every node).
func (q *Query) queryBVTree(tile *navmesh.Tile, qmin, qmax fastgeom.Point, filter *Filter, visit func(tile *navmesh.Tile, refs []navmesh.Ref)) {
	header := &tile.Data.Header
	tbmin, tbmax := &header.BMin, &header.BMax
	qfac := header.BVQuantFactor
	// Clamp the query box to the tile and quantise it; min rounds down to
	// even, max up to odd, as the tree's own bounds were.
	minx := geom.Clamp(qmin.X, tbmin[0], tbmax[0]) - tbmin[0]
	miny := geom.Clamp(qmin.Y, tbmin[1], tbmax[1]) - tbmin[1]
	minz := geom.Clamp(qmin.Z, tbmin[2], tbmax[2]) - tbmin[2]
	maxx := geom.Clamp(qmax.X, tbmin[0], tbmax[0]) - tbmin[0]
	maxy := geom.Clamp(qmax.Y, tbmin[1], tbmax[1]) - tbmin[1]
	maxz := geom.Clamp(qmax.Z, tbmin[2], tbmax[2]) - tbmin[2]
	// Field by field: a composite literal is built in a temporary and
	// copied in 16-byte moves, which stall on the 4-byte stores before them.
	var box bvBox
	box.minX = int32(quantize(qfac*minx) & 0xfffe)
	box.minY = int32(quantize(qfac*miny) & 0xfffe)
	box.minZ = int32(quantize(qfac*minz) & 0xfffe)
	box.maxX = int32(quantize(float32(qfac*maxx)+1) | 1)
	box.maxY = int32(quantize(float32(qfac*maxy)+1) | 1)
	box.maxZ = int32(quantize(float32(qfac*maxz)+1) | 1)
	tree := tile.Data.BVTree
	polys := tile.Polys
	base := tile.PolyRefBase()
	batch := &q.polyBatch
	if filter.Custom == nil {
		box.include, box.exclude = filter.IncludeFlags, filter.ExcludeFlags
		for i := 0; i < len(tree); {
			var n int
			i, n = walkBVTree(tree, polys, i, &box, base, batch)
			if n > 0 {
				visit(tile, batch[:n])
			}
		}
		return
	}
	// A custom filter: the walk gathers the overlapping polygons, in the
	// tree's order, and the filter picks among them.
	box.include, box.any = allFlags, allFlags
	var candidates [polyBatchSize]navmesh.Ref
	n := 0
	for i := 0; i < len(tree); {
		var count int
		i, count = walkBVTree(tree, polys, i, &box, base, &candidates)
		for _, ref := range candidates[:count] {
			if filter.customPasses(ref, tile, &polys[ref.PolyIndex()]) {
				n = batchRef(batch, n, ref, tile, visit)
			}
		}
	}
	if n > 0 {
		visit(tile, batch[:n])
	}
}

// batchRef puts ref after the n refs of batch and hands a full batch of
// tile's polygons to visit; it returns the new count. It is small enough to
// inline.
func batchRef(batch *[polyBatchSize]navmesh.Ref, n int, ref navmesh.Ref, tile *navmesh.Tile, visit func(tile *navmesh.Tile, refs []navmesh.Ref)) int {
	batch[n] = ref
	n++
	if n == polyBatchSize {
		visit(tile, batch[:])
		n = 0
	}
	return n
}

// allFlags is every polygon flag set.
const allFlags = 0xffff

// bvBox is what walkBVTree compares a BV tree's nodes with: a query box in
// the tree's quantised units, and the flag filter a polygon must pass.
type bvBox struct {
	minX, minY, minZ, maxX, maxY, maxZ int32
	// include and exclude are Filter.IncludeFlags and ExcludeFlags.
	include, exclude uint16
	// any is ORed into each polygon's flags before they are tested:
	// allFlags (with include allFlags and exclude 0) passes every polygon.
	any uint16
}

// walkBVTree walks tree from node i, as dtNavMeshQuery::queryPolygonsInTile
// does, and writes into batch the refs of the leaves that overlap box and
// whose polygon passes its flags, until batch is full or the tree ends. It
// returns the node to go on from (len(tree) at the end) and how many refs
// it wrote. The overlap test takes no branch: each difference below is
// negative where the box misses the node along one axis (Detour's
// dtOverlapQuantBounds), so their OR is negative when the box misses it
// along any; the node's Index is negative for an inner node, so one sign
// test tells an overlapped leaf, and another a missed subtree to skip.
func walkBVTree(tree []navmesh.BVNode, polys []navmesh.Poly, i int, box *bvBox, base navmesh.Ref, batch *[polyBatchSize]navmesh.Ref) (next, n int) {
	for i < len(tree) {
		nd := &tree[i]
		miss := (int32(nd.BMax[0]) - box.minX) | (box.maxX - int32(nd.BMin[0])) |
			(int32(nd.BMax[1]) - box.minY) | (box.maxY - int32(nd.BMin[1])) |
			(int32(nd.BMax[2]) - box.minZ) | (box.maxZ - int32(nd.BMin[2]))
		index := nd.Index
		// A branch, not a data dependency: predicted, it lets the next
		// node's loads start before this node's are in (computed without
		// one, the walk ran about 1.5 times as long).
		next := i + 1
		if miss&index < 0 {
			// An inner node the box misses: skip its subtree.
			next = i - int(index)
		}
		if miss|index >= 0 {
			// A leaf the box overlaps.
			flags := polys[index].Flags | box.any
			if flags&box.include != 0 && flags&box.exclude == 0 {
				batch[n] = base | navmesh.Ref(index)
				n++
				if n == len(batch) {
					return next, n
				}
			}
		}
		i = next
	}
	return i, n
}

// quantize is the C++ (unsigned short) conversion of a non-negative float:
// truncation, wrapping modulo 2^16 like the x86 conversion through int.
func quantize(f float32) uint16 {
	return uint16(int32(f))
}
