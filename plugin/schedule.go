package plugin

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// System is the method set of a schedule entry: the same as arche-model's
// System, so that systems move freely between a Schedule and a Model.
type System = systems.System

// Names of the crowd's stages, in the order they run.
const (
	StageObstacleSync     = "ObstacleSync"
	StageColliderSync     = "ColliderSync"
	StageLinkSync         = "LinkSync"
	StagePathRequest      = "PathRequest"
	StageTopologyOptimize = "TopologyOptimize"
	StageBoundaryUpdate   = "BoundaryUpdate"
	StageSteering         = "Steering"
	StageLinkTraversal    = "LinkTraversal"
	StageVelocitySampling = "VelocitySampling"
	StageIntegrate        = "Integrate"
	StageCollisionResolve = "CollisionResolve"
	StageSurfaceClamp     = "SurfaceClamp"
	StageOffMeshAnimation = "OffMeshAnimation"
)

// ErrUnknownStage is returned for a stage name the schedule does not have;
// the error lists the names it has.
var ErrUnknownStage = errors.New("plugin: unknown stage")

// ErrScheduleStarted is returned when the schedule is changed after
// Initialize (the first Step or Update initializes it): add, replace and
// reorder systems before that.
var ErrScheduleStarted = errors.New("plugin: schedule already initialized")

type scheduleStage struct {
	name          string
	system        System
	before, after []System
	// replaced is set when a user system runs instead of the stage's own.
	replaced bool
}

// Schedule runs the crowd's stages in order, with user systems before or
// after any of them. It is itself a System: Initialize initializes every
// system, Update runs one tick with the TimeStep resource's Dt and then hands
// the tick's events to Config.OnEvent, Finalize finalizes every system and
// stops the plugin's worker pool. Change it (Before, After, Replace) before
// Initialize.
type Schedule struct {
	stages      []scheduleStage
	initialized bool
	plugin      *Plugin
	onEvent     func(world *ecs.World, ev components.Event)

	timeStep generic.Resource[components.TimeStep]
	events   generic.Resource[components.Events]
	stats    generic.Resource[components.Stats]
	run      generic.Resource[systems.StageRun]
	names    []string
}

// NewSchedule returns the thirteen stages of the crowd with fresh systems.
func NewSchedule() *Schedule {
	s := &Schedule{stages: []scheduleStage{
		{name: StageObstacleSync, system: &systems.ObstacleSync{}},
		{name: StageColliderSync, system: &systems.ColliderSync{}},
		{name: StageLinkSync, system: &systems.LinkSync{}},
		{name: StagePathRequest, system: &systems.PathRequest{}},
		{name: StageTopologyOptimize, system: &systems.TopologyOptimize{}},
		{name: StageBoundaryUpdate, system: &systems.BoundaryUpdate{}},
		{name: StageSteering, system: &systems.Steering{}},
		{name: StageLinkTraversal, system: &systems.LinkTraversal{}},
		{name: StageVelocitySampling, system: &systems.VelocitySampling{}},
		{name: StageIntegrate, system: &systems.Integrate{}},
		{name: StageCollisionResolve, system: &systems.CollisionResolve{}},
		{name: StageSurfaceClamp, system: &systems.SurfaceClamp{}},
		{name: StageOffMeshAnimation, system: &systems.OffMeshAnimation{}},
	}}
	for _, st := range s.stages {
		s.names = append(s.names, st.name)
	}
	return s
}

// Stages returns the stage names in order.
func (s *Schedule) Stages() []string { return append([]string(nil), s.names...) }

// Stage returns the system running stage name.
func (s *Schedule) Stage(name string) (System, bool) {
	if st := s.find(name); st != nil {
		return st.system, true
	}
	return nil, false
}

func (s *Schedule) find(name string) *scheduleStage {
	for i := range s.stages {
		if s.stages[i].name == name {
			return &s.stages[i]
		}
	}
	return nil
}

func (s *Schedule) edit(name string, sys System) (*scheduleStage, error) {
	st := s.find(name)
	if st == nil {
		return nil, fmt.Errorf("plugin: schedule: %q: %w; %s", name, ErrUnknownStage, s.stageHint(name))
	}
	if sys == nil {
		return nil, fmt.Errorf("plugin: schedule: change %s: nil system: %w", name, ErrInvalidInput)
	}
	if s.initialized {
		return nil, fmt.Errorf("plugin: schedule: change %s: %w: change the schedule before the first Step", name, ErrScheduleStarted)
	}
	return st, nil
}

// stageHint names the stage meant by a mistyped name, when one is close,
// and lists the stages.
func (s *Schedule) stageHint(name string) string {
	list := "the stages are " + strings.Join(s.names, ", ") + " (plugin.Stage... constants)"
	best, bestDistance := "", 3 // suggest only within two edits
	for _, stage := range s.names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(stage)); d < bestDistance {
			best, bestDistance = stage, d
		}
	}
	if best != "" {
		return fmt.Sprintf("did you mean %s? %s", best, list)
	}
	return list
}

