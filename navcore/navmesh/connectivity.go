package navmesh

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/go-gl/mathgl/mgl32"
)

// Connectivity labels every polygon of a Snapshot with its connected
// component: the polygons joined to each other by links, followed either
// way, off-mesh connections included. Two polygons in different components
// of Snapshot.Connectivity have no path between them in either direction,
// whatever the filter, so a path search between them can only end partial
// after visiting every polygon it can reach.
//
// The converse needs two caveats. The components of Snapshot.Connectivity
// ignore query filters: a filter that excludes polygons can still cut a
// component apart. Snapshot.FlagConnectivity gives the components of the
// polygons one flag rule passes, which a path search with that rule cannot
// leave. And a one-way off-mesh connection joins two parts that can be
// crossed one way only; ComponentInfo.OneWay marks the components holding
// one. In a component without one, two polygons are joined by a path both
// ways (unless a tile ran out of links, so that a border link has no way
// back: Detour then drops links silently).
//
// A Connectivity describes one snapshot and never changes. It is safe for
// concurrent use, and its lookups take O(1) time and allocate nothing.
type Connectivity struct {
	slots      chunkedTable[slotLabels]
	labels     []uint32
	components []ComponentInfo
}

// ComponentInfo describes one connected component of a Connectivity.
type ComponentInfo struct {
	// Polys is the number of polygons in the component, off-mesh
	// connection polygons included.
	Polys int
	// BMin and BMax bound the vertices of its polygons [Units: world units]
	BMin, BMax mgl32.Vec3
	// OneWay reports that the component holds a one-way off-mesh
	// connection: some of its polygons may not reach all the others.
	OneWay bool
}

// slotLabels locates the labels of the tile in one slot.
type slotLabels struct {
	base  uint32 // index of the tile's polygon 0 in Connectivity.labels
	polys uint32 // the tile's polygon count; 0 for an empty slot
	salt  uint32 // the tile's salt, to reject stale refs
}

// flagRule is the default rule of a query filter: a polygon passes when its
// flags hold one of include and none of exclude; with all set every
// polygon passes.
type flagRule struct {
	include, exclude uint16
	all              bool
}

func (r flagRule) passes(p *Poly) bool {
	return r.all || p.Flags&r.include != 0 && p.Flags&r.exclude == 0
}

// allPass is the rule of Snapshot.Connectivity: every polygon, whatever its
// flags.
var allPass = flagRule{all: true}

// maxFlagConnectivities bounds the flag rules whose components a snapshot
// keeps; beyond it FlagConnectivity computes without keeping.
const maxFlagConnectivities = 32

// flagConnectivityCell keeps the components of a snapshot under the flag
// rules asked for, in a list replaced whole when a rule is added.
type flagConnectivityCell struct {
	mu      sync.Mutex // serializes additions
	entries atomic.Pointer[[]flagConnectivity]
}

type flagConnectivity struct {
	rule flagRule
	c    *Connectivity
}

// connectivityCell holds the Connectivity of a tile set once computed. Every
// Snapshot with the same tiles and links shares one cell, so the labels are
// computed at most once per tile set (a flag or area change keeps them).
type connectivityCell struct {
	value atomic.Pointer[Connectivity]
}

// Connectivity returns the connected components of the snapshot. The first
// call on a new tile set labels every polygon (linear in polygons and
// links); later calls, from any goroutine, return the same value without
// allocating. Snapshots that differ only in polygon flags or areas share it.
func (s *Snapshot) Connectivity() *Connectivity {
	if s.connectivity == nil {
		return computeConnectivity(s, allPass)
	}
	if c := s.connectivity.value.Load(); c != nil {
		return c
	}
	c := computeConnectivity(s, allPass)
	if s.connectivity.value.CompareAndSwap(nil, c) {
		return c
	}
	return s.connectivity.value.Load()
}

