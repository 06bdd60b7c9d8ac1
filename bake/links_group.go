package bake

import (
	"math"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// placedLink is a link the grouping placed, with the index of the tile
// whose edges it came from (in the order the tiles' edges were given).
type placedLink struct {
	connection OffMeshConnection
	source     int
}

// linkGrouper turns the samples of the mesh's boundary edges into links:
// it chains the edges into outlines, splits each outline into segments of
// neighbouring samples that found the same kind of landing, drops segments
// narrower than the agent and places links along the others, Spacing
// apart.
type linkGrouper struct {
	links                LinkSettings
	radius, climb        float32
	cellSize, cellHeight float32
	origin               mgl32.Vec3
	jumpArc              float32
}

func newLinkGrouper(s *Settings, origin mgl32.Vec3) *linkGrouper {
	return &linkGrouper{
		links:      s.Links,
		radius:     s.AgentRadius,
		climb:      s.AgentMaxClimb,
		cellSize:   s.CellSize,
		cellHeight: s.CellHeight,
		origin:     origin,
		jumpArc:    navmesh.QuantizeLinkArc(s.Links.JumpHeight),
	}
}

// chainedSample is a sample with the tile its edge came from.
type chainedSample struct {
	*linkSample
	source int
}

// place returns the links of the edges of each source (a tile), in a
// deterministic order: outlines in the order of their first edge, links
// along each outline in its order.
func (g *linkGrouper) place(sources [][]linkEdge) []placedLink {
	type edgeRef struct{ source, index int }
	var edges []edgeRef
	for s, list := range sources {
		for i := range list {
			edges = append(edges, edgeRef{s, i})
		}
	}
	edge := func(e int) *linkEdge { return &sources[edges[e].source][edges[e].index] }

	// Chain: the edge after e starts where e ends (the same grid vertex,
	// within a climb in height), first come first served.
	starts := make(map[[2]int32][]int, len(edges))
	for e := range edges {
		key := g.vertexKey(edge(e).from)
		starts[key] = append(starts[key], e)
	}
	next := make([]int, len(edges))
	hasPrevious := make([]bool, len(edges))
	for e := range edges {
		next[e] = -1
		end := edge(e).to
		for _, c := range starts[g.vertexKey(end)] {
			if c != e && !hasPrevious[c] && abs32(edge(c).from[1]-end[1]) <= g.climb {
				next[e], hasPrevious[c] = c, true
				break
			}
		}
	}

	var placed []placedLink
	visited := make([]bool, len(edges))
	var outline []chainedSample
	walk := func(first int) (closed bool) {
		outline = outline[:0]
		e := first
		for e != -1 && !visited[e] {
			visited[e] = true
			for i := range edge(e).samples {
				outline = append(outline, chainedSample{&edge(e).samples[i], edges[e].source})
			}
			e = next[e]
		}
		return e == first
	}
	// Open outlines from their first edge, then the closed ones.
	for e := range edges {
		if !hasPrevious[e] && !visited[e] {
			walk(e)
			placed = g.placeOutline(outline, false, placed)
		}
	}
	for e := range edges {
		if !visited[e] {
			closed := walk(e)
			placed = g.placeOutline(outline, closed, placed)
		}
	}
	return g.dropMirrored(placed)
}

// vertexKey is the grid vertex nearest to v in the xz-plane.
func (g *linkGrouper) vertexKey(v mgl32.Vec3) [2]int32 {
	return [2]int32{
		int32(math.Round(float64((v[0] - g.origin[0]) / g.cellSize))),
		int32(math.Round(float64((v[2] - g.origin[2]) / g.cellSize))),
	}
}

// compatible reports whether neighbouring samples a and b belong to one
// segment: both found a landing of the same kind and direction, the
// landings lie within a climb in height and about as far apart as the
// starts, and the edge turns by less than 45° between them.
func (g *linkGrouper) compatible(a, b *linkSample) bool {
	if a.kind == navmesh.LinkPlain || a.kind != b.kind || a.bidirectional != b.bidirectional {
		return false
	}
	if abs32(a.end[1]-b.end[1]) > g.climb {
		return false
	}
	if dist2D(a.end, b.end) > dist2D(a.start, b.start)+float32(2*g.cellSize) {
		return false
	}
	return float32(a.normalX*b.normalX)+float32(a.normalZ*b.normalZ) >= math.Sqrt2/2
}

// placeOutline appends the links of one outline's samples to placed; a
// closed outline's last sample neighbours its first.
func (g *linkGrouper) placeOutline(outline []chainedSample, closed bool, placed []placedLink) []placedLink {
	n := len(outline)
	if n == 0 {
		return placed
	}
	// Start the walk at a break, so that no segment wraps around.
	begin := 0
	wholeLoop := false
	if closed {
		begin = -1
		for i := range n {
			if !g.compatible(outline[(i+n-1)%n].linkSample, outline[i].linkSample) {
				begin = i
				break
			}
		}
		if begin < 0 {
			begin, wholeLoop = 0, true
		}
	}
	var segment []chainedSample
	for k := 0; k < n; k++ {
		s := outline[(begin+k)%n]
		if len(segment) > 0 && !g.compatible(segment[len(segment)-1].linkSample, s.linkSample) {
			placed = g.placeSegment(segment, false, placed)
			segment = segment[:0]
		}
		if s.kind != navmesh.LinkPlain {
			segment = append(segment, s)
		}
	}
	return g.placeSegment(segment, wholeLoop, placed)
}

// placeSegment appends the links of one segment of compatible samples: none
// when its starts or its landings span less than the agent's width (each
// sample standing for a cell of edge), else links Spacing apart, centred,
// none nearer than AgentRadius to the segment's ends, each at the sample
// nearest its place.
func (g *linkGrouper) placeSegment(segment []chainedSample, loop bool, placed []placedLink) []placedLink {
	if len(segment) == 0 {
		return placed
	}
	// along[i] is sample i's place along the segment.
	along := make([]float32, len(segment))
	along[0] = g.cellSize / 2
	landingSpan := g.cellSize
	for i := 1; i < len(segment); i++ {
		along[i] = along[i-1] + dist2D(segment[i-1].start, segment[i].start)
		landingSpan += dist2D(segment[i-1].end, segment[i].end)
	}
	width := along[len(along)-1] + float32(g.cellSize/2)
	if loop {
		last, first := segment[len(segment)-1], segment[0]
		width += dist2D(last.start, first.start) - g.cellSize
		landingSpan += dist2D(last.end, first.end) - g.cellSize
	}
	agentWidth := 2 * g.radius
	if width < agentWidth || landingSpan < agentWidth {
		return placed
	}
	usable := width - agentWidth
	count := int(usable/g.links.Spacing) + 1
	position := g.radius + float32((usable-float32(float32(count-1)*g.links.Spacing))/2)
	i := 0
	for range count {
		for i+1 < len(along) && abs32(along[i+1]-position) <= abs32(along[i]-position) {
			i++
		}
		placed = append(placed, placedLink{connection: g.connection(segment[i].linkSample), source: segment[i].source})
		position += g.links.Spacing
	}
	return placed
}

// connection is the off-mesh connection of sample s.
func (g *linkGrouper) connection(s *linkSample) OffMeshConnection {
	c := OffMeshConnection{
		Start:         s.start,
		End:           s.end,
		Radius:        g.radius,
		Bidirectional: s.bidirectional,
	}
	switch s.kind {
	case navmesh.LinkDrop:
		c.Area, c.Flags, c.UserID = g.links.DropArea, g.links.DropFlags, navmesh.AutoLinkUserID(navmesh.LinkDrop, 0)
	case navmesh.LinkJump:
		c.Area, c.Flags, c.UserID = g.links.JumpArea, g.links.JumpFlags, navmesh.AutoLinkUserID(navmesh.LinkJump, g.jumpArc)
	}
	if g.radius <= 0 {
		c.Radius = g.cellSize / 2 // a connection needs a positive radius
	}
	return c
}

// dropMirrored removes the two-way jumps that mirror one kept before them:
// the far side of a gap finds the same jumps back. A two-way jump mirrors
// another when each one's start lies near the other's end (within half the
// spacing along the edge plus two cells across).
func (g *linkGrouper) dropMirrored(placed []placedLink) []placedLink {
	tolerance := float32(g.links.Spacing/2) + float32(2*g.cellSize)
	type cellKey [2]int32
	key := func(v mgl32.Vec3) cellKey {
		return cellKey{int32(math.Floor(float64(v[0] / tolerance))), int32(math.Floor(float64(v[2] / tolerance)))}
	}
	kept := placed[:0]
	byStart := map[cellKey][]int{} // indices into kept
	for _, p := range placed {
		c := &p.connection
		if c.Bidirectional {
			mirrored := false
			k := key(c.End)
			for dz := int32(-1); dz <= 1 && !mirrored; dz++ {
				for dx := int32(-1); dx <= 1 && !mirrored; dx++ {
					for _, i := range byStart[cellKey{k[0] + dx, k[1] + dz}] {
						o := &kept[i].connection
						if dist2D(o.Start, c.End) <= tolerance && dist2D(o.End, c.Start) <= tolerance &&
							abs32(o.Start[1]-c.End[1]) <= g.climb && abs32(o.End[1]-c.Start[1]) <= g.climb {
							mirrored = true
							break
						}
					}
				}
			}
			if mirrored {
				continue
			}
			byStart[key(c.Start)] = append(byStart[key(c.Start)], len(kept))
		}
		kept = append(kept, p)
	}
	return kept
}

func dist2D(a, b mgl32.Vec3) float32 { return float32(math.Sqrt(float64(dist2DSqr(a, b)))) }
