package blocks

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFloorsAndBoxesBake(t *testing.T) {
	var l Level
	l.Floor(0, 0, 10, 10, 0).Box(12, 0, 0, 20, 1.5, 10).Area(0, 0, 5, 10, -1, 1, bake.DemoAreaGrass)
	g := l.Geometry()
	require.Len(t, g.Triangles, 2+10)
	require.Len(t, g.ConvexVolumes, 1)
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	require.NoError(t, err)
	mesh, err := result.NavMesh()
	require.NoError(t, err)

	// The floor and the box's top are walkable, the grass marked; the box's
	// top is 1.5 up, too high to step onto from the floor.
	var floor, top, grass bool
	tile := mesh.Snapshot().Tile(0)
	for i := range tile.Polys {
		p := &tile.Polys[i]
		y := tile.Verts[p.Verts[0]][1]
		switch {
		case y > 1:
			top = true
		case p.Area() == bake.DemoAreaGrass:
			grass = true
		default:
			floor = true
		}
	}
	assert.True(t, floor && top && grass, "floor %v, top %v, grass %v", floor, top, grass)
}

func TestLink(t *testing.T) {
	var l Level
	link := bake.OffMeshConnection{Start: mgl32.Vec3{1, 0, 1}, End: mgl32.Vec3{5, 0, 1}, Radius: 0.5}
	l.Floor(0, 0, 10, 10, 0).Link(link)
	assert.Equal(t, []bake.OffMeshConnection{link}, l.Geometry().OffMeshConnections)
}
