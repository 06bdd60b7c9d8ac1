package hierarchy

import (
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPortalsMatchQuery: this package's portal of every link is
// query.Query.PortalPoints', on tiled levels with border links and off-mesh
// connections.
func TestPortalsMatchQuery(t *testing.T) {
	for _, mesh := range []*navmesh.Mesh{testMesh(t, "dungeon"), testMesh(t, "bigworld"), offMeshDungeon(t, true), offMeshDungeon(t, false)} {
		q, err := query.New(mesh, 64)
		require.NoError(t, err)
		snap := mesh.Snapshot()
		links := 0
		for i := range snap.MaxTiles() {
			tile := snap.Tile(i)
			if tile == nil {
				continue
			}
			for ip := range tile.Polys {
				from := tile.PolyRefBase() | navmesh.Ref(ip)
				poly := &tile.Polys[ip]
				for l := poly.FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
					link := &tile.Links[l]
					if findLink(tile, poly, link.Ref) != link {
						continue // query uses the first link to a polygon
					}
					toTile, toPoly, err := snap.TileAndPoly(link.Ref)
					require.NoError(t, err)
					wantLeft, wantRight, _, _, err := q.PortalPoints(from, link.Ref)
					require.NoError(t, err)
					left, right := portalOf(tile, poly, link, from, toTile, toPoly)
					require.Equal(t, wantLeft, left)
					require.Equal(t, wantRight, right)
					wantMid, err := q.EdgeMidPoint(from, link.Ref)
					require.NoError(t, err)
					require.Equal(t, wantMid, portalMid(tile, poly, link, from, toTile, toPoly))
					links++
				}
			}
		}
		assert.Positive(t, links)
	}
}

// TestCorridorCost checks CorridorCost against the sum it documents,
// written with query's portals and the filter's Cost.
func TestCorridorCost(t *testing.T) {
	mesh := testMesh(t, "dungeon")
	filter := demoFilter()
	filter.AreaCost[0] = 1.5
	q, _ := query.New(mesh, 4096)
	snap := mesh.Snapshot()
	path := make([]navmesh.Ref, 1024)
	checked := 0
	for _, p := range randomPairs(t, mesh, filter, 50, 21) {
		n, _, err := q.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
		require.NoError(t, err)
		want := float32(0)
		pos := p.start
		for k := 0; k < n; k++ {
			next := p.end
			if k+1 < n {
				next, err = q.EdgeMidPoint(path[k], path[k+1])
				require.NoError(t, err)
			}
			tile, poly, err := snap.TileAndPoly(path[k])
			require.NoError(t, err)
			want += filter.Cost(pos, next, query.PolyContext{}, query.PolyContext{Ref: path[k], Tile: tile, Poly: poly}, query.PolyContext{})
			pos = next
		}
		got, err := CorridorCost(snap, filter, p.start, p.end, path[:n])
		require.NoError(t, err)
		assert.InDelta(t, want, got, 1e-4*float64(max(1, want)))
		checked++
	}
	assert.Positive(t, checked)

	_, err := CorridorCost(snap, filter, geom.Vec3{}, geom.Vec3{}, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, err = CorridorCost(snap, nil, geom.Vec3{}, geom.Vec3{}, path[:1])
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, err = CorridorCost(snap, filter, geom.Vec3{}, geom.Vec3{}, []navmesh.Ref{0})
	assert.ErrorIs(t, err, ErrInvalidRef)
	// Two polygons that are not neighbours.
	pairs := randomPairs(t, mesh, filter, 40, 22)
	for _, p := range pairs {
		tile, poly, _ := snap.TileAndPoly(p.startRef)
		if p.startRef != p.endRef && findLink(tile, poly, p.endRef) == nil {
			_, err = CorridorCost(snap, filter, p.start, p.end, []navmesh.Ref{p.startRef, p.endRef})
			assert.ErrorIs(t, err, ErrInvalidRef)
			break
		}
	}
}
