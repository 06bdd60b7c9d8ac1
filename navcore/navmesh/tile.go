package navmesh

import (
	"sync/atomic"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// Tile is one published version of a tile (dtMeshTile). It is never
// modified once a Snapshot holds it: a writer that changes links, flags or
// areas publishes a new *Tile for the slot. Treat every field as read-only.
type Tile struct {
	// The fields every polygon lookup reads come first, in one cache line:
	// the salt TileAndPoly checks, then the polygons, their vertices and
	// links.
	salt  uint32
	index uint32
	// Polys are this version's polygons, with FirstLink, Flags and area
	// set. The first version of a tile uses Data.Polys itself when the
	// mesh could claim it (see TileData); later versions that change
	// links, flags or areas hold copies.
	Polys []Poly
	// Verts are the polygon vertices [Units: world units]. They are
	// Data.Verts, except in a tile with off-mesh connections whose end points
	// were snapped onto the mesh while linking: such a version owns a copy.
	Verts []mgl32.Vec3
	// Links are this version's links. A published version holds only
	// those its polygons use (link_compact.go): the baked ones (the grid's
	// links, room for Header.MaxLinkCount of them in the C++ tile) first,
	// then the links into runtime links (Mesh.AddLink). An edited version
	// has room for Header.MaxLinkCount baked links again, the others
	// beyond; unused links are chained in free lists its draft keeps.
	Links []Link
	// Data is the tile content given to AddTile; the Mesh modifies only
	// its polygons' FirstLink, as TileData says. The rest of the tile is
	// read from it: Data.Header, Data.DetailMeshes, Data.DetailVerts,
	// Data.DetailTris, Data.BVTree and Data.OffMeshConnections (a Tile
	// does not copy their slice headers: 96 bytes a version instead of
	// 240; the free lists of its links and where its extra links start
	// are kept by the draft that makes it, see draft).
	Data *TileData

	// components keeps the version's tile components (see
	// computeConnectivity), nil until first asked for; every version has
	// its own.
	components atomic.Pointer[[]*tileComponents]
}

// newTile returns the first version of a tile made from data, placed in slot
// index with salt, ready for linking: its Links are fresh, chained in
// index order as the free list newDraft starts from, its Polys are
// Data.Polys when the tile could claim them (TileData.claimPolys), a copy
// otherwise.
func newTile(data *TileData, index, salt uint32) *Tile {
	if data.link != nil {
		// The data of a runtime link's tile, added again as a tile: the
		// new tile is not that link's (its caller sets Data.link on data
		// of its own).
		plain := *data
		plain.link = nil
		data = &plain
	}
	polys := data.Polys
	if !data.claimPolys() {
		polys = clonePolys(data.Polys)
	}
	t := &Tile{
		Data:  data,
		Verts: data.Verts,
		Polys: polys,
		Links: make([]Link, max(data.Header.MaxLinkCount, 0)),
		salt:  salt,
		index: index,
	}
	if n := len(t.Links); n > 0 {
		for i := range n - 1 {
			t.Links[i].Next = uint32(i + 1)
		}
		t.Links[n-1].Next = NullLink
	}
	return t
}

// bakedLinkCount returns the number of the published version's Links
// before its extra ones (the links into runtime links, which a compact
// version keeps last, see link_compact.go): the index of the first link
// into a slot at or above gridSlots (the mesh's Params.MaxTiles), else
// len(Links).
func (t *Tile) bakedLinkCount(gridSlots uint32) uint32 {
	for i := range t.Links {
		if ref := t.Links[i].Ref; ref != 0 && ref.TileIndex() >= gridSlots {
			return uint32(i)
		}
	}
	return uint32(len(t.Links))
}

// usesDataPolys reports whether the version's polygons are its Data's
// (the first version of a tile whose data it claimed).
func (t *Tile) usesDataPolys() bool {
	return t.Data != nil && len(t.Polys) > 0 && len(t.Data.Polys) > 0 && &t.Polys[0] == &t.Data.Polys[0]
}

// newVersion returns a copy of t with tile components of its own, none
// computed yet: the start of a draft.
func (t *Tile) newVersion() *Tile {
	return &Tile{
		salt:  t.salt,
		index: t.index,
		Polys: t.Polys,
		Verts: t.Verts,
		Links: t.Links,
		Data:  t.Data,
	}
}

// Salt returns the salt of the tile's slot at the time it was added.
func (t *Tile) Salt() uint32 { return t.salt }

// Index returns the tile's slot index in the mesh.
func (t *Tile) Index() int { return int(t.index) }

// Ref returns the tile's reference (salt and slot, polygon index 0).
func (t *Tile) Ref() TileRef { return EncodeRef(t.salt, t.index, 0) }

// PolyRefBase returns the reference of the tile's polygon 0; OR a polygon
// index into it to get that polygon's Ref.
func (t *Tile) PolyRefBase() Ref { return EncodeRef(t.salt, t.index, 0) }

// polyIndex returns the index of poly in t.Polys (or in t.Data.Polys), or -1
// when poly belongs to neither.
func (t *Tile) polyIndex(poly *Poly) int {
	if i := indexInSlice(t.Polys, poly); i >= 0 {
		return i
	}
	if t.Data != nil {
		return indexInSlice(t.Data.Polys, poly)
	}
	return -1
}

// indexInSlice finds the element index of p inside s by address arithmetic
// (no pointer is made from the result), -1 if p does not point into s.
func indexInSlice(s []Poly, p *Poly) int {
	if p == nil || len(s) == 0 {
		return -1
	}
	const size = unsafe.Sizeof(Poly{})
	offset := uintptr(unsafe.Pointer(p)) - uintptr(unsafe.Pointer(&s[0]))
	if offset%size != 0 || offset/size >= uintptr(len(s)) {
		return -1
	}
	return int(offset / size)
}
