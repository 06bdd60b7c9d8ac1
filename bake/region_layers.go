package bake

import "fmt"

// BuildLayerRegions partitions the walkable spans of chf into regions that
// are each free of vertical overlap (rcBuildLayerRegions): monotone row
// sweeps merged into the largest non-overlapping layers. Meant for tiles
// with many stacked floors; it needs no distance field.
//
// borderSize is the width of the tile border [Limit: >= 0] [Units: cells];
// layers smaller than minRegionArea spans that do not touch the border are
// removed [Limit: >= 0] [Units: spans]. The result is written to the Region
// of every span, chf.MaxRegions and chf.BorderSize. On error chf is left
// unchanged.
func BuildLayerRegions(chf *CompactHeightfield, borderSize, minRegionArea int) error {
	var buffers regionBuffers
	return buffers.layers(chf, borderSize, minRegionArea)
}

// layers is BuildLayerRegions on the buffers' memory.
func (b *regionBuffers) layers(chf *CompactHeightfield, borderSize, minRegionArea int) (err error) {
	defer recoverMalformedField("build layer regions", &err)
	if err := checkRegionInput(chf, borderSize); err != nil {
		return fmt.Errorf("bake: build layer regions: %w", err)
	}
	regions := b.spanRegions(chf)
	maxRegionID := sweepMonotoneRegions(chf, borderSize, regions)
	mergeAndFilterLayerRegions(minRegionArea, &maxRegionID, chf, regions, &b.merger)
	storeRegions(chf, regions, borderSize, maxRegionID)
	return nil
}

// mergeAndFilterLayerRegions merges monotone regions of the same area into
// layers that never hold two spans of one column, removes layers smaller than
// minRegionArea spans that do not touch the border, and renumbers the
// layers 1..n (written to maxRegionID) in regionOf.
func mergeAndFilterLayerRegions(minRegionArea int, maxRegionID *uint16, chf *CompactHeightfield, regionOf []uint16, merger *regionMerger) {
	w, h := chf.Width, chf.Height
	regionCount := int(*maxRegionID) + 1
	regions := merger.reset(regionCount)

	// Find neighbours, vertical extents and the regions stacked in a column.
	columnRegions := make([]int, 0, 32)
	columns := &merger.columns
	columns.reset(regionCount)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := chf.Cells[x+y*w]
			columnRegions = columnRegions[:0]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				s := &chf.Spans[i]
				id := regionOf[i]
				if id == 0 || int(id) >= regionCount {
					continue
				}
				region := &regions[id]
				region.spanCount++
				region.areaType = chf.Areas[i]
				region.yMin = min(region.yMin, s.Y)
				region.yMax = max(region.yMax, s.Y)
				columnRegions = append(columnRegions, int(id))

				for dir := 0; dir < 4; dir++ {
					if s.Connection(dir) == NotConnected {
						continue
					}
					neighbour := regionOf[neighbourSpan(chf, x, y, s, dir)]
					if neighbour > 0 && int(neighbour) < regionCount && neighbour != id {
						region.addUniqueConnection(int(neighbour))
					}
					if neighbour&BorderRegion != 0 {
						region.connectsToBorder = true
					}
				}
			}

			columns.start()
			for _, id := range columnRegions {
				columns.add(id)
			}
			columns.twice = columns.twice[:0] // a layer's own spans are no floor of it
			columns.addFloors(regions)
		}
	}

	// Flood breadth first from each unvisited region, taking in neighbours
	// of the same area that do not overlap the layer grown so far.
	for i := range regions {
		regions[i].id = 0
	}
	layerID := uint16(1)
	queue := make([]int, 0, 32)
	for i := 1; i < regionCount; i++ {
		root := &regions[i]
		if root.id != 0 {
			continue
		}
		root.id = layerID
		queue = append(queue[:0], i)
		for head := 0; head < len(queue); head++ {
			region := &regions[queue[head]]
			for _, neighbourID := range region.connections {
				neighbour := &regions[neighbourID]
				if neighbour.id != 0 || region.areaType != neighbour.areaType {
					continue
				}
				if root.floors.contains(neighbourID) {
					continue
				}

				queue = append(queue, neighbourID)
				neighbour.id = layerID
				for _, f := range neighbour.floors.ids {
					root.floors.add(f)
				}
				root.yMin = min(root.yMin, neighbour.yMin)
				root.yMax = max(root.yMax, neighbour.yMax)
				root.spanCount += neighbour.spanCount
				neighbour.spanCount = 0
				root.connectsToBorder = root.connectsToBorder || neighbour.connectsToBorder
			}
		}
		layerID++
	}

	for i := range regions {
		if regions[i].spanCount > 0 && regions[i].spanCount < minRegionArea && !regions[i].connectsToBorder {
			removed := regions[i].id
			for j := range regions {
				if regions[j].id == removed {
					regions[j].id = 0
				}
			}
		}
	}

	*maxRegionID = compressRegionIDs(regions)
	for i := range regionOf {
		if regionOf[i]&BorderRegion == 0 {
			regionOf[i] = regions[regionOf[i]].id
		}
	}
}
