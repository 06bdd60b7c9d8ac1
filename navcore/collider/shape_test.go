package collider

import (
	"fmt"
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cube returns a closed unit cube mesh around the origin, facing out.
func cube() *Mesh {
	p, err := Place(NewBox(geom.Vec3{0.5, 0.5, 0.5}), Pose{})
	if err != nil {
		panic(err)
	}
	vertices, triangles := p.Triangulate(0, nil, nil)
	return &Mesh{Vertices: vertices, Triangles: triangles}
}

func TestValidate(t *testing.T) {
	nan := float32(math.NaN())
	flat := &Mesh{Vertices: []geom.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}, Triangles: [][3]int32{{0, 1, 2}}}
	inverted := cube()
	for i := range inverted.Triangles {
		inverted.Triangles[i][1], inverted.Triangles[i][2] = inverted.Triangles[i][2], inverted.Triangles[i][1]
	}
	tests := []struct {
		name  string
		shape Shape
		want  string // "" for valid
	}{
		{"box", NewBox(geom.Vec3{1, 2, 3}), ""},
		{"box zero side", NewBox(geom.Vec3{1, 0, 3}), "half extent 1"},
		{"box nan", NewOrientedBox(geom.Vec3{1, nan, 3}), "half extent 1"},
		{"box huge", NewBox(geom.Vec3{1, 2, 1e9}), "half extent 2"},
		{"sphere", NewSphere(1), ""},
		{"sphere zero", NewSphere(0), "radius"},
		{"capsule no length", NewCapsule(1, 0), ""},
		{"capsule negative", NewCapsule(1, -1), "half height"},
		{"cylinder no length", NewCylinder(1, 0), "needs a length"},
		{"trimesh", NewTriangleMesh(flat), ""},
		{"trimesh nil", NewTriangleMesh(nil), "no triangles"},
		{"trimesh bad index", NewTriangleMesh(&Mesh{Vertices: flat.Vertices, Triangles: [][3]int32{{0, 1, 3}}}), "index 3"},
		{"trimesh nan", NewTriangleMesh(&Mesh{Vertices: []geom.Vec3{{nan, 0, 0}, {0, 0, 1}, {1, 0, 0}}, Triangles: flat.Triangles}), "not finite"},
		{"hull", NewConvexHull(cube()), ""},
		{"hull open", NewConvexHull(flat), "cannot close"},
		{"hull inside out", NewConvexHull(inverted), "not convex"},
		{"area", NewSphere(1).WithArea(64), "area 64"},
		{"kind", Shape{Kind: 99}, "kind 99"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			err := test.shape.Validate()
			if test.want == "" {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidShape)
			assert.ErrorContains(t, err, test.want)
			_, err = Place(test.shape, Pose{})
			assert.ErrorIs(t, err, ErrInvalidShape)
		})
	}
}

func TestPoseValidate(t *testing.T) {
	nan := float32(math.NaN())
	assert.NoError(t, (&Pose{}).Validate())
	assert.NoError(t, (&Pose{Rotation: mgl32.QuatIdent()}).Validate())
	assert.Error(t, (&Pose{Position: geom.Vec3{nan, 0, 0}}).Validate())
	assert.Error(t, (&Pose{Position: geom.Vec3{0, 2e7, 0}}).Validate())
	assert.Error(t, (&Pose{Rotation: mgl32.Quat{W: 2}}).Validate())
	assert.Error(t, (&Pose{Rotation: mgl32.Quat{W: nan}}).Validate())
}

func TestKindNames(t *testing.T) {
	for k := Box; k <= TriangleMesh; k++ {
		parsed, err := ParseKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, parsed)
	}
	_, err := ParseKind("cone")
	assert.ErrorIs(t, err, ErrInvalidShape)
	assert.Equal(t, "Kind(0)", Kind(0).String())
}

