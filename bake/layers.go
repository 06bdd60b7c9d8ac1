package bake

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// Limits of the heightfield layer stage (RecastLayers.cpp).
const (
	// MaxOverlappingLayers is the most layers a layer may overlap in total
	// (RC_MAX_LAYERS): BuildHeightfieldLayers fails with ErrLayerOverflow
	// when a layer would be stacked with more, and it reads at most this
	// many spans of one column.
	MaxOverlappingLayers = 63
	// MaxLayerSide is the largest width or height of a layer, border
	// excluded: a tile cache layer stores both in one byte [Units: cells].
	MaxLayerSide = 255
	// maxLayerNeighbours is the most neighbours a monotone region records
	// (RC_MAX_NEIS); more are dropped, which only splits layers further.
	maxLayerNeighbours = 16
	// maxLayerRegions is the number of monotone region ids: 0..254, 255
	// meaning none.
	maxLayerRegions = 255
	// layerFloodQueue is the most regions waiting in the flood that grows
	// a layer (MAX_STACK); a region found while it is full is left for a
	// later layer.
	layerFloodQueue = 64
	// maxLayerHeightRange bounds a layer's floor heights: HMax - HMin stays
	// below it, so that each fits a byte above HMin [Units: cells].
	maxLayerHeightRange = 255
	// noLayerRegion marks a span without a monotone region, and a region
	// without a layer.
	noLayerRegion = 0xff
)

// Errors of BuildHeightfieldLayers, for errors.Is.
var (
	// ErrLayerOverflow: a layer would overlap more than MaxOverlappingLayers
	// others (too many walkable platforms stacked over one another).
	ErrLayerOverflow = errors.New("layer overflow: too many overlapping walkable platforms")
	// ErrLayerRegionOverflow: the field splits into more than 255 monotone
	// regions.
	ErrLayerRegionOverflow = errors.New("region id overflow: more than 255 monotone regions")
	// ErrLayerTooTall: one monotone region spans 255 cells of height or
	// more, which a layer's byte heights cannot hold (the C++ wraps them
	// silently).
	ErrLayerTooTall = errors.New("a monotone region spans more heights than a layer holds")
)

// HeightfieldLayer is one layer of a compact heightfield
// (rcHeightfieldLayer): a 2D grid of floor cells that never hold two spans
// of one column, with the floor height, area and connections of each cell.
// The grid covers the field without its border.
type HeightfieldLayer struct {
	// BMin and BMax bound the layer: x and z are the field's bounds shrunk
	// by the border; y goes from the field's BMin.Y + HMin·CellHeight to
	// BMin.Y + HMax·CellHeight [Units: world units].
	BMin, BMax mgl32.Vec3
	// CellSize and CellHeight are the field's voxel size
	// [Units: world units].
	CellSize, CellHeight float32
	// Width and Height are the grid size [Limit: 1..MaxLayerSide]
	// [Units: cells].
	Width, Height int
	// MinX, MaxX, MinY, MaxY bound the cells that hold floor (all 0 when
	// none does) [Units: cells].
	MinX, MaxX, MinY, MaxY int
	// HMin and HMax are the lowest and highest floor of the layer's spans,
	// HMax - HMin < 255 [Units: cells of CellHeight above BMin.Y of the
	// field].
	HMin, HMax int
	// Heights holds each cell's floor above HMin, 0xff where the layer has
	// no floor [Units: cells of CellHeight]. At a portal the floor is
	// raised to the neighbour's when that one is higher, so that both sides
	// agree.
	Heights []uint8
	// Areas holds each cell's area id, NullArea where the layer has no
	// floor.
	Areas []uint8
	// Cons holds each cell's connections: bit d (d = 0..3 in Recast's
	// direction order -x, +z, +x, -z) when the neighbour in direction d is
	// in this layer and on its grid, bit 4+d when the neighbour is walkable
	// ground of another layer or of the border (a portal).
	Cons []uint8
}

