package picture

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func dungeon(t *testing.T) *navmesh.Mesh {
	t.Helper()
	mesh, _, err := navmesh.LoadFile("../../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	return mesh
}

func TestPictureDrawsAndWrites(t *testing.T) {
	mesh := dungeon(t)
	p, err := New(mesh, 200)
	require.NoError(t, err)
	width, height := p.Size()
	assert.Equal(t, 200, width)
	assert.Greater(t, height, 200, "the dungeon is taller than wide, plus the caption")

	// A red polygon and a ring show where they are drawn.
	tile := mesh.Snapshot().Tile(0)
	ref := tile.PolyRefBase() | 5
	p.Polygon(ref, Red)
	center := geom.Vec3{}
	poly := &tile.Polys[5]
	for i := 0; i < int(poly.VertCount); i++ {
		center = geom.Add(center, tile.Verts[poly.Verts[i]])
	}
	center = geom.Scale(center, 1/float32(poly.VertCount))
	at := p.view.ToScreen(center)
	assert.Equal(t, Red, p.raster.Image().RGBAAt(int(at.X), int(at.Y)))
	p.Ring(geom.Vec3{0, 0, -40}, 3, 0, Purple)
	ring := p.view.ToScreen(geom.Vec3{0, 0, -40})
	assert.Equal(t, Purple, p.raster.Image().RGBAAt(int(ring.X), int(ring.Y)))
	p.Trail([]geom.Vec3{{0, 0, -40}, {10, 0, -40}}, 1)
	p.Agents([]scene.Agent{{Position: center, Radius: 0.6}})
	p.Caption("test")

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
}
