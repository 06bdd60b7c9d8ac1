package components

import (
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
)

// Boundary holds the wall segments near the agent (dtCrowdAgent::boundary),
// refreshed by the BoundaryUpdate stage.
type Boundary struct {
	crowd.LocalBoundary
}

// MaxNeighbours is the most neighbours an agent keeps
// (DT_CROWDAGENT_MAX_NEIGHBOURS).
const MaxNeighbours = 6

// Neighbour is another agent near this one (dtCrowdNeighbour).
type Neighbour struct {
	// Entity is the neighbour agent.
	Entity ecs.Entity
	// DistanceSqr is the squared xz distance between the agents when the
	// neighbours were gathered [Units: world units²]
	DistanceSqr float32
}

// Neighbours are the agents near this one, nearest first, gathered by the
// BoundaryUpdate stage within AgentParams.CollisionQueryRange (neis).
type Neighbours struct {
	// Count is the number of neighbours in List [Limit: 0..MaxNeighbours]
	Count int
	// List holds the neighbours, nearest first.
	List [MaxNeighbours]Neighbour
}

// Slice returns the neighbours in use. It aliases the component.
func (n *Neighbours) Slice() []Neighbour { return n.List[:n.Count] }

// MaxCorners is the size of the corner buffer (DT_CROWDAGENT_MAX_CORNERS);
// since the first point of the straight path is the agent itself, at most
// MaxCorners-1 corners are found.
const MaxCorners = 4

// Corners are the next corners of the agent's straightened corridor
// (cornerVerts, cornerFlags, cornerPolys), written by the Steering stage.
type Corners struct {
	// Count is the number of corners in Points [Limit: 0..MaxCorners-1]
	Count int
	// Points are the corners, nearest first; the last one carries
	// query.StraightPathEnd when it is the target, or
	// query.StraightPathOffMeshConnection when it starts an off-mesh
	// connection.
	Points [MaxCorners]query.StraightPathPoint
}

// Slice returns the corners in use. It aliases the component.
func (c *Corners) Slice() []query.StraightPathPoint { return c.Points[:c.Count] }
