// Package binstate writes and reads the little-endian fields of archenav's
// state codecs (the save files of plugin.Save): an append-only Writer and a
// bounds-checked Reader whose first error sticks, so that a codec reads a
// whole record and checks Err once.
//
// Every count a Reader hands out has been checked against the bytes left
// (Count), so that a small hostile file cannot make a decoder allocate more
// than a small multiple of its own size.
package binstate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// ErrMalformed is wrapped by every error of a Reader.
var ErrMalformed = errors.New("malformed state")

// Writer appends fields to B.
type Writer struct {
	B []byte
}

// U8 appends v.
func (w *Writer) U8(v uint8) { w.B = append(w.B, v) }

// Bool appends v as one byte, 0 or 1.
func (w *Writer) Bool(v bool) {
	if v {
		w.B = append(w.B, 1)
		return
	}
	w.B = append(w.B, 0)
}

// U16 appends v.
func (w *Writer) U16(v uint16) { w.B = binary.LittleEndian.AppendUint16(w.B, v) }

// U32 appends v.
func (w *Writer) U32(v uint32) { w.B = binary.LittleEndian.AppendUint32(w.B, v) }

// U64 appends v.
func (w *Writer) U64(v uint64) { w.B = binary.LittleEndian.AppendUint64(w.B, v) }

// I32 appends v.
func (w *Writer) I32(v int32) { w.U32(uint32(v)) }

// Int appends v as an int64.
func (w *Writer) Int(v int) { w.U64(uint64(int64(v))) }

// F32 appends v's bits.
func (w *Writer) F32(v float32) { w.U32(math.Float32bits(v)) }

// Vec3 appends v's three components.
func (w *Writer) Vec3(v mgl32.Vec3) {
	w.F32(v[0])
	w.F32(v[1])
	w.F32(v[2])
}

// Count appends a length as a uint32.
func (w *Writer) Count(n int) { w.U32(uint32(n)) }

// Uvarint appends v in 1 to 10 bytes (small values take one).
func (w *Writer) Uvarint(v uint64) { w.B = binary.AppendUvarint(w.B, v) }

// Record appends b with its length as a Uvarint: the framing of one
// record among many, each of which may grow fields at its end in a later
// version.
func (w *Writer) Record(b []byte) {
	w.Uvarint(uint64(len(b)))
	w.B = append(w.B, b...)
}

// Bytes appends b with its length.
func (w *Writer) Bytes(b []byte) {
	w.Count(len(b))
	w.B = append(w.B, b...)
}

// String appends s with its length.
func (w *Writer) String(s string) {
	w.Count(len(s))
	w.B = append(w.B, s...)
}

// Reader reads fields from a byte slice. After the first problem every
// read returns zero values and Err reports the problem.
type Reader struct {
	b    []byte
	off  int
	what string
	err  error
}

// NewReader returns a Reader of b; what names the record in errors.
func NewReader(b []byte, what string) *Reader { return &Reader{b: b, what: what} }

// Err returns the first problem met, nil when every read succeeded.
func (r *Reader) Err() error { return r.err }

// Left returns the number of bytes not read yet.
func (r *Reader) Left() int { return len(r.b) - r.off }

// Offset returns the number of bytes read.
func (r *Reader) Offset() int { return r.off }

// Fail records a problem found by the caller (a value outside its limits),
// unless one was recorded already.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s at byte %d: %s: %w", r.what, r.off, fmt.Sprintf(format, args...), ErrMalformed)
	}
}

// End reports a problem when bytes are left over.
func (r *Reader) End() error {
	if r.err == nil && r.off != len(r.b) {
		r.Fail("%d bytes left over", len(r.b)-r.off)
	}
	return r.err
}

// take returns the next n bytes, nil after a problem.
func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.Fail("truncated: %d bytes wanted, %d left", n, len(r.b)-r.off)
		return nil
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	return b
}

// U8 reads a byte.
func (r *Reader) U8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool() bool {
	switch v := r.U8(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.Fail("boolean %d", v)
		return false
	}
}

// U16 reads a uint16.
func (r *Reader) U16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

// U32 reads a uint32.
func (r *Reader) U32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// Size reads a uint32 written as a size or an index and returns it as an
// int. A value of 2^31 or more is refused (the reader fails and Size returns
// 0) on every CPU, so that a 32-bit build never sees it turn negative and a
// file reads the same everywhere.
func (r *Reader) Size() int {
	v := r.U32()
	if v > math.MaxInt32 {
		r.Fail("value %d above 2^31-1", v)
		return 0
	}
	return int(v)
}

// U64 reads a uint64.
func (r *Reader) U64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// I32 reads an int32.
func (r *Reader) I32() int32 { return int32(r.U32()) }

// Int reads an int64 that must lie in [lo, hi].
func (r *Reader) Int(lo, hi int) int {
	v := int64(r.U64())
	if r.err == nil && (v < int64(lo) || v > int64(hi)) {
		r.Fail("integer %d outside %d..%d", v, lo, hi)
		return 0
	}
	return int(v)
}

// F32 reads a float32.
func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

// Vec3 reads three float32.
func (r *Reader) Vec3() mgl32.Vec3 { return mgl32.Vec3{r.F32(), r.F32(), r.F32()} }

// Count reads a length written by Writer.Count that must be at most max
// and whose elements, at least minSize bytes each in the file, fit in the
// bytes left; 0 after a problem.
func (r *Reader) Count(max, minSize int) int {
	// Compared as uint64, so that a count above 2^31 is refused on 32-bit
	// CPUs too, where int(u32) would turn it negative.
	n := uint64(r.U32())
	switch {
	case r.err != nil:
		return 0
	case max < 0 || n > uint64(max):
		r.Fail("count %d above the limit %d", n, max)
		return 0
	case minSize > 0 && n > uint64(r.Left()/minSize):
		r.Fail("count %d of %d-byte entries, %d bytes left", n, minSize, r.Left())
		return 0
	}
	return int(n)
}

// Uvarint reads a value written by Writer.Uvarint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.Fail("bad varint")
		return 0
	}
	r.off += n
	return v
}

// Record reads a record written by Writer.Record; the result aliases the
// Reader's input.
func (r *Reader) Record() []byte {
	n := r.Uvarint()
	if r.err == nil && n > uint64(r.Left()) {
		r.Fail("record of %d bytes, %d left", n, r.Left())
		return nil
	}
	return r.take(int(n))
}

// Bytes reads a byte string written by Writer.Bytes, at most max long. The
// result aliases the Reader's input.
func (r *Reader) Bytes(max int) []byte {
	n := r.Count(max, 1)
	return r.take(n)
}

// String reads a string written by Writer.String, at most max bytes long.
func (r *Reader) String(max int) string { return string(r.Bytes(max)) }
