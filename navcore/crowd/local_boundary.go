package crowd

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Capacities of a LocalBoundary (MAX_LOCAL_SEGS and MAX_LOCAL_POLYS).
const (
	// MaxLocalSegments is the most wall segments a boundary keeps.
	MaxLocalSegments = 8
	// MaxLocalPolys is the most polygons a boundary gathers them from.
	MaxLocalPolys = 16
)

// BoundarySegment is a wall segment near an agent.
type BoundarySegment struct {
	// P and Q are the ends, in the polygon's winding (the walkable side is
	// on the left of P→Q seen from above) [Units: world units]
	P, Q geom.Vec3
	// DistanceSqr is the squared xz distance from the boundary's centre
	// when it was found [Units: world units²]
	DistanceSqr float32
}

// LocalBoundary holds the wall segments around an agent, nearest first, and
// the polygons they were gathered from (dtLocalBoundary). It is a plain value
// with fixed-size arrays, meant to live in an agent's component; nothing in
// it allocates.
type LocalBoundary struct {
	center       geom.Vec3
	segments     [MaxLocalSegments]BoundarySegment
	segmentCount int
	polys        [MaxLocalPolys]navmesh.Ref
	polyCount    int
	// polysCached says validity holds exactly polys[:polyCount] (only
	// Update and Reset change them, and they drop it).
	polysCached bool
	validity    validityCache
}

// NewLocalBoundary returns an empty boundary (centre at +MaxFloat32, as after
// Reset). The zero LocalBoundary is empty too, but centred on the origin.
func NewLocalBoundary() LocalBoundary {
	var b LocalBoundary
	b.Reset()
	return b
}

// Reset forgets the segments and polygons and moves the centre far away, so
// that any distance check asks for an update.
func (b *LocalBoundary) Reset() {
	b.center = geom.Vec3{floatMax, floatMax, floatMax}
	b.segmentCount = 0
	b.polyCount = 0
	b.polysCached = false
}

// Center returns where the boundary was last gathered around.
func (b *LocalBoundary) Center() geom.Vec3 { return b.center }

// SegmentCount returns the number of segments, at most MaxLocalSegments.
func (b *LocalBoundary) SegmentCount() int { return b.segmentCount }

// Segment returns segment i, nearest first [Limit: 0..SegmentCount()-1]; the
// zero BoundarySegment for an i outside that range.
func (b *LocalBoundary) Segment(i int) BoundarySegment {
	if i < 0 || i >= b.segmentCount {
		return BoundarySegment{}
	}
	return b.segments[i]
}

// Segments returns the segments, nearest first. The slice aliases the
// boundary and changes with it.
func (b *LocalBoundary) Segments() []BoundarySegment { return b.segments[:b.segmentCount] }

// Polys returns the polygons the segments were gathered from. The slice
// aliases the boundary and changes with it.
func (b *LocalBoundary) Polys() []navmesh.Ref { return b.polys[:b.polyCount] }

// insertSegment keeps the MaxLocalSegments nearest segments, sorted by
// distance; a segment as far as the farthest kept one goes after it, and one
// that does not fit is dropped (dtLocalBoundary::addSegment).
func (b *LocalBoundary) insertSegment(distSqr float32, p, q geom.Vec3) {
	var at int
	switch {
	case b.segmentCount == 0:
		at = 0
	case distSqr >= b.segments[b.segmentCount-1].DistanceSqr:
		if b.segmentCount >= MaxLocalSegments {
			return
		}
		at = b.segmentCount
	default:
		for at = 0; at < b.segmentCount; at++ {
			if distSqr <= b.segments[at].DistanceSqr {
				break
			}
		}
		moved := min(b.segmentCount-at, MaxLocalSegments-(at+1))
		if moved > 0 {
			copy(b.segments[at+1:at+1+moved], b.segments[at:at+moved])
		}
	}
	b.segments[at] = BoundarySegment{P: p, Q: q, DistanceSqr: distSqr}
	if b.segmentCount < MaxLocalSegments {
		b.segmentCount++
	}
}
