package components

import (
	"time"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
)

// Navigation is the resource holding the navmesh the crowd walks on.
type Navigation struct {
	// Mesh is the navigation mesh; tiles may be added and removed between
	// ticks (agents on a removed tile are moved to the nearest polygon or
	// become AgentInvalid).
	Mesh *navmesh.Mesh
}

// AgentTypes is the resource naming the crowd's agent types, each with
// the navmesh its agents walk on (AgentParams.Type indexes List). List[0]
// is the first type: its mesh, queries, filters, path queue and tile cache
// are the Navigation, Queries, Filters, PathQueue and TileCache resources,
// which the stages read for it. The stages read the rest from List[i] for
// i >= 1. Without the resource the crowd has that one type. Neighbours,
// avoidance and collisions work across all types.
type AgentTypes struct {
	// List holds the types [Limit: len <= MaxAgentTypes]
	List []AgentType
}

// AgentType is one agent type of the crowd: a name and what its agents'
// queries run on.
type AgentType struct {
	// Name names the type in events, read-outs and reports.
	Name string
	// Mesh is the navmesh of the type's agents.
	Mesh *navmesh.Mesh
	// Queries holds one query on Mesh per worker, as Queries.PerWorker
	// [Limit: as many as the Queries resource holds].
	Queries []*query.Query
	// Filters are the filters the type's agents pick from with
	// AgentParams.Filter.
	Filters *Filters
	// PathQueue runs the type's long path searches.
	PathQueue *crowd.PathQueue
	// PathQueueIterations is the A* budget of the type's path queue per
	// tick [Limit: >= 0; 0 = Settings.PathQueueIterations]
	PathQueueIterations int
	// RequestsPerTick bounds the searches handed to the type's path queue
	// per tick [Limit: >= 0; 0 = Settings.MaxPathQueueRequestsPerTick]
	RequestsPerTick int
	// TileCache, when not nil, is the tile cache Mesh is built from:
	// obstacle entities carve it, each footprint grown by CarveInflation
	// (the type's agent radius and one cell, as Settings.CarveInflation
	// for the first type) [Units: world units]
	TileCache      *tilecache.Cache
	CarveInflation float32
}

// Queries is the resource holding one navmesh query per worker goroutine
// (the reference's m_navquery, 512 nodes each). Stages that spread agents
// over goroutines use as many workers as there are queries.
type Queries struct {
	// PerWorker holds the query of each worker; PerWorker[0] is the one the
	// sequential parts use [Limit: len >= 1]
	PerWorker []*query.Query
}

// PathQueue is the resource holding the crowd's path queue (m_pathq).
type PathQueue struct {
	// Queue runs the long path searches.
	Queue *crowd.PathQueue
}

// ProximityGrid is the resource holding the grid of agent bounds used to find
// neighbours (m_grid); rebuilt by the BoundaryUpdate stage every tick.
type ProximityGrid struct {
	// Grid holds the agents of the current tick.
	Grid *crowd.ProximityGrid
}

// Filters is the resource holding the query filters agents pick from with
// AgentParams.Filter (m_filters). Change a filter only between ticks.
type Filters struct {
	// List holds the filters; NewFilters sets every one to
	// query.NewFilter's defaults.
	List [MaxFilters]query.Filter
}

// NewFilters returns the crowd's default filters: every one passes every
// polygon at cost 1 but those with navmesh.FlagDisabled (RecastDemo's
// "disabled" flag), as navtool's filters do; so a door closes for the
// whole crowd when its polygons get that flag (navmesh.Mesh.SetPolyFlags).
func NewFilters() Filters {
	var f Filters
	for i := range f.List {
		f.List[i] = DefaultFilter()
	}
	return f
}

// DefaultFilter returns the filter NewFilters fills the table with:
// query.NewFilter's, excluding navmesh.FlagDisabled.
func DefaultFilter() query.Filter {
	filter := *query.NewFilter()
	filter.ExcludeFlags = navmesh.FlagDisabled
	return filter
}

// AvoidancePresets is the resource holding the obstacle avoidance parameter
// sets agents pick from with AgentParams.AvoidancePreset
// (m_obstacleQueryParams).
type AvoidancePresets struct {
	// List holds the presets.
	List [MaxAvoidancePresets]crowd.AvoidanceParams
}

