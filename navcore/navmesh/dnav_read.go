package navmesh

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// ReadDNAV decodes a C++ single-tile blob (dtMeshHeader magic "DNAV",
// version 7) as written by WriteDNAV or by Detour itself. Blobs from
// little- and big-endian builds are read, with 32-bit or 64-bit polygon
// refs in the link area (told apart by the blob size); the link area and
// each polygon's firstLink are ignored, since a Mesh makes its own links.
//
// Every count, size and index is checked before use: malformed input gives
// an error wrapping ErrUnknownFormat, ErrUnsupportedVersion or
// ErrMalformedFile that names the section, element and byte offset.
func ReadDNAV(blob []byte) (*TileData, error) {
	return readDNAV(blob, nil)
}

// readDNAV is ReadDNAV with the tile's arrays and TileData struct taken
// from arena (allocated one by one when arena is nil).
func readDNAV(blob []byte, arena *tileArena) (*TileData, error) {
	order, err := dnavByteOrder(blob)
	if err != nil {
		return nil, err
	}
	if len(blob) < dnavHeaderSize {
		return nil, malformed("DNAV", "header", "truncated: %d bytes, want at least %d", len(blob), dnavHeaderSize)
	}
	r := dnavReader{blob: blob, order: order}
	data := arena.newTileData()
	data.Header = r.header()
	withPolysClaim(data)

	layout, err := dnavBlobLayout(&data.Header, len(blob))
	if err != nil {
		return nil, err
	}
	r.decodeSections(data, &layout, arena)
	dropEmptySlices(data)
	if problem := inspectTileData(data); problem != nil {
		where := problem.section.String()
		if problem.index >= 0 {
			where = fmt.Sprintf("%s[%d] at offset %#x", problem.section, problem.index, layout.offset(problem.section, problem.index))
		}
		return nil, malformed("DNAV", where, "%s", problem.what)
	}
	return data, nil
}

// dnavByteOrder reads the magic and version and returns the blob's byte
// order.
func dnavByteOrder(blob []byte) (binary.ByteOrder, error) {
	if len(blob) < 8 {
		return nil, malformed("DNAV", "header", "truncated: %d bytes, want at least %d", len(blob), dnavHeaderSize)
	}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		if order.Uint32(blob) != dnavMagic {
			continue
		}
		if version := order.Uint32(blob[4:]); version != dnavVersion {
			return nil, fmt.Errorf("navmesh: DNAV: header: version %d, want %d: %w", version, dnavVersion, ErrUnsupportedVersion)
		}
		return order, nil
	}
	return nil, fmt.Errorf("navmesh: DNAV: header: magic %q, want \"VAND\" (little-endian DNAV): %w", blob[:4], ErrUnknownFormat)
}

// dnavBlobLayout checks the header counts against the blob size and
// returns the layout, with 32-bit or 64-bit link records as the size says.
func dnavBlobLayout(h *TileHeader, blobSize int) (dnavLayout, error) {
	counts := headerCounts(h)
	for s, count := range counts {
		if count < 0 {
			return dnavLayout{}, malformed("DNAV", "header", "%s count %d is negative", dnavSection(s), count)
		}
	}
	layout := newDNAVLayout(counts, dnavLinkSize)
	if int64(blobSize) == layout.size() {
		return layout, nil
	}
	if h.MaxLinkCount > 0 {
		if layout64 := newDNAVLayout(counts, dnavLinkSize64); int64(blobSize) == layout64.size() {
			return layout64, nil
		}
	}
	if int64(blobSize) < layout.size() {
		return dnavLayout{}, malformed("DNAV", "header", "truncated: the counts need %d bytes, the blob has %d", layout.size(), blobSize)
	}
	return dnavLayout{}, malformed("DNAV", "header", "the counts need %d bytes (32-bit refs), the blob has %d", layout.size(), blobSize)
}

// dnavReader decodes fields of a blob whose size has been checked.
type dnavReader struct {
	blob  []byte
	order binary.ByteOrder
}

func (r *dnavReader) u16(off int64) uint16 { return r.order.Uint16(r.blob[off:]) }
func (r *dnavReader) u32(off int64) uint32 { return r.order.Uint32(r.blob[off:]) }
func (r *dnavReader) i32(off int64) int32  { return int32(r.order.Uint32(r.blob[off:])) }
func (r *dnavReader) f32(off int64) float32 {
	return math.Float32frombits(r.order.Uint32(r.blob[off:]))
}
func (r *dnavReader) vec3(off int64) mgl32.Vec3 {
	return mgl32.Vec3{r.f32(off), r.f32(off + 4), r.f32(off + 8)}
}

