package hierarchy

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/archenav/archenav/navcore/navmesh"
)

// version is the hierarchy of one snapshot: a tile graph per tile, a
// cluster graph per cluster, and the numbering of the ports a search
// uses. It never changes once published; the graphs it shares with other
// versions are those of the tile versions both snapshots hold.
type version struct {
	snap  *navmesh.Snapshot
	slots []slotEntry
	// clusters and links are indexed by the hierarchy's cluster numbers;
	// nil for a cluster without tiles.
	clusters []*clusterGraph
	links    []*clusterLinks
	// regions are indexed by the hierarchy's region numbers; nil for a
	// region without nodes, or all nil without a top level.
	regions []*regionGraph
	// clusterRegion gives, per cluster number, its region's number.
	clusterRegion []uint32
	portCount     int
	// clusterNodeBase numbers the cluster nodes for a search: node k of
	// cluster c is node clusterNodeBase[c]+k; clusterNodes counts them.
	clusterNodeBase []uint32
	clusterNodes    int
	// landmarks are computed after the version is published (see
	// Hierarchy.UpdateLandmarks); nil until then.
	landmarks atomic.Pointer[landmarks]
	stats     UpdateStats
	memory    int
	// counts over the whole version, for Stats.
	ports, edges, clusterEdges int
	regionNodes, regionEdges   int
}

// slotEntry is what a version holds for one tile slot.
type slotEntry struct {
	graph *tileGraph
	// portBase numbers the tile's ports for a search: port p is node
	// portBase+p.
	portBase uint32
	// cluster is the tile's cluster number.
	cluster uint32
	// boundaryBase is the index of the tile's first node in its cluster
	// graph.
	boundaryBase uint32
}

// UpdateStats describe the work of one update of a hierarchy.
type UpdateStats struct {
	// TilesBuilt and ClustersBuilt count the tile and cluster graphs
	// computed; the others were kept from the previous version.
	TilesBuilt, ClustersBuilt int
	// Duration is how long the update took.
	Duration time.Duration
}

