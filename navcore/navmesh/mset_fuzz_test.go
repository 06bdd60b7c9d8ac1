package navmesh

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzReadMSET feeds arbitrary bytes to ReadMSET: it must never panic,
// whatever it accepts must survive a write and a second read unchanged, and
// building its mesh must succeed or fail cleanly.
func FuzzReadMSET(f *testing.F) {
	set := &TileSet{Params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 8}}
	for i, data := range testTiles(f, 2) {
		set.Tiles = append(set.Tiles, TileSetTile{Ref: EncodeRef(uint32(i+1), uint32(3-i), 0), Data: data})
	}
	var seed bytes.Buffer
	require.NoError(f, WriteMSET(&seed, set))
	f.Add(seed.Bytes())
	f.Fuzz(func(t *testing.T, file []byte) {
		set, err := ReadMSET(file)
		if err != nil {
			assert.Nil(t, set)
			return
		}
		var out bytes.Buffer
		require.NoError(t, WriteMSET(&out, set))
		again, err := ReadMSET(out.Bytes())
		require.NoError(t, err)
		require.True(t, reflect.DeepEqual(set, again), "tile set changed by a write and read")

		if m, err := set.Mesh(); err != nil {
			assert.Nil(t, m)
		} else {
			require.Equal(t, len(set.Tiles), m.TileCount())
		}
	})
}
