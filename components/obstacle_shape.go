package components

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Footprint is an obstacle's outline in the xz-plane at its pose, and the
// height range it covers: a circle, or a convex polygon wound so that the
// walkable side of each edge P→Q is its left seen from above, as the
// navmesh's walls (geom.TriArea2D(outside, P, Q) > 0).
type Footprint struct {
	// Circle reports a circle of Radius around Center; otherwise the first
	// Count Points (x, z) are the polygon.
	Circle bool
	// Center is the circle's centre (x, z) [Units: world units]
	Center [2]float32
	// Radius is the circle's radius [Units: world units]
	Radius float32
	// Points are the polygon's corners (x, z) [Units: world units]
	Points [MaxObstaclePoints][2]float32
	// Count is the number of corners.
	Count int
	// MinY and MaxY bound the obstacle in height [Units: world units]
	MinY, MaxY float32
}

// yawAxes returns the world xz of the obstacle's local x and z axes for
// a yaw: the rotation the tile cache's oriented boxes use
// (dtTileCache::addBoxObstacle), so that a footprint and the hole it
// carves agree.
func yawAxes(yaw float32) (cos, sin float32) {
	if yaw == 0 {
		return 1, 0
	}
	return geom.Cos(yaw), geom.Sin(yaw)
}

// local returns the world (x, z) of local point (lx, lz) around centre.
func local(cx, cz, cos, sin, lx, lz float32) [2]float32 {
	return [2]float32{cx + float32(cos*lx) + float32(sin*lz), cz - float32(sin*lx) + float32(cos*lz)}
}

// Footprint returns o's outline at pose. Shapes the Validate check would
// refuse give an empty polygon.
func (o *Obstacle) Footprint(pose ObstaclePose) Footprint {
	p := pose.Position
	f := Footprint{MinY: p[1], MaxY: p[1] + o.Height}
	switch o.Shape {
	case ObstacleCylinder:
		f.Circle, f.Center, f.Radius = true, [2]float32{p[0], p[2]}, o.Radius
	case ObstacleBox, ObstacleOrientedBox:
		cos, sin := float32(1), float32(0)
		if o.Shape == ObstacleOrientedBox {
			cos, sin = yawAxes(pose.Yaw)
		}
		hx, hz := o.HalfExtents[0], o.HalfExtents[1]
		f.Points[0] = local(p[0], p[2], cos, sin, -hx, -hz)
		f.Points[1] = local(p[0], p[2], cos, sin, hx, -hz)
		f.Points[2] = local(p[0], p[2], cos, sin, hx, hz)
		f.Points[3] = local(p[0], p[2], cos, sin, -hx, hz)
		f.Count = 4
		f.orient()
	case ObstaclePrism:
		if o.PointCount < 3 || o.PointCount > MaxObstaclePoints {
			return f
		}
		cos, sin := yawAxes(pose.Yaw)
		for i := range o.PointCount {
			f.Points[i] = local(p[0], p[2], cos, sin, o.Points[i][0], o.Points[i][1])
		}
		f.Count = o.PointCount
		f.orient()
	}
	return f
}

// orient winds the polygon counter-clockwise in (x, z), the winding whose
// walkable side (the outside) is on each edge's left seen from above.
func (f *Footprint) orient() {
	var area float32
	for i := range f.Count {
		a, b := f.Points[i], f.Points[(i+1)%f.Count]
		area += float32(a[0]*b[1]) - float32(b[0]*a[1])
	}
	if area < 0 {
		for i, j := 0, f.Count-1; i < j; i, j = i+1, j-1 {
			f.Points[i], f.Points[j] = f.Points[j], f.Points[i]
		}
	}
}

// Bounds returns the footprint's xz bounds [Units: world units].
func (f *Footprint) Bounds() (minX, minZ, maxX, maxZ float32) {
	if f.Circle {
		return f.Center[0] - f.Radius, f.Center[1] - f.Radius, f.Center[0] + f.Radius, f.Center[1] + f.Radius
	}
	if f.Count == 0 {
		return 0, 0, 0, 0
	}
	minX, minZ = f.Points[0][0], f.Points[0][1]
	maxX, maxZ = minX, minZ
	for _, pt := range f.Points[1:f.Count] {
		minX, maxX = min(minX, pt[0]), max(maxX, pt[0])
		minZ, maxZ = min(minZ, pt[1]), max(maxZ, pt[1])
	}
	return minX, minZ, maxX, maxZ
}

