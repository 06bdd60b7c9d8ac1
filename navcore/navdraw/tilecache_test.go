package navdraw_test

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/tilecache"
)

// randomLayer returns a 12×9 layer with random ground, areas and portals.
func randomLayer(seed uint64) *tilecache.Layer {
	rng := rand.New(rand.NewPCG(seed, 1))
	const width, height = 12, 9
	l := &tilecache.Layer{
		Header: tilecache.LayerHeader{
			TLayer: 2, BMin: mgl32.Vec3{10, 5, 20}, BMax: mgl32.Vec3{10 + width*0.3, 8, 20 + height*0.3},
			Width: width, Height: height, MinX: 1, MaxX: 10, MinY: 2, MaxY: 7,
		},
		Heights: make([]uint8, width*height),
		Areas:   make([]uint8, width*height),
		Cons:    make([]uint8, width*height),
	}
	for i := range l.Heights {
		if rng.IntN(4) == 0 {
			l.Heights[i], l.Areas[i] = 0xff, tilecache.NullArea
			continue
		}
		l.Heights[i] = uint8(rng.IntN(20))
		l.Areas[i] = []uint8{tilecache.WalkableArea, 5, tilecache.NullArea}[rng.IntN(3)]
		l.Cons[i] = uint8(rng.IntN(256))
	}
	return l
}

func TestTileCacheLayerDrawsCellsPortalsAndBounds(t *testing.T) {
	layer := randomLayer(3)
	const cs, ch = 0.3, 0.2
	r := record(func(d debugdraw.Drawer) { navdraw.TileCacheLayer(d, layer, cs, ch, navdraw.DefaultStyle()) })
	ground, portals := 0, 0
	for i, height := range layer.Heights {
		if height != 0xff {
			ground++
			portals += bits.OnesCount8(layer.Cons[i] >> 4)
		}
	}
	require.Positive(t, portals)
	assert.Equal(t, 2*ground, r.Count(debugdraw.KindTriangle), "a square per cell with ground")
	assert.Equal(t, 12+portals, r.Count(debugdraw.KindLine), "the box and a line per portal side")

	box := &debugdraw.Recorder{Primitives: r.Primitives[:12]}
	bmin, bmax, _ := box.Bounds()
	assert.InDelta(t, 10+1*cs, bmin[0], 1e-5, "from the first usable column")
	assert.InDelta(t, 20+(7+1)*cs, bmax[2], 1e-5, "to the end of the last usable row")
	assert.Equal(t, debugdraw.WithAlpha(debugdraw.IndexColor(3, 255), 128), r.Primitives[0].Color, "the third layer's colour")

	// Each cell's square lies at its floor.
	square := 12
	for i, height := range layer.Heights {
		if height == 0xff {
			continue
		}
		x, y := i%12, i/12
		tri := r.Primitives[square]
		assert.InDelta(t, 5+float32(int(height)+1)*ch, tri.Vertices[0][1], 1e-5)
		assert.InDelta(t, 10+float32(x)*cs, tri.Vertices[0][0], 1e-5)
		assert.InDelta(t, 20+float32(y)*cs, tri.Vertices[0][2], 1e-5)
		square += 2
	}

	short := *layer
	short.Cons = short.Cons[:5]
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.TileCacheLayer(d, &short, cs, ch, navdraw.DefaultStyle()) }).Len())
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.TileCacheLayer(d, nil, cs, ch, navdraw.DefaultStyle()) }).Len())
}