// header decodes dtMeshHeader after the magic and version.
func (r *dnavReader) header() TileHeader {
	return TileHeader{
		X:               r.i32(8),
		Y:               r.i32(12),
		Layer:           r.i32(16),
		UserID:          r.u32(20),
		PolyCount:       r.i32(24),
		VertCount:       r.i32(28),
		MaxLinkCount:    r.i32(32),
		DetailMeshCount: r.i32(36),
		DetailVertCount: r.i32(40),
		DetailTriCount:  r.i32(44),
		BVNodeCount:     r.i32(48),
		OffMeshConCount: r.i32(52),
		OffMeshBase:     r.i32(56),
		WalkableHeight:  r.f32(60),
		WalkableRadius:  r.f32(64),
		WalkableClimb:   r.f32(68),
		BMin:            r.vec3(72),
		BMax:            r.vec3(84),
		BVQuantFactor:   r.f32(96),
	}
}

// decodeSections fills the arrays of data, taken from arena; the layout
// fits the blob.
func (r *dnavReader) decodeSections(data *TileData, l *dnavLayout, arena *tileArena) {
	h := &data.Header
	// The polygon and detail vertices share one allocation: one size-class
	// rounding a tile instead of two. Each slice is capped at its own end,
	// so that appending to one copies it rather than writing over the other.
	vertices := arenaMake[mgl32.Vec3](arena, int(h.VertCount)+int(h.DetailVertCount))
	data.Verts = vertices[:h.VertCount:h.VertCount]
	for i := range data.Verts {
		data.Verts[i] = r.vec3(l.offset(sectionVerts, i))
	}

	data.Polys = arenaMake[Poly](arena, int(h.PolyCount))
	for i := range data.Polys {
		off := l.offset(sectionPolys, i)
		p := &data.Polys[i]
		p.FirstLink = NullLink
		for j := 0; j < MaxVertsPerPoly; j++ {
			p.Verts[j] = r.u16(off + 4 + 2*int64(j))
			p.Neighbours[j] = r.u16(off + 16 + 2*int64(j))
		}
		p.Flags = r.u16(off + 28)
		p.VertCount = r.blob[off+30]
		p.AreaAndType = r.blob[off+31]
	}

	data.DetailMeshes = arenaMake[PolyDetail](arena, int(h.DetailMeshCount))
	for i := range data.DetailMeshes {
		off := l.offset(sectionDetailMeshes, i)
		data.DetailMeshes[i] = PolyDetail{
			VertBase:  r.u32(off),
			TriBase:   r.u32(off + 4),
			VertCount: r.blob[off+8],
			TriCount:  r.blob[off+9],
		}
	}

	data.DetailVerts = vertices[h.VertCount:]
	for i := range data.DetailVerts {
		data.DetailVerts[i] = r.vec3(l.offset(sectionDetailVerts, i))
	}

	data.DetailTris = arenaMake[DetailTri](arena, int(h.DetailTriCount))
	for i := range data.DetailTris {
		off := l.offset(sectionDetailTris, i)
		copy(data.DetailTris[i][:], r.blob[off:off+dnavDetailTriSize])
	}

	data.BVTree = arenaMake[BVNode](arena, int(h.BVNodeCount))
	for i := range data.BVTree {
		off := l.offset(sectionBVTree, i)
		n := &data.BVTree[i]
		for axis := int64(0); axis < 3; axis++ {
			n.BMin[axis] = r.u16(off + 2*axis)
			n.BMax[axis] = r.u16(off + 6 + 2*axis)
		}
		n.Index = r.i32(off + 12)
	}

	data.OffMeshConnections = arenaMake[OffMeshConnection](arena, int(h.OffMeshConCount))
	for i := range data.OffMeshConnections {
		off := l.offset(sectionOffMeshCons, i)
		data.OffMeshConnections[i] = OffMeshConnection{
			Start:  r.vec3(off),
			End:    r.vec3(off + 12),
			Radius: r.f32(off + 24),
			Poly:   r.u16(off + 28),
			Flags:  r.blob[off+30],
			Side:   r.blob[off+31],
			UserID: r.u32(off + 32),
		}
	}
}
