package navmesh

import (
	"errors"
	"fmt"
	"iter"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Runtime links live beside the tiles, not in them: each link added with
// Mesh.AddLink is a small tile of its own (one two-vertex off-mesh polygon
// per lane) in a slot above the grid's (Params.MaxTiles and up), linked to
// the ground polygons its ends land on in any tile, however far apart. So
// every query, the connectivity labels, the hierarchy and the crowd see a
// runtime link exactly as they see a baked off-mesh connection, through
// the same snapshot, with no second code path; adding or removing one is
// one snapshot swap. A link is landed again whenever a tile appears or goes
// in a grid column its ends search, so it reconnects by itself when a tile
// is removed and added again or rebuilt by a tile cache.

// LinkLayer is the Header.Layer of a link tile. Link tiles are not in the
// position lookup (TileAt never returns one); their Header.X and Y are the
// grid column of the link's start.
const LinkLayer = -1

// MaxLinkLanes is the most lanes a wide link is split into.
const MaxLinkLanes = 16

// MaxLinkColumns is the most grid columns the ends of one link may search
// for the polygons they land on: a radius that covers more is refused.
const MaxLinkColumns = 64

// ErrInvalidLink reports a LinkDesc outside its limits or a LinkID that
// names no link of the mesh.
var ErrInvalidLink = errors.New("navmesh: invalid link")

// LinkDesc describes a runtime link (Mesh.AddLink): a connection between
// two points of the mesh that is not walked on its surface, such as a
// ladder, a door, an elevator, a teleporter or a jump, with its ends
// anywhere on the mesh: in one tile, in neighbouring tiles or in tiles
// hundreds of metres apart. Like a baked OffMeshConnection it is an
// off-mesh polygon to the queries: a path crosses it in one step from its
// start to its end, and the straight path marks its start with
// query.StraightPathOffMeshConnection.
type LinkDesc struct {
	// Start and End are the link's ends; each lands on the nearest polygon
	// within Radius in the xz-plane and within the landing tile's
	// WalkableClimb in height, and is moved onto it [Units: world units]
	Start, End mgl32.Vec3
	// Radius is how far from an end (xz) the polygon it lands on may lie
	// [Limit: >= 0, finite; the ends may search at most MaxLinkColumns
	// tile columns] [Units: world units]
	Radius float32
	// Width makes a wide link: a segment of this length across the link's
	// direction (xz; along x for a vertical link) at each end, for doorways
	// and ledges. It is split into lanes (see LaneCount), each an off-mesh
	// polygon of its own, so that a path crosses where it is cheapest.
	// 0 is a link between two points [Limit: >= 0, finite]
	// [Units: world units]
	Width float32
	// Bidirectional links can be crossed both ways; others only from
	// Start to End.
	Bidirectional bool
	// Area is the link polygons' area id, whose cost a query filter
	// applies [Limit: 0..MaxAreas-1]
	Area uint8
	// Flags are the link polygons' flags, which query filters include or
	// exclude. A link without flags passes no filter: set at least one
	// (the bake gives walkable ground 1).
	Flags uint16
	// Cost, when positive, is the cost of crossing the link per unit of
	// its length, replacing its area's cost under the default filter rules
	// (Unity's cost modifier): a teleporter with a small Cost shortens long
	// searches. 0 uses the area's cost. A Custom filter decides for itself
	// (Tile.LinkCost). [Limit: >= 0, finite]
	Cost float32
	// UserID is the caller's id for the link, kept in its
	// OffMeshConnection records.
	UserID uint32
}

// LinkID names a runtime link of a Mesh while it exists: the reference of
// its link tile (slot and salt). Removing the link makes its ID and the
// refs of its polygons stale, as removing a tile does. The zero LinkID
// names no link.
type LinkID uint64

// Ref returns the reference of the link's first lane polygon; lane k is
// Ref() | Ref(k).
func (id LinkID) Ref() Ref { return Ref(id) }

// validate checks d against its limits and params (the grid its ends
// search) and returns how many lanes it has and the grid columns its ends
// search.
func (d *LinkDesc) validate(params *Params) (lanes int, columns []linkColumn, err error) {
	switch {
	case !finite(d.Start[0]) || !finite(d.Start[1]) || !finite(d.Start[2]):
		return 0, nil, fmt.Errorf("%w: start %v is not finite", ErrInvalidLink, d.Start)
	case !finite(d.End[0]) || !finite(d.End[1]) || !finite(d.End[2]):
		return 0, nil, fmt.Errorf("%w: end %v is not finite", ErrInvalidLink, d.End)
	case !finite(d.Radius) || d.Radius < 0:
		return 0, nil, fmt.Errorf("%w: radius %v is not a number >= 0", ErrInvalidLink, d.Radius)
	case !finite(d.Width) || d.Width < 0:
		return 0, nil, fmt.Errorf("%w: width %v is not a number >= 0", ErrInvalidLink, d.Width)
	case int(d.Area) >= MaxAreas:
		return 0, nil, fmt.Errorf("%w: area %d outside 0..%d", ErrInvalidLink, d.Area, MaxAreas-1)
	case !finite(d.Cost) || d.Cost < 0:
		return 0, nil, fmt.Errorf("%w: cost %v is not a number >= 0", ErrInvalidLink, d.Cost)
	}
	lanes = d.LaneCount()
	for lane := range lanes {
		for end := range 2 {
			p := d.lanePoint(lane, lanes, end)
			var err error
			if columns, err = appendLinkColumns(columns, params, p, d.Radius); err != nil {
				return 0, nil, err
			}
		}
	}
	return lanes, columns, nil
}

// LaneCount returns how many lanes (off-mesh polygons) the link has: 1
// without Width; with it, enough that the lanes lie at most two Radius
// apart along the end segments (both ends of a segment get one), at most
// MaxLinkLanes.
func (d *LinkDesc) LaneCount() int {
	if !(d.Width > 0) {
		return 1
	}
	if !(d.Radius > 0) {
		return MaxLinkLanes
	}
	gaps := math.Ceil(float64(d.Width) / float64(2*d.Radius))
	if !(gaps < MaxLinkLanes) {
		return MaxLinkLanes
	}
	return int(gaps) + 1
}

// LanePoints returns the ends of lane (0..LaneCount()-1) before they are
// moved onto the polygons they land on: Start and End shifted across the
// link by the lane's place on the end segments.
func (d *LinkDesc) LanePoints(lane int) (start, end mgl32.Vec3) {
	lanes := d.LaneCount()
	return d.lanePoint(lane, lanes, 0), d.lanePoint(lane, lanes, 1)
}

// lanePoint returns end (0: start, 1: end) of lane out of lanes.
func (d *LinkDesc) lanePoint(lane, lanes, end int) mgl32.Vec3 {
	p := d.Start
	if end == 1 {
		p = d.End
	}
	if lanes < 2 {
		return p
	}
	across := d.across()
	// From -Width/2 to +Width/2, evenly.
	offset := d.Width * (float32(lane)/float32(lanes-1) - 0.5)
	return mgl32.Vec3{p[0] + float32(across[0]*offset), p[1], p[2] + float32(across[1]*offset)}
}

// across returns the unit xz direction of the end segments: the link's
// direction turned a quarter left, or +x for a vertical link.
func (d *LinkDesc) across() [2]float32 {
	dx, dz := float64(d.End[0])-float64(d.Start[0]), float64(d.End[2])-float64(d.Start[2])
	// Each product rounded on its own (math.Hypot fuses on some CPUs).
	length := math.Sqrt(float64(dx*dx) + float64(dz*dz))
	if length < 1e-6 {
		return [2]float32{1, 0}
	}
	return [2]float32{float32(-dz / length), float32(dx / length)}
}

// linkColumn is a grid column (x, y) that a link's ends search.
type linkColumn struct{ x, y int32 }

// appendLinkColumns adds to columns the grid columns the box p±radius
// (xz) overlaps, each once, and fails when they would be more than
// MaxLinkColumns.
func appendLinkColumns(columns []linkColumn, params *Params, p mgl32.Vec3, radius float32) ([]linkColumn, error) {
	lo := mgl32.Vec3{p[0] - radius, p[1], p[2] - radius}
	hi := mgl32.Vec3{p[0] + radius, p[1], p[2] + radius}
	x0, y0 := tileLoc(params, lo)
	x1, y1 := tileLoc(params, hi)
	if span := (int64(x1) - int64(x0) + 1) * (int64(y1) - int64(y0) + 1); span > MaxLinkColumns {
		return nil, fmt.Errorf("%w: radius %v around %v covers %d tile columns, more than %d", ErrInvalidLink, radius, p, span, MaxLinkColumns)
	}
	// Counted, not x++ up to x1: x1 may be math.MaxInt32, past which an
	// int wraps on 32-bit CPUs.
	for dx := range x1 - x0 + 1 {
		for dy := range y1 - y0 + 1 {
			c := linkColumn{int32(x0 + dx), int32(y0 + dy)}
			known := false
			for _, k := range columns {
				if k == c {
					known = true
					break
				}
			}
			if !known {
				if len(columns) == MaxLinkColumns {
					return nil, fmt.Errorf("%w: the ends around %v search more than %d tile columns", ErrInvalidLink, p, MaxLinkColumns)
				}
				columns = append(columns, c)
			}
		}
	}
	return columns, nil
}

// linkInfo is what a link tile keeps of its link, shared by its versions.
type linkInfo struct {
	desc    LinkDesc
	columns []linkColumn
}

// IsLink reports whether t is the tile of a runtime link (Mesh.AddLink)
// rather than a tile of the grid.
func (t *Tile) IsLink() bool { return t.Data.link != nil }

// LinkCost returns the Cost of the runtime link whose tile t is, 0 for
// any other tile (the area's cost applies).
func (t *Tile) LinkCost() float32 {
	if t.Data.link == nil {
		return 0
	}
	return t.Data.link.desc.Cost
}

// OffMeshAreaCost returns what the default filter rules charge per unit
// of length across an off-mesh polygon of t whose area costs areaCost:
// the link's Cost for a runtime link that has one, else areaCost.
func (t *Tile) OffMeshAreaCost(areaCost float32) float32 {
	if t != nil && t.Data.link != nil && t.Data.link.desc.Cost > 0 {
		return t.Data.link.desc.Cost
	}
	return areaCost
}

// LinkCount returns the number of runtime links in the snapshot.
func (s *Snapshot) LinkCount() int { return s.linkCount }

// linkTile returns the tile of link id, nil when id names no link of s.
func (s *Snapshot) linkTile(id LinkID) *Tile {
	ref := Ref(id)
	if ref == 0 || ref.PolyIndex() != 0 || ref.TileIndex() < uint32(s.params.MaxTiles) {
		return nil
	}
	t := s.TileByRef(ref)
	if t == nil || t.Data.link == nil {
		return nil
	}
	return t
}

// Link returns the description link id was added with, false when id names
// no link of the snapshot.
func (s *Snapshot) Link(id LinkID) (LinkDesc, bool) {
	if t := s.linkTile(id); t != nil {
		return t.Data.link.desc, true
	}
	return LinkDesc{}, false
}

// Links returns an iterator over the runtime links of the snapshot, in
// slot order.
func (s *Snapshot) Links() iter.Seq2[LinkID, LinkDesc] {
	return func(yield func(LinkID, LinkDesc) bool) {
		if s.linkCount == 0 {
			return
		}
		for t := s.NextTile(s.params.MaxTiles); t != nil; t = s.NextTile(t.Index() + 1) {
			if t.Data.link != nil && !yield(LinkID(t.Ref()), t.Data.link.desc) {
				return
			}
		}
	}
}

// LinkOf returns the runtime link polygon ref belongs to and its lane,
// false when ref names no polygon of a runtime link in the snapshot.
func (s *Snapshot) LinkOf(ref Ref) (id LinkID, lane int, ok bool) {
	if ref.TileIndex() < uint32(s.params.MaxTiles) {
		return 0, 0, false
	}
	t, _, err := s.TileAndPoly(ref)
	if err != nil || t.Data.link == nil {
		return 0, 0, false
	}
	return LinkID(t.Ref()), int(ref.PolyIndex()), true
}

// LinkAttached reports, for link id, how many of its lanes have their
// start and their end landed on a polygon now; ok is false when id names
// no link. A link whose lanes are all unattached at one end cannot be
// crossed: a tile its end lands on is missing.
func (s *Snapshot) LinkAttached(id LinkID) (starts, ends int, ok bool) {
	t := s.linkTile(id)
	if t == nil {
		return 0, 0, false
	}
	for lane := range t.Polys {
		for l := t.Polys[lane].FirstLink; l != NullLink; l = t.Links[l].Next {
			switch t.Links[l].Edge {
			case 0:
				starts++
			case 1:
				ends++
			}
		}
	}
	return starts, ends, true
}

// LinkEnds returns the polygons the start and the end of lane (0 for a
// link without Width) of link id landed on, 0 for an end that landed
// nowhere (no tile holds a polygon within its radius now); ok is false
// when id names no link or lane is out of range.
func (s *Snapshot) LinkEnds(id LinkID, lane int) (start, end Ref, ok bool) {
	t := s.linkTile(id)
	if t == nil || lane < 0 || lane >= len(t.Polys) {
		return 0, 0, false
	}
	return t.endLanding(uint32(lane), 0), t.endLanding(uint32(lane), 1), true
}

// AddLink adds a runtime link described by desc and returns its ID. Its
// ends land on the nearest polygons within desc.Radius in whatever tiles
// hold them; an end with no polygon there now lands as soon as a tile
// brings one. The change is one snapshot swap: concurrent readers see the
// link with all its connections or not at all; no tile is rebuilt (the
// tiles it lands on get new versions with a link more). The error wraps
// ErrInvalidLink for a desc outside its limits and ErrOutOfTiles when the
// slots above the grid (2^28 - Params.MaxTiles) are all in use; on error
// nothing changes.
func (m *Mesh) AddLink(desc LinkDesc) (LinkID, error) {
	lanes, columns, err := desc.validate(&m.params)
	if err != nil {
		return 0, fmt.Errorf("navmesh: add link: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.newEdit()
	id, err := m.addLinkIn(e, desc, lanes, columns, 0)
	if err != nil {
		return 0, fmt.Errorf("navmesh: add link: %w", err)
	}
	m.current.Store(e.publish())
	return id, nil
}

// RemoveLink removes link id and its connections to the tiles it landed
// on, in one snapshot swap. Its ID and the refs of its polygons become
// stale, so a corridor through it fails validation. The error wraps
// ErrInvalidLink when id names no link of the mesh.
func (m *Mesh) RemoveLink(id LinkID) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.current.Load().linkTile(id)
	if t == nil {
		return fmt.Errorf("navmesh: remove link %#x: %w", uint64(id), ErrInvalidLink)
	}
	e := m.newEdit()
	m.removeLinkIn(e, t)
	m.current.Store(e.publish())
	return nil
}

// newEdit starts an edit of m's current snapshot that keeps the runtime
// links landed. The caller holds m.mu.
func (m *Mesh) newEdit() *edit {
	e := newEdit(m.current.Load())
	e.links = &m.links
	return e
}
