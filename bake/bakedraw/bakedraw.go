package bakedraw

import (
	"github.com/archenav/archenav/internal/detmath"
	"image/color"
	"math"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// unwalkableTint is blended into the shade of input triangles too steep to
// walk on.
var unwalkableTint = color.NRGBA{192, 128, 0, 255}

// Geometry fills the input triangles of g, grey by how they face (lit from
// above and +x, either side up), tinted orange where the bake would not walk
// on them: steeper than walkableSlope degrees, or facing down
// (duDebugDrawTriMeshSlope, bake.MarkWalkableTriangles). Triangles with an
// index out of range are skipped.
//
// walkableSlope [Limit: 0..90] [Units: degrees]
func Geometry(d debugdraw.Drawer, g *bake.Geometry, walkableSlope float32) {
	if g == nil {
		return
	}
	threshold := float32(detmath.Cos(float64(walkableSlope) * math.Pi / 180))
	for _, tri := range g.Triangles {
		if !validTriangle(tri, len(g.Vertices)) {
			continue
		}
		a, b, c := g.Vertices[tri[0]], g.Vertices[tri[1]], g.Vertices[tri[2]]
		normal := geom.Cross(b.Sub(a), c.Sub(a))
		if length := geom.Len(normal); length > 0 {
			normal = normal.Mul(1 / length)
		}
		walkable := normal[1] > threshold
		if normal[1] < 0 { // shade ceilings as floors
			normal = normal.Mul(-1)
		}
		shade := uint8(220 * (2 + normal[0] + normal[1]) / 4)
		fill := color.NRGBA{shade, shade, shade, 255}
		if !walkable {
			fill = debugdraw.Lerp(fill, unwalkableTint, 64.0/255)
		}
		d.Triangle(a, b, c, fill)
	}
}

func validTriangle(tri [3]int32, vertices int) bool {
	for _, i := range tri {
		if i < 0 || int(i) >= vertices {
			return false
		}
	}
	return true
}

// Heightfield draws every span of hf as a box, white with shaded sides
// (duDebugDrawHeightfieldSolid); with walkable set, the tops are coloured
// by area: walkable blue-grey, not walkable dark grey, other areas by
// their colour (duDebugDrawHeightfieldWalkable). Each span is 12 triangles.
func Heightfield(d debugdraw.Drawer, hf *bake.Heightfield, walkable bool) {
	if hf == nil {
		return
	}
	white := color.NRGBA{255, 255, 255, 255}
	faces := debugdraw.ShadedBox(white, white)
	if walkable {
		faces = debugdraw.ShadedBox(white, color.NRGBA{217, 217, 217, 255})
	}
	for z := range hf.Height {
		for x := range hf.Width {
			column := x + z*hf.Width
			if column >= len(hf.Columns) {
				return
			}
			fx, fz := hf.BMin[0]+float32(float32(x)*hf.CellSize), hf.BMin[2]+float32(float32(z)*hf.CellSize)
			for i, steps := hf.Columns[column], 0; i >= 0 && int(i) < len(hf.Pool) && steps < len(hf.Pool); i, steps = hf.Pool[i].Next, steps+1 {
				span := &hf.Pool[i]
				if walkable {
					switch span.Area {
					case bake.WalkableArea:
						faces[debugdraw.FaceTop] = color.NRGBA{64, 128, 160, 255}
					case bake.NullArea:
						faces[debugdraw.FaceTop] = color.NRGBA{64, 64, 64, 255}
					default:
						faces[debugdraw.FaceTop] = debugdraw.Scale(debugdraw.AreaColor(span.Area, 255), 200.0/256)
					}
				}
				debugdraw.Box(d,
					mgl32.Vec3{fx, hf.BMin[1] + float32(float32(span.Min)*hf.CellHeight), fz},
					mgl32.Vec3{fx + hf.CellSize, hf.BMin[1] + float32(float32(span.Max)*hf.CellHeight), fz + hf.CellSize},
					faces)
			}
		}
	}
}

// CompactMode chooses what CompactHeightfield colours the spans by.
type CompactMode uint8

// The compact heightfield views.
const (
	// CompactAreas colours each span by its area: walkable light blue, not
	// walkable dark, other areas by their colour
	// (duDebugDrawCompactHeightfieldSolid).
	CompactAreas CompactMode = iota
	// CompactRegions colours each span by its region, spans without one
	// dark (duDebugDrawCompactHeightfieldRegions).
	CompactRegions
	// CompactDistance shades each span by its distance to the border, black
	// at the border to white at the field's largest distance
	// (duDebugDrawCompactHeightfieldDistance); a field without a distance
	// field draws nothing.
	CompactDistance
)

// CompactHeightfield draws the floor of every open span of chf as a square
// (two triangles), coloured as mode says.
func CompactHeightfield(d debugdraw.Drawer, chf *bake.CompactHeightfield, mode CompactMode) {
	if chf == nil || (mode == CompactDistance && len(chf.Dist) < len(chf.Spans)) {
		return
	}
	scale := float32(255) / max(float32(chf.MaxDistance), 1)
	cs, ch := chf.CellSize, chf.CellHeight
	for z := range chf.Height {
		for x := range chf.Width {
			cell := x + z*chf.Width
			if cell >= len(chf.Cells) {
				return
			}
			fx, fz := chf.BMin[0]+float32(float32(x)*cs), chf.BMin[2]+float32(float32(z)*cs)
			c := chf.Cells[cell]
			for i := c.Index; i < c.Index+c.Count && int(i) < len(chf.Spans) && int(i) < len(chf.Areas); i++ {
				span := &chf.Spans[i]
				var fill color.NRGBA
				y := chf.BMin[1] + float32(float32(span.Y+1)*ch)
				switch mode {
				case CompactAreas:
					switch area := chf.Areas[i]; area {
					case bake.WalkableArea:
						fill = color.NRGBA{0, 192, 255, 64}
					case bake.NullArea:
						fill = color.NRGBA{0, 0, 0, 64}
					default:
						fill = debugdraw.AreaColor(area, 255)
					}
				case CompactRegions:
					y = chf.BMin[1] + float32(float32(span.Y)*ch)
					fill = color.NRGBA{0, 0, 0, 64}
					if span.Region != 0 {
						fill = debugdraw.IndexColor(int(span.Region), 192)
					}
				case CompactDistance:
					shade := uint8(min(float32(chf.Dist[i])*scale, 255))
					fill = color.NRGBA{shade, shade, shade, 255}
				}
				debugdraw.Quad(d,
					mgl32.Vec3{fx, y, fz}, mgl32.Vec3{fx, y, fz + cs},
					mgl32.Vec3{fx + cs, y, fz + cs}, mgl32.Vec3{fx + cs, y, fz},
					fill)
			}
		}
	}
}
