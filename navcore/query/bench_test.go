package query

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// benchPairCount is the number of random start/end pairs the benchmarks
// cycle through, as in the C++ reference runs.
const benchPairCount = 10000

// benchFixture is the dungeon tile, a Query on it and random point pairs
// with their nearest polygons and paths precomputed.
type benchFixture struct {
	q                  *Query
	filter             *Filter
	starts, ends       []geom.Vec3
	startRefs, endRefs []navmesh.Ref
	paths              [][]navmesh.Ref
}

func newBenchFixture(b *testing.B) *benchFixture {
	b.Helper()
	mesh := testmesh.Dungeon(b)
	q, err := New(mesh, 2048)
	require.NoError(b, err)
	f := &benchFixture{q: q, filter: referenceFilter()}
	rng := &testmesh.LCG{State: 12345}
	path := make([]navmesh.Ref, 256)
	for range benchPairCount {
		s, err := q.FindRandomPoint(f.filter, rng.Next)
		require.NoError(b, err)
		e, err := q.FindRandomPoint(f.filter, rng.Next)
		require.NoError(b, err)
		f.starts = append(f.starts, s.Pos)
		f.ends = append(f.ends, e.Pos)
		sn, err := q.FindNearestPoly(s.Pos, testmesh.DungeonHalfExtents, f.filter)
		require.NoError(b, err)
		en, err := q.FindNearestPoly(e.Pos, testmesh.DungeonHalfExtents, f.filter)
		require.NoError(b, err)
		f.startRefs = append(f.startRefs, sn.Ref)
		f.endRefs = append(f.endRefs, en.Ref)
		n, _, err := q.FindPath(sn.Ref, en.Ref, s.Pos, e.Pos, f.filter, path)
		require.NoError(b, err)
		f.paths = append(f.paths, append([]navmesh.Ref(nil), path[:n]...))
	}
	return f
}

func BenchmarkFindNearestPoly(b *testing.B) {
	f := newBenchFixture(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.q.FindNearestPoly(f.starts[i%benchPairCount], testmesh.DungeonHalfExtents, f.filter); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFindPath(b *testing.B) {
	f := newBenchFixture(b)
	path := make([]navmesh.Ref, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % benchPairCount
		if _, _, err := f.q.FindPath(f.startRefs[k], f.endRefs[k], f.starts[k], f.ends[k], f.filter, path); err != nil {
			b.Fatal(err)
		}
	}
}

// passThroughFilter is a CustomFilter with the default rules, to measure
// what the interface calls cost.
type passThroughFilter struct{ base *Filter }

func (p passThroughFilter) Passes(_ navmesh.Ref, _ *navmesh.Tile, poly *navmesh.Poly) bool {
	return p.base.DefaultPasses(poly)
}

func (p passThroughFilter) Cost(a, b geom.Vec3, _, cur, _ PolyContext) float32 {
	return p.base.DefaultCost(a, b, cur.Poly)
}

func BenchmarkFindPathCustomFilter(b *testing.B) {
	f := newBenchFixture(b)
	custom := referenceFilter()
	custom.Custom = passThroughFilter{base: referenceFilter()}
	path := make([]navmesh.Ref, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % benchPairCount
		if _, _, err := f.q.FindPath(f.startRefs[k], f.endRefs[k], f.starts[k], f.ends[k], custom, path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFindStraightPath(b *testing.B) {
	f := newBenchFixture(b)
	points := make([]StraightPathPoint, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % benchPairCount
		if _, _, err := f.q.FindStraightPath(f.starts[k], f.ends[k], f.paths[k], points, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWholePair is the reference "whole pair": two nearest-poly
// queries, a path and a straight path.
func BenchmarkWholePair(b *testing.B) {
	f := newBenchFixture(b)
	path := make([]navmesh.Ref, 256)
	points := make([]StraightPathPoint, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % benchPairCount
		start, _ := f.q.FindNearestPoly(f.starts[k], testmesh.DungeonHalfExtents, f.filter)
		end, _ := f.q.FindNearestPoly(f.ends[k], testmesh.DungeonHalfExtents, f.filter)
		n, _, err := f.q.FindPath(start.Ref, end.Ref, f.starts[k], f.ends[k], f.filter, path)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := f.q.FindStraightPath(f.starts[k], f.ends[k], path[:n], points, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// benchAround runs one local query per random start.
func benchAround(b *testing.B, run func(f *benchFixture, k int)) {
	f := newBenchFixture(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run(f, i%benchPairCount)
	}
}

func BenchmarkSlicedFindPath(b *testing.B) {
	path := make([]navmesh.Ref, 256)
	benchAround(b, func(f *benchFixture, k int) {
		status, _ := f.q.InitSlicedFindPath(f.startRefs[k], f.endRefs[k], f.starts[k], f.ends[k], f.filter, 0)
		for status.InProgress() {
			_, status, _ = f.q.UpdateSlicedFindPath(16)
		}
		_, _, _ = f.q.FinalizeSlicedFindPath(path)
	})
}

func BenchmarkRaycast(b *testing.B) {
	path := make([]navmesh.Ref, 64)
	benchAround(b, func(f *benchFixture, k int) {
		_, _, _ = f.q.Raycast(f.startRefs[k], f.starts[k], f.ends[k], f.filter, 0, 0, path)
	})
}

func BenchmarkMoveAlongSurface(b *testing.B) {
	visited := make([]navmesh.Ref, 16)
	benchAround(b, func(f *benchFixture, k int) {
		s := f.starts[k]
		_, _, _, _ = f.q.MoveAlongSurface(f.startRefs[k], s, geom.Vec3{s[0] + 1.5, s[1], s[2] - 1}, f.filter, visited)
	})
}

func BenchmarkFindLocalNeighbourhood(b *testing.B) {
	refs := make([]navmesh.Ref, 16)
	benchAround(b, func(f *benchFixture, k int) {
		_, _, _ = f.q.FindLocalNeighbourhood(f.startRefs[k], f.starts[k], 6, f.filter, refs, nil)
	})
}

func BenchmarkFindPolysAroundCircle(b *testing.B) {
	refs := make([]navmesh.Ref, 64)
	benchAround(b, func(f *benchFixture, k int) {
		_, _, _ = f.q.FindPolysAroundCircle(f.startRefs[k], f.starts[k], 6, f.filter, refs, nil, nil)
	})
}

func BenchmarkFindDistanceToWall(b *testing.B) {
	benchAround(b, func(f *benchFixture, k int) {
		_, _, _ = f.q.FindDistanceToWall(f.startRefs[k], f.starts[k], 6, f.filter)
	})
}

func BenchmarkPolyWallSegments(b *testing.B) {
	segments := make([]WallSegment, 32)
	benchAround(b, func(f *benchFixture, k int) {
		_, _, _ = f.q.PolyWallSegments(f.startRefs[k], f.filter, true, segments)
	})
}

func BenchmarkFindRandomPoint(b *testing.B) {
	rng := &testmesh.LCG{State: 9}
	benchAround(b, func(f *benchFixture, _ int) {
		_, _ = f.q.FindRandomPoint(f.filter, rng.Next)
	})
}