// build returns the version of snap, reusing from base (nil for none) the
// graphs of every tile version and cluster that did not change.
func (h *Hierarchy) build(snap *navmesh.Snapshot, base *version) *version {
	began := time.Now()
	maxTiles := snap.MaxTiles()
	v := &version{snap: snap, slots: make([]slotEntry, maxTiles)}
	var baseSlots []slotEntry
	if base != nil {
		baseSlots = base.slots
		v.clusters = slices.Clone(base.clusters)
		v.links = slices.Clone(base.links)
		v.regions = slices.Clone(base.regions)
	}

	// Tile graphs: keep those of unchanged tile versions.
	rebuild := h.scratchSlots[:0]
	for i := range maxTiles {
		t := snap.Tile(i)
		if t == nil {
			continue
		}
		if i < len(baseSlots) && baseSlots[i].graph != nil && baseSlots[i].graph.tile == t {
			v.slots[i] = baseSlots[i]
			continue
		}
		rebuild = append(rebuild, uint32(i))
	}
	h.scratchSlots = rebuild
	graphs := h.buildGraphs(snap, rebuild)
	dirty := h.scratchDirty[:0]
	markDirty := func(index uint32) {
		if !slices.Contains(dirty, index) {
			dirty = append(dirty, index)
		}
	}
	for k, i := range rebuild {
		g := graphs[k]
		v.slots[i] = slotEntry{graph: g, cluster: h.clusterNumber(clusterOf(&g.tile.Data.Header, h.clusterSize))}
		markDirty(v.slots[i].cluster)
	}
	for i := range baseSlots {
		if old := baseSlots[i].graph; old != nil && (i >= maxTiles || v.slots[i].graph != old) {
			markDirty(baseSlots[i].cluster)
		}
	}
	h.scratchDirty = dirty
	for len(v.clusters) < len(h.clusterKeys) {
		v.clusters = append(v.clusters, nil)
		v.links = append(v.links, nil)
	}

	// Cluster graphs of the clusters whose tiles changed.
	members := make([][]*tileGraph, len(dirty))
	for i := range v.slots {
		g := v.slots[i].graph
		if g == nil {
			continue
		}
		if k := slices.Index(dirty, v.slots[i].cluster); k >= 0 {
			members[k] = append(members[k], g)
		}
	}
	built := h.buildClusters(dirty, members)
	for k, number := range dirty {
		v.clusters[number] = built[k]
	}

	// Place each tile among its cluster's nodes and number the ports.
	for _, c := range built {
		if c == nil {
			continue
		}
		for j, g := range c.tiles {
			v.slots[g.tile.Index()].boundaryBase = c.boundaryBase[j]
		}
	}
	ports := uint32(0)
	for i := range v.slots {
		v.slots[i].portBase = ports
		if g := v.slots[i].graph; g != nil {
			ports += uint32(len(g.ports))
		}
	}

	// The steps out of the clusters that changed and of those next to a
	// tile that changed or to a cluster whose nodes were numbered again.
	linksDirty := append(h.scratchLinks[:0], dirty...)
	markLinks := func(g *tileGraph, slots []slotEntry) {
		for p := range g.ports {
			if n := g.ports[p].neighbour; int(n) < len(slots) && slots[n].graph != nil {
				if c := slots[n].cluster; !slices.Contains(linksDirty, c) {
					linksDirty = append(linksDirty, c)
				}
			}
		}
	}
	for k := range rebuild {
		markLinks(graphs[k], v.slots)
	}
	for i := range baseSlots {
		if old := baseSlots[i].graph; old != nil && (i >= maxTiles || v.slots[i].graph != old) {
			markLinks(old, v.slots)
		}
	}
	for _, c := range built {
		if c != nil {
			for _, g := range c.tiles {
				markLinks(g, v.slots)
			}
		}
	}
	h.scratchLinks = linksDirty
	links := make([]*clusterLinks, len(linksDirty))
	h.parallel(len(linksDirty), func(_, k int) {
		if c := v.clusters[linksDirty[k]]; c != nil {
			links[k] = buildLinks(c, v.slots, &h.model)
		}
	})
	for k, number := range linksDirty {
		v.links[number] = links[k]
	}

	// The regions whose clusters or steps between them changed.
	v.clusterRegion = slices.Clone(h.clusterRegion)
	for len(v.regions) < len(h.regionClusters) {
		v.regions = append(v.regions, nil)
	}
	if h.regionSize > 1 {
		regionsDirty := h.scratchRegions[:0]
		for _, number := range linksDirty {
			if r := h.clusterRegion[number]; !slices.Contains(regionsDirty, r) {
				regionsDirty = append(regionsDirty, r)
			}
		}
		h.scratchRegions = regionsDirty
		regions := make([]*regionGraph, len(regionsDirty))
		h.parallel(len(regionsDirty), func(worker, k int) {
			r := regionsDirty[k]
			regions[k] = h.regionBuilders[worker].buildRegion(v, r, h.regionClusters[r], h.clusterRegion)
		})
		for k, r := range regionsDirty {
			v.regions[r] = regions[k]
		}
	}
	v.portCount = int(ports)
	v.clusterNodeBase = make([]uint32, len(v.clusters))
	nodes := uint32(0)
	for i, c := range v.clusters {
		v.clusterNodeBase[i] = nodes
		if c != nil {
			nodes += uint32(len(c.nodes))
		}
	}
	v.clusterNodes = int(nodes)
	v.count()
	v.stats = UpdateStats{TilesBuilt: len(rebuild), ClustersBuilt: len(dirty), Duration: time.Since(began)}
	h.releaseScratch()
	return v
}

// count sums the version's sizes for Stats and MemoryBytes.
func (v *version) count() {
	v.memory = int(unsafe.Sizeof(*v)) + len(v.slots)*int(unsafe.Sizeof(slotEntry{})) + len(v.clusters)*(16+4)
	for i := range v.slots {
		if g := v.slots[i].graph; g != nil {
			v.memory += g.memoryBytes()
			v.ports += len(g.ports)
			v.edges += len(g.edges)
		}
	}
	for _, c := range v.clusters {
		if c != nil {
			v.memory += c.memoryBytes()
			v.clusterEdges += len(c.edges)
		}
	}
	for _, l := range v.links {
		if l != nil {
			v.memory += l.memoryBytes()
		}
	}
	v.memory += len(v.regions)*8 + len(v.clusterRegion)*4
	for _, r := range v.regions {
		if r != nil {
			v.memory += r.memoryBytes()
			v.regionNodes += len(r.nodes)
			v.regionEdges += len(r.edges)
		}
	}
}