// BuildHeightfieldLayers splits the walkable spans of chf into layers that
// do not overlap (rcBuildHeightfieldLayers): monotone row sweeps inside the
// border make regions, neighbouring regions that do not overlap are flooded
// into layers, and layers whose height ranges lie within 4·walkableHeight
// cells of each other merge when they do not overlap. No layer spans more
// than 254 cells of height. The layers are returned in the order of their
// first region.
//
// borderSize is the width of the field's border, which no layer covers
// [Limit: >= 0] [Units: cells]; the field without it must be at most
// MaxLayerSide cells on each side. walkableHeight is the agent's height
// [Limit: >= 0] [Units: cells]. A field that needs more than 255 monotone
// regions gives ErrLayerRegionOverflow; a layer overlapping more than
// MaxOverlappingLayers others gives ErrLayerOverflow; a monotone region
// whose floors span 255 cells of height or more (a steep ramp over a large
// tile) gives ErrLayerTooTall, where the C++ wraps its heights to a byte.
// A row may hold up to 255 runs of spans; the C++ overruns its buffer once
// a row has more runs than the field has columns. chf is not changed.
func BuildHeightfieldLayers(chf *CompactHeightfield, borderSize, walkableHeight int) ([]HeightfieldLayer, error) {
	var b layerBuilder
	return b.build(chf, borderSize, walkableHeight)
}

// layerSweep is one run of spans along a row during the monotone sweep
// (rcLayerSweepSpan).
type layerSweep struct {
	// samples counts the spans of the run whose -z neighbour is in region
	// neighbour.
	samples uint16
	// id is the region the run becomes.
	id uint8
	// neighbour is the one region of the previous row the run touches,
	// noLayerRegion when it touches none or several.
	neighbour uint8
}

// layerRegion is one monotone region while layers are formed
// (rcLayerRegion).
type layerRegion struct {
	// overlaps lists the regions sharing a column with this one (for a
	// layer's base region, with any region of its layer).
	overlaps      [MaxOverlappingLayers]uint8
	overlapCount  uint8
	neighbours    [maxLayerNeighbours]uint8
	neighbourSize uint8
	// yMin and yMax bound the floors of the region (of the layer, for a
	// base region) [Units: cells]
	yMin, yMax uint16
	// layer is the region's layer id, noLayerRegion before it has one.
	layer uint8
	// base marks the region a layer was grown from, which holds the
	// layer's overlaps and height range.
	base bool
}

// hasOverlap tells whether region id is in r's overlaps.
func (r *layerRegion) hasOverlap(id uint8) bool {
	for _, o := range r.overlaps[:r.overlapCount] {
		if o == id {
			return true
		}
	}
	return false
}

// addOverlap adds id to r's overlaps unless present; false when the list
// is full.
func (r *layerRegion) addOverlap(id uint8) bool {
	if r.hasOverlap(id) {
		return true
	}
	if int(r.overlapCount) >= len(r.overlaps) {
		return false
	}
	r.overlaps[r.overlapCount] = id
	r.overlapCount++
	return true
}

// addNeighbour adds id to r's neighbours unless present or the list is
// full.
func (r *layerRegion) addNeighbour(id uint8) {
	for _, n := range r.neighbours[:r.neighbourSize] {
		if n == id {
			return
		}
	}
	if int(r.neighbourSize) < len(r.neighbours) {
		r.neighbours[r.neighbourSize] = id
		r.neighbourSize++
	}
}

// layerBuilder keeps the working memory of BuildHeightfieldLayers between
// builds.
type layerBuilder struct {
	// spanRegion holds the monotone region of each span.
	spanRegion []uint8
	sweeps     [maxLayerRegions]layerSweep
	// previousRowSamples counts, per region, the spans of the row whose
	// -z neighbour lies in it.
	previousRowSamples [maxLayerRegions]int
	regions            []layerRegion
	queue              []uint8
}

