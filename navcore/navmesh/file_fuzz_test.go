package navmesh

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzLoad feeds arbitrary bytes to the archenav mesh file decoder: it must
// never panic, and whatever it accepts must survive an encode and a second
// decode unchanged.
func FuzzLoad(f *testing.F) {
	seed, err := encodeOwn(testSavedMesh(f))
	require.NoError(f, err)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, file []byte) {
		m, err := decodeOwn(file)
		if err != nil {
			assert.Nil(t, m)
			return
		}
		encoded, err := encodeOwn(m)
		require.NoError(t, err)
		again, err := decodeOwn(encoded)
		require.NoError(t, err)
		require.True(t, reflect.DeepEqual(m, again), "mesh file changed by an encode and decode")
	})
}
