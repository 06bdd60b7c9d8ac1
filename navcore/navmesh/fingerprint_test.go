package navmesh

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFingerprintAppendTileData checks the streamed tile fingerprint
// against FNV-1a over the marshalled blob, alone and chained over several
// tiles (as a tiled bake chains its tiles).
func TestFingerprintAppendTileData(t *testing.T) {
	tile := readDungeonTile(t)
	blob, err := MarshalDNAV(tile)
	require.NoError(t, err)

	sum, err := TileDataFingerprint(tile)
	require.NoError(t, err)
	assert.Equal(t, uint64(dungeonTileFingerprint), sum)
	assert.Equal(t, Fingerprint(blob), sum)

	moved := *tile
	moved.Header.X, moved.Header.Y = 3, -2
	movedBlob, err := MarshalDNAV(&moved)
	require.NoError(t, err)
	want := FingerprintAppend(FingerprintAppend(Fingerprint(nil), blob), movedBlob)
	h, err := FingerprintAppendTileData(Fingerprint(nil), tile)
	require.NoError(t, err)
	h, err = FingerprintAppendTileData(h, &moved)
	require.NoError(t, err)
	assert.Equal(t, want, h)
	assert.NotEqual(t, sum, Fingerprint(movedBlob), "the tile location is part of the blob")
}

// TestFingerprintTileDataRejectsInconsistentData gives the errors
// MarshalDNAV gives, and the state unchanged.
func TestFingerprintTileDataRejectsInconsistentData(t *testing.T) {
	broken := *readDungeonTile(t)
	broken.Header.PolyCount++
	_, marshalErr := MarshalDNAV(&broken)
	require.Error(t, marshalErr)

	for name, data := range map[string]*TileData{"nil": nil, "poly count": &broken} {
		h, err := FingerprintAppendTileData(12345, data)
		require.Error(t, err, name)
		assert.True(t, errors.Is(err, ErrInconsistentTileData), name)
		assert.Equal(t, uint64(12345), h, name)
	}
	_, err := TileDataFingerprint(&broken)
	assert.Contains(t, err.Error(), "navmesh: fingerprint tile: ")
}

// TestTileDataFingerprintConcurrent fingerprints from several goroutines at
// once (the buffers are shared through a pool; run with -race).
func TestTileDataFingerprintConcurrent(t *testing.T) {
	tile := readDungeonTile(t)
	var wg sync.WaitGroup
	sums := make([]uint64, 8)
	for i := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				sum, err := TileDataFingerprint(tile)
				if err != nil {
					return
				}
				sums[i] = sum
			}
		}()
	}
	wg.Wait()
	for _, sum := range sums {
		assert.Equal(t, uint64(dungeonTileFingerprint), sum)
	}
}

// BenchmarkTileDataFingerprint fingerprints the solo dungeon tile.
func BenchmarkTileDataFingerprint(b *testing.B) {
	tile := readDungeonTile(b)
	b.ReportAllocs()
	for range b.N {
		if _, err := TileDataFingerprint(tile); err != nil {
			b.Fatal(err)
		}
	}
}
