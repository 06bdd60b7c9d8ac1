package navdraw

import (
	"image/color"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Style holds the colours and widths of everything the package draws.
// Widths and sizes are in pixels; lifts are in world units. Start from
// DefaultStyle and change what you need.
type Style struct {
	// PolygonColor, when set, gives the fill of ground polygon index of
	// tile, overriding ColorByTile and the area colours.
	PolygonColor func(tile *navmesh.Tile, index int) color.NRGBA
	// ColorByTile fills each tile's polygons with its own colour
	// (debugdraw.IndexColor of the tile slot) instead of by area.
	ColorByTile bool
	// AreaColor gives the colour of an area id (debugdraw.AreaColor when
	// nil); polygons take it at PolygonAlpha.
	AreaColor func(area uint8) color.NRGBA
	// PolygonAlpha is the opacity of polygon fills.
	PolygonAlpha uint8

	// InnerEdge is the colour of edges between two polygons of a tile.
	InnerEdge      color.NRGBA
	InnerEdgeWidth float32
	// Wall is the colour of polygon edges with no neighbour.
	Wall      color.NRGBA
	WallWidth float32
	// Portal is the colour of edges on a tile border linked to the next
	// tile; OpenBorder of those with no link.
	Portal, OpenBorder color.NRGBA
	BorderWidth        float32
	// TileBounds is the colour of the box around each tile.
	TileBounds      color.NRGBA
	TileBoundsWidth float32

	// OffMesh is the colour of off-mesh connections; the zero colour takes
	// each connection's area colour, darkened. OffMeshUnlinked marks an end
	// with no link to the mesh.
	OffMesh, OffMeshUnlinked color.NRGBA
	OffMeshWidth             float32
	// OffMeshLift is how high an off-mesh arc rises, as a fraction of its
	// length.
	OffMeshLift float32

	// Vertex is the colour of polygon vertices.
	Vertex     color.NRGBA
	VertexSize float32
	// BVNode is the colour of BV tree boxes.
	BVNode      color.NRGBA
	BVNodeWidth float32

	// SearchNode is the colour of search nodes and SearchParent of the line
	// to each node's parent; ClosedPolygon fills the polygons the search
	// closed.
	SearchNode, SearchParent, ClosedPolygon color.NRGBA
	SearchNodeSize, SearchParentWidth       float32
	// SearchLift raises search nodes above the surface [Units: world units]
	SearchLift float32

	// Corridor fills the polygons of a corridor.
	Corridor color.NRGBA
	// Path is the colour of a straight path, PathWidth its width and
	// PathCornerSize the size of its corners.
	Path                      color.NRGBA
	PathWidth, PathCornerSize float32
	// PathLift raises straight paths above the surface [Units: world units]
	PathLift float32

	// Agent is the colour of agents; AgentSelected of a selected one.
	Agent, AgentSelected color.NRGBA
	AgentWidth           float32
	// Velocity and DesiredVelocity colour the velocity arrows.
	Velocity, DesiredVelocity color.NRGBA
	VelocityWidth             float32
	// Target marks an agent's target.
	Target color.NRGBA
	// Corner is the colour of the line through an agent's next corners.
	Corner      color.NRGBA
	CornerWidth float32
	// Neighbour links an agent to its neighbours.
	Neighbour      color.NRGBA
	NeighbourWidth float32
	// Boundary is the colour of an agent's local wall segments facing it;
	// segments facing away are drawn darker.
	Boundary      color.NRGBA
	BoundaryWidth float32
	// SampleBest and SampleWorst colour avoidance samples by penalty,
	// SampleSide adds the side preference.
	SampleBest, SampleWorst, SampleSide color.NRGBA

	// ObstaclePending, ObstacleBuilding, ObstacleUpToDate and
	// ObstacleRemoving fill tile cache obstacles by status (RecastDemo's
	// processing, processed and removing colours); their edges take the
	// fill darkened, ObstacleWidth wide.
	ObstaclePending, ObstacleBuilding, ObstacleUpToDate, ObstacleRemoving color.NRGBA
	// ObstacleAvoided fills an obstacle the agents steer around (a moving
	// one, or a carving one whose hole is not in the navmesh yet);
	// ObstacleRefused one the tile cache refused.
	ObstacleAvoided, ObstacleRefused color.NRGBA
	ObstacleWidth                    float32
	// ContourWidth is the width of layer contours and PolyMesh edges;
	// PortalMark the colour of the ticks showing where a portal leads.
	ContourWidth float32
	PortalMark   color.NRGBA
}

// DefaultStyle returns RecastDemo's colours and widths, with polygons
// somewhat more opaque so that they read on their own over a plain
// background.
func DefaultStyle() Style {
	return Style{
		PolygonAlpha: 128,

		InnerEdge:       color.NRGBA{0, 48, 64, 48},
		InnerEdgeWidth:  1.5,
		Wall:            color.NRGBA{0, 48, 64, 220},
		WallWidth:       2.5,
		Portal:          color.NRGBA{255, 255, 255, 96},
		OpenBorder:      color.NRGBA{0, 0, 0, 96},
		BorderWidth:     1.5,
		TileBounds:      color.NRGBA{255, 255, 255, 64},
		TileBoundsWidth: 1,

		OffMeshUnlinked: color.NRGBA{220, 32, 16, 196},
		OffMeshWidth:    2,
		OffMeshLift:     0.25,

		Vertex:      color.NRGBA{0, 0, 0, 196},
		VertexSize:  3,
		BVNode:      color.NRGBA{255, 255, 255, 128},
		BVNodeWidth: 1,

		SearchNode:        color.NRGBA{255, 192, 0, 255},
		SearchParent:      color.NRGBA{255, 192, 0, 128},
		ClosedPolygon:     color.NRGBA{255, 196, 0, 64},
		SearchNodeSize:    4,
		SearchParentWidth: 2,
		SearchLift:        0.1,

		Corridor:       color.NRGBA{255, 255, 255, 48},
		Path:           color.NRGBA{64, 16, 0, 220},
		PathWidth:      2,
		PathCornerSize: 5,
		PathLift:       0.1,

		Agent:           color.NRGBA{220, 220, 220, 192},
		AgentSelected:   color.NRGBA{255, 0, 0, 192},
		AgentWidth:      2,
		Velocity:        color.NRGBA{0, 0, 0, 160},
		DesiredVelocity: color.NRGBA{0, 192, 255, 192},
		VelocityWidth:   2,
		Target:          color.NRGBA{255, 255, 255, 192},
		Corner:          color.NRGBA{128, 0, 0, 192},
		CornerWidth:     2,
		Neighbour:       color.NRGBA{0, 192, 128, 128},
		NeighbourWidth:  2,
		Boundary:        color.NRGBA{192, 0, 128, 192},
		BoundaryWidth:   3,
		SampleBest:      color.NRGBA{255, 255, 255, 220},
		SampleWorst:     color.NRGBA{128, 96, 0, 220},
		SampleSide:      color.NRGBA{128, 0, 0, 220},

		ObstaclePending:  color.NRGBA{255, 255, 0, 128},
		ObstacleBuilding: color.NRGBA{255, 224, 0, 160},
		ObstacleUpToDate: color.NRGBA{255, 192, 0, 192},
		ObstacleRemoving: color.NRGBA{220, 0, 0, 128},
		ObstacleAvoided:  color.NRGBA{160, 96, 255, 160},
		ObstacleRefused:  color.NRGBA{255, 32, 16, 160},
		ObstacleWidth:    2,
		ContourWidth:     2,
		PortalMark:       color.NRGBA{255, 0, 0, 255},
	}
}

// AreaColorAt returns the colour of area at alpha a: AreaColor's, or
// debugdraw.AreaColor's when AreaColor is nil.
func (s *Style) AreaColorAt(area uint8, a uint8) color.NRGBA { return s.areaColor(area, a) }

// areaColor returns the colour of area at alpha a.
func (s *Style) areaColor(area uint8, a uint8) color.NRGBA {
	if s.AreaColor != nil {
		return debugdraw.WithAlpha(s.AreaColor(area), a)
	}
	return debugdraw.AreaColor(area, a)
}

// polygonFill returns the fill of ground polygon index of tile.
func (s *Style) polygonFill(tile *navmesh.Tile, index int) color.NRGBA {
	switch {
	case s.PolygonColor != nil:
		return s.PolygonColor(tile, index)
	case s.ColorByTile:
		return debugdraw.IndexColor(tile.Index()+1, s.PolygonAlpha)
	}
	return s.areaColor(tile.Polys[index].Area(), s.PolygonAlpha)
}
