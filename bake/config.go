package bake

import (
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// PartitionType selects how the walkable surface is split into regions.
type PartitionType int

const (
	// PartitionWatershed grows regions from a distance field: the nicest
	// polygons, the slowest build (rcBuildRegions).
	PartitionWatershed PartitionType = iota
	// PartitionMonotone sweeps rows: the fastest build, long thin polygons
	// (rcBuildRegionsMonotone).
	PartitionMonotone
	// PartitionLayers splits the surface into non-overlapping layers
	// (rcBuildLayerRegions).
	PartitionLayers
)

// String returns the partition's name as used in settings files.
func (p PartitionType) String() string {
	switch p {
	case PartitionWatershed:
		return "watershed"
	case PartitionMonotone:
		return "monotone"
	case PartitionLayers:
		return "layers"
	}
	return fmt.Sprintf("PartitionType(%d)", int(p))
}

// Filters selects the heightfield span filters that run after rasterization.
type Filters struct {
	// LowHangingObstacles lets agents step up onto low non-walkable spans
	// (rcFilterLowHangingWalkableObstacles).
	LowHangingObstacles bool
	// LedgeSpans removes spans next to drops deeper than the climb height
	// (rcFilterLedgeSpans).
	LedgeSpans bool
	// WalkableLowHeightSpans removes spans without head room for the agent
	// (rcFilterWalkableLowHeightSpans).
	WalkableLowHeightSpans bool
}

// Settings describe a bake in agent and world units, as RecastDemo's build
// panel does. Derive the cell-unit Config with Config or TileConfig.
type Settings struct {
	// CellSize is the xz size of a voxel [Limit: > 0] [Units: world units]
	CellSize float32
	// CellHeight is the y size of a voxel [Limit: > 0] [Units: world units]
	CellHeight float32
	// AgentHeight is the head room an agent needs [Limit: > 0] [Units: world units]
	AgentHeight float32
	// AgentRadius is how far the surface is eroded from walls [Limit: >= 0] [Units: world units]
	AgentRadius float32
	// AgentMaxClimb is the highest ledge an agent steps up [Limit: >= 0] [Units: world units]
	AgentMaxClimb float32
	// AgentMaxSlope is the steepest walkable slope; a triangle exactly this
	// steep is not walkable [Limit: 0..90] [Units: degrees]
	AgentMaxSlope float32
	// RegionMinSize is the side of the smallest region kept on its own
	// [Limit: >= 0] [Units: cells]
	RegionMinSize float32
	// RegionMergeSize is the side under which regions merge with neighbours
	// [Limit: >= 0] [Units: cells]
	RegionMergeSize float32
	// EdgeMaxLen is the longest polygon edge along the mesh border, 0 for no
	// limit [Limit: >= 0] [Units: world units]
	EdgeMaxLen float32
	// EdgeMaxError is how far a simplified contour may stray from the raw one
	// [Limit: >= 0] [Units: cells]
	EdgeMaxError float32
	// VertsPerPoly is the most vertices a polygon may have [Limit: 3..6]
	VertsPerPoly int
	// DetailSampleDist is the spacing of height samples of the detail mesh;
	// below 0.9 no samples are added [Limit: 0 or >= 0.9] [Units: cells]
	DetailSampleDist float32
	// DetailSampleMaxError is how far the detail mesh may stray from the
	// heightfield [Limit: >= 0] [Units: cell heights]
	DetailSampleMaxError float32
	// Partition selects the region partitioning.
	Partition PartitionType
	// Filters selects the span filters.
	Filters Filters
	// TileSize is the side of a tile in a tiled build, 0 for a solo build
	// [Limit: >= 0] [Units: cells]
	TileSize int
	// Links selects and tunes the drop and jump links the bake places by
	// itself; both kinds are off by default.
	Links LinkSettings
	// MaxMemory bounds the memory a bake may need, estimated from its grid
	// before anything is allocated (Config.EstimatedMemory; in a tiled bake,
	// one tile's grid times the workers baking at once): past it the bake
	// fails with ErrMemoryLimit, naming the estimate. A cell size too fine
	// for the level then gives an error instead of running out of memory
	// [Limit: >= 0; 0 = DefaultMaxMemory, 4 GiB] [Units: bytes]
	MaxMemory int64
	// MaxTiles bounds the tiles a tiled bake bakes, those with geometry
	// within their border (the empty tiles of the grid are skipped at no
	// cost): past it the bake fails with ErrTooManyTiles, naming the count
	// [Limit: >= 0; 0 = DefaultMaxTiles, 2^20]
	MaxTiles int
	// MaxWork bounds the work a bake may do, estimated from its grids and
	// triangles before anything is baked (WorkEstimate, EstimateWork): past
	// it the bake fails with ErrWorkLimit, naming the estimate. A cell size
	// too fine for the level, tiles far smaller than their border, or a
	// mass of large triangles then give an error at once instead of hours
	// of work. The rasterization also stops with ErrWorkLimit once it has
	// walked this many spans up columns (floors stacked out of height order)
	// [Limit: >= 0; 0 = DefaultMaxWork, 2^30] [Units: work units]
	MaxWork int64
}

// DefaultSettings returns RecastDemo's default settings: cell 0.3 × 0.2, agent
// 2.0 high with radius 0.6, climb 0.9 and slope 45°, regions 8 / 20, edges 12
// long with error 1.3, 6 vertices per polygon, detail sampling 6 / 1,
// watershed partitioning, all filters on, tile size 32, and no automatic
// links (Links holds DefaultLinkSettings' values with Drops and Jumps off,
// so setting those turns them on with the defaults).
func DefaultSettings() Settings {
	links := DefaultLinkSettings()
	links.Drops, links.Jumps = false, false
	return Settings{
		CellSize:             0.3,
		CellHeight:           0.2,
		AgentHeight:          2.0,
		AgentRadius:          0.6,
		AgentMaxClimb:        0.9,
		AgentMaxSlope:        45,
		RegionMinSize:        8,
		RegionMergeSize:      20,
		EdgeMaxLen:           12,
		EdgeMaxError:         1.3,
		VertsPerPoly:         6,
		DetailSampleDist:     6,
		DetailSampleMaxError: 1,
		Partition:            PartitionWatershed,
		Filters:              Filters{LowHangingObstacles: true, LedgeSpans: true, WalkableLowHeightSpans: true},
		TileSize:             32,
		Links:                links,
	}
}

// Validate reports the first field that cannot be baked with, naming it.
func (s *Settings) Validate() error {
	positive := []struct {
		name  string
		value float32
	}{
		{"CellSize", s.CellSize},
		{"CellHeight", s.CellHeight},
		{"AgentHeight", s.AgentHeight},
	}
	for _, f := range positive {
		if !finite(f.value) || f.value <= 0 {
			return fmt.Errorf("bake: settings: %s %v must be positive and finite", f.name, f.value)
		}
	}
	nonNegative := []struct {
		name  string
		value float32
	}{
		{"AgentRadius", s.AgentRadius},
		{"AgentMaxClimb", s.AgentMaxClimb},
		{"RegionMinSize", s.RegionMinSize},
		{"RegionMergeSize", s.RegionMergeSize},
		{"EdgeMaxLen", s.EdgeMaxLen},
		{"EdgeMaxError", s.EdgeMaxError},
		{"DetailSampleDist", s.DetailSampleDist},
		{"DetailSampleMaxError", s.DetailSampleMaxError},
	}
	for _, f := range nonNegative {
		if !finite(f.value) || f.value < 0 {
			return fmt.Errorf("bake: settings: %s %v must be finite and not negative", f.name, f.value)
		}
	}
	if !finite(s.AgentMaxSlope) || s.AgentMaxSlope < 0 || s.AgentMaxSlope > 90 {
		return fmt.Errorf("bake: settings: AgentMaxSlope %v must be 0..90 degrees", s.AgentMaxSlope)
	}
	if s.VertsPerPoly < 3 || s.VertsPerPoly > 6 {
		return fmt.Errorf("bake: settings: VertsPerPoly %d must be 3..6", s.VertsPerPoly)
	}
	if s.Partition < PartitionWatershed || s.Partition > PartitionLayers {
		return fmt.Errorf("bake: settings: unknown partition type %d", int(s.Partition))
	}
	if s.TileSize < 0 {
		return fmt.Errorf("bake: settings: TileSize %d must not be negative", s.TileSize)
	}
	if s.MaxMemory < 0 || s.MaxTiles < 0 || s.MaxWork < 0 {
		return fmt.Errorf("bake: settings: MaxMemory %d, MaxTiles %d and MaxWork %d must not be negative", s.MaxMemory, s.MaxTiles, s.MaxWork)
	}
	// The derived cell counts must fit the span height range and int.
	cellLimits := []struct {
		name  string
		cells float32
	}{
		{"AgentHeight / CellHeight", s.AgentHeight / s.CellHeight},
		{"AgentMaxClimb / CellHeight", s.AgentMaxClimb / s.CellHeight},
		{"AgentRadius / CellSize", s.AgentRadius / s.CellSize},
	}
	for _, c := range cellLimits {
		if c.cells > MaxSpanHeight {
			return fmt.Errorf("bake: settings: %s is %v cells, more than %d", c.name, c.cells, MaxSpanHeight)
		}
	}
	if s.EdgeMaxLen/s.CellSize > math.MaxInt32 {
		return errors.New("bake: settings: EdgeMaxLen / CellSize does not fit an int32")
	}
	if s.RegionMinSize*s.RegionMinSize > math.MaxInt32 || s.RegionMergeSize*s.RegionMergeSize > math.MaxInt32 {
		return errors.New("bake: settings: region sizes squared do not fit an int32")
	}
	return s.Links.validate(s)
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

// Config is the cell-unit configuration one build runs with (rcConfig),
// derived from Settings exactly as RecastDemo derives it.
type Config struct {
	// Width and Height are the grid size along x and z, border included
	// [Units: cells]
	Width, Height int
	// TileSize is the side of a tile without its border, 0 in a solo build
	// [Units: cells]
	TileSize int
	// BorderSize is the margin around a tile, walkableRadius + 3 in tiled
	// builds and 0 in solo builds [Units: cells]
	BorderSize int
	// CellSize and CellHeight are the voxel size [Units: world units]
	CellSize, CellHeight float32
	// BMin and BMax bound the field, border included [Units: world units]
	BMin, BMax mgl32.Vec3
	// WalkableSlopeAngle is the steepest walkable slope [Units: degrees]
	WalkableSlopeAngle float32
	// WalkableHeight is ceil(AgentHeight / CellHeight) [Units: cells]
	WalkableHeight int
	// WalkableClimb is floor(AgentMaxClimb / CellHeight) [Units: cells]
	WalkableClimb int
	// WalkableRadius is ceil(AgentRadius / CellSize) [Units: cells]
	WalkableRadius int
	// MaxEdgeLen is int(EdgeMaxLen / CellSize) [Units: cells]
	MaxEdgeLen int
	// MaxSimplificationError is EdgeMaxError [Units: cells]
	MaxSimplificationError float32
	// MinRegionArea is int(RegionMinSize²) [Units: cells]
	MinRegionArea int
	// MergeRegionArea is int(RegionMergeSize²) [Units: cells]
	MergeRegionArea int
	// MaxVertsPerPoly is VertsPerPoly.
	MaxVertsPerPoly int
	// DetailSampleDist is CellSize·DetailSampleDist, or 0 when the setting is
	// below 0.9 [Units: world units]
	DetailSampleDist float32
	// DetailSampleMaxError is CellHeight·DetailSampleMaxError [Units: world units]
	DetailSampleMaxError float32
	// Partition and Filters are copied from the settings.
	Partition PartitionType
	Filters   Filters
}

// Config validates the settings and derives the configuration of a solo
// build over the box [bmin, bmax] (Sample_SoloMesh): the grid covers the box
// with no border.
func (s *Settings) Config(bmin, bmax mgl32.Vec3) (*Config, error) {
	cfg, err := s.derive()
	if err != nil {
		return nil, err
	}
	if err := validateBounds(bmin, bmax); err != nil {
		return nil, err
	}
	cfg.BMin, cfg.BMax = bmin, bmax
	cfg.Width, cfg.Height = CalcGridSize(bmin, bmax, cfg.CellSize)
	if err := validateGrid(cfg.Width, cfg.Height); err != nil {
		if cfg.Width <= 0 || cfg.Height <= 0 {
			// Most often a level in the wrong units: say so.
			return nil, fmt.Errorf("%w: the level is %.3g × %.3g world units (x, z), less than a cell of %v across; "+
				"check its scale (the defaults are for metres) or lower CellSize", err, bmax[0]-bmin[0], bmax[2]-bmin[2], cfg.CellSize)
		}
		return nil, err
	}
	return cfg, nil
}

// TileConfig validates the settings and derives the configuration of one tile
// of a tiled build whose tile covers [tileMin, tileMax] (Sample_TileMesh): the
// grid is TileSize cells plus a border of WalkableRadius+3 cells on each side,
// and the bounds grow by the border in x and z.
func (s *Settings) TileConfig(tileMin, tileMax mgl32.Vec3) (*Config, error) {
	if s.TileSize <= 0 {
		return nil, fmt.Errorf("bake: settings: TileSize %d must be positive for a tiled build", s.TileSize)
	}
	cfg, err := s.derive()
	if err != nil {
		return nil, err
	}
	if err := validateBounds(tileMin, tileMax); err != nil {
		return nil, err
	}
	cfg.TileSize = s.TileSize
	cfg.BorderSize = cfg.WalkableRadius + 3
	cfg.Width = cfg.TileSize + cfg.BorderSize*2
	cfg.Height = cfg.TileSize + cfg.BorderSize*2
	if err := validateGrid(cfg.Width, cfg.Height); err != nil {
		return nil, err
	}
	border := float32(float32(cfg.BorderSize) * cfg.CellSize)
	cfg.BMin, cfg.BMax = tileMin, tileMax
	cfg.BMin[0] -= border
	cfg.BMin[2] -= border
	cfg.BMax[0] += border
	cfg.BMax[2] += border
	return cfg, nil
}

// derive computes the cell-unit values shared by solo and tiled builds, with
// RecastDemo's float32 operations and roundings.
func (s *Settings) derive() (*Config, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	detailSampleDist := float32(0)
	if s.DetailSampleDist >= 0.9 {
		detailSampleDist = s.CellSize * s.DetailSampleDist
	}
	return &Config{
		CellSize:               s.CellSize,
		CellHeight:             s.CellHeight,
		WalkableSlopeAngle:     s.AgentMaxSlope,
		WalkableHeight:         int(geom.Ceil(s.AgentHeight / s.CellHeight)),
		WalkableClimb:          int(geom.Floor(s.AgentMaxClimb / s.CellHeight)),
		WalkableRadius:         int(geom.Ceil(s.AgentRadius / s.CellSize)),
		MaxEdgeLen:             int(s.EdgeMaxLen / s.CellSize),
		MaxSimplificationError: s.EdgeMaxError,
		MinRegionArea:          int(s.RegionMinSize * s.RegionMinSize),
		MergeRegionArea:        int(s.RegionMergeSize * s.RegionMergeSize),
		MaxVertsPerPoly:        s.VertsPerPoly,
		DetailSampleDist:       detailSampleDist,
		DetailSampleMaxError:   s.CellHeight * s.DetailSampleMaxError,
		Partition:              s.Partition,
		Filters:                s.Filters,
	}, nil
}

// validate checks the values BuildCompact relies on.
func (c *Config) validate() error {
	if c == nil {
		return errors.New("bake: config is nil")
	}
	if !finite(c.CellSize) || c.CellSize <= 0 || !finite(c.CellHeight) || c.CellHeight <= 0 {
		return fmt.Errorf("bake: config: cell size %v × %v must be positive and finite", c.CellSize, c.CellHeight)
	}
	if !finite(c.WalkableSlopeAngle) || c.WalkableSlopeAngle < 0 || c.WalkableSlopeAngle > 90 {
		return fmt.Errorf("bake: config: walkable slope %v must be 0..90 degrees", c.WalkableSlopeAngle)
	}
	if c.WalkableHeight < 0 || c.WalkableClimb < 0 || c.WalkableRadius < 0 {
		return fmt.Errorf("bake: config: walkable height %d, climb %d and radius %d must not be negative",
			c.WalkableHeight, c.WalkableClimb, c.WalkableRadius)
	}
	if err := validateBounds(c.BMin, c.BMax); err != nil {
		return err
	}
	return validateGrid(c.Width, c.Height)
}

// MaxGridCells is the largest Width×Height a Config may have (2^31 - 1).
const MaxGridCells = math.MaxInt32

func validateBounds(bmin, bmax mgl32.Vec3) error {
	if !geom.IsFinite(bmin) || !geom.IsFinite(bmax) {
		return fmt.Errorf("bake: bounds %v %v are not finite", bmin, bmax)
	}
	if bmin[0] > bmax[0] || bmin[1] > bmax[1] || bmin[2] > bmax[2] {
		return fmt.Errorf("bake: bounds min %v above max %v", bmin, bmax)
	}
	return nil
}

func validateGrid(width, height int) error {
	if width <= 0 || height <= 0 {
		return fmt.Errorf("bake: grid %d×%d is empty", width, height)
	}
	if int64(width)*int64(height) > MaxGridCells {
		return fmt.Errorf("bake: grid %d×%d has more than %d cells", width, height, MaxGridCells)
	}
	return nil
}

// CalcGridSize returns the number of cells of size cellSize that cover
// [bmin, bmax] along x and z, rounded to nearest (rcCalcGridSize).
func CalcGridSize(bmin, bmax mgl32.Vec3, cellSize float32) (width, height int) {
	width = cInt((bmax[0]-bmin[0])/cellSize + 0.5)
	height = cInt((bmax[2]-bmin[2])/cellSize + 0.5)
	return width, height
}
