package bake

import "slices"

// partitionRegion is the bookkeeping of one region id while small regions
// are merged and filtered (rcRegion).
type partitionRegion struct {
	// spanCount is the number of spans in the region.
	spanCount int
	// id is the region's current id: its own index, the id it was merged
	// into, or 0 once removed.
	id       uint16
	areaType uint8
	remap    bool
	visited  bool
	// overlap is set when the region has two spans in one column.
	overlap          bool
	connectsToBorder bool
	yMin, yMax       uint16
	// connections lists the neighbour region ids met walking around the
	// region's outline, in order (0 for walls).
	connections []int
	// floors holds the region ids found above or below the region's spans.
	floors floorSet
}

// floorSet is a set of region ids: a list, with a map beside it once it
// holds more than floorSetListMax ids, so that a region under hundreds of
// stacked floors answers and grows in constant time (Recast scans the list,
// which made 500 stacked floors take minutes to partition).
type floorSet struct {
	ids   []int
	index map[int]struct{}
}

// floorSetListMax is the most ids a floorSet finds by scanning its list.
const floorSetListMax = 16

// contains reports whether id is in the set.
func (s *floorSet) contains(id int) bool {
	if s.index != nil {
		_, ok := s.index[id]
		return ok
	}
	return slices.Contains(s.ids, id)
}

// add puts id in the set.
func (s *floorSet) add(id int) {
	if s.contains(id) {
		return
	}
	s.ids = append(s.ids, id)
	if s.index != nil {
		s.index[id] = struct{}{}
	} else if len(s.ids) > floorSetListMax {
		s.index = make(map[int]struct{}, 2*len(s.ids))
		for _, f := range s.ids {
			s.index[f] = struct{}{}
		}
	}
}

// rename replaces oldID by newID.
func (s *floorSet) rename(oldID, newID int) {
	found := false
	for i, f := range s.ids {
		if f == oldID {
			s.ids[i] = newID
			found = true
		}
	}
	if found && s.index != nil {
		delete(s.index, oldID)
		s.index[newID] = struct{}{}
	}
}

// regionMerger keeps the region bookkeeping of merging and filtering
// between builds.
type regionMerger struct {
	regions []partitionRegion
	// stack, trace and connections are work lists.
	stack, trace, connections []int
	// columns finds the regions stacked in each column.
	columns columnRegions
}

// columnRegions lists the distinct regions of a column, in the order they
// first come up it, and says whether it lists the same regions as the
// column before.
type columnRegions struct {
	// seen holds per region id the number (from 1) of the last column it
	// was met in.
	seen              []int32
	column            int32
	regions, previous []int
	// twice lists the regions met twice in the column.
	twice []int
}

// reset forgets the columns of the last pass, for a pass over regionCount
// region ids.
func (c *columnRegions) reset(regionCount int) {
	c.seen = resize(c.seen, regionCount)
	clear(c.seen)
	c.column = 0
	c.regions, c.previous = c.regions[:0], c.previous[:0]
}

// start begins the next column.
func (c *columnRegions) start() {
	c.column++
	c.previous, c.regions = c.regions, c.previous[:0]
	c.twice = c.twice[:0]
}

// add notes a span of region id.
func (c *columnRegions) add(id int) {
	if c.seen[id] == c.column {
		c.twice = append(c.twice, id)
		return
	}
	c.seen[id] = c.column
	c.regions = append(c.regions, id)
}

// same reports whether the column lists the regions of the one before.
func (c *columnRegions) same() bool { return slices.Equal(c.regions, c.previous) }

// addFloors records for each region of the column every other region of
// it as a floor, and the regions met twice as their own floors. A column
// that lists the regions of the one before adds nothing new: stacked floors
// cost the square of their number once, not once per column.
func (c *columnRegions) addFloors(regions []partitionRegion) {
	for _, id := range c.twice {
		regions[id].floors.add(id)
	}
	if c.same() {
		return
	}
	for _, a := range c.regions {
		for _, b := range c.regions {
			if a != b {
				regions[a].floors.add(b)
			}
		}
	}
}

