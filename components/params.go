package components

import (
	"errors"
	"fmt"
	"math"
)

// Limits of the crowd-wide tables.
const (
	// MaxFilters is the number of query filters an agent can pick from
	// (DT_CROWD_MAX_QUERY_FILTER_TYPE).
	MaxFilters = 16
	// MaxAvoidancePresets is the number of obstacle avoidance parameter sets
	// an agent can pick from (DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS).
	MaxAvoidancePresets = 8
	// MaxAgentTypes is the number of agent types (navmeshes) a crowd can
	// hold; see AgentTypes.
	MaxAgentTypes = 16
)

// ErrInvalidParams is wrapped by the errors of AgentParams.Validate.
var ErrInvalidParams = errors.New("components: invalid agent parameters")

// UpdateFlags switch the optional parts of an agent's update on
// (dtUpdateFlags).
type UpdateFlags uint8

// Update flags.
const (
	// AnticipateTurns steers smoothly towards the corner after next instead
	// of straight at the next corner (DT_CROWD_ANTICIPATE_TURNS).
	AnticipateTurns UpdateFlags = 1 << iota
	// ObstacleAvoidance samples velocities that avoid neighbours and walls
	// (DT_CROWD_OBSTACLE_AVOIDANCE).
	ObstacleAvoidance
	// Separation steers away from neighbours (DT_CROWD_SEPARATION).
	Separation
	// OptimizeVisibility shortcuts the corridor towards visible corners
	// (DT_CROWD_OPTIMIZE_VIS).
	OptimizeVisibility
	// OptimizeTopology replans the start of the corridor now and then with
	// a small local search (DT_CROWD_OPTIMIZE_TOPO).
	OptimizeTopology

	// AllUpdateFlags is every flag, as in the reference crowd benchmark.
	AllUpdateFlags = AnticipateTurns | ObstacleAvoidance | Separation | OptimizeVisibility | OptimizeTopology
)

// Has reports whether every flag of f2 is set in f.
func (f UpdateFlags) Has(f2 UpdateFlags) bool { return f&f2 == f2 }

// AgentParams configure one agent (dtCrowdAgentParams). They may be changed
// at any time between ticks; plugin.UpdateParams validates them first.
type AgentParams struct {
	// Radius of the agent's body [Limit: > 0, and <= the crowd's maximum
	// agent radius] [Units: world units]
	Radius float32
	// Height of the agent's body, used to tell apart agents on different
	// floors [Limit: > 0] [Units: world units]
	Height float32
	// MaxAcceleration bounds the change of velocity per second
	// [Limit: >= 0] [Units: world units / s²]
	MaxAcceleration float32
	// MaxSpeed is the fastest the agent walks [Limit: >= 0]
	// [Units: world units / s]
	MaxSpeed float32
	// CollisionQueryRange is how far away neighbours and walls are taken
	// into account; usually 12 radii (AgentParamsForRadius sets it so)
	// [Limit: > 0] [Units: world units]
	CollisionQueryRange float32
	// PathOptimizationRange is how far ahead visibility shortcuts look; usually
	// 30 radii (AgentParamsForRadius sets it so) [Limit: > 0]
	// [Units: world units]
	PathOptimizationRange float32
	// SeparationWeight scales the push away from neighbours when Separation
	// is on [Limit: >= 0]
	SeparationWeight float32
	// UpdateFlags select the optional behaviours.
	UpdateFlags UpdateFlags
	// AvoidancePreset picks the obstacle avoidance parameters
	// (obstacleAvoidanceType) [Limit: 0..MaxAvoidancePresets-1]
	AvoidancePreset uint8
	// Filter picks the query filter (queryFilterType) from the agent
	// type's filters [Limit: 0..MaxFilters-1]
	Filter uint8
	// Type is the agent's type: the index of the navmesh it walks on in
	// the AgentTypes resource (plugin.Config.AgentTypes; the plugin's
	// AgentType method finds the index of a name). 0, the default, is the
	// crowd's first (or only) type. Change it with plugin.UpdateParams,
	// which moves the agent onto the other mesh and drops its path request
	// from its old type's queue; written directly, the agent's corridor
	// and request still belong to the old type [Limit: 0..MaxAgentTypes-1,
	// and below the crowd's number of types]
	Type uint8

	// StoppingDistance is how far (xz) from its target the agent stops,
	// as Unity's NavMeshAgent.stoppingDistance and Godot's
	// target_desired_distance: it slows down to stand still there, and
	// EventTargetReached fires within StoppingDistance +
	// Settings.ArrivalDistance. 0, the default, walks to the target itself
	// [Limit: >= 0, finite] [Units: world units]
	StoppingDistance float32
	// BrakingDistance is how far before its stopping point the agent starts
	// to slow down; 0, the default, means two radii, the reference's
	// [Limit: >= 0, finite] [Units: world units]
	BrakingDistance float32
	// AvoidancePriority ranks agents for obstacle avoidance, as Unity's
	// avoidancePriority and Godot's avoidance_priority (higher here is more
	// important): an agent avoids a neighbour of higher priority on its own
	// (the neighbour neither avoids it back nor separates from it), shares
	// the avoidance with one of equal priority (the reference's reciprocal
	// avoidance), and takes the whole collision push from a walking
	// neighbour of higher priority. All 0 by default.
	AvoidancePriority uint8
	// AvoidanceLayers are the avoidance layers the agent is in (a bit per
	// layer), AvoidanceMask the layers whose agents it avoids, as Godot's
	// avoidance_layers and avoidance_mask: agent A avoids agent B when
	// A's mask and B's layers share a bit. 0 means DefaultAvoidanceLayers
	// (layer 1) for both, so by default every agent avoids every other.
	// Layers select avoidance and separation; the collision pushes still
	// keep bodies apart.
	AvoidanceLayers, AvoidanceMask uint32
}

