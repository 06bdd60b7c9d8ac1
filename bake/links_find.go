package bake

import (
	"math"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// linkSample is what the link search found at one point of a boundary edge.
type linkSample struct {
	// start is the point on the mesh, just inside the edge, a link would
	// leave from; end is where it lands [Units: world units]
	start, end mgl32.Vec3
	// normalX and normalZ point out of the mesh across the edge.
	normalX, normalZ float32
	// kind is LinkDrop or LinkJump, LinkPlain when no landing passed.
	kind navmesh.LinkKind
	// bidirectional is set for jumps that can be taken back.
	bidirectional bool
}

// linkEdge is one boundary edge of the mesh, from its first vertex to its
// second in polygon order, with its samples.
type linkEdge struct {
	from, to mgl32.Vec3
	// samples are those of the edge, in order from from to to.
	samples []linkSample
}

// linkFinder searches landings for the samples of boundary edges. It holds
// scratch buffers: give each goroutine its own (see clone).
type linkFinder struct {
	links LinkSettings
	// radius, height and climb are the agent's [Units: world units]
	radius, height, climb float32
	cellSize, cellHeight  float32
	// origin is the corner of the level's cell grid [Units: world units]
	origin mgl32.Vec3
	mesh   *navmesh.Mesh
	snap   *navmesh.Snapshot
	solid  solidField

	// midTolerance is how far above the path the body check starts away
	// from the ends: the feet may brush this much of an obstacle
	// [Units: world units]
	midTolerance float32
	// jumpArc is the jump height as the links' UserID stores it.
	jumpArc float32
	// nudge is how far inside the edge a link starts [Units: world units]
	nudge float32
	// risingShare is the share of a jump's length, from its start, over
	// which its path stays at or above the start's height, at the least:
	// 2·√h1 / (√h1 + √h2) for the deepest jump, h1 = JumpHeight and h2 =
	// JumpHeight + JumpMaxDown.
	risingShare float32

	tiles      []*navmesh.Tile
	refs       []navmesh.Ref
	candidates []groundCandidate
	spans      [][2]uint16
}

// newLinkFinder prepares a search over mesh (the baked tiles without their
// automatic links) and solid, on the grid whose corner is origin.
func newLinkFinder(s *Settings, mesh *navmesh.Mesh, solid solidField, origin mgl32.Vec3) *linkFinder {
	return &linkFinder{
		links:        s.Links,
		radius:       s.AgentRadius,
		height:       s.AgentHeight,
		climb:        s.AgentMaxClimb,
		cellSize:     s.CellSize,
		cellHeight:   s.CellHeight,
		origin:       origin,
		mesh:         mesh,
		snap:         mesh.Snapshot(),
		solid:        solid,
		midTolerance: 1.5 * s.CellHeight,
		jumpArc:      navmesh.QuantizeLinkArc(s.Links.JumpHeight),
		nudge:        s.CellSize / 4,
		risingShare:  risingShare(navmesh.QuantizeLinkArc(s.Links.JumpHeight), s.Links.JumpMaxDown),
	}
}

// risingShare is the share of a jump's length over which the arc of height
// arc above its start stays at or above the start, for a jump down by fall.
func risingShare(arc, fall float32) float32 {
	rise, drop := math.Sqrt(float64(max(arc, 0))), math.Sqrt(float64(max(arc+fall, 0)))
	if rise+drop == 0 {
		return 0
	}
	return float32(2 * rise / (rise + drop))
}

// clone returns a finder sharing f's inputs with scratch buffers of its own.
func (f *linkFinder) clone() *linkFinder {
	c := *f
	c.tiles, c.refs, c.candidates, c.spans = nil, nil, nil, nil
	return &c
}

// sampleTile appends to edges the open boundary edges of tile's walkable
// polygons with their samples: edges without a neighbour, and tile border
// edges nothing links to. Polygons without flags are left out (no filter
// passes them).
func (f *linkFinder) sampleTile(tile *navmesh.Tile, edges []linkEdge) []linkEdge {
	groundCount := int(tile.Data.Header.OffMeshBase)
	for pi := 0; pi < groundCount && pi < len(tile.Polys); pi++ {
		poly := &tile.Polys[pi]
		if poly.Type() != navmesh.PolyTypeGround || poly.Flags == 0 {
			continue
		}
		n := int(poly.VertCount)
		var cx, cz float32
		for j := range n {
			cx += tile.Verts[poly.Verts[j]][0]
			cz += tile.Verts[poly.Verts[j]][2]
		}
		cx, cz = cx/float32(n), cz/float32(n)
		for j := range n {
			if !openEdge(tile, poly, j) {
				continue
			}
			from, to := tile.Verts[poly.Verts[j]], tile.Verts[poly.Verts[(j+1)%n]]
			edge, ok := f.sampleEdge(tile, poly, from, to, cx, cz)
			if ok {
				edges = append(edges, edge)
			}
		}
	}
	return edges
}

// openEdge reports whether edge j of poly is a wall or a tile border edge
// without links.
func openEdge(tile *navmesh.Tile, poly *navmesh.Poly, j int) bool {
	neighbour := poly.Neighbours[j]
	if neighbour == 0 {
		return true
	}
	if neighbour&navmesh.ExternalLink == 0 {
		return false
	}
	for l := poly.FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
		if int(tile.Links[l].Edge) == j {
			return false
		}
	}
	return true
}

