package systems

import (
	"slices"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// agent holds one agent's components for the current Update, plus scratch
// that a parallel pass leaves for the sequential pass after it. The
// pointers stay valid until the next structural change of the world, and
// none happens inside a stage's Update.
type agent struct {
	entity     ecs.Entity
	params     *components.AgentParams
	position   *components.Position
	velocity   *components.Velocity
	state      *components.AgentState
	corridor   *components.Corridor
	target     *components.MoveTarget
	boundary   *components.Boundary
	neighbours *components.Neighbours
	corners    *components.Corners
	animation  *components.OffMeshAnimation

	// event is an event the agent raised in a parallel pass; event2 a
	// ground event raised in the same pass, naming eventPoly.
	event, event2 components.EventKind
	eventPoly     navmesh.Ref
	// cancel is a path queue request the agent dropped in a parallel pass.
	cancel crowd.PathRequestID
}

// agentFilter matches the entities that carry every agent component.
type agentFilter = generic.Filter10[
	components.AgentParams, components.Position, components.Velocity,
	components.AgentState, components.Corridor, components.MoveTarget,
	components.Boundary, components.Neighbours, components.Corners,
	components.OffMeshAnimation,
]

// agentTable lists the agents of the world in query order, the order every
// stage and every sequential pass uses, and finds an agent by entity.
type agentTable struct {
	filter     *agentFilter
	positionID ecs.ID
	agents     []agent
	// slots maps an entity ID to 1 + the agent's index in agents; 0 means
	// not an agent of this Update.
	slots []int32
}

func (t *agentTable) init() {
	t.filter = generic.NewFilter10[
		components.AgentParams, components.Position, components.Velocity,
		components.AgentState, components.Corridor, components.MoveTarget,
		components.Boundary, components.Neighbours, components.Corners,
		components.OffMeshAnimation,
	]()
}

// collect lists the agents of world. When the world still holds the agents
// of the last collection, in the same order and at the same addresses, it
// keeps that list: a crowd's structure rarely changes from one tick to the
// next, and checking one component per agent is much cheaper than fetching
// ten. It allocates only when the crowd grows beyond every earlier size.
func (t *agentTable) collect(world *ecs.World) []agent {
	t.positionID = ecs.ComponentID[components.Position](world)
	if t.unchanged(world) {
		return t.agents
	}
	for i := range t.agents {
		if id := int(t.agents[i].entity.ID()); id < len(t.slots) {
			t.slots[id] = 0
		}
	}
	q := t.filter.Query(world)
	// One allocation for a crowd that grew (a mass spawn's first tick),
	// not one per doubling.
	t.agents = slices.Grow(t.agents[:0], q.Count())
	for q.Next() {
		params, position, velocity, state, corridor, target, boundary, neighbours, corners, animation := q.Get()
		e := q.Entity()
		t.agents = append(t.agents, agent{
			entity: e, params: params, position: position, velocity: velocity, state: state,
			corridor: corridor, target: target, boundary: boundary, neighbours: neighbours,
			corners: corners, animation: animation,
		})
		id := int(e.ID())
		if id >= len(t.slots) {
			t.slots = append(t.slots, make([]int32, id+1-len(t.slots)+len(t.slots)/2)...)
		}
		t.slots[id] = int32(len(t.agents))
	}
	return t.agents
}

// reserve grows the table's buffers for agents agents with entity IDs below
// entityIDs, so that collecting them allocates nothing.
func (t *agentTable) reserve(agents, entityIDs int) {
	if cap(t.agents) < agents {
		t.agents = slices.Grow(t.agents, agents-len(t.agents))
	}
	if len(t.slots) < entityIDs {
		t.slots = append(t.slots, make([]int32, entityIDs-len(t.slots)+entityIDs/2)...)
	}
}

// unchanged reports whether the world's agents are those of the last
// collection, in the same order, with their components at the same
// addresses. An archetype moves all its columns together when it grows, and
// an entity that changes archetype moves all its components, so the same
// entity with the same Position address at every index means the same
// addresses for every component.
func (t *agentTable) unchanged(world *ecs.World) bool {
	if len(t.agents) == 0 {
		return false
	}
	q := t.filter.Query(world)
	if q.Count() != len(t.agents) {
		q.Close()
		return false
	}
	for i := 0; q.Next(); i++ {
		a := &t.agents[i]
		if q.Entity() != a.entity || (*components.Position)(q.Query.Get(t.positionID)) != a.position {
			q.Close()
			return false
		}
	}
	return true
}

// lookup returns the index of entity e's agent in this Update, -1 when e
// is not one (it was removed, or is not an agent).
func (t *agentTable) lookup(e ecs.Entity) int {
	id := int(e.ID())
	if id >= len(t.slots) {
		return -1
	}
	slot := int(t.slots[id]) - 1
	if slot < 0 || t.agents[slot].entity != e {
		return -1
	}
	return slot
}
