package tilecache

import (
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

// builder turns one compressed layer into navmesh tile data
// (dtTileCache::buildNavMeshTile). It keeps every working array between
// builds, so that once it has seen layers of some size, building more of
// them allocates nothing until the tile data itself. One builder serves one
// goroutine.
type builder struct {
	grids []byte
	layer Layer
	regs  []byte

	sweeps      []sweepSpan
	regions     []monotoneRegion
	regionCount int

	contours     []contour
	contourVerts []byte
	temp         tempContour

	meshVerts []([3]uint16)
	meshPolys []uint16
	meshAreas []uint8
	meshFlags []uint16
	polyCount int
	maxTris   int
	vertFlags []uint8
	firstVert [vertexBuckets]uint16
	nextVert  []uint16
	indices   []uint16
	tris      []uint16
	polys     []uint16
	firstEdge []uint16
	edges     []meshEdge
	// mergeValues caches polygon merge values (mergeAll).
	mergeValues []int32

	params navmesh.BuildParams
}

// newBuilder returns a builder with its working memory sized for layers of
// width×height cells, so that the first builds do not allocate it.
func newBuilder(width, height int) *builder {
	cells := width * height
	b := &builder{
		grids:   make([]byte, 3*cells),
		regs:    make([]byte, cells),
		sweeps:  make([]sweepSpan, MaxLayerSide),
		regions: make([]monotoneRegion, 256),
	}
	maxTempVerts := (width + height) * 4
	b.temp.verts = make([]byte, maxTempVerts*4)
	b.temp.poly = make([]uint16, maxTempVerts)
	return b
}

// buildInput is what one layer build needs from the cache.
type buildInput struct {
	params     *Params
	compressor Compressor
	process    MeshProcess
	header     LayerHeader
	data       []byte
	// obstacles are the slots (in slots) of the obstacles marking the
	// layer, in the order they were added.
	obstacles []uint32
	slots     []obstacleSlot
}

// decompress unpacks the layer's grids into the builder's memory. The
// layer was checked when it entered the cache, so only the size is checked
// again.
func (b *builder) decompress(in *buildInput) error {
	h := in.header
	cells := int(h.Width) * int(h.Height)
	b.grids = grow(b.grids, 3*cells)
	grids, err := in.compressor.Decompress(b.grids[:0], in.data[EncodedLayerHeaderSize:])
	if err != nil {
		return fmt.Errorf("tilecache: build tile (%d, %d, layer %d): %w", h.TX, h.TY, h.TLayer, err)
	}
	if len(grids) != 3*cells {
		return fmt.Errorf("tilecache: build tile (%d, %d, layer %d): grids decompress to %d bytes, want %d: %w",
			h.TX, h.TY, h.TLayer, len(grids), 3*cells, ErrCorruptData)
	}
	b.layer = Layer{Header: h, Heights: grids[:cells], Areas: grids[cells : 2*cells], Cons: grids[2*cells : 3*cells]}
	b.regs = grow(b.regs, cells)
	if cap(b.sweeps) < int(h.Width) {
		b.sweeps = make([]sweepSpan, MaxLayerSide)
	}
	if cap(b.regions) < 256 {
		b.regions = make([]monotoneRegion, 256)
	}
	return nil
}

// buildPolygons runs the stages from the decompressed layer to the poly
// mesh: mark the obstacles, regions, contours, polygons.
func (b *builder) buildPolygons(in *buildInput) error {
	if err := b.decompress(in); err != nil {
		return err
	}
	cs, ch := in.params.CellSize, in.params.CellHeight
	// Area volumes first, in the order they were added, then the carving
	// obstacles: carving wins wherever they overlap.
	for _, slot := range in.obstacles {
		if o := &in.slots[slot].placed; o.Area != NullArea {
			o.mark(&b.layer, cs, ch)
		}
	}
	for _, slot := range in.obstacles {
		if o := &in.slots[slot].placed; o.Area == NullArea {
			o.mark(&b.layer, cs, ch)
		}
	}
	climb := in.params.walkableClimbCells()
	h := &b.layer.Header
	if err := b.buildRegions(climb); err != nil {
		return fmt.Errorf("tilecache: build tile (%d, %d, layer %d): %w", h.TX, h.TY, h.TLayer, err)
	}
	if err := b.buildContours(climb, in.params.MaxSimplificationError); err != nil {
		return fmt.Errorf("tilecache: build tile (%d, %d, layer %d): %w", h.TX, h.TY, h.TLayer, err)
	}
	if err := b.buildPolyMesh(); err != nil {
		return fmt.Errorf("tilecache: build tile (%d, %d, layer %d): %w", h.TX, h.TY, h.TLayer, err)
	}
	return nil
}

// prepareParams fills b.params for BuildTileData from the poly mesh and
// runs the mesh process on it.
func (b *builder) prepareParams(in *buildInput) {
	n := b.polyCount
	b.meshFlags = growU16(b.meshFlags, n)
	clear(b.meshFlags)
	h := &b.layer.Header
	p := in.params
	b.params = navmesh.BuildParams{
		Verts:          b.meshVerts,
		Polys:          b.meshPolys[:n*polyStride],
		PolyFlags:      b.meshFlags[:n],
		PolyAreas:      b.meshAreas[:n],
		VertsPerPoly:   maxPolyVerts,
		TileX:          h.TX,
		TileY:          h.TY,
		TileLayer:      h.TLayer,
		BMin:           h.BMin,
		BMax:           h.BMax,
		WalkableHeight: p.WalkableHeight,
		WalkableRadius: p.WalkableRadius,
		WalkableClimb:  p.WalkableClimb,
		CellSize:       p.CellSize,
		CellHeight:     p.CellHeight,
	}
	if in.process != nil {
		in.process.Process(&b.params)
	}
}

// build returns the tile data of the layer with its obstacles, nil when no
// polygon is left (the tile is to be removed).
func (b *builder) build(in *buildInput) (*navmesh.TileData, error) {
	if err := b.buildPolygons(in); err != nil {
		return nil, err
	}
	if b.polyCount == 0 {
		return nil, nil
	}
	b.prepareParams(in)
	data, err := navmesh.BuildTileData(&b.params)
	if err != nil {
		h := &b.layer.Header
		return nil, fmt.Errorf("tilecache: build tile (%d, %d, layer %d): %w", h.TX, h.TY, h.TLayer, err)
	}
	return data, nil
}
