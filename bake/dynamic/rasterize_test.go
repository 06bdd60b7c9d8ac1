package dynamic

import (
	"fmt"
	"math"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// primitiveCases are the primitives the rasterization tests place, each
// upright, tilted and lying down, over a 12 m square field.
func primitiveCases() []struct {
	name  string
	shape collider.Shape
	pose  collider.Pose
} {
	turn := func(axis geom.Vec3, degrees float32) mgl32.Quat {
		return mgl32.QuatRotate(mgl32.DegToRad(degrees), geom.Normalize(axis))
	}
	at := geom.Vec3{6.05, 3.1, 5.95}
	return []struct {
		name  string
		shape collider.Shape
		pose  collider.Pose
	}{
		{"box", collider.NewBox(geom.Vec3{2.5, 0.6, 1.7}), collider.Pose{Position: at}},
		{"crate turned", collider.NewOrientedBox(geom.Vec3{2, 0.6, 1.2}), collider.Pose{Position: at, Rotation: turn(geom.Vec3{0, 1, 0}, 33)}},
		{"ramp", collider.NewOrientedBox(geom.Vec3{3, 0.2, 1.5}), collider.Pose{Position: at, Rotation: turn(geom.Vec3{0.3, 0, 1}, 25)}},
		{"steep ramp", collider.NewOrientedBox(geom.Vec3{3, 0.2, 1.5}), collider.Pose{Position: at, Rotation: turn(geom.Vec3{0, 0, 1}, 55)}},
		{"tumbled box", collider.NewOrientedBox(geom.Vec3{1.5, 1, 0.8}), collider.Pose{Position: at, Rotation: turn(geom.Vec3{1, 2, 3}, 50)}},
		{"sphere", collider.NewSphere(2.2), collider.Pose{Position: at}},
		{"capsule upright", collider.NewCapsule(1, 1.2), collider.Pose{Position: at}},
		{"capsule lying", collider.NewCapsule(0.8, 2.5), collider.Pose{Position: at, Rotation: turn(geom.Vec3{1, 0, 1}, 90)}},
		{"capsule tilted", collider.NewCapsule(0.9, 1.8), collider.Pose{Position: at, Rotation: turn(geom.Vec3{1, 0, 0}, 40)}},
		{"cylinder upright", collider.NewCylinder(1.8, 1), collider.Pose{Position: at}},
		{"cylinder lying", collider.NewCylinder(1, 2.5), collider.Pose{Position: at, Rotation: turn(geom.Vec3{0, 0, 1}, 90)}},
		{"cylinder tilted", collider.NewCylinder(1.3, 1.6), collider.Pose{Position: at, Rotation: turn(geom.Vec3{1, 0, 2}, 35)}},
	}
}

// rasterMesh returns a Mesh with just what rasterization reads.
func rasterMesh() *Mesh {
	s := bake.DefaultSettings()
	return &Mesh{settings: s, walkableNormalY: bake.WalkableSlopeThreshold(s.AgentMaxSlope), mergeThreshold: 4}
}

// testField returns an empty 40 × 40 field of 0.3 × 0.2 cells over
// [0, 12] × [0, 8] × [0, 12].
func testField(t *testing.T) *bake.Heightfield {
	hf, err := bake.NewHeightfield(40, 40, geom.Vec3{}, geom.Vec3{12, 8, 12}, 0.3, 0.2)
	require.NoError(t, err)
	return hf
}

// columnExtent returns the lowest and highest cell of column (x, z) and
// the area of its top span, ok false for an empty column.
func columnExtent(hf *bake.Heightfield, x, z int) (bottom, top int, area uint8, ok bool) {
	first := hf.Columns[x+z*hf.Width]
	if first < 0 {
		return 0, 0, 0, false
	}
	bottom = int(hf.Pool[first].Min)
	for s := first; s >= 0; s = hf.Pool[s].Next {
		top, area = int(hf.Pool[s].Max), hf.Pool[s].Area
	}
	return bottom, top, area, true
}

// nearColumn reports whether a column within one cell of (x, z) is
// filled in hf.
func nearColumn(hf *bake.Heightfield, x, z int) bool {
	for dz := -1; dz <= 1; dz++ {
		for dx := -1; dx <= 1; dx++ {
			if nx, nz := x+dx, z+dz; nx >= 0 && nz >= 0 && nx < hf.Width && nz < hf.Height {
				if _, _, _, ok := columnExtent(hf, nx, nz); ok {
					return true
				}
			}
		}
	}
	return false
}

// TestPrimitivesMatchTheirTriangulation rasterizes each primitive
// analytically and its triangulation (48 segments a circle) as Recast
// rasterizes triangles: in every column both fill, the lowest and highest
// cells agree within one cell, a column only one fills lies next to one
// both fill, and the top's area (walkable or not, by slope) agrees but in
// a few columns where the slope is near the threshold or the surface turns.
func TestPrimitivesMatchTheirTriangulation(t *testing.T) {
	m := rasterMesh()
	for _, c := range primitiveCases() {
		t.Run(c.name, func(t *testing.T) {
			placed, err := collider.Place(c.shape, c.pose)
			require.NoError(t, err)
			analytic, triangulated := testField(t), testField(t)
			require.NoError(t, m.add(&builder{}, &colliderInput{placed: placed}, analytic))
			vertices, triangles := placed.Triangulate(48, nil, nil)
			areas, err := m.triangleAreas(&builder{}, vertices, triangles, bake.WalkableArea)
			require.NoError(t, err)
			require.NoError(t, triangulated.RasterizeTriangles(vertices, triangles, areas, m.mergeThreshold))

			shared, areaMismatches := 0, 0
			for z := range analytic.Height {
				for x := range analytic.Width {
					b0, t0, a0, ok0 := columnExtent(analytic, x, z)
					b1, t1, a1, ok1 := columnExtent(triangulated, x, z)
					where := fmt.Sprintf("column (%d, %d)", x, z)
					switch {
					case ok0 && ok1:
						shared++
						assert.InDelta(t, b1, b0, 1, "%s bottom", where)
						assert.InDelta(t, t1, t0, 1, "%s top", where)
						if a0 != a1 {
							areaMismatches++
						}
					case ok0:
						assert.True(t, nearColumn(triangulated, x, z), "%s: only the analytic one", where)
					case ok1:
						assert.True(t, nearColumn(analytic, x, z), "%s: only the triangles", where)
					}
				}
			}
			assert.Greater(t, shared, 30)
			assert.LessOrEqual(t, float64(areaMismatches), 0.12*float64(shared), "areas differ in %d of %d columns", areaMismatches, shared)
		})
	}
}

// TestPrimitivesCoverTheirPoints rasterizes each primitive solid and
// carving and checks the cells against a brute-force point-in-shape
// search (9 × 9 vertical lines a cell, a point every quarter cell height):
// every cell holding a point of the shape is filled (or carved away), and
// the filled range reaches at most one cell past the points found; a
// column with no point found lies next to one with points.
func TestPrimitivesCoverTheirPoints(t *testing.T) {
	m := rasterMesh()
	for i, c := range primitiveCases() {
		if longtest.Race && i%3 != 0 {
			continue // arithmetic only: a third of the shapes under -race
		}
		t.Run(c.name, func(t *testing.T) {
			placed, err := collider.Place(c.shape, c.pose)
			require.NoError(t, err)
			solid := testField(t)
			require.NoError(t, m.add(&builder{}, &colliderInput{placed: placed}, solid))
			// A carve out of a full block leaves exactly the complement.
			carved := testField(t)
			for z := range carved.Height {
				for x := range carved.Width {
					require.NoError(t, carved.AddSpan(x, z, 0, 40, bake.WalkableArea, 0))
				}
			}
			carving, err := collider.Place(c.shape.Carving(), c.pose)
			require.NoError(t, err)
			require.NoError(t, m.carve(&builder{}, &colliderInput{placed: carving}, carved))

			oracle := oracleCells(&placed, solid)
			for z := range solid.Height {
				for x := range solid.Width {
					cells := oracle[x+z*solid.Width]
					bottom, top, _, ok := columnExtent(solid, x, z)
					where := fmt.Sprintf("column (%d, %d)", x, z)
					if len(cells) == 0 {
						if ok {
							assert.True(t, len(oracle[max(x-1, 0)+z*solid.Width])+len(oracle[min(x+1, solid.Width-1)+z*solid.Width])+
								len(oracle[x+max(z-1, 0)*solid.Width])+len(oracle[x+min(z+1, solid.Height-1)*solid.Width]) > 0 ||
								nearOracle(oracle, solid, x, z), "%s filled, no point found near", where)
						}
						continue
					}
					require.True(t, ok, "%s has points but no span", where)
					lo, hi := cells[0], cells[len(cells)-1]
					assert.LessOrEqual(t, bottom, lo, where)
					assert.GreaterOrEqual(t, top, hi+1, where)
					assert.GreaterOrEqual(t, bottom, lo-1, where)
					assert.LessOrEqual(t, top, hi+2, where)
					// The carve removed every cell with a point.
					for _, cell := range cells {
						assert.False(t, filled(carved, x, z, cell), "%s cell %d left after the carve", where, cell)
					}
				}
			}
		})
	}
}

// oracleCells returns, per column of hf, the sorted cells holding a point
// of the placed shape.
func oracleCells(placed *collider.Placed, hf *bake.Heightfield) [][]int {
	const lines, perCell = 9, 4
	cells := make([][]int, hf.Width*hf.Height)
	bmin, bmax := placed.Bounds()
	cellOf := func(v, origin, size float32, count int) int {
		return min(max(int(math.Floor(float64((v-origin)/size))), 0), count-1)
	}
	x0, x1 := cellOf(bmin[0], hf.BMin[0], hf.CellSize, hf.Width), cellOf(bmax[0], hf.BMin[0], hf.CellSize, hf.Width)
	z0, z1 := cellOf(bmin[2], hf.BMin[2], hf.CellSize, hf.Height), cellOf(bmax[2], hf.BMin[2], hf.CellSize, hf.Height)
	k0 := perCell * cellOf(bmin[1], hf.BMin[1], hf.CellHeight, 40)
	k1 := perCell * (cellOf(bmax[1], hf.BMin[1], hf.CellHeight, 40) + 1)
	for z := z0; z <= z1; z++ {
		for x := x0; x <= x1; x++ {
			seen := map[int]bool{}
			for i := range lines {
				for j := range lines {
					px := hf.BMin[0] + float32((float32(x)+float32(float32(i)/(lines-1)))*hf.CellSize)
					pz := hf.BMin[2] + float32((float32(z)+float32(float32(j)/(lines-1)))*hf.CellSize)
					for k := k0; k < k1; k++ {
						py := hf.BMin[1] + float32((float32(k)+0.5)/perCell*hf.CellHeight)
						if placed.Contains(geom.Vec3{px, py, pz}) {
							seen[k/perCell] = true
						}
					}
				}
			}
			for cell := range seen {
				cells[x+z*hf.Width] = append(cells[x+z*hf.Width], cell)
			}
			sortInts(cells[x+z*hf.Width])
		}
	}
	return cells
}

func nearOracle(oracle [][]int, hf *bake.Heightfield, x, z int) bool {
	for dz := -1; dz <= 1; dz++ {
		for dx := -1; dx <= 1; dx++ {
			if nx, nz := x+dx, z+dz; nx >= 0 && nz >= 0 && nx < hf.Width && nz < hf.Height && len(oracle[nx+nz*hf.Width]) > 0 {
				return true
			}
		}
	}
	return false
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// filled reports whether cell of column (x, z) is inside a span.
func filled(hf *bake.Heightfield, x, z, cell int) bool {
	for s := hf.Columns[x+z*hf.Width]; s >= 0; s = hf.Pool[s].Next {
		if int(hf.Pool[s].Min) <= cell && cell < int(hf.Pool[s].Max) {
			return true
		}
	}
	return false
}
