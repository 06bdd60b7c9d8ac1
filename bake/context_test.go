package bake

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildContextTimesStages(t *testing.T) {
	bc := NewBuildContext(context.Background())
	for range 2 {
		require.NoError(t, bc.Run(StagePolyMesh, func() error {
			time.Sleep(2 * time.Millisecond)
			return nil
		}))
	}
	bc.Counts().Polys = 7
	stats := bc.Stats()
	assert.GreaterOrEqual(t, stats.StageTimes[StagePolyMesh], 4*time.Millisecond, "times add up over runs")
	assert.Zero(t, stats.StageTimes[StageDetailMesh])
	assert.GreaterOrEqual(t, stats.Total, stats.StageTimes[StagePolyMesh])
	assert.Equal(t, 7, stats.Counts.Polys)
}

func TestBuildContextStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	bc := NewBuildContext(ctx)
	ran := 0
	require.NoError(t, bc.Run(StageRasterize, func() error { ran++; return nil }))
	cancel()
	err := bc.Run(StageFilters, func() error { ran++; return nil })
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorContains(t, err, "filters")
	assert.Equal(t, 1, ran, "a stage is not started once the context is done")
}

func TestBuildContextPassesStageErrors(t *testing.T) {
	bc := NewBuildContext(nil)
	boom := errors.New("boom")
	assert.ErrorIs(t, bc.Run(StageContours, func() error { return boom }), boom)
}

func TestBuildContextWarnings(t *testing.T) {
	bc := NewBuildContext(context.Background())
	for i := range maxWarnings + 5 {
		bc.Warnf("warning %d", i)
	}
	stats := bc.Stats()
	require.Len(t, stats.Warnings, maxWarnings)
	assert.Equal(t, "warning 0", stats.Warnings[0])
	assert.Equal(t, 5, stats.DroppedWarnings)

	var nilLog *buildLog
	nilLog.warnf("discarded") // must not panic
}

func TestStageNames(t *testing.T) {
	want := []string{"rasterize", "filters", "compact", "erode", "distance field", "regions", "contours", "poly mesh", "detail mesh", "tile data"}
	for i, name := range want {
		assert.Equal(t, name, Stage(i).String())
	}
	assert.Equal(t, fmt.Sprintf("stage(%d)", int(NumStages)), NumStages.String())
}
