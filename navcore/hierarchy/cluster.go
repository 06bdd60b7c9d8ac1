package hierarchy

import (
	"github.com/archenav/archenav/navcore/geom"
	"math"
	"slices"
	"unsafe"
)

// clusterGraph is the upper level of a hierarchy for one cluster of tiles
// (ClusterSize × ClusterSize grid locations, every layer): its nodes are
// the ports of its tiles that lead into another cluster, its edges the
// cheapest ways between them through the cluster's bottom level, each with
// the set of tiles it crosses. It depends on the tile graphs it was built
// from and nothing else, so it is kept while they are.
type clusterGraph struct {
	key clusterKey
	// tiles are the cluster's tile graphs, in slot order.
	tiles []*tileGraph
	// boundaryBase gives, per tile, the index of its first node.
	boundaryBase []uint32
	nodes        []clusterNode
	edges        []clusterEdge
	// masks hold, per edge, the tiles (bits of indices into tiles) its way
	// crosses: in 16 bits for a cluster of up to 16 tiles, else in 64;
	// both nil when the cluster has more than 64 tiles, and every edge
	// then may cross any of them.
	masks16 []uint16
	masks64 []uint64
	// paths hold, per edge, its way over the ports of the bottom level
	// (see clusterPathWord).
	paths []uint64
	// lower and upper bound the points of its nodes' ports, so that a
	// search can bound their distance to a point without reading them.
	lower, upper geom.Vec3
}

// farthest returns the largest distance from p to a point of c's nodes'
// ports (at least: to the corner of their box farthest from p).
func (c *clusterGraph) farthest(p *geom.Vec3) float32 {
	dx := max(p.X()-c.lower.X(), c.upper.X()-p.X())
	dy := max(p.Y()-c.lower.Y(), c.upper.Y()-p.Y())
	dz := max(p.Z()-c.lower.Z(), c.upper.Z()-p.Z())
	return geom.Sqrt(float32(dx*dx) + float32(dy*dy) + float32(dz*dz))
}

// clusterNode is one node of the upper level: port port of the tile in
// slot slot.
type clusterNode struct {
	slot, port uint32
	edgeEnd    uint32
}

// clusterEdge is a way through the cluster to node to and its cost.
type clusterEdge struct {
	cost float32
	to   uint32
}

func (c *clusterGraph) edgesOf(node int) (first, end int) {
	if node > 0 {
		first = int(c.nodes[node-1].edgeEnd)
	}
	return first, int(c.nodes[node].edgeEnd)
}

func (c *clusterGraph) memoryBytes() int {
	return int(unsafe.Sizeof(*c)) + cap(c.tiles)*8 + cap(c.boundaryBase)*4 +
		cap(c.nodes)*int(unsafe.Sizeof(clusterNode{})) + cap(c.edges)*int(unsafe.Sizeof(clusterEdge{})) + cap(c.masks16)*2 + cap(c.masks64)*8 + cap(c.paths)*8
}

// clusterLinks are the steps out of a cluster: for each of its nodes, the
// ports of the tiles beyond that its crossings arrive at. They depend on
// the tile graphs on both sides, so a version rebuilds them for the
// clusters whose tiles or whose neighbours' tiles changed.
type clusterLinks struct {
	// end ends each node's twins, which start where the previous node's
	// end.
	end   []uint32
	twins []twin
}

// twin is a port a node's crossings arrive at: node node of cluster
// number cluster, and the cost of the step.
type twin struct {
	cluster, node uint32
	cost          float32
}

func (l *clusterLinks) twinsOf(node int) []twin {
	start := uint32(0)
	if node > 0 {
		start = l.end[node-1]
	}
	return l.twins[start:l.end[node]]
}

func (l *clusterLinks) memoryBytes() int {
	return int(unsafe.Sizeof(*l)) + cap(l.end)*4 + cap(l.twins)*int(unsafe.Sizeof(twin{}))
}

