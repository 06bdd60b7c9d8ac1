package navmesh

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewVersionCopiesEveryField checks that a draft's start copies every
// field of the Tile but its tile components: a field added to Tile and
// forgotten in newVersion fails here.
func TestNewVersionCopiesEveryField(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	_, err = m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	_, err = m.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)
	s := m.Snapshot()
	tile := s.Tile(0)
	require.NotNil(t, tile)
	s.Connectivity() // fills the components
	require.NotNil(t, tile.components.Load(), "the original has components")

	version := tile.newVersion()
	assert.Nil(t, version.components.Load(), "the version computes its own")
	a, b := reflect.ValueOf(tile).Elem(), reflect.ValueOf(version).Elem()
	for i := range a.NumField() {
		name := a.Type().Field(i).Name
		if name == "components" {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		switch fa.Kind() {
		case reflect.Slice:
			assert.Equal(t, fa.Pointer(), fb.Pointer(), name)
			assert.Equal(t, fa.Len(), fb.Len(), name)
			assert.Equal(t, fa.Cap(), fb.Cap(), name)
		case reflect.Pointer:
			assert.Equal(t, fa.Pointer(), fb.Pointer(), name)
		case reflect.Uint32:
			assert.Equal(t, fa.Uint(), fb.Uint(), name)
		default:
			t.Errorf("field %s of kind %s: compare it here", name, fa.Kind())
		}
	}
}

// TestTileStructSizes pins the per-tile structs at the sizes the docs'
// memory table gives (docs/large-worlds.md), on 64-bit CPUs: a Tile
// version in the 96-byte size class; TileData at 280 bytes, which a file
// reader packs 117 to a 32 KiB chunk (tileArena), and in the 288-byte
// size class when allocated alone.
func TestTileStructSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit CPUs")
	}
	assert.Equal(t, uintptr(96), unsafe.Sizeof(Tile{}))
	assert.Equal(t, uintptr(280), unsafe.Sizeof(TileData{}))
	assert.Equal(t, 117, arenaTileDataChunk)
}
