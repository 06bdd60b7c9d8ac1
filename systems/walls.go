package systems

import (
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

// nearWall is one wall segment with its unit normal pointing to the
// walkable side.
type nearWall struct {
	p, q, normal geom.Vec3
}

// nearWalls are the walls of the local boundary near one agent, and those
// of them it is pressed against (their normals), as of the current pass.
type nearWalls struct {
	count    int
	walls    [maxNearWalls]nearWall
	contacts int
	normals  [maxNearWalls]geom.Vec3
}

// gather keeps the boundary segments within nearWallDistance of pos whose
// walkable side pos is on.
func (w *nearWalls) gather(pos geom.Vec3, segments []crowd.BoundarySegment) {
	w.count = 0
	for k := range segments {
		seg := &segments[k]
		if w.count == maxNearWalls {
			return
		}
		distSqr, _ := geom.DistancePtSegSqr2D(pos, seg.P, seg.Q)
		if distSqr > nearWallDistance*nearWallDistance || geom.TriArea2D(pos, seg.P, seg.Q) < 0 {
			continue
		}
		// The walkable side is on the left of P→Q seen from above.
		ex, ez := seg.Q[0]-seg.P[0], seg.Q[2]-seg.P[2]
		length := geom.Sqrt(ex*ex + ez*ez)
		if length < 1e-6 {
			continue
		}
		w.walls[w.count] = nearWall{p: seg.P, q: seg.Q, normal: geom.Vec3{ez / length, 0, -ex / length}}
		w.count++
	}
}

// touch finds the walls an agent at pos is pressed against.
func (w *nearWalls) touch(pos geom.Vec3) {
	w.contacts = 0
	for k := 0; k < w.count; k++ {
		wall := &w.walls[k]
		if distSqr, _ := geom.DistancePtSegSqr2D(pos, wall.p, wall.q); distSqr < wallContactDistance*wallContactDistance {
			w.normals[w.contacts] = wall.normal
			w.contacts++
		}
	}
}

// blocks reports whether the agent, as of the last touch, is pressed
// against a wall that a push in direction dir would drive it into.
func (w *nearWalls) blocks(dir geom.Vec3) bool {
	for k := 0; k < w.contacts; k++ {
		if geom.Dot2D(dir, w.normals[k]) < 0 {
			return true
		}
	}
	return false
}

// keepInside returns next, moved back onto the walkable side of every wall
// it went behind.
func (w *nearWalls) keepInside(next geom.Vec3) geom.Vec3 {
	for pass := 0; pass < 2; pass++ { // twice, for corners
		for k := 0; k < w.count; k++ {
			wall := &w.walls[k]
			depth := (next[0]-wall.p[0])*wall.normal[0] + (next[2]-wall.p[2])*wall.normal[2]
			if depth >= 0 {
				continue
			}
			// Only behind the segment itself, not beyond its ends.
			if distSqr, _ := geom.DistancePtSegSqr2D(next, wall.p, wall.q); distSqr > depth*depth*1.0001+1e-8 {
				continue
			}
			next[0] -= wall.normal[0] * depth
			next[2] -= wall.normal[2] * depth
		}
	}
	return next
}