// sampleEdge samples the edge from → to of poly, whose vertices average
// (cx, cz): one sample in the middle of every piece at most a cell long.
func (f *linkFinder) sampleEdge(tile *navmesh.Tile, poly *navmesh.Poly, from, to mgl32.Vec3, cx, cz float32) (linkEdge, bool) {
	dx, dz := to[0]-from[0], to[2]-from[2]
	length := float32(math.Sqrt(float64(float32(dx*dx) + float32(dz*dz))))
	if !(length > 1e-4) {
		return linkEdge{}, false
	}
	nx, nz := dz/length, -dx/length
	// Outward: away from the polygon's middle.
	if float32(nx*(float32((from[0]+to[0])/2)-cx))+float32(nz*(float32((from[2]+to[2])/2)-cz)) < 0 {
		nx, nz = -nx, -nz
	}
	count := max(1, int(math.Ceil(float64(length/f.cellSize))))
	edge := linkEdge{from: from, to: to, samples: make([]linkSample, count)}
	nudge := f.nudge
	for k := range count {
		t := (float32(k) + 0.5) / float32(count)
		onEdge := mgl32.Vec3{from[0] + float32(dx*t), from[1] + float32((to[1]-from[1])*t), from[2] + float32(dz*t)}
		start := mgl32.Vec3{onEdge[0] - float32(nx*nudge), onEdge[1], onEdge[2] - float32(nz*nudge)}
		start, _ = tile.ClosestPointOnPoly(poly, start)
		edge.samples[k] = f.findLanding(onEdge, start, nx, nz)
	}
	return edge, true
}

// findLanding walks out from onEdge along (nx, nz) a cell at a time and
// returns the first landing of an enabled kind whose path the agent's body
// clears, leaving from start; the sample's kind is LinkPlain when there is
// none.
func (f *linkFinder) findLanding(onEdge, start mgl32.Vec3, nx, nz float32) linkSample {
	sample := linkSample{start: start, normalX: nx, normalZ: nz}
	l := &f.links
	lowest, highest := float32(math.Inf(1)), float32(math.Inf(-1))
	if l.Drops {
		lowest = min(lowest, start[1]-l.DropMaxHeight)
		highest = max(highest, start[1]-f.climb)
	}
	if l.Jumps {
		lowest = min(lowest, start[1]-l.JumpMaxDown)
		highest = max(highest, start[1]+l.JumpMaxUp)
	}
	// No landing lies nearer than the other side's erosion and ours, less
	// a cell for the voxels.
	first := max(1, int(math.Ceil(float64((float32(2*f.radius)-f.cellSize)/f.cellSize))))
	last := int(math.Floor(float64(l.reach(f.radius)/f.cellSize + 1e-3)))
	// A wall on the way out blocks every drop beyond it and every jump that
	// passes it still rising (see wallIn); from there on those landings
	// need no search.
	dropWall, jumpWall := float32(-1), float32(-1)
	gathered := false // f.candidates hold this ray's polygons
	for k := 1; k <= last; k++ {
		distance := float32(float32(k) * f.cellSize)
		probe := mgl32.Vec3{onEdge[0] + float32(nx*distance), 0, onEdge[2] + float32(nz*distance)}
		x, z := f.cellAt(probe)
		column := f.solid.column(x, z, &f.spans)
		if dropWall < 0 || jumpWall < 0 {
			blocksDrops, blocksJumps := f.wallIn(column, start[1])
			if blocksDrops && dropWall < 0 {
				dropWall = distance
			}
			if blocksJumps && jumpWall < 0 {
				jumpWall = distance
			}
		}
		dropsLeft := l.Drops && dropWall < 0
		jumpsLeft := l.Jumps && (jumpWall < 0 || jumpWall+f.nudge > f.risingShare*(distance+f.nudge))
		if !dropsLeft && !jumpsLeft {
			break // and no further out either
		}
		if k < first || !f.maybeGround(column, lowest, highest) {
			continue
		}
		if !gathered {
			far := mgl32.Vec3{onEdge[0] + float32(nx*float32(last)*f.cellSize), 0, onEdge[2] + float32(nz*float32(last)*f.cellSize)}
			f.gatherGround(probe, far, lowest, highest)
			gathered = true
		}
		y, ok := f.ground(probe, lowest, highest)
		if !ok {
			continue
		}
		end := mgl32.Vec3{probe[0], y, probe[2]}
		kind, bidirectional := f.classify(start[1], y, distance)
		if kind == navmesh.LinkPlain || (kind == navmesh.LinkDrop && !dropsLeft) || (kind == navmesh.LinkJump && !jumpsLeft) {
			continue
		}
		arc := float32(0)
		if kind == navmesh.LinkJump {
			arc = f.jumpArc
		}
		if f.pathClear(kind, start, end, arc) {
			sample.end, sample.kind, sample.bidirectional = end, kind, bidirectional
			return sample
		}
	}
	return sample
}