// NewAvoidancePresets returns RecastDemo's presets: 0 low, 1 medium, 2 good,
// 3 high quality, and the crowd defaults in 4..7.
func NewAvoidancePresets() AvoidancePresets {
	var p AvoidancePresets
	for i := range p.List {
		p.List[i] = crowd.DefaultAvoidanceParams()
	}
	for q := crowd.AvoidanceLow; q <= crowd.AvoidanceHigh; q++ {
		p.List[q] = crowd.AvoidancePreset(q)
	}
	return p
}

// TimeStep is the resource giving the length of the next tick.
type TimeStep struct {
	// Dt is the tick's duration [Limit: > 0] [Units: s]
	Dt float32
	// Tick counts the ticks run so far.
	Tick uint64
}

// TileCache is the resource holding the tile cache whose obstacles carve
// the crowd's navmesh; its Mesh is Navigation.Mesh. Without it, obstacles
// that change the navmesh (ObstacleCarves, ObstacleMarksArea) are refused.
type TileCache struct {
	// Cache is the tile cache; the ObstacleSync stage adds, moves and
	// removes its obstacles and runs its Update.
	Cache *tilecache.Cache
}

// ObstacleBody is an obstacle the agents avoid and are pushed out of this
// tick: one that does not carve, or a carving one whose hole is not in the
// navmesh yet.
type ObstacleBody struct {
	// Entity is the obstacle.
	Entity ecs.Entity
	// Footprint is its outline at its pose.
	Footprint Footprint
	// Velocity is its velocity (ObstacleState.Velocity)
	// [Units: world units / s]
	Velocity geom.Vec3
}