// buildLinks computes the steps out of cluster c's nodes in a version
// whose slots are slots.
func buildLinks(c *clusterGraph, slots []slotEntry, model *costModel) *clusterLinks {
	l := &clusterLinks{end: make([]uint32, len(c.nodes))}
	for k, n := range c.nodes {
		g := slots[n.slot].graph
		p := &g.ports[n.port]
		if other := slots[p.neighbour].graph; other != nil {
			start := len(l.twins)
			step := func(x crossing) {
				if int(x.to) >= len(other.tile.Polys) || !model.passes(&other.tile.Polys[x.to]) {
					return
				}
				q, ok := other.entryPort(n.slot, x.from, x.to)
				if !ok {
					return
				}
				if q >= int(other.boundaryPorts) {
					return // not a boundary port: the tile beyond is in this cluster
				}
				beyond := &slots[p.neighbour]
				node := beyond.boundaryBase + uint32(q)
				for _, t := range l.twins[start:] {
					if t.cluster == beyond.cluster && t.node == node {
						return
					}
				}
				l.twins = append(l.twins, twin{cluster: beyond.cluster, node: node, cost: distance(&p.rep, &other.ports[q].rep)})
			}
			step(p.first())
			for _, x := range g.extraOf(int(n.port)) {
				step(x.crossing)
			}
		}
		l.end[k] = uint32(len(l.twins))
	}
	l.twins = slices.Clip(l.twins)
	return l
}

// tileIndex returns the index in c.tiles of the tile in slot, -1 if the
// cluster has none there.
func (c *clusterGraph) tileIndex(slot uint32) int {
	i, ok := slices.BinarySearchFunc(c.tiles, slot, func(g *tileGraph, s uint32) int {
		return int(g.tile.Index()) - int(s)
	})
	if !ok {
		return -1
	}
	return i
}

// clusterBuilder holds the working memory of buildCluster, reused from
// cluster to cluster by one goroutine.
type clusterBuilder struct {
	portBase  []uint32 // per tile: its first local port
	portTile  []uint32 // per local port: its tile
	adjStart  []uint32
	adjacency []edge
	adjRank   []uint8 // per adjacency entry: its rank (see clusterPathWord)
	cost      []float32
	parent    []int32
	parentAdj []int32 // per local port: the adjacency entry it was reached through
	heap      []int32
	heapIndex []int32
	matrix    []float32
	maskGrid  []uint64
	pathGrid  []uint64
	nodes     []clusterNode
	edges     []edge
	out       []clusterEdge
	masks     []uint64
	outPaths  []uint64
}

