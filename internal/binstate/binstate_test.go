package binstate

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCountsAndSizesAboveInt32AreRefused checks that counts and sizes of
// 2^31 or more are refused on every CPU: on a 32-bit build int(u32) would
// turn them negative and past the limit checks (a makeslice panic once).
func TestCountsAndSizesAboveInt32AreRefused(t *testing.T) {
	tests := []struct {
		value     uint32
		wantCount int
		wantSize  int
		refused   bool
	}{
		{value: 0, wantCount: 0, wantSize: 0},
		{value: 3, wantCount: 3, wantSize: 3},
		{value: 1<<31 - 1, wantSize: 1<<31 - 1, refused: true}, // Count: above the limit
		{value: 1 << 31, refused: true},
		{value: 0xffffffff, refused: true},
	}
	for _, tc := range tests {
		var w Writer
		w.U32(tc.value)
		w.B = append(w.B, make([]byte, 64)...)

		r := NewReader(w.B, "test")
		assert.Equal(t, tc.wantCount, r.Count(1000, 1), "Count(%d)", tc.value)
		assert.Equal(t, tc.refused, r.Err() != nil, "Count(%d) refused", tc.value)

		r = NewReader(w.B, "test")
		assert.Equal(t, tc.wantSize, r.Size(), "Size(%d)", tc.value)
		assert.Equal(t, tc.value > 1<<31-1, r.Err() != nil, "Size(%d) refused", tc.value)
	}
}
