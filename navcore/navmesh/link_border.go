package navmesh

import (
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// maxPortalNeighbours is how many polygons one border edge links to at most.
const maxPortalNeighbours = 4

// portalMatch is a polygon across a tile border and the part of the shared
// border, along the border's axis, where the two edges overlap.
type portalMatch struct {
	ref      Ref
	min, max float32
}

// connectExtLinks links the border edges of slot tile facing side (-1: every
// border edge, for another layer of the same column) to the polygons of slot
// target across that border (dtNavMesh::connectExtLinks). Each link stores
// the covered part of its edge in BMin/BMax, in 1/255ths.
func (e *edit) connectExtLinks(tile, target uint32, side int) {
	t := e.tile(tile)
	other := e.tile(target)
	var d *draft
	for i := range t.Polys {
		nv := int(t.Polys[i].VertCount)
		for j := range nv {
			poly := &t.Polys[i]
			nei := poly.Neighbours[j]
			if nei&ExternalLink == 0 {
				continue
			}
			dir := int(nei & 0xff)
			if side != -1 && dir != side {
				continue
			}
			va := t.Verts[poly.Verts[j]]
			vb := t.Verts[poly.Verts[(j+1)%nv]]
			var matches [maxPortalNeighbours]portalMatch
			n := findConnectingPolys(va, vb, other, geom.OppositeSide(dir), &matches)
			if n == 0 {
				continue
			}
			if d == nil {
				d = e.draftOf(tile)
				t = d.tile
			}
			for _, match := range matches[:n] {
				link := Link{Ref: match.ref, Edge: uint8(j), Side: uint8(dir)}
				link.BMin, link.BMax = portalFractions(va, vb, match, dir)
				d.addLink(uint32(i), link)
			}
		}
	}
}

// portalFractions compresses the overlap of a match along edge va→vb to the
// edge fractions 0..255.
func portalFractions(va, vb mgl32.Vec3, match portalMatch, dir int) (bmin, bmax uint8) {
	axis := 2 // sides 0 and 4 cross x: the border runs along z
	if dir == 2 || dir == 6 {
		axis = 0
	}
	tmin := (match.min - va[axis]) / (vb[axis] - va[axis])
	tmax := (match.max - va[axis]) / (vb[axis] - va[axis])
	if tmin > tmax {
		tmin, tmax = tmax, tmin
	}
	return edgeFraction(tmin), edgeFraction(tmax)
}

func edgeFraction(t float32) uint8 {
	return uint8(math.Round(float64(geom.Clamp(t, 0, 1) * 255)))
}

// findConnectingPolys collects up to maxPortalNeighbours polygons of target
// with a border edge on side that lies on the same border line as va→vb
// (within 0.01) and overlaps it (dtNavMesh::findConnectingPolys). Only the
// axis sides 0, 2, 4, 6 can connect: the C++ leaves the slab of a diagonal
// side undefined, and the builder never makes one.
func findConnectingPolys(va, vb mgl32.Vec3, target *Tile, side int, matches *[maxPortalNeighbours]portalMatch) int {
	if side&1 != 0 {
		return 0
	}
	amin, amax := calcSlabEndPoints(va, vb, side)
	apos := slabCoord(va, side)
	code := ExternalLink | uint16(side)
	base := target.PolyRefBase()
	n := 0
	for i := range target.Polys {
		poly := &target.Polys[i]
		nv := int(poly.VertCount)
		for j := range nv {
			if poly.Neighbours[j] != code {
				continue
			}
			vc := target.Verts[poly.Verts[j]]
			vd := target.Verts[poly.Verts[(j+1)%nv]]
			if geom.Abs(apos-slabCoord(vc, side)) > 0.01 {
				continue
			}
			bmin, bmax := calcSlabEndPoints(vc, vd, side)
			if !overlapSlabs(amin, amax, bmin, bmax, 0.01, target.Data.Header.WalkableClimb) {
				continue
			}
			if n < maxPortalNeighbours {
				matches[n] = portalMatch{
					ref: base | Ref(i),
					min: maxf(amin[0], bmin[0]),
					max: minf(amax[0], bmax[0]),
				}
				n++
			}
			break
		}
	}
	return n
}

// slabCoord returns the coordinate across the border of side: x for sides
// 0 and 4, z for sides 2 and 6.
func slabCoord(v mgl32.Vec3, side int) float32 {
	switch side {
	case 0, 4:
		return v[0]
	case 2, 6:
		return v[2]
	}
	return 0
}

// calcSlabEndPoints returns the end points of edge va→vb in the border plane
// of side as (position along the border, height), the lower position first.
func calcSlabEndPoints(va, vb mgl32.Vec3, side int) (bmin, bmax [2]float32) {
	along := 2
	if side == 2 || side == 6 {
		along = 0
	}
	if va[along] < vb[along] {
		return [2]float32{va[along], va[1]}, [2]float32{vb[along], vb[1]}
	}
	return [2]float32{vb[along], vb[1]}, [2]float32{va[along], va[1]}
}

// overlapSlabs reports whether two border edges given as slabs overlap: along
// the border, each shrunk by px, and in height, where they cross or come
// within 2*py of each other at an end of the shared span.
func overlapSlabs(amin, amax, bmin, bmax [2]float32, px, py float32) bool {
	minX := maxf(amin[0]+px, bmin[0]+px)
	maxX := minf(amax[0]-px, bmax[0]-px)
	if minX > maxX {
		return false
	}

	aSlope := (amax[1] - amin[1]) / (amax[0] - amin[0])
	aOffset := amin[1] - float32(aSlope*amin[0])
	bSlope := (bmax[1] - bmin[1]) / (bmax[0] - bmin[0])
	bOffset := bmin[1] - float32(bSlope*bmin[0])
	aMinY := float32(aSlope*minX) + aOffset
	aMaxY := float32(aSlope*maxX) + aOffset
	bMinY := float32(bSlope*minX) + bOffset
	bMaxY := float32(bSlope*maxX) + bOffset
	dmin := bMinY - aMinY
	dmax := bMaxY - aMaxY

	if dmin*dmax < 0 {
		return true // the edges cross
	}
	threshold := (py * 2) * (py * 2)
	return dmin*dmin <= threshold || dmax*dmax <= threshold
}
