package scene

import (
	"image/color"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
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
	// Type is the index of the agent's type: its corridor is drawn on the
	// navmesh layer of that index.
	Type int
	// Selected agents get a ring around them.
	Selected bool
}

// AgentDebug is the crowd's working state of one agent, drawn by the
// overlays with archenav's navdraw. Empty fields draw nothing.
type AgentDebug struct {
	// Corridor is the agent's polygon corridor.
	Corridor []navmesh.Ref
	// Corners are the next corners it steers to.
	Corners []query.StraightPathPoint
	// Neighbours are indices (into the scene's agents) of its neighbours.
	Neighbours []int
	// Boundary holds the wall segments near it.
	Boundary []crowd.BoundarySegment
	// Samples are the velocities the avoidance scored, relative to the
	// agent, with their penalties normalized to 0..1
	// (crowd.AvoidanceDebug.NormalizeSamples).
	Samples []crowd.AvoidanceSample
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

// DrawAgents draws the agents (and, with debug non-nil, the chosen overlays)
// over the navmesh. debug, when given, parallels agents; layers are the
// navmeshes of the agent types (Agent.Type indexes them), for the
// corridors.
func DrawAgents(c render.Canvas, v View, layers []*NavmeshLayer, agents []Agent, debug []AgentDebug, overlays Overlays) {
	if len(debug) == len(agents) {
		drawUnderlays(c, v, layers, agents, debug, overlays)
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

// drawUnderlays draws the overlays that belong under the agents: corridors,
// each on its agent type's layer.
func drawUnderlays(c render.Canvas, v View, layers []*NavmeshLayer, agents []Agent, debug []AgentDebug, overlays Overlays) {
	if !overlays.Corridor {
		return
	}
	for t, layer := range layers {
		if layer == nil {
			continue
		}
		// Each polygon once, however many corridors share it.
		drawn := map[navmesh.Ref]bool{}
		var refs []navmesh.Ref
		for i := range agents {
			if agents[i].Type != t {
				continue
			}
			for _, ref := range debug[i].Corridor {
				if !drawn[ref] {
					drawn[ref] = true
					refs = append(refs, ref)
				}
			}
		}
		if len(refs) > 0 {
			layer.DrawCorridor(c, v, refs)
		}
	}
}

// overlayStyle is the navdraw style of the overlays, in the scene's colors.
func overlayStyle() navdraw.Style {
	style := navdraw.DefaultStyle()
	style.Boundary, style.BoundaryWidth = straight(BoundaryLine), 2
	style.Neighbour, style.NeighbourWidth = straight(NeighbourLine), 1
	style.Corner, style.CornerWidth = straight(CornerMark), 2
	style.SampleBest, style.SampleWorst, style.SampleSide = color.NRGBA{40, 230, 90, 255}, color.NRGBA{230, 40, 40, 255}, color.NRGBA{230, 40, 40, 255}
	return style
}

// drawOverlays draws the overlays that belong over the agents, with
// navdraw: wall segments, neighbours, corners and avoidance samples.
func drawOverlays(c render.Canvas, v View, agents []Agent, debug []AgentDebug, overlays Overlays) {
	d := &Drawer{Canvas: c, View: v}
	style := overlayStyle()
	var layers navdraw.AgentLayers
	if overlays.Neighbours {
		layers |= navdraw.AgentNeighbours
	}
	if overlays.Corners {
		layers |= navdraw.AgentCorners
	}
	drawn := make([]navdraw.Agent, 0, len(agents))
	for i := range agents {
		a, dbg := &agents[i], &debug[i]
		if overlays.Boundary {
			navdraw.Boundary(d, a.Position, dbg.Boundary, style)
		}
		if overlays.AvoidanceSamples {
			navdraw.AvoidanceSamples(d, a.Position, dbg.Samples, style)
		}
		shown := navdraw.Agent{Position: a.Position, Radius: a.Radius, Corners: dbg.Corners}
		for _, n := range dbg.Neighbours {
			if n >= 0 && n < len(agents) {
				shown.Neighbours = append(shown.Neighbours, agents[n].Position)
			}
		}
		drawn = append(drawn, shown)
	}
	navdraw.Agents(d, drawn, layers, style)
}

func drawCross(c render.Canvas, at render.Point, size, width float32, col color.RGBA) {
	c.Line(render.Point{X: at.X - size, Y: at.Y - size}, render.Point{X: at.X + size, Y: at.Y + size}, width, col)
	c.Line(render.Point{X: at.X - size, Y: at.Y + size}, render.Point{X: at.X + size, Y: at.Y - size}, width, col)
}
