package navmesh

import (
	"math"
	"slices"
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
	// flatSlots locates the labels of each slot's tile when every tile of
	// the snapshot sits in its flat slot array (Snapshot.TileSlots): one
	// index, and one allocation to build; slots does otherwise (flat is
	// false).
	flat       bool
	flatSlots  []slotLabels
	slots      radixTable[slotLabels]
	labels     []uint32
	components []ComponentInfo
}

// slot returns where the labels of the tile in slot it lie (polys 0 for
// none).
func (c *Connectivity) slot(it uint32) slotLabels {
	if c.flat {
		if it < uint32(len(c.flatSlots)) {
			return c.flatSlots[it]
		}
		return slotLabels{}
	}
	return c.slots.at(it)
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
	entry uint32 // the tile's place in slot order while the labels are computed
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
// call on a new tile set labels every polygon: each tile version labels its
// own polygons once (linear in its polygons and links) and keeps that, so
// after a tile change only the tiles that changed do it again, and the rest
// costs a few nanoseconds a polygon (0.5 ms for 100,000). Later calls, from
// any goroutine, return the same value without allocating. Snapshots that
// differ only in polygon flags or areas share it.
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
// labels every polygon, reusing the labels of the tiles that did not change
// as Connectivity does (a flag change is a change of its tile); later
// calls return the same value without allocating. Unlike Connectivity, it
// is computed again for every snapshot, since flag changes make new
// snapshots.
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
	if ref == 0 {
		return 0
	}
	slot := c.slot(it)
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
	if id == 0 || uint64(id) > uint64(len(c.components)) { // not int(id): negative on 32-bit CPUs
		return ComponentInfo{}, false
	}
	return c.components[id-1], true
}

// computeConnectivity labels the polygons of s that rule passes (every
// polygon for allPass), in two levels. Each tile version labels its own
// polygons by the links inside it, once per rule (tileComponentsOf keeps
// the result with the version, which never changes); then a union-find
// joins those tile components across the links between tiles, and the
// components are numbered in order of their first polygon in slot order.
// After a tile change only the changed versions (the tile and the
// neighbours it links with) label their polygons again: the rest costs a
// pass over the links between tiles and one label per polygon.
func computeConnectivity(s *Snapshot, rule flagRule) *Connectivity {
	c := &Connectivity{flat: s.flatAll}
	var slots radixEdit[slotLabels]
	if c.flat {
		c.flatSlots = make([]slotLabels, len(s.flat))
	} else {
		slots = editRadix(radixTable[slotLabels]{})
	}
	type tileEntry struct {
		tile  *Tile
		local *tileComponents
		node  uint32 // the union-find node of the tile's first component
	}
	entries := make([]tileEntry, 0, s.tileCount)
	polys, nodes := uint32(0), uint32(0)
	var scratch componentScratch
	s.eachTile(func(t *Tile) {
		local := t.componentsOf(rule, &scratch)
		labels := slotLabels{base: polys, polys: uint32(len(t.Polys)), salt: t.salt, entry: uint32(len(entries))}
		if c.flat {
			c.flatSlots[t.index] = labels
		} else {
			slots.set(t.index, labels)
		}
		entries = append(entries, tileEntry{tile: t, local: local, node: nodes})
		polys += uint32(len(t.Polys))
		nodes += uint32(len(local.infos))
	})

	if !c.flat {
		c.slots = slots.table
	}
	parent := make([]uint32, nodes)
	for i := range parent {
		parent[i] = uint32(i)
	}
	for _, e := range entries {
		for _, link := range e.local.external {
			it, ip := link.target.TileIndex(), link.target.PolyIndex()
			slot := c.slot(it)
			if ip >= slot.polys || slot.salt != link.target.Salt() {
				continue
			}
			other := &entries[slot.entry]
			if label := other.local.labels[ip]; label != 0 {
				union(parent, e.node+link.from-1, other.node+label-1)
			}
		}
	}

	// Number the components in order of their first tile component: a root
	// is the lowest node of its set, so it is numbered before the rest.
	numbers := make([]uint32, nodes)
	for _, e := range entries {
		for k := range e.local.infos {
			node := e.node + uint32(k)
			local := &e.local.infos[k]
			if root := find(parent, node); root != node {
				numbers[node] = numbers[root]
				info := &c.components[numbers[node]-1]
				info.Polys += local.Polys
				mergeBounds(&info.BMin, &info.BMax, &local.BMin, &local.BMax)
				info.OneWay = info.OneWay || local.OneWay
			} else {
				c.components = append(c.components, *local)
				numbers[node] = uint32(len(c.components))
			}
		}
	}
	c.labels = make([]uint32, polys)
	for _, e := range entries {
		labels := c.labels[c.slot(e.tile.index).base:]
		for ip, label := range e.local.labels {
			if label != 0 {
				labels[ip] = numbers[e.node+label-1]
			}
		}
	}
	return c
}

// tileComponents labels the polygons of one tile version that a flag rule
// passes by the links inside the tile: the tile components, numbered from
// 1 in order of their first polygon. The links that leave the tile are
// kept for the second level of computeConnectivity.
type tileComponents struct {
	rule     flagRule
	labels   []uint32        // per polygon: its tile component, 0 when it fails the rule
	infos    []ComponentInfo // per tile component
	external []externalLink
}

