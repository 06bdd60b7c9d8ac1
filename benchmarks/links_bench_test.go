package benchmarks

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// linkEnds returns n seeded random pairs of points on mesh, a link's ends.
func linkEnds(b *testing.B, mesh *navmesh.Mesh, n int) []navmesh.LinkDesc {
	q, err := query.New(mesh, 64)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(28, 28))
	random := func() float32 { return rng.Float32() }
	filter := query.NewFilter()
	links := make([]navmesh.LinkDesc, n)
	for i := range links {
		s, err := q.FindRandomPoint(filter, random)
		if err != nil {
			b.Fatal(err)
		}
		e, err := q.FindRandomPoint(filter, random)
		if err != nil {
			b.Fatal(err)
		}
		links[i] = navmesh.LinkDesc{Start: s.Pos, End: e.Pos, Radius: 1, Bidirectional: i%2 == 0, Flags: 1}
	}
	return links
}

// BenchmarkLinks measures runtime links on the 1 km level (2809 tiles):
// adding 1000 links between random points of the level one by one (a
// snapshot swap each) and removing them again, beside a tile rebuild (one
// tile baked again from the level's triangles and swapped in, what a
// change of the level costs without links), in one run; and a path
// search through a link between two islands, whose allocs/op is the
// steady state of a query.
func BenchmarkLinks(b *testing.B) {
	params := bigworld.Default()
	mesh, err := params.CachedMesh(context.Background(), 0)
	if err != nil {
		b.Fatal(err)
	}
	links := linkEnds(b, mesh, 1000)

	b.Run("add-remove-1000-links", func(b *testing.B) {
		ids := make([]navmesh.LinkID, len(links))
		b.ReportAllocs()
		timer := startCPUTimer(b)
		for range b.N {
			for i, l := range links {
				if ids[i], err = mesh.AddLink(l); err != nil {
					b.Fatal(err)
				}
			}
			for _, id := range ids {
				if err := mesh.RemoveLink(id); err != nil {
					b.Fatal(err)
				}
			}
		}
		timer.stop(b)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*len(links)), "ns/link-change")
	})

	b.Run("tile-rebuild", func(b *testing.B) {
		g, err := params.Geometry()
		if err != nil {
			b.Fatal(err)
		}
		baker, err := bake.NewTileBaker(g, bigworld.Settings(), bake.TiledOptions{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		var batch navmesh.Batch
		b.ReportAllocs()
		timer := startCPUTimer(b)
		for i := range b.N {
			tile, err := baker.BuildTile(context.Background(), 26+i%4, 26)
			if err != nil {
				b.Fatal(err)
			}
			batch.Reset()
			batch.Replace(tile.Data)
			if _, err := mesh.Apply(&batch, nil); err != nil {
				b.Fatal(err)
			}
		}
		timer.stop(b)
	})

	b.Run("find-path-through-link", func(b *testing.B) {
		q, err := query.New(mesh, 4096)
		if err != nil {
			b.Fatal(err)
		}
		filter := query.NewFilter()
		// Two roofs far apart, joined by a link.
		start, end := geom.Vec3{603.6, 22.73, 151.8}, geom.Vec3{896.4, -0.869, 557.1}
		s, err := q.FindNearestPoly(start, geom.Vec3{2, 4, 2}, filter)
		if err != nil || s.Ref == 0 {
			b.Fatal("no start polygon", err)
		}
		e, err := q.FindNearestPoly(end, geom.Vec3{2, 4, 2}, filter)
		if err != nil || e.Ref == 0 {
			b.Fatal("no end polygon", err)
		}
		id, err := mesh.AddLink(navmesh.LinkDesc{Start: s.Point, End: e.Point, Radius: 1, Bidirectional: true, Flags: 1})
		if err != nil {
			b.Fatal(err)
		}
		defer mesh.RemoveLink(id)
		path := make([]navmesh.Ref, 256)
		b.ReportAllocs()
		timer := startCPUTimer(b)
		for range b.N {
			n, status, err := q.FindPath(s.Ref, e.Ref, s.Point, e.Point, filter, path)
			if err != nil || status.Partial() || n == 0 {
				b.Fatal("no complete path", status, err)
			}
		}
		timer.stop(b)
	})
}
