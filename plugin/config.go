package plugin

import (
	"fmt"
	"math"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
)

// Defaults used for the zero value of a Config field.
const (
	DefaultMaxAgents            = 1000
	DefaultMaxAgentRadius       = float32(0.6)
	DefaultMaxPath              = 256
	DefaultQueryNodes           = 512
	DefaultPathQueueIterations  = 100
	DefaultRequestsPerTick      = 8
	DefaultCollisionIterations  = 4
	DefaultTimeStep             = float32(1.0 / 60)
	maxCollisionIterations      = 64
	maxPathQueueRequestsPerTick = crowd.MaxPathQueueSlots
)

// Config sets up a crowd. Only Mesh (or TileCache) is required: a zero
// field takes the default given in its comment (the reference crowd's
// value).
type Config struct {
	// Mesh is the navmesh the agents walk on. Required unless TileCache is
	// given; then it must be TileCache.Mesh() or nil.
	Mesh *navmesh.Mesh
	// DynamicMesh, when not nil, is the dynamic navmesh (bake/dynamic.Mesh)
	// the navmesh is built from: collider entities add walkable ground to
	// it or cut it away (see SpawnCollider), and the ColliderSync stage
	// runs its UpdateWith every tick, within the obstacles' tile budget.
	// Mesh must then be DynamicMesh.NavMesh() or nil. The plugin adds,
	// moves and removes its colliders; leave them to it. With AgentTypes,
	// each type has its own (AgentTypeConfig.DynamicMesh) and colliders
	// change them all; leave this nil then.
	DynamicMesh components.ColliderMesh
	// TileCache, when not nil, is the tile cache the navmesh is built from:
	// obstacle entities that carve or mark an area change the navmesh
	// through it (see SpawnObstacle), and the ObstacleSync stage runs its
	// Update every tick. The plugin adds, moves and removes the cache's
	// obstacles; leave them to it.
	TileCache *tilecache.Cache
	// ObstacleTilesPerTick bounds the tile rebuilds per tick
	// [Limit: >= 0; 0 = components.DefaultObstacleTilesPerTick]
	ObstacleTilesPerTick int
	// ObstacleTimePerTick stops the tile rebuilds of a tick once they have
	// run this long (at least one tile is built) [Limit: >= 0; 0 = no
	// limit]
	ObstacleTimePerTick time.Duration
	// CarveInflation grows carving obstacles in xz when they carve, so that
	// agent centres keep away from them as from walls [Limit: finite;
	// 0 = the tile cache's agent radius and one cell (Params.WalkableRadius
	// + Params.CellSize), < 0 = the bare footprint, as the C++ tile cache
	// carves] [Units: world units]. The extra cell is there because the
	// cache simplifies a hole's outline (by up to Params.
	// MaxSimplificationError cells, 1.3 in RecastDemo): its polygons may
	// reach a few tenths into the carved cells, mostly near tile borders.
	CarveInflation float32
	// CarveDepth is how far below its pose an obstacle takes the navmesh,
	// so that it carves the floor sloping away under its edges
	// [Limit: finite; 0 = the tile cache's climb height
	// (Params.WalkableClimb), < 0 = none, floors at or above the pose only,
	// as the C++] [Units: world units]
	CarveDepth float32
	// MaxAgents bounds the number of agents (the proximity grid is sized
	// for it) [Limit: 0..2^22; 0 = DefaultMaxAgents]
	MaxAgents int
	// MaxAgentRadius is the largest agent radius; it sizes the proximity
	// grid's cells and the placement search box [Limit: >= 0, finite;
	// 0 = DefaultMaxAgentRadius] [Units: world units]
	MaxAgentRadius float32
	// TargetHalfExtents is the box RequestMoveTarget searches for the
	// navmesh point nearest a target (the Settings resource's
	// TargetHalfExtents, which may be changed between ticks): a target
	// off the navmesh within it is snapped to the nearest polygon point, one
	// farther away is refused with ErrOffMesh and the distance to the
	// nearest polygon. Widen it to snap targets from farther away
	// [Limit: each > 0, finite; zero = (2, 4, 2) or the placement box
	// (2, 1.5, 2 MaxAgentRadius) where larger, the placement box with
	// Reference] [Units: world units]
	TargetHalfExtents geom.Vec3
	// Workers is the number of goroutines the parallel stages use
	// [Limit: 0..systems.MaxWorkers; 0 = 1]. Results do not depend on it.
	Workers int
	// ArrivalDistance is how near (xz) its target an agent must come to
	// raise EventTargetReached [Limit: >= 0, finite; 0 = MaxAgentRadius/3]
	// [Units: world units]
	ArrivalDistance float32
	// MaxPath is the most polygons an agent's corridor holds
	// [Limit: >= crowd.MinCorridorPath; 0 = 256]
	MaxPath int
	// QueryNodes is the node pool of each worker's query, used by the
	// local searches [Limit: 1..query.MaxNodes; 0 = 512]
	QueryNodes int
	// PathQueue sizes the path queue; zero sizes (Slots, MaxPathSize,
	// MaxNodes, NodeLimit and MaxIterationsPerRequest all 0) mean 8 slots,
	// MaxPath polygons, 4096 nodes that grow to 65536 on long searches
	// (crowd.DefaultPathQueueConfig; Reference keeps them at 4096). A target out of
	// reach of its agent (in another connected component of the navmesh,
	// for the agent's filter) is planned to the reachable point nearest it,
	// cheaply, and not replanned until the navmesh changes;
	// PathQueue.FullSearchUnreachable (implied by Reference) searches such
	// targets in full instead, as the reference does.
	PathQueue crowd.PathQueueConfig
	// HierarchicalPaths builds, at Install, a hierarchy of the mesh for
	// the first filter (Filters[0], which agents use unless they pick
	// another) and lets the path queue plan long paths with it
	// (navcore/hierarchy; Settings.HierarchicalPaths turns it off and on
	// between ticks). It costs the build (about 75 ms for a 1 km level of
	// 2809 tiles on 2 workers) and memory of about 30 % of the
	// navmesh's tile data; it follows tile changes by itself. Auto (the zero value)
	// turns it on for a large level (IsLargeLevel: the 1 km level is one,
	// the RecastDemo levels are not), where a large level's path queue
	// sizes come with it: PathQueue 32 slots, PathQueueIterations 8192 and
	// RequestsPerTick 32 unless set. Ignored with Reference.
	HierarchicalPaths Switch
	// PathQueueIterations is the A* budget of the path queue per tick
	// [Limit: >= 0; 0 = 100]
	PathQueueIterations int
	// RequestsPerTick bounds the searches handed to the path queue per tick
	// [Limit: 0..256; 0 = 8]
	RequestsPerTick int
	// MaxPendingRequests bounds the agents waiting for a path (requested
	// but not yet planned); RequestMoveTarget beyond it fails with
	// ErrPathQueueFull [Limit: >= 0; 0 = no bound, as in the reference]
	MaxPendingRequests int
	// CollisionIterations is the number of push-apart passes per tick
	// [Limit: 0..64; 0 = 4]
	CollisionIterations int
	// Filters are the query filters agents pick from with
	// AgentParams.Filter [Limit: len <= 16]; missing ones are
	// components.DefaultFilter: every polygon at cost 1 but those with
	// navmesh.FlagDisabled (closed doors).
	Filters []query.Filter
	// AvoidancePresets are the obstacle avoidance settings agents pick from
	// with AgentParams.AvoidancePreset [Limit: len <= 8]; missing ones are
	// those of components.NewAvoidancePresets.
	AvoidancePresets []crowd.AvoidanceParams
	// TimeStep is the tick length Update uses when the TimeStep resource is
	// not changed (Step sets it) [Limit: >= 0, finite; 0 = 1/60]
	// [Units: s]
	TimeStep float32
	// Reference turns the improvements over DetourCrowd off (the deadlock
	// breaker, pile breaking, wall-safe collisions, the height snap on
	// polygon edges, the push speed limit, the refusal of surface moves
	// that jump, the partial replan backoff, growing node pools, the
	// planning of out-of-reach targets to their nearest reachable point,
	// the full check of corridors through changed tiles, the walk back to
	// the navmesh, the recovery of invalid agents, the spacing of
	// visibility rays and SpawnBatch's spatial creation order) and
	// schedules the path queue as dtPathQueue does
	// (crowd.PathQueueConfig.ReferenceSchedule), for comparisons with
	// dtCrowd 1.6.0.
	//
	// What is proven to the bit (TestMatchesReferenceCrowd): on amd64 with
	// GOAMD64=v1 (no fused multiply-add, as in the C++ built with g++ -O2),
	// for agents spawned with components.DefaultAgentParams, the default
	// avoidance presets and a filter excluding flag 0x10, all sent to their
	// targets before the first tick and stepped at 1/60 s, every position
	// and target state equals dtCrowd's at tick 0 and every 30th tick over
	// 600 ticks, with 1, 2 or 3 workers, on the runs recorded in
	// plugin/testdata/reference: two 24-agent crowds on the dungeon level
	// that never use the path queue, and 64 random whole-level trips on
	// dungeon and on nav_test that hand 71 and 426 searches to it. Changing
	// targets, removing agents or changing tiles during a run follows the
	// C++ code paths but is not compared with a recorded run.
	Reference bool
	// AgentTypes, when not empty, are the crowd's agent types, each with
	// its navmesh (see AgentTypeConfig); leave Mesh and TileCache nil then:
	// AgentTypes[0] sets them, and it is the type of agents whose
	// AgentParams.Type is 0. Without AgentTypes the crowd has one type,
	// DefaultAgentTypeName, made of Mesh, TileCache, Filters and PathQueue
	// (Config then returns it in AgentTypes) [Limit: len <=
	// components.MaxAgentTypes]
	AgentTypes []AgentTypeConfig
	// OnEvent, when not nil, is called after each tick with each of the
	// tick's events, in order. The world is not locked then.
	OnEvent func(world *ecs.World, ev components.Event)
}

