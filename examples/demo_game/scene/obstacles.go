package scene

import (
	"image/color"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/geom"
)

// ObstacleKind tells the scene how to draw an obstacle.
type ObstacleKind int

// Obstacle kinds.
const (
	// Crate is a carving obstacle: drawn light while it waits to carve
	// (Pending), dark once its hole is in the navmesh.
	Crate ObstacleKind = iota
	// DoorOpen is a door agents walk through.
	DoorOpen
	// DoorClosed is a door that blocks the way.
	DoorClosed
)

// The obstacles' colors.
var (
	CrateFill        = color.RGBA{120, 82, 40, 255}
	CratePendingFill = color.RGBA{196, 160, 104, 255}
	CrateEdge        = color.RGBA{52, 34, 16, 255}
	DoorOpenFill     = color.RGBA{96, 200, 120, 255}
	DoorClosedFill   = color.RGBA{226, 64, 52, 255}
)

// Obstacle is what the scene draws of one obstacle.
type Obstacle struct {
	// Outline is the footprint's corners, or empty for a circle.
	Outline []geom.Vec3
	// Center and Radius give a circle's footprint [Units: world units].
	Center geom.Vec3
	Radius float32
	// Kind picks the colors; Pending marks a crate not carved yet.
	Kind    ObstacleKind
	Pending bool
	// Selected obstacles get a ring (the one being dragged).
	Selected bool
}

// MinObstaclePixels is the least an obstacle is drawn across, so that a
// door (a thin box) and a crate read at a glance in a 640-pixel picture;
// the hole carved in the navmesh shows the true footprint [Units: pixels].
const MinObstaclePixels = 12

// doorStroke is the width of the stroke that thickens a door [Units: pixels].
const doorStroke = 7

// Label returns the word drawn beside an obstacle of kind k.
func (k ObstacleKind) Label() string {
	switch k {
	case DoorOpen:
		return "door open"
	case DoorClosed:
		return "door shut"
	default:
		return "crate"
	}
}

// DrawObstacles draws the obstacles over the navmesh, under the agents:
// each at least MinObstaclePixels across, with its label above it.
func DrawObstacles(c render.Canvas, v View, obstacles []Obstacle) {
	edge := max(1, v.Pixels(0.08))
	for i := range obstacles {
		o := &obstacles[i]
		fill := CrateFill
		switch {
		case o.Kind == DoorOpen:
			fill = DoorOpenFill
		case o.Kind == DoorClosed:
			fill = DoorClosedFill
		case o.Pending:
			fill = CratePendingFill
		}
		if len(o.Outline) == 0 {
			center := v.ToScreen(o.Center)
			radius := max(v.Pixels(o.Radius), MinObstaclePixels/2)
			c.Circle(center, radius, 0, fill)
			c.Circle(center, radius, edge, CrateEdge)
			if o.Selected {
				c.Circle(center, radius+4, 2, CornerMark)
			}
			continue
		}
		points := make([]render.Point, len(o.Outline))
		for k, p := range o.Outline {
			points[k] = v.ToScreen(p)
		}
		widenOutline(points, MinObstaclePixels)
		c.Polygon(points, fill)
		if o.Kind != Crate {
			// A door is a thin slab, often turned: a thick stroke of its
			// colour makes it a bar that reads at a glance.
			for k := range points {
				c.Line(points[k], points[(k+1)%len(points)], doorStroke, fill)
			}
		}
		for k := range points {
			c.Line(points[k], points[(k+1)%len(points)], edge, CrateEdge)
		}
		if o.Selected {
			for k := range points {
				c.Line(points[k], points[(k+1)%len(points)], 2, CornerMark)
			}
		}
	}
	for i := range obstacles { // labels over every obstacle
		drawLabel(c, v, &obstacles[i])
	}
}

// obstacleColors are the opaque colors DrawObstacles uses, for the GIF
// palette.
var obstacleColors = []color.RGBA{CrateFill, CratePendingFill, CrateEdge, DoorOpenFill, DoorClosedFill}

// widenOutline stretches a screen outline about its centre, along x and y
// apart, until its box is at least least pixels across each way.
func widenOutline(points []render.Point, least float32) {
	lo, hi := points[0], points[0]
	for _, p := range points[1:] {
		lo = render.Point{X: min(lo.X, p.X), Y: min(lo.Y, p.Y)}
		hi = render.Point{X: max(hi.X, p.X), Y: max(hi.Y, p.Y)}
	}
	cx, cy := float32((lo.X+hi.X)/2), float32((lo.Y+hi.Y)/2)
	sx, sy := float32(1), float32(1)
	if w := hi.X - lo.X; w < least {
		sx = least / max(w, 1e-3)
	}
	if h := hi.Y - lo.Y; h < least {
		sy = least / max(h, 1e-3)
	}
	for k := range points {
		points[k] = render.Point{X: cx + float32((points[k].X-cx)*sx), Y: cy + float32((points[k].Y-cy)*sy)}
	}
}

// obstacleCenter returns where an obstacle is on the screen and how far its
// drawing reaches above that point [Units: pixels].
func obstacleCenter(v View, o *Obstacle) (render.Point, float32) {
	if len(o.Outline) == 0 {
		return v.ToScreen(o.Center), max(v.Pixels(o.Radius), MinObstaclePixels/2)
	}
	var center render.Point
	top := v.ToScreen(o.Outline[0]).Y
	for _, p := range o.Outline {
		s := v.ToScreen(p)
		center.X += s.X / float32(len(o.Outline))
		center.Y += s.Y / float32(len(o.Outline))
		top = min(top, s.Y)
	}
	return center, max(center.Y-top, MinObstaclePixels/2)
}

// drawLabel writes the obstacle's label centred above it on a dark band.
func drawLabel(c render.Canvas, v View, o *Obstacle) {
	label := o.Kind.Label()
	center, reach := obstacleCenter(v, o)
	width, height := render.TextSize(label)
	at := render.Point{X: center.X - float32(float32(width)/2), Y: center.Y - reach - float32(height) - 3}
	render.FillRect(c, at.X-2, at.Y-1, at.X+float32(width)+1, at.Y+float32(height)+1, TextBackground)
	c.Text(at, label, 1, TextColor)
}
