package navmesh

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSavedMesh returns three tiles in slots 2, 0 and 5 with salts 1, 4
// and 9 and runtime flags and areas that differ from the built ones.
func testSavedMesh(t testing.TB) *savedMesh {
	t.Helper()
	m := &savedMesh{params: Params{Origin: mgl32.Vec3{0, 0, 0}, TileWidth: 6, TileHeight: 3, MaxTiles: 8, MaxPolys: 16}}
	slots := []uint32{2, 0, 5}
	salts := []uint32{1, 4, 9}
	for i, data := range testTiles(t, 3) {
		tile := savedTile{ref: EncodeRef(salts[i], slots[i], 0), data: data}
		for j, poly := range data.Polys {
			tile.flags = append(tile.flags, poly.Flags|uint16(0x100<<i))
			tile.areas = append(tile.areas, uint8((int(poly.Area())+j+i)%MaxAreas))
		}
		m.tiles = append(m.tiles, tile)
	}
	return m
}

// resealOwn recomputes the checksum of a mutated file.
func resealOwn(file []byte) []byte {
	body := file[:len(file)-ownChecksumSize]
	binary.LittleEndian.PutUint32(file[len(body):], crc32.ChecksumIEEE(body))
	return file
}

func TestOwnFormatRoundTrip(t *testing.T) {
	m := testSavedMesh(t)
	file, err := encodeOwn(m)
	require.NoError(t, err)
	assert.Equal(t, FormatArchenav, DetectFormat(file))
	assert.Equal(t, "ANAVMESH", string(file[:8]))

	got, err := decodeOwn(file)
	require.NoError(t, err)
	assert.Equal(t, m, got)

	again, err := encodeOwn(got)
	require.NoError(t, err)
	assert.Equal(t, file, again)
}

func TestOwnFormatEveryTruncationFails(t *testing.T) {
	file, err := encodeOwn(testSavedMesh(t))
	require.NoError(t, err)
	for n := 0; n < len(file); n++ {
		_, err := decodeOwn(file[:n])
		require.ErrorIs(t, err, ErrMalformedFile, "prefix of %d bytes", n)
	}
}

func TestOwnFormatChecksumCatchesEveryByteFlip(t *testing.T) {
	file, err := encodeOwn(testSavedMesh(t))
	require.NoError(t, err)
	for i := len(ownMagic) + 4; i < len(file); i++ {
		corrupt := append([]byte{}, file...)
		corrupt[i] ^= 0x20
		_, err := decodeOwn(corrupt)
		require.ErrorIs(t, err, ErrMalformedFile, "byte %d flipped", i)
		assert.Contains(t, err.Error(), "checksum", "byte %d flipped", i)
	}
}

func TestOwnFormatRejectsHostileInput(t *testing.T) {
	le := binary.LittleEndian
	good, err := encodeOwn(testSavedMesh(t))
	require.NoError(t, err)
	firstTile := ownHeaderSize
	firstBlobSize := int(le.Uint32(good[firstTile+8:]))
	firstAreas := firstTile + ownTileHeaderSize + firstBlobSize + 2*4

	tests := []struct {
		name     string
		mutate   func([]byte) []byte
		noReseal bool
		wantErr  error
		wantMsg  string
	}{
		{"wrong magic", func(b []byte) []byte { copy(b, "ANAVMESS"); return b }, false, ErrUnknownFormat, "magic"},
		{"wrong version", func(b []byte) []byte { le.PutUint32(b[8:], 3); return b }, false, ErrUnsupportedVersion, "version 3"},
		{"checksum", func(b []byte) []byte { b[len(b)-1]++; return b }, true, ErrMalformedFile, "checksum"},
		{"reserved", func(b []byte) []byte { le.PutUint32(b[12:], 1); return b }, false, ErrMalformedFile, "reserved"},
		{"bad params", func(b []byte) []byte { le.PutUint32(b[36:], 0); return b }, false, ErrMalformedFile, "MaxTiles 0"},
		{"tile count", func(b []byte) []byte { le.PutUint32(b[44:], 0xffffffff); return b }, false, ErrMalformedFile, "4294967295 tiles"},
		{"tile count beyond the tiles present", func(b []byte) []byte { le.PutUint32(b[44:], 8); return b }, false, ErrMalformedFile, "tile 3 at offset 0x798: truncated tile header"},
		{"salt 0", func(b []byte) []byte { le.PutUint64(b[firstTile:], uint64(EncodeRef(0, 2, 0))); return b }, false, ErrMalformedFile, "salt 0"},
		{"slot beyond MaxTiles", func(b []byte) []byte { le.PutUint64(b[firstTile:], uint64(EncodeRef(1, 8, 0))); return b }, false, ErrMalformedFile, "slot 8"},
		{"polygon ref", func(b []byte) []byte { le.PutUint64(b[firstTile:], uint64(EncodeRef(1, 2, 3))); return b }, false, ErrMalformedFile, "polygon 3"},
		{"duplicate slot", func(b []byte) []byte {
			second := firstAreas + 4
			le.PutUint64(b[second:], uint64(EncodeRef(3, 2, 0)))
			return b
		}, false, ErrMalformedFile, "slot 2 already used by tile 0"},
		{"blob size past end", func(b []byte) []byte { le.PutUint32(b[firstTile+8:], 0xfffffff0); return b }, false, ErrMalformedFile, "tile size 4294967280"},
		{"blob size short", func(b []byte) []byte { le.PutUint32(b[firstTile+8:], uint32(firstBlobSize-4)); return b }, false, ErrMalformedFile, "tile 0 at offset 0x30"},
		{"area out of range", func(b []byte) []byte { b[firstAreas+1] = 64; return b }, false, ErrMalformedFile, "tile 0 area 1"},
		{"trailing bytes", func(b []byte) []byte {
			tail := append([]byte{}, b[len(b)-4:]...)
			return append(append(b[:len(b)-4], 0, 0), tail...)
		}, false, ErrMalformedFile, "2 bytes after the last tile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.mutate(append([]byte{}, good...))
			if !tt.noReseal {
				file = resealOwn(file)
			}
			m, err := decodeOwn(file)
			require.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Nil(t, m)
		})
	}
}

func TestEncodeOwnRefusesInconsistentTiles(t *testing.T) {
	m := testSavedMesh(t)
	m.tiles[1].flags = m.tiles[1].flags[:1]
	_, err := encodeOwn(m)
	require.ErrorIs(t, err, ErrInconsistentTileData)
	assert.Contains(t, err.Error(), "tile 1: 1 flags")
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		head []byte
		want Format
	}{
		{[]byte("VAND\x07\x00\x00\x00"), FormatDNAV},
		{[]byte("DNAV\x00\x00\x00\x07"), FormatDNAV},
		{[]byte("TESM\x01\x00\x00\x00"), FormatMSET},
		{[]byte("ANAVMESH"), FormatArchenav},
		{[]byte("ANAV"), FormatUnknown},
		{[]byte("MSET"), FormatUnknown},
		{[]byte("VA"), FormatUnknown},
		{nil, FormatUnknown},
		{[]byte("# OBJ file"), FormatUnknown},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, DetectFormat(tt.head), "%q", tt.head)
	}
	assert.Equal(t, "DNAV", FormatDNAV.String())
	assert.Equal(t, "MSET", FormatMSET.String())
	assert.Equal(t, "archenav", FormatArchenav.String())
	assert.Equal(t, "unknown", FormatUnknown.String())
}
