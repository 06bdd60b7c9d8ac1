package bake

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func validGeometry() *Geometry {
	return &Geometry{
		Vertices:  []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
		ConvexVolumes: []ConvexVolume{{
			Vertices: []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}}, MinY: -1, MaxY: 1, Area: 5,
		}},
		BoxVolumes:      []BoxVolume{{Min: mgl32.Vec3{0, 0, 0}, Max: mgl32.Vec3{1, 1, 1}, Area: 6}},
		CylinderVolumes: []CylinderVolume{{Base: mgl32.Vec3{0.5, 0, 0.5}, Radius: 0.5, Height: 2, Area: 7}},
		OffMeshConnections: []OffMeshConnection{{
			Start: mgl32.Vec3{0, 0, 0}, End: mgl32.Vec3{1, 0, 1}, Radius: 0.6,
			Bidirectional: true, Area: 8, Flags: 3, UserID: 1000,
		}},
	}
}

func TestGeometryBounds(t *testing.T) {
	g := &Geometry{Vertices: []mgl32.Vec3{{1, 2, 3}, {-1, 5, 0}, {0, -2, 9}}}
	bmin, bmax := g.Bounds()
	assert.Equal(t, mgl32.Vec3{-1, -2, 0}, bmin)
	assert.Equal(t, mgl32.Vec3{1, 5, 9}, bmax)

	bmin, bmax = (&Geometry{}).Bounds()
	assert.Equal(t, mgl32.Vec3{}, bmin)
	assert.Equal(t, mgl32.Vec3{}, bmax)
}

func TestGeometryValidate(t *testing.T) {
	require.NoError(t, validGeometry().Validate())
	nan := float32(math.NaN())
	tests := []struct {
		name   string
		change func(*Geometry)
		want   string
	}{
		{"no triangles", func(g *Geometry) { g.Triangles = nil }, "no triangles"},
		{"NaN vertex", func(g *Geometry) { g.Vertices[2][1] = nan }, "vertex 2"},
		{"infinite vertex", func(g *Geometry) { g.Vertices[0][0] = float32(math.Inf(-1)) }, "vertex 0"},
		{"index too large", func(g *Geometry) { g.Triangles[1][2] = 4 }, "triangle 1: vertex index 4"},
		{"negative index", func(g *Geometry) { g.Triangles[0][0] = -1 }, "triangle 0: vertex index -1"},
		{"areas count", func(g *Geometry) { g.Areas = []uint8{1} }, "1 triangle areas for 2 triangles"},
		{"area too large", func(g *Geometry) { g.Areas = []uint8{1, 64} }, "triangle 1: area 64"},
		{"convex volume with two points", func(g *Geometry) { g.ConvexVolumes[0].Vertices = g.ConvexVolumes[0].Vertices[:2] }, "convex volume 0: 2 points"},
		{"convex volume NaN point", func(g *Geometry) { g.ConvexVolumes[0].Vertices[1][2] = nan }, "convex volume 0: point 1"},
		{"convex volume inverted heights", func(g *Geometry) { g.ConvexVolumes[0].MinY = 2 }, "height range"},
		{"convex volume area", func(g *Geometry) { g.ConvexVolumes[0].Area = 100 }, "area 100"},
		{"box inverted", func(g *Geometry) { g.BoxVolumes[0].Min[1] = 2 }, "box volume 0: min corner"},
		{"box NaN", func(g *Geometry) { g.BoxVolumes[0].Max[0] = nan }, "box volume 0: corners"},
		{"box area", func(g *Geometry) { g.BoxVolumes[0].Area = 64 }, "box volume 0: area 64"},
		{"cylinder zero radius", func(g *Geometry) { g.CylinderVolumes[0].Radius = 0 }, "cylinder volume 0: radius"},
		{"cylinder negative height", func(g *Geometry) { g.CylinderVolumes[0].Height = -1 }, "cylinder volume 0: height"},
		{"cylinder NaN base", func(g *Geometry) { g.CylinderVolumes[0].Base[0] = nan }, "cylinder volume 0: base"},
		{"connection NaN end", func(g *Geometry) { g.OffMeshConnections[0].End[1] = nan }, "off-mesh connection 0: end points"},
		{"connection zero radius", func(g *Geometry) { g.OffMeshConnections[0].Radius = 0 }, "off-mesh connection 0: radius"},
		{"connection area", func(g *Geometry) { g.OffMeshConnections[0].Area = 70 }, "off-mesh connection 0: area 70"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := validGeometry()
			tt.change(g)
			err := g.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	var nilGeometry *Geometry
	assert.ErrorContains(t, nilGeometry.Validate(), "nil")
}
