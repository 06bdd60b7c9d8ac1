package navmesh

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testTiles builds n small tiles at grid positions (i, 0), with and
// without off-mesh connections.
func testTiles(t testing.TB, n int) []*TileData {
	t.Helper()
	tiles := make([]*TileData, n)
	for i := range tiles {
		params := offMeshTestParams()
		params.TileX, params.TileY, params.TileLayer = int32(i), 0, 0
		params.BMin[0] += float32(6 * i)
		params.BMax[0] += float32(6 * i)
		if i%2 == 1 {
			params.OffMeshConnections = nil
			params.BuildBVTree = false
		}
		data, err := BuildTileData(params)
		require.NoError(t, err)
		tiles[i] = data
	}
	return tiles
}

// cppTileSetFile writes an MSET file field by field the way RecastDemo's
// saveAll does, independently of WriteMSET.
func cppTileSetFile(t testing.TB, params Params, refs []uint32, blobs [][]byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	var b []byte
	b = append(b, "TESM"...)
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, uint32(len(blobs)))
	for _, f := range []float32{params.Origin[0], params.Origin[1], params.Origin[2], params.TileWidth, params.TileHeight} {
		b = le.AppendUint32(b, math.Float32bits(f))
	}
	b = le.AppendUint32(b, uint32(params.MaxTiles))
	b = le.AppendUint32(b, uint32(params.MaxPolys))
	for i, blob := range blobs {
		b = le.AppendUint32(b, refs[i])
		b = le.AppendUint32(b, uint32(len(blob)))
		b = append(b, blob...)
	}
	return b
}

func TestReadMSETFromCppLayout(t *testing.T) {
	blob := readDungeonBlob(t)
	tiles := testTiles(t, 2)
	small, err := MarshalDNAV(tiles[0])
	require.NoError(t, err)
	// MaxTiles 128 → 7 tile bits, MaxPolys 1024 → 10 poly bits, 15 salt bits.
	params := Params{Origin: mgl32.Vec3{-25, 0, -90}, TileWidth: 9.6, TileHeight: 9.6, MaxTiles: 128, MaxPolys: 1024}
	refs := []uint32{3<<17 | 5<<10, 1<<17 | 0<<10}
	file := cppTileSetFile(t, params, refs, [][]byte{blob, small})

	set, err := ReadMSET(file)
	require.NoError(t, err)
	assert.Equal(t, params, set.Params)
	require.Len(t, set.Tiles, 2)
	assert.Equal(t, EncodeRef(3, 5, 0), set.Tiles[0].Ref)
	assert.Equal(t, EncodeRef(1, 0, 0), set.Tiles[1].Ref)
	assert.Equal(t, readDungeonTile(t), set.Tiles[0].Data)
	assert.Equal(t, tiles[0], set.Tiles[1].Data)

	var out bytes.Buffer
	require.NoError(t, WriteMSET(&out, set))
	assert.True(t, bytes.Equal(file, out.Bytes()), "written file differs from the C++ layout")
	assert.Equal(t, FormatMSET, DetectFormat(file))
}

func TestMSETRoundTrip(t *testing.T) {
	tiles := testTiles(t, 4)
	set := &TileSet{Params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 8}}
	for i, data := range tiles {
		set.Tiles = append(set.Tiles, TileSetTile{Ref: EncodeRef(uint32(7+i), uint32(3-i), 0), Data: data})
	}
	var out bytes.Buffer
	require.NoError(t, WriteMSET(&out, set))
	got, err := ReadMSET(out.Bytes())
	require.NoError(t, err)
	assert.Equal(t, set, got)
}

func TestCppRefBits(t *testing.T) {
	tests := []struct {
		maxTiles, maxPolys int
		want               cppRefBits
		wantErr            bool
	}{
		{1, 118, cppRefBits{salt: 25, tile: 0, poly: 7}, false},
		{128, 1024, cppRefBits{salt: 15, tile: 7, poly: 10}, false},
		{1 << 11, 1 << 11, cppRefBits{salt: 10, tile: 11, poly: 11}, false},
		{1 << 12, 1 << 11, cppRefBits{}, true},
		{1, 1, cppRefBits{salt: 31, tile: 0, poly: 0}, false},
	}
	for _, tt := range tests {
		got, err := newCPPRefBits(Params{MaxTiles: tt.maxTiles, MaxPolys: tt.maxPolys})
		if tt.wantErr {
			assert.Error(t, err, "%d tiles, %d polys", tt.maxTiles, tt.maxPolys)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}

	bits := cppRefBits{salt: 10, tile: 11, poly: 11}
	saltMax := uint32(1023)
	for _, tt := range []struct{ salt, want uint32 }{{1, 1}, {1023, 1023}, {1024, 1}, {1025, 2}, {2046, 1023}, {2047, 1}, {0, 1023}} {
		salt, tileIndex, _ := bits.decode(bits.encode(tt.salt, 9))
		assert.Equal(t, tt.want, salt, "salt %d wraps like the C++ counter (max %d)", tt.salt, saltMax)
		assert.Equal(t, uint32(9), tileIndex)
	}
}

func TestReadMSETEveryTruncationFails(t *testing.T) {
	tiles := testTiles(t, 3)
	set := &TileSet{Params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 8}}
	for i, data := range tiles {
		set.Tiles = append(set.Tiles, TileSetTile{Ref: EncodeRef(1, uint32(i), 0), Data: data})
	}
	var out bytes.Buffer
	require.NoError(t, WriteMSET(&out, set))
	file := out.Bytes()
	for n := 0; n < len(file); n++ {
		_, err := ReadMSET(file[:n])
		require.ErrorIs(t, err, ErrMalformedFile, "prefix of %d bytes", n)
	}
	_, err := ReadMSET(append(append([]byte{}, file...), 0, 0, 0, 0))
	require.ErrorIs(t, err, ErrMalformedFile)
}

