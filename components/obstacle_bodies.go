package components

import (
	"github.com/archenav/archenav/navcore/crowd"
)

// ObstacleBodies is the resource listing this tick's obstacle bodies,
// filled by the ObstacleSync stage and read by VelocitySampling and
// CollisionResolve, with an index of their bounds to find those near an
// agent. Near may be called from any number of goroutines between two
// Index calls.
type ObstacleBodies struct {
	// List holds the bodies in the order of the obstacle entities. Call
	// Index after changing it.
	List []ObstacleBody

	grid     *crowd.ProximityGrid
	capacity int
	// large lists the bodies too big for the grid; every query sees them.
	large []uint32
}

// Bounds of the bodies' index.
const (
	// bodyCellSize is the side of the index's cells [Units: world units]
	bodyCellSize = float32(2)
	// maxBodyCells is the most cells a body is indexed in; a bigger body
	// is found by every query.
	maxBodyCells = 64
)

// Index rebuilds the index of List's bounds. It allocates only when the
// bodies need more room than ever before.
func (b *ObstacleBodies) Index() {
	b.large = b.large[:0]
	need := 0
	for i := range b.List {
		if cells := bodyCells(&b.List[i].Footprint); cells <= maxBodyCells {
			need += cells
		}
	}
	if b.grid == nil || need > b.capacity {
		b.capacity = max(64, 2*need)
		b.grid, _ = crowd.NewProximityGrid(b.capacity, bodyCellSize)
	}
	b.grid.Clear()
	for i := range b.List {
		f := &b.List[i].Footprint
		if bodyCells(f) > maxBodyCells {
			b.large = append(b.large, uint32(i))
			continue
		}
		minX, minZ, maxX, maxZ := f.Bounds()
		if b.grid.Add(uint32(i), minX, minZ, maxX, maxZ) != nil {
			b.large = append(b.large, uint32(i))
		}
	}
}

// bodyCells returns how many index cells the footprint's bounds touch, at
// least 1, saturating far above maxBodyCells.
func bodyCells(f *Footprint) int {
	minX, minZ, maxX, maxZ := f.Bounds()
	w := float32((maxX-minX)/bodyCellSize) + 2
	h := float32((maxZ-minZ)/bodyCellSize) + 2
	if !(w*h < 1<<20) { // NaN too
		return 1 << 20
	}
	return int(w * h)
}

// Near writes into dst the indices in List of the bodies whose bounds may
// overlap the xz rectangle [minX, maxX] × [minZ, maxZ], each once, and
// returns how many it wrote (at most len(dst)).
func (b *ObstacleBodies) Near(minX, minZ, maxX, maxZ float32, dst []uint32) int {
	n := 0
	if b.grid != nil {
		n = b.grid.QueryItems(minX, minZ, maxX, maxZ, dst)
	}
	for _, i := range b.large {
		if n == len(dst) {
			break
		}
		dst[n] = i
		n++
	}
	return n
}
