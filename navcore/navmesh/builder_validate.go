package navmesh

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/geom"
)

// Limits of the tile-data layout: vertex and off-mesh polygon indices are
// 16 bits, and an inner neighbour code 1+index must stay below ExternalLink.
const (
	maxTileVerts          = 1 << 16
	maxTilePolys          = 1 << 16
	maxInnerNeighbourCode = int(ExternalLink) - 1
)

// buildShape holds the counts validateBuildParams derives from the input.
type buildShape struct {
	polyCount int
	// uniqueDetailVertCount is the number of detail vertices kept (the
	// sub-meshes' vertices minus their polygons' own).
	uniqueDetailVertCount int
	// fanTriCount is the number of triangles of the stand-in detail mesh.
	fanTriCount int
	// offMesh tells which off-mesh connections the tile stores.
	offMesh offMeshClassification
}

// buildParamsError returns an error about the build input wrapping
// ErrInvalidBuildParams.
func buildParamsError(format string, args ...any) error {
	return fmt.Errorf("navmesh: build tile: %s: %w", fmt.Sprintf(format, args...), ErrInvalidBuildParams)
}

// validateBuildParams checks everything BuildTileData indexes or converts,
// so that building cannot fail halfway or panic.
func validateBuildParams(p *BuildParams) (buildShape, error) {
	var shape buildShape
	if p == nil {
		return shape, buildParamsError("nil parameters")
	}
	nvp := p.VertsPerPoly
	if nvp < 3 || nvp > MaxVertsPerPoly {
		return shape, buildParamsError("VertsPerPoly %d outside 3..%d", nvp, MaxVertsPerPoly)
	}
	if len(p.Verts) == 0 || len(p.Verts) >= int(meshNullIndex) {
		return shape, buildParamsError("%d vertices, want 1..%d", len(p.Verts), meshNullIndex-1)
	}
	if len(p.Polys) == 0 || len(p.Polys)%(2*nvp) != 0 {
		return shape, buildParamsError("Polys has %d values, want a non-zero multiple of 2*VertsPerPoly = %d", len(p.Polys), 2*nvp)
	}
	shape.polyCount = len(p.Polys) / (2 * nvp)
	if len(p.PolyFlags) != shape.polyCount || len(p.PolyAreas) != shape.polyCount {
		return shape, buildParamsError("%d polygons but %d flags and %d areas", shape.polyCount, len(p.PolyFlags), len(p.PolyAreas))
	}
	if err := validateTileGeometry(p); err != nil {
		return shape, err
	}
	fanTriCount, err := validatePolys(p, shape.polyCount)
	if err != nil {
		return shape, err
	}
	shape.fanTriCount = fanTriCount

	if err := validateOffMeshConnections(p); err != nil {
		return shape, err
	}
	shape.offMesh = classifyOffMeshConnections(p)
	storedOffMesh := shape.offMesh.storedCount
	if total := len(p.Verts) + 2*storedOffMesh; total > maxTileVerts {
		return shape, buildParamsError("%d vertices with off-mesh connections, limit %d", total, maxTileVerts)
	}
	if total := shape.polyCount + storedOffMesh; total > maxTilePolys {
		return shape, buildParamsError("%d polygons with off-mesh connections, limit %d", total, maxTilePolys)
	}

	if len(p.DetailMeshes) > 0 {
		shape.uniqueDetailVertCount, err = validateDetailMesh(p, shape.polyCount)
		if err != nil {
			return shape, err
		}
	} else if len(p.DetailTris) > 0 {
		return shape, buildParamsError("%d detail triangles but no detail meshes", len(p.DetailTris))
	}
	if err := checkFiniteVerts("detail vertex", p.DetailVerts); err != nil {
		return shape, err
	}
	return shape, nil
}

// validateTileGeometry checks the tile's bounds and agent settings.
func validateTileGeometry(p *BuildParams) error {
	if !geom.IsFinite(p.BMin) || !geom.IsFinite(p.BMax) {
		return buildParamsError("bounds %v..%v not finite", p.BMin, p.BMax)
	}
	if p.BMin[0] > p.BMax[0] || p.BMin[1] > p.BMax[1] || p.BMin[2] > p.BMax[2] {
		return buildParamsError("bounds %v..%v not ordered", p.BMin, p.BMax)
	}
	if !(p.CellSize > 0) || !(p.CellHeight > 0) || !isFinite32(p.CellSize) || !isFinite32(p.CellHeight) || !isFinite32(1/p.CellSize) {
		return buildParamsError("cell size %v and height %v must be positive and finite", p.CellSize, p.CellHeight)
	}
	for _, setting := range []struct {
		name  string
		value float32
	}{
		{"WalkableHeight", p.WalkableHeight},
		{"WalkableRadius", p.WalkableRadius},
		{"WalkableClimb", p.WalkableClimb},
	} {
		if !isFinite32(setting.value) || setting.value < 0 {
			return buildParamsError("%s %v must be finite and >= 0", setting.name, setting.value)
		}
	}
	return nil
}