// reset returns count regions with ids 0..count-1, reusing the memory of
// the regions and of their lists.
func (m *regionMerger) reset(count int) []partitionRegion {
	if cap(m.regions) < count {
		grown := make([]partitionRegion, count)
		copy(grown, m.regions[:cap(m.regions)])
		m.regions = grown
	}
	m.regions = m.regions[:count]
	for i := range m.regions {
		r := &m.regions[i]
		*r = partitionRegion{id: uint16(i), yMin: 0xffff, connections: r.connections[:0], floors: floorSet{ids: r.floors.ids[:0]}}
	}
	return m.regions
}

// removeAdjacentNeighbours drops repeated consecutive connections, treating
// the list as a ring.
func (r *partitionRegion) removeAdjacentNeighbours() {
	for i := 0; i < len(r.connections) && len(r.connections) > 1; {
		next := (i + 1) % len(r.connections)
		if r.connections[i] == r.connections[next] {
			r.connections = append(r.connections[:i], r.connections[i+1:]...)
		} else {
			i++
		}
	}
}

// replaceNeighbour renames oldID to newID in the connections and floors.
func (r *partitionRegion) replaceNeighbour(oldID, newID uint16) {
	changed := false
	for i, c := range r.connections {
		if c == int(oldID) {
			r.connections[i] = int(newID)
			changed = true
		}
	}
	r.floors.rename(int(oldID), int(newID))
	if changed {
		r.removeAdjacentNeighbours()
	}
}

// canMergeWith reports whether other can be merged into r: same area, a
// single shared border stretch, and other not above or below r.
func (r *partitionRegion) canMergeWith(other *partitionRegion) bool {
	if r.areaType != other.areaType {
		return false
	}
	shared := 0
	for _, c := range r.connections {
		if c == int(other.id) {
			shared++
		}
	}
	if shared > 1 {
		return false
	}
	return !r.floors.contains(int(other.id))
}

// addUniqueConnection adds id to the connections unless it is there already.
func (r *partitionRegion) addUniqueConnection(id int) {
	for _, c := range r.connections {
		if c == id {
			return
		}
	}
	r.connections = append(r.connections, id)
}

// connectedToBorder reports whether the outline touches a wall (id 0).
func (r *partitionRegion) connectedToBorder() bool {
	for _, c := range r.connections {
		if c == 0 {
			return true
		}
	}
	return false
}

// mergePartitionRegions merges b into a, splicing b's outline connections
// into a's at their shared border. scratch is a reusable buffer; it is
// returned grown. It reports false, changing nothing, if the two do not
// list each other as neighbours.
func mergePartitionRegions(a, b *partitionRegion, scratch []int) (bool, []int) {
	aID, bID := int(a.id), int(b.id)
	aConnections := append(scratch[:0], a.connections...)

	insertA := -1
	for i, c := range aConnections {
		if c == bID {
			insertA = i
			break
		}
	}
	if insertA == -1 {
		return false, aConnections
	}
	insertB := -1
	for i, c := range b.connections {
		if c == aID {
			insertB = i
			break
		}
	}
	if insertB == -1 {
		return false, aConnections
	}

	a.connections = a.connections[:0]
	for i, n := 0, len(aConnections); i < n-1; i++ {
		a.connections = append(a.connections, aConnections[(insertA+1+i)%n])
	}
	for i, n := 0, len(b.connections); i < n-1; i++ {
		a.connections = append(a.connections, b.connections[(insertB+1+i)%n])
	}
	a.removeAdjacentNeighbours()

	for _, f := range b.floors.ids {
		a.floors.add(f)
	}
	a.spanCount += b.spanCount
	b.spanCount = 0
	b.connections = b.connections[:0]
	return true, aConnections
}

// isSolidEdge reports whether the neighbour of span i in direction dir is
// missing or in another region.
func isSolidEdge(chf *CompactHeightfield, regions []uint16, x, y, i, dir int) bool {
	s := &chf.Spans[i]
	var neighbour uint16
	if s.Connection(dir) != NotConnected {
		neighbour = regions[neighbourSpan(chf, x, y, s, dir)]
	}
	return neighbour != regions[i]
}