// build is BuildHeightfieldLayers on the builder's memory.
func (b *layerBuilder) build(chf *CompactHeightfield, borderSize, walkableHeight int) (layers []HeightfieldLayer, err error) {
	defer recoverMalformedField("build heightfield layers", &err)
	if err := checkRegionInput(chf, borderSize); err != nil {
		return nil, fmt.Errorf("bake: build heightfield layers: %w", err)
	}
	if walkableHeight < 0 {
		return nil, fmt.Errorf("bake: build heightfield layers: walkable height %d must not be negative", walkableHeight)
	}
	layerWidth, layerHeight := chf.Width-2*borderSize, chf.Height-2*borderSize
	if layerWidth > MaxLayerSide || layerHeight > MaxLayerSide {
		return nil, fmt.Errorf("bake: build heightfield layers: %d×%d cells inside the border, more than %d on a side",
			layerWidth, layerHeight, MaxLayerSide)
	}
	regionCount, err := b.sweepRegions(chf, borderSize)
	if err != nil {
		return nil, fmt.Errorf("bake: build heightfield layers: %w: %s", err, regionOverflowCause(chf, borderSize))
	}
	if err := b.findOverlaps(chf, regionCount); err != nil {
		return nil, fmt.Errorf("bake: build heightfield layers: %w", err)
	}
	for i := range b.regions {
		// Floods and merges keep a layer's range below 255 cells, but a
		// single region is taken whole.
		if r := &b.regions[i]; int(r.yMax)-int(r.yMin) >= maxLayerHeightRange {
			return nil, fmt.Errorf("bake: build heightfield layers: region %d has floors %d..%d: %w", i, r.yMin, r.yMax, ErrLayerTooTall)
		}
	}
	if err := b.floodLayers(); err != nil {
		return nil, fmt.Errorf("bake: build heightfield layers: %w", err)
	}
	if err := b.mergeLayers(walkableHeight); err != nil {
		return nil, fmt.Errorf("bake: build heightfield layers: %w", err)
	}
	layerCount := b.compactLayerIDs()
	if layerCount == 0 || layerWidth <= 0 || layerHeight <= 0 {
		return nil, nil
	}
	return b.storeLayers(chf, borderSize, layerCount), nil
}

// regionOverflowCause explains ErrLayerRegionOverflow for chf: a tile cache
// layer numbers its monotone regions in a byte, and each floor stacked over
// a cell is a region of its own, so a tile that stacks more floors than
// that cannot be stored whatever its size, while many regions side by side
// split among smaller tiles.
func regionOverflowCause(chf *CompactHeightfield, borderSize int) string {
	stack, stackX, stackZ := 0, 0, 0
	for z := borderSize; z < chf.Height-borderSize; z++ {
		for x := borderSize; x < chf.Width-borderSize; x++ {
			c := chf.Cells[x+z*chf.Width]
			floors := 0
			for i := int(c.Index); i < int(c.Index+c.Count); i++ {
				if chf.Areas[i] != NullArea {
					floors++
				}
			}
			if floors > stack {
				stack, stackX, stackZ = floors, x-borderSize, z-borderSize
			}
		}
	}
	where := fmt.Sprintf("a tile cache layer numbers the regions of a tile in 8 bits, and this tile of %d×%d cells stacks up to %d walkable floors over one cell (cell %d, %d of the tile), each floor a region of its own",
		chf.Width-2*borderSize, chf.Height-2*borderSize, stack, stackX, stackZ)
	if 2*stack > maxLayerRegions {
		return where + "; a tile cache cannot hold so many stacked floors at any tile size: bake a navmesh instead (solo or tiled: navtool bake without -tilecache)"
	}
	return where + ", and the rest side by side; smaller tiles (Settings.TileSize, navtool -tile-size) share the regions among more tiles, or bake a navmesh instead (solo or tiled: navtool bake without -tilecache)"
}

