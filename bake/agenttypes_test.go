package bake

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// testAgentTypes returns five types over the default settings that share
// in every way there is: ogre shares the soldier's rasterization only (it
// is taller), scout and jumper (with automatic links) share its compact
// stages too (they differ from it in radius and links alone), and cart
// (another climb and slope) shares nothing.
func testAgentTypes() []AgentType {
	soldier := DefaultSettings()
	ogre := soldier
	ogre.AgentRadius, ogre.AgentHeight = 1.5, 3
	scout := soldier
	scout.AgentRadius = 0.3
	cart := soldier
	cart.AgentRadius, cart.AgentMaxClimb, cart.AgentMaxSlope = 0.9, 0.3, 30
	jumper := soldier
	jumper.Links = DefaultLinkSettings()
	return []AgentType{
		{Name: "soldier", Settings: soldier},
		{Name: "ogre", Settings: ogre},
		{Name: "scout", Settings: scout},
		{Name: "cart", Settings: cart},
		{Name: "jumper", Settings: jumper},
	}
}

// requireSameSolo checks that got holds the products of want byte for byte:
// configuration, meshes, tile blob, links, fingerprints, counts and
// warnings (the stage times aside).
func requireSameSolo(t *testing.T, want, got *SoloResult, name string) {
	t.Helper()
	require.Equal(t, want.Config, got.Config, "%s: config", name)
	require.Equal(t, want.PolyMesh, got.PolyMesh, "%s: poly mesh", name)
	require.Equal(t, want.DetailMesh, got.DetailMesh, "%s: detail mesh", name)
	wantBlob, err := navmesh.MarshalDNAV(want.TileData)
	require.NoError(t, err)
	gotBlob, err := navmesh.MarshalDNAV(got.TileData)
	require.NoError(t, err)
	require.Equal(t, wantBlob, gotBlob, "%s: tile blob", name)
	require.Equal(t, want.Links, got.Links, "%s: links", name)
	require.Equal(t, want.Fingerprints, got.Fingerprints, "%s: fingerprints", name)
	require.Equal(t, want.Stats.Counts, got.Stats.Counts, "%s: counts", name)
	require.Equal(t, want.Stats.Warnings, got.Stats.Warnings, "%s: warnings", name)
	require.Equal(t, want.Stats.DroppedWarnings, got.Stats.DroppedWarnings, "%s: dropped warnings", name)
}

func TestSoloTypesEqualSeparateBakes(t *testing.T) {
	types := testAgentTypes()
	for _, level := range []string{"dungeon", "nav_test"} {
		t.Run(level, func(t *testing.T) {
			g := loadTestMesh(t, level)
			separate := make([]*SoloResult, len(types))
			for i, at := range types {
				var err error
				separate[i], err = Solo(context.Background(), g, at.Settings)
				require.NoError(t, err, at.Name)
			}
			for _, workers := range []int{1, 2, 5} {
				var calls []int
				result, err := SoloTypes(context.Background(), g, types, SoloTypesOptions{
					Workers:  workers,
					Progress: func(done, total int) { calls = append(calls, done); assert.Equal(t, len(types), total) },
				})
				require.NoError(t, err, "%d workers", workers)
				require.Len(t, result.Results, len(types))
				for i := range types {
					requireSameSolo(t, separate[i], result.Results[i], fmt.Sprintf("%s, %d workers", types[i].Name, workers))
				}
				assert.Equal(t, []int{1, 2, 3, 4, 5}, calls)
				assert.Equal(t, TypesStats{Bakes: 5, Rasterizations: 2, Compactions: 3, Workers: workers, Wall: result.Stats.Wall}, result.Stats)
				assert.Equal(t, types, result.Types)
			}
		})
	}
}

