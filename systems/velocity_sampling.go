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
// it scores candidate velocities around the desired one against its
// neighbours (moving circles), the walls of its local boundary that face
// it and the obstacle bodies near it (cylinders as circles, the edges of
// the other shapes as walls), with the adaptive sampler and the agent's
// avoidance preset, and plans the best one. A neighbour it does not avoid
// (AgentParams.Avoids: its layers are not in the agent's mask, or its
// priority is lower) is left out; one of higher priority, and every
// obstacle, the agent avoids on its own, the others it shares the
// avoidance with (the reference's reciprocal sampling). Without the flag the planned velocity is the desired one, and
// so it is for an agent the deadlock breaker is nudging (see Steering).
//
// A returning agent (components.AgentReturning) plans its desired
// velocity.
//
// Resources: Queries, Filters, AvoidancePresets; optional ObstacleBodies,
// Stats, Workers.
type VelocitySampling struct {
	stage
	presetsRes generic.Resource[components.AvoidancePresets]

	presets   *components.AvoidancePresets
	avoidance []*crowd.ObstacleAvoidance
	samples   []int
	bodies    []bodyScratch
	job       func(worker, begin, end int)
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
	for len(s.avoidance) < n {
		oa, err := crowd.NewObstacleAvoidance(avoidanceCircles, avoidanceSegments)
		if err != nil {
			return
		}
		s.avoidance = append(s.avoidance, oa)
		s.samples = append(s.samples, 0)
		s.bodies = append(s.bodies, bodyScratch{})
	}
	for i := range s.samples {
		s.samples[i] = 0
	}
	s.parallel(s.job)
	if s.stats != nil {
		total := 0
		for _, c := range s.samples {
			total += c
		}
		s.stats.VelocitySamples = total
	}
}

func (s *VelocitySampling) sampleAgents(worker, begin, end int) {
	oa := s.avoidance[worker]
	total := 0
	defer func() { s.samples[worker] += total }()
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
		if !a.params.UpdateFlags.Has(components.ObstacleAvoidance) ||
			(s.settings.DeadlockBreaker && detouring(a)) {
			velocity.Planned = velocity.Desired
			if s.settings.ContactSliding {
				velocity.Planned = s.slideAlongContacts(a, velocity.Planned)
			}
			continue
		}
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
		s.addBodies(a, oa, &s.bodies[worker])
		params := &s.presets.List[int(a.params.AvoidancePreset)%components.MaxAvoidancePresets]
		planned, samples, err := oa.SampleVelocityAdaptive(pos, a.params.Radius, velocity.DesiredSpeed,
			velocity.Actual, velocity.Desired, params, nil)
		if err != nil {
			planned = velocity.Desired
		}
		if s.settings.ContactSliding {
			planned = s.slideAlongContacts(a, planned)
		}
		velocity.Planned = planned
		total += samples
	}
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
		distSqr := dx*dx + dz*dz
		if distSqr > reach*reach || distSqr < 1e-8 {
			continue
		}
		dist := geom.Sqrt(distSqr)
		nx, nz := dx/dist, dz/dist
		if toward := velocity[0]*nx + velocity[2]*nz; toward > 0 {
			velocity[0] -= nx * toward
			velocity[2] -= nz * toward
		}
	}
	return velocity
}
