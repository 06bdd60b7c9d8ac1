package tilecache

import (
	"errors"
	"fmt"
)

// noRegion marks a cell without a region (and, in the contour code, a wall).
const noRegion = 0xff

// maxRegionNeighbours is the size of a monotone region's neighbour list
// (DT_LAYER_MAX_NEIS). The C++ writes past it when a region has more;
// here further neighbours are left out of the merge.
const maxRegionNeighbours = 16

// ErrLayerTooComplex is wrapped when a layer cannot be turned into a tile:
// more than 254 regions, or a contour longer than twice the layer's border.
// The C++ fails on the same layers (DT_BUFFER_TOO_SMALL).
var ErrLayerTooComplex = errors.New("tilecache: layer too complex")

// sweepSpan is one run of connected cells of a row (dtLayerSweepSpan).
type sweepSpan struct {
	samples   uint16 // cells of the run connected to the row below
	id        uint8  // the region the run ends up in
	neighbour uint8  // the single region below it, noRegion for several
}

// monotoneRegion is one region of the partition (dtLayerMonotoneRegion).
type monotoneRegion struct {
	area           int
	neighbours     [maxRegionNeighbours]uint8
	neighbourCount uint8
	regionID       uint8
	areaID         uint8
}

// addNeighbour appends v unless it is the last neighbour already
// (addUniqueLast), dropping it when the list is full.
func (r *monotoneRegion) addNeighbour(v uint8) {
	n := int(r.neighbourCount)
	if n > 0 && r.neighbours[n-1] == v {
		return
	}
	if n == maxRegionNeighbours {
		return
	}
	r.neighbours[n] = v
	r.neighbourCount++
}

// connected reports whether cells ia and ib of a layer are walkable into
// each other: same area, heights within climb (isConnected).
func connected(areas, heights []byte, ia, ib, climb int) bool {
	if areas[ia] != areas[ib] {
		return false
	}
	d := int(heights[ia]) - int(heights[ib])
	return d <= climb && -d <= climb
}

// buildRegions partitions the walkable cells of the layer into monotone
// regions and merges them (dtBuildTileCacheRegions): b.regs gets each cell's
// region, b.regionCount the number of regions.
func (b *builder) buildRegions(climb int) error {
	l := &b.layer
	w, h := int(l.Header.Width), int(l.Header.Height)
	areas, heights := l.Areas[:w*h], l.Heights[:w*h]
	regs := b.regs[:w*h]
	fill(regs, noRegion)
	sweeps := b.sweeps[:w]
	clear(sweeps)

	var prevCount [256]uint8
	regionID := 0
	all := b.regions[:256]
	var below [MaxLayerSide]bool // cell connected to the one below (-y)
	for y := range h {
		clear(prevCount[:regionID])
		sweepID := 0
		row := y * w
		ra, rh, rr := areas[row:row+w], heights[row:row+w], regs[row:row+w]
		// The row below; for row 0 a copy of this row, never looked at.
		ba, bh, br := ra, rh, rr
		if y > 0 {
			ba, bh, br = areas[row-w:row], heights[row-w:row], regs[row-w:row]
		}
		conn := below[:w]
		for x, area := range ra {
			conn[x] = false
			if area == NullArea {
				continue
			}
			height := int(rh[x])
			sid := uint8(noRegion)
			if x > 0 && ra[x-1] == area && rr[x-1] != noRegion {
				if d := height - int(rh[x-1]); d <= climb && -d <= climb {
					sid = rr[x-1]
				}
			}
			if sid == noRegion {
				sid = uint8(sweepID)
				sweepID++
				sweeps[sid].neighbour = noRegion
				sweeps[sid].samples = 0
			}
			// A walkable cell below with the same area always has a region.
			if y > 0 && ba[x] == area {
				if d := height - int(bh[x]); d <= climb && -d <= climb {
					conn[x] = true
					nr := br[x]
					// The first region below sets the neighbour; a second
					// one invalidates it.
					s := &sweeps[sid]
					if s.samples == 0 {
						s.neighbour = nr
					}
					if s.neighbour == nr {
						s.samples++
						prevCount[nr]++
					} else {
						s.neighbour = noRegion
					}
				}
			}
			rr[x] = sid
		}
		// A run with one continuous connection to one region below joins
		// it; any other run starts a region.
		for i := range sweepID {
			s := &sweeps[i]
			if s.neighbour != noRegion && uint16(prevCount[s.neighbour]) == s.samples {
				s.id = s.neighbour
				continue
			}
			if regionID == 255 {
				return fmt.Errorf("tilecache: build regions: more than 254 regions: %w", ErrLayerTooComplex)
			}
			s.id = uint8(regionID)
			all[regionID] = monotoneRegion{}
			regionID++
		}
		// Region ids for the row, and with them the regions' sizes, areas
		// and neighbours below (in the C++'s row-major order, both ways).
		for x, r := range rr {
			if r == noRegion {
				continue
			}
			ri := sweeps[r].id
			rr[x] = ri
			reg := &all[ri]
			reg.area++
			reg.areaID = ra[x]
			if conn[x] {
				if rai := br[x]; rai != ri {
					reg.addNeighbour(rai)
					all[rai].addNeighbour(ri)
				}
			}
		}
	}
	regions := all[:regionID]
	for i := range regions {
		regions[i].regionID = uint8(i)
	}
	// Merge each region into its largest mergeable neighbour of the same
	// area.
	for i := range regions {
		reg := &regions[i]
		merge, mergeArea := -1, 0
		for _, nei := range reg.neighbours[:reg.neighbourCount] {
			other := &regions[nei]
			if reg.regionID == other.regionID || reg.areaID != other.areaID {
				continue
			}
			if other.area > mergeArea && canMergeRegions(reg.regionID, other.regionID, regions) {
				mergeArea = other.area
				merge = int(nei)
			}
		}
		if merge != -1 {
			oldID, newID := reg.regionID, regions[merge].regionID
			for j := range regions {
				if regions[j].regionID == oldID {
					regions[j].regionID = newID
				}
			}
		}
	}
	// Compact the ids.
	var remap [256]uint8
	for i := range regions {
		remap[regions[i].regionID] = 1
	}
	count := 0
	for i := range remap {
		if remap[i] != 0 {
			remap[i] = uint8(count)
			count++
		}
	}
	identity := true
	for i := range regions {
		regions[i].regionID = remap[regions[i].regionID]
		identity = identity && regions[i].regionID == uint8(i)
	}
	b.regionCount = count
	if identity {
		return nil
	}
	for i, r := range regs {
		if r != noRegion {
			regs[i] = regions[r].regionID
		}
	}
	return nil
}

// canMergeRegions reports whether the regions with id oldID border the
// regions with id newID exactly once (canMerge).
func canMergeRegions(oldID, newID uint8, regions []monotoneRegion) bool {
	count := 0
	for i := range regions {
		reg := &regions[i]
		if reg.regionID != oldID {
			continue
		}
		for _, nei := range reg.neighbours[:reg.neighbourCount] {
			if regions[nei].regionID == newID {
				count++
			}
		}
	}
	return count == 1
}
