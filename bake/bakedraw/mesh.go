package bakedraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/debugdraw"
)

// ContourMode chooses which outline of each region Contours draws.
type ContourMode uint8

// The contour views.
const (
	// SimplifiedContours draws the simplified outlines that become polygons,
	// edges along an area border paler (duDebugDrawContours).
	SimplifiedContours ContourMode = iota
	// RawContours draws the outlines as traced from the regions
	// (duDebugDrawRawContours).
	RawContours
)

// Contours draws each contour of cset as a closed line in its region's
// colour (one line per vertex) and a dot at every vertex, darker, or white
// and raised for vertices on the tile border. Alternate contours are raised
// by a cell so that shared edges stay apart.
func Contours(d debugdraw.Drawer, cset *bake.ContourSet, mode ContourMode) {
	if cset == nil {
		return
	}
	width, size := float32(2.5), float32(3)
	if mode == RawContours {
		width, size = 2, 2
	}
	for i := range cset.Contours {
		c := &cset.Contours[i]
		verts := contourVerts(c, mode)
		if len(verts) == 0 {
			continue
		}
		base := debugdraw.IndexColor(int(c.Region), 255)
		pale := debugdraw.Lerp(base, color.NRGBA{255, 255, 255, 255}, 128.0/255)
		for j := range verts {
			from, to := verts[(j+len(verts)-1)%len(verts)], verts[j]
			stroke := base
			if mode == SimplifiedContours && from[3]&bake.AreaBorder != 0 {
				stroke = pale
			}
			d.Line(contourPoint(cset, from, i, 0), contourPoint(cset, to, i, 0), width, stroke)
		}
		dark := debugdraw.Darken(base)
		for _, v := range verts {
			fill, lift := dark, float32(0)
			if v[3]&bake.BorderVertex != 0 {
				fill, lift = color.NRGBA{255, 255, 255, 255}, 2*cset.CellHeight
			}
			d.Point(contourPoint(cset, v, i, lift), size, fill)
		}
	}
}

func contourVerts(c *bake.Contour, mode ContourMode) [][4]int32 {
	if mode == RawContours {
		return c.RawVerts
	}
	return c.Verts
}

// contourPoint returns contour vertex v of contour i in world units, raised
// by a cell for odd contours and by lift.
func contourPoint(cset *bake.ContourSet, v [4]int32, i int, lift float32) mgl32.Vec3 {
	return mgl32.Vec3{
		cset.BMin[0] + float32(float32(v[0])*cset.CellSize),
		cset.BMin[1] + float32(float32(v[1]+1+int32(i&1))*cset.CellHeight) + lift,
		cset.BMin[2] + float32(float32(v[2])*cset.CellSize),
	}
}

// contourCenter returns the average of c's simplified vertices in world
// units, raised by four cells.
func contourCenter(cset *bake.ContourSet, c *bake.Contour) (mgl32.Vec3, bool) {
	if len(c.Verts) == 0 {
		return mgl32.Vec3{}, false
	}
	var sum [3]float64
	for _, v := range c.Verts {
		sum[0] += float64(v[0])
		sum[1] += float64(v[1])
		sum[2] += float64(v[2])
	}
	n := float64(len(c.Verts))
	return mgl32.Vec3{
		cset.BMin[0] + float32(float32(sum[0]/n)*cset.CellSize),
		cset.BMin[1] + float32(float32(sum[1]/n)*cset.CellHeight) + float32(4*cset.CellHeight),
		cset.BMin[2] + float32(float32(sum[2]/n)*cset.CellSize),
	}, true
}

// RegionConnections draws an arc between the centres of every two regions
// whose contours touch, once per touching edge, and a dot at each region's
// centre (duDebugDrawRegionConnections).
func RegionConnections(d debugdraw.Drawer, cset *bake.ContourSet) {
	if cset == nil {
		return
	}
	byRegion := make(map[uint16]*bake.Contour, len(cset.Contours))
	for i := range cset.Contours {
		if _, seen := byRegion[cset.Contours[i].Region]; !seen {
			byRegion[cset.Contours[i].Region] = &cset.Contours[i]
		}
	}
	stroke := color.NRGBA{0, 0, 0, 196}
	for i := range cset.Contours {
		c := &cset.Contours[i]
		from, ok := contourCenter(cset, c)
		if !ok {
			continue
		}
		for _, v := range c.Verts {
			neighbour := uint16(v[3] & bake.ContourRegionMask)
			if neighbour == 0 || neighbour < c.Region {
				continue
			}
			other, found := byRegion[neighbour]
			if !found {
				continue
			}
			if to, ok := contourCenter(cset, other); ok {
				debugdraw.Arc(d, from, to, 0.25, 0.6, 0.6, 2, stroke)
			}
		}
	}
	for i := range cset.Contours {
		c := &cset.Contours[i]
		if center, ok := contourCenter(cset, c); ok {
			d.Point(center, 7, debugdraw.Darken(debugdraw.IndexColor(int(c.Region), 255)))
		}
	}
}