// TestSoloTypesLargeAgentLosesTheNarrowPassages checks the meshes of a
// small and a large agent: the large one's covers less, and a passage the
// small one walks is closed to it.
func TestSoloTypesLargeAgentLosesTheNarrowPassages(t *testing.T) {
	small, large := DefaultSettings(), DefaultSettings()
	large.AgentRadius = 1.5
	result, err := SoloTypes(context.Background(), loadTestMesh(t, "dungeon"), []AgentType{
		{Name: "small", Settings: small}, {Name: "large", Settings: large},
	}, SoloTypesOptions{})
	require.NoError(t, err)
	smallCounts, largeCounts := result.Results[0].Stats.Counts, result.Results[1].Stats.Counts
	assert.Equal(t, smallCounts.CompactSpans, largeCounts.CompactSpans, "the same compact field")
	assert.Less(t, largeCounts.WalkableSpans, smallCounts.WalkableSpans, "eroded further")
	assert.Equal(t, 1, result.Stats.Rasterizations)
	assert.Equal(t, 1, result.Stats.Compactions)
}

func TestSoloTypesChecksEverythingFirst(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	good := DefaultSettings()
	bad := good
	bad.CellSize = -1
	tests := []struct {
		name  string
		types []AgentType
		want  string
	}{
		{"no types", nil, "0 meshes"},
		{"duplicate names", []AgentType{{Name: "a", Settings: good}, {Name: "a", Settings: good}}, `name "a" already used`},
		{"unnamed among several", []AgentType{{Name: "a", Settings: good}, {Settings: good}}, "empty name"},
		{"bad settings", []AgentType{{Name: "a", Settings: good}, {Name: "b", Settings: bad}}, `agent type "b": bake: settings: CellSize -1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var progress atomic.Int32
			result, err := SoloTypes(context.Background(), g, tt.types, SoloTypesOptions{Progress: func(int, int) { progress.Add(1) }})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, result)
			assert.Zero(t, progress.Load(), "nothing baked")
		})
	}
	one, err := SoloTypes(context.Background(), g, []AgentType{{Settings: good}}, SoloTypesOptions{})
	require.NoError(t, err, "one type may be unnamed")
	assert.Equal(t, TypesStats{Bakes: 1, Rasterizations: 1, Compactions: 1, Workers: 1, Wall: one.Stats.Wall}, one.Stats)
}

func TestSoloTypesFailureAndCancellation(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	types := testAgentTypes()[:3]
	// Area flags outside the navmesh's areas fail every type at its tile
	// data.
	bad := WithAreaFlags(func(uint8) (uint8, uint16) { return navmesh.MaxAreas, 0 })
	result, err := SoloTypes(context.Background(), g, types, SoloTypesOptions{Workers: 3, Options: []SoloOption{bad}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "area mapping gave area 64")
	assert.Nil(t, result)
	// A giant's radius erodes the whole level: its bake fails alone, and
	// its error is returned whatever the others were doing.
	giant := types[0].Settings
	giant.AgentRadius = 50
	withGiant := []AgentType{types[0], {Name: "giant", Settings: giant}, types[1], types[2]}
	for _, workers := range []int{1, 2, 4} {
		result, err := SoloTypes(context.Background(), g, withGiant, SoloTypesOptions{Workers: workers})
		require.ErrorIs(t, err, ErrNoPolygons, "%d workers", workers)
		assert.Contains(t, err.Error(), `agent type "giant"`)
		assert.Nil(t, result)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	result, err = SoloTypes(ctx, g, types, SoloTypesOptions{Workers: 2})
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, result)

	// Cancelled after the first type: the bakes waiting for a shared stage
	// or between stages stop.
	ctx, cancel = context.WithCancel(context.Background())
	result, err = SoloTypes(ctx, g, testAgentTypes(), SoloTypesOptions{Workers: 1, Progress: func(done, _ int) {
		if done == 1 {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, result)
}

func TestSoloTypesMeshSet(t *testing.T) {
	types := testAgentTypes()[:2]
	result, err := SoloTypes(context.Background(), loadTestMesh(t, "dungeon"), types, SoloTypesOptions{})
	require.NoError(t, err)
	set, err := result.MeshSet()
	require.NoError(t, err)
	require.Equal(t, []string{"soldier", "ogre"}, set.Names())
	for i, m := range set {
		require.Equal(t, 1, m.Mesh.TileCount())
		assert.Same(t, result.Results[i].TileData, m.Mesh.TileAt(0, 0, 0).Data)
	}
	_, err = (&SoloResult{}).NavMesh()
	require.Error(t, err)
	assert.False(t, errors.Is(err, context.Canceled))
}
