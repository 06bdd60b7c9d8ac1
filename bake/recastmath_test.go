package bake

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIntegerHelpersFromRecastTests ports the rcClamp and rcAbs cases of
// Tests_Recast.cpp (rcSwap, rcMin, rcMax and rcSqr are Go built-ins or
// plain expressions here).
func TestIntegerHelpersFromRecastTests(t *testing.T) {
	clamps := []struct{ v, lo, hi, want int }{
		{2, 0, 1, 1}, // above the range
		{1, 0, 2, 1}, // within
		{0, 1, 2, 1}, // below
	}
	for _, c := range clamps {
		assert.Equal(t, c.want, clampInt(c.v, c.lo, c.hi), "clamp(%d, %d, %d)", c.v, c.lo, c.hi)
	}
	assert.Equal(t, 1, abs(-1))
	assert.Equal(t, 1, abs(1))
	assert.Equal(t, 0, abs(0))
}

func TestDirections(t *testing.T) {
	tests := []struct{ dir, dx, dz int }{
		{0, -1, 0},
		{1, 0, 1},
		{2, 1, 0},
		{3, 0, -1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.dx, DirOffsetX(tt.dir), "x offset of %d", tt.dir)
		assert.Equal(t, tt.dz, DirOffsetZ(tt.dir), "z offset of %d", tt.dir)
		assert.Equal(t, tt.dx, DirOffsetX(tt.dir+4), "only the low bits count")
		assert.Equal(t, tt.dir, DirForOffset(tt.dx, tt.dz))
	}
	assert.Equal(t, -1, DirForOffset(0, 0))
}

func TestConnections(t *testing.T) {
	var s CompactSpan
	for dir := range 4 {
		s.SetConnection(dir, NotConnected)
	}
	assert.Equal(t, [4]uint16{NotConnected, NotConnected, NotConnected, NotConnected}, s.Connections())
	s.SetConnection(1, 5)
	s.SetConnection(3, 62)
	assert.Equal(t, NotConnected, s.Connection(0))
	assert.Equal(t, 5, s.Connection(1))
	assert.Equal(t, NotConnected, s.Connection(2))
	assert.Equal(t, 62, s.Connection(3))
	s.SetConnection(1, 0)
	assert.Equal(t, 0, s.Connection(1))
	assert.Equal(t, 62, s.Connection(3), "other directions untouched")
	s.SetConnection(2, 4094)
	assert.Equal(t, 4094, s.Connection(2), "12 bits, where Recast has 6")
	s.SetConnection(2, 0x1fff)
	assert.Equal(t, 0xfff, s.Connection(2), "only 12 bits are stored")
	assert.Equal(t, 62, s.Connection(3))
}

func TestCompactSpanPacking(t *testing.T) {
	assert.Equal(t, uintptr(12), unsafe.Sizeof(CompactSpan{}), "the C++ rcCompactSpan's 8 and 4 for 12-bit links")
	var s CompactSpan
	s.SetHeight(200)
	s.SetConnections([4]uint16{NotConnected, NotConnected, NotConnected, NotConnected})
	assert.Equal(t, 200, s.Height(), "links leave the height alone")
	s.SetConnection(0, 7)
	s.SetConnection(3, 62)
	assert.Equal(t, 200, s.Height())
	assert.Equal(t, [4]uint16{7, NotConnected, NotConnected, 62}, s.Connections())
	s.SetHeight(255)
	assert.Equal(t, 255, s.Height())
	assert.Equal(t, 7, s.Connection(0), "the height leaves the links alone")
	assert.Equal(t, 62, s.Connection(3))
	assert.Equal(t, 62, s.Connection(7), "only the low two bits of dir count")
	s.SetConnections([4]uint16{0xf000, 0xf001, 0xf002, 0xf003})
	assert.Equal(t, [4]uint16{0, 1, 2, 3}, s.Connections(), "only 12 bits of links")
	assert.Equal(t, 255, s.Height())
	for h := range 256 {
		s.SetHeight(uint8(h))
		require.Equal(t, h, s.Height())
		require.Equal(t, [4]uint16{0, 1, 2, 3}, s.Connections())
	}
}

func TestCInt(t *testing.T) {
	tests := []struct {
		f    float32
		want int
	}{
		{0, 0},
		{1.9, 1},
		{-1.9, -1},
		{-0.5, 0},
		{-3.7, -3},
		{2147483520, 2147483520}, // largest float32 below 2^31
		{2147483648, math.MinInt32},
		{-2147483648, math.MinInt32},
		{-2147483904, math.MinInt32},
		{float32(math.Inf(1)), math.MinInt32},
		{float32(math.Inf(-1)), math.MinInt32},
		{float32(math.NaN()), math.MinInt32},
		{1e20, math.MinInt32},
		{3e9, math.MinInt32},
		{-3e9, math.MinInt32},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, cInt(tt.f), "cInt(%v)", tt.f)
	}
}
