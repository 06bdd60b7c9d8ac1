package navmesh

import (
	"reflect"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSizeClassesMatchRuntime checks the table tileArena sizes its blocks
// by against the running Go runtime: an allocation of each class's size,
// and of one byte more than the class below, gets exactly that class.
func TestSizeClassesMatchRuntime(t *testing.T) {
	below := 0
	for _, c := range sizeClasses {
		for _, n := range []int{below + 1, int(c)} {
			got := cap(slices.Grow([]byte(nil), n))
			assert.Equal(t, int(c), got, "allocation of %d bytes", n)
			assert.Equal(t, int(c), roundUpSize(n), "roundUpSize(%d)", n)
		}
		below = int(c)
	}
}

// TestReadMSETArenaMatchesReadDNAV reads a file of many tiles, enough for
// several blocks and TileData chunks, and checks every tile against the
// same blob read alone, and that no array reaches into the next.
func TestReadMSETArenaMatchesReadDNAV(t *testing.T) {
	dungeon := readDungeonBlob(t)
	tiles := testTiles(t, 2)
	var blobs [][]byte
	var refs []uint32
	for i := range 300 {
		blob := dungeon
		if i%3 != 0 {
			var err error
			blob, err = MarshalDNAV(tiles[i%2])
			require.NoError(t, err)
		}
		blobs = append(blobs, blob)
		refs = append(refs, 1<<17|uint32(i)<<8)
	}
	params := Params{TileWidth: 9.6, TileHeight: 9.6, MaxTiles: 512, MaxPolys: 256}
	set, err := ReadMSET(cppTileSetFile(t, params, refs, blobs))
	require.NoError(t, err)
	require.Len(t, set.Tiles, len(blobs))
	for i, blob := range blobs {
		alone, err := ReadDNAV(blob)
		require.NoError(t, err)
		got := set.Tiles[i].Data
		assert.Equal(t, alone, got, "tile %d", i)
		assert.Equal(t, len(got.Polys), cap(got.Polys), "tile %d polygons", i)
		assert.Equal(t, len(got.BVTree), cap(got.BVTree), "tile %d BV tree", i)
		assert.Equal(t, len(got.DetailTris), cap(got.DetailTris), "tile %d detail triangles", i)
	}
	// Appending to one tile's array copies it instead of writing into the
	// next tile's.
	first, second := set.Tiles[0].Data, set.Tiles[1].Data
	want := slices.Clone(second.Verts)
	_ = append(first.DetailVerts, mgl32.Vec3{1, 2, 3})
	_ = append(first.OffMeshConnections, OffMeshConnection{Radius: 9})
	assert.Equal(t, want, second.Verts)
	// The first mesh to take a tile still links its polygons in place.
	assert.True(t, first.claimPolys())
	assert.False(t, first.claimPolys())
	assert.True(t, second.claimPolys())
}

func TestTileDataChunk(t *testing.T) {
	for _, tiles := range []int{0, 1, 2, 3, 41, 66, 117, 121, 2809} {
		k := tileDataChunk(tiles)
		assert.GreaterOrEqual(t, k, 1)
		assert.LessOrEqual(t, k, max(tiles, 1))
		assert.LessOrEqual(t, k, arenaTileDataChunk)
	}
}

// TestArenaElementsHoldNoPointers checks what arenaMake relies on when it
// carves an element type's array out of a block of words: the type holds
// no pointer (the garbage collector does not scan the block), its size is
// a whole number of words and it needs no more than word alignment. A
// field added to one of these types that breaks this fails here.
func TestArenaElementsHoldNoPointers(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[mgl32.Vec3](), reflect.TypeFor[Poly](), reflect.TypeFor[PolyDetail](),
		reflect.TypeFor[DetailTri](), reflect.TypeFor[BVNode](), reflect.TypeFor[OffMeshConnection](),
	}
	var holdsPointer func(reflect.Type) bool
	holdsPointer = func(typ reflect.Type) bool {
		switch typ.Kind() {
		case reflect.Array:
			return holdsPointer(typ.Elem())
		case reflect.Struct:
			for i := range typ.NumField() {
				if holdsPointer(typ.Field(i).Type) {
					return true
				}
			}
			return false
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr,
			reflect.Float32, reflect.Float64:
			return false
		default:
			return true
		}
	}
	for _, typ := range types {
		assert.False(t, holdsPointer(typ), "%v holds a pointer", typ)
		assert.Zero(t, typ.Size()%4, "%v: size %d is not a whole number of words", typ, typ.Size())
		assert.LessOrEqual(t, typ.Align(), 4, "%v: alignment", typ)
	}
}