// walkRegionOutline walks clockwise around the region of span i starting at
// its solid edge dir and appends to connections the neighbour region ids met
// along the way, without repeats in a row (the list is a ring).
func walkRegionOutline(x, y, i, dir int, chf *CompactHeightfield, regions []uint16, connections []int) []int {
	startDir, startIndex := dir, i
	w := chf.Width

	start := &chf.Spans[i]
	var current uint16
	if start.Connection(dir) != NotConnected {
		current = regions[neighbourSpan(chf, x, y, start, dir)]
	}
	first := len(connections)
	connections = append(connections, int(current))

	for iteration := 1; iteration < 40000; iteration++ {
		s := &chf.Spans[i]
		if isSolidEdge(chf, regions, x, y, i, dir) {
			var neighbour uint16
			if s.Connection(dir) != NotConnected {
				neighbour = regions[neighbourSpan(chf, x, y, s, dir)]
			}
			if neighbour != current {
				current = neighbour
				connections = append(connections, int(current))
			}
			dir = (dir + 1) & 3
		} else {
			if s.Connection(dir) == NotConnected {
				// Cannot happen on a consistent field: the edge is solid.
				return connections
			}
			nx := x + DirOffsetX(dir)
			ny := y + DirOffsetZ(dir)
			i = int(chf.Cells[nx+ny*w].Index) + s.Connection(dir)
			x, y = nx, ny
			dir = (dir + 3) & 3
		}
		if startIndex == i && startDir == dir {
			break
		}
	}

	// Drop repeats, the last and first entries being neighbours. Unlike
	// removeAdjacentNeighbours this can empty a uniform list, as in the C++.
	ring := connections[first:]
	if len(ring) > 1 {
		for j := 0; j < len(ring); {
			next := (j + 1) % len(ring)
			if ring[j] == ring[next] {
				ring = append(ring[:j], ring[j+1:]...)
			} else {
				j++
			}
		}
	}
	return connections[:first+len(ring)]
}

// mergeAndFilter removes connected groups of regions smaller than
// minRegionArea spans that do not touch the tile border, merges regions of
// at most mergeRegionSize spans into their smallest mergeable neighbour,
// then renumbers the regions 1..n in order and rewrites regions. maxRegionID
// is the largest id in use on entry and n on return. It returns the new ids
// of regions found to overlap themselves vertically.
func (m *regionMerger) mergeAndFilter(minRegionArea, mergeRegionSize int, maxRegionID *uint16, chf *CompactHeightfield, regionOf []uint16) []uint16 {
	w, h := chf.Width, chf.Height
	regionCount := int(*maxRegionID) + 1
	regions := m.reset(regionCount)

	// Count spans, find floors (the other regions of a region's columns,
	// and itself when it has two spans in one), and walk each region's
	// outline once from its first span on an edge.
	columns := &m.columns
	columns.reset(regionCount)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := chf.Cells[x+y*w]
			end := int(c.Index + c.Count)
			columns.start()
			for i := int(c.Index); i < end; i++ {
				if id := int(regionOf[i]); id != 0 && id < regionCount {
					columns.add(id)
				}
			}
			columns.addFloors(regions)
			for _, id := range columns.twice {
				regions[id].overlap = true
			}
			for i := int(c.Index); i < end; i++ {
				id := regionOf[i]
				if id == 0 || int(id) >= regionCount {
					continue
				}
				region := &regions[id]
				region.spanCount++

				if len(region.connections) > 0 {
					continue
				}
				region.areaType = chf.Areas[i]

				edgeDir := -1
				for dir := 0; dir < 4; dir++ {
					if isSolidEdge(chf, regionOf, x, y, i, dir) {
						edgeDir = dir
						break
					}
				}
				if edgeDir != -1 {
					region.connections = walkRegionOutline(x, y, i, edgeDir, chf, regionOf, region.connections)
				}
			}
		}
	}

	m.removeSmallRegionGroups(regions, minRegionArea)
	m.mergeSmallRegions(regions, mergeRegionSize)
	*maxRegionID = compressRegionIDs(regions)

	for i := range regionOf {
		if regionOf[i]&BorderRegion == 0 {
			regionOf[i] = regions[regionOf[i]].id
		}
	}

	var overlaps []uint16
	for i := range regions {
		if regions[i].overlap {
			overlaps = append(overlaps, regions[i].id)
		}
	}
	return overlaps
}

