package tilecache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The encoded layer (dtBuildTileCacheLayer), little-endian as an x86-64
// C++ build writes it:
//
//	magic    int32   'D'<<24|'T'<<16|'L'<<8|'R' (the bytes "RLTD")
//	version  int32   1
//	tx, ty, tlayer   int32
//	bmin, bmax       3 float32 each
//	hmin, hmax       uint16
//	width, height, minx, maxx, miny, maxy  uint8
//	padding  2 bytes (0), so the header takes 56 bytes (4-byte aligned)
//	grids    the compressed heights, areas and cons, width×height bytes each
const (
	layerMagic   uint32 = 'D'<<24 | 'T'<<16 | 'L'<<8 | 'R'
	layerVersion uint32 = 1

	// EncodedLayerHeaderSize is the size of the header before the
	// compressed grids of an encoded layer [Units: bytes].
	EncodedLayerHeaderSize = 56
)

// Errors of the layer encoding, for errors.Is.
var (
	// ErrInvalidLayer is wrapped for a Layer or an encoded layer whose
	// header or grids do not hold together: sizes out of range, grids of
	// the wrong length, areas above 63, connections leaving the grid,
	// bounds that are not finite or not ordered.
	ErrInvalidLayer = errors.New("tilecache: invalid layer")
	// ErrUnknownLayerFormat is wrapped when an encoded layer does not
	// start with the magic and version of dtTileCacheLayerHeader.
	ErrUnknownLayerFormat = errors.New("tilecache: not an encoded layer")
)

// EncodeLayer returns the encoded form of layer (dtBuildTileCacheLayer): the
// 56-byte header, then the heights, areas and cons grids one after the other,
// compressed by c. With FastLZ the bytes equal the C++ ones. The layer is
// checked as DecodeLayer checks it, so what EncodeLayer writes decodes; the
// error wraps ErrInvalidLayer, or is the compressor's.
func EncodeLayer(layer *Layer, c Compressor) ([]byte, error) {
	if c == nil {
		return nil, fmt.Errorf("tilecache: encode layer: nil compressor")
	}
	if err := checkLayer(layer); err != nil {
		return nil, fmt.Errorf("tilecache: encode layer: %w", err)
	}
	cells := len(layer.Heights)
	grids := make([]byte, 0, 3*cells)
	grids = append(grids, layer.Heights...)
	grids = append(grids, layer.Areas...)
	grids = append(grids, layer.Cons...)
	out := make([]byte, EncodedLayerHeaderSize, EncodedLayerHeaderSize+c.MaxCompressedSize(len(grids)))
	putLayerHeader(out, &layer.Header)
	out, err := c.Compress(out, grids)
	if err != nil {
		return nil, fmt.Errorf("tilecache: encode layer (%d, %d, layer %d): compress: %w",
			layer.Header.TX, layer.Header.TY, layer.Header.TLayer, err)
	}
	return out, nil
}

// DecodeLayer decodes an encoded layer (dtDecompressTileCacheLayer) with the
// compressor it was written with. It checks the magic and version
// (ErrUnknownLayerFormat), the header and that the grids decompress to
// exactly 3×width×height bytes with valid areas and connections
// (ErrInvalidLayer, ErrCorruptData); the C++ checks only the magic and
// version.
func DecodeLayer(data []byte, c Compressor) (*Layer, error) {
	if c == nil {
		return nil, fmt.Errorf("tilecache: decode layer: nil compressor")
	}
	header, err := DecodeLayerHeader(data)
	if err != nil {
		return nil, err
	}
	cells := int(header.Width) * int(header.Height)
	grids := make([]byte, 0, 3*cells)
	layer, err := decodeLayerGrids(header, data, c, grids)
	if err != nil {
		return nil, err
	}
	return &layer, nil
}

// decodeLayerGrids decompresses the grids of data into buf (which needs
// capacity 3×width×height) and returns the layer viewing them.
func decodeLayerGrids(header LayerHeader, data []byte, c Compressor, buf []byte) (Layer, error) {
	cells := int(header.Width) * int(header.Height)
	grids, err := c.Decompress(buf[:0:3*cells], data[EncodedLayerHeaderSize:])
	if err != nil {
		return Layer{}, fmt.Errorf("tilecache: decode layer (%d, %d, layer %d): %w", header.TX, header.TY, header.TLayer, err)
	}
	if len(grids) != 3*cells {
		return Layer{}, fmt.Errorf("tilecache: decode layer (%d, %d, layer %d): grids decompress to %d bytes, want 3×%d×%d = %d: %w",
			header.TX, header.TY, header.TLayer, len(grids), header.Width, header.Height, 3*cells, ErrCorruptData)
	}
	layer := Layer{
		Header:  header,
		Heights: grids[:cells:cells],
		Areas:   grids[cells : 2*cells : 2*cells],
		Cons:    grids[2*cells : 3*cells : 3*cells],
	}
	if err := checkLayerGrids(&layer); err != nil {
		return Layer{}, fmt.Errorf("tilecache: decode layer (%d, %d, layer %d): %w", header.TX, header.TY, header.TLayer, err)
	}
	return layer, nil
}

