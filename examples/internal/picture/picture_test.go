package picture

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func dungeon(t *testing.T) *navmesh.Mesh {
	t.Helper()
	mesh, _, err := navmesh.LoadFile("../../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	return mesh
}

// pixel returns the color of the picture at world position p.
func pixel(t *testing.T, pic *Picture, p geom.Vec3) [4]uint8 {
	t.Helper()
	img, err := pic.Image()
	require.NoError(t, err)
	x, y, _ := pic.view.Project(p)
	c := img.RGBAAt(int(x), int(y)+captionHeight())
	return [4]uint8{c.R, c.G, c.B, c.A}
}

func TestPictureDrawsWhereTheMarksAre(t *testing.T) {
	p, err := New(dungeon(t), 200)
	require.NoError(t, err)
	width, height := p.Size()
	assert.Equal(t, 200, width)
	assert.Greater(t, height, 200, "the dungeon is taller than wide, plus the caption")

	// On a flat floor: a red polygon and a white disc show where they are
	// drawn.
	mesh := floor(t)
	p, err = New(mesh, 200)
	require.NoError(t, err)
	meshOnly := p.Primitives()
	assert.Positive(t, meshOnly)
	tile := mesh.Snapshot().Tile(0)
	poly := &tile.Polys[0]
	var center geom.Vec3
	for i := 0; i < int(poly.VertCount); i++ {
		center = geom.Add(center, tile.Verts[poly.Verts[i]])
	}
	center = geom.Scale(center, 1/float32(poly.VertCount))
	before := pixel(t, p, center)
	p.Polygon(tile.PolyRefBase(), Red)
	assert.NotEqual(t, before, pixel(t, p, center))
	assert.Equal(t, [4]uint8{Red.R, Red.G, Red.B, 255}, pixel(t, p, center))

	disc := geom.Vec3{5, 0, 5}
	p.Ring(disc, 1, 0, White)
	assert.Equal(t, [4]uint8{White.R, White.G, White.B, 255}, pixel(t, p, disc))
	p.Trail([]geom.Vec3{{1, 0, 1}, {9, 0, 1}}, 1)
	p.Caption("test")
	assert.Greater(t, p.Primitives(), meshOnly)

	path := filepath.Join(t.TempDir(), "sub", "picture.png")
	require.NoError(t, p.WritePNG(path))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, 200, img.Bounds().Dx())

	_, err = New(mesh, 10)
	assert.Error(t, err)
	_, err = New(nil, 200)
	assert.Error(t, err)
}

// floor bakes a flat 10 × 10 floor.
func floor(t *testing.T) *navmesh.Mesh {
	t.Helper()
	var level bake.Geometry
	level.Vertices = []geom.Vec3{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}}
	level.Triangles = [][3]int32{{0, 1, 2}, {0, 2, 3}}
	baked, err := bake.Solo(context.Background(), &level, bake.DefaultSettings())
	require.NoError(t, err)
	mesh, err := baked.NavMesh()
	require.NoError(t, err)
	return mesh
}

func TestPictureDrawsTheCrowd(t *testing.T) {
	mesh := floor(t)
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 1})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, crowd.Install(&world))
	_, err = crowd.Spawn(&world, geom.Vec3{5, 0, 5}, components.DefaultAgentParams())
	require.NoError(t, err)

	p, err := New(mesh, 200)
	require.NoError(t, err)
	before := p.Primitives()
	require.NoError(t, p.Crowd(&world))
	assert.Greater(t, p.Primitives(), before, "the agent's body")
}
