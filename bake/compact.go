package bake

import (
	"fmt"
	"time"
)

// maxLayerIndex is the highest neighbour index a connection can store; the
// largest 12-bit value is NotConnected.
const maxLayerIndex = NotConnected - 1

// BuildCompactHeightfield turns the walkable spans of hf into a compact
// heightfield: one CompactSpan per walkable span, holding the open space above
// it, with links to the neighbour spans an agent walkableHeight cells tall can
// step to when the floors differ by at most walkableClimb cells
// (rcBuildCompactHeightfield). The field's top grows by walkableHeight cells.
//
// The reference stores a cell's first span index in 24 bits and its span
// count in 8, so a field of more than 2^24 spans silently comes out broken;
// here cells hold 32-bit values and any field that fits in memory works.
// The reference cannot link a neighbour more than 62 spans up its column
// (its links have 6 bits), so of floors stacked over each other only the
// lowest 63 connect; here links have 12 bits and reach 4094 spans up, more
// than a column holds below the span height limit. A neighbour beyond that
// is left out; BuildCompact reports how high such spans reach in
// CompactStats.UnlinkedLayer, and a bake warns. BorderSize stays 0: region
// building sets it.
func BuildCompactHeightfield(hf *Heightfield, walkableHeight, walkableClimb int) (*CompactHeightfield, error) {
	chf, _, err := buildCompactHeightfield(hf, walkableHeight, walkableClimb)
	return chf, err
}

// buildCompactHeightfield is BuildCompactHeightfield that also returns the
// highest neighbour index too high up its column to be linked (0 for none).
func buildCompactHeightfield(hf *Heightfield, walkableHeight, walkableClimb int) (*CompactHeightfield, int, error) {
	if err := checkWalkable(walkableHeight, walkableClimb); err != nil {
		return nil, 0, err
	}
	chf := &CompactHeightfield{}
	_, unlinked := chf.fill(hf, walkableHeight, walkableClimb)
	return chf, unlinked, nil
}

// checkWalkable checks the settings of BuildCompactHeightfield.
func checkWalkable(walkableHeight, walkableClimb int) error {
	if walkableHeight < 0 || walkableClimb < 0 {
		return fmt.Errorf("bake: build compact heightfield: walkable height %d and climb %d must not be negative", walkableHeight, walkableClimb)
	}
	return nil
}

// fill makes chf the compact heightfield of hf, reusing the memory of its
// cells, spans and areas; everything else in chf is reset. It returns the
// number of spans of hf, walkable or not, and the highest neighbour index too
// high up its column to be linked (0 for none).
func (chf *CompactHeightfield) fill(hf *Heightfield, walkableHeight, walkableClimb int) (heightfieldSpans, unlinked int) {
	width, height := hf.Width, hf.Height
	heightfieldSpans, spanCount := hf.spanCounts()

	*chf = CompactHeightfield{
		Width:          width,
		Height:         height,
		WalkableHeight: walkableHeight,
		WalkableClimb:  walkableClimb,
		BMin:           hf.BMin,
		BMax:           hf.BMax,
		CellSize:       hf.CellSize,
		CellHeight:     hf.CellHeight,
		Cells:          resize(chf.Cells, width*height),
		Spans:          resize(chf.Spans, spanCount),
		Areas:          resize(chf.Areas, spanCount),
	}
	chf.BMax[1] += float32(float32(walkableHeight) * hf.CellHeight)

	// Fill the cells and the open space above each walkable span.
	cells, spans, areas, pool := chf.Cells, chf.Spans, chf.Areas, hf.Pool
	next := uint32(0)
	for column, first := range hf.Columns {
		cell := CompactCell{Index: next}
		for s := first; s != noSpan; {
			span := &pool[s]
			s = span.Next
			if span.Area == NullArea {
				continue
			}
			bottom := int(span.Max)
			top := openTop
			if s != noSpan {
				top = int(pool[s].Min)
			}
			open := CompactSpan{Y: uint16(clampInt(bottom, 0, 0xffff))}
			open.SetHeight(uint8(clampInt(top-bottom, 0, 0xff)))
			spans[next] = open
			areas[next] = span.Area
			next++
			cell.Count++
		}
		if first == noSpan {
			cell.Index = 0 // as the reference leaves empty columns
		}
		cells[column] = cell
	}

	unlinked = chf.connectNeighbours()
	chf.unlinkedLayer = unlinked
	return heightfieldSpans, unlinked
}

// connectNeighbours links each span to the first span of each neighbour
// column it can step to, and returns the highest neighbour index that was too
// high up its column to be stored.
//
// The reference tries every span of the neighbour column, which costs the
// square of a column's height in spans where floors stack; only neighbours
// whose floor lies within walkableClimb of the span's can qualify, and as
// the spans of a column go up, so does that window in each neighbour
// column, so here each column pair is walked once, with the same links.
func (chf *CompactHeightfield) connectNeighbours() int {
	width, height := chf.Width, chf.Height
	cells := chf.Cells
	link := neighbourLinker{
		spans:          chf.Spans,
		walkableHeight: chf.WalkableHeight,
		walkableClimb:  chf.WalkableClimb,
	}
	for z := range height {
		for x := range width {
			column := x + z*width
			cell := cells[column]
			// Each neighbour column and the first of its spans still within
			// reach, in directions 0..3; an empty cell for the field's edge.
			var neighbours [4]CompactCell
			if x > 0 {
				neighbours[0] = cells[column-1]
			}
			if z < height-1 {
				neighbours[1] = cells[column+width]
			}
			if x < width-1 {
				neighbours[2] = cells[column+1]
			}
			if z > 0 {
				neighbours[3] = cells[column-width]
			}
			var window [4]uint32
			for dir := range neighbours {
				window[dir] = neighbours[dir].Index
			}
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				span := &link.spans[i]
				floor := int(span.Y)
				ceiling := floor + span.Height()
				for dir := range neighbours {
					span.SetConnection(dir, link.connect(neighbours[dir], &window[dir], floor, ceiling))
				}
			}
		}
	}
	return link.tooHigh
}

