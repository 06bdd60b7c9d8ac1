package navdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
)

// Agent is what Agents draws of one crowd agent; plugin/crowddraw fills it
// from the ECS world, other crowds can fill it from theirs.
type Agent struct {
	// Position is the agent's foot position [Units: world units]
	Position mgl32.Vec3
	// Radius and Height are its size [Units: world units]
	Radius, Height float32
	// Velocity is its actual velocity and DesiredVelocity the one steering
	// asked for [Units: world units / s]
	Velocity, DesiredVelocity mgl32.Vec3
	// Target is where it is heading, drawn when HasTarget.
	Target    mgl32.Vec3
	HasTarget bool
	// Corners are its next corners, nearest first.
	Corners []query.StraightPathPoint
	// Neighbours are the positions of its neighbours.
	Neighbours []mgl32.Vec3
	// Selected agents are drawn in Style.AgentSelected.
	Selected bool
	// Color, when not zero, replaces Style.Agent (e.g. by the state of the
	// agent's move request).
	Color color.NRGBA
}

// AgentLayers choose what Agents draws.
type AgentLayers uint32

// The agent layers, drawn in this order (all agents' first layer, then the
// next), after RecastDemo's crowd tool.
const (
	// AgentCorners draws a line from the agent through its next corners,
	// raised to its radius, a dot (three line widths across) at each corner
	// and an upright mark at a corner that starts an off-mesh connection.
	AgentCorners AgentLayers = 1 << iota
	// AgentNeighbours draws a line from the agent to each neighbour.
	AgentNeighbours
	// AgentTargets draws a cross at the target.
	AgentTargets
	// AgentBodies draws the agent's cylinder: a circle of its radius at its
	// feet and at its head, and four uprights.
	AgentBodies
	// AgentVelocities draws arrows of the desired and the actual velocity
	// (one second's travel) at head height; a zero velocity draws nothing.
	AgentVelocities
)

// DefaultAgentLayers is every agent layer.
const DefaultAgentLayers = AgentCorners | AgentNeighbours | AgentTargets | AgentBodies | AgentVelocities

// Agents draws layers of agents.
func Agents(d debugdraw.Drawer, agents []Agent, layers AgentLayers, style Style) {
	if d == nil {
		return
	}
	if layers&AgentCorners != 0 {
		for i := range agents {
			drawCorners(d, &agents[i], &style)
		}
	}
	if layers&AgentNeighbours != 0 {
		for i := range agents {
			a := &agents[i]
			from := a.Position.Add(mgl32.Vec3{0, a.Radius, 0})
			for _, n := range a.Neighbours {
				d.Line(from, n.Add(mgl32.Vec3{0, a.Radius, 0}), style.NeighbourWidth, style.Neighbour)
			}
		}
	}
	if layers&AgentTargets != 0 {
		for i := range agents {
			if a := &agents[i]; a.HasTarget {
				debugdraw.Cross(d, a.Target.Add(mgl32.Vec3{0, 0.1, 0}), 2*a.Radius, style.AgentWidth, style.Target)
			}
		}
	}
	if layers&AgentBodies != 0 {
		for i := range agents {
			a := &agents[i]
			r := mgl32.Vec3{a.Radius, 0, a.Radius}
			top := a.Position.Add(mgl32.Vec3{0, a.Height, 0})
			debugdraw.CylinderWire(d, a.Position.Sub(r), top.Add(r), style.AgentWidth, agentColor(a, &style))
		}
	}
	if layers&AgentVelocities != 0 {
		for i := range agents {
			a := &agents[i]
			head := a.Position.Add(mgl32.Vec3{0, a.Height, 0})
			if a.DesiredVelocity != (mgl32.Vec3{}) {
				debugdraw.Arrow(d, head, head.Add(a.DesiredVelocity), 0, 0.4, style.VelocityWidth, style.DesiredVelocity)
			}
			if a.Velocity != (mgl32.Vec3{}) {
				debugdraw.Arrow(d, head, head.Add(a.Velocity), 0, 0.4, style.VelocityWidth, style.Velocity)
			}
		}
	}
}

func agentColor(a *Agent, style *Style) color.NRGBA {
	switch {
	case a.Selected:
		return style.AgentSelected
	case a.Color != (color.NRGBA{}):
		return a.Color
	}
	return style.Agent
}

func drawCorners(d debugdraw.Drawer, a *Agent, style *Style) {
	if len(a.Corners) == 0 {
		return
	}
	up := mgl32.Vec3{0, a.Radius, 0}
	previous := a.Position
	for _, c := range a.Corners {
		d.Line(previous.Add(up), c.Pos.Add(up), style.CornerWidth, style.Corner)
		previous = c.Pos
	}
	for _, c := range a.Corners {
		d.Point(c.Pos.Add(up), 3*style.CornerWidth, style.Corner)
	}
	if last := a.Corners[len(a.Corners)-1]; last.Flags&query.StraightPathOffMeshConnection != 0 {
		d.Line(last.Pos, last.Pos.Add(up.Mul(2)), style.CornerWidth, style.Corner)
	}
}

// Boundary draws an agent's local wall segments (crowd.LocalBoundary's
// Segments) as arrows in their winding, raised a little; segments whose
// back faces the agent at position are drawn darker.
func Boundary(d debugdraw.Drawer, position mgl32.Vec3, segments []crowd.BoundarySegment, style Style) {
	if d == nil {
		return
	}
	up := mgl32.Vec3{0, 0.2, 0}
	for _, s := range segments {
		stroke := style.Boundary
		if geom.TriArea2D(position, s.P, s.Q) < 0 {
			stroke = debugdraw.Darken(stroke)
		}
		debugdraw.Arrow(d, s.P.Add(up), s.Q.Add(up), 0, 0.3, style.BoundaryWidth, stroke)
	}
}

// AvoidanceSamples draws the candidate velocities an obstacle avoidance
// call scored (crowd.AvoidanceDebug's Samples, after NormalizeSamples), each
// as a square of its sample size where that velocity would take the agent
// from center in one second, from Style.SampleBest (penalty 0) to
// Style.SampleWorst (penalty 1), reddened by the side penalty.
func AvoidanceSamples(d debugdraw.Drawer, center mgl32.Vec3, samples []crowd.AvoidanceSample, style Style) {
	if d == nil {
		return
	}
	for _, s := range samples {
		fill := debugdraw.Lerp(style.SampleBest, style.SampleWorst, s.Penalty)
		fill = debugdraw.Lerp(fill, style.SampleSide, s.SidePenalty/2)
		p := center.Add(s.Velocity)
		h := s.Size
		debugdraw.Quad(d,
			mgl32.Vec3{p[0] - h, center[1], p[2] - h},
			mgl32.Vec3{p[0] - h, center[1], p[2] + h},
			mgl32.Vec3{p[0] + h, center[1], p[2] + h},
			mgl32.Vec3{p[0] + h, center[1], p[2] - h},
			fill)
	}
}