// FlagConnectivity returns the connected components of the polygons whose
// flags hold one of include and none of exclude (the default rule of a
// query filter): links to and from other polygons are ignored, and those
// polygons have component 0. A path search with that rule never leaves
// the component of its first step. The first call for a rule on a snapshot
// labels every polygon; later calls return the same value without
// allocating. Unlike Connectivity, it is computed again for every snapshot,
// since flag changes make new snapshots.
func (s *Snapshot) FlagConnectivity(include, exclude uint16) *Connectivity {
	rule := flagRule{include: include, exclude: exclude}
	cell := s.flagConnectivity
	if cell == nil {
		return computeConnectivity(s, rule)
	}
	if c := findFlagConnectivity(cell.entries.Load(), rule); c != nil {
		return c
	}
	cell.mu.Lock()
	defer cell.mu.Unlock()
	entries := cell.entries.Load()
	if c := findFlagConnectivity(entries, rule); c != nil {
		return c
	}
	c := computeConnectivity(s, rule)
	var list []flagConnectivity
	if entries != nil {
		list = *entries
	}
	if len(list) < maxFlagConnectivities {
		grown := append(list[:len(list):len(list)], flagConnectivity{rule: rule, c: c})
		cell.entries.Store(&grown)
	}
	return c
}

func findFlagConnectivity(entries *[]flagConnectivity, rule flagRule) *Connectivity {
	if entries == nil {
		return nil
	}
	for i := range *entries {
		if (*entries)[i].rule == rule {
			return (*entries)[i].c
		}
	}
	return nil
}

// Component returns the connected component of polygon ref, 0 when ref
// names no polygon of the snapshot; see Connectivity.Component.
func (s *Snapshot) Component(ref Ref) uint32 { return s.Connectivity().Component(ref) }

// SameComponent reports whether a and b are polygons of the same connected
// component; see Connectivity.SameComponent.
func (s *Snapshot) SameComponent(a, b Ref) bool { return s.Connectivity().SameComponent(a, b) }

// Component returns the component of polygon ref, numbered from 1 in the
// order of the tile slots and polygons, or 0 when ref is zero, stale or
// out of range, or fails the flag rule of a FlagConnectivity.
func (c *Connectivity) Component(ref Ref) uint32 {
	it, ip := ref.TileIndex(), ref.PolyIndex()
	if ref == 0 || int(it) >= len(c.slots.dir)<<c.slots.shift {
		return 0
	}
	slot := c.slots.at(it)
	if ip >= slot.polys || slot.salt != ref.Salt() {
		return 0
	}
	return c.labels[slot.base+ip]
}

// SameComponent reports whether a and b are both polygons and lie in the
// same component. When it is false, no path leads from a to b nor from b to
// a.
func (c *Connectivity) SameComponent(a, b Ref) bool {
	ca := c.Component(a)
	return ca != 0 && ca == c.Component(b)
}

// ComponentCount returns the number of components.
func (c *Connectivity) ComponentCount() int { return len(c.components) }

// PolyCount returns the number of polygons of the snapshot, labelled or
// (failing a flag rule) not.
func (c *Connectivity) PolyCount() int { return len(c.labels) }

// Info returns the description of component id (1..ComponentCount), false
// for any other id.
func (c *Connectivity) Info(id uint32) (ComponentInfo, bool) {
	if id == 0 || int(id) > len(c.components) {
		return ComponentInfo{}, false
	}
	return c.components[id-1], true
}

