package bake

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCalcGridSizeFromRecastTests(t *testing.T) {
	g := Geometry{Vertices: []mgl32.Vec3{{1, 2, 3}, {0, 2, 6}}}
	bmin, bmax := g.Bounds()
	width, height := CalcGridSize(bmin, bmax, 1.5)
	assert.Equal(t, 1, width)
	assert.Equal(t, 2, height)
}

func TestDefaultSettingsDeriveTheReferenceConfig(t *testing.T) {
	s := DefaultSettings()
	cfg, err := s.Config(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 5, 20})
	require.NoError(t, err)
	assert.Equal(t, 10, cfg.WalkableHeight)
	assert.Equal(t, 4, cfg.WalkableClimb)
	assert.Equal(t, 2, cfg.WalkableRadius)
	assert.Equal(t, 40, cfg.MaxEdgeLen)
	assert.Equal(t, 64, cfg.MinRegionArea)
	assert.Equal(t, 400, cfg.MergeRegionArea)
	assert.Equal(t, 6, cfg.MaxVertsPerPoly)
	assert.Equal(t, float32(0.3)*float32(6), cfg.DetailSampleDist)
	assert.InDelta(t, 1.8, cfg.DetailSampleDist, 1e-6)
	assert.Equal(t, float32(0.2), cfg.DetailSampleMaxError)
	assert.Equal(t, float32(1.3), cfg.MaxSimplificationError)
	assert.Equal(t, float32(45), cfg.WalkableSlopeAngle)
	assert.Equal(t, 0, cfg.BorderSize)
	assert.Equal(t, 0, cfg.TileSize)
	assert.Equal(t, 33, cfg.Width) // 10/0.3 + 0.5 = 33.8
	assert.Equal(t, 67, cfg.Height)
	assert.Equal(t, PartitionWatershed, cfg.Partition)
	assert.Equal(t, Filters{true, true, true}, cfg.Filters)
}

func TestConfigRoundings(t *testing.T) {
	s := DefaultSettings()
	s.DetailSampleDist = 0.8 // below 0.9: no detail samples
	s.AgentHeight = 2.01     // ceil
	s.AgentMaxClimb = 0.99   // floor
	s.AgentRadius = 0.31     // ceil
	s.EdgeMaxLen = 11.99     // truncation
	s.RegionMinSize = 2.9    // 8.41 → 8
	cfg, err := s.Config(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1})
	require.NoError(t, err)
	assert.Equal(t, float32(0), cfg.DetailSampleDist)
	assert.Equal(t, 11, cfg.WalkableHeight)
	assert.Equal(t, 4, cfg.WalkableClimb)
	assert.Equal(t, 2, cfg.WalkableRadius)
	assert.Equal(t, 39, cfg.MaxEdgeLen)
	assert.Equal(t, 8, cfg.MinRegionArea)
}

func TestTileConfig(t *testing.T) {
	s := DefaultSettings()
	cfg, err := s.TileConfig(mgl32.Vec3{0, -1, 9.6}, mgl32.Vec3{9.6, 4, 19.2})
	require.NoError(t, err)
	assert.Equal(t, 32, cfg.TileSize)
	assert.Equal(t, 5, cfg.BorderSize) // walkableRadius + 3
	assert.Equal(t, 42, cfg.Width)
	assert.Equal(t, 42, cfg.Height)
	border := float32(5) * float32(0.3)
	assert.Equal(t, mgl32.Vec3{0 - border, -1, 9.6 - border}, cfg.BMin)
	assert.Equal(t, mgl32.Vec3{9.6 + border, 4, 19.2 + border}, cfg.BMax)

	s.TileSize = 0
	_, err = s.TileConfig(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1})
	assert.ErrorContains(t, err, "TileSize")
}

