package plugin

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder logs its calls into a shared list.
type recorder struct {
	name string
	log  *[]string
}

func (r *recorder) Initialize(*ecs.World) { *r.log = append(*r.log, "init "+r.name) }
func (r *recorder) Update(*ecs.World)     { *r.log = append(*r.log, r.name) }
func (r *recorder) Finalize(*ecs.World)   { *r.log = append(*r.log, "final "+r.name) }

// stageRecorder wraps a stage's system and logs its updates.
type stageRecorder struct {
	System
	name string
	log  *[]string
}

func (r *stageRecorder) Update(w *ecs.World) {
	*r.log = append(*r.log, r.name)
	r.System.Update(w)
}

func TestScheduleOrderAndUserSystems(t *testing.T) {
	s := NewSchedule()
	assert.Equal(t, []string{
		StageObstacleSync, StageColliderSync, StageLinkSync, StagePathRequest, StageTopologyOptimize, StageBoundaryUpdate, StageSteering,
		StageLinkTraversal, StageVelocitySampling, StageIntegrate, StageCollisionResolve, StageSurfaceClamp, StageOffMeshAnimation,
	}, s.Stages())
	sys, ok := s.Stage(StageSteering)
	require.True(t, ok)
	assert.IsType(t, &systems.Steering{}, sys)
	_, ok = s.Stage("Nope")
	assert.False(t, ok)

	var log []string
	for _, name := range s.Stages() {
		sys, _ := s.Stage(name)
		require.NoError(t, s.Replace(name, &stageRecorder{System: sys, name: name, log: &log}))
	}
	require.NoError(t, s.Before(StageSteering, &recorder{"before steering 1", &log}))
	require.NoError(t, s.Before(StageSteering, &recorder{"before steering 2", &log}))
	require.NoError(t, s.After(StageSteering, &recorder{"after steering", &log}))
	require.NoError(t, s.After(StageOffMeshAnimation, &recorder{"last", &log}))
	require.NoError(t, s.Before(StagePathRequest, &recorder{"first", &log}))
	assert.ErrorIs(t, s.After("Nope", &recorder{}), ErrUnknownStage)
	assert.ErrorIs(t, s.Replace(StageIntegrate, nil), ErrInvalidInput)

	world := ecs.NewWorld()
	s.Initialize(&world)
	assert.Equal(t, []string{"init first", "init before steering 1", "init before steering 2", "init after steering", "init last"}, log)
	assert.ErrorIs(t, s.After(StageSteering, &recorder{}), ErrScheduleStarted)
	assert.ErrorContains(t, s.After(StageSteering, &recorder{}), "change the schedule before the first Step")

	log = nil
	s.Update(&world) // a bare world: the stages find no resources and do nothing
	assert.Equal(t, []string{
		StageObstacleSync, StageColliderSync, StageLinkSync, "first", StagePathRequest, StageTopologyOptimize, StageBoundaryUpdate,
		"before steering 1", "before steering 2", StageSteering, "after steering",
		StageLinkTraversal, StageVelocitySampling, StageIntegrate, StageCollisionResolve, StageSurfaceClamp, StageOffMeshAnimation, "last",
	}, log)

	log = nil
	s.Finalize(&world)
	assert.Equal(t, []string{"final first", "final before steering 1", "final before steering 2", "final after steering", "final last"}, log)
}

func TestReplacedStageRunsInstead(t *testing.T) {
	mesh := loadDungeon(t)
	f := newCrowd(t, mesh, 20, 5, Config{})
	var log []string
	// No integration: nobody moves.
	require.NoError(t, f.plugin.Schedule().Replace(StageIntegrate, &recorder{"frozen", &log}))
	before := f.positions(t)
	f.step(t, 60)
	assert.Len(t, log, 61) // Initialize + 60 updates
	assert.Equal(t, before, f.positions(t))
}

// TestScheduleIsASystem runs the schedule the way a scheduler such as
// arche-model does: Initialize, Update with the TimeStep resource, Finalize.
func TestScheduleIsASystem(t *testing.T) {
	var _ systems.System = (*Schedule)(nil)
	mesh := loadDungeon(t)
	f := newCrowd(t, mesh, 10, 2, Config{Workers: 2, TimeStep: 1.0 / 30})
	var sys systems.System = f.plugin.Schedule()
	sys.Initialize(f.world)
	before := f.positions(t)
	for i := 0; i < 30; i++ {
		sys.Update(f.world)
	}
	sys.Finalize(f.world)
	moved := 0
	for i, p := range f.positions(t) {
		if p != before[i] {
			moved++
		}
	}
	assert.Equal(t, 10, moved)
	assert.Equal(t, uint64(30), f.plugin.timeStep.Get().Tick)
	stats := f.plugin.Stats(f.world)
	assert.Equal(t, f.plugin.Schedule().Stages(), stats.StageNames)
	assert.Equal(t, 10, stats.Agents)
	assert.Positive(t, stats.VelocitySamples)
	assert.Positive(t, stats.StageDurations[4])
	_ = components.TimeStep{}
}