// sweepRegions splits the walkable spans inside the border into monotone
// regions, row by row: a run of spans along x continues the region of the
// previous row when it touches that region alone and the region touches
// no other run. It returns the number of regions.
func (b *layerBuilder) sweepRegions(chf *CompactHeightfield, borderSize int) (int, error) {
	w, h := chf.Width, chf.Height
	cells, spans, areas := chf.Cells, chf.Spans, chf.Areas
	b.spanRegion = resize(b.spanRegion, len(spans))
	spanRegion := b.spanRegion
	for i := range spanRegion {
		spanRegion[i] = noLayerRegion
	}
	regionCount := 0
	for y := borderSize; y < h-borderSize; y++ {
		clear(b.previousRowSamples[:regionCount])
		sweepCount := 0
		for x := borderSize; x < w-borderSize; x++ {
			cell := x + y*w
			c := cells[cell]
			for i := int(c.Index); i < int(c.Index+c.Count); i++ {
				if areas[i] == NullArea {
					continue
				}
				span := &spans[i]
				sweep := noLayerRegion
				if con := span.Connection(0); con != NotConnected {
					ai := int(cells[cell-1].Index) + con
					if areas[ai] != NullArea && spanRegion[ai] != noLayerRegion {
						sweep = int(spanRegion[ai])
					}
				}
				if sweep == noLayerRegion {
					// Every run of a row needs a region of its own, so a
					// 256th run would need a 256th region.
					if sweepCount == maxLayerRegions {
						return 0, ErrLayerRegionOverflow
					}
					sweep = sweepCount
					sweepCount++
					b.sweeps[sweep] = layerSweep{neighbour: noLayerRegion}
				}
				if con := span.Connection(3); con != NotConnected {
					ai := int(cells[cell-w].Index) + con
					if below := spanRegion[ai]; below != noLayerRegion {
						run := &b.sweeps[sweep]
						if run.samples == 0 {
							run.neighbour = below
						}
						if run.neighbour == below {
							run.samples++
							b.previousRowSamples[below]++
						} else {
							run.neighbour = noLayerRegion // several neighbours
						}
					}
				}
				spanRegion[i] = uint8(sweep)
			}
		}

		for i := range b.sweeps[:sweepCount] {
			run := &b.sweeps[i]
			if run.neighbour != noLayerRegion && b.previousRowSamples[run.neighbour] == int(run.samples) {
				run.id = run.neighbour
				continue
			}
			if regionCount == maxLayerRegions {
				return 0, ErrLayerRegionOverflow
			}
			run.id = uint8(regionCount)
			regionCount++
		}
		for x := borderSize; x < w-borderSize; x++ {
			c := cells[x+y*w]
			for i := int(c.Index); i < int(c.Index+c.Count); i++ {
				if spanRegion[i] != noLayerRegion {
					spanRegion[i] = b.sweeps[spanRegion[i]].id
				}
			}
		}
	}
	return regionCount, nil
}

// findOverlaps sets up regionCount regions: their floor range, their
// neighbours and the regions they share a column with.
func (b *layerBuilder) findOverlaps(chf *CompactHeightfield, regionCount int) error {
	w, h := chf.Width, chf.Height
	cells, spans, spanRegion := chf.Cells, chf.Spans, b.spanRegion
	b.regions = resize(b.regions, regionCount)
	regions := b.regions
	for i := range regions {
		regions[i] = layerRegion{layer: noLayerRegion, yMin: 0xffff}
	}
	var column [MaxOverlappingLayers]uint8
	offsets := cellOffsets(w)
	for cell, c := range cells[:w*h] {
		columnCount := 0
		for i := int(c.Index); i < int(c.Index+c.Count); i++ {
			id := spanRegion[i]
			if id == noLayerRegion {
				continue
			}
			s := &spans[i]
			region := &regions[id]
			region.yMin = min(region.yMin, s.Y)
			region.yMax = max(region.yMax, s.Y)
			if columnCount < len(column) {
				column[columnCount] = id
				columnCount++
			}
			for dir := 0; dir < 4; dir++ {
				con := s.Connection(dir)
				if con == NotConnected {
					continue
				}
				if neighbour := spanRegion[int(cells[cell+offsets[dir]].Index)+con]; neighbour != noLayerRegion && neighbour != id {
					region.addNeighbour(neighbour)
				}
			}
		}
		for i := 0; i < columnCount-1; i++ {
			for j := i + 1; j < columnCount; j++ {
				a, b := column[i], column[j]
				if a != b && (!regions[a].addOverlap(b) || !regions[b].addOverlap(a)) {
					return ErrLayerOverflow
				}
			}
		}
	}
	return nil
}

