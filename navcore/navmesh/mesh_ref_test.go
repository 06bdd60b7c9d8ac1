package navmesh

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRefRoundTrip(t *testing.T) {
	tests := []struct {
		name             string
		salt, tile, poly uint32
		want             Ref
	}{
		{"zero", 0, 0, 0, 0},
		{"first tile first poly", 1, 0, 0, 1 << 48},
		{"mixed", 0x1234, 0x0abcdef, 0x54321, 0x1234<<48 | 0x0abcdef<<20 | 0x54321},
		{"all max", 0xffff, 1<<28 - 1, 1<<20 - 1, 0xffffffffffffffff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := EncodeRef(tt.salt, tt.tile, tt.poly)
			assert.Equal(t, tt.want, ref)
			salt, tile, poly := ref.Decode()
			assert.Equal(t, []uint32{tt.salt, tt.tile, tt.poly}, []uint32{salt, tile, poly})
			assert.Equal(t, tt.salt, ref.Salt())
			assert.Equal(t, tt.tile, ref.TileIndex())
			assert.Equal(t, tt.poly, ref.PolyIndex())
		})
	}
}

func TestRefMasking(t *testing.T) {
	tests := []struct {
		name             string
		salt, tile, poly uint32
		wantSalt         uint32
		wantTile         uint32
		wantPoly         uint32
	}{
		{"salt overflow", 0x1ffff, 3, 4, 0xffff, 3, 4},
		{"tile overflow", 5, 1<<28 | 7, 4, 5, 7, 4},
		{"poly overflow", 5, 7, 1<<20 | 9, 5, 7, 9},
		{"everything overflows", 0xffffffff, 0xffffffff, 0xffffffff, 0xffff, 1<<28 - 1, 1<<20 - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			salt, tile, poly := EncodeRef(tt.salt, tt.tile, tt.poly).Decode()
			assert.Equal(t, tt.wantSalt, salt)
			assert.Equal(t, tt.wantTile, tile)
			assert.Equal(t, tt.wantPoly, poly)
		})
	}
}

func TestNextSaltSkipsZero(t *testing.T) {
	assert.Equal(t, uint32(2), nextSalt(1))
	assert.Equal(t, uint32(0xffff), nextSalt(0xfffe))
	assert.Equal(t, uint32(1), nextSalt(0xffff), "the salt wraps to 1, never 0")
}

func TestTileHashMatchesCpp(t *testing.T) {
	// unsigned n = 0x8da6b343*x + 0xd8163841*y, masked: values worked out by
	// hand with 32-bit wrapping.
	assert.Equal(t, uint32(0), tileHash(0, 0, 0xff))
	assert.Equal(t, uint32(0x43), tileHash(1, 0, 0xff))
	assert.Equal(t, uint32(0x41), tileHash(0, 1, 0xff))
	assert.Equal(t, uint32((0x8da6b343*2+0xd8163841*3)&0xffff), tileHash(2, 3, 0xffff))
	assert.Equal(t, uint32(-0x8da6b343&0xfff), tileHash(-1, 0, 0xfff))
}
