package benchmarks

import "testing"

// BenchmarkQuery runs the reference query workload on the solo mesh of each
// level: 10,000 seeded random pairs (FindRandomPoint), half extents
// (2, 4, 2), include 0xffef / exclude 0, a 2048-node pool, corridors and
// straight paths of at most 256. One op is one call; the calls cycle
// through the pairs. C++ (µs per call, nearest / path / straight / whole
// pair): dungeon 0.385 / 3.02 / 0.868 / 4.81, nav_test 0.463 / 2.69 /
// 0.458 / 4.26, undulating 1.413 / 3.13 / 0.730 / 6.90.
//
// Every sub-benchmark also reports the shape of its workload: partial-paths
// (of the 10,000 pairs) and mean-polys (corridor length). The C++ drew its
// pairs with rand(), so these differ from its table's.
func BenchmarkQuery(b *testing.B) {
	for _, level := range levels {
		b.Run(level+"/nearest", func(b *testing.B) {
			set, r := queryFixture(b, level)
			n := set.len()
			b.ResetTimer()
			for i := range b.N {
				k := i % (2 * n)
				center := set.starts[k%n]
				if k >= n {
					center = set.ends[k-n]
				}
				if _, err := r.q.FindNearestPoly(center, halfExtents, r.filter); err != nil {
					b.Fatal(err)
				}
			}
			reportWorkload(b, set)
		})
		b.Run(level+"/path", func(b *testing.B) {
			set, r := queryFixture(b, level)
			n := set.len()
			b.ResetTimer()
			for i := range b.N {
				k := i % n
				if _, _, err := r.q.FindPath(set.startRefs[k], set.endRefs[k], set.starts[k], set.ends[k], r.filter, r.path); err != nil {
					b.Fatal(err)
				}
			}
			reportWorkload(b, set)
		})
		b.Run(level+"/straight", func(b *testing.B) {
			set, r := queryFixture(b, level)
			n := set.len()
			b.ResetTimer()
			for i := range b.N {
				k := i % n
				if _, _, err := r.q.FindStraightPath(set.starts[k], set.ends[k], set.paths[k], r.points, 0); err != nil {
					b.Fatal(err)
				}
			}
			reportWorkload(b, set)
		})
		b.Run(level+"/pair", func(b *testing.B) {
			set, r := queryFixture(b, level)
			n := set.len()
			b.ResetTimer()
			for i := range b.N {
				if _, err := r.run(set, i%n); err != nil {
					b.Fatal(err)
				}
			}
			reportWorkload(b, set)
		})
	}
}

// queryFixture returns the workload of level and a runner on its solo mesh,
// with allocations reported.
func queryFixture(b *testing.B, level string) (*pairSet, *pairRunner) {
	b.Helper()
	set := soloPairs(b, level)
	r, err := newPairRunner(soloMesh(b, level))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	return set, r
}

// reportWorkload reports the shape of the pair set as metrics.
func reportWorkload(b *testing.B, set *pairSet) {
	b.ReportMetric(float64(set.partial), "partial-paths")
	b.ReportMetric(set.meanPolys, "mean-polys")
}
