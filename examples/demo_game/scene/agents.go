package scene

import (
	"image/color"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Agent is what the scene draws of one agent.
type Agent struct {
	// Position is the agent's foot position [Units: world units].
	Position geom.Vec3
	// Velocity is its actual velocity [Units: world units per second].
	Velocity geom.Vec3
	// Radius is its radius [Units: world units].
	Radius float32
	// Target is where it is heading, valid when HasTarget.
	Target    geom.Vec3
	HasTarget bool
	// Path is the rest of its path as corner points, from its position to
	// the target (may be empty).
	Path []geom.Vec3
	// Hue picks the agent's color (AgentHue).
	Hue int
	// Selected agents get a ring around them.
	Selected bool
}

// AgentDebug is the crowd's working state of one agent, drawn by the
// overlays. Empty fields draw nothing.
type AgentDebug struct {
	// Corridor is the agent's polygon corridor.
	Corridor []navmesh.Ref
	// Corners are the next corners it steers to.
	Corners []geom.Vec3
	// Neighbours are indices (into the scene's agents) of its neighbours.
	Neighbours []int
	// Boundary holds the wall segments near it, two points each.
	Boundary [][2]geom.Vec3
	// Samples are the velocities the avoidance scored, relative to the agent,
	// with their penalty normalized to 0..1.
	Samples []AvoidanceSample
}

// AvoidanceSample is one candidate velocity of obstacle avoidance.
type AvoidanceSample struct {
	// Velocity is the candidate [Units: world units per second].
	Velocity geom.Vec3
	// Penalty is its score, 0 best .. 1 worst.
	Penalty float32
}

// Overlays choose which debug layers are drawn.
type Overlays struct {
	Corridor, Corners, Neighbours, Boundary, AvoidanceSamples bool
	// Paths and Targets draw every agent's path line and target mark.
	Paths, Targets bool
}

// DefaultOverlays are the layers drawn in the GIF: paths and targets.
var DefaultOverlays = Overlays{Paths: true, Targets: true}

// velocityLookahead is how far ahead a velocity line reaches [Units: s].
const velocityLookahead = 0.5

// sampleLookahead spreads the avoidance samples around their agent: each
// is drawn where that velocity would take the agent in this time, wide
// enough apart to see [Units: s].
const sampleLookahead = 2

// DrawAgents draws the agents (and, with debug non-nil, the chosen overlays)
// over the navmesh. debug, when given, parallels agents.
func DrawAgents(c render.Canvas, v View, layer *NavmeshLayer, agents []Agent, debug []AgentDebug, overlays Overlays) {
	if len(debug) == len(agents) {
		drawUnderlays(c, v, layer, agents, debug, overlays)
	}
	thin := max(1, v.Pixels(0.06))
	if overlays.Paths {
		for i := range agents {
			a := &agents[i]
			if !a.HasTarget || len(a.Path) == 0 {
				continue
			}
			previous := v.ToScreen(a.Position)
			for _, p := range a.Path {
				next := v.ToScreen(p)
				c.Line(previous, next, thin, pathShade(a.Hue))
				previous = next
			}
		}
	}
	if overlays.Targets {
		for i := range agents {
			a := &agents[i]
			if !a.HasTarget {
				continue
			}
			drawCross(c, v.ToScreen(a.Target), max(3, v.Pixels(0.35)), thin+1, pathShade(a.Hue))
		}
	}
	for i := range agents {
		a := &agents[i]
		center := v.ToScreen(a.Position)
		radius := max(2, v.Pixels(a.Radius))
		c.Circle(center, radius, 0, AgentHue(a.Hue))
		c.Circle(center, radius, max(1, radius/4), AgentOutline)
		if a.Selected {
			c.Circle(center, radius+4, 2, CornerMark)
		}
		tip := v.ToScreen(geom.Mad(a.Position, a.Velocity, velocityLookahead))
		c.Line(center, tip, max(1, thin), VelocityLine)
	}
	if len(debug) == len(agents) {
		drawOverlays(c, v, agents, debug, overlays)
	}
}

// drawUnderlays draws the overlays that belong under the agents: corridors.
func drawUnderlays(c render.Canvas, v View, layer *NavmeshLayer, agents []Agent, debug []AgentDebug, overlays Overlays) {
	if !overlays.Corridor || layer == nil {
		return
	}
	// Each polygon once, however many corridors share it.
	drawn := map[navmesh.Ref]bool{}
	for i := range agents {
		for _, ref := range debug[i].Corridor {
			if !drawn[ref] {
				drawn[ref] = true
				layer.DrawPolygon(c, v, ref, CorridorFill)
			}
		}
	}
}

// drawOverlays draws the overlays that belong over the agents.
func drawOverlays(c render.Canvas, v View, agents []Agent, debug []AgentDebug, overlays Overlays) {
	for i := range agents {
		a, d := &agents[i], &debug[i]
		center := v.ToScreen(a.Position)
		if overlays.Boundary {
			for _, s := range d.Boundary {
				c.Line(v.ToScreen(s[0]), v.ToScreen(s[1]), 2, BoundaryLine)
			}
		}
		if overlays.Neighbours {
			for _, n := range d.Neighbours {
				if n >= 0 && n < len(agents) {
					c.Line(center, v.ToScreen(agents[n].Position), 1, NeighbourLine)
				}
			}
		}
		if overlays.Corners {
			for _, corner := range d.Corners {
				c.Circle(v.ToScreen(corner), 3, 0, CornerMark)
			}
		}
		if overlays.AvoidanceSamples {
			for _, s := range d.Samples {
				p := v.ToScreen(geom.Mad(a.Position, s.Velocity, sampleLookahead))
				shade := uint8(255 * (1 - min(max(s.Penalty, 0), 1)))
				c.Circle(p, 2, 0, color.RGBA{255 - shade, shade, 64, 255})
			}
		}
	}
}

func drawCross(c render.Canvas, at render.Point, size, width float32, col color.RGBA) {
	c.Line(render.Point{X: at.X - size, Y: at.Y - size}, render.Point{X: at.X + size, Y: at.Y + size}, width, col)
	c.Line(render.Point{X: at.X - size, Y: at.Y + size}, render.Point{X: at.X + size, Y: at.Y - size}, width, col)
}