// classify tells what a landing at height endY, distance from the edge,
// would be for a start at height startY: a drop, a jump (bidirectional
// when it can be taken back) or nothing (LinkPlain).
func (f *linkFinder) classify(startY, endY, distance float32) (navmesh.LinkKind, bool) {
	l := &f.links
	fall := startY - endY
	if l.Drops && fall > f.climb && fall <= l.DropMaxHeight && distance <= float32(2*f.radius)+l.DropMaxOut {
		return navmesh.LinkDrop, false
	}
	if l.Jumps && -fall <= l.JumpMaxUp && fall <= l.JumpMaxDown && distance <= float32(2*f.radius)+l.JumpMaxGap {
		return navmesh.LinkJump, fall <= l.JumpMaxUp
	}
	return navmesh.LinkPlain, false
}

// wallIn reports whether column holds a wall no path out from a start at
// height startY gets past: blocksDrops for a span reaching from below
// startY + AgentHeight to above startY + the feet's largest tolerance (a
// drop walks through at startY), blocksJumps for one reaching above the
// highest a rising jump's body bottom gets there (startY + JumpMaxUp +
// JumpHeight + that tolerance). A jump's path stays at or above startY over
// the share risingShare of its length (reached when it jumps down
// JumpMaxDown; more for shallower jumps), so a wall in that share blocks
// it.
func (f *linkFinder) wallIn(column [][2]uint16, startY float32) (blocksDrops, blocksJumps bool) {
	tolerance := max(f.climb, f.midTolerance)
	below := (startY + f.height - f.origin[1]) / f.cellHeight
	overDrops := (startY + tolerance - f.origin[1]) / f.cellHeight
	overJumps := (startY + f.links.JumpMaxUp + f.jumpArc + tolerance - f.origin[1]) / f.cellHeight
	return spansAcross(column, below, overDrops), spansAcross(column, below, overJumps)
}

// cellAt returns the column of the grid under p.
func (f *linkFinder) cellAt(p mgl32.Vec3) (x, z int) {
	return int(math.Floor(float64((p[0] - f.origin[0]) / f.cellSize))), int(math.Floor(float64((p[2] - f.origin[2]) / f.cellSize)))
}

// maybeGround reports whether column has a top within a few cell heights
// of [lowest, highest]: the mesh has no ground over it otherwise (its
// surface follows the voxels' tops to within the detail mesh's error),
// which spares most searches of the mesh.
func (f *linkFinder) maybeGround(column [][2]uint16, lowest, highest float32) bool {
	const margin = 3 // cell heights
	low := (lowest-f.origin[1])/f.cellHeight - margin
	high := (highest-f.origin[1])/f.cellHeight + margin
	return spansTopWithin(column, low, high)
}

// groundProbe is the half size of the box the ground search queries around
// its point [Units: world units].
const groundProbe = 1e-3

// groundCandidate is a walkable polygon a ray's probes may land on, with
// its bounds in the xz-plane.
type groundCandidate struct {
	tile                   *navmesh.Tile
	poly                   *navmesh.Poly
	minX, minZ, maxX, maxZ float32
}

