// Package crowdcheck measures how a crowd behaves, tick by tick: agents off
// the navmesh or off their corridor, overlapping pairs, how much velocities
// change, and at the end agents arrived, stuck or still waiting for a path.
// `navtool crowd` and the crowd benchmarks share it, so that their figures
// mean the same.
//
// # Start here
//
// New(mesh, filter, plugin, world, agents) once, Checker.Check after each
// crowd tick, Checker.Finish with the agents' targets for the Result.
package crowdcheck

import (
	"math"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// Tolerances of the checks.
const (
	// OnMeshXZ is how far (xz) from the nearest polygon a walking agent may
	// be and still count as on the mesh [Units: world units]
	OnMeshXZ = float32(0.01)
	// OnMeshY is how far above or below the surface it may be.
	OnMeshY = float32(0.5)
	// OverlapSlack: two agents overlap when closer than the sum of their
	// radii minus this [Units: world units]
	OverlapSlack = float32(0.1)
	// StuckWindow, StuckMove: an agent with a complete path, more than
	// ReachedDistance from its target, that moved less than StuckMove over
	// the last StuckWindow ticks is stuck.
	StuckWindow     = 120
	StuckMove       = float32(0.5)
	ReachedDistance = float32(1)
	// HoverDistance, HoverMove, HoverWindow: an agent with a target in
	// reach, within HoverDistance of it, that has not arrived
	// (EventTargetReached for that target) and moved less than HoverMove
	// over the last HoverWindow is hovering.
	HoverDistance = float32(2)
	HoverMove     = float32(0.5)
	HoverWindow   = 5 * time.Second
)

// hoverSamples is the number of position samples the hover check keeps:
// one every HoverWindow/(hoverSamples-1), so that the oldest is a whole
// window old.
const hoverSamples = 11

// Result holds what a run measured.
type Result struct {
	// OffMesh counts agent-ticks of walking agents off the navmesh.
	OffMesh int
	// WallPenetrations counts agent-ticks of walking agents off the first
	// polygon of their corridor.
	WallPenetrations int
	// OverlapAgentTicks counts pairs of walking agents closer than the sum
	// of their radii minus OverlapSlack, summed over the ticks.
	OverlapAgentTicks int
	// VelocityChangePerTick is the mean change of a walking agent's
	// velocity from one tick to the next, |v(t) - v(t-1)| in xz, over
	// every agent-tick after the first: lower is smoother
	// [Units: world units per second]
	VelocityChangePerTick float64

	// The end of the run (Finish).

	// OutOfReach counts the agents whose target lies in another connected
	// component of the navmesh than their start.
	OutOfReach int
	// Reached counts the agents within ReachedDistance (xz) of their
	// target; ReachedReachable those of them whose target is within reach.
	Reached, ReachedReachable int
	// Stuck counts the agents with a complete path, not arrived, that moved
	// less than StuckMove in the last StuckWindow ticks.
	Stuck int
	// PartialPaths counts agents whose corridor ends short of the target.
	PartialPaths int
	// WaitingForPath counts agents still waiting for a path.
	WaitingForPath int
	// Arrived counts the agents that got EventTargetReached for their
	// target (AgentInfo.Arrived).
	Arrived int
	// Hovering counts the agents with a target in reach, within
	// HoverDistance of it, not arrived, that moved less than HoverMove over
	// the last HoverWindow (HoverWindow after the first Check at the
	// earliest; 0 for a shorter run).
	Hovering int
	// NearNotArrived counts the agents within ReachedDistance of a target
	// in reach that have not arrived; NearNotArrivedStill those of them
	// that also moved less than HoverMove over the last HoverWindow.
	NearNotArrived, NearNotArrivedStill int
	// NearAgents lists the agents NearNotArrived counts, for a caller that
	// runs the crowd on to see whether they arrive (most of them are still
	// braking into their target at the last tick).
	NearAgents []ecs.Entity
}

// Checker measures a run of agents of one plugin.
type Checker struct {
	p      *plugin.Plugin
	world  *ecs.World
	agents []ecs.Entity
	q      *query.Query
	filter *query.Filter

	infos      []plugin.AgentInfo
	outOfReach []bool        // target in another connected component than the start
	history    [][]geom.Vec3 // ring of the last StuckWindow+1 positions per agent
	cells      map[[2]int32][]int32
	ticks      int
	// radius is the agents' radius for the overlap count; 0 means
	// components.DefaultAgentParams' (SetRadius).
	radius float32

	// velocities holds each agent's velocity at the last check, walking
	// tells whether it was walking then.
	velocities      []geom.Vec3
	walking         []bool
	velocityChange  float64
	velocitySamples int

	// hover holds a position sample per agent every hoverEvery ticks, the
	// newest at hoverCount-1 (mod hoverSamples); hoverEvery follows the
	// tick length (SetTimeStep).
	hover      [hoverSamples][]geom.Vec3
	hoverCount int
	hoverEvery int

	result Result
}

// New returns a checker of agents, walking on mesh with filter, in world.
func New(mesh *navmesh.Mesh, filter *query.Filter, p *plugin.Plugin, world *ecs.World, agents []ecs.Entity) (*Checker, error) {
	q, err := query.New(mesh, 2048)
	if err != nil {
		return nil, err
	}
	c := &Checker{
		p: p, world: world, agents: agents, q: q, filter: filter,
		infos:      make([]plugin.AgentInfo, len(agents)),
		history:    make([][]geom.Vec3, StuckWindow+1),
		cells:      map[[2]int32][]int32{},
		velocities: make([]geom.Vec3, len(agents)),
		walking:    make([]bool, len(agents)),
	}
	c.SetTimeStep(1.0 / 60)
	for i := range c.history {
		c.history[i] = make([]geom.Vec3, len(agents))
	}
	return c, nil
}

// SetTimeStep sets the tick length the hover check counts its window in
// (1/60 s by default); call it before the first Check [Limit: > 0]
// [Units: s]
func (c *Checker) SetTimeStep(dt float64) {
	if !(dt > 0) || math.IsInf(dt, 0) {
		return
	}
	every := HoverWindow.Seconds() / (hoverSamples - 1) / dt
	c.hoverEvery = max(1, int(math.Round(every)))
}

// Classify finds, before the first tick, the agents whose target lies in
// another connected component of the navmesh than their start.
func (c *Checker) Classify() error {
	c.outOfReach = make([]bool, len(c.agents))
	for i := range c.agents {
		if err := c.Retarget(i); err != nil {
			return err
		}
	}
	return nil
}

// Retarget classifies agent i's target again after a new move request:
// whether it lies in another connected component of the navmesh than the
// agent.
func (c *Checker) Retarget(i int) error {
	if c.outOfReach == nil {
		c.outOfReach = make([]bool, len(c.agents))
	}
	info, err := c.p.State(c.world, c.agents[i])
	if err != nil {
		return err
	}
	target, err := c.q.FindNearestPoly(info.TargetPosition, geom.Vec3{OnMeshXZ, OnMeshY, OnMeshXZ}, c.filter)
	if err != nil {
		return err
	}
	snap := c.q.Mesh().Snapshot()
	c.outOfReach[i] = info.Poly != 0 && target.Ref != 0 && !snap.SameComponent(info.Poly, target.Ref)
	return nil
}

// Check records the positions after a tick (call it after every tick, the
// first one included) and counts off-mesh agents, agents off their
// corridor, overlapping pairs and velocity changes. Agents crossing an
// off-mesh connection are in the air by design and not checked.
func (c *Checker) Check() error {
	ring := c.history[c.ticks%len(c.history)]
	var hover []geom.Vec3
	if c.ticks%c.hoverEvery == 0 {
		k := c.hoverCount % hoverSamples
		if c.hover[k] == nil {
			c.hover[k] = make([]geom.Vec3, len(c.agents))
		}
		hover = c.hover[k]
		c.hoverCount++
	}
	c.ticks++
	for i, e := range c.agents {
		info, err := c.p.State(c.world, e)
		if err != nil {
			return err
		}
		c.infos[i] = info
		ring[i] = info.Position
		if hover != nil {
			hover[i] = info.Position
		}
		walking := info.Mode == components.AgentWalking
		if walking && c.walking[i] {
			dx, dz := info.Velocity[0]-c.velocities[i][0], info.Velocity[2]-c.velocities[i][2]
			c.velocityChange += math.Sqrt(float64(float32(dx*dx) + float32(dz*dz)))
			c.velocitySamples++
		}
		c.velocities[i], c.walking[i] = info.Velocity, walking
		if !walking {
			continue
		}
		if !c.onMesh(info.Position) {
			c.result.OffMesh++
		}
		if !c.onPoly(info.Poly, info.Position) {
			c.result.WallPenetrations++
		}
	}
	c.result.OverlapAgentTicks += c.countOverlaps()
	return nil
}

// onMesh reports whether a polygon lies under or over pos within the
// tolerances.
func (c *Checker) onMesh(pos geom.Vec3) bool {
	nearest, err := c.q.FindNearestPoly(pos, geom.Vec3{OnMeshXZ * 10, OnMeshY, OnMeshXZ * 10}, c.filter)
	if err != nil || nearest.Ref == 0 {
		return false
	}
	return geom.Dist2D(nearest.Point, pos) <= OnMeshXZ && geom.Abs(nearest.Point[1]-pos[1]) <= OnMeshY
}

// onPoly reports whether pos lies on polygon ref (xz, within tolerance):
// the polygon the agent's corridor starts with.
func (c *Checker) onPoly(ref navmesh.Ref, pos geom.Vec3) bool {
	closest, _, err := c.q.ClosestPointOnPoly(ref, pos)
	return err == nil && geom.Dist2D(closest, pos) <= OnMeshXZ
}

// SetRadius sets the radius of the agents for the overlap count (by
// default components.DefaultAgentParams' 0.6) [Limit: > 0]
// [Units: world units]
func (c *Checker) SetRadius(radius float32) {
	if radius > 0 {
		c.radius = radius
	}
}

// countOverlaps counts the pairs of walking agents on the same level closer
// than the sum of their radii minus the slack.
func (c *Checker) countOverlaps() int {
	params := components.DefaultAgentParams()
	if c.radius > 0 {
		params.Radius = c.radius
	}
	cell := max(float32(1.2), 2*params.Radius) // >= twice the radius
	for k, list := range c.cells {
		c.cells[k] = list[:0]
	}
	key := func(p geom.Vec3) [2]int32 {
		return [2]int32{int32(math.Floor(float64(p[0] / cell))), int32(math.Floor(float64(p[2] / cell)))}
	}
	for i := range c.infos {
		if c.infos[i].Mode == components.AgentWalking {
			k := key(c.infos[i].Position)
			c.cells[k] = append(c.cells[k], int32(i))
		}
	}
	limit := float32(2*params.Radius) - OverlapSlack
	n := 0
	for i := range c.infos {
		if c.infos[i].Mode != components.AgentWalking {
			continue
		}
		p := c.infos[i].Position
		k := key(p)
		for dx := int32(-1); dx <= 1; dx++ {
			for dz := int32(-1); dz <= 1; dz++ {
				for _, j := range c.cells[[2]int32{k[0] + dx, k[1] + dz}] {
					if int(j) <= i {
						continue
					}
					o := c.infos[j].Position
					if geom.Abs(o[1]-p[1]) >= params.Height {
						continue
					}
					if geom.Dist2D(o, p) < limit {
						n++
					}
				}
			}
		}
	}
	return n
}

// Finish returns the figures of the run, given each agent's target: the
// counts of Check and the state at the end (agents near their target, stuck
// agents, partial paths and agents still waiting for a path).
func (c *Checker) Finish(targets []geom.Vec3) Result {
	r := c.result
	if c.velocitySamples > 0 {
		r.VelocityChangePerTick = c.velocityChange / float64(c.velocitySamples)
	}
	var past []geom.Vec3
	if c.ticks > StuckWindow {
		past = c.history[(c.ticks-1-StuckWindow)%len(c.history)]
	}
	hoverPast := c.hoverPast()
	for i := range c.agents {
		info := c.infos[i]
		dist := geom.Dist2D(info.Position, targets[i])
		if c.outOfReach != nil && c.outOfReach[i] {
			r.OutOfReach++
		}
		if dist <= ReachedDistance {
			r.Reached++
			if c.outOfReach == nil || !c.outOfReach[i] {
				r.ReachedReachable++
			}
		}
		if info.Partial {
			r.PartialPaths++
		}
		switch info.Target {
		case components.TargetRequesting, components.TargetWaitingForQueue, components.TargetWaitingForPath:
			r.WaitingForPath++
		}
		complete := info.Target == components.TargetValid && !info.Partial
		// An agent that arrived short of its target (MoveTarget.ArrivedNear:
		// its place was taken) stands there by rule: not stuck.
		if past != nil && complete && !info.Arrived && dist > ReachedDistance &&
			geom.Dist2D(info.Position, past[i]) < StuckMove {
			r.Stuck++
		}
		if info.Arrived {
			r.Arrived++
			continue
		}
		inReach := info.Target.HasPath() && info.Target != components.TargetFailed &&
			(c.outOfReach == nil || !c.outOfReach[i])
		still := hoverPast != nil && geom.Dist2D(info.Position, hoverPast[i]) < HoverMove
		if inReach && dist <= ReachedDistance {
			r.NearNotArrived++
			r.NearAgents = append(r.NearAgents, c.agents[i])
			if still {
				r.NearNotArrivedStill++
			}
		}
		if inReach && still && dist <= HoverDistance {
			r.Hovering++
		}
	}
	return r
}

// hoverPast returns the positions sampled a whole HoverWindow (or a
// little more) before the last Check, nil when the run is shorter.
func (c *Checker) hoverPast() []geom.Vec3 {
	if c.hoverCount < hoverSamples {
		return nil
	}
	// The newest sample was taken at tick (hoverCount-1)*hoverEvery; the
	// oldest kept one hoverSamples-1 samples (a whole window) before it.
	// Take the newest sample at least a window before the last tick.
	last := c.ticks - 1
	for back := 0; back < hoverSamples; back++ {
		n := c.hoverCount - 1 - back
		if n < 0 {
			return nil
		}
		if last-n*c.hoverEvery >= (hoverSamples-1)*c.hoverEvery {
			return c.hover[n%hoverSamples]
		}
	}
	return nil
}
