package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Capacities of the avoidance query (dtObstacleAvoidanceQuery::init(6, 8)),
// plus room for the obstacle bodies.
const (
	avoidanceCircles  = components.MaxNeighbours + maxBodyCircles
	avoidanceSegments = crowd.MaxLocalSegments + maxBodySegments
)

// VelocitySampling is the fifth stage (the velocity planning loop of
// dtCrowd::update): for each walking agent with the ObstacleAvoidance flag
// it plans a velocity near the desired one that avoids its neighbours
// (moving circles), the walls of its local boundary and the obstacle bodies
// near it (cylinders as circles, the edges of the other shapes as walls),
// with the method of the agent's avoidance preset: DetourCrowd's adaptive
// or grid sampling, which score candidate velocities, or ORCA, which solves
// a small linear program (crowd.ReciprocalAvoidance). A neighbour it does
// not avoid (AgentParams.Avoids: its layers are not in the agent's mask, or
// its priority is lower) is left out; one of higher priority, and every
// obstacle, the agent avoids on its own, the others it shares the
// avoidance with (the reference's reciprocal sampling, ORCA's half each).
// Without the flag the planned velocity is the desired one, and so it is
// for an agent the deadlock breaker is nudging (see Steering). Each agent's
// result depends only on what earlier stages wrote, so it is the same for
// any number of workers.
//
// A returning agent (components.AgentReturning) plans its desired
// velocity, a stopped one (AgentState.Stopped) none. With
// Settings.BrakeFade an agent braking into its target keeps only its
// braking share of avoidance's change of its velocity.
//
// Resources: Queries, Filters, AvoidancePresets; optional ObstacleBodies,
// Stats, Workers.
type VelocitySampling struct {
	stage
	presetsRes generic.Resource[components.AvoidancePresets]

	presets   *components.AvoidancePresets
	perWorker []samplingScratch
	job       func(worker, begin, end int)
}

// samplingScratch is one worker's planners and counters.
type samplingScratch struct {
	sampler *crowd.ObstacleAvoidance
	orca    *crowd.ReciprocalAvoidance
	bodies  bodyScratch
	detour  detourScratch
	// samples counts the candidates the samplers scored, infeasible the
	// ORCA programs that fell back.
	samples, infeasible int
}

// Initialize prepares the stage for world.
func (s *VelocitySampling) Initialize(world *ecs.World) {
	s.init(world)
	s.presetsRes = generic.NewResource[components.AvoidancePresets](world)
	s.job = s.sampleAgents
}

// Finalize does nothing.
func (s *VelocitySampling) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *VelocitySampling) Update(world *ecs.World) {
	if !s.begin(world) || !s.presetsRes.Has() {
		return
	}
	s.presets = s.presetsRes.Get()
	n := s.workerCount()
	for len(s.perWorker) < n {
		sampler, err := crowd.NewObstacleAvoidance(avoidanceCircles, avoidanceSegments)
		if err != nil {
			return
		}
		orca, err := crowd.NewReciprocalAvoidance(avoidanceCircles, avoidanceSegments)
		if err != nil {
			return
		}
		s.perWorker = append(s.perWorker, samplingScratch{sampler: sampler, orca: orca})
	}
	for i := range s.perWorker {
		s.perWorker[i].samples, s.perWorker[i].infeasible = 0, 0
	}
	s.parallel(s.job)
	if s.stats != nil {
		samples, infeasible := 0, 0
		for i := range s.perWorker {
			samples += s.perWorker[i].samples
			infeasible += s.perWorker[i].infeasible
		}
		s.stats.VelocitySamples = samples
		s.stats.ORCAInfeasible = infeasible
	}
}

func (s *VelocitySampling) sampleAgents(worker, begin, end int) {
	scratch := &s.perWorker[worker]
	// Counted here and added once: the workers' counters share cache lines.
	samples, infeasible := 0, 0
	defer func() {
		scratch.samples += samples
		scratch.infeasible += infeasible
	}()
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if returning(a) {
			a.velocity.Planned = a.velocity.Desired
			continue
		}
		if !walking(a) {
			continue
		}
		velocity := a.velocity
		if a.state.Stopped {
			velocity.Planned = geom.Vec3{}
			continue
		}
		// The desired velocity the planners steer by, turned around the
		// obstacle bodies in the way; Desired itself stays as Steering set
		// it, since the other agents' planning reads it.
		desired := velocity.Desired
		if s.bodies != nil {
			desired = s.detourAroundBodies(a, s.query(worker, a.params), desired, &scratch.bodies, &scratch.detour)
		}
		if !a.params.UpdateFlags.Has(components.ObstacleAvoidance) ||
			(s.settings.DeadlockBreaker && detouring(a)) {
			velocity.Planned = desired
			if s.settings.ContactSliding {
				velocity.Planned = s.slideAlongContacts(a, velocity.Planned)
			}
			continue
		}
		params := &s.presets.List[int(a.params.AvoidancePreset)%components.MaxAvoidancePresets]
		var planned geom.Vec3
		var err error
		if params.Method == crowd.AvoidanceORCA {
			var fellBack bool
			planned, fellBack, err = s.planORCA(scratch.orca, a, desired, params, &scratch.bodies)
			if fellBack {
				infeasible++
			}
		} else {
			var scored int
			planned, scored, err = s.sample(scratch.sampler, a, desired, params, &scratch.bodies)
			samples += scored
		}
		if err != nil {
			planned = desired
		}
		if fade := fadeShare(a, &s.settings); fade < 1 {
			planned = geom.Lerp(desired, planned, fade)
		}
		if s.settings.ContactSliding {
			planned = s.slideAlongContacts(a, planned)
		}
		velocity.Planned = planned
	}
}

