package main

import (
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// Tolerances of the behaviour checks of `navtool crowd`.
const (
	// crowdOnMeshXZ is how far (xz) from the nearest polygon a walking
	// agent may be and still count as on the mesh [Units: world units]
	crowdOnMeshXZ = float32(0.01)
	// crowdOnMeshY is how far above or below the surface it may be.
	crowdOnMeshY = float32(0.5)
	// crowdOverlapSlack: two agents overlap when closer than the sum of
	// their radii minus this.
	crowdOverlapSlack = float32(0.1)
	// crowdStuckWindow, crowdStuckMove: an agent with a complete path,
	// more than crowdReachedDistance from its target, that moved less than
	// crowdStuckMove over the last crowdStuckWindow ticks is stuck.
	crowdStuckWindow     = 120
	crowdStuckMove       = float32(0.5)
	crowdReachedDistance = float32(1)
)

// crowdChecker measures the behaviour of a run after each tick.
type crowdChecker struct {
	p      *plugin.Plugin
	world  *ecs.World
	agents []ecs.Entity
	q      *query.Query
	filter *query.Filter

	infos   []plugin.AgentInfo
	history [][]geom.Vec3 // ring of the last crowdStuckWindow+1 positions per agent
	cells   map[[2]int32][]int32

	offMesh, wallPenetrations, overlaps int
}

func newCrowdChecker(mesh *navmesh.Mesh, filter *query.Filter, p *plugin.Plugin, world *ecs.World, agents []ecs.Entity) (*crowdChecker, error) {
	q, err := query.New(mesh, 2048)
	if err != nil {
		return nil, err
	}
	c := &crowdChecker{
		p: p, world: world, agents: agents, q: q, filter: filter,
		infos:   make([]plugin.AgentInfo, len(agents)),
		history: make([][]geom.Vec3, crowdStuckWindow+1),
		cells:   map[[2]int32][]int32{},
	}
	for i := range c.history {
		c.history[i] = make([]geom.Vec3, len(agents))
	}
	return c, nil
}

// check records tick's positions and counts off-mesh agents, agents off
// their corridor and overlapping pairs. Agents crossing an off-mesh
// connection are in the air by design and not checked.
func (c *crowdChecker) check(tick int) error {
	ring := c.history[tick%len(c.history)]
	for i, e := range c.agents {
		info, err := c.p.State(c.world, e)
		if err != nil {
			return err
		}
		c.infos[i] = info
		ring[i] = info.Position
		if info.Mode != components.AgentWalking {
			continue
		}
		if !c.onMesh(info.Position) {
			c.offMesh++
		}
		if !c.onPoly(info.Poly, info.Position) {
			c.wallPenetrations++
		}
	}
	c.overlaps += c.countOverlaps()
	return nil
}

// onMesh reports whether a polygon lies under or over pos within the
// tolerances.
func (c *crowdChecker) onMesh(pos geom.Vec3) bool {
	nearest, err := c.q.FindNearestPoly(pos, geom.Vec3{crowdOnMeshXZ * 10, crowdOnMeshY, crowdOnMeshXZ * 10}, c.filter)
	if err != nil || nearest.Ref == 0 {
		return false
	}
	return geom.Dist2D(nearest.Point, pos) <= crowdOnMeshXZ && geom.Abs(nearest.Point[1]-pos[1]) <= crowdOnMeshY
}

// onPoly reports whether pos lies on polygon ref (xz, within tolerance):
// the polygon the agent's corridor starts with.
func (c *crowdChecker) onPoly(ref navmesh.Ref, pos geom.Vec3) bool {
	closest, _, err := c.q.ClosestPointOnPoly(ref, pos)
	return err == nil && geom.Dist2D(closest, pos) <= crowdOnMeshXZ
}

// countOverlaps counts the pairs of walking agents on the same level closer
// than the sum of their radii minus the slack.
func (c *crowdChecker) countOverlaps() int {
	const cell = float32(1.2) // >= twice the largest radius used
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
	params := components.DefaultAgentParams()
	limit := 2*params.Radius - crowdOverlapSlack
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

// finish fills the end-of-run figures: agents near their target, stuck
// agents, partial paths and agents still waiting for a path.
func (c *crowdChecker) finish(r *crowdReport, trips []crowdTrip) error {
	last := r.Ticks - 1
	var past []geom.Vec3
	if r.Ticks > crowdStuckWindow {
		past = c.history[(last-crowdStuckWindow)%len(c.history)]
	}
	for i := range c.agents {
		info := c.infos[i]
		dist := geom.Dist2D(info.Position, trips[i].target)
		if dist <= crowdReachedDistance {
			r.Reached++
		}
		if info.Partial {
			r.PartialPaths++
		}
		switch info.Target {
		case components.TargetRequesting, components.TargetWaitingForQueue, components.TargetWaitingForPath:
			r.WaitingForPath++
		}
		complete := info.Target == components.TargetValid && !info.Partial
		if past != nil && complete && dist > crowdReachedDistance &&
			geom.Dist2D(info.Position, past[i]) < crowdStuckMove {
			r.StuckAgents++
		}
	}
	return nil
}