// clusterNumber returns the number of the cluster key, giving it the next
// one the first time. The caller holds h.mu.
func (h *Hierarchy) clusterNumber(key clusterKey) uint32 {
	if n, ok := h.clusterIndex[key]; ok {
		return n
	}
	n := uint32(len(h.clusterKeys))
	h.clusterIndex[key] = n
	h.clusterKeys = append(h.clusterKeys, key)
	regionKey := clusterKey{floorDiv(key.x, h.regionSize), floorDiv(key.y, h.regionSize)}
	r, ok := h.regionIndex[regionKey]
	if !ok {
		r = uint32(len(h.regionClusters))
		h.regionIndex[regionKey] = r
		h.regionClusters = append(h.regionClusters, nil)
	}
	h.clusterRegion = append(h.clusterRegion, r)
	members := append(h.regionClusters[r], n)
	slices.Sort(members)
	h.regionClusters[r] = members
	return n
}

// parallelThreshold is the least work items buildGraphs and buildClusters
// share out over worker goroutines; fewer are done on the caller's.
const parallelThreshold = 16

// buildGraphs computes the tile graphs of the slots of snap, on the
// hierarchy's workers when there are many.
func (h *Hierarchy) buildGraphs(snap *navmesh.Snapshot, slots []uint32) []*tileGraph {
	graphs := make([]*tileGraph, len(slots))
	h.parallel(len(slots), func(worker, k int) {
		b := &h.graphBuilders[worker]
		graphs[k] = b.buildTileGraph(snap, snap.Tile(int(slots[k])), &h.model, h.clusterSize, h.maxPortWidth)
	})
	return graphs
}

// buildClusters computes the cluster graphs of the cluster numbers, made
// of members; a cluster left without tiles gets nil.
func (h *Hierarchy) buildClusters(numbers []uint32, members [][]*tileGraph) []*clusterGraph {
	clusters := make([]*clusterGraph, len(numbers))
	h.parallel(len(numbers), func(worker, k int) {
		if len(members[k]) == 0 {
			return
		}
		b := &h.clusterBuilders[worker]
		clusters[k] = b.buildCluster(h.clusterKeys[numbers[k]], members[k], &h.model)
	})
	return clusters
}

// parallel calls work(worker, k) for k in 0..n-1, on the hierarchy's
// worker goroutines when n is large enough, else on this one.
func (h *Hierarchy) parallel(n int, work func(worker, k int)) {
	workers := min(h.workers, n)
	if n < parallelThreshold || workers <= 1 {
		for k := range n {
			work(0, k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				work(w, k)
			}
		}()
	}
	wg.Wait()
}

// defaultWorkers is the number of build goroutines when Options.Workers
// is 0.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// keptScratch bounds the working memory the builders keep from one build
// to the next [Units: bytes]: a tile change reuses it, a full build's is
// let go so that it does not weigh on the hierarchy's memory.
const keptScratch = 64 << 10

// releaseScratch drops the builders' working memory when it has grown past
// keptScratch. The caller holds h.mu.
func (h *Hierarchy) releaseScratch() {
	for i := range h.graphBuilders {
		// The last tile searched goes, whatever the size: the mesh may
		// replace it.
		h.graphBuilders[i].search.release()
		if h.graphBuilders[i].scratchBytes() > keptScratch {
			h.graphBuilders[i] = graphBuilder{}
		}
	}
	for i := range h.clusterBuilders {
		if h.clusterBuilders[i].scratchBytes() > keptScratch {
			h.clusterBuilders[i] = clusterBuilder{}
		}
	}
	if cap(h.scratchSlots)*4 > keptScratch {
		h.scratchSlots = nil
	}
}
