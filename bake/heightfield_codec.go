package bake

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/go-gl/mathgl/mgl32"
)

// The encoded heightfield: a 56-byte little-endian header, then the spans
// compressed with FastLZ (tilecache.FastLZ).
//
//	offset size
//	     0    4  magic "AHF1"
//	     4    4  width [cells]
//	     8    4  height [cells]
//	    12   12  bmin (3 × float32)
//	    24   12  bmax (3 × float32)
//	    36    4  cell size (float32)
//	    40    4  cell height (float32)
//	    44    4  span count
//	    48    4  length of the spans before compression
//	    52    4  length of the compressed spans
//	    56    …  compressed spans
//
// Before compression the spans are listed column by column (x fastest),
// each column as a uvarint span count followed by, per span from the
// bottom up, uvarints for its distance above the previous span's top (0 for
// the first) and its height, and one byte of area.
const (
	heightfieldMagic      = "AHF1"
	heightfieldHeaderSize = 56
	// minEncodedSpanBytes is the fewest bytes a span takes before
	// compression: a one-byte gap, a one-byte height and its area.
	minEncodedSpanBytes = 3
	// maxFastLZExpansion bounds what FastLZ makes of one compressed byte:
	// its longest instruction, 3 bytes, copies 264 (fastlzMaxLen).
	maxFastLZExpansion = 88
)

// ErrCorruptHeightfield is wrapped by the errors of DecodeHeightfield and
// HeightfieldCodec.Decode for data that is not an encoded heightfield or
// does not hold together.
var ErrCorruptHeightfield = errors.New("bake: corrupt encoded heightfield")

// HeightfieldCodec writes heightfields in a compact compressed form and
// reads them back, keeping its buffers between calls so that a steady
// stream of encodes and decodes allocates nothing (the encoded bytes aside).
// A tile's solid field of a RecastDemo level takes about a byte per
// column (dungeon's 56 tiles of 42 × 42 columns: 94 KB). The zero value is ready to use; a HeightfieldCodec is
// not safe for concurrent use.
type HeightfieldCodec struct {
	raw []byte
}

// EncodeHeightfield appends hf's encoded form to dst and returns it; see
// HeightfieldCodec.Encode.
func EncodeHeightfield(dst []byte, hf *Heightfield) ([]byte, error) {
	var c HeightfieldCodec
	return c.Encode(dst, hf)
}

// DecodeHeightfield replaces hf's grid, bounds and spans with those of an
// encoded heightfield; see HeightfieldCodec.Decode.
func DecodeHeightfield(data []byte, hf *Heightfield) error {
	var c HeightfieldCodec
	return c.Decode(data, hf)
}

// Encode appends the encoded form of hf to dst and returns it: its grid,
// bounds, cell size and the spans of every column with their areas (not
// ClampedSpans, nor the order of the span pool, which no stage reads).
// The field must be well formed: spans below MaxSpanHeight, bottom to top
// without overlaps, areas at most MaxAreaID.
func (c *HeightfieldCodec) Encode(dst []byte, hf *Heightfield) ([]byte, error) {
	if err := checkHeightfieldGrid(hf.Width, hf.Height, hf.BMin, hf.BMax, hf.CellSize, hf.CellHeight); err != nil {
		return dst, fmt.Errorf("bake: encode heightfield: %w", err)
	}
	if len(hf.Columns) != hf.Width*hf.Height {
		return dst, fmt.Errorf("bake: encode heightfield: %d columns for a %d×%d grid", len(hf.Columns), hf.Width, hf.Height)
	}
	raw := c.raw[:0]
	spans := 0
	for column, first := range hf.Columns {
		count := 0
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			if s < 0 || int(s) >= len(hf.Pool) || count > MaxSpanHeight {
				return dst, fmt.Errorf("bake: encode heightfield: column %d has a broken span chain", column)
			}
			count++
		}
		raw = binary.AppendUvarint(raw, uint64(count))
		top := uint16(0)
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			span := &hf.Pool[s]
			if span.Min < top || span.Min >= span.Max || span.Max > MaxSpanHeight || span.Area > MaxAreaID {
				return dst, fmt.Errorf("bake: encode heightfield: column %d: span [%d, %d) area %d out of order or range",
					column, span.Min, span.Max, span.Area)
			}
			raw = binary.AppendUvarint(raw, uint64(span.Min-top))
			raw = binary.AppendUvarint(raw, uint64(span.Max-span.Min))
			raw = append(raw, span.Area)
			top = span.Max
		}
		spans += count
	}
	c.raw = raw

	start := len(dst)
	dst = append(dst, make([]byte, heightfieldHeaderSize)...)
	header := dst[start:]
	copy(header, heightfieldMagic)
	binary.LittleEndian.PutUint32(header[4:], uint32(hf.Width))
	binary.LittleEndian.PutUint32(header[8:], uint32(hf.Height))
	putVec3(header[12:], hf.BMin)
	putVec3(header[24:], hf.BMax)
	binary.LittleEndian.PutUint32(header[36:], math.Float32bits(hf.CellSize))
	binary.LittleEndian.PutUint32(header[40:], math.Float32bits(hf.CellHeight))
	binary.LittleEndian.PutUint32(header[44:], uint32(spans))
	binary.LittleEndian.PutUint32(header[48:], uint32(len(raw)))
	dst, err := tilecache.FastLZ{}.Compress(dst, raw)
	if err != nil {
		return dst[:start], fmt.Errorf("bake: encode heightfield: %w", err)
	}
	binary.LittleEndian.PutUint32(dst[start+52:], uint32(len(dst)-start-heightfieldHeaderSize))
	return dst, nil
}

