package crowd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Two 10×10 floors, A (x 0..10) and B (x 20..30), joined only by a
// bidirectional off-mesh connection from (8, 0, 5) to (22, 0, 5). Polygons:
// 0 = A, 1 = B, 2 = the connection.
var (
	offMeshStart = geom.Vec3{8, 0, 5}
	offMeshEnd   = geom.Vec3{22, 0, 5}
)

func offMeshTileData() *navmesh.TileData {
	quad := func(first uint16) navmesh.Poly {
		p := navmesh.Poly{Verts: [6]uint16{first, first + 1, first + 2, first + 3}, VertCount: 4, Flags: 1}
		p.SetType(navmesh.PolyTypeGround)
		return p
	}
	connection := navmesh.Poly{Verts: [6]uint16{8, 9}, VertCount: 2, Flags: 1}
	connection.SetType(navmesh.PolyTypeOffMeshConnection)
	// Each quad is two detail triangles over its own vertices: (0,1,2) with
	// edges 0-1 and 1-2 on the boundary, (0,2,3) with edges 2-3 and 3-0.
	tris := []navmesh.DetailTri{{0, 1, 2, 1 | 1<<2}, {0, 2, 3, 1<<2 | 1<<4}}
	return &navmesh.TileData{
		Header: navmesh.TileHeader{
			PolyCount: 3, VertCount: 10, MaxLinkCount: 16,
			DetailMeshCount: 2, DetailTriCount: 4, OffMeshConCount: 1, OffMeshBase: 2,
			WalkableHeight: 2, WalkableRadius: 0.6, WalkableClimb: 0.9,
			BMin: geom.Vec3{0, 0, 0}, BMax: geom.Vec3{30, 1, 10}, BVQuantFactor: 1 / 0.3,
		},
		Verts: []geom.Vec3{
			{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0},
			{20, 0, 0}, {20, 0, 10}, {30, 0, 10}, {30, 0, 0},
			offMeshStart, offMeshEnd,
		},
		Polys:        []navmesh.Poly{quad(0), quad(4), connection},
		DetailMeshes: []navmesh.PolyDetail{{TriBase: 0, TriCount: 2}, {TriBase: 2, TriCount: 2}},
		DetailTris:   append(append([]navmesh.DetailTri{}, tris...), tris...),
		OffMeshConnections: []navmesh.OffMeshConnection{{
			Start: offMeshStart, End: offMeshEnd, Radius: 1, Poly: 2,
			Flags: navmesh.OffMeshBidirectional, Side: 0xff, UserID: 7,
		}},
	}
}

type offMeshFixture struct {
	mesh      *navmesh.Mesh
	query     *query.Query
	filter    *query.Filter
	a, b, con navmesh.Ref
}

func newOffMeshFixture(t testing.TB) *offMeshFixture {
	t.Helper()
	mesh, err := navmesh.New(navmesh.Params{TileWidth: 30, TileHeight: 10, MaxTiles: 1, MaxPolys: 4})
	require.NoError(t, err)
	tileRef, err := mesh.AddTile(offMeshTileData(), 0)
	require.NoError(t, err)
	q, err := query.New(mesh, 64)
	require.NoError(t, err)
	base := mesh.TileByRef(tileRef).PolyRefBase()
	return &offMeshFixture{mesh: mesh, query: q, filter: query.NewFilter(), a: base, b: base | 1, con: base | 2}
}

