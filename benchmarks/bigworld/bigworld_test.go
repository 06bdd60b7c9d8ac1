package bigworld

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tiny is a level small enough to bake in a test.
func tiny() Params {
	p := Small()
	p.Size = 60
	p.Boxes = 6
	p.MaxFootprint = 20
	return p
}

func TestGeometryIsDeterministic(t *testing.T) {
	a, err := Small().Geometry()
	require.NoError(t, err)
	b, err := Small().Geometry()
	require.NoError(t, err)
	assert.Equal(t, a, b)
	// The level some Params give is fixed: a change of it needs a new
	// Version, and this hash with it.
	obj, err := Small().OBJ()
	require.NoError(t, err)
	sum := sha256.Sum256(obj)
	assert.Equal(t, "c3e3d44e019ce75b", hex.EncodeToString(sum[:8]), "Version %d", Version)

	other := Small()
	other.Seed = 2
	c, err := other.Geometry()
	require.NoError(t, err)
	assert.NotEqual(t, a.Vertices, c.Vertices)
}

func TestGeometryShape(t *testing.T) {
	p := Small()
	g, err := p.Geometry()
	require.NoError(t, err)
	quads := 50 // 250 m of 5 m quads
	require.Len(t, g.Vertices, (quads+1)*(quads+1)+8*p.Boxes)
	require.Len(t, g.Triangles, 2*quads*quads+10*p.Boxes)
	require.NoError(t, g.Validate())

	bmin, bmax := g.Bounds()
	assert.InDelta(t, 0, bmin[0], 1e-3)
	assert.InDelta(t, 0, bmin[2], 1e-3)
	assert.InDelta(t, p.Size, bmax[0], 1e-3)
	assert.InDelta(t, p.Size, bmax[2], 1e-3)

	normalY := func(tri [3]int32) float32 {
		a, b, c := g.Vertices[tri[0]], g.Vertices[tri[1]], g.Vertices[tri[2]]
		e0, e1 := b.Sub(a), c.Sub(a)
		n := geom.Normalize(geom.Cross(e0, e1))
		return n[1]
	}
	terrain := 2 * quads * quads
	for i, tri := range g.Triangles {
		switch {
		case i < terrain:
			// Hills: walkable, well under 45°.
			require.Greater(t, normalY(tri), float32(0.8), "terrain triangle %d", i)
		case (i-terrain)%10 < 2:
			require.InDelta(t, 1, normalY(tri), 1e-4, "roof triangle %d", i)
		default:
			require.InDelta(t, 0, normalY(tri), 1e-4, "wall triangle %d", i)
		}
	}
	// Jitter keeps within its bound of the hills.
	for i := range (quads + 1) * (quads + 1) {
		v := g.Vertices[i]
		assert.InDelta(t, p.Ground(float64(v[0]), float64(v[2])), float64(v[1]), p.Jitter+1e-4)
	}
}

func TestOBJRoundTrip(t *testing.T) {
	g, err := tiny().Geometry()
	require.NoError(t, err)
	obj, err := tiny().OBJ()
	require.NoError(t, err)
	read, err := bake.ReadOBJ(bytes.NewReader(obj))
	require.NoError(t, err)
	assert.Equal(t, g.Vertices, read.Vertices)
	assert.Equal(t, g.Triangles, read.Triangles)
}

func TestValidate(t *testing.T) {
	for name, change := range map[string]func(*Params){
		"size":           func(p *Params) { p.Size = 0 },
		"huge":           func(p *Params) { p.Size = MaxSize + 1 },
		"quad":           func(p *Params) { p.QuadSize = -1 },
		"too many quads": func(p *Params) { p.QuadSize = 0.01 },
		"hills":          func(p *Params) { p.HillHeight = -1 },
		"jitter":         func(p *Params) { p.Jitter = -1 },
		"boxes":          func(p *Params) { p.Boxes = MaxBoxes + 1 },
		"footprint":      func(p *Params) { p.MinFootprint = 40 },
		"wide":           func(p *Params) { p.MaxFootprint = p.Size },
		"height":         func(p *Params) { p.MinHeight = 0 },
		"heights":        func(p *Params) { p.MaxHeight = 1 },
	} {
		p := Small()
		change(&p)
		assert.Error(t, p.Validate(), name)
		_, err := p.Geometry()
		assert.Error(t, err, name)
	}
	assert.NoError(t, Default().Validate())
}

func TestBakeAndCache(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	p := tiny()
	result, err := p.Bake(context.Background(), 0)
	require.NoError(t, err)
	require.NotEmpty(t, result.Tiles)
	tx, ty := result.Baker.Grid()
	assert.Equal(t, [2]int{4, 4}, [2]int{tx, ty}) // 60 m of 19.2 m tiles

	first, err := p.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	files, _ := filepath.Glob(filepath.Join(os.TempDir(), "archenav-bigworld-*.nav"))
	require.Len(t, files, 1)
	second, err := p.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	assert.NotSame(t, first, second)
	assert.Equal(t, len(result.Tiles), second.Snapshot().TileCount())
	for _, tile := range result.Tiles {
		cached := second.Snapshot().TileAt(tile.X, tile.Y, 0)
		require.NotNil(t, cached)
		want, _ := navmesh.TileDataFingerprint(tile.Data)
		got, _ := navmesh.TileDataFingerprint(cached.Data)
		assert.Equal(t, want, got)
	}

	// A damaged file is baked again and replaced.
	require.NoError(t, os.WriteFile(files[0], []byte("junk"), 0o644))
	third, err := p.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	assert.Equal(t, len(result.Tiles), third.Snapshot().TileCount())
}
