package sim

import (
	"errors"
	"fmt"
	"github.com/archenav/archenav/internal/detmath"
	"math"
	"slices"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// The demo's obstacles.
const (
	// crateHalf and crateHeight size a crate [Units: world units].
	crateHalf, crateHeight = float32(0.75), float32(1.2)
	// crateSink puts a crate's base below the floor it stands on, so that
	// it carves the floor however the surface is rounded [Units: world
	// units].
	crateSink = float32(0.2)
	// cratesAhead is how many crates the script drops in agents' ways,
	// cratesAheadDistance how far ahead of each [Units: world units].
	cratesAhead         = 6
	cratesAheadDistance = float32(4)
	// doorThickness is a door's half depth [Units: world units].
	doorThickness = float32(0.35)
)

// The script of the default run [Units: s].
const (
	scriptDoorAt      = 1.0
	scriptCratesAt    = 1.5
	scriptDoorCloseAt = 3.0
	scriptDoorOpenAt  = 7.0
)

// obstacle is one of the demo's obstacle entities.
type obstacle struct {
	entity ecs.Entity
	door   bool
}

// ErrNoTileCache is returned for obstacles on a level without a tile
// cache.
var ErrNoTileCache = errors.New("sim: this level has no tile cache: obstacles need one")

// HasTileCache reports whether obstacles can carve the navmesh.
func (s *Sim) HasTileCache() bool { return s.types[0].TileCache != nil }

// crate returns a crate obstacle.
func crate() components.Obstacle {
	return components.BoxObstacle(crateHalf, crateHalf, crateHeight).Carving()
}

// DropCrate drops a crate on the navmesh point nearest pos: it carves the
// navmesh once it has stood still for half a second. It returns the
// crate's index for MoveObstacle.
func (s *Sim) DropCrate(pos geom.Vec3) (int, error) {
	if !s.HasTileCache() {
		return -1, ErrNoTileCache
	}
	nearest, err := s.types[0].query.FindNearestPoly(pos, nearestExtents, s.filter)
	if err != nil || nearest.Ref == 0 {
		return -1, fmt.Errorf("sim: drop crate: no navmesh near %v", pos)
	}
	return s.addObstacle(crate(), components.ObstaclePose{Position: geom.Sub(nearest.Point, geom.Vec3{0, crateSink, 0})}, false)
}

func (s *Sim) addObstacle(o components.Obstacle, pose components.ObstaclePose, door bool) (int, error) {
	e, err := s.crowd.SpawnObstacle(&s.world, pose, o)
	if err != nil {
		return -1, fmt.Errorf("sim: %w", err)
	}
	s.obstacles = append(s.obstacles, obstacle{entity: e, door: door})
	return len(s.obstacles) - 1, nil
}

// ObstacleAt returns the index of the crate under world x, z, -1 for none.
func (s *Sim) ObstacleAt(x, z float32) int {
	for i, o := range s.obstacles {
		if o.door {
			continue
		}
		info, err := s.crowd.Obstacle(&s.world, o.entity)
		if err != nil {
			continue
		}
		f := info.Obstacle.Footprint(info.Pose)
		if d, _, _ := f.Distance(x, z); d <= 0.2 {
			return i
		}
	}
	return -1
}

// MoveObstacle puts crate i on the navmesh point under world x, z (it
// leaves its hole while it moves and carves again where it stops).
func (s *Sim) MoveObstacle(i int, x, z float32) error {
	if i < 0 || i >= len(s.obstacles) || s.obstacles[i].door {
		return fmt.Errorf("sim: move obstacle %d: no such crate", i)
	}
	info, err := s.crowd.Obstacle(&s.world, s.obstacles[i].entity)
	if err != nil {
		return fmt.Errorf("sim: move obstacle: %w", err)
	}
	base := info.Pose.Position[1] + crateSink
	point, ok := s.PointAt(x, z, base-2, base+2)
	if !ok {
		return nil // off the navmesh: it stays
	}
	pose := info.Pose
	pose.Position = geom.Sub(point, geom.Vec3{0, crateSink, 0})
	return s.crowd.SetObstaclePose(&s.world, s.obstacles[i].entity, pose)
}

// door returns the door obstacle, open (an area of navmesh.AreaDoor) or
// closed (carving at once).
func door(halfLength float32, closed bool) components.Obstacle {
	o := components.OrientedBoxObstacle(halfLength, doorThickness, 2)
	if !closed {
		return o.MarkingArea(navmesh.AreaDoor)
	}
	o = o.Carving()
	o.StationaryTime, o.CarveWhileMoving = 0, true
	return o
}

// PlaceDoor puts a door across a narrow passage of the main region that
// the agents' corridors cross (see findDoorway), open. It returns false when the level has
// no tile cache or no such passage.
func (s *Sim) PlaceDoor() (bool, error) {
	if !s.HasTileCache() || s.doorIndex >= 0 {
		return false, nil
	}
	center, yaw, halfLength, ok := s.findDoorway()
	if !ok {
		return false, nil
	}
	i, err := s.addObstacle(door(halfLength, false), components.ObstaclePose{Position: center, Yaw: yaw}, true)
	if err != nil {
		return false, err
	}
	s.doorIndex, s.doorHalfLength = i, halfLength
	return true, nil
}

// SetDoorClosed closes or opens the door: closed it carves the navmesh,
// so agents standing in it walk out and paths through it are replanned.
func (s *Sim) SetDoorClosed(closed bool) error {
	if s.doorIndex < 0 {
		return nil
	}
	s.doorClosed = closed
	return s.crowd.SetObstacle(&s.world, s.obstacles[s.doorIndex].entity, door(s.doorHalfLength, closed))
}

// DoorClosed reports whether the door is closed.
func (s *Sim) DoorClosed() bool { return s.doorClosed }

// findDoorway looks for a narrow passage of the main region that the
// agents' corridors cross: among seeded random points of the first type's
// mesh whose walls on both sides are 0.4 to 1.6 m apart for the agents'
// centres, the one on the most corridors of that type's agents (the
// narrowest of those). It returns the passage's
// centre, the yaw that turns a door's long side across it and the door's
// half length.
func (s *Sim) findDoorway() (center geom.Vec3, yaw, halfLength float32, ok bool) {
	rng := newRandom(s.config.Seed ^ 0xd00d)
	first := &s.types[0]
	bestUse, bestWidth := -1, float32(math.MaxFloat32)
	for range 400 {
		p, err := first.spawns.RandomPoint(rng.Float32)
		if err != nil {
			return center, 0, 0, false
		}
		wall, _, err := first.query.FindDistanceToWall(p.Ref, p.Pos, 2, s.filter)
		if err != nil || wall.Normal == (geom.Vec3{}) {
			continue
		}
		across := geom.Normalize(geom.Vec3{wall.Normal[0], 0, wall.Normal[2]})
		end := geom.Mad(p.Pos, across, 3)
		hit, _, err := first.query.Raycast(p.Ref, p.Pos, end, s.filter, 0, 0, nil)
		if err != nil || hit.T > 1 {
			continue
		}
		other := float32(hit.T * 3)
		width := wall.Distance + other
		if width < 0.4 || width > 1.6 {
			continue
		}
		use := 0
		for _, e := range s.agents {
			if s.paramsMap.Get(e).Type != 0 {
				continue // its corridor holds another mesh's polygons
			}
			if c := s.corridors.Get(e); c.Corridor != nil && slices.Contains(c.Path(), p.Ref) {
				use++
			}
		}
		if use < bestUse || use == bestUse && width >= bestWidth {
			continue
		}
		bestUse, bestWidth = use, width
		center = geom.Mad(p.Pos, across, (other-wall.Distance)/2)
		center[1] -= crateSink
		// The door's local x axis, (cos yaw, -sin yaw), along across.
		yaw = float32(detmath.Atan2(float64(-across[2]), float64(across[0])))
		halfLength = float32(width/2) + first.Radius + 0.3
		ok = true
	}
	return center, yaw, halfLength, ok
}

// dropCratesAhead drops a crate on the path of up to cratesAhead agents,
// cratesAheadDistance ahead of each, away from the door and each other.
func (s *Sim) dropCratesAhead() error {
	agents := s.Agents(nil)
	var placed []geom.Vec3
	if s.doorIndex >= 0 {
		info, err := s.crowd.Obstacle(&s.world, s.obstacles[s.doorIndex].entity)
		if err == nil {
			placed = append(placed, info.Pose.Position)
		}
	}
	dropped := 0
	for i := range agents {
		if dropped == cratesAhead {
			break
		}
		point, ok := alongPath(agents[i].Position, agents[i].Path, cratesAheadDistance)
		if !ok {
			continue
		}
		clear := true
		for _, p := range placed {
			clear = clear && geom.Dist2D(p, point) > 3
		}
		if !clear || geom.Dist2D(point, agents[i].Target) < 2 {
			continue
		}
		if _, err := s.DropCrate(point); err != nil {
			return err
		}
		placed = append(placed, point)
		dropped++
	}
	return nil
}

// alongPath returns the point distance along the path from start through
// corners, false when the path is shorter.
func alongPath(start geom.Vec3, corners []geom.Vec3, distance float32) (geom.Vec3, bool) {
	previous := start
	for _, c := range corners {
		leg := geom.Dist2D(previous, c)
		if leg >= distance {
			return geom.Lerp(previous, c, distance/leg), true
		}
		distance -= leg
		previous = c
	}
	return geom.Vec3{}, false
}

// runScript plays the default run's obstacle script at simulated time t:
// a door across a passage the agents use, crates dropped in their ways,
// the door closed and opened again.
func (s *Sim) runScript(t float64) error {
	if !s.config.Script || !s.HasTileCache() {
		return nil
	}
	for s.scriptStep < 4 {
		var err error
		switch {
		case s.scriptStep == 0 && t >= scriptDoorAt:
			_, err = s.PlaceDoor()
		case s.scriptStep == 1 && t >= scriptCratesAt:
			err = s.dropCratesAhead()
		case s.scriptStep == 2 && t >= scriptDoorCloseAt:
			err = s.SetDoorClosed(true)
		case s.scriptStep == 3 && t >= scriptDoorOpenAt:
			err = s.SetDoorClosed(false)
		default:
			return nil
		}
		if err != nil {
			return err
		}
		s.scriptStep++
	}
	return nil
}

// Obstacles appends what the scene draws of every obstacle to dst[:0];
// selected is the index of the one being dragged (-1 for none).
func (s *Sim) Obstacles(dst []scene.Obstacle, selected int) []scene.Obstacle {
	dst = dst[:0]
	for i, o := range s.obstacles {
		info, err := s.crowd.Obstacle(&s.world, o.entity)
		if err != nil {
			continue
		}
		f := info.Obstacle.Footprint(info.Pose)
		d := scene.Obstacle{Kind: scene.Crate, Pending: !info.State.Landed, Selected: i == selected}
		if o.door {
			d.Kind = scene.DoorOpen
			if s.doorClosed {
				d.Kind = scene.DoorClosed
			}
		}
		if f.Circle {
			d.Center, d.Radius = geom.Vec3{f.Center[0], 0, f.Center[1]}, f.Radius
		} else {
			for _, p := range f.Points[:f.Count] {
				d.Outline = append(d.Outline, geom.Vec3{p[0], info.Pose.Position[1], p[1]})
			}
		}
		dst = append(dst, d)
	}
	return dst
}