// floodLayers gives every region a layer: from each region without one, a
// breadth-first flood takes in the neighbours that overlap nothing of the
// layer so far and keep its height range below 255 cells. The region the
// flood starts from is the layer's base and collects its overlaps and
// height range.
func (b *layerBuilder) floodLayers() error {
	regions := b.regions
	layer := 0
	for i := range regions {
		root := &regions[i]
		if root.layer != noLayerRegion {
			continue
		}
		root.layer = uint8(layer)
		root.base = true
		queue := append(b.queue[:0], uint8(i))
		for head := 0; head < len(queue); head++ {
			region := &regions[queue[head]]
			for _, id := range region.neighbours[:region.neighbourSize] {
				neighbour := &regions[id]
				if neighbour.layer != noLayerRegion || root.hasOverlap(id) {
					continue
				}
				if int(max(root.yMax, neighbour.yMax))-int(min(root.yMin, neighbour.yMin)) >= maxLayerHeightRange {
					continue
				}
				if len(queue)-head-1 >= layerFloodQueue {
					continue // the C++ queue is full: a later layer takes it
				}
				queue = append(queue, id)
				neighbour.layer = uint8(layer)
				for _, o := range neighbour.overlaps[:neighbour.overlapCount] {
					if !root.addOverlap(o) {
						return ErrLayerOverflow
					}
				}
				root.yMin = min(root.yMin, neighbour.yMin)
				root.yMax = max(root.yMax, neighbour.yMax)
			}
		}
		b.queue = queue
		layer++
	}
	return nil
}

// mergeLayers merges layers whose height ranges, each widened upward by
// 4·walkableHeight cells, overlap, while the merged layer overlaps none of
// its own regions and spans less than 255 cells of height. Each base
// region in turn takes in every layer it can.
func (b *layerBuilder) mergeLayers(walkableHeight int) error {
	regions := b.regions
	// The C++ keeps these sums in 16 bits.
	mergeHeight := uint16(walkableHeight) * 4
	for i := range regions {
		ri := &regions[i]
		if !ri.base {
			continue
		}
		newLayer := ri.layer
		for {
			oldLayer := uint8(noLayerRegion)
			for j := range regions {
				rj := &regions[j]
				if i == j || !rj.base {
					continue
				}
				if !overlapRange(ri.yMin, ri.yMax+mergeHeight, rj.yMin, rj.yMax+mergeHeight) {
					continue
				}
				if int(max(ri.yMax, rj.yMax))-int(min(ri.yMin, rj.yMin)) >= maxLayerHeightRange {
					continue
				}
				if b.layerOverlaps(ri, rj.layer) {
					continue
				}
				oldLayer = rj.layer
				break
			}
			if oldLayer == noLayerRegion {
				break
			}
			for j := range regions {
				rj := &regions[j]
				if rj.layer != oldLayer {
					continue
				}
				rj.base = false
				rj.layer = newLayer
				for _, o := range rj.overlaps[:rj.overlapCount] {
					if !ri.addOverlap(o) {
						return ErrLayerOverflow
					}
				}
				ri.yMin = min(ri.yMin, rj.yMin)
				ri.yMax = max(ri.yMax, rj.yMax)
			}
		}
	}
	return nil
}

// layerOverlaps tells whether a region of layer overlaps base's layer.
func (b *layerBuilder) layerOverlaps(base *layerRegion, layer uint8) bool {
	for k := range b.regions {
		if b.regions[k].layer == layer && base.hasOverlap(uint8(k)) {
			return true
		}
	}
	return false
}

// overlapRange tells whether [aMin, aMax] and [bMin, bMax] share a value.
func overlapRange(aMin, aMax, bMin, bMax uint16) bool {
	return aMin <= bMax && aMax >= bMin
}

// compactLayerIDs renumbers the layers 0..n-1 in the order of their ids
// and returns n.
func (b *layerBuilder) compactLayerIDs() int {
	var used [256]bool
	for i := range b.regions {
		used[b.regions[i].layer] = true
	}
	var remap [256]uint8
	count := 0
	for id, u := range used {
		if u {
			remap[id] = uint8(count)
			count++
		}
	}
	for i := range b.regions {
		b.regions[i].layer = remap[b.regions[i].layer]
	}
	return count
}