// DecodeLayerHeader reads and checks the header of an encoded layer without
// decompressing its grids. Errors wrap ErrUnknownLayerFormat or
// ErrInvalidLayer.
func DecodeLayerHeader(data []byte) (LayerHeader, error) {
	if len(data) < EncodedLayerHeaderSize {
		return LayerHeader{}, fmt.Errorf("tilecache: decode layer: %d bytes, want at least the %d-byte header: %w", len(data), EncodedLayerHeaderSize, ErrInvalidLayer)
	}
	le := binary.LittleEndian
	if magic, version := le.Uint32(data), le.Uint32(data[4:]); magic != layerMagic || version != layerVersion {
		return LayerHeader{}, fmt.Errorf("tilecache: decode layer: magic %#08x version %d, want %#08x version %d: %w", magic, version, layerMagic, layerVersion, ErrUnknownLayerFormat)
	}
	float := func(at int) float32 { return math.Float32frombits(le.Uint32(data[at:])) }
	h := LayerHeader{
		TX:     int32(le.Uint32(data[8:])),
		TY:     int32(le.Uint32(data[12:])),
		TLayer: int32(le.Uint32(data[16:])),
		BMin:   mgl32.Vec3{float(20), float(24), float(28)},
		BMax:   mgl32.Vec3{float(32), float(36), float(40)},
		HMin:   le.Uint16(data[44:]),
		HMax:   le.Uint16(data[46:]),
		Width:  data[48], Height: data[49],
		MinX: data[50], MaxX: data[51], MinY: data[52], MaxY: data[53],
	}
	if err := checkLayerHeader(&h); err != nil {
		return LayerHeader{}, fmt.Errorf("tilecache: decode layer: %w", err)
	}
	return h, nil
}

// putLayerHeader writes the 56-byte header of h (magic, version, fields,
// zero padding) into dst.
func putLayerHeader(dst []byte, h *LayerHeader) {
	le := binary.LittleEndian
	le.PutUint32(dst, layerMagic)
	le.PutUint32(dst[4:], layerVersion)
	le.PutUint32(dst[8:], uint32(h.TX))
	le.PutUint32(dst[12:], uint32(h.TY))
	le.PutUint32(dst[16:], uint32(h.TLayer))
	for i := range 3 {
		le.PutUint32(dst[20+4*i:], math.Float32bits(h.BMin[i]))
		le.PutUint32(dst[32+4*i:], math.Float32bits(h.BMax[i]))
	}
	le.PutUint16(dst[44:], h.HMin)
	le.PutUint16(dst[46:], h.HMax)
	dst[48], dst[49] = h.Width, h.Height
	dst[50], dst[51], dst[52], dst[53] = h.MinX, h.MaxX, h.MinY, h.MaxY
	dst[54], dst[55] = 0, 0
}

// checkLayer checks a whole Layer: header, grid lengths and grid values.
func checkLayer(layer *Layer) error {
	if layer == nil {
		return fmt.Errorf("nil layer: %w", ErrInvalidLayer)
	}
	h := &layer.Header
	if err := checkLayerHeader(h); err != nil {
		return err
	}
	cells := int(h.Width) * int(h.Height)
	if len(layer.Heights) != cells || len(layer.Areas) != cells || len(layer.Cons) != cells {
		return fmt.Errorf("layer (%d, %d, layer %d): grids of %d, %d and %d cells, want %d×%d = %d: %w",
			h.TX, h.TY, h.TLayer, len(layer.Heights), len(layer.Areas), len(layer.Cons), h.Width, h.Height, cells, ErrInvalidLayer)
	}
	return checkLayerGrids(layer)
}

// checkLayerHeader checks what the tile build relies on in a header.
func checkLayerHeader(h *LayerHeader) error {
	where := func() string { return fmt.Sprintf("layer (%d, %d, layer %d)", h.TX, h.TY, h.TLayer) }
	switch {
	case h.TLayer < 0:
		return fmt.Errorf("%s: negative layer index: %w", where(), ErrInvalidLayer)
	case h.Width == 0 || h.Height == 0:
		return fmt.Errorf("%s: size %d×%d, want at least 1×1: %w", where(), h.Width, h.Height, ErrInvalidLayer)
	case h.MinX > h.MaxX || h.MaxX >= h.Width || h.MinY > h.MaxY || h.MaxY >= h.Height:
		return fmt.Errorf("%s: used cells x %d..%d, y %d..%d outside the %d×%d grid: %w",
			where(), h.MinX, h.MaxX, h.MinY, h.MaxY, h.Width, h.Height, ErrInvalidLayer)
	case h.HMin > h.HMax:
		return fmt.Errorf("%s: height range %d..%d not ordered: %w", where(), h.HMin, h.HMax, ErrInvalidLayer)
	}
	for i := range 3 {
		if !finite(h.BMin[i]) || !finite(h.BMax[i]) || h.BMin[i] > h.BMax[i] {
			return fmt.Errorf("%s: bounds %v..%v not finite and ordered: %w", where(), h.BMin, h.BMax, ErrInvalidLayer)
		}
	}
	return nil
}

// checkLayerGrids checks the grid values: areas are 0..63 and no
// connection bit points off the grid (the region and contour code follows
// them without a bound check in the C++).
func checkLayerGrids(layer *Layer) error {
	h := &layer.Header
	w, ht := int(h.Width), int(h.Height)
	for i, area := range layer.Areas {
		if area > WalkableArea {
			return fmt.Errorf("layer (%d, %d, layer %d): cell %d has area %d, limit %d: %w", h.TX, h.TY, h.TLayer, i, area, WalkableArea, ErrInvalidLayer)
		}
	}
	for y := range ht {
		for x := range w {
			con := layer.Cons[x+y*w] & 0xf
			if con == 0 {
				continue
			}
			if (x == 0 && con&1 != 0) || (y == ht-1 && con&2 != 0) || (x == w-1 && con&4 != 0) || (y == 0 && con&8 != 0) {
				return fmt.Errorf("layer (%d, %d, layer %d): cell (%d, %d) connects off the %d×%d grid (cons %#02x): %w",
					h.TX, h.TY, h.TLayer, x, y, w, ht, layer.Cons[x+y*w], ErrInvalidLayer)
			}
		}
	}
	return nil
}

func finite(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}
