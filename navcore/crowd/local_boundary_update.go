package crowd

import (
	"fmt"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// maxSegmentsPerPoly bounds the wall pieces one polygon yields
// (MAX_SEGS_PER_POLY: three per edge).
const maxSegmentsPerPoly = navmesh.MaxVertsPerPoly * 3

// Update gathers the boundary around pos, which lies in polygon ref: the
// polygons of the local neighbourhood within collisionQueryRange (at most
// MaxLocalPolys, see query.FindLocalNeighbourhood) and, of their wall
// segments, the MaxLocalSegments nearest to pos within that range
// (dtLocalBoundary::update). A zero ref empties the boundary, as Reset does.
//
// When the neighbourhood search fails (stale ref, bad position...) the
// boundary is left empty, centred on pos, and the error is returned; a nil q
// is an ErrInvalidParam error and changes nothing.
//
// collisionQueryRange [Limit: >= 0] [Units: world units]
func (b *LocalBoundary) Update(ref navmesh.Ref, pos geom.Vec3, collisionQueryRange float32, q *query.Query, filter *query.Filter) error {
	if err := checkQuery("local boundary update", q); err != nil {
		return err
	}
	if ref == 0 {
		b.Reset()
		return nil
	}
	b.center = pos
	b.segmentCount = 0
	b.polyCount = 0
	b.polysCached = false

	n, _, err := q.FindLocalNeighbourhood(ref, pos, collisionQueryRange, filter, b.polys[:], nil)
	if err != nil {
		return fmt.Errorf("crowd: local boundary update: %w", err)
	}
	b.polyCount = n

	rangeSqr := collisionQueryRange * collisionQueryRange
	center := fastgeom.FromVec3(pos)
	var walls [maxSegmentsPerPoly]query.WallSegment
	for _, poly := range b.polys[:b.polyCount] {
		// A polygon whose tile went away since the neighbourhood search
		// yields no walls, as in the reference; IsValid then fails.
		count, _, err := q.PolyWallSegments(poly, filter, false, walls[:])
		if err != nil {
			continue
		}
		for i := range walls[:count] {
			wall := &walls[i]
			distSqr, _ := fastgeom.DistancePtSegSqr2D(center, fastgeom.Load(&wall.Start), fastgeom.Load(&wall.End))
			if distSqr > rangeSqr {
				continue
			}
			b.insertSegment(distSqr, wall.Start, wall.End)
		}
	}
	return nil
}

// IsValid reports whether every polygon the boundary was gathered from still
// exists and passes filter; an empty boundary is not valid
// (dtLocalBoundary::isValid). It is false for a nil q or filter too.
func (b *LocalBoundary) IsValid(q *query.Query, filter *query.Filter) bool {
	if b.polyCount == 0 || q == nil {
		return false
	}
	// A crowd asks every tick: while the cache holds these very polygons,
	// the snapshot and the filter's flags say it all, without reading the
	// polygon lists.
	if b.polysCached && b.validity.checkedAgainst(q, filter) {
		return true
	}
	valid := b.validity.valid(b.polys[:b.polyCount], q, filter)
	b.polysCached = valid && filter != nil && filter.Custom == nil
	return valid
}
