package benchmarks

import (
	"fmt"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// The reference query workload (see the reference README's query table).
const (
	// pairCount is the number of random start/end pairs per level.
	pairCount = 10000
	// pairSeed seeds the random source of the pairs.
	pairSeed = 12345
	// queryNodes is the node pool of every benchmark Query.
	queryNodes = 2048
	// maxPath bounds the corridors and the straight paths [Units: polygons, points]
	maxPath = 256
	// includeFlags are every flag but RecastDemo's "disabled" (0x10); the
	// exclude flags are 0.
	includeFlags = 0xffef
)

// halfExtents is the nearest-polygon search box of the reference queries
// [Units: world units].
var halfExtents = geom.Vec3{2, 4, 2}

// referenceFilter returns the filter of the reference queries.
func referenceFilter() *query.Filter {
	f := query.NewFilter()
	f.IncludeFlags = includeFlags
	f.ExcludeFlags = 0
	return f
}

// lcg is a small seeded random source of float32 values in [0, 1): a 64-bit
// linear congruential generator (Knuth's MMIX constants) whose top 24 bits
// make the value. It is not the C++ rand() of the reference runs, so our
// pairs are other pairs than theirs.
type lcg struct{ state uint64 }

func (r *lcg) next() float32 {
	r.state = r.state*6364136223846793005 + 1442695040888963407
	return float32(r.state>>40) / float32(1<<24)
}

// pairSet is the query workload of one mesh: random start and end points,
// their nearest polygons and the corridor between them, and the shape of the
// workload the reference table reports (partial paths, mean corridor length).
type pairSet struct {
	starts, ends       []geom.Vec3
	startRefs, endRefs []navmesh.Ref
	paths              [][]navmesh.Ref
	// partial counts the pairs whose path search ended partial (the end is
	// not reachable from the start, or the node pool ran out).
	partial int
	// meanPolys is the mean corridor length over the pairs [Units: polygons]
	meanPolys float64
}

// newPairSet picks n pairs of random points on mesh with a source seeded
// with seed (start then end, pair after pair), and runs the nearest-polygon
// and path queries of each once to record the workload.
func newPairSet(mesh *navmesh.Mesh, n int, seed uint64) (*pairSet, error) {
	q, err := query.New(mesh, queryNodes)
	if err != nil {
		return nil, err
	}
	filter := referenceFilter()
	rng := &lcg{state: seed}
	set := &pairSet{}
	path := make([]navmesh.Ref, maxPath)
	polys := 0
	for i := range n {
		start, err := q.FindRandomPoint(filter, rng.next)
		if err != nil {
			return nil, fmt.Errorf("pair %d: random start: %w", i, err)
		}
		end, err := q.FindRandomPoint(filter, rng.next)
		if err != nil {
			return nil, fmt.Errorf("pair %d: random end: %w", i, err)
		}
		startPoly, err := q.FindNearestPoly(start.Pos, halfExtents, filter)
		if err != nil {
			return nil, fmt.Errorf("pair %d: nearest start: %w", i, err)
		}
		endPoly, err := q.FindNearestPoly(end.Pos, halfExtents, filter)
		if err != nil {
			return nil, fmt.Errorf("pair %d: nearest end: %w", i, err)
		}
		count, status, err := q.FindPath(startPoly.Ref, endPoly.Ref, start.Pos, end.Pos, filter, path)
		if err != nil {
			return nil, fmt.Errorf("pair %d: path: %w", i, err)
		}
		if status.Partial() {
			set.partial++
		}
		polys += count
		set.starts = append(set.starts, start.Pos)
		set.ends = append(set.ends, end.Pos)
		set.startRefs = append(set.startRefs, startPoly.Ref)
		set.endRefs = append(set.endRefs, endPoly.Ref)
		set.paths = append(set.paths, append([]navmesh.Ref(nil), path[:count]...))
	}
	if n > 0 {
		set.meanPolys = float64(polys) / float64(n)
	}
	return set, nil
}

// len returns the number of pairs.
func (s *pairSet) len() int { return len(s.starts) }

// soloPairs returns the reference workload on the solo mesh of level name,
// built once per process.
func soloPairs(tb testing.TB, name string) *pairSet {
	tb.Helper()
	mesh := soloMesh(tb, name)
	set, err := pairCache.get("solo/"+name, func() (*pairSet, error) {
		return newPairSet(mesh, pairCount, pairSeed)
	})
	if err != nil {
		tb.Fatalf("pairs on %s: %v", name, err)
	}
	return set
}

var pairCache cache[*pairSet]

// pairRunner runs whole pairs, as the reference's "whole pair" column:
// the nearest polygons of both ends, the path between them and its
// straight path. Each goroutine needs a runner of its own.
type pairRunner struct {
	q      *query.Query
	filter *query.Filter
	path   []navmesh.Ref
	points []query.StraightPathPoint
}

func newPairRunner(mesh *navmesh.Mesh) (*pairRunner, error) {
	q, err := query.New(mesh, queryNodes)
	if err != nil {
		return nil, err
	}
	return &pairRunner{
		q:      q,
		filter: referenceFilter(),
		path:   make([]navmesh.Ref, maxPath),
		points: make([]query.StraightPathPoint, maxPath),
	}, nil
}

// run runs pair k of set and returns the number of straight path points.
func (r *pairRunner) run(set *pairSet, k int) (int, error) {
	start, err := r.q.FindNearestPoly(set.starts[k], halfExtents, r.filter)
	if err != nil {
		return 0, err
	}
	end, err := r.q.FindNearestPoly(set.ends[k], halfExtents, r.filter)
	if err != nil {
		return 0, err
	}
	n, _, err := r.q.FindPath(start.Ref, end.Ref, set.starts[k], set.ends[k], r.filter, r.path)
	if err != nil {
		return 0, err
	}
	points, _, err := r.q.FindStraightPath(set.starts[k], set.ends[k], r.path[:n], r.points, 0)
	return points, err
}