// TestScheduleUnknownStageSaysWhichStagesThereAre: a mistyped stage name is
// an unknown stage, before or after the schedule started, and the error
// names the stage meant and lists them all.
func TestScheduleUnknownStageSaysWhichStagesThereAre(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"Stering", `"Stering": plugin: unknown stage; did you mean Steering? the stages are ObstacleSync, ColliderSync, LinkSync, PathRequest, TopologyOptimize, BoundaryUpdate, Steering, LinkTraversal, VelocitySampling, Integrate, CollisionResolve, SurfaceClamp, OffMeshAnimation`},
		{"steering", "did you mean Steering?"},
		{"collision", "; the stages are ObstacleSync, ColliderSync, LinkSync, PathRequest, "},
		{"", "; the stages are ObstacleSync, ColliderSync, LinkSync, PathRequest, "},
	}
	for _, started := range []bool{false, true} {
		s := NewSchedule()
		if started {
			world := ecs.NewWorld()
			s.Initialize(&world)
		}
		for _, tt := range tests {
			for what, call := range map[string]func(string, System) error{"before": s.Before, "after": s.After, "replace": s.Replace} {
				err := call(tt.name, &recorder{})
				assert.ErrorIs(t, err, ErrUnknownStage, "%s %q, started %v", what, tt.name, started)
				assert.NotErrorIs(t, err, ErrScheduleStarted)
				assert.ErrorContains(t, err, tt.want)
			}
		}
		// A nil system for an unknown stage: the stage is what is wrong.
		assert.ErrorIs(t, s.After("Nope", nil), ErrUnknownStage)
	}
	assert.NotContains(t, NewSchedule().stageHint("Collision"), "did you mean")
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"steering", "stering", 1}, {"kitten", "sitting", 3}, {"same", "same", 0}} {
		assert.Equal(t, tt.want, editDistance(tt.a, tt.b), "%q %q", tt.a, tt.b)
		assert.Equal(t, tt.want, editDistance(tt.b, tt.a), "%q %q", tt.b, tt.a)
	}
}

// systemFunc is a user system made of a function.
type systemFunc func(world *ecs.World)

func (f systemFunc) Initialize(*ecs.World)   {}
func (f systemFunc) Update(world *ecs.World) { f(world) }
func (f systemFunc) Finalize(*ecs.World)     {}

// movedTag is a component a user system adds to an agent mid-tick, moving
// its components to another archetype.
type movedTag struct{}

// TestUserSystemsMayChangeTheWorldBetweenStages: the stages share one list
// of the agents only while they run back to back. A user system between
// two stages that moves an agent to another archetype (adding a component)
// and removes another agent must leave the later stages of the same tick
// working on the world as it now is: the moved agent keeps walking (its
// position changes in that very tick) and nobody else is touched through
// a stale list.
func TestUserSystemsMayChangeTheWorldBetweenStages(t *testing.T) {
	for _, stage := range []string{StagePathRequest, StageSteering, StageCollisionResolve} {
		t.Run(stage, func(t *testing.T) {
			mesh := loadDungeon(t)
			f := newCrowd(t, mesh, 40, 9, Config{Workers: 2})
			moved, removed := f.agents[3], f.agents[len(f.agents)-1]
			change := false
			require.NoError(t, f.plugin.Schedule().After(stage, systemFunc(func(world *ecs.World) {
				if change {
					tag := generic.NewMap1[movedTag](world)
					tag.Add(moved)
					world.RemoveEntity(removed)
					change = false
				}
			})))
			f.step(t, 30)
			position := generic.NewMap[components.Position](f.world)
			states := generic.NewMap[components.AgentState](f.world)
			tags := generic.NewMap[movedTag](f.world)
			before := map[ecs.Entity]components.Position{}
			for _, e := range f.agents[:len(f.agents)-1] {
				before[e] = *position.Get(e)
			}
			change = true
			f.step(t, 1)
			require.False(t, f.world.Alive(removed))
			require.True(t, tags.Has(moved))
			assert.NotEqual(t, before[moved], *position.Get(moved), "the moved agent walks on in the same tick")
			for e, p := range before {
				state := states.Get(e)
				if state.Mode == components.AgentWalking && e != moved {
					assert.NotEqual(t, p, *position.Get(e), "agent %v walks on", e)
				}
			}
			f.step(t, 60)
			assert.Equal(t, len(f.agents)-1, f.plugin.Stats(f.world).Agents)
		})
	}
}
