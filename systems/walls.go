package systems

import (
	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
)

// Wall handling of the wall-safe collisions.
const (
	// maxNearWalls is how many walls near an agent the collision pass
	// keeps.
	maxNearWalls = 4
	// nearWallDistance is how near a wall must be to be kept: more than a
	// collision push can carry an agent in one tick [Units: world units]
	nearWallDistance = float32(1.0)
	// wallContactDistance is how near a wall an agent must be to count as
	// pressed against it [Units: world units]
	wallContactDistance = float32(0.05)
)

// nearWall is one wall segment (x and z of its ends) with its unit normal
// pointing to the walkable side. Scalars: the collision passes run over
// these for every agent several times a tick.
type nearWall struct {
	px, pz, qx, qz   float32
	normalX, normalZ float32
}

// nearWalls are the walls of the local boundary near one agent, and those
// of them it is pressed against (their normals). The contacts are kept for
// two sets of positions, the current pass's and the next one's, so that a
// pass can find the next one's contacts while others still read the
// current ones.
type nearWalls struct {
	count    int
	walls    [maxNearWalls]nearWall
	contacts [2]int
	normals  [2][maxNearWalls][2]float32
}

// gather keeps the boundary segments within nearWallDistance of pos whose
// walkable side pos is on.
func (w *nearWalls) gather(pos geom.Vec3, segments []crowd.BoundarySegment) {
	w.count = 0
	x, z := pos[0], pos[2]
	for k := range segments {
		seg := &segments[k]
		if w.count == maxNearWalls {
			return
		}
		px, pz, qx, qz := seg.P[0], seg.P[2], seg.Q[0], seg.Q[2]
		if segmentDistanceSqr(x, z, px, pz, qx, qz) > nearWallDistance*nearWallDistance ||
			fastgeom.TriArea2D(fastgeom.Point{X: x, Z: z}, fastgeom.Point{X: px, Z: pz}, fastgeom.Point{X: qx, Z: qz}) < 0 {
			continue
		}
		// The walkable side is on the left of P→Q seen from above.
		ex, ez := qx-px, qz-pz
		length := geom.Sqrt(float32(ex*ex) + float32(ez*ez))
		if length < 1e-6 {
			continue
		}
		w.walls[w.count] = nearWall{px: px, pz: pz, qx: qx, qz: qz, normalX: ez / length, normalZ: -ex / length}
		w.count++
	}
}

// touch finds the walls an agent at (x, z) is pressed against, into
// contact set set (0 or 1).
func (w *nearWalls) touch(x, z float32, set int) {
	contacts := 0
	for k := 0; k < w.count; k++ {
		wall := &w.walls[k]
		if segmentDistanceSqr(x, z, wall.px, wall.pz, wall.qx, wall.qz) < wallContactDistance*wallContactDistance {
			w.normals[set][contacts] = [2]float32{wall.normalX, wall.normalZ}
			contacts++
		}
	}
	w.contacts[set] = contacts
}

// blocks reports whether the agent, as of contact set set, is pressed
// against a wall that a push in direction (dirX, dirZ) would drive it into.
func (w *nearWalls) blocks(dirX, dirZ float32, set int) bool {
	for k := 0; k < w.contacts[set]; k++ {
		n := &w.normals[set][k]
		if float32(dirX*n[0])+float32(dirZ*n[1]) < 0 {
			return true
		}
	}
	return false
}

// slideDirection returns the unit direction in which a push in direction
// (dirX, dirZ) can move the agent, as of contact set set: the push itself,
// or its part along the first wall it would drive the agent into, and that
// direction's share of the push (its dot product with it, 0 when the wall
// leaves no room).
func (w *nearWalls) slideDirection(dirX, dirZ float32, set int) (float32, float32, float32) {
	for k := 0; k < w.contacts[set]; k++ {
		n := &w.normals[set][k]
		into := float32(dirX*n[0]) + float32(dirZ*n[1])
		if into >= 0 {
			continue
		}
		tx, tz := dirX-float32(n[0]*into), dirZ-float32(n[1]*into)
		length := geom.Sqrt(float32(tx*tx) + float32(tz*tz))
		if length < 1e-4 {
			return 0, 0, 0
		}
		return tx / length, tz / length, length
	}
	return dirX, dirZ, 1
}

// keepInside returns (x, z) moved back onto the walkable side of every
// wall it went behind.
func (w *nearWalls) keepInside(x, z float32) (float32, float32) {
	for pass := 0; pass < 2; pass++ { // twice, for corners
		for k := 0; k < w.count; k++ {
			wall := &w.walls[k]
			depth := float32((x-wall.px)*wall.normalX) + float32((z-wall.pz)*wall.normalZ)
			if depth >= 0 {
				continue
			}
			// Only behind the segment itself, not beyond its ends.
			if segmentDistanceSqr(x, z, wall.px, wall.pz, wall.qx, wall.qz) > float32(depth*depth*1.0001)+1e-8 {
				continue
			}
			x -= float32(wall.normalX * depth)
			z -= float32(wall.normalZ * depth)
		}
	}
	return x, z
}

// segmentDistanceSqr is the squared xz distance from (x, z) to the segment
// (px, pz)→(qx, qz).
func segmentDistanceSqr(x, z, px, pz, qx, qz float32) float32 {
	distSqr, _ := fastgeom.DistancePtSegSqr2D(fastgeom.Point{X: x, Z: z},
		fastgeom.Point{X: px, Z: pz}, fastgeom.Point{X: qx, Z: qz})
	return distSqr
}