// storeLayers copies each of the layerCount layers out of chf: the floors,
// areas and connections of its spans inside the border. The layers' grids
// share one new allocation.
func (b *layerBuilder) storeLayers(chf *CompactHeightfield, borderSize, layerCount int) []HeightfieldLayer {
	w := chf.Width
	layerWidth, layerHeight := chf.Width-2*borderSize, chf.Height-2*borderSize
	cells, spans, areas, spanRegion, regions := chf.Cells, chf.Spans, chf.Areas, b.spanRegion, b.regions

	border := float32(float32(borderSize) * chf.CellSize)
	bmin, bmax := chf.BMin, chf.BMax
	bmin[0] += border
	bmin[2] += border
	bmax[0] -= border
	bmax[2] -= border

	gridSize := layerWidth * layerHeight
	grids := make([]uint8, 3*gridSize*layerCount)
	layers := make([]HeightfieldLayer, layerCount)
	for id := range layers {
		grid := grids[3*gridSize*id : 3*gridSize*(id+1)]
		heights := grid[:gridSize:gridSize]
		for i := range heights {
			heights[i] = 0xff
		}
		layers[id] = HeightfieldLayer{
			BMin:       bmin,
			BMax:       bmax,
			CellSize:   chf.CellSize,
			CellHeight: chf.CellHeight,
			Width:      layerWidth,
			Height:     layerHeight,
			MinX:       layerWidth,
			MinY:       layerHeight,
			Heights:    heights,
			Areas:      grid[gridSize : 2*gridSize : 2*gridSize],
			Cons:       grid[2*gridSize:],
		}
	}
	for j := range regions {
		if regions[j].base {
			layer := &layers[regions[j].layer]
			layer.HMin, layer.HMax = int(regions[j].yMin), int(regions[j].yMax)
		}
	}
	for id := range layers {
		layer := &layers[id]
		// The products are rounded before the sums, as the C++ computes
		// them (Go could otherwise fuse them).
		layer.BMin[1] = bmin[1] + float32(float32(layer.HMin)*chf.CellHeight)
		layer.BMax[1] = bmin[1] + float32(float32(layer.HMax)*chf.CellHeight)
	}

	// One pass over the cells fills every layer: a cell's spans go to
	// their layers in column order, as the C++'s pass per layer sees them.
	var layerOf [256]uint8
	for i := range layerOf {
		layerOf[i] = noLayerRegion
	}
	for i := range regions {
		layerOf[i] = regions[i].layer
	}
	offsets := cellOffsets(w)
	for y := 0; y < layerHeight; y++ {
		for x := 0; x < layerWidth; x++ {
			// The directions whose neighbour cell lies on the layer's grid.
			var inGrid uint8 = 0xf
			if x == 0 {
				inGrid &^= 1 << 0
			}
			if y == layerHeight-1 {
				inGrid &^= 1 << 1
			}
			if x == layerWidth-1 {
				inGrid &^= 1 << 2
			}
			if y == 0 {
				inGrid &^= 1 << 3
			}
			fieldCell := borderSize + x + (borderSize+y)*w
			c := cells[fieldCell]
			for j := int(c.Index); j < int(c.Index+c.Count); j++ {
				id := layerOf[spanRegion[j]]
				if id == noLayerRegion {
					continue
				}
				layer := &layers[id]
				layer.MinX, layer.MaxX = min(layer.MinX, x), max(layer.MaxX, x)
				layer.MinY, layer.MaxY = min(layer.MinY, y), max(layer.MaxY, y)
				hmin := layer.HMin
				cell := x + y*layerWidth
				s := &spans[j]
				height := uint8(int(s.Y) - hmin)
				layer.Areas[cell] = areas[j]
				var portals, sameLayer uint8
				for dir := 0; dir < 4; dir++ {
					con := s.Connection(dir)
					if con == NotConnected {
						continue
					}
					ai := int(cells[fieldCell+offsets[dir]].Index) + con
					if areas[ai] == NullArea {
						continue
					}
					if layerOf[spanRegion[ai]] == id {
						sameLayer |= 1 << dir
						continue
					}
					portals |= 1 << dir
					// The floor matches on both sides of the portal (the
					// C++ keeps the difference in a byte).
					if ay := int(spans[ai].Y); ay > hmin {
						height = max(height, uint8(ay-hmin))
					}
				}
				layer.Heights[cell] = height
				layer.Cons[cell] = portals<<4 | sameLayer&inGrid
			}
		}
	}
	for id := range layers {
		layer := &layers[id]
		if layer.MinX > layer.MaxX {
			layer.MinX, layer.MaxX = 0, 0
		}
		if layer.MinY > layer.MaxY {
			layer.MinY, layer.MaxY = 0, 0
		}
	}
	return layers
}