// computeConnectivity labels the polygons of s that rule passes (every
// polygon for allPass): a union-find over the links between them, then
// components numbered in order of first appearance.
func computeConnectivity(s *Snapshot, rule flagRule) *Connectivity {
	passes := rule.passes
	c := &Connectivity{slots: newChunkedTable[slotLabels](int(s.maxTiles))}
	total := uint32(0)
	s.eachTile(func(t *Tile) {
		c.setSlot(t.index, slotLabels{base: total, polys: uint32(len(t.Polys)), salt: t.salt})
		total += uint32(len(t.Polys))
	})

	parent := make([]uint32, total)
	for i := range parent {
		parent[i] = uint32(i)
	}
	s.eachTile(func(t *Tile) {
		base := c.slots.at(t.index).base
		for ip := range t.Polys {
			if !passes(&t.Polys[ip]) {
				continue
			}
			for l := t.Polys[ip].FirstLink; l != NullLink; l = t.Links[l].Next {
				ref := t.Links[l].Ref
				if ref.TileIndex() == t.index && ref.Salt() == t.salt && ref.PolyIndex() < uint32(len(t.Polys)) {
					if passes(&t.Polys[ref.PolyIndex()]) {
						union(parent, base+uint32(ip), base+ref.PolyIndex())
					}
				} else if other, ok := c.flatIndex(ref); ok {
					if _, poly := s.TileAndPolyUnchecked(ref); passes(poly) {
						union(parent, base+uint32(ip), other)
					}
				}
			}
		}
	})

	// Number the components in order of their first polygon: a root is the
	// lowest index of its set, so it is labelled before the rest of it.
	c.labels = make([]uint32, total)
	s.eachTile(func(t *Tile) {
		base := c.slots.at(t.index).base
		for ip := range t.Polys {
			i := base + uint32(ip)
			if !passes(&t.Polys[ip]) {
				continue
			}
			if root := find(parent, i); root != i {
				c.labels[i] = c.labels[root]
			} else {
				c.components = append(c.components, ComponentInfo{
					BMin: mgl32.Vec3{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32},
					BMax: mgl32.Vec3{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32},
				})
				c.labels[i] = uint32(len(c.components))
			}
			info := &c.components[c.labels[i]-1]
			info.Polys++
			poly := &t.Polys[ip]
			for _, vi := range poly.Verts[:poly.VertCount] {
				growBounds(&info.BMin, &info.BMax, &t.Verts[vi])
			}
		}
		for k := range t.OffMeshConnections {
			con := &t.OffMeshConnections[k]
			if con.Flags&OffMeshBidirectional == 0 && int(con.Poly) < len(t.Polys) && c.labels[base+uint32(con.Poly)] != 0 {
				c.components[c.labels[base+uint32(con.Poly)]-1].OneWay = true
			}
		}
	})
	return c
}

// growBounds extends [bmin, bmax] to hold v. Plain comparisons: the
// built-in min and max on floats also order NaNs, which costs here.
func growBounds(bmin, bmax, v *mgl32.Vec3) {
	for a := range 3 {
		if v[a] < bmin[a] {
			bmin[a] = v[a]
		}
		if v[a] > bmax[a] {
			bmax[a] = v[a]
		}
	}
}

// eachTile calls fn for every tile of s in slot order, skipping empty
// chunks of slots whole.
func (s *Snapshot) eachTile(fn func(*Tile)) {
	for _, chunk := range s.tiles.dir {
		for _, t := range chunk {
			if t != nil {
				fn(t)
			}
		}
	}
}

// setSlot stores the labels location of slot i while the Connectivity is
// being built.
func (c *Connectivity) setSlot(i uint32, v slotLabels) {
	d := i >> c.slots.shift
	if c.slots.dir[d] == nil {
		c.slots.dir[d] = make([]slotLabels, c.slots.mask+1)
	}
	c.slots.dir[d][i&c.slots.mask] = v
}

// flatIndex returns the index in labels of polygon ref, false when ref names
// no labelled polygon.
func (c *Connectivity) flatIndex(ref Ref) (uint32, bool) {
	it, ip := ref.TileIndex(), ref.PolyIndex()
	if int(it) >= len(c.slots.dir)<<c.slots.shift {
		return 0, false
	}
	slot := c.slots.at(it)
	if ip >= slot.polys || slot.salt != ref.Salt() {
		return 0, false
	}
	return slot.base + ip, true
}

// find returns the root of i, halving the path on the way.
func find(parent []uint32, i uint32) uint32 {
	for parent[i] != i {
		parent[i] = parent[parent[i]]
		i = parent[i]
	}
	return i
}

// union joins the sets of a and b under the smaller root, so that roots
// stay the first polygon of their set.
func union(parent []uint32, a, b uint32) {
	ra, rb := find(parent, a), find(parent, b)
	switch {
	case ra < rb:
		parent[rb] = ra
	case rb < ra:
		parent[ra] = rb
	}
}
