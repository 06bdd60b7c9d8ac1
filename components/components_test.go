package components

import (
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultAgentParams(t *testing.T) {
	p := DefaultAgentParams()
	require.NoError(t, p.Validate())
	radius := float32(0.6)
	// The float32 products RecastDemo computes, not the exact 7.2 and 18.
	assert.Equal(t, radius*12, p.CollisionQueryRange)
	assert.Equal(t, radius*30, p.PathOptimizationRange)
	assert.Equal(t, uint32(0x40e66667), math.Float32bits(p.CollisionQueryRange))
	assert.Equal(t, float32(2), p.Height)
	assert.Equal(t, float32(8), p.MaxAcceleration)
	assert.Equal(t, float32(3.5), p.MaxSpeed)
	assert.Equal(t, float32(2), p.SeparationWeight)
	assert.Equal(t, AllUpdateFlags, p.UpdateFlags)
	assert.Equal(t, uint8(3), p.AvoidancePreset)
	assert.True(t, p.UpdateFlags.Has(ObstacleAvoidance|Separation))
	assert.False(t, (AnticipateTurns | Separation).Has(ObstacleAvoidance))
}

func TestAgentParamsForRadiusScalesTheRanges(t *testing.T) {
	assert.Equal(t, DefaultAgentParams(), AgentParamsForRadius(0.6))
	defaults := DefaultAgentParams()
	for _, radius := range []float32{0.05, 0.3, 0.6, 1, 2.5, 40} {
		p := AgentParamsForRadius(radius)
		require.NoError(t, p.Validate(), "radius %v", radius)
		assert.Equal(t, radius, p.Radius)
		assert.Equal(t, radius*12, p.CollisionQueryRange, "radius %v", radius)
		assert.Equal(t, radius*30, p.PathOptimizationRange, "radius %v", radius)
		assert.InDelta(t, 12, p.CollisionQueryRange/p.Radius, 1e-5)
		assert.InDelta(t, 30, p.PathOptimizationRange/p.Radius, 1e-5)
		// Everything else is the default agent's.
		p.Radius, p.CollisionQueryRange, p.PathOptimizationRange = defaults.Radius, defaults.CollisionQueryRange, defaults.PathOptimizationRange
		assert.Equal(t, defaults, p, "radius %v", radius)
	}
	bad := AgentParamsForRadius(0)
	assert.ErrorIs(t, bad.Validate(), ErrInvalidParams)
}

func TestAgentParamsValidate(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for name, change := range map[string]func(*AgentParams){
		"zero radius":         func(p *AgentParams) { p.Radius = 0 },
		"NaN radius":          func(p *AgentParams) { p.Radius = nan },
		"negative height":     func(p *AgentParams) { p.Height = -2 },
		"infinite accel":      func(p *AgentParams) { p.MaxAcceleration = inf },
		"negative speed":      func(p *AgentParams) { p.MaxSpeed = -1 },
		"zero query range":    func(p *AgentParams) { p.CollisionQueryRange = 0 },
		"NaN path range":      func(p *AgentParams) { p.PathOptimizationRange = nan },
		"negative weight":     func(p *AgentParams) { p.SeparationWeight = -0.5 },
		"unknown flag":        func(p *AgentParams) { p.UpdateFlags |= 0x80 },
		"preset out of range": func(p *AgentParams) { p.AvoidancePreset = MaxAvoidancePresets },
		"filter out of range": func(p *AgentParams) { p.Filter = MaxFilters },
	} {
		p := DefaultAgentParams()
		change(&p)
		assert.ErrorIs(t, p.Validate(), ErrInvalidParams, name)
	}
	p := DefaultAgentParams()
	p.MaxSpeed, p.MaxAcceleration, p.SeparationWeight, p.UpdateFlags = 0, 0, 0, 0
	p.AvoidancePreset, p.Filter = MaxAvoidancePresets-1, MaxFilters-1
	assert.NoError(t, p.Validate())
}

func TestNames(t *testing.T) {
	assert.Equal(t, "walking", AgentWalking.String())
	assert.Equal(t, "off-mesh", AgentOffMesh.String())
	assert.Equal(t, "invalid", AgentInvalid.String())
	assert.Equal(t, "unknown", AgentMode(9).String())
	assert.Equal(t, []string{"none", "failed", "valid", "requesting", "waiting for queue", "waiting for path", "velocity", "unknown"},
		[]string{TargetNone.String(), TargetFailed.String(), TargetValid.String(), TargetRequesting.String(),
			TargetWaitingForQueue.String(), TargetWaitingForPath.String(), TargetVelocity.String(), TargetState(7).String()})
	assert.Equal(t, []string{"target reached", "path failed", "partial path", "off-mesh started", "off-mesh finished", "unknown"},
		[]string{EventTargetReached.String(), EventPathFailed.String(), EventPartialPath.String(),
			EventOffMeshStarted.String(), EventOffMeshFinished.String(), EventKind(0).String()})
	assert.False(t, TargetNone.HasPath())
	assert.False(t, TargetVelocity.HasPath())
	assert.True(t, TargetFailed.HasPath())
	assert.True(t, TargetWaitingForPath.HasPath())
}

func TestEventsReuseTheirBuffer(t *testing.T) {
	var events Events
	world := ecs.NewWorld()
	e := world.NewEntity()
	events.Add(Event{Kind: EventTargetReached, Entity: e, Position: geom.Vec3{1, 2, 3}})
	events.Add(Event{Kind: EventPathFailed, Entity: e})
	require.Len(t, events.All(), 2)
	assert.Equal(t, EventPathFailed, events.All()[1].Kind)
	events.Clear()
	assert.Empty(t, events.All())
	allocs := testing.AllocsPerRun(100, func() {
		events.Clear()
		events.Add(Event{Kind: EventPartialPath})
		events.Add(Event{Kind: EventPartialPath})
	})
	assert.Zero(t, allocs)
}

func TestResourceDefaults(t *testing.T) {
	filters := NewFilters()
	want := *query.NewFilter()
	want.ExcludeFlags = navmesh.FlagDisabled
	for _, f := range filters.List {
		assert.Equal(t, want, f)
	}
	presets := NewAvoidancePresets()
	assert.Equal(t, crowd.AvoidancePreset(crowd.AvoidanceLow), presets.List[0])
	assert.Equal(t, crowd.AvoidancePreset(crowd.AvoidanceHigh), presets.List[3])
	assert.Equal(t, crowd.DefaultAvoidanceParams(), presets.List[7])
	for _, p := range presets.List {
		assert.NoError(t, p.Validate())
	}

	s := DefaultSettings(0.6)
	assert.Equal(t, geom.Vec3{1.2, 0.90000004, 1.2}, s.PlacementHalfExtents)
	assert.InDelta(t, 0.2, s.ArrivalDistance, 1e-6)
	assert.Equal(t, 100, s.PathQueueIterations)
	assert.Equal(t, 8, s.MaxPathQueueRequestsPerTick)
	assert.Equal(t, 4, s.CollisionIterations)
	assert.True(t, s.DeadlockBreaker)
	assert.True(t, s.WallSafeCollisions)
	assert.True(t, s.EdgeHeightSnap)
	assert.False(t, s.ContactSliding)
	assert.Equal(t, float32(0.25), s.PileFraction)

	var n Neighbours
	n.Count = 2
	assert.Len(t, n.Slice(), 2)
	var c Corners
	c.Count = 3
	assert.Len(t, c.Slice(), 3)
	assert.Equal(t, geom.Vec3{1, 2, 3}, Position{1, 2, 3}.Vec3())
}
