package hierarchy

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Options tune a Hierarchy. The zero value is the default.
type Options struct {
	// ClusterSize is the side of a cluster, the upper level's unit, in
	// tiles; every layer of those grid locations belongs to it. Larger
	// clusters make the upper level smaller and a tile change dearer
	// [Limit: 0..MaxClusterSize; 0 = DefaultClusterSize]
	ClusterSize int
	// RegionSize is the side of a region, the top level's unit, in
	// clusters: long searches cross the regions between their start and
	// goal on the top level, closing fewer nodes. 1 leaves the top level
	// out. On the 1 km level of benchmarks/bigworld regions of 2 close 40 %
	// fewer nodes on long searches but take as long (each node costs
	// more), add a tenth to the memory and double a tile change's cost,
	// so the default leaves them out
	// [Limit: 0..MaxRegionSize; 0 = DefaultRegionSize]
	RegionSize int
	// MaxPortWidth bounds the stretch of tile border one port covers:
	// narrower ports make the costs between them truer and the graph
	// larger [Limit: >= 0, finite; 0 = a third of the tile width]
	// [Units: world units]
	MaxPortWidth float32
	// Workers is the number of goroutines that build the graphs of many
	// tiles at once [Limit: >= 0; 0 = runtime.GOMAXPROCS(0)]
	Workers int
	// Landmarks is the number of cluster nodes whose costs to every other
	// the search uses as a lower bound of the cost to the goal; more cut
	// the nodes a search visits, each costs 2 bytes per cluster node
	// [Limit: 0..MaxLandmarks; 0 = DefaultLandmarks]
	Landmarks int
	// ManualLandmarks leaves the landmarks of a version made by an update
	// (and the labels of its snapshot's connected components under the
	// cost model's flags, which every search reads first) to
	// UpdateLandmarks; by default a goroutine of the hierarchy computes
	// them after each update (searches meanwhile use the straight-line
	// bound, correct but slower, and the first one labels the components).
	ManualLandmarks bool
}

// Limits and defaults of Options.
const (
	// DefaultClusterSize is the cluster side when Options.ClusterSize is 0.
	DefaultClusterSize = 4
	// MaxClusterSize is the largest Options.ClusterSize: 8 × 8 tiles keep
	// one bit per tile of a cluster's ways in a 64-bit mask.
	MaxClusterSize = 8
	// DefaultRegionSize is the region side when Options.RegionSize is 0.
	DefaultRegionSize = 1
	// MaxRegionSize is the largest Options.RegionSize.
	MaxRegionSize = 8
	// DefaultLandmarks is the number of landmarks when Options.Landmarks
	// is 0.
	DefaultLandmarks = 12
	// MaxLandmarks is the largest Options.Landmarks.
	MaxLandmarks = 64
	// maxWorkers bounds Options.Workers.
	maxWorkers = 256
)

// recentVersions is how many versions a Hierarchy keeps for queries that
// hold an older snapshot than the mesh's current one: the current
// snapshot's and those of older snapshots asked for since it became
// current. A version of an older snapshot that nothing asks for again is
// let go when a newer one becomes current, so that the hierarchy keeps no
// replaced tile version in memory (a search in progress holds its own).
const recentVersions = 4

// Hierarchy is the abstract graph of a Mesh under one cost model (a
// query.Filter's area costs and flag rule): a graph per tile version of
// the portals where the mesh crosses tile borders and the costs between
// them through the tile, and, one level up, a graph per cluster of tiles
// of the ways between the portals on the cluster's border. Searchers use
// it to plan long paths quickly (see Searcher).
//
// A Hierarchy follows its mesh: each snapshot of the mesh gets a version
// of its own, built on first use (by Update or by a search) from the
// previous one, recomputing only the graphs of tile versions that
// changed (tiles added, removed or swapped, flags and areas edited) and of
// the clusters holding them. A search works on the version of one
// snapshot from start to end. A Hierarchy is safe for concurrent use by
// any number of goroutines.
type Hierarchy struct {
	mesh            *navmesh.Mesh
	model           costModel
	clusterSize     int32
	regionSize      int32
	maxPortWidth    float32
	workers         int
	landmarkCount   int
	manualLandmarks bool

	latest     atomic.Pointer[version]
	refreshing atomic.Bool // a goroutine computes landmarks

	mu           sync.Mutex // serializes builds; guards the fields below
	recent       [recentVersions]*version
	nextRecent   int
	clusterIndex map[clusterKey]uint32
	clusterKeys  []clusterKey
	// clusterRegion gives, per cluster number, its region's number;
	// regionIndex numbers the regions by their key and regionClusters
	// lists each one's cluster numbers, sorted.
	clusterRegion   []uint32
	regionIndex     map[clusterKey]uint32
	regionClusters  [][]uint32
	regionBuilders  []regionBuilder
	graphBuilders   []graphBuilder
	clusterBuilders []clusterBuilder
	scratchSlots    []uint32
	scratchDirty    []uint32
	scratchLinks    []uint32
	scratchRegions  []uint32
}