// buildCluster computes the upper level of the cluster made of tiles
// (sorted by slot), whose crossings' targets model passes or not as the
// tile versions say.
func (b *clusterBuilder) buildCluster(key clusterKey, tiles []*tileGraph, model *costModel) *clusterGraph {
	c := &clusterGraph{key: key, tiles: tiles, boundaryBase: make([]uint32, len(tiles))}
	b.portBase = b.portBase[:0]
	b.portTile = b.portTile[:0]
	b.nodes = b.nodes[:0]
	for i, g := range tiles {
		b.portBase = append(b.portBase, uint32(len(b.portTile)))
		c.boundaryBase[i] = uint32(len(b.nodes))
		for p := range g.ports {
			b.portTile = append(b.portTile, uint32(i))
			if p < int(g.boundaryPorts) {
				b.nodes = append(b.nodes, clusterNode{slot: uint32(g.tile.Index()), port: uint32(p)})
			}
		}
	}
	locals := len(b.portTile)

	// The bottom level inside the cluster, local port to local port.
	b.adjStart = slices.Grow(b.adjStart[:0], locals+1)[:locals+1]
	b.adjacency = b.adjacency[:0]
	b.adjRank = b.adjRank[:0]
	for i, g := range tiles {
		self := uint32(g.tile.Index())
		for p := range g.ports {
			local := b.portBase[i] + uint32(p)
			b.adjStart[local] = uint32(len(b.adjacency))
			tileEdges := g.edgesOf(p)
			for r, e := range tileEdges {
				b.adjacency = append(b.adjacency, edge{cost: e.cost, to: b.portBase[i] + uint32(e.to)})
				b.adjRank = append(b.adjRank, uint8(min(r, 255)))
			}
			j := c.tileIndex(g.ports[p].neighbour)
			if j < 0 {
				continue
			}
			other := tiles[j]
			last := -1
			step := func(x crossing, index int) {
				if int(x.to) >= len(other.tile.Polys) || !model.passes(&other.tile.Polys[x.to]) {
					return
				}
				q, ok := other.entryPort(self, x.from, x.to)
				if !ok || q == last {
					return
				}
				last = q
				b.adjacency = append(b.adjacency, edge{cost: distance(&g.ports[p].rep, &other.ports[q].rep), to: b.portBase[j] + uint32(q)})
				b.adjRank = append(b.adjRank, uint8(min(len(tileEdges)+index, 255)))
			}
			step(g.ports[p].first(), 0)
			for k, x := range g.extraOf(p) {
				step(x.crossing, k+1)
			}
		}
	}
	b.adjStart[locals] = uint32(len(b.adjacency))

	nodes := len(b.nodes)
	b.matrix = slices.Grow(b.matrix[:0], nodes*nodes)[:nodes*nodes]
	withMasks := len(tiles) <= 64
	if withMasks {
		b.maskGrid = slices.Grow(b.maskGrid[:0], nodes*nodes)[:nodes*nodes]
	}
	b.pathGrid = slices.Grow(b.pathGrid[:0], nodes*nodes)[:nodes*nodes]
	b.cost = slices.Grow(b.cost[:0], locals)[:locals]
	b.parent = slices.Grow(b.parent[:0], locals)[:locals]
	b.parentAdj = slices.Grow(b.parentAdj[:0], locals)[:locals]
	b.heapIndex = slices.Grow(b.heapIndex[:0], locals)[:locals]
	for from := range b.nodes {
		source := b.localOf(c, from)
		b.dijkstra(source)
		row := b.matrix[from*nodes : (from+1)*nodes]
		for to := range b.nodes {
			target := b.localOf(c, to)
			row[to] = b.cost[target]
			if withMasks && to != from && !math.IsInf(float64(b.cost[target]), 1) {
				var mask uint64
				for at := int32(target); at >= 0; at = b.parent[at] {
					mask |= 1 << b.portTile[at]
				}
				b.maskGrid[from*nodes+to] = mask
			}
			b.pathGrid[from*nodes+to] = b.clusterPathWord(target)
		}
	}

	b.edges = pruneEdges(b.matrix, nodes, b.edges[:0], func(node, end int) { b.nodes[node].edgeEnd = uint32(end) })
	b.out = b.out[:0]
	b.masks = b.masks[:0]
	b.outPaths = b.outPaths[:0]
	start := 0
	for from := range b.nodes {
		end := int(b.nodes[from].edgeEnd)
		for _, e := range b.edges[start:end] {
			b.out = append(b.out, clusterEdge{cost: e.cost, to: e.to})
			b.outPaths = append(b.outPaths, b.pathGrid[from*nodes+int(e.to)])
			if withMasks {
				b.masks = append(b.masks, b.maskGrid[from*nodes+int(e.to)])
			}
		}
		start = end
	}
	c.nodes = slices.Clone(b.nodes)
	for k, n := range c.nodes {
		rep := tiles[c.tileIndex(n.slot)].ports[n.port].rep
		if k == 0 {
			c.lower, c.upper = rep, rep
		}
		for axis := range 3 {
			c.lower[axis] = min(c.lower[axis], rep[axis])
			c.upper[axis] = max(c.upper[axis], rep[axis])
		}
	}
	c.edges = slices.Clone(b.out)
	c.paths = slices.Clone(b.outPaths)
	switch {
	case len(tiles) <= 16:
		c.masks16 = make([]uint16, len(b.masks))
		for k, m := range b.masks {
			c.masks16[k] = uint16(m)
		}
	case withMasks:
		c.masks64 = slices.Clone(b.masks)
	}
	return c
}

// Cluster paths: the way of a cluster edge over the ports of the bottom
// level, packed in 64 bits: the number of steps (bits 0-4), then per step
// its rank (3 bits each): at a port with n edges in its tile graph, rank
// r < n takes edge r and rank n+i crosses the border through the port's
// crossing i (its first, then its extra ones). A way that does not fit is
// absentClusterPath.
const (
	clusterPathSteps  = 19
	absentClusterPath = uint64(0x1f)
)

// clusterPathWord packs the way the last Dijkstra search found to local
// port target.
func (b *clusterBuilder) clusterPathWord(target uint32) uint64 {
	steps := 0
	for at := int32(target); b.parent[at] >= 0; at = b.parent[at] {
		steps++
	}
	if steps > clusterPathSteps {
		return absentClusterPath
	}
	word := uint64(steps)
	k := steps
	for at := int32(target); b.parent[at] >= 0; at = b.parent[at] {
		k--
		rank := b.adjRank[b.parentAdj[at]]
		if rank > 7 {
			return absentClusterPath
		}
		word |= uint64(rank) << (5 + 3*k)
	}
	return word
}