// Settings is the resource holding the crowd-wide tunables the stages read.
type Settings struct {
	// PlacementHalfExtents is the box searched for the nearest polygon when
	// an agent is placed or recovered (m_agentPlacementHalfExtents: 2, 1.5
	// and 2 maximum agent radii) [Units: world units]
	PlacementHalfExtents geom.Vec3
	// TargetHalfExtents is the box searched for the nearest polygon when a
	// move target is set (plugin.RequestMoveTarget) or its polygon is
	// found again after a navmesh change: a target off the navmesh, such as
	// a point clicked on a wall or on a table top, goes to the nearest
	// polygon point within it, and a target with none inside is refused
	// with the distance to the nearest polygon. DefaultSettings makes it
	// (2, 4, 2) or PlacementHalfExtents where that is larger; the reference
	// uses PlacementHalfExtents (plugin.Config.TargetHalfExtents sets it)
	// [Limit: each > 0, finite] [Units: world units]
	TargetHalfExtents geom.Vec3
	// ArrivalDistance is how near (xz) the target an agent with a complete
	// corridor must come for the TargetReached event [Limit: >= 0]
	// [Units: world units]
	ArrivalDistance float32
	// ArrivalStallTime lets an agent that cannot get to its target arrive
	// where it stands: one whose target is among its corners (the last)
	// that has come no nearer (by a centimetre, measured along the
	// corners; within three quarters of its braking distance of its
	// stopping point, by half of what an unhindered agent closes of its
	// distance, and by at least a quarter of its braking distance, a
	// walking pace, when another agent's body pressed it there) for
	// this long arrives (EventTargetReached,
	// MoveTarget.ArrivedNear) when it is within ArrivalTolerance of its
	// stopping point along the corners, or when it presses
	// against an idle agent (arrived, stopped or without a target) that
	// stands nearer the target, within its CollisionQueryRange of it: the
	// target is occupied and it stands at the nearest free point. 0 turns
	// the rule off, as the reference, whose agents can hover near an
	// occupied target for ever [Limit: >= 0, finite] [Units: s]
	ArrivalStallTime float32
	// ArrivalTolerance is how far from its stopping point a stalled agent
	// may arrive (see ArrivalStallTime). DefaultSettings makes it four
	// times the largest agent radius [Limit: >= 0, finite]
	// [Units: world units]
	ArrivalTolerance float32
	// BrakeFade fades an agent's separation push and the avoidance's
	// change of its velocity as it brakes into its target (in proportion
	// to its braking speed, see AgentParams.BrakingDistance), so that
	// neither can hold it short of the target; the reference separates at
	// full strength to the end, and a standing neighbour a few metres
	// away can keep an agent hovering half a metre from its target.
	BrakeFade bool
	// StopOnArrival makes an agent that arrived (EventTargetReached) stand
	// still: no steering towards the target, no separation; it still
	// steps aside for others (avoidance) and is pushed by collisions. The
	// reference keeps steering it at its target.
	StopOnArrival bool
	// PathQueueIterations is the A* budget of the path queue per tick
	// (MAX_ITERS_PER_UPDATE) [Limit: >= 1]
	PathQueueIterations int
	// MaxPathQueueRequestsPerTick bounds the requests handed to the path
	// queue per tick (PATH_MAX_AGENTS) [Limit: >= 1]
	MaxPathQueueRequestsPerTick int
	// HierarchicalPaths lets the path queue plan with its hierarchy
	// (crowd.PathQueueConfig.Hierarchy, which plugin.Config.HierarchicalPaths
	// builds): the requests whose filter has the hierarchy's cost model
	// are searched on it (navcore/hierarchy), the others with A*. Off, or
	// for a queue without a hierarchy, every request is searched with A*,
	// as in the reference. It may be changed between ticks; a search in
	// progress finishes as it started.
	HierarchicalPaths bool
	// QuickSearchesPerTick bounds the quick searches (the short search run
	// for each new move target, MAX_ITER in dtCrowd::updateMoveRequest)
	// per tick, so that a crowd sent off at once (10,000 agents spawned in
	// one call) spreads them over ticks instead of stalling one; the
	// agents that waited longest go first. 0 means no bound, as in the
	// reference [Limit: >= 0]
	QuickSearchesPerTick int
	// CollisionIterations is the number of push-apart passes per tick
	// [Limit: >= 1]
	CollisionIterations int
	// DeadlockBreaker turns on the nudging of agents that make no progress
	// (see systems.Steering); off, the crowd behaves like the reference.
	DeadlockBreaker bool
	// WallSafeCollisions keeps collision pushes from crossing the local
	// boundary's walls (see systems.CollisionResolve); off, the crowd
	// behaves like the reference.
	WallSafeCollisions bool
	// PileFraction breaks up piles: slow agents (under half their
	// maximum speed) closer than this share of the sum of their radii are
	// pushed apart even when they are not among each other's MaxNeighbours
	// nearest neighbours (see systems.CollisionResolve). 0, like the
	// reference, lets dense crowds collapse into piles that the pushes
	// cannot undo: in a 500-agent, 60 s run on the dungeon level, 44
	// agents end stuck without it and 16 with 0.25. Higher values keep
	// bodies further apart [Limit: 0..1]
	PileFraction float32
	// ContactSliding keeps agents from walking into neighbours they already
	// touch: the part of the planned velocity towards such a neighbour is
	// dropped (see systems.VelocitySampling). It keeps bodies apart (a
	// tenth of the overlap) at the cost of throughput in dense crowds (more
	// agents wait in queues), so it is off by default and in the reference.
	ContactSliding bool
	// PartialReplanBackoff spaces out the replans of a corridor that ends
	// short of an unreachable target: the reference plans it again every
	// second, forever, and crowds with many unreachable targets flood the
	// path queue. When a replan finds the same best polygon again, the
	// delay doubles (2, 4, 8, 16 s); a different one, a complete path or a
	// change of the navmesh's tiles resets it.
	PartialReplanBackoff bool
	// PushSpeedLimit bounds how far an agent moves in one tick, its walk
	// and the collision pushes together: this many times the distance it
	// walks in a tick at its MaxSpeed (at least 1 m/s). An agent that
	// runs into a tight crowd is then moved aside over a few ticks instead
	// of jumping back half a metre at once, and agents spawned on top of
	// each other part without a jump. 0, as the reference, sets no bound
	// [Limit: >= 0]
	PushSpeedLimit float32
	// VisibilityRayDistance spaces out the visibility rays of agents with
	// OptimizeVisibility: an agent casts its ray towards its next corner
	// but one again only once it has walked this far (xz) since the last
	// one, or when that corner, its corridor's first polygon or the navmesh
	// changed (crowd.Corridor.OptimizePathVisibilityAfter). A ray cast a
	// few centimetres further on towards the same corner rarely finds a
	// shortcut the last one missed, and the rays cost about a tenth of a
	// large crowd's tick. DefaultSettings makes it half the maximum agent
	// radius; 0 casts every tick, as the reference [Limit: >= 0, finite]
	// [Units: world units]
	VisibilityRayDistance float32
	// CornerRefreshDistance spaces out the corner searches of walking
	// agents: an agent's next corners are searched again only once it has
	// walked this far (xz) since the last search, or when its corridor's
	// path or target or the navmesh changed, or when its first corner is
	// within twice this distance (crowd.Corridor.FindCornersAfter). The
	// corners of a funnel change with the position only where another
	// corner comes into sight, and the search is about a fifth of a large
	// crowd's tick. DefaultSettings makes it a quarter of the maximum agent
	// radius; 0 searches every tick, as the reference [Limit: >= 0, finite]
	// [Units: world units]
	CornerRefreshDistance float32
	// EdgeHeightSnap puts an agent that ends a move on a polygon edge onto
	// the surface (see systems.SurfaceClamp); off, it keeps its last
	// height, like the reference.
	EdgeHeightSnap bool
	// NoSurfaceJumps refuses a move along the surface that would end
	// farther from where the agent wanted to go than it started
	// (crowd.Corridor.MovePositionNoFarther): at a tile border that the
	// neighbour tile covers only in part, as after a tile cache rebuild,
	// the reference's move can jump the agent half a metre into the
	// neighbour tile. The agent then stays where it is for the tick.
	NoSurfaceJumps bool

	// CheckChangedCorridors checks, in the tick after tiles changed (a tile
	// cache rebuild, AddTile, RemoveTile, a flag or area edit), every
	// polygon of every corridor that crosses a changed tile, and replans
	// the corridors that are blocked; the reference looks only at the next
	// 10 polygons of each corridor, so agents keep walking towards a closed
	// door until they are near it. Paths the queue planned on the navmesh
	// before the change are checked the same way when they arrive.
	CheckChangedCorridors bool
	// WalkBackToMesh makes an agent whose polygon went away, and that is
	// not on another one, walk to the nearest free point under its own
	// speed and acceleration (AgentReturning); the reference puts it there
	// in one tick, a jump of up to the placement box. The nearest point is
	// searched in PlacementHalfExtents, then in four times as wide a box.
	WalkBackToMesh bool
	// RecoverInvalidAgents lets an AgentInvalid agent look for a polygon
	// every tick and walk again as soon as one is within reach; in the
	// reference it stays invalid until it is teleported.
	RecoverInvalidAgents bool

	// ObstacleTilesPerTick bounds the tile cache rebuilds the ObstacleSync
	// stage publishes per tick; the rest wait for the next ticks
	// [Limit: <= 0 means no limit]
	ObstacleTilesPerTick int
	// ObstacleTimePerTick stops the ObstacleSync stage from starting more
	// tile rebuilds once it has run this long (the builds under way finish;
	// at least one tile is built per tick) [Limit: <= 0 means no limit]
	ObstacleTimePerTick time.Duration
	// CarveInflation grows the footprint of carving obstacles by this much
	// in xz when they carve, so that agent centres keep a body's width away
	// from them as from walls; the plugin sets it to the tile cache's agent
	// radius (Params.WalkableRadius) unless configured. 0 carves the bare
	// footprint, as the C++ tile cache does [Limit: >= 0]
	// [Units: world units]
	CarveInflation float32
	// CarveDepth is how far below its pose a carving or area obstacle takes
	// the navmesh, so that it carves (or marks) the floor that slopes away
	// under its edges, not only floor at or above its base as the C++
	// does; the plugin sets it to the tile cache's climb height
	// (Params.WalkableClimb) unless configured [Limit: >= 0]
	// [Units: world units]
	CarveDepth float32
}

