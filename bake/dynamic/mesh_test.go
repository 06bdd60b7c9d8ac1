package dynamic

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var budgetAll = tilecache.Budget{}

// TestNewMatchesTiledBake: a new mesh's tiles are bake.Tiled's byte for
// byte, with the headroom's raised top, for any number of workers.
func TestNewMatchesTiledBake(t *testing.T) {
	headrooms, workerCounts := []float32{-1, 12.5}, []int{1, 3}
	if longtest.Race {
		// Under the race detector, the one run with several workers.
		headrooms, workerCounts = []float32{12.5}, []int{3}
	}
	for _, level := range []string{"dungeon", "nav_test"} {
		for _, headroom := range headrooms {
			want := bakedFingerprints(t, loadLevel(t, level), bake.TiledOptions{Headroom: max(headroom, 0)})
			for _, workers := range workerCounts {
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

// TestNewTypes bakes dungeon for three agent types: each mesh is New's for
// its settings, byte for byte, and the two types whose fields are alike
// share them.
func TestNewTypes(t *testing.T) {
	g := loadLevel(t, "dungeon")
	small, similar, large := bake.DefaultSettings(), bake.DefaultSettings(), bake.DefaultSettings()
	similar.AgentRadius = 0.5 // ceil(0.5 / 0.3) = 2 cells, as 0.6
	similar.AgentHeight = 1.6
	large.AgentRadius = 1.8
	types := []bake.AgentType{{Name: "small", Settings: small}, {Name: "similar", Settings: similar}, {Name: "large", Settings: large}}
	meshes, err := NewTypes(context.Background(), g, types, Options{Workers: 2})
	require.NoError(t, err)
	require.Len(t, meshes, 3)
	for i, typ := range types {
		alone, err := New(context.Background(), g, typ.Settings, Options{Workers: 1})
		require.NoError(t, err)
		assert.Equal(t, tileFingerprints(t, alone.NavMesh()), tileFingerprints(t, meshes[i].NavMesh()), typ.Name)
	}
	sharedTiles := 0
	for index, tile := range meshes[1].tiles {
		if other := meshes[0].tiles[index]; other != nil && &other.base[0] == &tile.base[0] {
			sharedTiles++
		}
	}
	assert.Equal(t, len(meshes[0].tiles), sharedTiles, "small and similar share every field")
	for index, tile := range meshes[2].tiles {
		if other := meshes[0].tiles[index]; other != nil {
			assert.NotSame(t, &other.base[0], &tile.base[0], "large's border differs")
		}
	}
}
