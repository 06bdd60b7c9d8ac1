package navmesh

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzReadDNAV feeds arbitrary bytes to ReadDNAV: it must never panic,
// whatever it accepts must survive a write and a second read unchanged, and
// loading it as a one-tile mesh must succeed or fail cleanly.
// The committed corpus (testdata/fuzz/FuzzReadDNAV) holds the dungeon tile,
// small built tiles and their big-endian and 64-bit-link variants.
func FuzzReadDNAV(f *testing.F) {
	for _, data := range testTiles(f, 2) {
		blob, err := MarshalDNAV(data)
		require.NoError(f, err)
		f.Add(blob)
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		data, err := ReadDNAV(blob)
		if err != nil {
			assert.Nil(t, data)
			return
		}
		var out bytes.Buffer
		require.NoError(t, WriteDNAV(&out, data))
		require.Equal(t, DNAVSize(data), out.Len())
		again, err := ReadDNAV(out.Bytes())
		require.NoError(t, err)
		require.True(t, reflect.DeepEqual(data, again), "tile data changed by a write and read")

		// Whatever reads must also add to a mesh, or be refused, without
		// a panic.
		if m, _, err := LoadBytes(blob); err != nil {
			assert.Nil(t, m)
		} else {
			require.Equal(t, 1, m.TileCount())
		}
	})
}
