package main

import (
	"github.com/archenav/archenav/bake"
)

// studioControl describes one bake setting as the page shows it: a key of
// the settings file `navtool bake -config` reads, with its unit and limits.
type studioControl struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	// Group sorts the controls into RecastDemo's panels.
	Group string `json:"group"`
	// Kind is number, integer, bool or choice.
	Kind    string   `json:"kind"`
	Unit    string   `json:"unit,omitempty"`
	Min     float64  `json:"min"`
	Max     float64  `json:"max"`
	Step    float64  `json:"step,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Help    string   `json:"help"`
}

// studioControls are the settings the page offers, in RecastDemo's order.
// The limits are bake.Settings.Validate's where it has them, else the
// sliders' ranges of RecastDemo (a value typed past them is still checked
// by Validate on the server).
var studioControls = []studioControl{
	{Key: "cellSize", Label: "Cell size", Group: "Rasterization", Kind: "number", Unit: "world units", Min: 0.05, Max: 2, Step: 0.01, Help: "xz size of a voxel"},
	{Key: "cellHeight", Label: "Cell height", Group: "Rasterization", Kind: "number", Unit: "world units", Min: 0.05, Max: 2, Step: 0.01, Help: "y size of a voxel"},
	{Key: "agentHeight", Label: "Agent height", Group: "Agent", Kind: "number", Unit: "world units", Min: 0.1, Max: 10, Step: 0.1, Help: "head room an agent needs"},
	{Key: "agentRadius", Label: "Agent radius", Group: "Agent", Kind: "number", Unit: "world units", Min: 0, Max: 10, Step: 0.1, Help: "how far the walkable area is eroded from walls"},
	{Key: "agentMaxClimb", Label: "Max climb", Group: "Agent", Kind: "number", Unit: "world units", Min: 0, Max: 10, Step: 0.1, Help: "highest ledge an agent steps up"},
	{Key: "agentMaxSlope", Label: "Max slope", Group: "Agent", Kind: "number", Unit: "degrees", Min: 0, Max: 90, Step: 1, Help: "steepest walkable slope; a triangle exactly this steep is not walkable"},
	{Key: "regionMinSize", Label: "Min region size", Group: "Region", Kind: "number", Unit: "cells", Min: 0, Max: 150, Step: 1, Help: "side of the smallest region kept on its own (area = size²)"},
	{Key: "regionMergeSize", Label: "Merged region size", Group: "Region", Kind: "number", Unit: "cells", Min: 0, Max: 150, Step: 1, Help: "side under which regions merge with a neighbour (area = size²)"},
	{Key: "partition", Label: "Partitioning", Group: "Partitioning", Kind: "choice", Choices: []string{"watershed", "monotone", "layers"}, Help: "watershed: best polygons; monotone: fastest, long thin polygons; layers: for tile caches"},
	{Key: "filterLowHangingObstacles", Label: "Low hanging obstacles", Group: "Filtering", Kind: "bool", Help: "let agents step up onto low non-walkable spans"},
	{Key: "filterLedgeSpans", Label: "Ledge spans", Group: "Filtering", Kind: "bool", Help: "remove spans next to drops deeper than the climb"},
	{Key: "filterWalkableLowHeightSpans", Label: "Walkable low height spans", Group: "Filtering", Kind: "bool", Help: "remove spans without an agent height of head room"},
	{Key: "edgeMaxLen", Label: "Max edge length", Group: "Polygonization", Kind: "number", Unit: "world units", Min: 0, Max: 50, Step: 1, Help: "longest polygon edge along walls; 0 for no limit"},
	{Key: "edgeMaxError", Label: "Max edge error", Group: "Polygonization", Kind: "number", Unit: "cells", Min: 0.1, Max: 3, Step: 0.1, Help: "how far a simplified contour may stray from the voxel outline"},
	{Key: "vertsPerPoly", Label: "Verts per poly", Group: "Polygonization", Kind: "integer", Min: 3, Max: 6, Step: 1, Help: "most vertices per polygon"},
	{Key: "detailSampleDist", Label: "Sample distance", Group: "Detail mesh", Kind: "number", Unit: "cells", Min: 0, Max: 16, Step: 1, Help: "spacing of the detail mesh's height samples; below 0.9 none are added"},
	{Key: "detailSampleMaxError", Label: "Max sample error", Group: "Detail mesh", Kind: "number", Unit: "cell heights", Min: 0, Max: 16, Step: 1, Help: "how far the detail mesh may stray from the heightfield"},
	{Key: "links.drops", Label: "Drop links", Group: "Links", Kind: "bool", Help: "place one-way links down ledges (bake.LinkSettings; the other link keys keep their defaults)"},
	{Key: "links.jumps", Label: "Jump links", Group: "Links", Kind: "bool", Help: "place links across gaps"},
	{Key: "tileSize", Label: "Tile size", Group: "Tiling", Kind: "integer", Unit: "cells", Min: 0, Max: 1024, Step: 8, Help: "0 bakes one solo tile (with the bake's stages to look at); RecastDemo's tile sample uses 32"},
}

// studioSettingsFile returns settings as the settings file `navtool bake
// -config` reads: every key of studioControls, plus maxMemoryMB.
func studioSettingsFile(s bake.Settings) map[string]any {
	return map[string]any{
		"cellSize":                     s.CellSize,
		"cellHeight":                   s.CellHeight,
		"agentHeight":                  s.AgentHeight,
		"agentRadius":                  s.AgentRadius,
		"agentMaxClimb":                s.AgentMaxClimb,
		"agentMaxSlope":                s.AgentMaxSlope,
		"regionMinSize":                s.RegionMinSize,
		"regionMergeSize":              s.RegionMergeSize,
		"edgeMaxLen":                   s.EdgeMaxLen,
		"edgeMaxError":                 s.EdgeMaxError,
		"vertsPerPoly":                 s.VertsPerPoly,
		"detailSampleDist":             s.DetailSampleDist,
		"detailSampleMaxError":         s.DetailSampleMaxError,
		"partition":                    s.Partition.String(),
		"filterLowHangingObstacles":    s.Filters.LowHangingObstacles,
		"filterLedgeSpans":             s.Filters.LedgeSpans,
		"filterWalkableLowHeightSpans": s.Filters.WalkableLowHeightSpans,
		"tileSize":                     s.TileSize,
		"maxMemoryMB":                  s.MaxMemory >> 20,
		"links":                        map[string]any{"drops": s.Links.Drops, "jumps": s.Links.Jumps},
	}
}
