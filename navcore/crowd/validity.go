package crowd

import (
	"slices"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// maxValidityRefs is the most polygons a validityCache remembers: a
// boundary's MaxLocalPolys, and more than the crowd's corridor look-ahead.
const maxValidityRefs = MaxLocalPolys

// validityCache remembers the last list of polygons found valid and what
// they were checked against: the mesh's snapshot and the filter's flags.
// The same polygons are valid again against the same snapshot and flags: a
// snapshot never changes (every change of the mesh, flags and areas
// included, publishes a new one) and a filter without Custom passes a
// polygon on its flags alone. A crowd checks the same polygons every tick,
// so this saves most of the lookups. Only lists found valid are kept.
//
// The snapshot is remembered by its stamp, not by pointer: an agent whose
// polygons are not checked for a while (one waiting for a path) would
// otherwise keep every tile version of an old snapshot in memory.
type validityCache struct {
	stamp            uint64 // navmesh.Snapshot.Stamp; 0 for none
	include, exclude uint16
	count            int
	refs             [maxValidityRefs]navmesh.Ref
}

// valid reports whether every polygon of refs exists and passes filter,
// with q's mesh (q.IsValidPolyRef for each: a nil filter passes none).
func (v *validityCache) valid(refs []navmesh.Ref, q *query.Query, filter *query.Filter) bool {
	if filter == nil {
		return len(refs) == 0
	}
	stamp := q.Mesh().Snapshot().Stamp()
	cacheable := filter.Custom == nil && len(refs) <= len(v.refs)
	if cacheable && v.stamp == stamp && v.include == filter.IncludeFlags &&
		v.exclude == filter.ExcludeFlags && slices.Equal(v.refs[:v.count], refs) {
		return true
	}
	for _, ref := range refs {
		if !q.IsValidPolyRef(ref, filter) {
			return false
		}
	}
	if cacheable {
		v.stamp, v.include, v.exclude = stamp, filter.IncludeFlags, filter.ExcludeFlags
		v.count = copy(v.refs[:], refs)
	}
	return true
}

// checkedAgainst reports whether the polygons the cache holds were found
// valid against q's mesh as it is now and filter's flags: then they are
// valid again (filter without Custom, as for every list the cache keeps).
func (v *validityCache) checkedAgainst(q *query.Query, filter *query.Filter) bool {
	return filter != nil && filter.Custom == nil && v.stamp != 0 &&
		v.stamp == q.Mesh().Snapshot().Stamp() && v.include == filter.IncludeFlags && v.exclude == filter.ExcludeFlags
}