// editDistance returns the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	previous := make([]int, len(b)+1)
	current := make([]int, len(b)+1)
	for j := range previous {
		previous[j] = j
	}
	for i := 1; i <= len(a); i++ {
		current[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			current[j] = min(previous[j]+1, current[j-1]+1, previous[j-1]+cost)
		}
		previous, current = current, previous
	}
	return previous[len(b)]
}

// Before runs sys right before stage (after systems added earlier).
func (s *Schedule) Before(stage string, sys System) error {
	st, err := s.edit(stage, sys)
	if err == nil {
		st.before = append(st.before, sys)
	}
	return err
}

// After runs sys right after stage (after systems added earlier).
func (s *Schedule) After(stage string, sys System) error {
	st, err := s.edit(stage, sys)
	if err == nil {
		st.after = append(st.after, sys)
	}
	return err
}

// Replace runs sys instead of the stage's system.
func (s *Schedule) Replace(stage string, sys System) error {
	st, err := s.edit(stage, sys)
	if err == nil {
		st.system, st.replaced = sys, true
	}
	return err
}

// Initialize initializes every system, in order.
func (s *Schedule) Initialize(world *ecs.World) {
	if s.initialized {
		return
	}
	s.initialized = true
	s.timeStep = generic.NewResource[components.TimeStep](world)
	s.events = generic.NewResource[components.Events](world)
	s.stats = generic.NewResource[components.Stats](world)
	s.run = generic.NewResource[systems.StageRun](world)
	for _, st := range s.stages {
		for _, sys := range st.before {
			sys.Initialize(world)
		}
		st.system.Initialize(world)
		for _, sys := range st.after {
			sys.Initialize(world)
		}
	}
}

// Update runs one tick: it clears the Events resource, runs every stage and
// its user systems in order, records the stage times in the Stats resource,
// counts the tick in TimeStep and hands the events to Config.OnEvent.
func (s *Schedule) Update(world *ecs.World) {
	if !s.initialized {
		s.Initialize(world)
	}
	var events *components.Events
	if s.events.Has() {
		events = s.events.Get()
		events.Clear()
	}
	var stats *components.Stats
	if s.stats.Has() {
		stats = s.stats.Get()
		if len(stats.StageDurations) != len(s.stages) {
			stats.StageNames = s.Stages()
			stats.StageDurations = make([]time.Duration, len(s.stages))
		}
	}
	if s.plugin != nil {
		s.plugin.requestsSinceTick = 0
	}
	// The stages' own systems share one list of the agents while they run
	// back to back; a user system, which may change the world's structure,
	// closes the run.
	var run *systems.StageRun
	if s.run.Has() {
		run = s.run.Get()
	}
	for i, st := range s.stages {
		if len(st.before) > 0 {
			run.Close()
			for _, sys := range st.before {
				sys.Update(world)
			}
		}
		if st.replaced {
			run.Close()
		} else {
			run.Open()
		}
		start := time.Now()
		st.system.Update(world)
		if stats != nil {
			stats.StageDurations[i] = time.Since(start)
		}
		if len(st.after) > 0 {
			run.Close()
			for _, sys := range st.after {
				sys.Update(world)
			}
		}
	}
	run.Close()
	if s.timeStep.Has() {
		s.timeStep.Get().Tick++
	}
	if s.onEvent != nil && events != nil {
		for _, ev := range events.All() {
			s.onEvent(world, ev)
		}
	}
}

// Finalize finalizes every system, in order, and stops the plugin's worker
// pool.
func (s *Schedule) Finalize(world *ecs.World) {
	for _, st := range s.stages {
		for _, sys := range st.before {
			sys.Finalize(world)
		}
		st.system.Finalize(world)
		for _, sys := range st.after {
			sys.Finalize(world)
		}
	}
	if s.plugin != nil && s.plugin.workers != nil {
		s.plugin.workers.Close()
	}
}

// Step runs one tick of length dt: it sets the TimeStep resource (adding it
// when missing) and calls Update. It fails, running nothing, for a dt that
// is not a positive finite number or while a query locks the world.
//
// dt [Limit: > 0, finite] [Units: s]
func (s *Schedule) Step(world *ecs.World, dt float32) error {
	if world == nil {
		return fmt.Errorf("plugin: step: nil world: %w", ErrInvalidInput)
	}
	if !(dt > 0) || math.IsInf(float64(dt), 0) {
		return fmt.Errorf("plugin: step: dt %v: %w", dt, ErrInvalidInput)
	}
	if world.IsLocked() {
		return fmt.Errorf("plugin: step: %w", ErrWorldLocked)
	}
	if s.plugin != nil && s.plugin.world != world {
		return fmt.Errorf("plugin: step: %w", ErrNotInstalled)
	}
	if !s.initialized {
		s.Initialize(world)
	}
	if !s.timeStep.Has() {
		s.timeStep.Add(&components.TimeStep{})
	}
	s.timeStep.Get().Dt = dt
	s.Update(world)
	return nil
}
