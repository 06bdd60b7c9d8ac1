package navmesh

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The runtime links of a mesh follow its tiles in the mesh section of the
// archenav file, only when it has any (so that a mesh without links is
// written byte for byte as before links existed, and a reader that knows
// no links refuses a file with links instead of dropping them):
//
//	tag        4 bytes  "LINK"
//	link count uint32
//	per link, in slot order (ownLinkSize bytes):
//	  id       uint64   LinkID (salt, slot) so it and its refs survive a reload
//	  start    3 float32
//	  end      3 float32
//	  radius, width, cost  float32
//	  flags    uint16   lane 0's polygon flags at save time
//	  area     uint8    lane 0's polygon area at save time
//	  bidir    uint8    1 for a bidirectional link, else 0
//	  user id  uint32
const (
	ownLinksTag    = "LINK"
	ownLinksHeader = 4 + 4
	ownLinkSize    = 8 + 12 + 12 + 4 + 4 + 4 + 2 + 1 + 1 + 4
)

// savedLink is one runtime link of a savedMesh.
type savedLink struct {
	id   LinkID
	desc LinkDesc
}

// savedLinks returns the runtime links of s with their current flags and
// areas.
func savedLinks(s *Snapshot) []savedLink {
	if s.linkCount == 0 {
		return nil
	}
	links := make([]savedLink, 0, s.linkCount)
	for id, desc := range s.Links() {
		t := s.linkTile(id)
		desc.Flags, desc.Area = t.Polys[0].Flags, t.Polys[0].Area()
		links = append(links, savedLink{id: id, desc: desc})
	}
	return links
}

// appendLinks appends the links block of links, nothing when there are
// none.
func appendLinks(out []byte, links []savedLink) []byte {
	if len(links) == 0 {
		return out
	}
	le := binary.LittleEndian
	out = append(out, ownLinksTag...)
	out = le.AppendUint32(out, uint32(len(links)))
	f32 := func(out []byte, v float32) []byte { return le.AppendUint32(out, math.Float32bits(v)) }
	for _, l := range links {
		d := &l.desc
		out = le.AppendUint64(out, uint64(l.id))
		for _, v := range [...]float32{d.Start[0], d.Start[1], d.Start[2], d.End[0], d.End[1], d.End[2], d.Radius, d.Width, d.Cost} {
			out = f32(out, v)
		}
		out = le.AppendUint16(out, d.Flags)
		bidir := uint8(0)
		if d.Bidirectional {
			bidir = 1
		}
		out = append(out, d.Area, bidir)
		out = le.AppendUint32(out, d.UserID)
	}
	return out
}

// decodeLinks decodes the links block at body[offset:], which must end
// the section, checking each link as AddLink would; label starts the
// place of its errors.
func decodeLinks(body []byte, offset int, params Params, label string) ([]savedLink, error) {
	le := binary.LittleEndian
	where := fmt.Sprintf("%slinks at offset %#x", label, offset)
	if len(body)-offset < ownLinksHeader || string(body[offset:offset+4]) != ownLinksTag {
		return nil, malformed("archenav", fmt.Sprintf("%soffset %#x", label, offset), "%d bytes after the last tile", len(body)-offset)
	}
	count := uint64(le.Uint32(body[offset+4:]))
	offset += ownLinksHeader
	if count == 0 || count*ownLinkSize != uint64(len(body)-offset) {
		return nil, malformed("archenav", where, "%d links in %d bytes, want %d bytes each", count, len(body)-offset, ownLinkSize)
	}
	links := make([]savedLink, 0, count)
	used := make(map[uint32]int, count)
	f32 := func(at int) float32 { return math.Float32frombits(le.Uint32(body[at:])) }
	for i := range int(count) {
		at := offset + i*ownLinkSize
		where := fmt.Sprintf("%slink %d at offset %#x", label, i, at)
		id := LinkID(le.Uint64(body[at:]))
		ref := Ref(id)
		if ref.PolyIndex() != 0 || ref.Salt() == 0 || int(ref.TileIndex()) < params.MaxTiles {
			return nil, malformed("archenav", where, "link id %#x: salt %d, slot %d, polygon %d (want salt >= 1, slot >= %d, polygon 0)",
				uint64(id), ref.Salt(), ref.TileIndex(), ref.PolyIndex(), params.MaxTiles)
		}
		if previous, taken := used[ref.TileIndex()]; taken {
			return nil, malformed("archenav", where, "link slot %d already used by link %d", ref.TileIndex(), previous)
		}
		used[ref.TileIndex()] = i
		d := LinkDesc{
			Start:  mgl32.Vec3{f32(at + 8), f32(at + 12), f32(at + 16)},
			End:    mgl32.Vec3{f32(at + 20), f32(at + 24), f32(at + 28)},
			Radius: f32(at + 32), Width: f32(at + 36), Cost: f32(at + 40),
			Flags:  le.Uint16(body[at+44:]),
			Area:   body[at+46],
			UserID: le.Uint32(body[at+48:]),
		}
		switch body[at+47] {
		case 0:
		case 1:
			d.Bidirectional = true
		default:
			return nil, malformed("archenav", where, "bidirectional byte %d, want 0 or 1", body[at+47])
		}
		if _, _, err := d.validate(&params); err != nil {
			return nil, malformed("archenav", where, "%v", err)
		}
		links = append(links, savedLink{id: id, desc: d})
	}
	return links, nil
}

// addSavedLinks adds links to the edit e of the new mesh m at their saved
// slots and salts.
func (m *Mesh) addSavedLinks(e *edit, links []savedLink) error {
	for i, l := range links {
		lanes, columns, err := l.desc.validate(&m.params)
		if err != nil {
			return fmt.Errorf("link %d: %w", i, err)
		}
		if _, err := m.addLinkIn(e, l.desc, lanes, columns, l.id); err != nil {
			return fmt.Errorf("link %d at %#x: %w", i, uint64(l.id), err)
		}
	}
	return nil
}
