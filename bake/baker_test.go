package bake

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBakerRebakesBitIdentical bakes the three test levels twice in a row
// with one Baker, small and large fields alternating, and checks every bake
// against the C++ figures: reused memory must not leak into a result.
func TestBakerRebakesBitIdentical(t *testing.T) {
	var baker Baker
	geometries := map[string]*Geometry{}
	for _, ref := range soloReferences {
		geometries[ref.mesh] = loadTestMesh(t, ref.mesh)
	}
	for round := range 2 {
		for _, ref := range soloReferences {
			result, err := baker.Solo(context.Background(), geometries[ref.mesh], DefaultSettings())
			require.NoError(t, err)
			c := result.Stats.Counts
			assert.Equal(t, ref.heightfieldSpans, c.HeightfieldSpans, "round %d %s heightfield spans", round, ref.mesh)
			assert.Equal(t, ref.walkableSpans, c.WalkableSpans, "round %d %s walkable spans", round, ref.mesh)
			assert.Equal(t, ref.regions, c.Regions, "round %d %s regions", round, ref.mesh)
			assert.Equal(t, ref.contours, c.Contours, "round %d %s contours", round, ref.mesh)
			assert.Equal(t, ref.fingerprints, result.Fingerprints, "round %d %s", round, ref.mesh)
		}
	}
}

// TestBakerSwitchesPartitions runs the three partitions on one Baker and
// compares each with a bake from scratch.
func TestBakerSwitchesPartitions(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	var baker Baker
	for _, partition := range []PartitionType{PartitionMonotone, PartitionWatershed, PartitionLayers, PartitionWatershed} {
		settings := DefaultSettings()
		settings.Partition = partition
		fresh, err := Solo(context.Background(), g, settings)
		require.NoError(t, err)
		reused, err := baker.Solo(context.Background(), g, settings)
		require.NoError(t, err)
		assert.Equal(t, fresh.Fingerprints, reused.Fingerprints, "%s", partition)
		assert.Equal(t, fresh.Stats.Counts, reused.Stats.Counts, "%s", partition)
	}
}

// TestBakerHandsOverIntermediates checks that the compact heightfield and
// contours of a bake WithIntermediates stay as they were when the Baker
// bakes again.
func TestBakerHandsOverIntermediates(t *testing.T) {
	var baker Baker
	first, err := baker.Solo(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), WithIntermediates())
	require.NoError(t, err)
	require.NotNil(t, first.CompactHeightfield)
	require.NotNil(t, first.Contours)
	compactHash := hashCompact(first.CompactHeightfield)
	dist := append([]uint16(nil), first.CompactHeightfield.Dist...)
	contours := len(first.Contours.Contours)
	firstVerts := append([][4]int32(nil), first.Contours.Contours[0].Verts...)

	_, err = baker.Solo(context.Background(), loadTestMesh(t, "nav_test"), DefaultSettings())
	require.NoError(t, err)

	assert.Equal(t, compactHash, hashCompact(first.CompactHeightfield), "compact heightfield overwritten")
	assert.Equal(t, dist, first.CompactHeightfield.Dist, "distance field overwritten")
	assert.Len(t, first.Contours.Contours, contours)
	assert.Equal(t, firstVerts, first.Contours.Contours[0].Verts, "contour overwritten")
	assert.Equal(t, uint64(0xb610cb7db5148d78), first.Fingerprints.PolyMesh)
}

// TestBakerAfterError checks that a failed bake leaves the Baker usable.
func TestBakerAfterError(t *testing.T) {
	var baker Baker
	g := loadTestMesh(t, "dungeon")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := baker.Solo(ctx, g, DefaultSettings())
	require.ErrorIs(t, err, context.Canceled)
	_, err = baker.Solo(context.Background(), &Geometry{}, DefaultSettings())
	require.Error(t, err)
	// This one fails in the last stage, after every buffer was used.
	_, err = baker.Solo(context.Background(), loadTestMesh(t, "nav_test"), DefaultSettings(), WithAreaFlags(func(uint8) (uint8, uint16) { return 64, 0 }))
	require.Error(t, err)
	result, err := baker.Solo(context.Background(), g, DefaultSettings())
	require.NoError(t, err)
	assert.Equal(t, soloReferences[0].fingerprints, result.Fingerprints)
}

// TestPackageSoloConcurrent bakes the three levels twice at once with the
// package's Solo, whose goroutines share a pool of Bakers, and checks every
// result against the reference; run with -race.
func TestPackageSoloConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	results := make([][2]*SoloResult, len(soloReferences))
	errs := make([][2]error, len(soloReferences))
	for i, ref := range soloReferences {
		g := loadTestMesh(t, ref.mesh)
		for k := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i][k], errs[i][k] = Solo(context.Background(), g, DefaultSettings())
			}()
		}
	}
	wg.Wait()
	for i, ref := range soloReferences {
		for k := range 2 {
			require.NoError(t, errs[i][k], ref.mesh)
			assert.Equal(t, ref.fingerprints, results[i][k].Fingerprints, ref.mesh)
		}
	}
}

// TestSoloConcurrent bakes the three levels at once, one Baker per
// goroutine; run with -race.
func TestSoloConcurrent(t *testing.T) {
	results := make([]*SoloResult, len(soloReferences))
	errs := make([]error, len(soloReferences))
	var wg sync.WaitGroup
	for i, ref := range soloReferences {
		g := loadTestMesh(t, ref.mesh)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var baker Baker
			for range 2 {
				results[i], errs[i] = baker.Solo(context.Background(), g, DefaultSettings())
			}
		}()
	}
	wg.Wait()
	for i, ref := range soloReferences {
		require.NoError(t, errs[i], ref.mesh)
		assert.Equal(t, ref.fingerprints, results[i].Fingerprints, ref.mesh)
	}
}
