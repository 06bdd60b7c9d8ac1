package tilecache

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// ObstacleStatus says how far the navmesh shows an obstacle: the states
// RecastDemo colours its obstacles by (dtObstacleState), with the wait for
// a rebuild told apart from the wait for Update.
type ObstacleStatus uint8

// Obstacle statuses.
const (
	// ObstaclePending: added or moved, the change not yet resolved by an
	// Update (DT_OBSTACLE_PROCESSING before its layers are queued).
	ObstaclePending ObstacleStatus = iota + 1
	// ObstacleBuilding: resolved, but a layer it marks still waits for its
	// rebuild (an Update's budget ran out; DT_OBSTACLE_PROCESSING).
	ObstacleBuilding
	// ObstacleUpToDate: the navmesh shows the obstacle as it is
	// (DT_OBSTACLE_PROCESSED); ObstacleUpToDate reports true.
	ObstacleUpToDate
	// ObstacleRemoving: removed, until the Update that clears its layers
	// and frees its slot (DT_OBSTACLE_REMOVING).
	ObstacleRemoving
)

// String returns "pending", "building", "up to date" or "removing".
func (s ObstacleStatus) String() string {
	switch s {
	case ObstaclePending:
		return "pending"
	case ObstacleBuilding:
		return "building"
	case ObstacleUpToDate:
		return "up to date"
	case ObstacleRemoving:
		return "removing"
	}
	return "unknown"
}

// ObstacleInfo describes one obstacle of the cache, for drawing and
// inspection.
type ObstacleInfo struct {
	// Ref is the obstacle's handle; for a removed obstacle (Status
	// ObstacleRemoving) the handle it had, which no longer works.
	Ref ObstacleRef
	// Obstacle is its shape and place as last changed.
	Obstacle Obstacle
	// Status says how far the navmesh shows it.
	Status ObstacleStatus
	// BMin and BMax bound it as the cache finds its layers
	// (dtTileCache::getObstacleBounds; an oriented box's bounds take its
	// larger half size times 1.41 in x and z) [Units: world units].
	BMin, BMax mgl32.Vec3
}

// Obstacles appends every obstacle of the cache to dst in slot order,
// removed ones included until the next Update resolves their removal, and
// returns it. It allocates only when dst is too small.
func (c *Cache) Obstacles(dst []ObstacleInfo) []ObstacleInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	for slot := range c.obstacles {
		s := &c.obstacles[slot]
		info := ObstacleInfo{
			Ref:      obstacleRef(s.salt, uint32(slot)),
			Obstacle: s.placed.Obstacle,
			BMin:     s.placed.bmin,
			BMax:     s.placed.bmax,
		}
		switch s.state {
		case obstacleFree:
			continue
		case obstacleRemoving:
			info.Status = ObstacleRemoving
			// RemoveObstacle moved the salt on; the handle had the one
			// before (never 0).
			salt := s.salt - 1
			if salt == 0 {
				salt = ^uint32(0)
			}
			info.Ref = obstacleRef(salt, uint32(slot))
		case obstacleActive:
			info.Status = ObstacleUpToDate
			if s.queued {
				info.Status = ObstaclePending
				break
			}
			for _, l := range s.layers {
				if c.layers[l].pending {
					info.Status = ObstacleBuilding
					break
				}
			}
		}
		dst = append(dst, info)
	}
	return dst
}

// The neighbour codes of LayerPolygon.Neighbours other than a polygon
// index.
const (
	// EdgeWall marks a polygon edge with nothing across it.
	EdgeWall uint16 = 0xffff
	// EdgePortal, or-ed with a direction (0 -x, 1 +z, 2 +x, 3 -z), marks an
	// edge on the layer's border that leads into the neighbouring tile.
	EdgePortal uint16 = 0x8000
)

// MaxLayerPolygonVertices is the most vertices of a LayerPolygon (the tile
// cache builds polygons of up to 6, as RecastDemo's TempObstacles sample).
const MaxLayerPolygonVertices = maxPolyVerts

// ContourVertex is one corner of a layer contour, in the layer's cells.
type ContourVertex struct {
	// X and Z are the corner's position in cells from the layer's BMin
	// [Units: cells of CellSize].
	X, Z uint8
	// Height is the corner's floor height above the layer's BMin
	// [Units: cells of CellHeight].
	Height uint8
	// Portal is the direction (0 -x, 1 +z, 2 +x, 3 -z) of the tile border
	// the edge from this corner to the next runs along, or NoPortal.
	Portal uint8
	// Removable reports a corner the poly mesh stage may remove (it lies on
	// a straight run of a tile border).
	Removable bool
}

