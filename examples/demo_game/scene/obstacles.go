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

// DrawObstacles draws the obstacles over the navmesh, under the agents.
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
			c.Circle(center, v.Pixels(o.Radius), 0, fill)
			c.Circle(center, v.Pixels(o.Radius), edge, CrateEdge)
			if o.Selected {
				c.Circle(center, v.Pixels(o.Radius)+4, 2, CornerMark)
			}
			continue
		}
		points := make([]render.Point, len(o.Outline))
		for k, p := range o.Outline {
			points[k] = v.ToScreen(p)
		}
		c.Polygon(points, fill)
		for k := range points {
			c.Line(points[k], points[(k+1)%len(points)], edge, CrateEdge)
		}
		if o.Selected {
			for k := range points {
				c.Line(points[k], points[(k+1)%len(points)], 2, CornerMark)
			}
		}
	}
}

// obstacleColors are the opaque colors DrawObstacles uses, for the GIF
// palette.
var obstacleColors = []color.RGBA{CrateFill, CratePendingFill, CrateEdge, DoorOpenFill, DoorClosedFill}
