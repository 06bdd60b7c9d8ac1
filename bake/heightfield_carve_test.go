package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCarveSpan(t *testing.T) {
	tests := []struct {
		name               string
		spans              []spanSpec
		carveMin, carveMax uint16
		want               []spanSpec
	}{
		{"empty column", nil, 3, 8, nil},
		{"above", []spanSpec{{0, 3, 63}}, 3, 8, []spanSpec{{0, 3, 63}}},
		{"below", []spanSpec{{8, 10, 63}}, 3, 8, []spanSpec{{8, 10, 63}}},
		{"whole span", []spanSpec{{4, 6, 63}}, 3, 8, nil},
		{"exactly", []spanSpec{{3, 8, 63}}, 3, 8, nil},
		{"top cut", []spanSpec{{0, 5, 63}}, 3, 8, []spanSpec{{0, 3, 9}}},
		{"bottom cut", []spanSpec{{5, 12, 2}}, 3, 8, []spanSpec{{8, 12, 2}}},
		{"through", []spanSpec{{0, 20, 2}}, 3, 8, []spanSpec{{0, 3, 9}, {8, 20, 2}}},
		{"several", []spanSpec{{0, 4, 1}, {5, 6, 2}, {7, 10, 3}, {30, 31, 4}}, 3, 8,
			[]spanSpec{{0, 3, 9}, {8, 10, 3}, {30, 31, 4}}},
		{"nothing to carve", []spanSpec{{0, 4, 1}}, 5, 5, []spanSpec{{0, 4, 1}}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 2, 2, 1, 1, 64)
			setColumn(hf, 1, 0, test.spans...)
			setColumn(hf, 0, 1, spanSpec{0, 30, 5})
			require.NoError(t, hf.CarveSpan(1, 0, test.carveMin, test.carveMax, 9))
			assert.Equal(t, test.want, columnSpans(hf, 1, 0))
			assert.Equal(t, []spanSpec{{0, 30, 5}}, columnSpans(hf, 0, 1), "other columns untouched")
			// Freed spans are reused.
			before := len(hf.Pool)
			require.NoError(t, hf.AddSpan(0, 0, 50, 51, 1, 1))
			if len(test.spans) > len(test.want) {
				assert.Equal(t, before, len(hf.Pool))
			}
		})
	}
}

func TestCarveSpanRejectsBadInput(t *testing.T) {
	hf := newTestHeightfield(t, 2, 2, 1, 1, 64)
	setColumn(hf, 0, 0, spanSpec{0, 10, 63})
	assert.Error(t, hf.CarveSpan(2, 0, 1, 2, 0))
	assert.Error(t, hf.CarveSpan(0, -1, 1, 2, 0))
	assert.Error(t, hf.CarveSpan(0, 0, 1, MaxSpanHeight+1, 0))
	assert.Error(t, hf.CarveSpan(0, 0, 1, 2, MaxAreaID+1))
	assert.Equal(t, []spanSpec{{0, 10, 63}}, columnSpans(hf, 0, 0))
}

func TestWalkableSlopeThreshold(t *testing.T) {
	assert.Equal(t, walkableThreshold(45), WalkableSlopeThreshold(45))
	assert.InDelta(t, 0.7071, WalkableSlopeThreshold(45), 1e-4)
}
