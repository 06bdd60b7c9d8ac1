package navmesh

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzLoad feeds arbitrary bytes to Load: it must never panic, build
// nothing on error, and a mesh it builds must save and load again to the
// same tiles. The decoded file must also survive an encode and a second
// decode unchanged. Each input is tried as it is and with its checksum
// recomputed, so that the mutations of the body get past the CRC and reach
// the header, tile and flag checks behind it.
func FuzzLoad(f *testing.F) {
	seed, err := encodeOwn(testSavedMesh(f))
	require.NoError(f, err)
	f.Add(seed)
	withLinks, err := encodeOwn(savedWithLinks(f))
	require.NoError(f, err)
	f.Add(withLinks)
	f.Fuzz(func(t *testing.T, file []byte) {
		checkLoad(t, file)
		if len(file) >= ownHeaderSize+ownChecksumSize {
			checkLoad(t, resealOwn(bytes.Clone(file)))
		}
	})
}

// TestFuzzLoadResealsTheChecksum: a body mutation with a stale checksum
// stops at the CRC; resealed, it reaches the check it breaks.
func TestFuzzLoadResealsTheChecksum(t *testing.T) {
	file, err := encodeOwn(testSavedMesh(t))
	require.NoError(t, err)
	file[ownHeaderSize+8+3] ^= 0xff // the first tile's blob size, high byte
	_, err = decodeOwn(file)
	require.ErrorContains(t, err, "checksum")
	_, err = decodeOwn(resealOwn(file))
	require.ErrorIs(t, err, ErrMalformedFile)
	require.ErrorContains(t, err, "tile size")
}

func checkLoad(t *testing.T, file []byte) {
	{
		saved, err := decodeOwn(file)
		if err == nil {
			encoded, err := encodeOwn(saved)
			require.NoError(t, err)
			again, err := decodeOwn(encoded)
			require.NoError(t, err)
			require.True(t, reflect.DeepEqual(saved, again), "mesh file changed by an encode and decode")
		}

		m, err := Load(bytes.NewReader(file))
		if err != nil {
			assert.Nil(t, m)
			return
		}
		var out bytes.Buffer
		require.NoError(t, Save(&out, m))
		reloaded, err := Load(&out)
		require.NoError(t, err)
		require.Equal(t, m.TileCount(), reloaded.TileCount())
		require.Equal(t, m.Snapshot().LinkCount(), reloaded.Snapshot().LinkCount())
	}
}

// FuzzLoadSet feeds arbitrary bytes to LoadSet: it must never panic, build
// nothing on error, and a set it builds must save and load again to the
// same names and tiles. A decoded file must survive an encode and a second
// decode unchanged.
func FuzzLoadSet(f *testing.F) {
	seed, err := encodeOwnSet(&savedSet{names: []string{"soldier", "ogre"}, meshes: []*savedMesh{testSavedMesh(f), savedWithLinks(f)}})
	require.NoError(f, err)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, file []byte) {
		saved, err := decodeOwnSet(file)
		if err == nil {
			encoded, err := encodeOwnSet(saved)
			require.NoError(t, err)
			again, err := decodeOwnSet(encoded)
			require.NoError(t, err)
			require.True(t, reflect.DeepEqual(saved, again), "set file changed by an encode and decode")
		}

		set, err := LoadSet(bytes.NewReader(file))
		if err != nil {
			assert.Nil(t, set)
			return
		}
		var out bytes.Buffer
		require.NoError(t, SaveSet(&out, set))
		reloaded, err := LoadSet(&out)
		require.NoError(t, err)
		require.Equal(t, set.Names(), reloaded.Names())
		for i := range set {
			require.Equal(t, set[i].Mesh.TileCount(), reloaded[i].Mesh.TileCount())
		}
	})
}