func TestCorridorOffMeshConnection(t *testing.T) {
	f := newOffMeshFixture(t)
	start, target := geom.Vec3{2, 0, 5}, geom.Vec3{28, 0, 5}
	path := make([]navmesh.Ref, 8)
	n, status, err := f.query.FindPath(f.a, f.b, start, target, f.filter, path)
	require.NoError(t, err)
	require.Zero(t, status)
	require.Equal(t, []navmesh.Ref{f.a, f.con, f.b}, path[:n])

	c, err := NewCorridor(8)
	require.NoError(t, err)
	c.Reset(f.a, start)
	require.NoError(t, c.SetCorridor(target, path[:n]))

	// The corners stop at the connection's start, flagged.
	corners := make([]query.StraightPathPoint, 8)
	n, err = c.FindCorners(f.query, corners)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	assert.Equal(t, offMeshStart, corners[0].Pos)
	assert.Equal(t, query.StraightPathOffMeshConnection, corners[0].Flags)
	assert.Equal(t, f.con, corners[0].Ref)

	// 0.005 from the connection's start, the corner is kept although it is
	// closer than 0.01: off-mesh corners are never dropped.
	nearStart := geom.Vec3{7.995, 0, 5}
	require.NoError(t, c.MovePosition(nearStart, f.query, f.filter))
	assert.Equal(t, nearStart, c.Position())
	n, err = c.FindCorners(f.query, corners)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	assert.Equal(t, offMeshStart, corners[0].Pos)
	assert.Equal(t, query.StraightPathOffMeshConnection, corners[0].Flags)

	// Exactly on it, the reference's funnel skips a first portal the apex
	// sits on (within 0.001): the corners run on from the connection's end,
	// unflagged. The crowd hands agents over well before that.
	require.NoError(t, c.MovePosition(offMeshStart, f.query, f.filter))
	assert.Equal(t, offMeshStart, c.Position())
	n, err = c.FindCorners(f.query, corners)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	assert.Equal(t, offMeshEnd, corners[0].Pos)
	assert.Equal(t, query.StraightPathFlags(0), corners[0].Flags)
	assert.Equal(t, f.b, corners[0].Ref)
	assert.Equal(t, target, corners[1].Pos)

	// Not on the corridor: nothing changes.
	_, _, _, err = c.MoveOverOffMeshConnection(f.b+7, f.query)
	assert.ErrorIs(t, err, ErrNotInCorridor)
	assert.Equal(t, []navmesh.Ref{f.a, f.con, f.b}, c.Path())

	refs, from, to, err := c.MoveOverOffMeshConnection(f.con, f.query)
	require.NoError(t, err)
	assert.Equal(t, [2]navmesh.Ref{f.a, f.con}, refs)
	assert.Equal(t, offMeshStart, from)
	assert.Equal(t, offMeshEnd, to)
	assert.Equal(t, offMeshEnd, c.Position())
	assert.Equal(t, []navmesh.Ref{f.b}, c.Path())

	// On B, the only corner left is the target.
	n, err = c.FindCorners(f.query, corners)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	assert.Equal(t, target, corners[0].Pos)
	assert.Equal(t, query.StraightPathEnd, corners[0].Flags)
}

func TestCorridorMoveOverOffMeshConnectionEdgeCases(t *testing.T) {
	f := newOffMeshFixture(t)
	tests := []struct {
		name     string
		path     []navmesh.Ref
		wantErr  error
		wantRefs [2]navmesh.Ref
		wantPath []navmesh.Ref
		from, to geom.Vec3
	}{
		// The reference's scan never reports a connection in the last place.
		{"connection last", []navmesh.Ref{f.a, f.con}, ErrNotInCorridor, [2]navmesh.Ref{}, []navmesh.Ref{f.a, f.con}, geom.Vec3{}, geom.Vec3{}},
		// Travelling B → A takes the connection backwards.
		{"backwards", []navmesh.Ref{f.b, f.con, f.a}, nil, [2]navmesh.Ref{f.b, f.con}, []navmesh.Ref{f.a}, offMeshEnd, offMeshStart},
		// First in place: kept, with no previous polygon. The mesh then
		// hands the ends out as for arriving from elsewhere than the start
		// polygon: from the end point to the start point.
		{"connection first", []navmesh.Ref{f.con, f.b}, nil, [2]navmesh.Ref{0, f.con}, []navmesh.Ref{f.con, f.b}, offMeshEnd, offMeshStart},
		// A ground polygon is no connection: the mesh refuses it.
		{"ground polygon", []navmesh.Ref{f.b, f.a, f.b}, navmesh.ErrInvalidRef, [2]navmesh.Ref{}, []navmesh.Ref{f.b, f.a, f.b}, geom.Vec3{}, geom.Vec3{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCorridor(8)
			require.NoError(t, err)
			c.Reset(tt.path[0], geom.Vec3{1, 0, 1})
			require.NoError(t, c.SetCorridor(geom.Vec3{1, 0, 1}, tt.path))
			target := f.con
			if tt.name == "ground polygon" {
				target = f.a
			}
			refs, from, to, err := c.MoveOverOffMeshConnection(target, f.query)
			assert.Equal(t, tt.wantPath, c.Path())
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, geom.Vec3{1, 0, 1}, c.Position(), "unchanged on error")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantRefs, refs)
			assert.Equal(t, tt.from, from)
			assert.Equal(t, tt.to, to)
			assert.Equal(t, tt.to, c.Position())
		})
	}
}
