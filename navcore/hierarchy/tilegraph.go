package hierarchy

import (
	"cmp"
	"math"
	"slices"
	"unsafe"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// tileGraph is the bottom level of a hierarchy for one tile version: the
// tile's ports (groups of the links that leave the tile, on one border,
// towards one neighbour tile, from polygons the cost model passes that are
// joined inside the tile) and the cheapest cost between every two ports
// through the tile. It depends on nothing but that version and the cost
// model, so it is kept for as long as the version lives in the mesh, and
// never changes.
type tileGraph struct {
	// tile is the version the graph describes: its identity.
	tile *navmesh.Tile
	// ports come boundary ports first: those leading into another
	// cluster, the nodes of the cluster level.
	ports []port
	// edges are each port's edges to the other ports, port after port.
	edges []tileEdge
	// extra holds the crossings of each port beyond its first, sorted by
	// port; nil when every port has one (most tiles: kept behind a pointer
	// to keep the graph small).
	extra *[]extraCrossing
	// boundaryPorts counts the boundary ports.
	boundaryPorts int32
}

// port is one node of the bottom level.
type port struct {
	// rep is the point that stands for the port: the middle of the border
	// span its crossings cover [Units: world units]
	rep geom.Vec3
	// neighbour is the slot of the tile its links lead into.
	neighbour uint32
	// packed holds the port's first crossing (from, to: 20 bits each, the
	// width of a polygon index; extra has any others) and the end of its
	// edges (24 bits), which start where the previous port's end.
	packed uint64
}

const (
	polyIndexBits = navmesh.PolyBits
	polyIndexMask = 1<<polyIndexBits - 1
	// maxTileEdges bounds the edges of one tile graph (24 bits of packed).
	maxTileEdges = 1<<(64-2*polyIndexBits) - 1
)

func packPort(first crossing, edgeEnd uint32) uint64 {
	return uint64(first.from) | uint64(first.to)<<polyIndexBits | uint64(edgeEnd)<<(2*polyIndexBits)
}

// first returns the port's first crossing.
func (p *port) first() crossing {
	return crossing{from: uint32(p.packed & polyIndexMask), to: uint32(p.packed >> polyIndexBits & polyIndexMask)}
}

// edgeEnd returns the end of the port's edges.
func (p *port) edgeEnd() uint32 { return uint32(p.packed >> (2 * polyIndexBits)) }

// crossing is one link of a port: from polygon from of the tile into
// polygon to of the neighbour tile.
type crossing struct {
	from, to uint32
}

// extraCrossing is a crossing of a port with more than one.
type extraCrossing struct {
	port uint32
	crossing
}

// edge is a way through the tile from one port to another and its cost.
type edge struct {
	cost float32
	to   uint32
}

// tileEdge is an edge of a tile graph: to is a port of the tile (at most
// maxTilePorts of them) and path the way's polygons (see tilePathWord),
// absentPath when they did not fit.
type tileEdge struct {
	cost float32
	to   uint16
	path tilePath
}

// maxTilePorts bounds the ports of a tile whose graph has edges: a tile
// with more (some 65,000 ports, a cost matrix of 17 GB to build) keeps its
// ports and no edges, so searches cannot cross it.
const maxTilePorts = 1<<16 - 1

func (g *tileGraph) edgesOf(p int) []tileEdge {
	start := uint32(0)
	if p > 0 {
		start = g.ports[p-1].edgeEnd()
	}
	return g.edges[start:g.ports[p].edgeEnd()]
}

// extraOf returns the crossings of port p beyond its first.
func (g *tileGraph) extraOf(p int) []extraCrossing {
	if g.extra == nil {
		return nil
	}
	extra := *g.extra
	lo, _ := slices.BinarySearchFunc(extra, uint32(p), func(x extraCrossing, p uint32) int { return cmp.Compare(x.port, p) })
	hi := lo
	for hi < len(extra) && extra[hi].port == uint32(p) {
		hi++
	}
	return extra[lo:hi]
}

// extraCrossings returns every crossing beyond the ports' first.
func (g *tileGraph) extraCrossings() []extraCrossing {
	if g.extra == nil {
		return nil
	}
	return *g.extra
}

// entryPort returns the port through which a link from polygon from of
// the tile in slot fromSlot into this tile's polygon poly arrives: the port
// holding the link back, from poly to from (or, failing that, from poly to
// another polygon of that tile). ok is false when poly has no link back
// (a one-way off-mesh connection, or a tile that ran out of links).
func (g *tileGraph) entryPort(fromSlot, from, poly uint32) (int, bool) {
	found, ok := 0, false
	for p := range g.ports {
		if c := &g.ports[p]; c.neighbour == fromSlot && c.first().from == poly {
			if c.first().to == from {
				return p, true
			}
			if !ok {
				found, ok = p, true
			}
		}
	}
	for _, x := range g.extraCrossings() {
		if g.ports[x.port].neighbour == fromSlot && x.from == poly {
			if x.to == from {
				return int(x.port), true
			}
			if !ok {
				found, ok = int(x.port), true
			}
		}
	}
	return found, ok
}

// memoryBytes is the graph's size in memory.
func (g *tileGraph) memoryBytes() int {
	return int(unsafe.Sizeof(*g)) + cap(g.ports)*int(unsafe.Sizeof(port{})) +
		cap(g.edges)*int(unsafe.Sizeof(tileEdge{})) + cap(g.extraCrossings())*int(unsafe.Sizeof(extraCrossing{}))
}

// clusterKey names a cluster: the tile grid location divided by the
// cluster size, rounded down.
type clusterKey struct{ x, y int32 }

func clusterOf(h *navmesh.TileHeader, size int32) clusterKey {
	return clusterKey{floorDiv(h.X, size), floorDiv(h.Y, size)}
}

func floorDiv(a, b int32) int32 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// rawCrossing is a crossing while the ports are being grouped.
type rawCrossing struct {
	from, to  uint32
	neighbour uint32
	component uint32
	side      uint8
	alone     bool // an off-mesh link or a border without an axis: a port of its own
	lo, hi    float32
	low, high geom.Vec3 // the portal ends at lo and hi
	mid       geom.Vec3
}

// graphBuilder holds the working memory of buildTileGraph, reused from
// tile to tile by one goroutine.
type graphBuilder struct {
	passes    []bool
	parent    []uint32
	raw       []rawCrossing
	groups    []group
	entries   []searchCrossing
	search    tileSearch
	matrix    []float32
	paths     []tilePath // per pair of ports, as matrix: the way's tilePathWord
	tileEdges []tileEdge
	edges     []edge
	ports     []port
	extra     []extraCrossing
}

// group is a port while the ports are being grouped: its crossings
// raw[first:end].
type group struct {
	first, end int
	rep        geom.Vec3
	boundary   bool
}

// buildTileGraph computes the graph of tile t in snap under model, with
// clusters of clusterSize tiles a side, ports no wider than maxPortWidth.
func (b *graphBuilder) buildTileGraph(snap *navmesh.Snapshot, t *navmesh.Tile, model *costModel, clusterSize int32, maxPortWidth float32) *tileGraph {
	n := len(t.Polys)
	b.passes = slices.Grow(b.passes[:0], n)[:n]
	b.parent = slices.Grow(b.parent[:0], n)[:n]
	for i := range t.Polys {
		b.passes[i] = model.passes(&t.Polys[i])
		b.parent[i] = uint32(i)
	}
	self := uint32(t.Index())
	base := t.PolyRefBase()
	for i := range t.Polys {
		if !b.passes[i] {
			continue
		}
		for l := t.Polys[i].FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
			ref := t.Links[l].Ref
			if ref.TileIndex() == self && int(ref.PolyIndex()) < n && b.passes[ref.PolyIndex()] {
				union(b.parent, uint32(i), ref.PolyIndex())
			}
		}
	}

	// The crossings, with their portals.
	b.raw = b.raw[:0]
	for i := range t.Polys {
		if !b.passes[i] {
			continue
		}
		poly := &t.Polys[i]
		for l := poly.FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
			link := &t.Links[l]
			if link.Ref == 0 || link.Ref.TileIndex() == self {
				continue
			}
			toTile, toPoly := snap.TileAndPolyUnchecked(link.Ref)
			if toTile == nil {
				continue
			}
			left, right := portalOf(t, poly, link, base|navmesh.Ref(i), toTile, toPoly)
			c := rawCrossing{
				from:      uint32(i),
				to:        link.Ref.PolyIndex(),
				neighbour: link.Ref.TileIndex(),
				component: find(b.parent, uint32(i)),
				side:      link.Side,
				mid:       geom.Vec3{(left[0] + right[0]) * 0.5, (left[1] + right[1]) * 0.5, (left[2] + right[2]) * 0.5},
			}
			axis := borderAxis(link.Side)
			c.alone = axis < 0 || poly.Type() == navmesh.PolyTypeOffMeshConnection || toPoly.Type() == navmesh.PolyTypeOffMeshConnection
			if c.alone {
				c.low, c.high = c.mid, c.mid
			} else {
				if left[axis] > right[axis] {
					left, right = right, left
				}
				c.lo, c.hi, c.low, c.high = left[axis], right[axis], left, right
			}
			b.raw = append(b.raw, c)
		}
	}
	slices.SortFunc(b.raw, func(x, y rawCrossing) int {
		return cmp.Or(
			cmp.Compare(x.neighbour, y.neighbour),
			cmp.Compare(x.side, y.side),
			cmp.Compare(x.component, y.component),
			boolCompare(x.alone, y.alone),
			cmp.Compare(x.lo, y.lo),
			cmp.Compare(x.from, y.from),
			cmp.Compare(x.to, y.to))
	})

	// Group contiguous crossings into ports, boundary ports first.
	own := clusterOf(&t.Data.Header, clusterSize)
	b.groups = b.groups[:0]
	for i := 0; i < len(b.raw); {
		first := &b.raw[i]
		lo, hi := first.lo, first.hi
		low, high := first.low, first.high
		j := i + 1
		for ; j < len(b.raw) && !first.alone; j++ {
			c := &b.raw[j]
			if c.neighbour != first.neighbour || c.side != first.side || c.component != first.component || c.alone ||
				c.lo > hi+contiguity || max(hi, c.hi)-lo > maxPortWidth {
				break
			}
			if c.hi > hi {
				hi, high = c.hi, c.high
			}
		}
		other := snap.Tile(int(first.neighbour))
		b.groups = append(b.groups, group{
			first:    i,
			end:      j,
			rep:      geom.Vec3{(low[0] + high[0]) * 0.5, (low[1] + high[1]) * 0.5, (low[2] + high[2]) * 0.5},
			boundary: other != nil && clusterOf(&other.Data.Header, clusterSize) != own,
		})
		i = j
	}
	slices.SortStableFunc(b.groups, func(x, y group) int { return -boolCompare(x.boundary, y.boundary) })

	b.ports, b.extra, b.entries = b.ports[:0], b.extra[:0], b.entries[:0]
	boundary := int32(0)
	for p, gr := range b.groups {
		if gr.boundary {
			boundary++
		}
		first := &b.raw[gr.first]
		b.ports = append(b.ports, port{rep: gr.rep, neighbour: first.neighbour, packed: packPort(crossing{from: first.from, to: first.to}, 0)})
		for k := gr.first; k < gr.end; k++ {
			c := &b.raw[k]
			if k > gr.first {
				b.extra = append(b.extra, extraCrossing{port: uint32(p), crossing: crossing{from: c.from, to: c.to}})
			}
			b.entries = append(b.entries, searchCrossing{poly: c.from, port: uint32(p), mid: c.mid})
		}
	}

	// The cheapest way from each port to every other.
	ports := len(b.ports)
	b.matrix = slices.Grow(b.matrix[:0], ports*ports)[:ports*ports]
	b.paths = slices.Grow(b.paths[:0], ports*ports)[:ports*ports]
	start := 0
	for p := range b.ports {
		end := start + b.groups[p].end - b.groups[p].first
		s := &b.search
		s.reset(t, model, b.entries, b.ports)
		for _, c := range b.entries[start:end] {
			cost := distance(&b.ports[p].rep, &c.mid) * model.areaCostOf(t, &t.Polys[c.poly])
			s.addSource(c.poly, c.mid, cost)
		}
		s.run(noGoal, geom.Vec3{})
		copy(b.matrix[p*ports:(p+1)*ports], s.portCost)
		for q, state := range s.portState {
			b.paths[p*ports+q] = absentPath
			if state >= 0 {
				b.paths[p*ports+q] = s.tilePathWord(state)
			}
		}
		start = end
	}
	b.edges = pruneEdges(b.matrix, ports, b.edges[:0], func(p int, end int) {
		b.ports[p].packed = packPort(b.ports[p].first(), uint32(min(end, maxTileEdges)))
	})
	if len(b.edges) > maxTileEdges {
		// Beyond what a port can index (some 16 million edges in one
		// tile): the graph keeps the first ones only.
		b.edges = b.edges[:maxTileEdges]
	}
	if ports > maxTilePorts {
		b.edges = b.edges[:0]
		for p := range b.ports {
			b.ports[p].packed = packPort(b.ports[p].first(), 0)
		}
	}
	b.tileEdges = b.tileEdges[:0]
	from := 0
	for k, e := range b.edges {
		for k >= int(b.ports[from].edgeEnd()) {
			from++
		}
		b.tileEdges = append(b.tileEdges, tileEdge{cost: e.cost, to: uint16(e.to), path: b.paths[from*ports+int(e.to)]})
	}

	g := &tileGraph{
		tile:          t,
		ports:         slices.Clone(b.ports),
		edges:         slices.Clone(b.tileEdges),
		boundaryPorts: boundary,
	}
	if len(b.extra) > 0 {
		extra := slices.Clone(b.extra)
		g.extra = &extra
	}
	return g
}