// New builds the hierarchy of mesh's current snapshot for filter's cost
// model (its area costs and include/exclude flags; the filter is copied).
// The error wraps ErrInvalidParam for a nil mesh or filter, a filter with
// a Custom rule, an area cost below zero or not finite, or options outside
// their limits.
func New(mesh *navmesh.Mesh, filter *query.Filter, opts Options) (*Hierarchy, error) {
	switch {
	case mesh == nil:
		return nil, fmt.Errorf("hierarchy: new: nil mesh: %w", ErrInvalidParam)
	case filter == nil:
		return nil, fmt.Errorf("hierarchy: new: nil filter: %w", ErrInvalidParam)
	case filter.Custom != nil:
		return nil, fmt.Errorf("hierarchy: new: a filter with a Custom rule has no fixed costs: %w", ErrInvalidParam)
	case opts.ClusterSize < 0 || opts.ClusterSize > MaxClusterSize:
		return nil, fmt.Errorf("hierarchy: new: cluster size %d outside 0..%d: %w", opts.ClusterSize, MaxClusterSize, ErrInvalidParam)
	case !(opts.MaxPortWidth >= 0) || math.IsInf(float64(opts.MaxPortWidth), 1):
		return nil, fmt.Errorf("hierarchy: new: max port width %v is not a finite number >= 0: %w", opts.MaxPortWidth, ErrInvalidParam)
	case opts.RegionSize < 0 || opts.RegionSize > MaxRegionSize:
		return nil, fmt.Errorf("hierarchy: new: region size %d outside 0..%d: %w", opts.RegionSize, MaxRegionSize, ErrInvalidParam)
	case opts.Workers < 0 || opts.Workers > maxWorkers:
		return nil, fmt.Errorf("hierarchy: new: %d workers outside 0..%d: %w", opts.Workers, maxWorkers, ErrInvalidParam)
	case opts.Landmarks < 0 || opts.Landmarks > MaxLandmarks:
		return nil, fmt.Errorf("hierarchy: new: %d landmarks outside 0..%d: %w", opts.Landmarks, MaxLandmarks, ErrInvalidParam)
	}
	for area, cost := range filter.AreaCost {
		if !(cost >= 0) || math.IsInf(float64(cost), 1) {
			return nil, fmt.Errorf("hierarchy: new: area %d costs %v: %w", area, cost, ErrInvalidParam)
		}
	}
	h := &Hierarchy{
		mesh:            mesh,
		model:           modelOf(filter),
		clusterSize:     int32(opts.ClusterSize),
		regionSize:      int32(opts.RegionSize),
		maxPortWidth:    opts.MaxPortWidth,
		workers:         opts.Workers,
		landmarkCount:   opts.Landmarks,
		manualLandmarks: opts.ManualLandmarks,
		clusterIndex:    map[clusterKey]uint32{},
		regionIndex:     map[clusterKey]uint32{},
	}
	if h.regionSize == 0 {
		h.regionSize = DefaultRegionSize
	}
	if h.landmarkCount == 0 {
		h.landmarkCount = DefaultLandmarks
	}
	if h.clusterSize == 0 {
		h.clusterSize = DefaultClusterSize
	}
	if h.maxPortWidth == 0 {
		h.maxPortWidth = mesh.Params().TileWidth / 3
	}
	if h.workers == 0 {
		h.workers = defaultWorkers()
	}
	h.graphBuilders = make([]graphBuilder, h.workers)
	h.clusterBuilders = make([]clusterBuilder, h.workers)
	h.regionBuilders = make([]regionBuilder, h.workers)
	h.mu.Lock()
	v := h.build(mesh.Snapshot(), nil)
	h.finishVersion(v)
	h.remember(v)
	h.latest.Store(v)
	h.mu.Unlock()
	return h, nil
}

// UpdateLandmarks brings the hierarchy to the mesh's current snapshot and
// computes that version's landmarks (and its snapshot's connected
// components) now if they are not ready, so that the searches that follow
// get the landmark bound at once.
func (h *Hierarchy) UpdateLandmarks() {
	v := h.versionFor(h.mesh.Snapshot())
	if v.landmarksOf() != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if v.landmarksOf() == nil {
		h.finishVersion(v)
	}
}

