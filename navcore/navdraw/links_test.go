package navdraw_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// TestMeshDrawsRuntimeLinks: a runtime link is drawn as a baked off-mesh
// connection is (its arc and its end rings), the end that landed nowhere
// in the unlinked colour.
func TestMeshDrawsRuntimeLinks(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	style := navdraw.DefaultStyle()
	draw := func() *debugdraw.Recorder {
		return record(func(d debugdraw.Drawer) {
			navdraw.Mesh(d, mesh.Snapshot(), navdraw.OffMeshConnections, style)
		})
	}
	before := draw()
	start, end := mgl32.Vec3{-9.174, 10.197, -20.340}, mgl32.Vec3{23.730, 15.099, -73.566}
	_, err := mesh.AddLink(navmesh.LinkDesc{Start: start, End: end, Radius: 1, Bidirectional: true, Flags: 1})
	require.NoError(t, err)
	with := draw()
	assert.Greater(t, with.Len(), before.Len())
	touches := func(r *debugdraw.Recorder, p mgl32.Vec3, unlinked bool) bool {
		for _, prim := range r.Primitives[before.Len():] {
			for _, v := range prim.Vertices {
				if geom.Dist(v, p) < 1.5 && (!unlinked || prim.Color == style.OffMeshUnlinked) {
					return true
				}
			}
		}
		return false
	}
	assert.True(t, touches(with, start, false), "drawn at its start")
	assert.True(t, touches(with, end, false), "and at its end")

	// An end in the air lands nowhere: its ring is the unlinked colour.
	_, err = mesh.AddLink(navmesh.LinkDesc{Start: start, End: mgl32.Vec3{0, 500, 0}, Radius: 1, Flags: 1})
	require.NoError(t, err)
	before = with
	assert.True(t, touches(draw(), mgl32.Vec3{0, 500.1, 0}, true))
}