// Distance returns the signed xz distance from (x, z) to the footprint's
// outline, negative inside, and the unit direction (nx, nz) in which the
// distance grows fastest there: away from the footprint. For a point on
// a circle's centre the direction is +x. An empty footprint is at +Inf.
func (f *Footprint) Distance(x, z float32) (distance, nx, nz float32) {
	if f.Circle {
		dx, dz := x-f.Center[0], z-f.Center[1]
		d := geom.Sqrt(float32(dx*dx) + float32(dz*dz))
		if d < 1e-6 {
			return -f.Radius, 1, 0
		}
		return d - f.Radius, dx / d, dz / d
	}
	if f.Count < 3 {
		return float32(1e30), 1, 0
	}
	// Inside: the shallowest edge; outside: the nearest outline point.
	inside := true
	depth := float32(1e30)
	nearest := float32(1e30)
	var ox, oz float32
	for i := range f.Count {
		a, b := f.Points[i], f.Points[(i+1)%f.Count]
		ex, ez := b[0]-a[0], b[1]-a[1]
		lengthSqr := float32(ex*ex) + float32(ez*ez)
		if lengthSqr < 1e-12 {
			continue
		}
		length := geom.Sqrt(lengthSqr)
		// The outward normal of a counter-clockwise polygon.
		enx, enz := ez/length, -ex/length
		side := float32((x-a[0])*enx) + float32((z-a[1])*enz)
		if side > 0 {
			inside = false
		}
		if -side < depth {
			depth, nx, nz = -side, enx, enz
		}
		t := max(0, min(1, (float32((x-a[0])*ex)+float32((z-a[1])*ez))/lengthSqr))
		dx, dz := x-(a[0]+float32(ex*t)), z-(a[1]+float32(ez*t))
		if d := float32(dx*dx) + float32(dz*dz); d < nearest {
			nearest, ox, oz = d, dx, dz
		}
	}
	if inside {
		return -depth, nx, nz
	}
	d := geom.Sqrt(nearest)
	if d < 1e-6 {
		return 0, nx, nz
	}
	return d, ox / d, oz / d
}

// Extent returns how far the footprint reaches from its pose's position:
// the radius of a turn's sweep [Units: world units].
func (o *Obstacle) Extent() float32 {
	switch o.Shape {
	case ObstacleCylinder:
		return o.Radius
	case ObstacleBox, ObstacleOrientedBox:
		return geom.Sqrt(float32(o.HalfExtents[0]*o.HalfExtents[0]) + float32(o.HalfExtents[1]*o.HalfExtents[1]))
	case ObstaclePrism:
		var r float32
		for _, p := range o.Points[:min(o.PointCount, MaxObstaclePoints)] {
			r = max(r, float32(p[0]*p[0])+float32(p[1]*p[1]))
		}
		return geom.Sqrt(r)
	}
	return 0
}

// PoseDistance returns how far the obstacle's farthest point moves from
// pose a to pose b: the move of its position plus the arc its extent
// sweeps in the turn [Units: world units].
func (o *Obstacle) PoseDistance(a, b ObstaclePose) float32 {
	d := geom.Dist(a.Position, b.Position)
	if o.Shape == ObstacleOrientedBox || o.Shape == ObstaclePrism {
		d += float32(geom.Abs(a.Yaw-b.Yaw) * o.Extent())
	}
	return d
}

// CacheObstacle returns the tile cache obstacle o carves or marks at pose,
// its footprint grown by inflation in xz (a carving obstacle's
// Settings.CarveInflation; area obstacles take 0) and its height range
// reaching depth below the pose (Settings.CarveDepth), so that it takes
// the floor that slopes away under its edges: a cylinder's radius and a
// box's half extents grow by inflation, a prism's edges move out by it.
// cellSize is the tile cache's (Params.CellSize): the cache marks the
// cells whose lower corner an oriented box covers (the C++'s test), not
// those whose centre it covers, which would leave a strip up to half a
// cell short on its -x and -z sides; the box is moved back by half a cell
// in x and z to mark by the centres. 0 leaves it where it is.
func (o *Obstacle) CacheObstacle(pose ObstaclePose, inflation, depth, cellSize float32) tilecache.Obstacle {
	p := pose.Position
	p[1] -= depth
	height := o.Height + depth
	var c tilecache.Obstacle
	switch o.Shape {
	case ObstacleCylinder:
		c = tilecache.Cylinder(p, o.Radius+inflation, height)
	case ObstacleBox:
		hx, hz := o.HalfExtents[0]+inflation, o.HalfExtents[1]+inflation
		c = tilecache.Box(mgl32.Vec3{p[0] - hx, p[1], p[2] - hz}, mgl32.Vec3{p[0] + hx, p[1] + height, p[2] + hz})
	case ObstacleOrientedBox:
		half := float32(height / 2)
		shift := float32(cellSize / 2)
		c = tilecache.OrientedBox(mgl32.Vec3{p[0] - shift, p[1] + half, p[2] - shift},
			mgl32.Vec3{o.HalfExtents[0] + inflation, half, o.HalfExtents[1] + inflation}, pose.Yaw)
	case ObstaclePrism:
		f := o.Footprint(pose)
		var points [MaxObstaclePoints]mgl32.Vec2
		n := 0
		if f.Count == 0 {
			// Not a valid prism: let the cache's check say why.
			n = min(o.PointCount, MaxObstaclePoints)
			for i := range n {
				points[i] = o.Points[i]
			}
		}
		// Corners sharper than a right angle are cut square at the
		// inflation's distance while there are points to spare: their
		// mitre would reach far beyond it.
		spare := MaxObstaclePoints - f.Count
		for i := range f.Count {
			a, b, cut := f.grownCorner(i, inflation)
			points[n] = a
			n++
			if cut && spare > 0 {
				points[n] = b
				n++
				spare--
			} else if cut {
				points[n-1] = f.mitre(i, inflation)
			}
		}
		c = tilecache.Prism(points[:n], p[1], p[1]+height)
	default:
		return tilecache.Obstacle{}
	}
	if o.Effect == ObstacleMarksArea {
		c = c.WithArea(o.Area)
	}
	return c
}

