package dynamic

import (
	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
)

// builder is one worker's scratch memory for tile rebuilds.
type builder struct {
	codec bake.HeightfieldCodec
	// scratch takes a carving mesh collider's triangles.
	scratch bake.Heightfield
	areas   []uint8
	flipped [][3]int32
}

// colliderInput is what a tile build reads of one collider: copied when
// the build is claimed, so that the collider may change meanwhile.
type colliderInput struct {
	placed collider.Placed
	// vertices are a mesh collider's placed vertices, never written after
	// they were made.
	vertices []geom.Vec3
}

// fill puts a tile's solid spans into hf, emptied and sized for the
// tile's field: the level's field decoded from base (none when nil), then
// the colliders in the order they were added, each solid one adding its
// voxels and each carving one removing them.
func (m *Mesh) fill(b *builder, base []byte, colliders []colliderInput, hf *bake.Heightfield) error {
	if base != nil {
		if err := b.codec.Decode(base, hf); err != nil {
			return err
		}
	}
	for i := range colliders {
		c := &colliders[i]
		var err error
		if c.placed.Shape().Carve {
			err = m.carve(b, c, hf)
		} else {
			err = m.add(b, c, hf)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// add rasterizes solid collider c into hf.
func (m *Mesh) add(b *builder, c *colliderInput, hf *bake.Heightfield) error {
	shape := c.placed.Shape()
	if shape.Kind == collider.ConvexHull || shape.Kind == collider.TriangleMesh {
		areas, err := m.triangleAreas(b, c.vertices, shape.Mesh.Triangles, shape.Area)
		if err != nil {
			return err
		}
		return hf.RasterizeTriangles(c.vertices, shape.Mesh.Triangles, areas, m.mergeThreshold)
	}
	return m.eachColumn(hf, &c.placed, func(x, z int, bottom, top uint16, column collider.Column) error {
		area := shape.Area
		if !(column.TopNormalY > m.walkableNormalY) {
			area = bake.NullArea
		}
		return hf.AddSpan(x, z, bottom, top, area, m.mergeThreshold)
	})
}

// carve cuts carving collider c out of hf.
func (m *Mesh) carve(b *builder, c *colliderInput, hf *bake.Heightfield) error {
	shape := c.placed.Shape()
	if shape.Kind != collider.ConvexHull && shape.Kind != collider.TriangleMesh {
		return m.eachColumn(hf, &c.placed, func(x, z int, bottom, top uint16, column collider.Column) error {
			return hf.CarveSpan(x, z, bottom, top, m.floorArea(shape.Area, column.FloorNormalY))
		})
	}
	// Rasterize the triangles turned over into a field of their own: the
	// lowest span of each column then starts where the carve starts, and
	// its area says whether the floor the carve leaves is walkable (the
	// triangles facing down, turned over, face up).
	if err := b.scratch.Reset(hf.Width, hf.Height, hf.BMin, hf.BMax, hf.CellSize, hf.CellHeight); err != nil {
		return err
	}
	b.flipped = b.flipped[:0]
	for _, t := range shape.Mesh.Triangles {
		b.flipped = append(b.flipped, [3]int32{t[0], t[2], t[1]})
	}
	areas, err := m.triangleAreas(b, c.vertices, b.flipped, shape.Area)
	if err != nil {
		return err
	}
	if err := b.scratch.RasterizeTriangles(c.vertices, b.flipped, areas, m.mergeThreshold); err != nil {
		return err
	}
	scratch := &b.scratch
	for column, first := range scratch.Columns {
		if first < 0 {
			continue
		}
		lowest := &scratch.Pool[first]
		top := lowest.Max
		for next := lowest.Next; next >= 0; next = scratch.Pool[next].Next {
			top = scratch.Pool[next].Max
		}
		floor := shape.Area
		if lowest.Area == bake.NullArea {
			floor = bake.NullArea
		}
		if err := hf.CarveSpan(column%hf.Width, column/hf.Width, lowest.Min, top, floor); err != nil {
			return err
		}
	}
	return nil
}

// floorArea returns the area of the floor a carve leaves: area where the
// floor's normal y passes the slope test, else NullArea.
func (m *Mesh) floorArea(area uint8, normalY float32) uint8 {
	if normalY > m.walkableNormalY {
		return area
	}
	return bake.NullArea
}

// triangleAreas marks triangles as a bake marks a level's (walkable ones
// bake.WalkableArea) and gives the walkable ones area instead; it returns
// b.areas.
func (m *Mesh) triangleAreas(b *builder, vertices []geom.Vec3, triangles [][3]int32, area uint8) ([]uint8, error) {
	if cap(b.areas) < len(triangles) {
		b.areas = make([]uint8, len(triangles))
	}
	areas := b.areas[:len(triangles)]
	clear(areas)
	if err := bake.MarkWalkableTriangles(m.settings.AgentMaxSlope, vertices, triangles, areas); err != nil {
		return nil, err
	}
	if area != bake.WalkableArea {
		for i, a := range areas {
			if a == bake.WalkableArea {
				areas[i] = area
			}
		}
	}
	return areas, nil
}

// eachColumn calls fn for every column of hf the placed primitive covers,
// with the cells it spans there (bottom inclusive, top exclusive, clamped
// to the field's height as the triangle rasterizer clamps) and its column
// range. It stops at fn's first error.
func (m *Mesh) eachColumn(hf *bake.Heightfield, placed *collider.Placed, fn func(x, z int, bottom, top uint16, column collider.Column) error) error {
	bmin, bmax := placed.Bounds()
	if bmax[0] < hf.BMin[0] || bmin[0] > hf.BMax[0] || bmax[2] < hf.BMin[2] || bmin[2] > hf.BMax[2] {
		return nil
	}
	cellSize := hf.CellSize
	inverseCellSize := 1 / cellSize
	cellOf := func(v, origin float32, count int) int {
		return min(max(int(geom.Floor((v-origin)*inverseCellSize)), 0), count-1)
	}
	x0, x1 := cellOf(bmin[0], hf.BMin[0], hf.Width), cellOf(bmax[0], hf.BMin[0], hf.Width)
	z0, z1 := cellOf(bmin[2], hf.BMin[2], hf.Height), cellOf(bmax[2], hf.BMin[2], hf.Height)
	fieldHeight := hf.BMax[1] - hf.BMin[1]
	inverseCellHeight := 1 / hf.CellHeight
	for z := z0; z <= z1; z++ {
		cellZ0 := hf.BMin[2] + float32(float32(z)*cellSize)
		cellZ1 := hf.BMin[2] + float32(float32(z+1)*cellSize)
		for x := x0; x <= x1; x++ {
			cellX0 := hf.BMin[0] + float32(float32(x)*cellSize)
			cellX1 := hf.BMin[0] + float32(float32(x+1)*cellSize)
			column, ok := placed.ColumnRange(cellX0, cellZ0, cellX1, cellZ1)
			if !ok {
				continue
			}
			low, high := column.Bottom-hf.BMin[1], column.Top-hf.BMin[1]
			if high < 0 || low > fieldHeight {
				continue
			}
			low, high = max(low, 0), min(high, fieldHeight)
			bottom := min(max(int(geom.Floor(low*inverseCellHeight)), 0), bake.MaxSpanHeight-1)
			top := min(max(int(geom.Ceil(high*inverseCellHeight)), bottom+1), bake.MaxSpanHeight)
			if err := fn(x, z, uint16(bottom), uint16(top), column); err != nil {
				return err
			}
		}
	}
	return nil
}
