package bake

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
)

// levelDiagnosis sums up why a level may have baked to nothing: how its
// triangles face and how big it is next to the agent and the cells.
type levelDiagnosis struct {
	triangles int
	// up counts the triangles walkable by their slope: facing up (+y) and
	// flatter than AgentMaxSlope.
	up int
	// down counts the triangles that would be walkable turned over: facing
	// down and flatter than AgentMaxSlope.
	down int
	// sideways counts the triangles that would be walkable if the level's z
	// axis were its up axis (facing +z or -z, flatter than AgentMaxSlope
	// from it): most of them in a level exported z-up.
	sideways int
	// size is the extent of the level's vertices [Units: world units]
	size geom.Vec3
}

// diagnoseLevel looks at g's triangles as the slope test does.
func diagnoseLevel(g *Geometry, settings Settings) levelDiagnosis {
	d := levelDiagnosis{triangles: len(g.Triangles)}
	bmin, bmax := g.Bounds()
	d.size = geom.Sub(bmax, bmin)
	threshold := walkableThreshold(settings.AgentMaxSlope)
	for _, t := range g.Triangles {
		v0, v1, v2 := g.Vertices[t[0]], g.Vertices[t[1]], g.Vertices[t[2]]
		n := geom.Normalize(geom.Cross(geom.Sub(v1, v0), geom.Sub(v2, v0)))
		switch {
		case n[1] > threshold:
			d.up++
		case -n[1] > threshold:
			d.down++
		case geom.Abs(n[2]) > threshold:
			d.sideways++
		}
	}
	return d
}

// noPolygonsHint says what to check when a level bakes to no walkable
// polygon: the face winding when more of its flat triangles face down than
// up, the up axis when more stand on their side, and otherwise the scale of
// the level next to the agent and the cells.
func noPolygonsHint(g *Geometry, settings Settings) string {
	d := diagnoseLevel(g, settings)
	switch {
	case d.down > d.up:
		return fmt.Sprintf("of the level's %d triangles, %d face up and %d face down: the faces wind the wrong way "+
			"(a walkable triangle's corners v0, v1, v2 must give (v1-v0)×(v2-v0) pointing up, +y); reverse the order of "+
			"every face's vertices, or flip the normals in the exporter", d.triangles, d.up, d.down)
	case d.sideways > d.up:
		return fmt.Sprintf("of the level's %d triangles, %d are flatter than AgentMaxSlope %v° from +y and %d from the z axis: "+
			"if the level was exported with z up, swap y and z (bake expects y up)",
			d.triangles, d.up, settings.AgentMaxSlope, d.sideways)
	case d.up == 0:
		return fmt.Sprintf("none of the level's %d triangles is flatter than AgentMaxSlope %v°: is the level's up axis y, "+
			"and is the slope limit right?", d.triangles, settings.AgentMaxSlope)
	}
	return fmt.Sprintf("%d of the level's %d triangles are walkable, but nothing is left after the span filters, the erosion by "+
		"AgentRadius %v and the removal of regions under RegionMinSize %v cells: the level is %.3g × %.3g × %.3g world units "+
		"(x, y, z) against cells of %v and an agent %v high; check its scale (the defaults are for metres) "+
		"or lower AgentRadius, AgentHeight, CellSize and RegionMinSize",
		d.up, d.triangles, settings.AgentRadius, settings.RegionMinSize, d.size[0], d.size[1], d.size[2],
		settings.CellSize, settings.AgentHeight)
}
