package dynamic

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var budgetAll = tilecache.Budget{}

// TestNewMatchesTiledBake: a new mesh's tiles are bake.Tiled's byte for
// byte, with the headroom's raised top, for any number of workers.
func TestNewMatchesTiledBake(t *testing.T) {
	for _, level := range []string{"dungeon", "nav_test"} {
		for _, headroom := range []float32{-1, 12.5} {
			want := bakedFingerprints(t, loadLevel(t, level), bake.TiledOptions{Headroom: max(headroom, 0)})
			for _, workers := range []int{1, 3} {
				m := newTestMesh(t, level, Options{Headroom: headroom, Workers: workers})
				assert.Equal(t, want, tileFingerprints(t, m.NavMesh()), "%s, headroom %v, %d workers", level, headroom, workers)
				assert.Zero(t, m.Pending())
			}
		}
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	g := loadLevel(t, "dungeon")
	links := bake.DefaultSettings()
	links.Links.Drops = true
	_, err := New(context.Background(), g, links, Options{})
	assert.ErrorIs(t, err, ErrLinksUnsupported)
	tests := []struct {
		name string
		opts Options
	}{
		{"workers", Options{Workers: -1}},
		{"colliders", Options{MaxColliders: MaxColliders + 1}},
		{"polys", Options{MaxPolys: 1 << 21}},
	}
	for _, test := range tests {
		_, err := New(context.Background(), g, bake.DefaultSettings(), test.opts)
		assert.Error(t, err, test.name)
	}
	small := bake.DefaultSettings()
	small.MaxMemory = 1000
	_, err = New(context.Background(), g, small, Options{})
	assert.ErrorIs(t, err, bake.ErrMemoryLimit)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = New(ctx, g, bake.DefaultSettings(), Options{})
	assert.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, g)
}
