// Package sim runs the demo's crowd on a navmesh: an arche world with
// archenav's crowd plugin installed, one entity per agent, of one agent
// type (New) or several (NewTypes: small quick agents and large slow ones,
// say), each type walking the navmesh baked for its size. It spawns the
// agents, gives them targets (each its own random one it can reach, or one
// for all), steps the crowd, counts arrivals per type, reports the stage
// times, and hands the scene what to draw, debug state included.
package sim

import (
	"errors"
	"fmt"
	"github.com/archenav/archenav/components"
	"math/rand/v2"
	"time"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Config sets up the demo crowd.
type Config struct {
	// Agents is how many agents are spawned at start [Limit: 0..MaxAgents]
	Agents int
	// MaxAgents bounds the crowd, spawned and added later [Limit: >= 1]
	MaxAgents int
	// Seed makes spawn points and targets repeatable.
	Seed uint64
	// Workers is how many goroutines step the crowd [Limit: >= 1]
	Workers int
	// Radius, Height: every agent's size with New (NewTypes takes them
	// from the types) [Limit: > 0] [Units: world units]
	Radius, Height float32
	// MaxSpeed [Limit: > 0] [Units: world units per second]
	MaxSpeed float32
	// MaxAcceleration [Limit: > 0] [Units: world units per second squared]
	MaxAcceleration float32
	// ArrivalDistance: an agent this close to its target has arrived
	// [Limit: > 0] [Units: world units]
	ArrivalDistance float32
	// TileCache, when not nil, is the cache New's navmesh is built from:
	// crates and doors carve it (NewTypes takes each type's).
	TileCache *tilecache.Cache
	// DynamicMesh, when not nil, is the dynamic navmesh (bake/dynamic)
	// New's navmesh (the first type's) is built from: DropRamp puts
	// colliders in it.
	DynamicMesh components.ColliderMesh
	// Script plays the default run's obstacles on a level with a tile
	// cache: a door across a passage the agents use at 1 s, crates
	// dropped in their ways at 1.5 s, the door closed at 3 s and opened at
	// 7 s.
	Script bool
}

// DefaultConfig returns RecastDemo's crowd tool agent (radius 0.6, height 2,
// speed 3.5, acceleration 8) with 40 agents.
func DefaultConfig() Config {
	return Config{
		Agents:          40,
		MaxAgents:       512,
		Seed:            1,
		Workers:         1,
		Radius:          0.6,
		Height:          2,
		MaxSpeed:        3.5,
		MaxAcceleration: 8,
		ArrivalDistance: 1.0,
		Script:          true,
	}
}

func (c *Config) validate() error {
	switch {
	case c.MaxAgents < 1:
		return fmt.Errorf("sim: max agents %d below 1", c.MaxAgents)
	case c.Agents < 0 || c.Agents > c.MaxAgents:
		return fmt.Errorf("sim: %d agents outside 0..%d", c.Agents, c.MaxAgents)
	case c.Workers < 1:
		return fmt.Errorf("sim: %d workers, want at least 1", c.Workers)
	case !(c.Radius > 0) || !(c.Height > 0) || !(c.MaxSpeed > 0) || !(c.MaxAcceleration > 0) || !(c.ArrivalDistance > 0):
		return errors.New("sim: radius, height, speed, acceleration and arrival distance must be positive")
	}
	return nil
}

// Behaviour holds the steering options the window toggles.
type Behaviour struct {
	AnticipateTurns, OptimizeVisibility, OptimizeTopology, ObstacleAvoidance, Separation bool
}

// DefaultBehaviour turns everything on, as RecastDemo's crowd tool does.
var DefaultBehaviour = Behaviour{true, true, true, true, true}

// StageTime is the time one named stage of a tick took.
type StageTime struct {
	Name string
	Time time.Duration
}

// Stats sums up the run so far.
type Stats struct {
	// Agents alive now.
	Agents int
	// Ticks stepped, and their total time.
	Ticks    int
	StepTime time.Duration
	// Arrivals counts targets reached.
	Arrivals int
	// Types are the figures of each agent type, in order.
	Types []TypeStats
	// Stages are the stage times of the last tick.
	Stages []StageTime
}

// MillisecondsPerTick is the mean tick time [Units: ms].
func (s Stats) MillisecondsPerTick() float64 {
	if s.Ticks == 0 {
		return 0
	}
	return float64(s.StepTime.Microseconds()) / 1000 / float64(s.Ticks)
}

// newRandom returns the demo's random source for seed.
func newRandom(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Mode is how targets are given.
type Mode int

const (
	// Wander gives every agent its own random target, and a new one on
	// arrival.
	Wander Mode = iota
	// Gather sends every agent to one target; arrived agents stop.
	Gather
)

// nearestExtents is the half box searched for the polygon under a point.
var nearestExtents = geom.Vec3{2, 4, 2}