// neighbourLinker finds the span a span links to in a neighbour column.
type neighbourLinker struct {
	spans                         []CompactSpan
	walkableHeight, walkableClimb int
	// tooHigh is the highest neighbour index met that was too high up its
	// column to be stored.
	tooHigh int
}

// connect returns the index of the first span of the neighbour column that
// a span with the given floor and ceiling can step to, NotConnected for
// none. window is the first neighbour span whose floor may still be within
// reach: floors more than walkableClimb below this span's are out of reach
// of the spans above it too.
func (l *neighbourLinker) connect(neighbours CompactCell, window *uint32, floor, ceiling int) int {
	end := neighbours.Index + neighbours.Count
	k := *window
	for k < end && int(l.spans[k].Y) < floor-l.walkableClimb {
		k++
	}
	*window = k
	for ; k < end; k++ {
		neighbour := &l.spans[k]
		neighbourFloor := int(neighbour.Y)
		if neighbourFloor > floor+l.walkableClimb {
			break // out of reach, as is everything above
		}
		bottom := max(floor, neighbourFloor)
		top := min(ceiling, neighbourFloor+neighbour.Height())
		if top-bottom < l.walkableHeight {
			continue
		}
		layer := int(k - neighbours.Index)
		if layer > maxLayerIndex {
			l.tooHigh = max(l.tooHigh, layer)
			continue
		}
		return layer
	}
	return NotConnected
}

// CompactStats describes a BuildCompact run.
type CompactStats struct {
	// GridWidth and GridHeight are the field size [Units: cells]
	GridWidth, GridHeight int
	// HeightfieldSpans counts the solid spans after rasterization, walkable
	// or not.
	HeightfieldSpans int
	// CompactSpans counts the spans of the compact heightfield: the spans
	// still walkable after the filters.
	CompactSpans int
	// WalkableSpans counts the compact spans still walkable after erosion.
	WalkableSpans int
	// UnlinkedLayer is the highest position up its column of a neighbour span
	// that could not be linked because it is above 4094 (0 when every
	// neighbour was linked); see BuildCompactHeightfield.
	UnlinkedLayer int
	// Rasterize, Filter, Compact and Erode are the wall-clock times of the
	// stages; Rasterize includes marking walkable triangles.
	Rasterize, Filter, Compact, Erode time.Duration
}

// BuildCompact runs the first half of the bake on one field, exactly as
// RecastDemo's Sample_SoloMesh does before region partitioning:
//
//  1. a heightfield of cfg's grid size and bounds (cfg.BorderSize is already
//     part of them in a tiled build);
//  2. triangle areas: WalkableArea for every triangle flatter than
//     cfg.WalkableSlopeAngle when g.Areas is nil, otherwise g.Areas with the
//     steep triangles cleared to NullArea;
//  3. rasterization of every triangle of g, merging areas within
//     cfg.WalkableClimb;
//  4. the filters cfg.Filters selects: low hanging obstacles, ledge spans,
//     low height spans, in that order;
//  5. the compact heightfield for cfg.WalkableHeight and cfg.WalkableClimb;
//  6. erosion by cfg.WalkableRadius.
//
// Area volumes are not applied; call MarkAreaVolumes next, as RecastDemo
// does. For a tile, pass a Geometry sharing g's Vertices with only the
// triangles that overlap the tile, in the order they should be rasterized.
// The inputs are only read; on error nothing is returned.
func BuildCompact(g *Geometry, cfg *Config) (*CompactHeightfield, CompactStats, error) {
	var stats CompactStats
	if err := g.Validate(); err != nil {
		return nil, stats, err
	}
	if err := cfg.validate(); err != nil {
		return nil, stats, err
	}
	stats.GridWidth, stats.GridHeight = cfg.Width, cfg.Height

	start := time.Now()
	hf := &Heightfield{}
	if _, err := rasterizeGeometry(hf, nil, g, cfg); err != nil {
		return nil, stats, err
	}
	stats.Rasterize = time.Since(start)
	stats.HeightfieldSpans = hf.SpanCount()

	start = time.Now()
	filterHeightfield(hf, cfg)
	stats.Filter = time.Since(start)

	start = time.Now()
	chf, unlinked, err := buildCompactHeightfield(hf, cfg.WalkableHeight, cfg.WalkableClimb)
	if err != nil {
		return nil, stats, err
	}
	stats.Compact = time.Since(start)
	stats.CompactSpans = len(chf.Spans)
	stats.UnlinkedLayer = unlinked

	start = time.Now()
	if err := chf.ErodeWalkableArea(cfg.WalkableRadius); err != nil {
		return nil, stats, err
	}
	stats.Erode = time.Since(start)
	stats.WalkableSpans = walkableSpanCount(chf)
	return chf, stats, nil
}

// unlinkedWarning is the warning of a bake whose compact heightfield left
// neighbours unlinked (CompactStats.UnlinkedLayer), "" for none.
func unlinkedWarning(unlinked int) string {
	if unlinked == 0 {
		return ""
	}
	return fmt.Sprintf("spans up to %d spans up their column could not be linked to their neighbours (links reach %d spans up): "+
		"the surface above is cut off; raise CellHeight, or turn on Filters.WalkableLowHeightSpans, to stack fewer spans", unlinked, maxLayerIndex)
}
