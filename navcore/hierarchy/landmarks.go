package hierarchy

import (
	"math"
	"slices"
	"unsafe"
)

// landmarks hold, for a few cluster nodes (the landmarks), the cost of
// the cheapest way from each landmark to every cluster node of one
// version, over the cluster level's steps (a cluster's edges between its
// nodes, the steps across borders) taken either way, so that the costs
// obey the triangle inequality in both directions. They give the search a
// lower bound of the cost to the goal far closer than the straight line
// (the ALT heuristic: going on from node n costs at least
// |d(landmark, goal) - d(landmark, n)|, see Searcher.landmarkBound).
// Costs over the steps in the search's own direction only (a port counted
// as reached when entered from outside its cluster) would not do: a port
// one edge away inside its cluster may be far from the landmark by that
// measure, and the second side of the bound would overshoot.
//
// Costs are kept in 16 bits, in steps of unit, rounded up; the search
// takes one step off where it needs a value no higher than the cost.
type landmarks struct {
	count int
	unit  float32
	// steps[node*count+l] is the cost from landmark l to cluster node
	// node, in units rounded up; unreachable for no way.
	steps []uint16
}

// unreachable marks a node no way from the landmark reaches.
const unreachable = math.MaxUint16

func (l *landmarks) memoryBytes() int {
	if l == nil {
		return 0
	}
	return int(unsafe.Sizeof(*l)) + cap(l.steps)*2
}

// landmarkBuilder holds the working memory of buildLandmarks.
type landmarkBuilder struct {
	cost []float32
	heap []heapEntry
}

// buildLandmarks picks count landmarks in the largest connected part of
// the cluster level of v, spread out (each the node farthest, by cost,
// from the ones picked before), and computes their costs.
func buildLandmarks(v *version, count int) *landmarks {
	n := v.clusterNodes
	if n == 0 || count == 0 {
		return &landmarks{unit: 1}
	}
	l := &landmarks{count: count, unit: 1}
	b := landmarkBuilder{cost: make([]float32, n)}
	// Start from the node reaching the most others, found among a few.
	seed, best := 0, -1
	for try := range 8 {
		node := try * n / 8
		b.dijkstra(v, node)
		reached := 0
		for _, c := range b.cost {
			if c < float32(math.Inf(1)) {
				reached++
			}
		}
		if reached > best {
			seed, best = node, reached
		}
	}
	b.dijkstra(v, seed)
	nearest := slices.Clone(b.cost) // per node: cost from the nearest landmark so far
	costs := make([]float32, n*count)
	var largest float32
	for k := range count {
		far, farCost := seed, float32(-1)
		for i, c := range nearest {
			if c < float32(math.Inf(1)) && c > farCost {
				far, farCost = i, c
			}
		}
		b.dijkstra(v, far)
		for i, c := range b.cost {
			costs[i*count+k] = c
			if c < nearest[i] {
				nearest[i] = c
			}
			if c < float32(math.Inf(1)) && c > largest {
				largest = c
			}
		}
	}
	l.unit = max(largest/(unreachable-2), 1e-3)
	l.steps = make([]uint16, n*count)
	for i, c := range costs {
		if c < float32(math.Inf(1)) {
			l.steps[i] = uint16(min(math.Ceil(float64(c/l.unit)), unreachable-1))
		} else {
			l.steps[i] = unreachable
		}
	}
	return l
}

// dijkstra fills b.cost with the costs from cluster node source (a search
// number) over the cluster level's steps taken either way: each node's
// edges to the other nodes of its cluster and its steps across the
// border.
func (b *landmarkBuilder) dijkstra(v *version, source int) {
	for i := range b.cost {
		b.cost[i] = float32(math.Inf(1))
	}
	b.heap = b.heap[:0]
	b.cost[source] = 0
	b.heap = pushEntry(b.heap, heapEntry{total: 0, node: int32(source)})
	for len(b.heap) > 0 {
		var e heapEntry
		b.heap, e = popEntry(b.heap)
		u := int(e.node)
		if e.total != b.cost[u] {
			continue
		}
		number, node := v.clusterOfNode(u)
		c, links := v.clusters[number], v.links[number]
		relax := func(w int, cost float32) {
			if cost < b.cost[w] {
				b.cost[w] = cost
				b.heap = pushEntry(b.heap, heapEntry{total: cost, node: int32(w)})
			}
		}
		first, end := c.edgesOf(node)
		base := int(v.clusterNodeBase[number])
		for k := first; k < end; k++ {
			relax(base+int(c.edges[k].to), e.total+c.edges[k].cost)
		}
		for _, t := range links.twinsOf(node) {
			relax(int(v.clusterNodeBase[t.cluster]+t.node), e.total+t.cost)
		}
	}
}

// clusterOfNode returns the cluster number and node index of cluster node
// i (a search number).
func (v *version) clusterOfNode(i int) (number uint32, node int) {
	// The last cluster whose base is i or below, skipping empty clusters,
	// which share their base with the next.
	k, _ := slices.BinarySearch(v.clusterNodeBase, uint32(i)+1)
	k--
	return uint32(k), i - int(v.clusterNodeBase[k])
}

// landmarksOf returns the landmarks of v, nil while they are being
// computed.
func (v *version) landmarksOf() *landmarks { return v.landmarks.Load() }

// refreshLandmarks computes the landmarks of the latest version, and again
// while a newer one appears meanwhile, then stops. Only one runs at a time.
func (h *Hierarchy) refreshLandmarks() {
	defer h.refreshing.Store(false)
	for {
		v := h.latest.Load()
		if v == nil || v.landmarksOf() != nil {
			return
		}
		h.finishVersion(v)
	}
}

// finishVersion computes what a version gets after it is built: its
// snapshot's connected components for the cost model's flags, which every
// search asks for first (a fresh mesh's take milliseconds, which the first
// search would pay otherwise), then its landmarks.
func (h *Hierarchy) finishVersion(v *version) {
	v.snap.FlagConnectivity(h.model.include, h.model.exclude)
	v.landmarks.Store(buildLandmarks(v, h.landmarkCount))
}

// startLandmarks starts refreshLandmarks on a goroutine of its own unless
// one is running.
func (h *Hierarchy) startLandmarks() {
	if h.refreshing.CompareAndSwap(false, true) {
		go func() {
			h.refreshLandmarks()
			// A version published after the check above but before the
			// flag dropped would wait for the next update: look again.
			if v := h.latest.Load(); v != nil && v.landmarksOf() == nil {
				h.startLandmarks()
			}
		}()
	}
}