// DefaultSettings returns the reference's values for a crowd whose largest
// agent radius is maxAgentRadius, with an arrival distance of a third of it,
// a move target searched for within TargetHalfExtents and the improvements
// over the reference on (but ContactSliding), at most
// DefaultObstacleTilesPerTick tile rebuilds per tick and no carve
// inflation.
func DefaultSettings(maxAgentRadius float32) Settings {
	placement := geom.Vec3{maxAgentRadius * 2, maxAgentRadius * 1.5, maxAgentRadius * 2}
	return Settings{
		PlacementHalfExtents:        placement,
		TargetHalfExtents:           geom.Max(placement, geom.Vec3{2, 4, 2}), // RecastDemo's query box
		ArrivalDistance:             maxAgentRadius / 3,
		ArrivalStallTime:            DefaultArrivalStallTime,
		ArrivalTolerance:            maxAgentRadius * 4,
		BrakeFade:                   true,
		StopOnArrival:               true,
		PathQueueIterations:         100,
		MaxPathQueueRequestsPerTick: 8,
		QuickSearchesPerTick:        DefaultQuickSearchesPerTick,
		CollisionIterations:         4,
		DeadlockBreaker:             true,
		WallSafeCollisions:          true,
		EdgeHeightSnap:              true,
		NoSurfaceJumps:              true,
		PileFraction:                0.25,
		PartialReplanBackoff:        true,
		PushSpeedLimit:              DefaultPushSpeedLimit,
		VisibilityRayDistance:       maxAgentRadius / 2,
		CornerRefreshDistance:       maxAgentRadius / 4,
		CheckChangedCorridors:       true,
		WalkBackToMesh:              true,
		RecoverInvalidAgents:        true,
		ObstacleTilesPerTick:        DefaultObstacleTilesPerTick,
	}
}

