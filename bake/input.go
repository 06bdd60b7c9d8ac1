package bake

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// MaxAreaID is the largest area id a span can carry: heightfield spans store
// the area in 6 bits, so ids run 0 (NullArea) .. 63 (WalkableArea).
const MaxAreaID = 63

// Geometry is the level a bake reads: a triangle soup plus optional area
// volumes and off-mesh connections (RecastDemo's InputGeom).
//
// A Geometry is plain data; the pipeline only reads it. Build one in memory or
// with ReadOBJ / LoadOBJ, then check it with Validate (the pipeline does).
type Geometry struct {
	// Vertices are the triangle corners [Units: world units, y up]
	Vertices []mgl32.Vec3
	// Triangles index Vertices, three corners per triangle. A triangle is
	// walkable on the side its normal (v1-v0)×(v2-v0) points to, so a floor
	// must have it point up (+y): its corners wind counter-clockwise seen
	// from above (looking down the y axis with x to the right and z towards
	// the bottom of the picture, as OpenGL and most OBJ exporters wind
	// front faces). A level whose floors wind the other way bakes to
	// nothing (ErrNoPolygons says so).
	Triangles [][3]int32
	// Areas optionally gives each triangle an area id (1..MaxAreaID, or
	// NullArea for "never walkable"); steep triangles are still cleared to
	// NullArea. When nil, every triangle that is not too steep gets
	// WalkableArea, as in RecastDemo.
	Areas []uint8

	// ConvexVolumes, BoxVolumes and CylinderVolumes re-mark the area of the
	// walkable surface inside them after erosion.
	ConvexVolumes   []ConvexVolume
	BoxVolumes      []BoxVolume
	CylinderVolumes []CylinderVolume

	// OffMeshConnections are links the agent takes off the surface (jumps,
	// ladders, teleports); the tile builder turns them into off-mesh polygons.
	OffMeshConnections []OffMeshConnection

	// VertexLines optionally gives the source line of each vertex (ReadOBJ
	// fills it with the OBJ line numbers), for errors that name a vertex.
	VertexLines []int32
}

// ConvexVolume marks the spans whose column centre lies inside a convex
// polygon in the xz-plane and whose floor lies between MinY and MaxY
// (RecastDemo's ConvexVolume, rcMarkConvexPolyArea).
type ConvexVolume struct {
	// Vertices outline the polygon in the xz-plane; y is ignored
	// [Limit: >= 3 points] [Units: world units]
	Vertices []mgl32.Vec3
	// MinY and MaxY bound the volume vertically [Limit: MinY <= MaxY]
	// [Units: world units]
	MinY, MaxY float32
	// Area is the area id given to the spans inside [Limit: <= MaxAreaID]
	Area uint8
}

// BoxVolume marks the spans whose floor lies in an axis-aligned box
// (rcMarkBoxArea).
type BoxVolume struct {
	// Min and Max are opposite corners [Limit: Min <= Max] [Units: world units]
	Min, Max mgl32.Vec3
	// Area is the area id given to the spans inside [Limit: <= MaxAreaID]
	Area uint8
}

// CylinderVolume marks the spans whose floor lies in an upright cylinder
// (rcMarkCylinderArea).
type CylinderVolume struct {
	// Base is the centre of the bottom disc [Units: world units]
	Base mgl32.Vec3
	// Radius of the cylinder [Limit: > 0] [Units: world units]
	Radius float32
	// Height of the cylinder above Base [Limit: >= 0] [Units: world units]
	Height float32
	// Area is the area id given to the spans inside [Limit: <= MaxAreaID]
	Area uint8
}

// OffMeshConnection is a link between two points of the navigation mesh that
// is not walked on the surface (RecastDemo's off-mesh connection input).
type OffMeshConnection struct {
	// Start and End are the two end points [Units: world units]
	Start, End mgl32.Vec3
	// Radius is how far from an end point an agent may be to use the link
	// [Limit: > 0] [Units: world units]
	Radius float32
	// Bidirectional links can be taken from End to Start too.
	Bidirectional bool
	// Area is the area id of the link polygon [Limit: <= MaxAreaID]
	Area uint8
	// Flags are the polygon flags of the link (user defined).
	Flags uint16
	// UserID is handed back to the user when an agent takes the link.
	UserID uint32
}

// Bounds returns the axis-aligned box around the vertices (rcCalcBounds); both
// corners are zero when there are none.
func (g *Geometry) Bounds() (bmin, bmax mgl32.Vec3) {
	if len(g.Vertices) == 0 {
		return bmin, bmax
	}
	bmin, bmax = g.Vertices[0], g.Vertices[0]
	for _, v := range g.Vertices[1:] {
		bmin = geom.Min(bmin, v)
		bmax = geom.Max(bmax, v)
	}
	return bmin, bmax
}

