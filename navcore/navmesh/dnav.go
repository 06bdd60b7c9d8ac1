package navmesh

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The C++ tile blob (dtMeshHeader and the arrays after it) as laid out by
// a little-endian x86-64 build with 32-bit polygon refs.
const (
	// dnavMagic is DT_NAVMESH_MAGIC, 'D'<<24|'N'<<16|'A'<<8|'V'; stored
	// little-endian it reads "VAND".
	dnavMagic uint32 = 'D'<<24 | 'N'<<16 | 'A'<<8 | 'V'
	// dnavVersion is DT_NAVMESH_VERSION.
	dnavVersion uint32 = 7

	dnavHeaderSize     = 100 // 15 int32 + 10 float32
	dnavVertSize       = 12  // 3 float32
	dnavPolySize       = 32  // firstLink, 6+6 uint16, flags, vertCount, areaAndType
	dnavLinkSize       = 12  // 32-bit ref, next, edge, side, bmin, bmax
	dnavLinkSize64     = 16  // the same with a 64-bit ref (DT_POLYREF64 builds)
	dnavDetailMeshSize = 12  // vertBase, triBase, vertCount, triCount, 2 bytes padding
	dnavDetailVertSize = 12  // 3 float32
	dnavDetailTriSize  = 4   // 3 indices and edge flags
	dnavBVNodeSize     = 16  // 3+3 uint16 bounds, int32 index
	dnavOffMeshConSize = 36  // 6 float32, radius, poly, flags, side, userId
)

// dnavSection names the parts of a tile blob in file order.
type dnavSection int

const (
	sectionHeader dnavSection = iota
	sectionVerts
	sectionPolys
	sectionLinks
	sectionDetailMeshes
	sectionDetailVerts
	sectionDetailTris
	sectionBVTree
	sectionOffMeshCons
	sectionCount
)

var dnavSectionNames = [sectionCount]string{
	"header", "vertices", "polygons", "links", "detail meshes",
	"detail vertices", "detail triangles", "BV tree", "off-mesh connections",
}

func (s dnavSection) String() string { return dnavSectionNames[s] }

// dnavLayout locates the sections of a tile blob.
type dnavLayout struct {
	// start holds each section's byte offset; start[sectionCount] is the
	// total size.
	start [sectionCount + 1]int64
	// elementSize holds the size of one element of each section.
	elementSize [sectionCount]int64
}

// newDNAVLayout lays out a blob with the given element counts (one per
// section after the header) and link size. Counts must be >= 0; int64
// arithmetic keeps any int32 counts from overflowing.
func newDNAVLayout(counts [sectionCount]int64, linkSize int64) dnavLayout {
	var l dnavLayout
	l.elementSize = [sectionCount]int64{
		dnavHeaderSize, dnavVertSize, dnavPolySize, linkSize, dnavDetailMeshSize,
		dnavDetailVertSize, dnavDetailTriSize, dnavBVNodeSize, dnavOffMeshConSize,
	}
	counts[sectionHeader] = 1
	var offset int64
	for s := sectionHeader; s < sectionCount; s++ {
		l.start[s] = offset
		offset += align4(counts[s] * l.elementSize[s])
	}
	l.start[sectionCount] = offset
	return l
}

// headerCounts returns the per-section element counts a header describes.
func headerCounts(h *TileHeader) [sectionCount]int64 {
	return [sectionCount]int64{
		sectionHeader:       1,
		sectionVerts:        int64(h.VertCount),
		sectionPolys:        int64(h.PolyCount),
		sectionLinks:        int64(h.MaxLinkCount),
		sectionDetailMeshes: int64(h.DetailMeshCount),
		sectionDetailVerts:  int64(h.DetailVertCount),
		sectionDetailTris:   int64(h.DetailTriCount),
		sectionBVTree:       int64(h.BVNodeCount),
		sectionOffMeshCons:  int64(h.OffMeshConCount),
	}
}

// size returns the total blob size.
func (l *dnavLayout) size() int64 { return l.start[sectionCount] }

// offset returns the byte offset of element index of a section.
func (l *dnavLayout) offset(s dnavSection, index int) int64 {
	return l.start[s] + int64(index)*l.elementSize[s]
}

func align4(n int64) int64 { return (n + 3) &^ 3 }

// DNAVSize returns the size in bytes of the C++ tile blob WriteDNAV writes
// for data (32-bit refs). The data's header counts are assumed to match its
// slices; WriteDNAV checks that. A nil data has size 0.
func DNAVSize(data *TileData) int {
	if data == nil {
		return 0
	}
	counts := headerCounts(&data.Header)
	for s := range counts {
		counts[s] = max(counts[s], 0)
	}
	layout := newDNAVLayout(counts, dnavLinkSize)
	return int(layout.size())
}

// WriteDNAV writes data as the C++ single-tile blob (dtMeshHeader magic
// "DNAV", version 7): little-endian, x86-64 struct layout with its padding,
// 32-bit polygon refs. The link area is zero and every FirstLink is 0, as
// dtCreateNavMeshData leaves them, so a built tile is written byte for byte
// like the C++ one. Data whose header disagrees with its slices, or whose
// indices point outside them, is refused with ErrInconsistentTileData.
func WriteDNAV(w io.Writer, data *TileData) error {
	if w == nil {
		return errNilWriter("write DNAV tile")
	}
	blob, err := MarshalDNAV(data)
	if err != nil {
		return err
	}
	if _, err := w.Write(blob); err != nil {
		return fmt.Errorf("navmesh: write DNAV tile: %w", err)
	}
	return nil
}