// grownCorner returns corner i of the polygon with every edge moved out
// by d: the mitre, or, for a corner sharper than a right angle (cut),
// the two ends of the square cut across the mitre at distance d from the
// corner, which still holds every point within d of it.
func (f *Footprint) grownCorner(i int, d float32) (a, b mgl32.Vec2, cut bool) {
	pt := f.Points[i]
	if d == 0 {
		return mgl32.Vec2{pt[0], pt[1]}, mgl32.Vec2{}, false
	}
	n0x, n0z, n1x, n1z := f.cornerNormals(i)
	if float32(n0x*n1x)+float32(n0z*n1z) >= 0 {
		return f.mitre(i, d), mgl32.Vec2{}, false
	}
	// The cut is the line at distance d from the corner across the
	// bisector; its ends lie on the two moved edges.
	bx, bz := n0x+n1x, n0z+n1z
	length := geom.Sqrt(float32(bx*bx) + float32(bz*bz))
	if length < 1e-6 {
		return f.mitre(i, d), mgl32.Vec2{}, false
	}
	bx, bz = bx/length, bz/length
	end := func(nx, nz float32) mgl32.Vec2 {
		// pt + d·n + t·e, with e along the edge, at distance d along b.
		ex, ez := -nz, nx
		if float32(ex*bx)+float32(ez*bz) < 0 {
			ex, ez = -ex, -ez
		}
		dot := float32(ex*bx) + float32(ez*bz)
		t := float32(0)
		if dot > 1e-6 {
			t = (d - float32(d*(float32(nx*bx)+float32(nz*bz)))) / dot
		}
		return mgl32.Vec2{pt[0] + float32(nx*d) + float32(ex*t), pt[1] + float32(nz*d) + float32(ez*t)}
	}
	return end(n0x, n0z), end(n1x, n1z), true
}

// mitre returns corner i moved along the normals' bisector far enough for
// both edges to move by d.
func (f *Footprint) mitre(i int, d float32) mgl32.Vec2 {
	pt := f.Points[i]
	n0x, n0z, n1x, n1z := f.cornerNormals(i)
	bx, bz := n0x+n1x, n0z+n1z
	dot := float32(bx*n0x) + float32(bz*n0z)
	if dot < 1e-3 {
		return mgl32.Vec2{pt[0] + float32(n0x*d), pt[1] + float32(n0z*d)}
	}
	s := d / dot
	return mgl32.Vec2{pt[0] + float32(bx*s), pt[1] + float32(bz*s)}
}

// cornerNormals returns the outward normals of the edges before and after
// corner i.
func (f *Footprint) cornerNormals(i int) (n0x, n0z, n1x, n1z float32) {
	prev, pt, next := f.Points[(i+f.Count-1)%f.Count], f.Points[i], f.Points[(i+1)%f.Count]
	n0x, n0z = edgeNormal(prev, pt)
	n1x, n1z = edgeNormal(pt, next)
	return n0x, n0z, n1x, n1z
}

// edgeNormal returns the outward unit normal of the counter-clockwise
// edge a→b.
func edgeNormal(a, b [2]float32) (nx, nz float32) {
	ex, ez := b[0]-a[0], b[1]-a[1]
	length := geom.Sqrt(float32(ex*ex) + float32(ez*ez))
	if length < 1e-9 {
		return 0, 0
	}
	return ez / length, -ex / length
}