// clusterPathSteps returns the steps of a cluster path; ok is false for
// absentClusterPath.
func clusterSteps(word uint64) (steps int, ok bool) {
	if word&0x1f > clusterPathSteps {
		return 0, false
	}
	return int(word & 0x1f), true
}

// clusterRank returns the rank of step k of a cluster path.
func clusterRank(word uint64, k int) int { return int(word >> (5 + 3*k) & 7) }

// mask returns the tiles edge k crosses (bits of indices into c.tiles),
// ok false when the cluster keeps no masks (every tile may be crossed).
func (c *clusterGraph) mask(k int) (mask uint64, ok bool) {
	switch {
	case c.masks16 != nil:
		return uint64(c.masks16[k]), true
	case c.masks64 != nil:
		return c.masks64[k], true
	}
	return 0, false
}

// localOf returns the local port of node.
func (b *clusterBuilder) localOf(c *clusterGraph, node int) uint32 {
	n := &b.nodes[node]
	return b.portBase[c.tileIndex(n.slot)] + n.port
}

// dijkstra fills b.cost and b.parent with the cheapest ways from local
// port source through the cluster's bottom level.
func (b *clusterBuilder) dijkstra(source uint32) {
	for i := range b.cost {
		b.cost[i] = float32(math.Inf(1))
		b.parent[i] = -1
		b.parentAdj[i] = -1
		b.heapIndex[i] = -1
	}
	b.heap = b.heap[:0]
	b.cost[source] = 0
	b.push(int32(source))
	for len(b.heap) > 0 {
		u := b.pop()
		b.heapIndex[u] = settledIndex
		for k := b.adjStart[u]; k < b.adjStart[u+1]; k++ {
			e := &b.adjacency[k]
			v := int32(e.to)
			if b.heapIndex[v] == settledIndex {
				continue
			}
			if cost := b.cost[u] + e.cost; cost < b.cost[v] {
				b.cost[v] = cost
				b.parent[v] = u
				b.parentAdj[v] = int32(k)
				if b.heapIndex[v] < 0 {
					b.push(v)
				} else {
					b.up(int(b.heapIndex[v]))
				}
			}
		}
	}
}

func (b *clusterBuilder) push(i int32) {
	b.heap = append(b.heap, i)
	b.up(len(b.heap) - 1)
}

func (b *clusterBuilder) pop() int32 {
	top := b.heap[0]
	last := len(b.heap) - 1
	b.heap[0] = b.heap[last]
	b.heapIndex[b.heap[0]] = 0
	b.heap = b.heap[:last]
	if last > 0 {
		b.down(0)
	}
	b.heapIndex[top] = -1
	return top
}

func (b *clusterBuilder) up(i int) {
	h := b.heap
	item := h[i]
	cost := b.cost[item]
	for i > 0 {
		parent := (i - 1) / 2
		if b.cost[h[parent]] <= cost {
			break
		}
		h[i] = h[parent]
		b.heapIndex[h[i]] = int32(i)
		i = parent
	}
	h[i] = item
	b.heapIndex[item] = int32(i)
}

func (b *clusterBuilder) down(i int) {
	h := b.heap
	item := h[i]
	cost := b.cost[item]
	for {
		child := 2*i + 1
		if child >= len(h) {
			break
		}
		if child+1 < len(h) && b.cost[h[child+1]] < b.cost[h[child]] {
			child++
		}
		if b.cost[h[child]] >= cost {
			break
		}
		h[i] = h[child]
		b.heapIndex[h[i]] = int32(i)
		i = child
	}
	h[i] = item
	b.heapIndex[item] = int32(i)
}

// scratchBytes is the size of the builder's working memory.
func (b *clusterBuilder) scratchBytes() int {
	return 4*(cap(b.portBase)+cap(b.portTile)+cap(b.adjStart)+cap(b.cost)+cap(b.parent)+cap(b.parentAdj)+cap(b.heap)+cap(b.heapIndex)+cap(b.matrix)) +
		12*(cap(b.adjacency)+cap(b.edges)) + 8*(cap(b.maskGrid)+cap(b.pathGrid)+cap(b.out)+cap(b.masks)+cap(b.outPaths)) + 12*cap(b.nodes) + cap(b.adjRank)
}
