package plugin

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
)

// checkObstacle reports why an obstacle cannot be used in this crowd:
// numbers outside their limits (ErrInvalidInput), or an effect on the
// navmesh without a tile cache (ErrNoTileCache).
func (p *Plugin) checkObstacle(obstacle *components.Obstacle, what string) error {
	if err := obstacle.Validate(); err != nil {
		return fmt.Errorf("plugin: %s: %w: %w", what, ErrInvalidInput, err)
	}
	if obstacle.NeedsTileCache() && p.config.TileCache == nil {
		return fmt.Errorf("plugin: %s: %s obstacle: %w (set Config.TileCache)", what, obstacle.Effect, ErrNoTileCache)
	}
	return nil
}

// checkPose reports a pose with a NaN or infinite number.
func checkPose(pose components.ObstaclePose, what string) error {
	if yaw := float64(pose.Yaw); !geom.IsFinite(pose.Position) || math.IsNaN(yaw) || math.IsInf(yaw, 0) {
		return fmt.Errorf("plugin: %s: pose %+v: %w", what, pose, ErrInvalidInput)
	}
	return nil
}

// checkObstacleEntity reports whether e is a live obstacle entity.
func (p *Plugin) checkObstacleEntity(world *ecs.World, e ecs.Entity, what string) error {
	if e.IsZero() || !world.Alive(e) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotObstacle)
	}
	if mask := world.Mask(e); !mask.Contains(&p.obstacleMask) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotObstacle)
	}
	return nil
}

// SpawnObstacle adds an obstacle entity (components.Obstacle,
// ObstaclePose and ObstacleState) standing at pose and returns it. The next
// tick's ObstacleSync stage picks it up: an avoided obstacle is avoided at
// once, a carving one carves as its policy says (by default once it has
// stood still for its StationaryTime), an area obstacle marks its area at
// once; a carve or area is in the navmesh when EventObstacleLanded fires.
// Move it with SetObstaclePose (or by writing its ObstaclePose), change it
// with SetObstacle, and remove it with RemoveObstacle or world.RemoveEntity.
// An obstacle that carves or marks an area without Config.TileCache fails
// with ErrNoTileCache; bad numbers fail with ErrInvalidInput.
func (p *Plugin) SpawnObstacle(world *ecs.World, pose components.ObstaclePose, obstacle components.Obstacle) (ecs.Entity, error) {
	const what = "spawn obstacle"
	if err := p.checkWorld(world, what, true); err != nil {
		return ecs.Entity{}, err
	}
	if err := p.checkObstacle(&obstacle, what); err != nil {
		return ecs.Entity{}, err
	}
	if err := checkPose(pose, what); err != nil {
		return ecs.Entity{}, err
	}
	e := p.obstacles.New()
	o, pPose, state := p.obstacles.Get(e)
	*o, *pPose, *state = obstacle, pose, components.ObstacleState{}
	return e, nil
}

// SetObstaclePose moves obstacle e to pose (the ObstacleSync stage picks it
// up at the next tick).
func (p *Plugin) SetObstaclePose(world *ecs.World, e ecs.Entity, pose components.ObstaclePose) error {
	const what = "set obstacle pose"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkObstacleEntity(world, e, what); err != nil {
		return err
	}
	if err := checkPose(pose, what); err != nil {
		return err
	}
	_, pPose, _ := p.obstacles.Get(e)
	*pPose = pose
	return nil
}

// SetObstacle changes obstacle e's shape or behaviour, checked as
// SpawnObstacle checks it: a door opens and closes by switching between
// MarkingArea(navmesh.AreaDoor) and Carving(), say.
func (p *Plugin) SetObstacle(world *ecs.World, e ecs.Entity, obstacle components.Obstacle) error {
	const what = "set obstacle"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkObstacleEntity(world, e, what); err != nil {
		return err
	}
	if err := p.checkObstacle(&obstacle, what); err != nil {
		return err
	}
	o, _, _ := p.obstacles.Get(e)
	*o = obstacle
	return nil
}

// RemoveObstacle removes obstacle e from the world (world.RemoveEntity
// works too); its hole or area leaves the navmesh at the next tick.
func (p *Plugin) RemoveObstacle(world *ecs.World, e ecs.Entity) error {
	const what = "remove obstacle"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkObstacleEntity(world, e, what); err != nil {
		return err
	}
	world.RemoveEntity(e)
	return nil
}

// ObstacleInfo is a read-out of one obstacle entity.
type ObstacleInfo struct {
	// Obstacle is its shape and behaviour.
	Obstacle components.Obstacle
	// Pose is where it stands.
	Pose components.ObstaclePose
	// State is the crowd's bookkeeping (in the cache, landed, refused).
	State components.ObstacleState
}

// Obstacle returns a read-out of obstacle e. Read-outs work while queries
// lock the world.
func (p *Plugin) Obstacle(world *ecs.World, e ecs.Entity) (ObstacleInfo, error) {
	const what = "obstacle"
	if err := p.checkWorld(world, what, false); err != nil {
		return ObstacleInfo{}, err
	}
	if err := p.checkObstacleEntity(world, e, what); err != nil {
		return ObstacleInfo{}, err
	}
	o, pose, state := p.obstacles.Get(e)
	return ObstacleInfo{Obstacle: *o, Pose: *pose, State: *state}, nil
}
