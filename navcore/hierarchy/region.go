package hierarchy

import (
	"math"
	"slices"
	"unsafe"
)

// regionGraph is the top level of a hierarchy for one region: a square of
// RegionSize × RegionSize clusters. Its nodes are the cluster nodes on the
// region's border (those whose port leads into a tile of another region),
// its edges the cheapest ways between them over the cluster level inside
// the region. A long search crosses the regions between its start and goal
// on this level, a few nodes per region, and goes down to the cluster
// level only in the regions of its start and goal.
//
// An edge of the region level ends, as a cluster edge does, at the port
// it leaves the region by (a node of the region); the step across the
// border is the cluster level's (clusterLinks). It depends on the cluster
// graphs of the region and on their steps to one another, so a version
// rebuilds the regions of the clusters whose graphs or steps changed.
type regionGraph struct {
	// members are the numbers of the region's clusters that have tiles,
	// in the order of their grid keys (so that the graph does not depend
	// on how the hierarchy numbered them); memberNodes gives, per member, the end of its nodes in
	// nodes (which come member after member, each member's by node index,
	// so that localOf finds them by binary search).
	members     []uint32
	memberNodes []uint32
	nodes       []regionNode
	edges       []clusterEdge
	// paths hold, per edge, its way over the cluster level (see
	// regionPathWord).
	paths []uint64
}

// regionNode is a node of the region level: node node of cluster number
// cluster, with the end of its edges, which start where the previous
// node's end.
type regionNode struct {
	cluster, node uint32
	edgeEnd       uint32
}

func (r *regionGraph) edgesOf(node int) (first, end int) {
	if node > 0 {
		first = int(r.nodes[node-1].edgeEnd)
	}
	return first, int(r.nodes[node].edgeEnd)
}

// localOf returns the index among r.nodes of node node of cluster number
// cluster, -1 when it is not a node of the region level.
func (r *regionGraph) localOf(cluster, node uint32) int {
	k := slices.Index(r.members, cluster)
	if k < 0 {
		return -1
	}
	first := uint32(0)
	if k > 0 {
		first = r.memberNodes[k-1]
	}
	nodes := r.nodes[first:r.memberNodes[k]]
	i, ok := slices.BinarySearchFunc(nodes, node, func(n regionNode, node uint32) int { return int(n.node) - int(node) })
	if !ok {
		return -1
	}
	return int(first) + i
}

func (r *regionGraph) memoryBytes() int {
	return int(unsafe.Sizeof(*r)) + 4*(cap(r.members)+cap(r.memberNodes)) +
		cap(r.nodes)*int(unsafe.Sizeof(regionNode{})) + cap(r.edges)*int(unsafe.Sizeof(clusterEdge{})) + 8*cap(r.paths)
}

// Region paths: the way of a region edge over the cluster level, packed
// in 64 bits: the number of steps across clusters (bits 0-4), then per
// step its rank (4 bits each) among the steps out of the node it leaves,
// counted over the node's cluster edges in order and each edge's steps
// across the border (clusterLinks) in order, then the rank of the last
// cluster edge, the one that ends at the node the edge leaves the region
// by. A way that does not fit is absentRegionPath.
const (
	regionPathSteps   = 13
	regionPathRankMax = 15
	absentRegionPath  = uint64(0x1f)
)

// regionSteps returns the steps of a region path; ok is false for
// absentRegionPath.
func regionSteps(word uint64) (steps int, ok bool) {
	if word&0x1f > regionPathSteps {
		return 0, false
	}
	return int(word & 0x1f), true
}

// regionRank returns the rank of step k of a region path; step steps is
// the last cluster edge.
func regionRank(word uint64, k int) int { return int(word >> (5 + 4*k) & 0xf) }

// regionBuilder holds the working memory of buildRegion.
type regionBuilder struct {
	base      []uint32 // per member: its first local state
	cost      []float32
	parent    []int32 // per state: the state it was reached from
	rank      []uint8 // per state: the rank of the step that reached it
	exitCost  []float32
	exitFrom  []int32 // per state: the state whose edge ends there
	exitRank  []uint8 // per state: the rank of that edge
	heap      []heapEntry
	nodes     []regionNode
	edges     []clusterEdge
	paths     []uint64
	local     []int32
	nodeState []int32 // per region node: its state
}

