package crowddraw

import (
	"errors"
	"fmt"
	"image/color"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// ErrNotAnAgent is returned for an entity that is not a live crowd agent.
var ErrNotAnAgent = errors.New("crowddraw: not a crowd agent")

// Layers choose what Draw shows.
type Layers uint32

// The crowd layers, drawn in this order.
const (
	// Corridors fills each agent's corridor polygons (navdraw.Corridor).
	Corridors Layers = 1 << iota
	// Boundaries draws each agent's local wall segments (navdraw.Boundary).
	Boundaries
	// Corners draws the line through each agent's next corners.
	Corners
	// Neighbours draws a line from each agent to its neighbours.
	Neighbours
	// Targets marks each target with a cross.
	Targets
	// Bodies draws each agent's cylinder, coloured by its move request: as
	// Style.Agent while it has a path or none, turning purple while its path
	// is requested or searched, green while steered by a velocity, red when
	// its search failed or it lost the navmesh.
	Bodies
	// Velocities draws each agent's desired and actual velocity.
	Velocities
	// Obstacles draws every obstacle entity in its shape (DrawObstacles),
	// before the agents.
	Obstacles
)

// DefaultLayers shows the obstacles, the agents, their velocities and
// targets.
const DefaultLayers = Obstacles | Targets | Bodies | Velocities

// AllLayers is every layer.
const AllLayers = Corridors | Boundaries | Corners | Neighbours | Targets | Bodies | Velocities | Obstacles

// Crowd reads the crowd agents of one world for drawing.
type Crowd struct {
	world      *ecs.World
	mask       ecs.Mask // the components of an agent
	lookup     generic.Map9[components.AgentParams, components.Position, components.Velocity, components.AgentState, components.Corridor, components.MoveTarget, components.Boundary, components.Neighbours, components.Corners]
	agents     *generic.Filter9[components.AgentParams, components.Position, components.Velocity, components.AgentState, components.Corridor, components.MoveTarget, components.Boundary, components.Neighbours, components.Corners]
	positions  generic.Map[components.Position]
	params     generic.Map[components.AgentParams]
	velocities generic.Map[components.Velocity]
	neighbours generic.Map[components.Neighbours]
	boundaries generic.Map[components.Boundary]
	navigation generic.Resource[components.Navigation]
	types      generic.Resource[components.AgentTypes]
	presets    generic.Resource[components.AvoidancePresets]
	obstacles  *generic.Filter3[components.Obstacle, components.ObstaclePose, components.ObstacleState]

	avoidance *crowd.ObstacleAvoidance
	shown     []navdraw.Agent // scratch
	refs      []navmesh.Ref   // scratch
}

// New returns a Crowd for world, whose components and resource accessors it
// builds once.
func New(world *ecs.World) (*Crowd, error) {
	if world == nil {
		return nil, errors.New("crowddraw: nil world")
	}
	avoidance, err := crowd.NewObstacleAvoidance(components.MaxNeighbours, crowd.MaxLocalSegments)
	if err != nil {
		return nil, fmt.Errorf("crowddraw: %w", err)
	}
	return &Crowd{
		world: world,
		mask: ecs.All(
			ecs.ComponentID[components.AgentParams](world), ecs.ComponentID[components.Position](world),
			ecs.ComponentID[components.Velocity](world), ecs.ComponentID[components.AgentState](world),
			ecs.ComponentID[components.Corridor](world), ecs.ComponentID[components.MoveTarget](world),
			ecs.ComponentID[components.Boundary](world), ecs.ComponentID[components.Neighbours](world),
			ecs.ComponentID[components.Corners](world),
		),
		lookup:     generic.NewMap9[components.AgentParams, components.Position, components.Velocity, components.AgentState, components.Corridor, components.MoveTarget, components.Boundary, components.Neighbours, components.Corners](world),
		agents:     generic.NewFilter9[components.AgentParams, components.Position, components.Velocity, components.AgentState, components.Corridor, components.MoveTarget, components.Boundary, components.Neighbours, components.Corners](),
		positions:  generic.NewMap[components.Position](world),
		params:     generic.NewMap[components.AgentParams](world),
		velocities: generic.NewMap[components.Velocity](world),
		neighbours: generic.NewMap[components.Neighbours](world),
		boundaries: generic.NewMap[components.Boundary](world),
		navigation: generic.NewResource[components.Navigation](world),
		types:      generic.NewResource[components.AgentTypes](world),
		presets:    generic.NewResource[components.AvoidancePresets](world),
		obstacles:  generic.NewFilter3[components.Obstacle, components.ObstaclePose, components.ObstacleState](),
		avoidance:  avoidance,
	}, nil
}

// Draw draws layers of every agent, and the obstacle entities with
// Obstacles.
func (c *Crowd) Draw(d debugdraw.Drawer, layers Layers, style navdraw.Style) {
	if layers&Obstacles != 0 {
		c.DrawObstacles(d, style)
	}
	c.shown = c.shown[:0]
	c.refs = c.refs[:0]
	var snap *navmesh.Snapshot
	if c.navigation.Has() && c.navigation.Get().Mesh != nil {
		snap = c.navigation.Get().Mesh.Snapshot()
	}
	query := c.agents.Query(c.world)
	for query.Next() {
		params, position, velocity, state, corridor, target, boundary, neighbours, corners := query.Get()
		if layers&Corridors != 0 && corridor.Corridor != nil {
			if params.Type == 0 {
				c.refs = append(c.refs, corridor.Path()...)
			} else if mesh := c.meshOf(params); mesh != nil {
				// Another agent type's corridor: polygons of its own mesh.
				navdraw.Corridor(d, mesh.Snapshot(), corridor.Path(), style)
			}
		}
		if layers&Boundaries != 0 {
			navdraw.Boundary(d, position.Vec3(), boundary.Segments(), style)
		}
		c.shown = append(c.shown, c.agent(params, position, velocity, state, target, neighbours, corners, layers))
	}
	if layers&Corridors != 0 && snap != nil {
		navdraw.Corridor(d, snap, c.refs, style)
	}
	navdraw.Agents(d, c.shown, agentLayers(layers), style)
}

// meshOf returns the navmesh of the agent type of an agent with params
// (components.AgentTypes; the Navigation resource's for the first type),
// nil when there is none.
func (c *Crowd) meshOf(params *components.AgentParams) *navmesh.Mesh {
	if params.Type == 0 || !c.types.Has() {
		if params.Type == 0 && c.navigation.Has() {
			return c.navigation.Get().Mesh
		}
		return nil
	}
	if list := c.types.Get().List; int(params.Type) < len(list) {
		return list[params.Type].Mesh
	}
	return nil
}

// DrawAgent draws layers of agent e only, as Selected.
func (c *Crowd) DrawAgent(d debugdraw.Drawer, e ecs.Entity, layers Layers, style navdraw.Style) error {
	if !c.isAgent(e) {
		return ErrNotAnAgent
	}
	params, position, velocity, state, corridor, target, boundary, neighbours, corners := c.lookup.Get(e)
	if mesh := c.meshOf(params); layers&Corridors != 0 && corridor.Corridor != nil && mesh != nil {
		navdraw.Corridor(d, mesh.Snapshot(), corridor.Path(), style)
	}
	if layers&Boundaries != 0 {
		navdraw.Boundary(d, position.Vec3(), boundary.Segments(), style)
	}
	shown := c.agent(params, position, velocity, state, target, neighbours, corners, layers)
	shown.Selected = true
	c.shown = append(c.shown[:0], shown)
	navdraw.Agents(d, c.shown, agentLayers(layers), style)
	return nil
}

// isAgent reports whether e is a live entity with every agent component.
func (c *Crowd) isAgent(e ecs.Entity) bool {
	if !c.world.Alive(e) {
		return false
	}
	mask := c.world.Mask(e)
	return mask.Contains(&c.mask)
}

// agent returns what navdraw draws of one agent.
func (c *Crowd) agent(params *components.AgentParams, position *components.Position, velocity *components.Velocity,
	state *components.AgentState, target *components.MoveTarget, neighbours *components.Neighbours,
	corners *components.Corners, layers Layers) navdraw.Agent {
	a := navdraw.Agent{
		Position:        position.Vec3(),
		Radius:          params.Radius,
		Height:          params.Height,
		Velocity:        velocity.Actual,
		DesiredVelocity: velocity.Desired,
		Target:          target.Position,
		HasTarget:       target.State.HasPath(),
		Color:           stateColor(state.Mode, target.State),
	}
	if layers&Corners != 0 {
		a.Corners = corners.Slice()
	}
	if layers&Neighbours != 0 {
		for _, n := range neighbours.Slice() {
			if c.isAgent(n.Entity) {
				a.Neighbours = append(a.Neighbours, c.positions.Get(n.Entity).Vec3())
			}
		}
	}
	return a
}

// stateColor is RecastDemo's agent colour for a move request state; zero for
// the style's own.
func stateColor(mode components.AgentMode, target components.TargetState) color.NRGBA {
	base := color.NRGBA{220, 220, 220, 192}
	switch {
	case mode == components.AgentInvalid, target == components.TargetFailed:
		return color.NRGBA{255, 32, 16, 192}
	case target == components.TargetRequesting, target == components.TargetWaitingForQueue:
		return debugdraw.Lerp(base, color.NRGBA{128, 0, 255, 192}, 32.0/255)
	case target == components.TargetWaitingForPath:
		return debugdraw.Lerp(base, color.NRGBA{128, 0, 255, 192}, 128.0/255)
	case target == components.TargetVelocity:
		return debugdraw.Lerp(base, color.NRGBA{64, 255, 0, 192}, 128.0/255)
	}
	return color.NRGBA{}
}

func agentLayers(layers Layers) navdraw.AgentLayers {
	var out navdraw.AgentLayers
	for _, m := range [...]struct {
		from Layers
		to   navdraw.AgentLayers
	}{
		{Corners, navdraw.AgentCorners},
		{Neighbours, navdraw.AgentNeighbours},
		{Targets, navdraw.AgentTargets},
		{Bodies, navdraw.AgentBodies},
		{Velocities, navdraw.AgentVelocities},
	} {
		if layers&m.from != 0 {
			out |= m.to
		}
	}
	return out
}

// AvoidanceSamples scores agent e's candidate velocities again as the
// VelocitySampling stage did in the last tick (its neighbours as moving
// circles, the wall segments that face it, the sampler and the parameters
// of the agent's preset), records them into debug (reset first) and
// normalizes their penalties, ready for navdraw.AvoidanceSamples. An agent
// without obstacle avoidance, or whose preset avoids with ORCA (which
// scores no samples), records nothing.
func (c *Crowd) AvoidanceSamples(e ecs.Entity, debug *crowd.AvoidanceDebug) error {
	if debug == nil {
		return errors.New("crowddraw: avoidance samples: nil debug recorder")
	}
	debug.Reset()
	if !c.isAgent(e) {
		return ErrNotAnAgent
	}
	params := c.params.Get(e)
	if !params.UpdateFlags.Has(components.ObstacleAvoidance) {
		return nil
	}
	if !c.presets.Has() {
		return errors.New("crowddraw: avoidance samples: the world has no avoidance presets")
	}
	preset := &c.presets.Get().List[int(params.AvoidancePreset)%components.MaxAvoidancePresets]
	if preset.Method == crowd.AvoidanceORCA {
		return nil
	}
	position := c.positions.Get(e).Vec3()
	velocity := c.velocities.Get(e)
	c.avoidance.Reset()
	for _, n := range c.neighbours.Get(e).Slice() {
		if !c.isAgent(n.Entity) {
			continue
		}
		other := c.velocities.Get(n.Entity)
		_ = c.avoidance.AddCircle(c.positions.Get(n.Entity).Vec3(), c.params.Get(n.Entity).Radius, other.Actual, other.Desired)
	}
	for _, s := range c.boundaries.Get(e).Segments() {
		if geom.TriArea2D(position, s.P, s.Q) < 0 {
			continue
		}
		_ = c.avoidance.AddSegment(s.P, s.Q)
	}
	sample := c.avoidance.SampleVelocityAdaptive
	if preset.Method == crowd.AvoidanceGrid {
		sample = c.avoidance.SampleVelocityGrid
	}
	if _, _, err := sample(position, params.Radius, velocity.DesiredSpeed,
		velocity.Actual, velocity.Desired, preset, debug); err != nil {
		return fmt.Errorf("crowddraw: avoidance samples: %w", err)
	}
	debug.NormalizeSamples()
	return nil
}