// contiguity is how far apart two crossings' portals may lie along the
// border and still belong to one port [Units: world units].
const contiguity = 0.01

// borderAxis returns the coordinate that runs along the tile border a link
// crosses on side (x for the ±z borders, z for the ±x borders), -1 for
// the diagonals and links that cross no border.
func borderAxis(side uint8) int {
	switch side {
	case 0, 4:
		return 2
	case 2, 6:
		return 0
	}
	return -1
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// maxPruneNodes bounds the nodes whose edges pruneEdges prunes: the test
// takes n³ steps.
const maxPruneNodes = 192

// pruneRelative is how much dearer than an edge a way through a third node
// may be and still make the edge redundant.
const pruneRelative = 1e-4

// pruneEdges appends to dst, node after node, the edges of the n×n cost
// matrix (matrix[from*n+to], +Inf for no edge) that no way through a third
// node makes redundant, calling done(from, len(dst)) after each node's.
// An edge from x to y is dropped when some z has both edges x→z and z→y
// cheaper than x→y and together costing no more than x→y (within
// pruneRelative). Every dropped edge has a way of strictly cheaper edges
// around it, so the cheapest way between any two nodes survives, within
// pruneRelative per level of dropped edges.
func pruneEdges(matrix []float32, n int, dst []edge, done func(from, end int)) []edge {
	prune := n <= maxPruneNodes
	for x := range n {
		row := matrix[x*n : (x+1)*n]
		for y := range n {
			c := row[y]
			if y == x || math.IsInf(float64(c), 1) {
				continue
			}
			limit := c * (1 + pruneRelative)
			redundant := false
			for z := 0; prune && z < n; z++ {
				if z == x || z == y {
					continue
				}
				first, second := row[z], matrix[z*n+y]
				if first < c && second < c && first+second <= limit {
					redundant = true
					break
				}
			}
			if !redundant {
				dst = append(dst, edge{cost: c, to: uint32(y)})
			}
		}
		done(x, len(dst))
	}
	return dst
}

// find returns the root of i, halving the path on the way.
func find(parent []uint32, i uint32) uint32 {
	for parent[i] != i {
		parent[i] = parent[parent[i]]
		i = parent[i]
	}
	return i
}

// union joins the sets of a and b under the smaller root.
func union(parent []uint32, a, b uint32) {
	ra, rb := find(parent, a), find(parent, b)
	switch {
	case ra < rb:
		parent[rb] = ra
	case rb < ra:
		parent[ra] = rb
	}
}

// scratchBytes is the size of the builder's working memory.
func (b *graphBuilder) scratchBytes() int {
	s := &b.search
	return cap(b.passes) + 4*cap(b.parent) + int(unsafe.Sizeof(rawCrossing{}))*cap(b.raw) +
		int(unsafe.Sizeof(group{}))*cap(b.groups) + int(unsafe.Sizeof(searchCrossing{}))*cap(b.entries) +
		4*cap(b.matrix) + 2*cap(b.paths) + int(unsafe.Sizeof(edge{}))*cap(b.edges) + int(unsafe.Sizeof(tileEdge{}))*cap(b.tileEdges) + int(unsafe.Sizeof(port{}))*cap(b.ports) +
		int(unsafe.Sizeof(extraCrossing{}))*cap(b.extra) +
		int(unsafe.Sizeof(tileState{}))*cap(s.states) + 4*(cap(s.linkState)+cap(s.heap)+cap(s.portCost)+cap(s.portState)+cap(s.portCrossing))
}