// Decode replaces hf's grid, bounds, cell size and spans with those of
// data, written by Encode, keeping hf's memory as Heightfield.Reset does.
// ClampedSpans is reset to 0. Every length, count and span is checked
// before use and the memory it needs is bounded by len(data) (at most 88
// bytes of spans per byte of data, as FastLZ expands no further); an error
// wraps ErrCorruptHeightfield and leaves hf empty or unchanged.
func (c *HeightfieldCodec) Decode(data []byte, hf *Heightfield) error {
	header, err := decodeHeightfieldHeader(data)
	if err != nil {
		return err
	}
	if cap(c.raw) < header.rawLength {
		c.raw = make([]byte, 0, header.rawLength)
	}
	raw, err := tilecache.FastLZ{}.Decompress(c.raw[:0:header.rawLength], data[heightfieldHeaderSize:])
	if err != nil {
		return fmt.Errorf("%w: spans: %w", ErrCorruptHeightfield, err)
	}
	if len(raw) != header.rawLength {
		return fmt.Errorf("%w: spans are %d bytes, the header says %d", ErrCorruptHeightfield, len(raw), header.rawLength)
	}
	hf.reset(header.width, header.height, header.bmin, header.bmax, header.cellSize, header.cellHeight)
	if cap(hf.Pool) < header.spans {
		hf.Pool = make([]Span, 0, header.spans)
	}
	if err := hf.readSpans(raw, header.spans); err != nil {
		hf.reset(header.width, header.height, header.bmin, header.bmax, header.cellSize, header.cellHeight)
		return err
	}
	return nil
}

// encodedHeightfieldHeader is the checked header of an encoded heightfield.
type encodedHeightfieldHeader struct {
	width, height        int
	bmin, bmax           mgl32.Vec3
	cellSize, cellHeight float32
	spans, rawLength     int
}