// Validate checks that the geometry can be baked: at least one triangle,
// finite coordinates, indices in range, one area per triangle when Areas is
// set, area ids that fit a span, and well-formed volumes and connections.
func (g *Geometry) Validate() error {
	if g == nil {
		return errors.New("bake: geometry is nil")
	}
	if len(g.Triangles) == 0 {
		return errors.New("bake: geometry has no triangles")
	}
	if len(g.Vertices) > 1<<31-1 {
		return fmt.Errorf("bake: geometry has %d vertices, more than an int32 index reaches", len(g.Vertices))
	}
	for i, v := range g.Vertices {
		if !geom.IsFinite(v) {
			return fmt.Errorf("bake: vertex %d %v is not finite", i, v)
		}
	}
	if err := validateTriangles(len(g.Vertices), g.Triangles); err != nil {
		return err
	}
	if g.Areas != nil {
		if len(g.Areas) != len(g.Triangles) {
			return fmt.Errorf("bake: %d triangle areas for %d triangles", len(g.Areas), len(g.Triangles))
		}
		for i, a := range g.Areas {
			if a > MaxAreaID {
				return fmt.Errorf("bake: triangle %d: area %d above %d", i, a, MaxAreaID)
			}
		}
	}
	if err := g.validateVolumes(); err != nil {
		return err
	}
	for i := range g.OffMeshConnections {
		if err := g.OffMeshConnections[i].Validate(); err != nil {
			return fmt.Errorf("bake: off-mesh connection %d: %w", i, err)
		}
	}
	return nil
}

// validateVolumes checks every area volume of g.
func (g *Geometry) validateVolumes() error {
	for i := range g.ConvexVolumes {
		if err := g.ConvexVolumes[i].Validate(); err != nil {
			return fmt.Errorf("bake: convex volume %d: %w", i, err)
		}
	}
	for i := range g.BoxVolumes {
		if err := g.BoxVolumes[i].Validate(); err != nil {
			return fmt.Errorf("bake: box volume %d: %w", i, err)
		}
	}
	for i := range g.CylinderVolumes {
		if err := g.CylinderVolumes[i].Validate(); err != nil {
			return fmt.Errorf("bake: cylinder volume %d: %w", i, err)
		}
	}
	return nil
}

// validateTriangles checks that every corner indexes one of vertexCount
// vertices.
func validateTriangles(vertexCount int, triangles [][3]int32) error {
	for i, t := range triangles {
		for _, index := range t {
			if index < 0 || int(index) >= vertexCount {
				return fmt.Errorf("bake: triangle %d: vertex index %d outside 0..%d", i, index, vertexCount-1)
			}
		}
	}
	return nil
}

// Validate checks the volume: at least three finite points, finite
// MinY <= MaxY, and an area id that fits a span.
func (v *ConvexVolume) Validate() error {
	if len(v.Vertices) < 3 {
		return fmt.Errorf("%d points, need at least 3", len(v.Vertices))
	}
	for i, p := range v.Vertices {
		if !geom.IsFinite(p) {
			return fmt.Errorf("point %d %v is not finite", i, p)
		}
	}
	if !geom.IsFinite(mgl32.Vec3{v.MinY, v.MaxY, 0}) || v.MinY > v.MaxY {
		return fmt.Errorf("height range %v..%v is empty or not finite", v.MinY, v.MaxY)
	}
	return validateArea(v.Area)
}

// Validate checks the box: finite corners with Min <= Max on every axis, and
// an area id that fits a span.
func (b *BoxVolume) Validate() error {
	if !geom.IsFinite(b.Min) || !geom.IsFinite(b.Max) {
		return fmt.Errorf("corners %v %v are not finite", b.Min, b.Max)
	}
	if b.Min[0] > b.Max[0] || b.Min[1] > b.Max[1] || b.Min[2] > b.Max[2] {
		return fmt.Errorf("min corner %v above max corner %v", b.Min, b.Max)
	}
	return validateArea(b.Area)
}

// Validate checks the cylinder: finite base, positive radius, non-negative
// height, and an area id that fits a span.
func (c *CylinderVolume) Validate() error {
	if !geom.IsFinite(c.Base) {
		return fmt.Errorf("base %v is not finite", c.Base)
	}
	if !(c.Radius > 0) || !geom.IsFinite(mgl32.Vec3{c.Radius, c.Height, 0}) {
		return fmt.Errorf("radius %v must be positive and finite", c.Radius)
	}
	if !(c.Height >= 0) {
		return fmt.Errorf("height %v must not be negative", c.Height)
	}
	return validateArea(c.Area)
}

// Validate checks the connection: finite end points, a positive radius and an
// area id that fits a polygon.
func (c *OffMeshConnection) Validate() error {
	if !geom.IsFinite(c.Start) || !geom.IsFinite(c.End) {
		return fmt.Errorf("end points %v %v are not finite", c.Start, c.End)
	}
	if !(c.Radius > 0) || !geom.IsFinite(mgl32.Vec3{c.Radius, 0, 0}) {
		return fmt.Errorf("radius %v must be positive and finite", c.Radius)
	}
	return validateArea(c.Area)
}

func validateArea(area uint8) error {
	if area > MaxAreaID {
		return fmt.Errorf("area %d above %d", area, MaxAreaID)
	}
	return nil
}