// DefaultAvoidanceLayers is the avoidance layer set a zero
// AgentParams.AvoidanceLayers or AvoidanceMask stands for: layer 1.
const DefaultAvoidanceLayers uint32 = 1

// Layers returns the agent's avoidance layers, DefaultAvoidanceLayers for
// a zero AvoidanceLayers.
func (p *AgentParams) Layers() uint32 {
	if p.AvoidanceLayers == 0 {
		return DefaultAvoidanceLayers
	}
	return p.AvoidanceLayers
}

// Mask returns the layers the agent avoids, DefaultAvoidanceLayers for a
// zero AvoidanceMask.
func (p *AgentParams) Mask() uint32 {
	if p.AvoidanceMask == 0 {
		return DefaultAvoidanceLayers
	}
	return p.AvoidanceMask
}

// Avoids reports whether an agent with params p avoids one with params
// other: p's mask shares a layer with other's layers and other's priority
// is not lower than p's.
func (p *AgentParams) Avoids(other *AgentParams) bool {
	return p.Mask()&other.Layers() != 0 && other.AvoidancePriority >= p.AvoidancePriority
}

// DefaultAgentParams returns the settings of the reference crowd benchmark:
// AgentParamsForRadius(0.6), that is radius 0.6, height 2, acceleration 8,
// speed 3.5, collision range 7.2 (12 radii), path optimization range 18 (30
// radii), separation weight 2, every update flag, avoidance preset 3 (high
// quality, adaptive) and filter 0; no stopping distance, braking over two
// radii, avoidance priority 0, layer 1.
func DefaultAgentParams() AgentParams { return AgentParamsForRadius(0.6) }

// AgentParamsForRadius returns the default agent (see DefaultAgentParams)
// resized to radius: CollisionQueryRange is 12 radii and
// PathOptimizationRange 30 radii, as RecastDemo sets them, so that an agent
// of another size looks as far ahead, in bodies, as the default one and
// needs no tuning. Height, acceleration, speed and the rest keep the
// default values. A crowd takes agents up to its Config.MaxAgentRadius (0.6
// by default; set it to the largest radius spawned), and the navmesh should
// be baked for the largest radius too (bake.Settings.AgentRadius).
//
// radius [Limit: > 0, finite] [Units: world units]
func AgentParamsForRadius(radius float32) AgentParams {
	// The ranges are float32 products, as RecastDemo computes them
	// (radius * 12.0f): for 0.6 the exact 7.2 rounds to another float32.
	return AgentParams{
		Radius:                radius,
		Height:                2,
		MaxAcceleration:       8,
		MaxSpeed:              3.5,
		CollisionQueryRange:   radius * 12,
		PathOptimizationRange: radius * 30,
		SeparationWeight:      2,
		UpdateFlags:           AllUpdateFlags,
		AvoidancePreset:       3,
		Filter:                0,
	}
}

// Validate reports the first parameter outside its limits, wrapping
// ErrInvalidParams. The crowd-specific bound on Radius is checked by the
// plugin.
func (p *AgentParams) Validate() error {
	bad := func(name string, v any, limit string) error {
		return fmt.Errorf("%w: %s %v, want %s", ErrInvalidParams, name, v, limit)
	}
	switch {
	case !positive(p.Radius):
		return bad("Radius", p.Radius, "a finite number > 0")
	case !positive(p.Height):
		return bad("Height", p.Height, "a finite number > 0")
	case !nonNegative(p.MaxAcceleration):
		return bad("MaxAcceleration", p.MaxAcceleration, "a finite number >= 0")
	case !nonNegative(p.MaxSpeed):
		return bad("MaxSpeed", p.MaxSpeed, "a finite number >= 0")
	case !positive(p.CollisionQueryRange):
		return bad("CollisionQueryRange", p.CollisionQueryRange, "a finite number > 0")
	case !positive(p.PathOptimizationRange):
		return bad("PathOptimizationRange", p.PathOptimizationRange, "a finite number > 0")
	case !nonNegative(p.SeparationWeight):
		return bad("SeparationWeight", p.SeparationWeight, "a finite number >= 0")
	case p.UpdateFlags&^AllUpdateFlags != 0:
		return bad("UpdateFlags", fmt.Sprintf("%#x", uint8(p.UpdateFlags)), fmt.Sprintf("a subset of %#x", uint8(AllUpdateFlags)))
	case int(p.AvoidancePreset) >= MaxAvoidancePresets:
		return bad("AvoidancePreset", p.AvoidancePreset, fmt.Sprintf("0..%d", MaxAvoidancePresets-1))
	case int(p.Filter) >= MaxFilters:
		return bad("Filter", p.Filter, fmt.Sprintf("0..%d", MaxFilters-1))
	case int(p.Type) >= MaxAgentTypes:
		return bad("Type", p.Type, fmt.Sprintf("0..%d", MaxAgentTypes-1))
	case !nonNegative(p.StoppingDistance):
		return bad("StoppingDistance", p.StoppingDistance, "a finite number >= 0")
	case !nonNegative(p.BrakingDistance):
		return bad("BrakingDistance", p.BrakingDistance, "a finite number >= 0")
	}
	return nil
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

func positive(f float32) bool { return finite(f) && f > 0 }

func nonNegative(f float32) bool { return finite(f) && f >= 0 }
