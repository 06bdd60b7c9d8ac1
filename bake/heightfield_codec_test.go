package bake

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameSpans reports whether two fields hold the same grid and the same
// spans, column by column.
func requireSameSpans(t *testing.T, want, got *Heightfield) {
	t.Helper()
	require.Equal(t, [2]int{want.Width, want.Height}, [2]int{got.Width, got.Height})
	require.Equal(t, want.BMin, got.BMin)
	require.Equal(t, want.BMax, got.BMax)
	require.Equal(t, want.CellSize, got.CellSize)
	require.Equal(t, want.CellHeight, got.CellHeight)
	for z := range want.Height {
		for x := range want.Width {
			require.Equal(t, columnSpans(want, x, z), columnSpans(got, x, z), "column (%d, %d)", x, z)
		}
	}
}

func TestHeightfieldCodecRoundTrip(t *testing.T) {
	tests := []struct {
		level string
		// maxBytesPerColumn bounds the encoded size of the busiest tile.
		maxBytesPerColumn float64
	}{
		{"dungeon", 8},
		{"nav_test", 8},
		{"undulating", 8},
	}
	for _, test := range tests {
		t.Run(test.level, func(t *testing.T) {
			baker := newTestBaker(t, test.level)
			tilesX, tilesY := baker.Grid()
			var codec HeightfieldCodec
			var field, decoded Heightfield
			var encoded []byte
			for y := range tilesY {
				for x := range tilesX {
					_, err := baker.RasterizeTile(x, y, &field)
					require.NoError(t, err)
					encoded, err = codec.Encode(encoded[:0], &field)
					require.NoError(t, err)
					require.NoError(t, codec.Decode(encoded, &decoded))
					requireSameSpans(t, &field, &decoded)
					assert.Equal(t, field.SpanCount(), decoded.SpanCount())
					perColumn := float64(len(encoded)) / float64(field.Width*field.Height)
					assert.LessOrEqual(t, perColumn, test.maxBytesPerColumn, "tile (%d, %d)", x, y)
					again, err := EncodeHeightfield(nil, &decoded)
					require.NoError(t, err)
					assert.Equal(t, encoded, again, "encoding is canonical")
				}
			}
		})
	}
}

func TestHeightfieldCodecKeepsCarvedAndFreedSpans(t *testing.T) {
	hf := newTestHeightfield(t, 3, 2, 1, 1, 100)
	require.NoError(t, hf.AddSpan(0, 0, 2, 40, 7, 1))
	require.NoError(t, hf.AddSpan(0, 0, 50, 60, 63, 1))
	require.NoError(t, hf.CarveSpan(0, 0, 10, 20, 5))
	require.NoError(t, hf.AddSpan(2, 1, 0, MaxSpanHeight, 1, 1))
	require.NoError(t, hf.AddSpan(1, 1, 3, 4, 0, 1))
	require.NoError(t, hf.AddSpan(1, 1, 3, 9, 2, 1)) // frees one span
	encoded, err := EncodeHeightfield(nil, hf)
	require.NoError(t, err)
	var decoded Heightfield
	require.NoError(t, DecodeHeightfield(encoded, &decoded))
	requireSameSpans(t, hf, &decoded)
	assert.Equal(t, []spanSpec{{2, 10, 5}, {20, 40, 7}, {50, 60, 63}}, columnSpans(&decoded, 0, 0))
}

func TestHeightfieldCodecRejectsCorruptData(t *testing.T) {
	hf := newTestHeightfield(t, 4, 3, 0.5, 0.25, 40)
	require.NoError(t, hf.AddSpan(1, 1, 2, 9, 63, 1))
	require.NoError(t, hf.AddSpan(1, 1, 12, 20, 3, 1))
	good, err := EncodeHeightfield(nil, hf)
	require.NoError(t, err)
	put32 := func(offset int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[offset:], v)
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "shorter than"},
		{"short", good[:20], "shorter than"},
		{"magic", append([]byte("XHF1"), good[4:]...), "magic"},
		{"huge grid", put32(4, 1<<31), "grid"},
		{"zero width", put32(4, 0), "empty"},
		{"cut data", good[:len(good)-1], "header says"},
		{"more raw than compressed allows", put32(48, 1<<30), "cannot come from"},
		{"raw shorter than columns", put32(48, 3), "for 12 columns"},
		{"span count too high", put32(44, 1000), "cannot fit"},
		{"span count too low", put32(44, 1), "more than the header's"},
		{"raw length differs", put32(48, uint32(binary.LittleEndian.Uint32(good[48:])+1)), ""},
		{"nan cell", put32(36, 0x7fc00000), "cell size"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			var decoded Heightfield
			err := DecodeHeightfield(test.data, &decoded)
			require.ErrorIs(t, err, ErrCorruptHeightfield)
			assert.ErrorContains(t, err, test.want)
		})
	}
	var broken Heightfield
	broken.Width, broken.Height = 1, 1
	_, err = EncodeHeightfield(nil, &broken)
	assert.Error(t, err)
}

// FuzzDecodeHeightfield checks that any input decodes without a panic and
// that what decodes encodes to the same bytes.
func FuzzDecodeHeightfield(f *testing.F) {
	field := newTestHeightfield(f, 12, 9, 0.3, 0.2, 200)
	for z := range field.Height {
		for x := range field.Width {
			require.NoError(f, field.AddSpan(x, z, uint16(x), uint16(x+z+1), uint8(x*z)%64, 1))
			if (x+z)%3 == 0 {
				require.NoError(f, field.AddSpan(x, z, 40, uint16(60+x), 63, 1))
			}
		}
	}
	seed, err := EncodeHeightfield(nil, field)
	require.NoError(f, err)
	f.Add(seed)
	small := newTestHeightfield(f, 2, 2, 1, 1, 10)
	require.NoError(f, small.AddSpan(1, 0, 1, 3, 63, 1))
	seed, err = EncodeHeightfield(nil, small)
	require.NoError(f, err)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		var hf Heightfield
		if err := DecodeHeightfield(data, &hf); err != nil {
			require.ErrorIs(t, err, ErrCorruptHeightfield)
			return
		}
		again, err := EncodeHeightfield(nil, &hf)
		require.NoError(t, err)
		var back Heightfield
		require.NoError(t, DecodeHeightfield(again, &back))
		requireSameSpans(t, &hf, &back)
	})
}
