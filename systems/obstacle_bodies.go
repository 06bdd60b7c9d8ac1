package systems

import (
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
)

// Bounds of the obstacle bodies one agent deals with per tick.
const (
	// maxNearBodies is the most bodies looked at around one agent.
	maxNearBodies = 16
	// maxBodyCircles and maxBodySegments are the room the avoidance
	// planners keep for cylinder bodies and for the edges of the others.
	maxBodyCircles  = 6
	maxBodySegments = 16
	// maxBodyContacts is the most bodies an agent is pushed out of per
	// tick.
	maxBodyContacts = 4
)

// bodyScratch is one worker's room for the bodies near an agent.
type bodyScratch struct {
	ids      [maxNearBodies]uint32
	distance [maxNearBodies]float32
}

// nearBodies returns the bodies within reach (xz) of an agent at pos of
// the given height whose height range it overlaps, nearest first (ties by
// index), at most maxNearBodies.
func (s *stage) nearBodies(pos geom.Vec3, reach, height float32, scratch *bodyScratch) []uint32 {
	if s.bodies == nil {
		return nil
	}
	found := s.bodies.Near(pos[0]-reach, pos[2]-reach, pos[0]+reach, pos[2]+reach, scratch.ids[:])
	n := 0
	for _, id := range scratch.ids[:found] {
		f := &s.bodies.List[id].Footprint
		if pos[1] > f.MaxY || pos[1]+height < f.MinY {
			continue
		}
		d, _, _ := f.Distance(pos[0], pos[2])
		if d > reach {
			continue
		}
		// Insert by distance, then index, so that the grid's order does not
		// matter.
		at := n
		for at > 0 && (scratch.distance[at-1] > d || scratch.distance[at-1] == d && scratch.ids[at-1] > id) {
			scratch.ids[at], scratch.distance[at] = scratch.ids[at-1], scratch.distance[at-1]
			at--
		}
		scratch.ids[at], scratch.distance[at] = id, d
		n++
	}
	return scratch.ids[:n]
}

// addBodies adds the bodies near agent a to its velocity planner, the
// sampler oa or ORCA's ra (the other nil): cylinders as circles it avoids on
// its own (they do not avoid back), the edges of the other shapes as wall
// segments — for the sampler those that face the agent, for ORCA all of
// them, so that it links their corners and drops the far edges itself.
func (s *stage) addBodies(a *agent, scratch *bodyScratch, oa *crowd.ObstacleAvoidance, ra *crowd.ReciprocalAvoidance) {
	pos := a.position.Vec3()
	circles, segments := 0, 0
	for _, id := range s.nearBodies(pos, a.params.CollisionQueryRange, a.params.Height, scratch) {
		body := &s.bodies.List[id]
		f := &body.Footprint
		if f.Circle {
			if circles < maxBodyCircles {
				center := geom.Vec3{f.Center[0], pos[1], f.Center[1]}
				var err error
				if oa != nil {
					err = oa.AddCircleWithResponsibility(center, f.Radius, body.Velocity, body.Velocity, 1)
				} else {
					err = ra.AddNeighbour(crowd.ORCANeighbour{Position: center, Velocity: body.Velocity, Radius: f.Radius, Responsibility: 1})
				}
				if err == nil {
					circles++
				}
			}
			continue
		}
		for k := 0; k < f.Count && segments < maxBodySegments; k++ {
			p, q := f.Points[k], f.Points[(k+1)%f.Count]
			from := geom.Vec3{p[0], pos[1], p[1]}
			to := geom.Vec3{q[0], pos[1], q[1]}
			var err error
			if oa != nil {
				if geom.TriArea2D(pos, from, to) <= 0 {
					continue // faces away
				}
				err = oa.AddSegment(from, to)
			} else {
				err = ra.AddSegment(from, to)
			}
			if err == nil {
				segments++
			}
		}
	}
}

// pushOutOfBodies moves (x, z), an agent of the given radius, out of the
// bodies in contacts, by at most budget in all; it returns the new point
// and the budget left. With walls (Settings.WallSafeCollisions), a push
// that would drive the agent into a wall it touches (contact set set)
// slides along the wall instead, as far as it takes to clear the body: an
// agent walked into the wedge between a body and a wall leaves it the way
// it came rather than staying inside the body.
func (s *stage) pushOutOfBodies(x, z, radius float32, contacts []int32, budget float32, walls *nearWalls, set int) (float32, float32, float32) {
	for _, id := range contacts {
		if id < 0 || budget <= 0 {
			break
		}
		f := &s.bodies.List[id].Footprint
		d, nx, nz := f.Distance(x, z)
		depth := radius - d
		if depth <= 0 {
			continue
		}
		if walls != nil {
			var share float32
			nx, nz, share = walls.slideDirection(nx, nz, set)
			if share < minSlideShare {
				continue
			}
			depth /= share
		}
		push := min(depth, budget)
		x += float32(nx * push)
		z += float32(nz * push)
		budget -= push
	}
	return x, z, budget
}

// minSlideShare is the least share of a body's push a slide along a wall
// must carry to be made: below it the agent is stuck between the two.
const minSlideShare = float32(0.05)

// bodyContactList writes into contacts the bodies an agent at pos may be
// pushed out of this tick: those within its radius plus how far the pushes
// and its own motion can carry it, nearest first; the rest of the list is
// -1.
func (s *stage) bodyContactList(a *agent, pos geom.Vec3, contacts *[maxBodyContacts]int32, scratch *bodyScratch) {
	n := 0
	if s.bodies != nil {
		reach := a.params.Radius + bodyContactMargin + float32(a.params.MaxSpeed*s.dt)
		for _, id := range s.nearBodies(pos, reach, a.params.Height, scratch) {
			if n == maxBodyContacts {
				break
			}
			contacts[n] = int32(id)
			n++
		}
	}
	for k := n; k < maxBodyContacts; k++ {
		contacts[k] = -1
	}
}

// bodyContactMargin widens the search for bodies an agent may be pushed out
// of [Units: world units]
const bodyContactMargin = float32(0.5)

// bodyPushBudget is how far the bodies may push agent a in one tick: as
// far as it or the fastest body near it moves in a tick, so that a body
// that appears on an agent lets it walk out instead of throwing it.
func (s *stage) bodyPushBudget(a *agent, contacts []int32) float32 {
	speed := a.params.MaxSpeed
	for _, id := range contacts {
		if id < 0 {
			break
		}
		v := s.bodies.List[id].Velocity
		speed = max(speed, geom.Sqrt(float32(v[0]*v[0])+float32(v[2]*v[2])))
	}
	return speed * s.dt
}

// avoids reports whether agent a avoids neighbour other in velocity
// planning (AgentParams.Avoids), and the share of the avoidance it takes
// on: all of it against a neighbour of higher priority, half otherwise.
func avoids(a, other *agent) (bool, float32) {
	if !a.params.Avoids(other.params) {
		return false, 0
	}
	if other.params.AvoidancePriority > a.params.AvoidancePriority {
		return true, 1
	}
	return true, 0.5
}
