package components

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

// ObstacleShape is the footprint of an obstacle entity.
type ObstacleShape uint8

// Obstacle shapes.
const (
	// ObstacleCylinder is an upright cylinder of Obstacle.Radius standing
	// on the pose's position.
	ObstacleCylinder ObstacleShape = iota + 1
	// ObstacleBox is an axis-aligned box of Obstacle.HalfExtents around the
	// pose's position; the pose's yaw is ignored.
	ObstacleBox
	// ObstacleOrientedBox is a box of Obstacle.HalfExtents (along its own
	// axes) turned by the pose's yaw about +y.
	ObstacleOrientedBox
	// ObstaclePrism is the convex polygon Obstacle.Points around the pose's
	// position, turned by its yaw.
	ObstaclePrism
)

// String returns the shape's name.
func (s ObstacleShape) String() string {
	switch s {
	case ObstacleCylinder:
		return "cylinder"
	case ObstacleBox:
		return "box"
	case ObstacleOrientedBox:
		return "oriented box"
	case ObstaclePrism:
		return "prism"
	}
	return "unknown"
}

// ObstacleEffect is what an obstacle does to the crowd.
type ObstacleEffect uint8

// Obstacle effects.
const (
	// ObstacleAvoided, the zero value: the navmesh does not change; agents
	// steer around the obstacle (a cylinder as a moving circle, the other
	// shapes as wall segments) and are pushed out of it. For things that
	// move: a cart, a player's character.
	ObstacleAvoided ObstacleEffect = iota
	// ObstacleCarves: the obstacle cuts its footprint, grown by
	// Settings.CarveInflation, out of the navmesh through the tile cache,
	// as Unity's carving NavMeshObstacle: by default only once it has stood
	// still for StationaryTime, again when it has moved more than
	// MoveThreshold, and it is avoided like ObstacleAvoided while its hole
	// is not in the navmesh. Agents then plan their paths around it. It
	// needs a tile cache.
	ObstacleCarves
	// ObstacleMarksArea: the navmesh under the footprint gets Area instead
	// of its own (a runtime modifier volume: mud, a door); the tile cache's
	// mesh process turns the area into polygon flags, and the filters then
	// decide who may walk there and at what cost. It needs a tile cache.
	ObstacleMarksArea
)

// String returns the effect's name.
func (e ObstacleEffect) String() string {
	switch e {
	case ObstacleAvoided:
		return "avoided"
	case ObstacleCarves:
		return "carves"
	case ObstacleMarksArea:
		return "marks area"
	}
	return "unknown"
}

// MaxObstaclePoints is the most corners of a prism obstacle.
const MaxObstaclePoints = tilecache.MaxPrismPoints

// Unity's defaults of the carving policy.
const (
	// DefaultStationaryTime is how long a carving obstacle must stand still
	// before it carves (carvingTimeToStationary) [Units: s]
	DefaultStationaryTime = float32(0.5)
	// DefaultMoveThreshold is how far a carving obstacle must move to count
	// as moving (carvingMoveThreshold) [Units: world units]
	DefaultMoveThreshold = float32(0.1)
)

// ErrInvalidObstacle is wrapped by the errors of Obstacle.Validate.
var ErrInvalidObstacle = errors.New("components: invalid obstacle")

// Obstacle is an obstacle entity's shape and behaviour (Unity's
// NavMeshObstacle, Godot's NavigationObstacle3D). Build one with
// CylinderObstacle, BoxObstacle, OrientedBoxObstacle or PrismObstacle, then
// Carving or MarkingArea. Where it stands is its ObstaclePose; the crowd
// keeps its ObstacleState. Every shape stands on the pose's position and
// reaches Height above it.
type Obstacle struct {
	// Shape is the footprint's kind.
	Shape ObstacleShape
	// Radius sizes a cylinder [Limit: > 0] [Units: world units]
	Radius float32
	// HalfExtents are a box's half sizes along x and z (its own axes for an
	// oriented box) [Limit: > 0] [Units: world units]
	HalfExtents [2]float32
	// Height is how far above the pose the obstacle reaches; carving and
	// area marking take the navmesh whose floor lies in that range
	// [Limit: >= 0] [Units: world units]
	Height float32
	// Points are a prism's corners (x, z) around the pose before its yaw,
	// convex, either winding; the first PointCount are used
	// [Units: world units]
	Points [MaxObstaclePoints][2]float32
	// PointCount is the number of a prism's corners [Limit: 3..MaxObstaclePoints]
	PointCount int
	// Effect is what the obstacle does (the zero value: it is avoided).
	Effect ObstacleEffect
	// Area is the area id ObstacleMarksArea gives the navmesh (1..63; with
	// the default mesh process navmesh.AreaDoor makes a door, an area it
	// gives no flags closes the footprint to every filter).
	Area uint8
	// CarveWhileMoving carves at once and again after every move of more
	// than MoveThreshold (Unity's carveOnlyStationary off); by default a
	// carving obstacle carves only once it stands still.
	CarveWhileMoving bool
	// StationaryTime is how long a carving obstacle must stand still before
	// it carves [Limit: >= 0] [Units: s]
	StationaryTime float32
	// MoveThreshold is how far a carving or area obstacle must move (its
	// farthest corner, turns included) to count as moved: smaller moves
	// keep the hole where it is [Limit: >= 0] [Units: world units]
	MoveThreshold float32
}

