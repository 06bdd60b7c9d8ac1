package navmesh

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// insideTile is the off-mesh end-point class of a point inside the tile's
// xz bounds (and, for a start point, within its height range).
const insideTile uint8 = 0xff

// offMeshClassification tells, for each off-mesh connection, where its end
// points lie relative to the tile.
type offMeshClassification struct {
	// startClass and endClass hold insideTile or the tile side (0..7) each
	// end point lies beyond.
	startClass, endClass []uint8
	// storedCount is the number of connections starting inside the tile.
	storedCount int
	// linkedEndCount is the number of end points inside the tile, over all
	// connections; each reserves two links.
	linkedEndCount int
}

// stored reports whether connection i starts inside the tile and is kept.
func (c *offMeshClassification) stored(i int) bool { return c.startClass[i] == insideTile }

// classifyOffMeshConnections classifies the end points of every off-mesh
// connection against the tile's xz bounds and against the height range of
// its surface widened by the climb height.
func classifyOffMeshConnections(p *BuildParams) offMeshClassification {
	var c offMeshClassification
	if len(p.OffMeshConnections) == 0 {
		return c
	}
	heightMin, heightMax := surfaceHeightRange(p)
	bmin := mgl32.Vec3{p.BMin[0], heightMin - p.WalkableClimb, p.BMin[2]}
	bmax := mgl32.Vec3{p.BMax[0], heightMax + p.WalkableClimb, p.BMax[2]}

	c.startClass = make([]uint8, len(p.OffMeshConnections))
	c.endClass = make([]uint8, len(p.OffMeshConnections))
	for i, con := range p.OffMeshConnections {
		start := classifyOffMeshPoint(con.Start, bmin, bmax)
		end := classifyOffMeshPoint(con.End, bmin, bmax)
		if start == insideTile && (con.Start[1] < bmin[1] || con.Start[1] > bmax[1]) {
			start = 0
		}
		if start == insideTile {
			c.linkedEndCount++
			c.storedCount++
		}
		if end == insideTile {
			c.linkedEndCount++
		}
		c.startClass[i], c.endClass[i] = start, end
	}
	return c
}

// surfaceHeightRange returns the lowest and highest y of the detail
// vertices, or of the polygon vertices when there are none.
func surfaceHeightRange(p *BuildParams) (lo, hi float32) {
	lo, hi = math.MaxFloat32, -math.MaxFloat32
	if len(p.DetailVerts) > 0 {
		for _, v := range p.DetailVerts {
			lo = minC(lo, v[1])
			hi = maxC(hi, v[1])
		}
		return lo, hi
	}
	for _, v := range p.Verts {
		h := p.BMin[1] + float32(float32(v[1])*p.CellHeight)
		lo = minC(lo, h)
		hi = maxC(hi, h)
	}
	return lo, hi
}

// classifyOffMeshPoint returns the tile side (0 = +x, then counter-clockwise
// in steps of 45°) that pt lies beyond in the xz-plane, or insideTile.
func classifyOffMeshPoint(pt, bmin, bmax mgl32.Vec3) uint8 {
	const (
		plusX  = 1 << 0
		plusZ  = 1 << 1
		minusX = 1 << 2
		minusZ = 1 << 3
	)
	var outcode uint8
	if pt[0] >= bmax[0] {
		outcode |= plusX
	}
	if pt[2] >= bmax[2] {
		outcode |= plusZ
	}
	if pt[0] < bmin[0] {
		outcode |= minusX
	}
	if pt[2] < bmin[2] {
		outcode |= minusZ
	}
	switch outcode {
	case plusX:
		return 0
	case plusX | plusZ:
		return 1
	case plusZ:
		return 2
	case minusX | plusZ:
		return 3
	case minusX:
		return 4
	case minusX | minusZ:
		return 5
	case minusZ:
		return 6
	case plusX | minusZ:
		return 7
	}
	return insideTile
}

// minC and maxC pick like the C++ dtMin and dtMax: on a tie (such as -0
// and +0) they return the second argument, where Go's min and max prefer
// -0 and +0.
func minC(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func maxC(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}