// validatePolys checks vertex indices, neighbour codes and areas of every
// polygon, and returns the triangle count of a fan triangulation.
func validatePolys(p *BuildParams, polyCount int) (fanTriCount int, err error) {
	nvp := p.VertsPerPoly
	for i := 0; i < polyCount; i++ {
		src := p.Polys[i*2*nvp : (i+1)*2*nvp]
		vertCount := 0
		for j := 0; j < nvp; j++ {
			index := src[j]
			if index == meshNullIndex {
				break
			}
			if int(index) >= len(p.Verts) {
				return 0, buildParamsError("polygon %d vertex %d: index %d out of range (%d vertices)", i, j, index, len(p.Verts))
			}
			code := src[nvp+j]
			if code&polyMeshBorderFlag == 0 && (int(code) >= polyCount || int(code) >= maxInnerNeighbourCode) {
				return 0, buildParamsError("polygon %d edge %d: neighbour %d out of range (%d polygons)", i, j, code, polyCount)
			}
			vertCount++
		}
		if vertCount < 3 {
			return 0, buildParamsError("polygon %d has %d vertices, want at least 3", i, vertCount)
		}
		if p.PolyAreas[i] >= MaxAreas {
			return 0, buildParamsError("polygon %d area %d, limit %d", i, p.PolyAreas[i], MaxAreas-1)
		}
		fanTriCount += vertCount - 2
	}
	return fanTriCount, nil
}

// validateOffMeshConnections checks the connections' values.
func validateOffMeshConnections(p *BuildParams) error {
	for i, c := range p.OffMeshConnections {
		if !geom.IsFinite(c.Start) || !geom.IsFinite(c.End) {
			return buildParamsError("off-mesh connection %d: end points %v, %v not finite", i, c.Start, c.End)
		}
		if !isFinite32(c.Radius) || c.Radius < 0 {
			return buildParamsError("off-mesh connection %d: radius %v must be finite and >= 0", i, c.Radius)
		}
		if c.Area >= MaxAreas {
			return buildParamsError("off-mesh connection %d: area %d, limit %d", i, c.Area, MaxAreas-1)
		}
	}
	return nil
}

// validateDetailMesh checks that every sub-mesh lies inside the detail
// arrays, starts with its polygon's vertices and indexes only its own
// vertices, and returns the number of detail vertices kept.
func validateDetailMesh(p *BuildParams, polyCount int) (uniqueVertCount int, err error) {
	if len(p.DetailMeshes) != polyCount {
		return 0, buildParamsError("%d detail meshes for %d polygons", len(p.DetailMeshes), polyCount)
	}
	nvp := p.VertsPerPoly
	for i, mesh := range p.DetailMeshes {
		vertBase, vertCount := uint64(mesh[0]), uint64(mesh[1])
		triBase, triCount := uint64(mesh[2]), uint64(mesh[3])
		if vertBase+vertCount > uint64(len(p.DetailVerts)) {
			return 0, buildParamsError("detail mesh %d: vertices %d..%d beyond %d", i, vertBase, vertBase+vertCount, len(p.DetailVerts))
		}
		if triBase+triCount > uint64(len(p.DetailTris)) {
			return 0, buildParamsError("detail mesh %d: triangles %d..%d beyond %d", i, triBase, triBase+triCount, len(p.DetailTris))
		}
		polyVertCount := uint64(countPolyVerts(p.Polys[i*2*nvp : i*2*nvp+nvp]))
		if vertCount < polyVertCount || vertCount-polyVertCount > math.MaxUint8 || triCount > math.MaxUint8 {
			return 0, buildParamsError("detail mesh %d: %d vertices and %d triangles for a polygon of %d vertices (at most %d extra of each)",
				i, vertCount, triCount, polyVertCount, math.MaxUint8)
		}
		for t := triBase; t < triBase+triCount; t++ {
			a, b, c := uint64(p.DetailTris[t][0]), uint64(p.DetailTris[t][1]), uint64(p.DetailTris[t][2])
			if a >= vertCount || b >= vertCount || c >= vertCount {
				return 0, buildParamsError("detail mesh %d: triangle %d indexes [%d %d %d] beyond its %d vertices", i, t, a, b, c, vertCount)
			}
		}
		uniqueVertCount += int(vertCount - polyVertCount)
	}
	return uniqueVertCount, nil
}

// countPolyVerts returns the number of used vertex slots of a poly-mesh
// polygon.
func countPolyVerts(indices []uint16) int {
	for j, index := range indices {
		if index == meshNullIndex {
			return j
		}
	}
	return len(indices)
}

// checkFiniteVerts returns an error naming the first vertex of verts with a
// component that is NaN or infinite.
func checkFiniteVerts(what string, verts []mgl32.Vec3) error {
	for i, v := range verts {
		if !geom.IsFinite(v) {
			return buildParamsError("%s %d is %v, not finite", what, i, v)
		}
	}
	return nil
}

func isFinite32(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}