// DefaultQuickSearchesPerTick is DefaultSettings' QuickSearchesPerTick.
const DefaultQuickSearchesPerTick = 512

// DefaultArrivalStallTime is DefaultSettings' ArrivalStallTime [Units: s]
const DefaultArrivalStallTime = 1

// DefaultObstacleTilesPerTick is the tile cache rebuilds per tick
// DefaultSettings allows.
const DefaultObstacleTilesPerTick = 8

// DefaultPushSpeedLimit is DefaultSettings' PushSpeedLimit.
const DefaultPushSpeedLimit = 2

// Stats is the resource where the stages and the schedule report what the
// last tick did.
type Stats struct {
	// StageNames and StageDurations give the wall time of each stage of the
	// last tick, in schedule order (filled by plugin.Schedule).
	StageNames     []string
	StageDurations []time.Duration
	// Agents is the number of agents the last tick saw.
	Agents int
	// VelocitySamples is the number of candidate velocities the sampling
	// methods scored.
	VelocitySamples int
	// ORCAInfeasible is the number of agents whose ORCA program had no
	// velocity meeting every half-plane, so that the fallback minimised the
	// largest violation.
	ORCAInfeasible int
	// PathQueuePending is the number of path queue slots in use after the
	// PathRequest stage.
	PathQueuePending int
	// WaitingForQueue is the number of agents waiting for a path queue
	// slot after the PathRequest stage.
	WaitingForQueue int
	// Obstacles is the number of obstacle entities, ObstacleBodies those
	// avoided as bodies, and ObstacleTilesPending the tile cache changes
	// left for the next ticks, after the ObstacleSync stage.
	Obstacles, ObstacleBodies, ObstacleTilesPending int
	// Colliders is the number of collider entities and
	// ColliderTilesPending the dynamic navmesh's tiles left for the next
	// ticks, after the ColliderSync stage.
	Colliders, ColliderTilesPending int
	// PathQueueRequests is the number of searches the PathRequest stage
	// handed to the path queue in the last tick.
	PathQueueRequests int
	// WaitingForPath is the number of agents that have had no path to
	// their move target since it was requested, after the PathRequest
	// stage; LongestWait is the longest such wait so far [Units: s], and
	// QuickSearchesPending those of them whose first, quick search waits
	// for a later tick (Settings.QuickSearchesPerTick).
	WaitingForPath       int
	LongestWait          float32
	QuickSearchesPending int
	// PathWaits holds every wait for a first path that ended since the
	// crowd was installed (PathWaits.Quantile(0.99) is the p99 wait); zero
	// it to start counting afresh. OpenWaits holds the waits of the agents
	// still waiting, so far (WaitingForPath of them, the longest
	// LongestWait): merged into a copy of PathWaits they give the waits of
	// a run that ends now.
	PathWaits, OpenWaits PathWaits
}
