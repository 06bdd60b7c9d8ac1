package bake

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlopeMarkingFromRecastTests ports the rcMarkWalkableTriangles and
// rcClearUnwalkableTriangles cases of Tests_Recast.cpp.
func TestSlopeMarkingFromRecastTests(t *testing.T) {
	vertices := []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, -1}}
	walkableTriangle := [][3]int32{{0, 1, 2}}
	unwalkableTriangle := [][3]int32{{0, 2, 1}} // facing down

	tests := []struct {
		name      string
		clear     bool
		slope     float32
		triangles [][3]int32
		area      uint8
		want      uint8
	}{
		{"mark: a walkable triangle", false, 45, walkableTriangle, NullArea, WalkableArea},
		{"mark: a non-walkable triangle", false, 45, unwalkableTriangle, NullArea, NullArea},
		{"mark: non-walkable areas are left alone", false, 45, unwalkableTriangle, 42, 42},
		{"mark: a slope equal to the limit is not walkable", false, 0, walkableTriangle, NullArea, NullArea},
		{"clear: an unwalkable triangle", true, 45, unwalkableTriangle, 42, NullArea},
		{"clear: walkable areas are left alone", true, 45, walkableTriangle, 42, 42},
		{"clear: a slope equal to the limit is not walkable", true, 0, walkableTriangle, 42, NullArea},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			areas := []uint8{tt.area}
			var err error
			if tt.clear {
				err = ClearUnwalkableTriangles(tt.slope, vertices, tt.triangles, areas)
			} else {
				err = MarkWalkableTriangles(tt.slope, vertices, tt.triangles, areas)
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, areas[0])
		})
	}
}

func TestSlopeThresholds(t *testing.T) {
	// A ramp rising 1 over a run of 1 is exactly 45° steep, one rising 0.99
	// is 44.7°.
	vertices := []mgl32.Vec3{{0, 0, 0}, {0, 1, 1}, {1, 1, 1}, {1, 0, 0}, {0, 0.99, 1}, {1, 0.99, 1}}
	ramp45 := [3]int32{0, 1, 2}
	flatter := [3]int32{0, 4, 5}
	degenerate := [3]int32{0, 0, 3}
	triangles := [][3]int32{ramp45, flatter, degenerate}

	areas := make([]uint8, 3)
	require.NoError(t, MarkWalkableTriangles(45, vertices, triangles, areas))
	assert.Equal(t, []uint8{NullArea, WalkableArea, NullArea}, areas)
	areas = []uint8{1, 2, 3}
	require.NoError(t, MarkWalkableTriangles(46, vertices, triangles, areas))
	assert.Equal(t, []uint8{WalkableArea, WalkableArea, 3}, areas)

	areas = []uint8{5, 5, 5}
	require.NoError(t, ClearUnwalkableTriangles(44.5, vertices, triangles, areas))
	assert.Equal(t, []uint8{NullArea, NullArea, 5}, areas, "a degenerate triangle keeps its area")
}

func TestSlopeMarkingRejectsBadInput(t *testing.T) {
	vertices := []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, -1}}
	areas := []uint8{0}
	assert.ErrorContains(t, MarkWalkableTriangles(45, vertices, [][3]int32{{0, 1, 3}}, areas), "vertex index 3")
	assert.ErrorContains(t, ClearUnwalkableTriangles(45, vertices, [][3]int32{{0, 1, 2}}, nil), "0 areas")
	assert.Equal(t, uint8(0), areas[0])
}