// sample plans agent a's velocity with sampler oa: the neighbours it
// avoids as moving circles, the walls that face the agent as segments, then
// the obstacle bodies near it, steering by desired. It returns the velocity
// and the number of candidates scored.
func (s *VelocitySampling) sample(oa *crowd.ObstacleAvoidance, a *agent, desired geom.Vec3, params *crowd.AvoidanceParams, bodies *bodyScratch) (geom.Vec3, int, error) {
	pos := a.position.Vec3()
	oa.Reset()
	for _, nb := range a.neighbours.Slice() {
		j := s.table.lookup(nb.Entity)
		if j < 0 {
			continue
		}
		other := &s.agents[j]
		avoid, share := avoids(a, other)
		switch {
		case !avoid:
		case share == 0.5:
			_ = oa.AddCircle(other.position.Vec3(), other.params.Radius, other.velocity.Actual, other.velocity.Desired)
		default:
			_ = oa.AddCircleWithResponsibility(other.position.Vec3(), other.params.Radius, other.velocity.Actual, other.velocity.Desired, share)
		}
	}
	for _, seg := range a.boundary.Segments() {
		if geom.TriArea2D(pos, seg.P, seg.Q) < 0 {
			continue
		}
		_ = oa.AddSegment(seg.P, seg.Q)
	}
	s.addBodies(a, bodies, oa, nil)
	velocity := a.velocity
	var planned geom.Vec3
	var samples int
	var err error
	if params.Method == crowd.AvoidanceGrid {
		planned, samples, err = oa.SampleVelocityGrid(pos, a.params.Radius, velocity.DesiredSpeed,
			velocity.Actual, desired, params, nil)
	} else {
		planned, samples, err = oa.SampleVelocityAdaptive(pos, a.params.Radius, velocity.DesiredSpeed,
			velocity.Actual, desired, params, nil)
	}
	return planned, samples, err
}

// planORCA plans agent a's velocity with ORCA: its preferred velocity is
// desired, its speed limit the desired speed (as the samplers'
// radius), the neighbours it avoids nearest first with its share of each
// encounter (avoids), every boundary segment (ORCA drops those that face
// away itself, after using them to tell corners apart), then the obstacle
// bodies near it. fellBack reports an infeasible program.
func (s *VelocitySampling) planORCA(ra *crowd.ReciprocalAvoidance, a *agent, desired geom.Vec3, params *crowd.AvoidanceParams, bodies *bodyScratch) (planned geom.Vec3, fellBack bool, err error) {
	ra.Reset()
	for _, nb := range a.neighbours.Slice() {
		j := s.table.lookup(nb.Entity)
		if j < 0 {
			continue
		}
		other := &s.agents[j]
		avoid, share := avoids(a, other)
		if !avoid {
			continue
		}
		_ = ra.AddNeighbour(crowd.ORCANeighbour{
			Position:       other.position.Vec3(),
			Velocity:       other.velocity.Actual,
			Radius:         other.params.Radius,
			Responsibility: share,
		})
	}
	for _, seg := range a.boundary.Segments() {
		_ = ra.AddSegment(seg.P, seg.Q)
	}
	s.addBodies(a, bodies, nil, ra)
	velocity := a.velocity
	agent := crowd.ORCAAgent{
		Position:          a.position.Vec3(),
		Radius:            a.params.Radius,
		MaxSpeed:          velocity.DesiredSpeed,
		Velocity:          velocity.Actual,
		PreferredVelocity: desired,
	}
	planned, result, err := ra.Solve(&agent, &params.ORCA, s.dt)
	return planned, result.Infeasible, err
}

// contactMargin is how near two agents' bodies must come to be in contact
// for ContactSliding [Units: world units]
const contactMargin = float32(0.02)

// slideAlongContacts drops the part of velocity that walks agent a into a
// neighbour it touches, so that it slides along instead of pressing into
// it (Settings.ContactSliding).
func (s *VelocitySampling) slideAlongContacts(a *agent, velocity geom.Vec3) geom.Vec3 {
	pos := a.position
	for _, nb := range a.neighbours.Slice() {
		j := s.table.lookup(nb.Entity)
		if j < 0 {
			continue
		}
		other := &s.agents[j]
		dx, dz := other.position[0]-pos[0], other.position[2]-pos[2]
		reach := a.params.Radius + other.params.Radius + contactMargin
		distSqr := float32(dx*dx) + float32(dz*dz)
		if distSqr > reach*reach || distSqr < 1e-8 {
			continue
		}
		dist := geom.Sqrt(distSqr)
		nx, nz := dx/dist, dz/dist
		if toward := float32(velocity[0]*nx) + float32(velocity[2]*nz); toward > 0 {
			velocity[0] -= float32(nx * toward)
			velocity[2] -= float32(nz * toward)
		}
	}
	return velocity
}