// CylinderObstacle returns an avoided cylinder obstacle with Unity's
// carving policy defaults.
func CylinderObstacle(radius, height float32) Obstacle {
	return Obstacle{Shape: ObstacleCylinder, Radius: radius, Height: height,
		StationaryTime: DefaultStationaryTime, MoveThreshold: DefaultMoveThreshold}
}

// BoxObstacle returns an avoided axis-aligned box obstacle of half sizes
// halfX and halfZ, with Unity's carving policy defaults.
func BoxObstacle(halfX, halfZ, height float32) Obstacle {
	return Obstacle{Shape: ObstacleBox, HalfExtents: [2]float32{halfX, halfZ}, Height: height,
		StationaryTime: DefaultStationaryTime, MoveThreshold: DefaultMoveThreshold}
}

// OrientedBoxObstacle returns an avoided box obstacle that turns with its
// pose's yaw, with Unity's carving policy defaults.
func OrientedBoxObstacle(halfX, halfZ, height float32) Obstacle {
	o := BoxObstacle(halfX, halfZ, height)
	o.Shape = ObstacleOrientedBox
	return o
}

// PrismObstacle returns an avoided prism obstacle over the convex polygon
// points (x, z, around the pose), with Unity's carving policy defaults.
// Corners beyond MaxObstaclePoints make it invalid (PointCount keeps their
// number, Points the first MaxObstaclePoints).
func PrismObstacle(points [][2]float32, height float32) Obstacle {
	o := Obstacle{Shape: ObstaclePrism, Height: height, PointCount: len(points),
		StationaryTime: DefaultStationaryTime, MoveThreshold: DefaultMoveThreshold}
	copy(o.Points[:], points)
	return o
}

// Carving returns o as a carving obstacle (ObstacleCarves).
func (o Obstacle) Carving() Obstacle {
	o.Effect = ObstacleCarves
	return o
}

// MarkingArea returns o as an area obstacle giving the navmesh area
// (ObstacleMarksArea).
func (o Obstacle) MarkingArea(area uint8) Obstacle {
	o.Effect, o.Area = ObstacleMarksArea, area
	return o
}

// NeedsTileCache reports whether the obstacle changes the navmesh, which
// takes a tile cache.
func (o *Obstacle) NeedsTileCache() bool { return o.Effect != ObstacleAvoided }

// Validate reports the first field outside its limits, wrapping
// ErrInvalidObstacle.
func (o *Obstacle) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s %s", ErrInvalidObstacle, o.Shape, fmt.Sprintf(format, args...))
	}
	switch {
	case o.Shape < ObstacleCylinder || o.Shape > ObstaclePrism:
		return fmt.Errorf("%w: shape %d", ErrInvalidObstacle, o.Shape)
	case o.Effect > ObstacleMarksArea:
		return bad("effect %d", o.Effect)
	case o.Effect == ObstacleMarksArea && (o.Area == tilecache.NullArea || o.Area > tilecache.WalkableArea):
		return bad("area %d, want 1..%d", o.Area, tilecache.WalkableArea)
	case !nonNegative(o.Height):
		return bad("height %v, want a finite number >= 0", o.Height)
	case !nonNegative(o.StationaryTime):
		return bad("stationary time %v, want a finite number >= 0", o.StationaryTime)
	case !nonNegative(o.MoveThreshold):
		return bad("move threshold %v, want a finite number >= 0", o.MoveThreshold)
	}
	switch o.Shape {
	case ObstacleCylinder:
		if !positive(o.Radius) {
			return bad("radius %v, want a finite number > 0", o.Radius)
		}
	case ObstacleBox, ObstacleOrientedBox:
		if !positive(o.HalfExtents[0]) || !positive(o.HalfExtents[1]) {
			return bad("half extents %v, want finite numbers > 0", o.HalfExtents)
		}
	case ObstaclePrism:
		if o.PointCount < 3 || o.PointCount > MaxObstaclePoints {
			return bad("%d corners, want 3..%d", o.PointCount, MaxObstaclePoints)
		}
		if err := o.CacheObstacle(ObstaclePose{}, 0, 0, 0).Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidObstacle, err)
		}
	}
	return nil
}

// ObstaclePose is where an obstacle entity stands: write it to move the
// obstacle (the crowd picks the change up at the next tick).
type ObstaclePose struct {
	// Position is the point the obstacle stands on: a cylinder's base
	// centre, the middle of a box's bottom, a prism's origin
	// [Units: world units]
	Position geom.Vec3
	// Yaw turns an oriented box or a prism about +y [Units: radians]
	Yaw float32
}

// ObstacleState is the crowd's bookkeeping of one obstacle entity, written
// by the ObstacleSync stage; read it, do not write it.
type ObstacleState struct {
	// InCache reports that the obstacle is in the tile cache (carving, or
	// marking its area).
	InCache bool
	// Landed reports that the navmesh shows it as it is in the cache: its
	// tiles have been rebuilt (EventObstacleLanded fired).
	Landed bool
	// Refused reports that the tile cache could not take it (it lies
	// outside every layer, the cache is full, or the crowd has no tile
	// cache); it is then avoided instead (EventObstacleRefused fired).
	Refused bool
	// Velocity is the obstacle's velocity, from its pose's change over the
	// last tick (zero after a jump) [Units: world units / s]
	Velocity geom.Vec3
	// StillTime is how long it has stood still (within MoveThreshold)
	// [Units: s]
	StillTime float32
}
