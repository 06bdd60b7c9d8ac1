package hierarchy

import (
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

func BenchmarkZZ(b *testing.B) {
	level := bigBenchLevel(b)
	for _, class := range []string{"long"} {
		pairs := level.classes[class]
		b.Run(class, func(b *testing.B) {
			q, _ := query.New(level.mesh, 2048)
			s, _ := NewSearcher(q, level.hierarchy)
			path := make([]navmesh.Ref, 8192)
			timer := startCPUTimer(b)
			for i := 0; i < b.N; i++ {
				p := &pairs[i%len(pairs)]
				s.FindPath(p.startRef, p.endRef, p.start, p.end, level.filter, path)
			}
			timer.stop(b)
		})
	}
}