// withDefaults validates c and fills its zero fields.
func (c Config) withDefaults() (Config, error) {
	bad := func(format string, args ...any) (Config, error) {
		return Config{}, fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	finite := func(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }
	if len(c.AgentTypes) > 0 && c.Mesh == nil && c.TileCache == nil {
		// Checked fully by resolveAgentTypes, below.
		c.Mesh, c.TileCache = c.AgentTypes[0].Mesh, c.AgentTypes[0].TileCache
		if c.Mesh == nil && c.TileCache != nil {
			c.Mesh = c.TileCache.Mesh()
		}
		if c.Mesh == nil && c.AgentTypes[0].DynamicMesh != nil {
			c.Mesh = c.AgentTypes[0].DynamicMesh.NavMesh()
		}
		if c.DynamicMesh == nil {
			c.DynamicMesh = c.AgentTypes[0].DynamicMesh
		}
	}
	if c.Mesh == nil && c.TileCache != nil {
		c.Mesh = c.TileCache.Mesh()
	}
	if c.Mesh == nil && c.DynamicMesh != nil {
		c.Mesh = c.DynamicMesh.NavMesh()
	}
	switch {
	case c.DynamicMesh != nil && c.DynamicMesh.NavMesh() != c.Mesh:
		return bad("Mesh is not DynamicMesh.NavMesh()")
	case c.Mesh == nil:
		return bad("nil Mesh")
	case c.TileCache != nil && c.TileCache.Mesh() != c.Mesh:
		return bad("Mesh is not TileCache.Mesh()")
	case c.ObstacleTilesPerTick < 0:
		return bad("ObstacleTilesPerTick %d, want >= 0", c.ObstacleTilesPerTick)
	case c.ObstacleTimePerTick < 0:
		return bad("ObstacleTimePerTick %v, want >= 0", c.ObstacleTimePerTick)
	case !finite(c.CarveInflation):
		return bad("CarveInflation %v, want a finite number", c.CarveInflation)
	case !finite(c.CarveDepth):
		return bad("CarveDepth %v, want a finite number", c.CarveDepth)
	case c.MaxAgents < 0 || c.MaxAgents > 1<<22:
		return bad("MaxAgents %d, want 0..%d", c.MaxAgents, 1<<22)
	case !finite(c.MaxAgentRadius) || c.MaxAgentRadius < 0:
		return bad("MaxAgentRadius %v, want a finite number >= 0", c.MaxAgentRadius)
	case c.Workers < 0 || c.Workers > systems.MaxWorkers:
		return bad("Workers %d, want 0..%d", c.Workers, systems.MaxWorkers)
	case !finite(c.ArrivalDistance) || c.ArrivalDistance < 0:
		return bad("ArrivalDistance %v, want a finite number >= 0", c.ArrivalDistance)
	case c.MaxPath != 0 && c.MaxPath < crowd.MinCorridorPath:
		return bad("MaxPath %d, want >= %d", c.MaxPath, crowd.MinCorridorPath)
	case c.QueryNodes < 0 || c.QueryNodes > query.MaxNodes:
		return bad("QueryNodes %d, want 0..%d", c.QueryNodes, query.MaxNodes)
	case c.PathQueueIterations < 0:
		return bad("PathQueueIterations %d, want >= 0", c.PathQueueIterations)
	case c.RequestsPerTick < 0 || c.RequestsPerTick > maxPathQueueRequestsPerTick:
		return bad("RequestsPerTick %d, want 0..%d", c.RequestsPerTick, maxPathQueueRequestsPerTick)
	case c.HierarchicalPaths > Off:
		return bad("HierarchicalPaths %v, want Auto, On or Off", c.HierarchicalPaths)
	case c.MaxPendingRequests < 0:
		return bad("MaxPendingRequests %d, want >= 0", c.MaxPendingRequests)
	case c.CollisionIterations < 0 || c.CollisionIterations > maxCollisionIterations:
		return bad("CollisionIterations %d, want 0..%d", c.CollisionIterations, maxCollisionIterations)
	case len(c.Filters) > components.MaxFilters:
		return bad("%d Filters, want at most %d", len(c.Filters), components.MaxFilters)
	case len(c.AvoidancePresets) > components.MaxAvoidancePresets:
		return bad("%d AvoidancePresets, want at most %d", len(c.AvoidancePresets), components.MaxAvoidancePresets)
	case !finite(c.TimeStep) || c.TimeStep < 0:
		return bad("TimeStep %v, want a finite number >= 0", c.TimeStep)
	case c.TargetHalfExtents != (geom.Vec3{}) && !(geom.IsFinite(c.TargetHalfExtents) &&
		c.TargetHalfExtents[0] > 0 && c.TargetHalfExtents[1] > 0 && c.TargetHalfExtents[2] > 0):
		return bad("TargetHalfExtents %v, want finite numbers > 0 (or all 0 for the default)", c.TargetHalfExtents)
	}
	for i := range c.AvoidancePresets {
		if err := c.AvoidancePresets[i].Validate(); err != nil {
			return bad("AvoidancePresets[%d]: %v", i, err)
		}
	}
	if err := checkFilters(c.Filters); err != nil {
		return bad("%v", err)
	}

	c.levelDefaults()
	if c.MaxAgents == 0 {
		c.MaxAgents = DefaultMaxAgents
	}
	if c.MaxAgentRadius == 0 {
		c.MaxAgentRadius = DefaultMaxAgentRadius
	}
	if c.Workers == 0 {
		c.Workers = 1
	}
	if c.ArrivalDistance == 0 {
		c.ArrivalDistance = c.MaxAgentRadius / 3
	}
	if c.MaxPath == 0 {
		c.MaxPath = DefaultMaxPath
	}
	if c.QueryNodes == 0 {
		c.QueryNodes = DefaultQueryNodes
	}
	if sizes := c.PathQueue; sizes == (crowd.PathQueueConfig{FullSearchUnreachable: sizes.FullSearchUnreachable, ReferenceSchedule: sizes.ReferenceSchedule}) {
		c.PathQueue = crowd.DefaultPathQueueConfig()
		c.PathQueue.MaxPathSize = c.MaxPath
		c.PathQueue.FullSearchUnreachable = sizes.FullSearchUnreachable
		c.PathQueue.ReferenceSchedule = sizes.ReferenceSchedule
	}
	if c.Reference {
		c.PathQueue.FullSearchUnreachable = true
		c.PathQueue.ReferenceSchedule = true
		c.PathQueue.NodeLimit = 0
	}
	if c.PathQueueIterations == 0 {
		c.PathQueueIterations = DefaultPathQueueIterations
	}
	if c.RequestsPerTick == 0 {
		c.RequestsPerTick = DefaultRequestsPerTick
	}
	if c.CollisionIterations == 0 {
		c.CollisionIterations = DefaultCollisionIterations
	}
	if c.TimeStep == 0 {
		c.TimeStep = DefaultTimeStep
	}
	if c.ObstacleTilesPerTick == 0 {
		c.ObstacleTilesPerTick = components.DefaultObstacleTilesPerTick
	}
	switch {
	case c.CarveInflation < 0:
		c.CarveInflation = -1
	case c.CarveInflation == 0 && c.TileCache != nil:
		p := c.TileCache.Params()
		c.CarveInflation = p.WalkableRadius + p.CellSize
	}
	switch {
	case c.CarveDepth < 0:
		c.CarveDepth = -1
	case c.CarveDepth == 0 && c.TileCache != nil:
		c.CarveDepth = c.TileCache.Params().WalkableClimb
	}
	if err := c.resolveAgentTypes(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// settings returns the Settings resource for c (after withDefaults).
func (c *Config) settings() components.Settings {
	s := components.DefaultSettings(c.MaxAgentRadius)
	s.HierarchicalPaths = c.HierarchicalPaths == On && !c.Reference
	s.ArrivalDistance = c.ArrivalDistance
	s.PathQueueIterations = c.PathQueueIterations
	s.MaxPathQueueRequestsPerTick = c.RequestsPerTick
	s.CollisionIterations = c.CollisionIterations
	s.DeadlockBreaker = !c.Reference
	s.WallSafeCollisions = !c.Reference
	s.EdgeHeightSnap = !c.Reference
	s.NoSurfaceJumps = !c.Reference
	if c.Reference {
		s.ArrivalStallTime, s.BrakeFade, s.StopOnArrival = 0, false, false
		s.PileFraction = 0
		s.PushSpeedLimit = 0
		s.VisibilityRayDistance = 0
		s.CornerRefreshDistance = 0
		s.QuickSearchesPerTick = 0
	}
	s.PartialReplanBackoff = !c.Reference
	switch {
	case c.TargetHalfExtents != geom.Vec3{}:
		s.TargetHalfExtents = c.TargetHalfExtents
	case c.Reference:
		s.TargetHalfExtents = s.PlacementHalfExtents
	}
	s.CheckChangedCorridors = !c.Reference
	s.WalkBackToMesh = !c.Reference
	s.RecoverInvalidAgents = !c.Reference
	s.ObstacleTilesPerTick = c.ObstacleTilesPerTick
	s.ObstacleTimePerTick = c.ObstacleTimePerTick
	s.CarveInflation = max(0, c.CarveInflation)
	s.CarveDepth = max(0, c.CarveDepth)
	return s
}