// externalLink is a link from a polygon of tile component from to a
// polygon of another tile.
type externalLink struct {
	from   uint32
	target Ref
}

// maxTileComponentRules bounds the rules whose tile components a tile
// version keeps; beyond it they are computed without keeping.
const maxTileComponentRules = 8

// componentScratch is the working memory of computeTileComponents, reused
// from tile to tile.
type componentScratch struct {
	parent   []uint32
	infos    []ComponentInfo
	external []externalLink
}

// componentsOf returns the tile components of t under rule, computing them
// on first use. Callers racing on a rule may both compute it; the list of
// kept ones is replaced whole (compare and swap), so each rule is kept
// once.
func (t *Tile) componentsOf(rule flagRule, scratch *componentScratch) *tileComponents {
	entries := t.components.Load()
	if c := findTileComponents(entries, rule); c != nil {
		return c
	}
	c := computeTileComponents(t, rule, scratch)
	for {
		var list []*tileComponents
		if entries != nil {
			list = *entries
		}
		if len(list) >= maxTileComponentRules {
			return c
		}
		grown := append(list[:len(list):len(list)], c)
		if t.components.CompareAndSwap(entries, &grown) {
			return c
		}
		entries = t.components.Load()
		if kept := findTileComponents(entries, rule); kept != nil {
			return kept
		}
	}
}

func findTileComponents(entries *[]*tileComponents, rule flagRule) *tileComponents {
	if entries == nil {
		return nil
	}
	for _, c := range *entries {
		if c.rule == rule {
			return c
		}
	}
	return nil
}

// computeTileComponents labels the polygons of t that rule passes by the
// links between them inside t, and lists the links from them to other
// tiles.
func computeTileComponents(t *Tile, rule flagRule, scratch *componentScratch) *tileComponents {
	passes := rule.passes
	n := uint32(len(t.Polys))
	labels := make([]uint32, n)
	parent := slices.Grow(scratch.parent[:0], int(n))[:n]
	scratch.parent = parent
	for i := range parent {
		parent[i] = uint32(i)
	}
	external, infos := scratch.external[:0], scratch.infos[:0]
	for ip := range t.Polys {
		if !passes(&t.Polys[ip]) {
			continue
		}
		for l := t.Polys[ip].FirstLink; l != NullLink; l = t.Links[l].Next {
			ref := t.Links[l].Ref
			switch {
			case ref.TileIndex() != t.index:
				external = append(external, externalLink{from: uint32(ip), target: ref})
			case ref.Salt() == t.salt && ref.PolyIndex() < n && passes(&t.Polys[ref.PolyIndex()]):
				union(parent, uint32(ip), ref.PolyIndex())
			}
		}
	}

	// Number the tile components in order of their first polygon, as
	// computeConnectivity does across tiles.
	for ip := range t.Polys {
		poly := &t.Polys[ip]
		if !passes(poly) {
			continue
		}
		i := uint32(ip)
		if root := find(parent, i); root != i {
			labels[i] = labels[root]
		} else {
			infos = append(infos, ComponentInfo{
				BMin: mgl32.Vec3{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32},
				BMax: mgl32.Vec3{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32},
			})
			labels[i] = uint32(len(infos))
		}
		info := &infos[labels[i]-1]
		info.Polys++
		for _, vi := range poly.Verts[:poly.VertCount] {
			growBounds(&info.BMin, &info.BMax, &t.Verts[vi])
		}
	}
	for k := range external {
		// From polygon index to tile component.
		external[k].from = labels[external[k].from]
	}
	for k := range t.Data.OffMeshConnections {
		con := &t.Data.OffMeshConnections[k]
		if con.Flags&OffMeshBidirectional == 0 && int(con.Poly) < len(t.Polys) && labels[con.Poly] != 0 {
			infos[labels[con.Poly]-1].OneWay = true
		}
	}
	scratch.external, scratch.infos = external, infos
	return &tileComponents{
		rule:     rule,
		labels:   labels,
		infos:    slices.Clone(infos),
		external: slices.Clone(external),
	}
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

// mergeBounds extends [bmin, bmax] to hold [otherMin, otherMax].
func mergeBounds(bmin, bmax, otherMin, otherMax *mgl32.Vec3) {
	for a := range 3 {
		if otherMin[a] < bmin[a] {
			bmin[a] = otherMin[a]
		}
		if otherMax[a] > bmax[a] {
			bmax[a] = otherMax[a]
		}
	}
}

// eachTile calls fn for every tile of s in slot order, skipping empty
// ranges of slots whole.
func (s *Snapshot) eachTile(fn func(*Tile)) {
	if s.isFlat() {
		for _, t := range s.flat {
			if t != nil {
				fn(t)
			}
		}
		return
	}
	s.tiles.each(func(_ uint32, t *Tile) {
		if t != nil {
			fn(t)
		}
	})
}

// flatIndex returns the index in labels of polygon ref, false when ref names
// no labelled polygon.
func (c *Connectivity) flatIndex(ref Ref) (uint32, bool) {
	it, ip := ref.TileIndex(), ref.PolyIndex()
	slot := c.slot(it)
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