func TestSettingsValidate(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name   string
		change func(*Settings)
		want   string
	}{
		{"zero cell size", func(s *Settings) { s.CellSize = 0 }, "CellSize"},
		{"negative cell size", func(s *Settings) { s.CellSize = -0.3 }, "CellSize"},
		{"NaN cell size", func(s *Settings) { s.CellSize = nan }, "CellSize"},
		{"zero cell height", func(s *Settings) { s.CellHeight = 0 }, "CellHeight"},
		{"infinite cell height", func(s *Settings) { s.CellHeight = inf }, "CellHeight"},
		{"zero agent height", func(s *Settings) { s.AgentHeight = 0 }, "AgentHeight"},
		{"negative radius", func(s *Settings) { s.AgentRadius = -1 }, "AgentRadius"},
		{"NaN climb", func(s *Settings) { s.AgentMaxClimb = nan }, "AgentMaxClimb"},
		{"negative slope", func(s *Settings) { s.AgentMaxSlope = -1 }, "AgentMaxSlope"},
		{"slope above 90", func(s *Settings) { s.AgentMaxSlope = 90.5 }, "AgentMaxSlope"},
		{"NaN slope", func(s *Settings) { s.AgentMaxSlope = nan }, "AgentMaxSlope"},
		{"negative region size", func(s *Settings) { s.RegionMinSize = -1 }, "RegionMinSize"},
		{"negative merge size", func(s *Settings) { s.RegionMergeSize = -1 }, "RegionMergeSize"},
		{"negative edge length", func(s *Settings) { s.EdgeMaxLen = -1 }, "EdgeMaxLen"},
		{"NaN edge error", func(s *Settings) { s.EdgeMaxError = nan }, "EdgeMaxError"},
		{"two verts per poly", func(s *Settings) { s.VertsPerPoly = 2 }, "VertsPerPoly"},
		{"seven verts per poly", func(s *Settings) { s.VertsPerPoly = 7 }, "VertsPerPoly"},
		{"negative sample distance", func(s *Settings) { s.DetailSampleDist = -1 }, "DetailSampleDist"},
		{"infinite sample error", func(s *Settings) { s.DetailSampleMaxError = inf }, "DetailSampleMaxError"},
		{"unknown partition", func(s *Settings) { s.Partition = 3 }, "partition"},
		{"negative tile size", func(s *Settings) { s.TileSize = -32 }, "TileSize"},
		{"agent taller than spans reach", func(s *Settings) { s.AgentHeight = 2000 }, "AgentHeight / CellHeight"},
		{"huge radius", func(s *Settings) { s.AgentRadius = 3000 }, "AgentRadius / CellSize"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSettings()
			tt.change(&s)
			err := s.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			_, err = s.Config(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1})
			assert.Error(t, err, "Config validates too")
		})
	}
	s := DefaultSettings()
	assert.NoError(t, s.Validate())
	s.AgentMaxSlope, s.AgentRadius, s.AgentMaxClimb = 90, 0, 0
	assert.NoError(t, s.Validate(), "limits are inclusive")
}

func TestConfigRejectsBadBounds(t *testing.T) {
	s := DefaultSettings()
	tests := []struct {
		name       string
		bmin, bmax mgl32.Vec3
		want       string
	}{
		{"inverted", mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 1}, "above max"},
		{"not finite", mgl32.Vec3{float32(math.NaN()), 0, 0}, mgl32.Vec3{1, 1, 1}, "not finite"},
		{"empty grid", mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0.1, 1, 1}, "empty"},
		{"too many cells", mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1e6, 1, 1e6}, "more than"},
	}
	for _, tt := range tests {
		_, err := s.Config(tt.bmin, tt.bmax)
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
}

func TestPartitionTypeString(t *testing.T) {
	assert.Equal(t, "watershed", PartitionWatershed.String())
	assert.Equal(t, "monotone", PartitionMonotone.String())
	assert.Equal(t, "layers", PartitionLayers.String())
	assert.Equal(t, "PartitionType(7)", PartitionType(7).String())
}