// removeSmallRegionGroups clears (id 0) every connected group of regions
// with fewer than minRegionArea spans in total that does not touch a border
// region.
func (m *regionMerger) removeSmallRegionGroups(regions []partitionRegion, minRegionArea int) {
	stack, trace := slices.Grow(m.stack[:0], 32), slices.Grow(m.trace[:0], 32)
	defer func() { m.stack, m.trace = stack, trace }()
	for i := range regions {
		region := &regions[i]
		if region.id == 0 || region.id&BorderRegion != 0 || region.spanCount == 0 || region.visited {
			continue
		}

		connectsToBorder := false
		spanCount := 0
		stack = stack[:0]
		trace = trace[:0]
		region.visited = true
		stack = append(stack, i)

		for len(stack) > 0 {
			current := &regions[stack[len(stack)-1]]
			trace = append(trace, stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			spanCount += current.spanCount

			for _, c := range current.connections {
				if c&int(BorderRegion) != 0 {
					connectsToBorder = true
					continue
				}
				neighbour := &regions[c]
				if neighbour.visited || neighbour.id == 0 || neighbour.id&BorderRegion != 0 {
					continue
				}
				stack = append(stack, int(neighbour.id))
				neighbour.visited = true
			}
		}

		if spanCount < minRegionArea && !connectsToBorder {
			for _, j := range trace {
				regions[j].spanCount = 0
				regions[j].id = 0
			}
		}
	}
}

// mergeSmallRegions repeatedly merges every small or enclosed region into
// its smallest neighbour that accepts it, until a pass merges nothing.
func (m *regionMerger) mergeSmallRegions(regions []partitionRegion, mergeRegionSize int) {
	scratch := m.connections[:0]
	defer func() { m.connections = scratch }()
	for {
		mergeCount := 0
		for i := range regions {
			region := &regions[i]
			if region.id == 0 || region.id&BorderRegion != 0 || region.overlap || region.spanCount == 0 {
				continue
			}
			// Large regions that reach a wall stay as they are.
			if region.spanCount > mergeRegionSize && region.connectedToBorder() {
				continue
			}

			smallest := 0xfffffff
			mergeID := region.id
			for _, c := range region.connections {
				if c&int(BorderRegion) != 0 {
					continue
				}
				candidate := &regions[c]
				if candidate.id == 0 || candidate.id&BorderRegion != 0 || candidate.overlap {
					continue
				}
				if candidate.spanCount < smallest && region.canMergeWith(candidate) && candidate.canMergeWith(region) {
					smallest = candidate.spanCount
					mergeID = candidate.id
				}
			}
			if mergeID == region.id {
				continue
			}

			oldID := region.id
			var merged bool
			merged, scratch = mergePartitionRegions(&regions[mergeID], region, scratch)
			if !merged {
				continue
			}
			for j := range regions {
				other := &regions[j]
				if other.id == 0 || other.id&BorderRegion != 0 {
					continue
				}
				if other.id == oldID {
					other.id = mergeID
				}
				other.replaceNeighbour(oldID, mergeID)
			}
			mergeCount++
		}
		if mergeCount == 0 {
			return
		}
	}
}

// compressRegionIDs renumbers the surviving non-border region ids 1..n in
// order of first appearance and returns n.
func compressRegionIDs(regions []partitionRegion) uint16 {
	for i := range regions {
		regions[i].remap = regions[i].id != 0 && regions[i].id&BorderRegion == 0
	}
	var next uint16
	for i := range regions {
		if !regions[i].remap {
			continue
		}
		oldID := regions[i].id
		next++
		for j := i; j < len(regions); j++ {
			if regions[j].id == oldID {
				regions[j].id = next
				regions[j].remap = false
			}
		}
	}
	return next
}