// decodeHeightfieldHeader reads and checks the header of an encoded
// heightfield against the data that follows it.
func decodeHeightfieldHeader(data []byte) (encodedHeightfieldHeader, error) {
	var h encodedHeightfieldHeader
	if len(data) < heightfieldHeaderSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrCorruptHeightfield, len(data), heightfieldHeaderSize)
	}
	if string(data[:4]) != heightfieldMagic {
		return h, fmt.Errorf("%w: magic %q, want %q", ErrCorruptHeightfield, data[:4], heightfieldMagic)
	}
	width := binary.LittleEndian.Uint32(data[4:])
	height := binary.LittleEndian.Uint32(data[8:])
	if width > MaxGridCells || height > MaxGridCells {
		return h, fmt.Errorf("%w: grid %d×%d", ErrCorruptHeightfield, width, height)
	}
	h.width, h.height = int(width), int(height)
	h.bmin, h.bmax = getVec3(data[12:]), getVec3(data[24:])
	h.cellSize = math.Float32frombits(binary.LittleEndian.Uint32(data[36:]))
	h.cellHeight = math.Float32frombits(binary.LittleEndian.Uint32(data[40:]))
	if err := checkHeightfieldGrid(h.width, h.height, h.bmin, h.bmax, h.cellSize, h.cellHeight); err != nil {
		return h, fmt.Errorf("%w: %w", ErrCorruptHeightfield, err)
	}
	spans := binary.LittleEndian.Uint32(data[44:])
	rawLength := binary.LittleEndian.Uint32(data[48:])
	compressed := binary.LittleEndian.Uint32(data[52:])
	if int64(compressed) != int64(len(data)-heightfieldHeaderSize) {
		return h, fmt.Errorf("%w: %d bytes of spans, the header says %d", ErrCorruptHeightfield, len(data)-heightfieldHeaderSize, compressed)
	}
	cells := int64(h.width) * int64(h.height)
	switch {
	case int64(rawLength) > int64(compressed)*maxFastLZExpansion:
		return h, fmt.Errorf("%w: %d bytes of spans cannot come from %d compressed bytes", ErrCorruptHeightfield, rawLength, compressed)
	case int64(rawLength) < cells:
		return h, fmt.Errorf("%w: %d bytes of spans for %d columns", ErrCorruptHeightfield, rawLength, cells)
	case int64(spans)*minEncodedSpanBytes > int64(rawLength)-cells:
		return h, fmt.Errorf("%w: %d spans cannot fit %d bytes", ErrCorruptHeightfield, spans, rawLength)
	}
	h.spans, h.rawLength = int(spans), int(rawLength)
	return h, nil
}

// readSpans fills the columns of hf, emptied and sized, from the spans of
// an encoded heightfield, which must hold spans spans.
func (hf *Heightfield) readSpans(raw []byte, spans int) error {
	read := 0
	next := func(what string, column int) (uint64, error) {
		v, n := binary.Uvarint(raw[read:])
		if n <= 0 {
			return 0, fmt.Errorf("%w: column %d: %s cut short", ErrCorruptHeightfield, column, what)
		}
		read += n
		return v, nil
	}
	for column := range hf.Columns {
		count, err := next("span count", column)
		if err != nil {
			return err
		}
		if count > uint64(spans-len(hf.Pool)) {
			return fmt.Errorf("%w: column %d: %d spans, more than the header's %d", ErrCorruptHeightfield, column, count, spans)
		}
		top := uint64(0)
		previous := int32(noSpan)
		for range count {
			gap, err := next("span gap", column)
			if err != nil {
				return err
			}
			size, err := next("span height", column)
			if err != nil {
				return err
			}
			if read >= len(raw) {
				return fmt.Errorf("%w: column %d: span area cut short", ErrCorruptHeightfield, column)
			}
			area := raw[read]
			read++
			bottom := top + gap
			if gap > MaxSpanHeight || size == 0 || size > MaxSpanHeight || bottom+size > MaxSpanHeight || area > MaxAreaID {
				return fmt.Errorf("%w: column %d: span %d+%d area %d out of range", ErrCorruptHeightfield, column, bottom, size, area)
			}
			top = bottom + size
			index := int32(len(hf.Pool))
			hf.Pool = append(hf.Pool, Span{Min: uint16(bottom), Max: uint16(top), Area: area, Next: noSpan})
			if previous == noSpan {
				hf.Columns[column] = index
			} else {
				hf.Pool[previous].Next = index
			}
			previous = index
		}
	}
	if read != len(raw) || len(hf.Pool) != spans {
		return fmt.Errorf("%w: %d spans in %d bytes, the header says %d in %d", ErrCorruptHeightfield, len(hf.Pool), read, spans, len(raw))
	}
	return nil
}

func putVec3(dst []byte, v mgl32.Vec3) {
	for i := range 3 {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v[i]))
	}
}

func getVec3(src []byte) mgl32.Vec3 {
	var v mgl32.Vec3
	for i := range 3 {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
	return v
}