// gatherGround collects in f.candidates the walkable polygons (those with
// flags) whose bounds overlap the box over the segment from..to in the
// xz-plane and [lowest, highest] in height: one search of the mesh for all
// the probes of a ray.
func (f *linkFinder) gatherGround(from, to mgl32.Vec3, lowest, highest float32) {
	f.candidates = f.candidates[:0]
	qmin := mgl32.Vec3{min(from[0], to[0]) - groundProbe, lowest, min(from[2], to[2]) - groundProbe}
	qmax := mgl32.Vec3{max(from[0], to[0]) + groundProbe, highest, max(from[2], to[2]) + groundProbe}
	x0, y0 := f.mesh.CalcTileLoc(qmin)
	x1, y1 := f.mesh.CalcTileLoc(qmax)
	for ty := y0; ty <= y1; ty++ {
		for tx := x0; tx <= x1; tx++ {
			f.tiles = f.snap.TilesAt(tx, ty, f.tiles[:0])
			for _, tile := range f.tiles {
				f.refs = tile.QueryPolygons(qmin, qmax, f.refs[:0])
				for _, ref := range f.refs {
					poly := &tile.Polys[ref.PolyIndex()]
					if poly.Flags == 0 {
						continue
					}
					c := groundCandidate{tile: tile, poly: poly, minX: math.MaxFloat32, minZ: math.MaxFloat32, maxX: -math.MaxFloat32, maxZ: -math.MaxFloat32}
					for _, v := range poly.Verts[:poly.VertCount] {
						p := tile.Verts[v]
						c.minX, c.maxX = min(c.minX, p[0]), max(c.maxX, p[0])
						c.minZ, c.maxZ = min(c.minZ, p[2]), max(c.maxZ, p[2])
					}
					f.candidates = append(f.candidates, c)
				}
			}
		}
	}
}

// ground returns the height of the highest of f.candidates over the xz
// position of probe whose surface there lies in [lowest, highest].
func (f *linkFinder) ground(probe mgl32.Vec3, lowest, highest float32) (float32, bool) {
	best, found := float32(0), false
	for i := range f.candidates {
		c := &f.candidates[i]
		if probe[0] < c.minX-groundProbe || probe[0] > c.maxX+groundProbe || probe[2] < c.minZ-groundProbe || probe[2] > c.maxZ+groundProbe {
			continue
		}
		h, ok := c.tile.PolyHeight(c.poly, probe)
		if ok && h >= lowest && h <= highest && (!found || h > best) {
			best, found = h, true
		}
	}
	return best, found
}

// pathClear reports whether the agent's body fits along the path of a link
// of kind from start to end (navmesh.LinkPath), sampled at least every
// min(CellSize, CellHeight): at each point no solid voxel whose column's
// centre lies within AgentRadius may reach into the body, from a little
// above the feet (see bodyBlocked) to AgentHeight above them.
func (f *linkFinder) pathClear(kind navmesh.LinkKind, start, end mgl32.Vec3, arc float32) bool {
	dx, dz := end[0]-start[0], end[2]-start[2]
	length := float32(math.Sqrt(float64(float32(dx*dx)+float32(dz*dz)))) + abs32(end[1]-start[1]) + float32(2*arc)
	step := min(f.cellSize, f.cellHeight)
	n := max(2, int(math.Ceil(float64(length/step))))
	for i := 0; i <= n; i++ {
		u := float32(i) / float32(n)
		p := navmesh.LinkPath(kind, start, end, arc, u)
		walking := kind == navmesh.LinkDrop && u <= 0.5
		if f.bodyBlocked(p, start, end, walking) {
			return false
		}
	}
	return true
}

// bodyBlocked reports whether solid voxels reach into the agent's body with
// its feet at p. The body starts AgentMaxClimb above the feet where the
// agent stands or walks, as it steps over as much (within AgentRadius of
// an end and no higher than AgentMaxClimb above it, or walking off a
// ledge), and midTolerance above them in flight.
func (f *linkFinder) bodyBlocked(p, start, end mgl32.Vec3, walking bool) bool {
	tolerance := f.midTolerance
	radiusSqr := f.radius * f.radius
	if walking ||
		(dist2DSqr(p, start) <= radiusSqr && p[1]-start[1] <= f.climb) ||
		(dist2DSqr(p, end) <= radiusSqr && p[1]-end[1] <= f.climb) {
		tolerance = f.climb
	}
	low := (p[1] + tolerance - f.origin[1]) / f.cellHeight
	high := (p[1] + f.height - f.origin[1]) / f.cellHeight
	cx := (p[0] - f.origin[0]) / f.cellSize
	cz := (p[2] - f.origin[2]) / f.cellSize
	reach := f.radius / f.cellSize
	x0, x1 := int(math.Floor(float64(cx-reach))), int(math.Floor(float64(cx+reach)))
	z0, z1 := int(math.Floor(float64(cz-reach))), int(math.Floor(float64(cz+reach)))
	own := [2]int{int(math.Floor(float64(cx))), int(math.Floor(float64(cz)))}
	for z := z0; z <= z1; z++ {
		for x := x0; x <= x1; x++ {
			ox, oz := float32(x)+0.5-cx, float32(z)+0.5-cz
			if float32(ox*ox)+float32(oz*oz) > reach*reach && (x != own[0] || z != own[1]) {
				continue
			}
			if spansReachInto(f.solid.column(x, z, &f.spans), low, high) {
				return true
			}
		}
	}
	return false
}

func dist2DSqr(a, b mgl32.Vec3) float32 {
	dx, dz := a[0]-b[0], a[2]-b[2]
	return float32(dx*dx) + float32(dz*dz)
}
