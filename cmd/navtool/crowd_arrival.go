package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// retargetAfterPartial is how long an agent whose target turned out out of
// reach (EventPartialPath, EventPathFailed) keeps it under -retarget before
// it gets a new one [Units: s]
const retargetAfterPartial = 10.0

// retargeter gives the agents of a -retarget run a new random target each
// time one arrives (EventTargetReached), and retargetAfterPartial seconds
// after a partial or failed path, and counts the arrivals.
type retargeter struct {
	p       *plugin.Plugin
	world   *ecs.World
	agents  []ecs.Entity
	index   map[ecs.Entity]int
	trips   []crowdTrip
	checker *crowdChecker
	point   func() (geom.Vec3, error)
	// due is the tick at which agent i gets a new target, -1 for none.
	due      []int
	partialT int
	// arrivals counts every EventTargetReached of the run, retargeting or
	// not.
	arrivals int
	enabled  bool
}

// newRetargeter returns the arrival counter of a run; with enabled it also
// gives new targets, drawn after the run's starts and targets from the
// seeded random points of randomCrowdTrips (the largest connected part
// with connected) on a stream of their own, so that the first trips stay
// those of the same run without -retarget.
func newRetargeter(p *plugin.Plugin, world *ecs.World, agents []ecs.Entity, trips []crowdTrip, checker *crowdChecker,
	mesh *navmesh.Mesh, filter *query.Filter, opts *crowdOptions,
) (*retargeter, error) {
	r := &retargeter{p: p, world: world, agents: agents, trips: trips, checker: checker, enabled: opts.retarget}
	if !opts.retarget {
		return r, nil
	}
	if len(opts.types) > 0 {
		return nil, errors.New("-retarget works with one navmesh, not with agent types")
	}
	q, err := query.New(mesh, 2048)
	if err != nil {
		return nil, err
	}
	seed := opts.seed ^ 0x5bd1e9955bd1e995
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	random := func() float32 { return rng.Float32() }
	r.point = func() (geom.Vec3, error) {
		p, err := q.FindRandomPoint(filter, random)
		return p.Pos, err
	}
	if opts.connected {
		sampler, err := query.LargestComponentSampler(mesh.Snapshot(), filter)
		if err != nil {
			return nil, err
		}
		r.point = func() (geom.Vec3, error) {
			p, err := sampler.RandomPoint(random)
			return p.Pos, err
		}
	}
	r.index = make(map[ecs.Entity]int, len(agents))
	r.due = make([]int, len(agents))
	for i, e := range agents {
		r.index[e] = i
		r.due[i] = -1
	}
	r.partialT = int(math.Ceil(retargetAfterPartial / opts.dt))
	return r, nil
}

// after handles the events of tick (0-based); last reports the run's last
// tick, after which no agent gets a new target.
func (r *retargeter) after(tick int, last bool) error {
	for _, ev := range r.p.Events(r.world) {
		if ev.Kind == components.EventTargetReached {
			r.arrivals++
		}
		if !r.enabled {
			continue
		}
		i, ok := r.index[ev.Entity]
		if !ok {
			continue
		}
		switch ev.Kind {
		case components.EventTargetReached:
			r.due[i] = tick
		case components.EventPartialPath, components.EventPathFailed:
			r.due[i] = tick + r.partialT
		}
	}
	if !r.enabled || last {
		return nil
	}
	for i, due := range r.due {
		if due < 0 || due > tick {
			continue
		}
		target, err := r.point()
		if err != nil {
			return fmt.Errorf("random target: %w", err)
		}
		if err := r.p.RequestMoveTarget(r.world, r.agents[i], target); err != nil {
			return fmt.Errorf("agent %d: %w", i, err)
		}
		r.trips[i].target = target
		r.due[i] = -1
		if err := r.checker.Retarget(i); err != nil {
			return err
		}
	}
	return nil
}

// perMinute returns the arrivals per simulated minute of a run of ticks
// ticks of dt seconds.
func (r *retargeter) perMinute(ticks int, dt float64) float64 {
	return float64(r.arrivals) / (float64(ticks) * dt / 60)
}

// nearGrace is how long a run goes on after its last tick, with no new
// targets, for the agents within 1 m of their target and not arrived at the
// end: an agent still braking into its target then arrives, one that
// stands or circles short of it does not [Units: s]. An agent at 1 m brakes
// in within about half a second.
const nearGrace = 2.0

// arrivingAfterEnd steps world on for up to nearGrace seconds (fewer once
// every one of near arrived) and returns how many of near got
// EventTargetReached meanwhile. It runs after the run is measured and
// changes no figure but nearNotArrived.
func arrivingAfterEnd(p *plugin.Plugin, world *ecs.World, near []ecs.Entity, dt float64) (int, error) {
	if len(near) == 0 {
		return 0, nil
	}
	waiting := make(map[ecs.Entity]bool, len(near))
	for _, e := range near {
		waiting[e] = true
	}
	arrived := 0
	for range int(math.Ceil(nearGrace / dt)) {
		if err := p.Step(world, float32(dt)); err != nil {
			return 0, fmt.Errorf("after the run: %w", err)
		}
		for _, ev := range p.Events(world) {
			if ev.Kind == components.EventTargetReached && waiting[ev.Entity] {
				delete(waiting, ev.Entity)
				arrived++
			}
		}
		if len(waiting) == 0 {
			break
		}
	}
	return arrived, nil
}
