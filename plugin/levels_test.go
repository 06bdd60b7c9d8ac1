package plugin

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/require"
)

// bakeLevel bakes g as one tile and returns its mesh.
func bakeLevel(tb testing.TB, g *bake.Geometry) *navmesh.Mesh {
	tb.Helper()
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	require.NoError(tb, err)
	mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
	require.NoError(tb, err)
	_, err = mesh.AddTile(result.TileData, 0)
	require.NoError(tb, err)
	return mesh
}

// addFloor adds a flat rectangle [x0, x1] × [z0, z1] at height y.
func addFloor(g *bake.Geometry, x0, z0, x1, z1, y float32) {
	b := int32(len(g.Vertices))
	g.Vertices = append(g.Vertices, geom.Vec3{x0, y, z0}, geom.Vec3{x1, y, z0}, geom.Vec3{x1, y, z1}, geom.Vec3{x0, y, z1})
	g.Triangles = append(g.Triangles, [3]int32{b, b + 2, b + 1}, [3]int32{b, b + 3, b + 2})
}

// gapLevel is two 10 m × 10 m floors 4 m apart, joined by a two-way
// off-mesh connection from (9, 0, 5) to (15, 0, 5).
func gapLevel(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 10, 10, 0)
	addFloor(g, 14, 0, 24, 10, 0)
	g.OffMeshConnections = []bake.OffMeshConnection{{
		Start: geom.Vec3{9, 0, 5}, End: geom.Vec3{15, 0, 5}, Radius: 0.6, Bidirectional: true, Flags: 1,
	}}
	return bakeLevel(tb, g)
}

// floorLevel is one open 20 m × 20 m floor.
func floorLevel(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 20, 20, 0)
	return bakeLevel(tb, g)
}