// buildRegion computes the region level of the region whose clusters are
// numbers (sorted) in version v, for a hierarchy whose clusters belong to
// regions as clusterRegion says; region is the region's number.
func (b *regionBuilder) buildRegion(v *version, region uint32, numbers []uint32, clusterRegion []uint32) *regionGraph {
	r := &regionGraph{}
	for _, number := range numbers {
		if int(number) < len(v.clusters) && v.clusters[number] != nil {
			r.members = append(r.members, number)
		}
	}
	if len(r.members) == 0 {
		return nil
	}
	slices.SortFunc(r.members, func(a, b uint32) int {
		ka, kb := v.clusters[a].key, v.clusters[b].key
		if ka.y != kb.y {
			return int(ka.y - kb.y)
		}
		return int(ka.x - kb.x)
	})
	// Number the members' nodes as states, and pick the region's nodes.
	b.base = b.base[:0]
	b.local = b.local[:0]
	b.nodes = b.nodes[:0]
	b.nodeState = b.nodeState[:0]
	states := uint32(0)
	r.memberNodes = make([]uint32, len(r.members))
	for k, number := range r.members {
		c := v.clusters[number]
		b.base = append(b.base, states)
		for n := range c.nodes {
			cn := &c.nodes[n]
			g := v.slots[cn.slot].graph
			beyond := g.ports[cn.port].neighbour
			if int(beyond) < len(v.slots) && v.slots[beyond].graph != nil && clusterRegion[v.slots[beyond].cluster] != region {
				b.local = append(b.local, int32(len(b.nodes)))
				b.nodes = append(b.nodes, regionNode{cluster: number, node: uint32(n)})
				b.nodeState = append(b.nodeState, int32(states)+int32(n))
			} else {
				b.local = append(b.local, -1)
			}
		}
		states += uint32(len(c.nodes))
		r.memberNodes[k] = uint32(len(b.nodes))
	}
	n := int(states)
	b.cost = slices.Grow(b.cost[:0], n)[:n]
	b.parent = slices.Grow(b.parent[:0], n)[:n]
	b.rank = slices.Grow(b.rank[:0], n)[:n]
	b.exitCost = slices.Grow(b.exitCost[:0], n)[:n]
	b.exitFrom = slices.Grow(b.exitFrom[:0], n)[:n]
	b.exitRank = slices.Grow(b.exitRank[:0], n)[:n]
	b.edges = b.edges[:0]
	b.paths = b.paths[:0]
	for i := range b.nodes {
		b.search(v, r, b.nodeState[i])
		for j := range b.nodes {
			s := b.nodeState[j]
			if j == i || math.IsInf(float64(b.exitCost[s]), 1) {
				continue
			}
			b.edges = append(b.edges, clusterEdge{cost: b.exitCost[s], to: uint32(j)})
			b.paths = append(b.paths, b.pathWord(s))
		}
		b.nodes[i].edgeEnd = uint32(len(b.edges))
	}
	r.nodes = slices.Clone(b.nodes)
	r.edges = slices.Clone(b.edges)
	r.paths = slices.Clone(b.paths)
	return r
}

// stateOf returns the state of node node of cluster number in r, -1 when
// the cluster is not a member.
func (b *regionBuilder) stateOf(r *regionGraph, number, node uint32) int32 {
	for k, m := range r.members {
		if m == number {
			return int32(b.base[k] + node)
		}
	}
	return -1
}

// search runs Dijkstra over the cluster level inside region r from state
// source, filling the costs of leaving the region by each state
// (exitCost, +Inf for none) and the ways there.
func (b *regionBuilder) search(v *version, r *regionGraph, source int32) {
	for i := range b.cost {
		b.cost[i] = float32(math.Inf(1))
		b.exitCost[i] = float32(math.Inf(1))
		b.parent[i] = -1
		b.exitFrom[i] = -1
	}
	b.cost[source] = 0
	b.heap = pushEntry(b.heap[:0], heapEntry{total: 0, node: source})
	for len(b.heap) > 0 {
		var e heapEntry
		b.heap, e = popEntry(b.heap)
		x := e.node
		if e.total != b.cost[x] {
			continue
		}
		k := 0
		for k+1 < len(b.base) && b.base[k+1] <= uint32(x) {
			k++
		}
		number := r.members[k]
		node := uint32(x) - b.base[k]
		c, links := v.clusters[number], v.links[number]
		first, end := c.edgesOf(int(node))
		rank := 0
		for j := first; j < end; j++ {
			edge := &c.edges[j]
			if exit := int32(b.base[k] + edge.to); b.local[exit] >= 0 {
				if cost := e.total + edge.cost; cost < b.exitCost[exit] {
					b.exitCost[exit] = cost
					b.exitFrom[exit] = x
					b.exitRank[exit] = uint8(min(j-first, 255))
				}
			}
			for _, t := range links.twinsOf(int(edge.to)) {
				next := b.stateOf(r, t.cluster, t.node)
				if next >= 0 {
					if cost := e.total + edge.cost + t.cost; cost < b.cost[next] {
						b.cost[next] = cost
						b.parent[next] = x
						b.rank[next] = uint8(min(rank, 255))
						b.heap = pushEntry(b.heap, heapEntry{total: cost, node: next})
					}
				}
				rank++
			}
		}
	}
}

// pathWord packs the way the last search found to leave by state exit.
func (b *regionBuilder) pathWord(exit int32) uint64 {
	from := b.exitFrom[exit]
	steps := 0
	for at := from; b.parent[at] >= 0; at = b.parent[at] {
		steps++
	}
	if steps > regionPathSteps || b.exitRank[exit] > regionPathRankMax {
		return absentRegionPath
	}
	word := uint64(steps) | uint64(b.exitRank[exit])<<(5+4*steps)
	k := steps
	for at := from; b.parent[at] >= 0; at = b.parent[at] {
		k--
		if b.rank[at] > regionPathRankMax {
			return absentRegionPath
		}
		word |= uint64(b.rank[at]) << (5 + 4*k)
	}
	return word
}

// regionStep returns the cluster edge and the step across the border of
// rank rank out of node node of cluster c (see regionPathWord).
func regionStep(c *clusterGraph, links *clusterLinks, node uint32, rank int) (edge int, t *twin, ok bool) {
	first, end := c.edgesOf(int(node))
	for j := first; j < end; j++ {
		twins := links.twinsOf(int(c.edges[j].to))
		if rank < len(twins) {
			return j, &twins[rank], true
		}
		rank -= len(twins)
	}
	return 0, nil, false
}
