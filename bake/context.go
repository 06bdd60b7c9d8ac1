package bake

import (
	"context"
	"fmt"
	"time"
)

// Stage names one step of the bake pipeline, for timings.
type Stage int

// Pipeline stages in the order a solo bake runs them, then the tile cache
// bake's own.
const (
	// StageRasterize marks walkable triangles and rasterizes them.
	StageRasterize Stage = iota
	// StageFilters runs the three span filters.
	StageFilters
	// StageCompact builds the compact heightfield.
	StageCompact
	// StageErode erodes the walkable area by the agent radius and marks
	// area volumes.
	StageErode
	// StageDistanceField builds the distance field (watershed partitioning
	// only).
	StageDistanceField
	// StageRegions partitions the walkable surface into regions.
	StageRegions
	// StageContours traces and simplifies region contours.
	StageContours
	// StagePolyMesh builds the convex polygon mesh.
	StagePolyMesh
	// StageDetailMesh builds the height detail mesh.
	StageDetailMesh
	// StageTileData builds the navmesh tile data.
	StageTileData
	// StageLinks places the automatic drop and jump links and builds the
	// tiles that got some again (only with Settings.Links enabled).
	StageLinks
	// StageLayers splits the compact heightfield into heightfield layers
	// (tile cache bakes only, after StageErode).
	StageLayers
	// NumStages is the number of stages.
	NumStages
)

var stageNames = [NumStages]string{
	"rasterize", "filters", "compact", "erode", "distance field", "regions",
	"contours", "poly mesh", "detail mesh", "tile data", "links", "layers",
}

// String returns the stage's name as used in reports ("poly mesh").
func (s Stage) String() string {
	if s < 0 || s >= NumStages {
		return fmt.Sprintf("stage(%d)", int(s))
	}
	return stageNames[s]
}

// BuildCounts are the sizes of what each stage produced.
type BuildCounts struct {
	// HeightfieldSpans is the number of solid spans after filtering.
	HeightfieldSpans int
	// CompactSpans is the number of open spans in the compact heightfield.
	CompactSpans int
	// WalkableSpans is the number of open spans still walkable after erosion.
	WalkableSpans int
	// Regions is one more than the largest region id.
	Regions int
	// Contours is the number of region contours.
	Contours int
	// PolyVerts and Polys size the poly mesh.
	PolyVerts, Polys int
	// DetailVerts and DetailTris size the detail mesh.
	DetailVerts, DetailTris int
	// TileBytes is the size of the tile as a C++ DNAV blob.
	TileBytes int
	// DropLinks and JumpLinks count the automatic links the tile holds.
	DropLinks, JumpLinks int
}

// BuildStats report a bake: time per stage, output sizes and the warnings
// the stages raised.
type BuildStats struct {
	// StageTimes holds the time spent in each stage, summed over every run
	// of the stage.
	StageTimes [NumStages]time.Duration
	// Total is the time from the first to the end of the last stage run.
	Total time.Duration
	// Counts are the output sizes.
	Counts BuildCounts
	// Warnings are the recoverable problems met (a contour that could not
	// be fully triangulated...), at most maxWarnings of them.
	Warnings []string
	// DroppedWarnings counts the warnings beyond maxWarnings.
	DroppedWarnings int
}

// maxWarnings bounds the warnings kept by a build.
const maxWarnings = 100

// buildLog collects warnings. A nil *buildLog discards them, so stage
// functions called on their own need no log.
type buildLog struct {
	warnings []string
	dropped  int
}

func (l *buildLog) warnf(format string, args ...any) {
	if l == nil {
		return
	}
	if len(l.warnings) >= maxWarnings {
		l.dropped++
		return
	}
	l.warnings = append(l.warnings, fmt.Sprintf(format, args...))
}

// BuildContext times the stages of a bake, collects its counts and
// warnings, and stops it between stages when its context.Context is done.
// It is not safe for concurrent use.
type BuildContext struct {
	ctx     context.Context
	started time.Time
	stats   BuildStats
	log     buildLog
}

// NewBuildContext returns a BuildContext that stops at the first stage
// boundary after ctx is done. A nil ctx means context.Background().
func NewBuildContext(ctx context.Context) *BuildContext {
	if ctx == nil {
		ctx = context.Background()
	}
	return &BuildContext{ctx: ctx}
}

// Run runs one stage: it returns ctx's error without running fn when the
// context is done, and adds fn's duration to the stage's time.
func (c *BuildContext) Run(stage Stage, fn func() error) error {
	if err := c.ctx.Err(); err != nil {
		return fmt.Errorf("bake: %s: %w", stage, err)
	}
	start := time.Now()
	if c.started.IsZero() {
		c.started = start
	}
	err := fn()
	end := time.Now()
	if stage >= 0 && stage < NumStages {
		c.stats.StageTimes[stage] += end.Sub(start)
	}
	c.stats.Total = end.Sub(c.started)
	return err
}

// Counts gives access to the counts for the stages to fill in.
func (c *BuildContext) Counts() *BuildCounts { return &c.stats.Counts }

// Warnf records a warning.
func (c *BuildContext) Warnf(format string, args ...any) { c.log.warnf(format, args...) }

// Stats returns a copy of what was measured so far.
func (c *BuildContext) Stats() BuildStats {
	s := c.stats
	s.Warnings = append([]string(nil), c.log.warnings...)
	s.DroppedWarnings = c.log.dropped
	return s
}
