package sim

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// mainRegion returns the polygons of the mesh's largest connected region
// (by walkable area, linked through polygon edges, tile borders and
// off-mesh connections). Random spawn points and targets come from it, so
// no agent starts on an island it cannot leave, such as the top of a wall.
func mainRegion(mesh *navmesh.Mesh) map[navmesh.Ref]bool {
	snap := mesh.Snapshot()
	region := map[navmesh.Ref]int{} // polygon -> region id
	var areas []float32
	var queue []navmesh.Ref
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil || tile.Header == nil {
			continue
		}
		base := tile.PolyRefBase()
		for p := range tile.Polys {
			start := base | navmesh.Ref(p)
			if _, seen := region[start]; seen {
				continue
			}
			id := len(areas)
			areas = append(areas, 0)
			region[start] = id
			queue = append(queue[:0], start)
			for len(queue) > 0 {
				ref := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				t, poly, err := snap.TileAndPoly(ref)
				if err != nil {
					continue
				}
				areas[id] += polygonArea(t, poly)
				for l := poly.FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
					next := t.Links[l].Ref
					if _, seen := region[next]; !seen && next != 0 {
						region[next] = id
						queue = append(queue, next)
					}
				}
			}
		}
	}
	largest := 0
	for id, area := range areas {
		if area > areas[largest] {
			largest = id
		}
	}
	out := map[navmesh.Ref]bool{}
	for ref, id := range region {
		if id == largest {
			out[ref] = true
		}
	}
	return out
}

// polygonArea is the xz area of a ground polygon (0 for off-mesh ones).
func polygonArea(tile *navmesh.Tile, poly *navmesh.Poly) float32 {
	if poly.Type() != navmesh.PolyTypeGround {
		return 0
	}
	var area float32
	first := tile.Verts[poly.Verts[0]]
	for i := 2; i < int(poly.VertCount); i++ {
		area += geom.Abs(geom.TriArea2D(first, tile.Verts[poly.Verts[i-1]], tile.Verts[poly.Verts[i]])) / 2
	}
	return area
}

// regionFilter passes only the polygons of one region.
type regionFilter struct {
	polygons map[navmesh.Ref]bool
}

var _ query.CustomFilter = regionFilter{}

// Passes reports whether ref is in the region.
func (f regionFilter) Passes(ref navmesh.Ref, _ *navmesh.Tile, _ *navmesh.Poly) bool {
	return f.polygons[ref]
}

// Cost is the straight distance (the filter is only used to pick points).
func (f regionFilter) Cost(a, b geom.Vec3, _, _, _ query.PolyContext) float32 {
	return geom.Dist(a, b)
}

// newRegionFilter returns a filter passing only the mesh's main region.
func newRegionFilter(mesh *navmesh.Mesh) *query.Filter {
	f := query.NewFilter()
	f.Custom = regionFilter{polygons: mainRegion(mesh)}
	return f
}

// randomTries bounds the draws of randomPoint.
const randomTries = 64

// randomPoint returns a random point of the main region. Detour's random
// point picks a tile first, with every tile equally likely, so a draw fails
// when it lands on a tile holding no polygon of the region; it is drawn
// again.
func randomPoint(q *query.Query, region *query.Filter, random func() float32) (query.RandomPoint, error) {
	var err error
	for try := 0; try < randomTries; try++ {
		var point query.RandomPoint
		if point, err = q.FindRandomPoint(region, random); err == nil {
			return point, nil
		}
	}
	return query.RandomPoint{}, err
}