// TestTriangulateLiesOnTheSurface checks the triangulations the tests of
// the rasterizer compare with: every corner on the shape's surface (in it,
// and out of it a hair further out), every triangle facing out, and the
// box of the corners within a few percent of Bounds.
func TestTriangulateLiesOnTheSurface(t *testing.T) {
	for _, test := range testShapes() {
		t.Run(test.name, func(t *testing.T) {
			p, err := Place(test.shape, test.pose)
			require.NoError(t, err)
			vertices, triangles := p.Triangulate(32, nil, nil)
			require.NotEmpty(t, triangles)
			center := p.ToWorld(geom.Vec3{})
			bmin, bmax := p.Bounds()
			gotMin, gotMax := vertices[0], vertices[0]
			for _, v := range vertices {
				gotMin, gotMax = geom.Min(gotMin, v), geom.Max(gotMax, v)
				toward := addScaled(v, normalize(sub(center, v)), 1e-3)
				away := addScaled(v, normalize(sub(v, center)), 1e-3)
				assert.True(t, p.Contains(toward), "corner %v", v)
				assert.False(t, p.Contains(away), "corner %v", v)
			}
			for i := range 3 {
				assert.InDelta(t, bmin[i], gotMin[i], float64(0.02*float64(bmax[i]-bmin[i]))+1e-4)
				assert.InDelta(t, bmax[i], gotMax[i], float64(0.02*float64(bmax[i]-bmin[i]))+1e-4)
			}
			for _, tri := range triangles {
				v0, v1, v2 := vertices[tri[0]], vertices[tri[1]], vertices[tri[2]]
				n := cross(sub(v1, v0), sub(v2, v0))
				mid := scale(add(add(v0, v1), v2), 1.0/3)
				assert.Positive(t, dot(n, sub(mid, center)))
			}
		})
	}
}

func TestMeshPlacement(t *testing.T) {
	mesh := cube()
	hull, err := Place(NewConvexHull(mesh), Pose{Position: geom.Vec3{10, 0, 0}, Rotation: rotation(geom.Vec3{0, 1, 0}, 45)})
	require.NoError(t, err)
	bmin, bmax := hull.Bounds()
	half := float32(math.Sqrt2 / 2)
	assert.InDelta(t, 10-half, bmin[0], 1e-5)
	assert.InDelta(t, 10+half, bmax[0], 1e-5)
	assert.InDelta(t, -0.5, bmin[1], 1e-6)
	assert.True(t, hull.Contains(geom.Vec3{10.6, 0.4, 0}))
	assert.False(t, hull.Contains(geom.Vec3{10.6, 0.4, 0.2}))
	// Without a pose the vertices are the mesh's own, bit for bit.
	still, err := Place(NewTriangleMesh(mesh), Pose{})
	require.NoError(t, err)
	assert.Equal(t, mesh.Vertices, still.WorldVertices(nil))
	assert.Len(t, hull.WorldVertices(nil), len(mesh.Vertices))
	sphere, err := Place(NewSphere(1), Pose{})
	require.NoError(t, err)
	assert.Empty(t, sphere.WorldVertices(nil))
}

func ExamplePlaced_ColumnRange() {
	// A ramp: a 6 × 0.4 × 4 box tilted 20° about z, its middle at the
	// origin.
	ramp, err := Place(NewOrientedBox(geom.Vec3{3, 0.2, 2}), Pose{Rotation: mgl32.QuatRotate(mgl32.DegToRad(20), geom.Vec3{0, 0, 1})})
	if err != nil {
		fmt.Println(err)
		return
	}
	column, ok := ramp.ColumnRange(1, 0, 1.3, 0.3)
	fmt.Println(ok)
	fmt.Printf("from %.3f to %.3f, slope %.1f°\n", column.Bottom, column.Top, math.Acos(float64(column.TopNormalY))*180/math.Pi)
	// Output:
	// true
	// from 0.151 to 0.686, slope 20.0°
}