// PolyMesh draws the polygon mesh (duDebugDrawPolyMesh): each polygon filled
// by area (a fan of triangles), the edges between polygons once, the
// boundary edges (white where they are portals to the next tile), and the
// vertices, edges and vertices raised a little.
func PolyMesh(d debugdraw.Drawer, mesh *bake.PolyMesh) {
	if mesh == nil || mesh.MaxVertsPerPoly < 3 {
		return
	}
	nvp := mesh.MaxVertsPerPoly
	vertex := func(i uint16, lift float32) mgl32.Vec3 {
		v := mesh.Verts[i]
		return mgl32.Vec3{
			mesh.BMin[0] + float32(float32(v[0])*mesh.CellSize),
			mesh.BMin[1] + float32(float32(v[1]+1)*mesh.CellHeight) + lift,
			mesh.BMin[2] + float32(float32(v[2])*mesh.CellSize),
		}
	}
	polygon := func(i int) (verts, neighbours []uint16, ok bool) {
		if (i+1)*2*nvp > len(mesh.Polys) {
			return nil, nil, false
		}
		p := mesh.Polys[i*2*nvp : (i+1)*2*nvp]
		n := 0
		for n < nvp && p[n] != bake.MeshNullIndex {
			if int(p[n]) >= len(mesh.Verts) {
				return nil, nil, false
			}
			n++
		}
		return p[:n], p[nvp : nvp+n], n >= 3
	}
	for i := range mesh.PolyCount {
		verts, _, ok := polygon(i)
		if !ok || i >= len(mesh.Areas) {
			continue
		}
		fill := debugdraw.AreaColor(mesh.Areas[i], 96)
		for j := 2; j < len(verts); j++ {
			d.Triangle(vertex(verts[0], 0), vertex(verts[j-1], 0), vertex(verts[j], 0), fill)
		}
	}
	const lift = 0.1
	inner, wall, portal := color.NRGBA{0, 48, 64, 48}, color.NRGBA{0, 48, 64, 220}, color.NRGBA{255, 255, 255, 128}
	for i := range mesh.PolyCount {
		verts, neighbours, ok := polygon(i)
		if !ok {
			continue
		}
		for j, code := range neighbours {
			a, b := vertex(verts[j], lift), vertex(verts[(j+1)%len(verts)], lift)
			switch {
			case code&0x8000 == 0:
				if int(code) > i { // once per inner edge
					d.Line(a, b, 1.5, inner)
				}
			case code&0xf != 0xf:
				d.Line(a, b, 2.5, portal)
			default:
				d.Line(a, b, 2.5, wall)
			}
		}
	}
	for i := range mesh.Verts {
		d.Point(vertex(uint16(i), lift), 3, color.NRGBA{0, 0, 0, 220})
	}
}

// PolyMeshDetail draws the detail mesh (duDebugDrawPolyMeshDetail): each
// polygon's triangles in its own colour, the edges inside each polygon
// once, thin, the edges on its outline wider, and the vertices.
func PolyMeshDetail(d debugdraw.Drawer, detail *bake.PolyMeshDetail) {
	if detail == nil {
		return
	}
	type subMesh struct {
		verts []mgl32.Vec3
		tris  [][4]uint8
	}
	subMeshes := make([]subMesh, 0, len(detail.Meshes))
	for _, m := range detail.Meshes {
		vertBase, vertCount, triBase, triCount := uint64(m[0]), uint64(m[1]), uint64(m[2]), uint64(m[3])
		if vertBase+vertCount > uint64(len(detail.Verts)) || triBase+triCount > uint64(len(detail.Tris)) {
			subMeshes = append(subMeshes, subMesh{})
			continue
		}
		subMeshes = append(subMeshes, subMesh{detail.Verts[vertBase : vertBase+vertCount], detail.Tris[triBase : triBase+triCount]})
	}
	valid := func(s subMesh, t [4]uint8) bool {
		return int(t[0]) < len(s.verts) && int(t[1]) < len(s.verts) && int(t[2]) < len(s.verts)
	}
	for i, s := range subMeshes {
		fill := debugdraw.IndexColor(i, 192)
		for _, t := range s.tris {
			if valid(s, t) {
				d.Triangle(s.verts[t[0]], s.verts[t[1]], s.verts[t[2]], fill)
			}
		}
	}
	edge := color.NRGBA{0, 0, 0, 64}
	for _, outline := range []bool{false, true} {
		width := float32(1)
		if outline {
			width = 2
		}
		for _, s := range subMeshes {
			for _, t := range s.tris {
				if !valid(s, t) {
					continue
				}
				for k := range 3 {
					from, to := t[k], t[(k+1)%3]
					onOutline := (t[3]>>(2*k))&0x3 != 0
					if onOutline != outline || (!outline && from > to) { // inner edges once
						continue
					}
					d.Line(s.verts[from], s.verts[to], width, edge)
				}
			}
		}
	}
	for _, s := range subMeshes {
		for _, v := range s.verts {
			d.Point(v, 3, edge)
		}
	}
}
