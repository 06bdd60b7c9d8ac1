package crowddraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
)

// DrawObstacles draws every obstacle entity of the world (components
// Obstacle, ObstaclePose and ObstacleState) in its footprint's shape at its
// pose, from the pose's height to Height above it: a cylinder
// (debugdraw.Cylinder and CylinderWire) or a prism (debugdraw.Prism and
// PrismWire), edged with the fill darkened, Style.ObstacleWidth wide. The
// fill tells what the obstacle does to the crowd this tick (ObstacleColor).
func (c *Crowd) DrawObstacles(d debugdraw.Drawer, style navdraw.Style) {
	query := c.obstacles.Query(c.world)
	for query.Next() {
		obstacle, pose, state := query.Get()
		fill := ObstacleColor(obstacle, state, style)
		footprint := obstacle.Footprint(*pose)
		drawFootprint(d, &footprint, fill, debugdraw.Darken(fill), style.ObstacleWidth)
	}
}

// ObstacleColor returns the fill DrawObstacles gives an obstacle in state:
// Style.ObstacleRefused when the tile cache refused it; for a carving
// obstacle Style.ObstacleUpToDate once its hole is in the navmesh,
// Style.ObstacleBuilding while the cache rebuilds its tiles and
// Style.ObstacleAvoided before it carves (it is then a body the agents
// steer around); for an area obstacle the up-to-date or building colour
// blended half way to its area's colour; for an avoided obstacle
// Style.ObstacleAvoided.
func ObstacleColor(obstacle *components.Obstacle, state *components.ObstacleState, style navdraw.Style) color.NRGBA {
	switch {
	case obstacle.Effect == components.ObstacleAvoided:
		return style.ObstacleAvoided
	case state.Refused:
		return style.ObstacleRefused
	case !state.InCache:
		return style.ObstacleAvoided
	}
	fill := style.ObstacleBuilding
	if state.Landed {
		fill = style.ObstacleUpToDate
	}
	if obstacle.Effect == components.ObstacleMarksArea {
		fill = debugdraw.Lerp(fill, style.AreaColorAt(obstacle.Area, fill.A), 0.5)
	}
	return fill
}

// drawFootprint fills and edges the upright shape over f.
func drawFootprint(d debugdraw.Drawer, f *components.Footprint, fill, stroke color.NRGBA, width float32) {
	if f.Circle {
		bmin := mgl32.Vec3{f.Center[0] - f.Radius, f.MinY, f.Center[1] - f.Radius}
		bmax := mgl32.Vec3{f.Center[0] + f.Radius, f.MaxY, f.Center[1] + f.Radius}
		debugdraw.Cylinder(d, bmin, bmax, fill)
		debugdraw.CylinderWire(d, bmin, bmax, width, stroke)
		return
	}
	var outline [components.MaxObstaclePoints]mgl32.Vec2
	for i, p := range f.Points[:f.Count] {
		outline[i] = mgl32.Vec2{p[0], p[1]}
	}
	debugdraw.Prism(d, outline[:f.Count], f.MinY, f.MaxY, fill)
	debugdraw.PrismWire(d, outline[:f.Count], f.MinY, f.MaxY, width, stroke)
}