// MarshalDNAV returns the blob WriteDNAV writes.
func MarshalDNAV(data *TileData) ([]byte, error) {
	if data == nil {
		return nil, fmt.Errorf("navmesh: write DNAV tile: nil tile data: %w", ErrInconsistentTileData)
	}
	if problem := inspectTileData(data); problem != nil {
		return nil, fmt.Errorf("navmesh: write DNAV tile: %s: %w", problem.describe(), ErrInconsistentTileData)
	}
	return appendDNAV(make([]byte, 0, DNAVSize(data)), data), nil
}

// appendDNAV appends the blob of checked tile data to dst.
func appendDNAV(dst []byte, data *TileData) []byte {
	le := binary.LittleEndian
	h := &data.Header
	start := len(dst)
	layout := newDNAVLayout(headerCounts(h), dnavLinkSize)

	for _, v := range []uint32{
		dnavMagic, dnavVersion, uint32(h.X), uint32(h.Y), uint32(h.Layer), h.UserID,
		uint32(h.PolyCount), uint32(h.VertCount), uint32(h.MaxLinkCount),
		uint32(h.DetailMeshCount), uint32(h.DetailVertCount), uint32(h.DetailTriCount),
		uint32(h.BVNodeCount), uint32(h.OffMeshConCount), uint32(h.OffMeshBase),
	} {
		dst = le.AppendUint32(dst, v)
	}
	dst = appendFloats(dst, h.WalkableHeight, h.WalkableRadius, h.WalkableClimb)
	dst = appendVec3s(dst, h.BMin, h.BMax)
	dst = appendFloats(dst, h.BVQuantFactor)
	dst = padTo(dst, start, layout.start[sectionVerts])

	dst = appendVec3s(dst, data.Verts...)
	dst = padTo(dst, start, layout.start[sectionPolys])

	for i := range data.Polys {
		p := &data.Polys[i]
		dst = le.AppendUint32(dst, 0) // firstLink: links are made when the tile is added
		for _, v := range p.Verts {
			dst = le.AppendUint16(dst, v)
		}
		for _, n := range p.Neighbours {
			dst = le.AppendUint16(dst, n)
		}
		dst = le.AppendUint16(dst, p.Flags)
		dst = append(dst, p.VertCount, p.AreaAndType)
	}
	dst = padTo(dst, start, layout.start[sectionLinks])
	dst = padTo(dst, start, layout.start[sectionDetailMeshes]) // links: zero

	for _, m := range data.DetailMeshes {
		dst = le.AppendUint32(dst, m.VertBase)
		dst = le.AppendUint32(dst, m.TriBase)
		dst = append(dst, m.VertCount, m.TriCount, 0, 0)
	}
	dst = padTo(dst, start, layout.start[sectionDetailVerts])

	dst = appendVec3s(dst, data.DetailVerts...)
	dst = padTo(dst, start, layout.start[sectionDetailTris])

	for _, t := range data.DetailTris {
		dst = append(dst, t[:]...)
	}
	dst = padTo(dst, start, layout.start[sectionBVTree])

	for _, n := range data.BVTree {
		for _, v := range n.BMin {
			dst = le.AppendUint16(dst, v)
		}
		for _, v := range n.BMax {
			dst = le.AppendUint16(dst, v)
		}
		dst = le.AppendUint32(dst, uint32(n.Index))
	}
	dst = padTo(dst, start, layout.start[sectionOffMeshCons])

	for _, c := range data.OffMeshConnections {
		dst = appendVec3s(dst, c.Start, c.End)
		dst = appendFloats(dst, c.Radius)
		dst = le.AppendUint16(dst, c.Poly)
		dst = append(dst, c.Flags, c.Side)
		dst = le.AppendUint32(dst, c.UserID)
	}
	return padTo(dst, start, layout.size())
}

// padTo appends zero bytes until dst holds end bytes after start.
func padTo(dst []byte, start int, end int64) []byte {
	for int64(len(dst)-start) < end {
		dst = append(dst, 0)
	}
	return dst
}

func appendFloats(dst []byte, values ...float32) []byte {
	for _, f := range values {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

func appendVec3s(dst []byte, values ...mgl32.Vec3) []byte {
	for _, v := range values {
		dst = appendFloats(dst, v[0], v[1], v[2])
	}
	return dst
}

// dropEmptySlices sets the zero-length arrays of d to nil, so that tile
// data built and tile data read compare equal.
func dropEmptySlices(d *TileData) {
	if len(d.Verts) == 0 {
		d.Verts = nil
	}
	if len(d.Polys) == 0 {
		d.Polys = nil
	}
	if len(d.DetailMeshes) == 0 {
		d.DetailMeshes = nil
	}
	if len(d.DetailVerts) == 0 {
		d.DetailVerts = nil
	}
	if len(d.DetailTris) == 0 {
		d.DetailTris = nil
	}
	if len(d.BVTree) == 0 {
		d.BVTree = nil
	}
	if len(d.OffMeshConnections) == 0 {
		d.OffMeshConnections = nil
	}
}