// UpdateLandmarksOf computes the landmarks of the version of snap, a
// snapshot of the hierarchy's mesh that need not be the current one,
// building that version first if it is not at hand; a search begun on
// snap afterwards gets the landmark bound (see Searcher.InitSlicedFindPathOn).
// A nil snap does nothing.
func (h *Hierarchy) UpdateLandmarksOf(snap *navmesh.Snapshot) {
	if snap == nil {
		return
	}
	v := h.versionFor(snap)
	if v.landmarksOf() != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if v.landmarksOf() == nil {
		h.finishVersion(v)
	}
}

// Mesh returns the mesh the hierarchy follows.
func (h *Hierarchy) Mesh() *navmesh.Mesh { return h.mesh }

// Matches reports whether filter has the hierarchy's cost model: no
// Custom rule, the same include and exclude flags and the same area
// costs. Searches with any other filter fall back to plain A*.
func (h *Hierarchy) Matches(filter *query.Filter) bool { return h.model.matches(filter) }

// Filter returns a new filter with the hierarchy's cost model.
func (h *Hierarchy) Filter() *query.Filter {
	return &query.Filter{AreaCost: h.model.areaCost, IncludeFlags: h.model.include, ExcludeFlags: h.model.exclude}
}

// Update brings the hierarchy to the mesh's current snapshot now, rather
// than in the first search that needs it, and returns what it recomputed
// (nothing when it was up to date).
func (h *Hierarchy) Update() UpdateStats {
	snap := h.mesh.Snapshot()
	if v := h.latest.Load(); v != nil && v.snap == snap {
		return UpdateStats{}
	}
	return h.versionFor(snap).stats
}

// versionFor returns the version of snap, building it when it is new.
func (h *Hierarchy) versionFor(snap *navmesh.Snapshot) *version {
	if v := h.latest.Load(); v != nil && v.snap == snap {
		return v
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range h.recent {
		if v != nil && v.snap == snap {
			return v
		}
	}
	v := h.build(snap, h.latest.Load())
	if h.mesh.Snapshot() != snap {
		h.remember(v)
		return v
	}
	// The versions of older snapshots go: a search that began on one holds
	// it, and one that begins on one builds it again from v.
	clear(h.recent[:])
	h.nextRecent = 0
	h.remember(v)
	h.latest.Store(v)
	if !h.manualLandmarks {
		h.startLandmarks()
	}
	return v
}

// remember keeps v among the recent versions. The caller holds h.mu.
func (h *Hierarchy) remember(v *version) {
	h.recent[h.nextRecent] = v
	h.nextRecent = (h.nextRecent + 1) % recentVersions
}

// Stats describe one version of a hierarchy.
type Stats struct {
	// Tiles is the number of tiles.
	Tiles int
	// Ports and Edges count the bottom level's nodes and edges.
	Ports, Edges int
	// Clusters, ClusterNodes and ClusterEdges count the cluster level.
	Clusters, ClusterNodes, ClusterEdges int
	// Regions, RegionNodes and RegionEdges count the top level.
	Regions, RegionNodes, RegionEdges int
	// Landmarks is the number of landmarks, 0 while they are being
	// computed.
	Landmarks int
	// MemoryBytes is the size of the version's graphs and tables.
	MemoryBytes int
	// LastUpdate is the work that built the version.
	LastUpdate UpdateStats
}

// Stats describes the version of the mesh's current snapshot, building it
// first if need be.
func (h *Hierarchy) Stats() Stats {
	v := h.versionFor(h.mesh.Snapshot())
	s := Stats{
		Ports: v.ports, Edges: v.edges,
		ClusterNodes: v.clusterNodes, ClusterEdges: v.clusterEdges,
		RegionNodes: v.regionNodes, RegionEdges: v.regionEdges,
		MemoryBytes: v.memory, LastUpdate: v.stats,
	}
	if l := v.landmarksOf(); l != nil {
		s.Landmarks = l.count
		s.MemoryBytes += l.memoryBytes()
	}
	for i := range v.slots {
		if v.slots[i].graph != nil {
			s.Tiles++
		}
	}
	for _, c := range v.clusters {
		if c != nil {
			s.Clusters++
		}
	}
	for _, r := range v.regions {
		if r != nil {
			s.Regions++
		}
	}
	return s
}

// MemoryBytes returns the size in memory of the version of the mesh's
// current snapshot: its graphs and tables, shared or not with other
// versions.
func (h *Hierarchy) MemoryBytes() int {
	v := h.versionFor(h.mesh.Snapshot())
	return v.memory + v.landmarksOf().memoryBytes()
}