// NoPortal is ContourVertex.Portal of an edge that is no portal.
const NoPortal uint8 = portalNone

// LayerContour is one region's simplified outline
// (dtTileCacheContour).
type LayerContour struct {
	// Vertices are the corners in order around the region.
	Vertices []ContourVertex
	// Region and Area are the region's id and area.
	Region, Area uint8
}

// LayerPolygon is one polygon of a layer's poly mesh.
type LayerPolygon struct {
	// Vertices index LayerStages.Vertices; the first Count are used.
	Vertices [MaxLayerPolygonVertices]uint16
	// Neighbours describe the edge from Vertices[j] to the next: the
	// index of the polygon across it, EdgeWall, or EdgePortal|direction.
	Neighbours [MaxLayerPolygonVertices]uint16
	// Count is the number of vertices [Limit: 3..MaxLayerPolygonVertices].
	Count int
	// Area is the polygon's area id.
	Area uint8
}

// LayerStages are the intermediate results of building one layer's tile
// (what RecastDemo's TempObstacles sample draws of a tile): the layer with
// the obstacles marked, its regions, their contours and the poly mesh, all
// in cells of the layer (multiply by CellSize and CellHeight and add the
// header's BMin for world units).
type LayerStages struct {
	// Layer is the decompressed layer with every obstacle that marks it
	// applied (carved cells NullArea, area volumes their area). Its grids
	// are the caller's.
	Layer Layer
	// Regions holds each cell's region, 0xff where there is none; there
	// are RegionCount regions, 0..RegionCount-1.
	Regions     []uint8
	RegionCount int
	// Contours are the regions' outlines, in region order; a region whose
	// outline simplified away has no vertices.
	Contours []LayerContour
	// Vertices are the poly mesh's vertices: x, height, z in cells.
	Vertices [][3]uint16
	// Polygons are the poly mesh's polygons.
	Polygons []LayerPolygon
}

// LayerStages rebuilds layer ref with the obstacles that mark it now (as
// the last Update resolved them) and returns every stage's result, for
// drawing or inspection. It changes nothing in the cache or the mesh and
// allocates its result. Errors wrap ErrInvalidLayerRef, ErrLayerTooComplex
// or ErrCorruptData.
func (c *Cache) LayerStages(ref LayerRef) (*LayerStages, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.layerByRef(ref)
	if !ok {
		return nil, fmt.Errorf("tilecache: layer stages %#x: %w", uint32(ref), ErrInvalidLayerRef)
	}
	l := &c.layers[slot]
	b := newBuilder(int(l.header.Width), int(l.header.Height))
	in := buildInput{
		params:     &c.params,
		compressor: c.compressor,
		header:     l.header,
		data:       l.data,
		obstacles:  l.obstacles,
		slots:      c.obstacles,
	}
	if err := b.buildPolygons(&in); err != nil {
		return nil, err
	}
	cells := int(l.header.Width) * int(l.header.Height)
	out := &LayerStages{
		Layer: Layer{
			Header:  b.layer.Header,
			Heights: append([]uint8(nil), b.layer.Heights[:cells]...),
			Areas:   append([]uint8(nil), b.layer.Areas[:cells]...),
			Cons:    append([]uint8(nil), b.layer.Cons[:cells]...),
		},
		Regions:     append([]uint8(nil), b.regs[:cells]...),
		RegionCount: b.regionCount,
		Contours:    make([]LayerContour, len(b.contours)),
		Vertices:    append([][3]uint16(nil), b.meshVerts...),
		Polygons:    make([]LayerPolygon, b.polyCount),
	}
	for i, cont := range b.contours {
		oc := &out.Contours[i]
		oc.Region, oc.Area = cont.region, cont.area
		oc.Vertices = make([]ContourVertex, cont.count)
		for j := range cont.count {
			v := b.contourVerts[cont.start+4*j : cont.start+4*j+4]
			oc.Vertices[j] = ContourVertex{X: v[0], Height: v[1], Z: v[2], Portal: v[3] & 0x0f, Removable: v[3]&removableVertex != 0}
		}
	}
	for i := range out.Polygons {
		p := b.meshPolys[i*polyStride : (i+1)*polyStride]
		op := &out.Polygons[i]
		op.Area = b.meshAreas[i]
		for j := range maxPolyVerts {
			if p[j] == nullIndex {
				break
			}
			op.Vertices[j], op.Neighbours[j] = p[j], p[maxPolyVerts+j]
			op.Count++
		}
	}
	return out, nil
}