func TestReadMSETRejectsHostileInput(t *testing.T) {
	tiles := testTiles(t, 2)
	blobs := make([][]byte, len(tiles))
	for i, data := range tiles {
		blob, err := MarshalDNAV(data)
		require.NoError(t, err)
		blobs[i] = blob
	}
	params := Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 8} // 2 tile bits, 3 poly bits
	good := func() []byte { return cppTileSetFile(t, params, []uint32{1 << 5, 1<<5 | 1<<3}, blobs) }
	le := binary.LittleEndian
	firstTile := msetHeaderSize
	secondTile := firstTile + msetTileHeaderSize + len(blobs[0])

	tests := []struct {
		name    string
		mutate  func([]byte) []byte
		wantErr error
		wantMsg string
	}{
		{"wrong magic", func(b []byte) []byte { copy(b, "MSET"); return b }, ErrUnknownFormat, "magic"},
		{"wrong version", func(b []byte) []byte { le.PutUint32(b[4:], 2); return b }, ErrUnsupportedVersion, "version 2"},
		{"negative tile count", func(b []byte) []byte { le.PutUint32(b[8:], 0xffffffff); return b }, ErrMalformedFile, "-1 tiles"},
		{"tile count beyond MaxTiles", func(b []byte) []byte { le.PutUint32(b[8:], 5); return b }, ErrMalformedFile, "5 tiles"},
		{"huge tile count", func(b []byte) []byte {
			le.PutUint32(b[8:], 1<<19)
			le.PutUint32(b[32:], 1<<20)
			le.PutUint32(b[36:], 1)
			return b
		}, ErrMalformedFile, "524288 tiles: the mesh holds 1048576 and the file has room for 12"},
		{"NaN origin", func(b []byte) []byte { le.PutUint32(b[12:], 0x7fc00000); return b }, ErrMalformedFile, "origin"},
		{"zero tile width", func(b []byte) []byte { le.PutUint32(b[24:], 0); return b }, ErrMalformedFile, "tile size"},
		{"zero MaxPolys", func(b []byte) []byte { le.PutUint32(b[36:], 0); return b }, ErrMalformedFile, "MaxPolys 0"},
		{"too many ref bits", func(b []byte) []byte { le.PutUint32(b[32:], 1<<14); le.PutUint32(b[36:], 1<<10); return b }, ErrMalformedFile, "salt bits"},
		{"zero tile ref", func(b []byte) []byte { le.PutUint32(b[firstTile:], 0); return b }, ErrMalformedFile, "tile 0 at offset 0x28: tile ref 0x0 has salt 0"},
		{"poly ref for tile ref", func(b []byte) []byte { le.PutUint32(b[firstTile:], 1<<5|2); return b }, ErrMalformedFile, "names polygon 2"},
		{"duplicate slot", func(b []byte) []byte { le.PutUint32(b[secondTile:], 2<<5); return b }, ErrMalformedFile, "slot 0 already used by tile 0"},
		{"negative size", func(b []byte) []byte { le.PutUint32(b[firstTile+4:], 0x80000000); return b }, ErrMalformedFile, "tile size -2147483648"},
		{"size past end", func(b []byte) []byte { le.PutUint32(b[secondTile+4:], uint32(len(blobs[1])+1)); return b }, ErrMalformedFile, "tile 1 at offset"},
		{"bad tile blob", func(b []byte) []byte { b[secondTile+msetTileHeaderSize] = 'X'; return b }, ErrUnknownFormat, "tile 1 at offset"},
		{"corrupt tile poly", func(b []byte) []byte {
			le.PutUint16(b[firstTile+msetTileHeaderSize+dnavHeaderSize+10*dnavVertSize+4:], 99)
			return b
		}, ErrMalformedFile, "polygons[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := ReadMSET(tt.mutate(good()))
			require.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Nil(t, set)
		})
	}
}

func TestWriteMSETRefusesBadSets(t *testing.T) {
	tiles := testTiles(t, 1)
	tests := []struct {
		name    string
		set     *TileSet
		wantMsg string
	}{
		{"nil", nil, "nil tile set"},
		{"bad params", &TileSet{Params: Params{TileWidth: -1, TileHeight: 1, MaxTiles: 1, MaxPolys: 1}}, "tile size"},
		{"too many tiles", &TileSet{Params: Params{TileWidth: 1, TileHeight: 1, MaxTiles: 1, MaxPolys: 8},
			Tiles: []TileSetTile{{EncodeRef(1, 0, 0), tiles[0]}, {EncodeRef(1, 0, 0), tiles[0]}}}, "2 tiles for MaxTiles 1"},
		{"slot out of range", &TileSet{Params: Params{TileWidth: 1, TileHeight: 1, MaxTiles: 2, MaxPolys: 8},
			Tiles: []TileSetTile{{EncodeRef(1, 2, 0), tiles[0]}}}, "slot 2 of 2"},
		{"nil data", &TileSet{Params: Params{TileWidth: 1, TileHeight: 1, MaxTiles: 2, MaxPolys: 8},
			Tiles: []TileSetTile{{EncodeRef(1, 0, 0), nil}}}, "nil data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := WriteMSET(&out, tt.set)
			require.ErrorIs(t, err, ErrInconsistentTileData)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Zero(t, out.Len())
		})
	}
}
