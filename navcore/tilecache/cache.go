package tilecache

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Errors of the Cache, for errors.Is.
var (
	// ErrInvalidLayerRef is wrapped for a zero, stale or out-of-range
	// LayerRef.
	ErrInvalidLayerRef = errors.New("tilecache: invalid layer reference")
	// ErrLayerExists is wrapped when a layer's location (x, y, layer) is
	// taken.
	ErrLayerExists = errors.New("tilecache: layer already exists")
	// ErrOutOfLayers is wrapped when every one of Params.MaxTiles layer
	// slots is in use.
	ErrOutOfLayers = errors.New("tilecache: out of layer slots")
	// ErrInvalidObstacleRef is wrapped for a zero, stale (removed) or
	// out-of-range ObstacleRef.
	ErrInvalidObstacleRef = errors.New("tilecache: invalid obstacle reference")
	// ErrOutOfObstacles is wrapped when Params.MaxObstacles obstacles
	// exist (removed ones free their slot at the next Update).
	ErrOutOfObstacles = errors.New("tilecache: out of obstacle slots")
	// ErrOutsideLayers is wrapped for an obstacle that touches no layer of
	// the cache: it could never carve anything (the C++ takes it and leaks
	// its slot).
	ErrOutsideLayers = errors.New("tilecache: obstacle outside every layer")
)

// Options are a Cache's optional parts.
type Options struct {
	// Compressor reads and writes the layers' grids; nil means FastLZ.
	Compressor Compressor
	// Process adjusts each tile before its data is built; nil means
	// &RecastDemoProcess{} (areas to flags, no off-mesh connections).
	Process MeshProcess
	// Workers is the number of goroutines Update builds tiles on
	// [Limit: <= 0 means 1]. The mesh comes out the same for any number.
	Workers int
}

// Cache is a tile cache (dtTileCache): compressed heightfield layers per
// tile location (x, y, layer), obstacles, and the navmesh tiles built from
// both. Changes (layers added or removed, obstacles added, moved, removed)
// are queued; Update rebuilds the layers they touch, on Options.Workers
// goroutines, and publishes all rebuilt tiles to the navmesh.Mesh in one
// Mesh.Apply, so readers of the mesh never see half an update. Unlike the
// C++ no change is dropped: any number of layers may wait for a rebuild and
// an obstacle may touch any number of layers. A Cache is safe for concurrent
// use; the Mesh may be read concurrently with anything.
type Cache struct {
	params     Params
	bits       layerRefBits
	mesh       *navmesh.Mesh
	compressor Compressor
	process    MeshProcess
	workers    int

	mu sync.Mutex

	layers         []cachedLayer
	freeLayers     []uint32 // the free list; its head is the last entry
	nextFreshLayer uint32
	layerCount     int
	// columns holds the layer slots of each (x, y), the most recently
	// added first (the C++ hash chain order); columnKeys the columns in
	// (y, x) order.
	columns    map[[2]int32][]uint32
	columnKeys [][2]int32

	obstacles         []obstacleSlot
	freeObstacles     []uint32
	nextFreshObstacle uint32
	obstacleCount     int
	nextSequence      uint64
	// dirty lists the obstacle slots with a change to resolve, in request
	// order.
	dirty []uint32

	// pending lists the layers to rebuild (and locations to clear), in the
	// order their changes were resolved.
	pending []pendingBuild

	touched  []uint32
	builders []*builder
	results  []buildResult
	batch    navmesh.Batch
	refs     []navmesh.TileRef

	// scheduler runs the builds of an Update; buildJob builds change i
	// into results[i] with worker's builder.
	scheduler Scheduler
	buildJob  func(worker, i int)
}

// cachedLayer is one layer slot.
type cachedLayer struct {
	salt    uint32
	used    bool
	pending bool
	data    []byte
	header  LayerHeader
	// tightMin and tightMax bound the used cells
	// (dtTileCache::calcTightTileBounds).
	tightMin, tightMax mgl32.Vec3
	// obstacles are the slots of the obstacles marking the layer, in the
	// order they were added.
	obstacles []uint32
}

// pendingBuild is one queued tile change: rebuild the layer in slot (when
// its salt still matches) or, for a removed layer, clear its location.
type pendingBuild struct {
	slot, salt  uint32
	remove      bool
	x, y, layer int32
}

// buildResult is what a worker built for one pendingBuild.
type buildResult struct {
	data  *navmesh.TileData
	err   error
	skip  bool
	empty bool
}

// New returns an empty cache for params that builds into mesh. The mesh's
// tile size must be params.Width×CellSize by params.Height×CellSize and
// its origin params.Origin in x and z (within float32 rounding). Errors
// wrap ErrInvalidParams.
func New(params Params, mesh *navmesh.Mesh, options Options) (*Cache, error) {
	if err := checkParams(params); err != nil {
		return nil, err
	}
	if mesh == nil {
		return nil, fmt.Errorf("tilecache: nil mesh: %w", ErrInvalidParams)
	}
	mp := mesh.Params()
	tw, th := float32(params.Width)*params.CellSize, float32(params.Height)*params.CellSize
	if !near(mp.TileWidth, tw) || !near(mp.TileHeight, th) || !near(mp.Origin[0], params.Origin[0]) || !near(mp.Origin[2], params.Origin[2]) {
		return nil, fmt.Errorf("tilecache: mesh tiles %v×%v at %v do not match the cache's %v×%v at %v: %w",
			mp.TileWidth, mp.TileHeight, mp.Origin, tw, th, params.Origin, ErrInvalidParams)
	}
	c := &Cache{
		params:     params,
		bits:       newLayerRefBits(params.MaxTiles),
		mesh:       mesh,
		compressor: options.Compressor,
		process:    options.Process,
		workers:    max(options.Workers, 1),
		columns:    map[[2]int32][]uint32{},
	}
	if c.compressor == nil {
		c.compressor = FastLZ{}
	}
	if c.process == nil {
		c.process = &RecastDemoProcess{}
	}
	for range c.workers {
		c.builders = append(c.builders, newBuilder(int(params.Width), int(params.Height)))
	}
	return c, nil
}

// near reports whether a and b agree to float32 rounding of values around
// their size.
func near(a, b float32) bool {
	d := math.Abs(float64(a) - float64(b))
	return d <= 1e-5*math.Max(1, math.Max(math.Abs(float64(a)), math.Abs(float64(b))))
}

// Params returns the cache's parameters.
func (c *Cache) Params() Params { return c.params }

// Mesh returns the navmesh the cache builds into.
func (c *Cache) Mesh() *navmesh.Mesh { return c.mesh }

// LayerCount returns the number of layers in the cache.
func (c *Cache) LayerCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.layerCount
}

// Pending returns the number of tile changes waiting for Update, counting
// obstacle changes not yet resolved as one each.
func (c *Cache) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) + len(c.dirty)
}

// AddLayer adds an encoded layer (EncodeLayer's output, or a layer of a
// TSET file) and queues its tile for the next Update (dtTileCache::addTile).
// The layer is checked as DecodeLayer checks it. Obstacles already in the
// cache that touch it will mark it. The cache keeps data and never modifies
// it; the caller must not modify it afterwards. Errors wrap the decoding
// errors, ErrLayerExists or ErrOutOfLayers; on error nothing changes.
func (c *Cache) AddLayer(data []byte) (LayerRef, error) {
	return c.addLayer(data, 0)
}

// addLayerAt adds a layer in the slot and with the salt of ref (restoring
// a saved cache).
func (c *Cache) addLayerAt(ref LayerRef, data []byte) (LayerRef, error) {
	return c.addLayer(data, ref)
}

// addLayer is AddLayer into the free list's head (ref 0) or into ref's
// slot, which must be free.
func (c *Cache) addLayer(data []byte, ref LayerRef) (LayerRef, error) {
	layer, err := DecodeLayer(data, c.compressor)
	if err != nil {
		return 0, fmt.Errorf("tilecache: add layer: %w", err)
	}
	h := layer.Header
	if h.TLayer > math.MaxUint8 {
		return 0, fmt.Errorf("tilecache: add layer (%d, %d, layer %d): layer index above 255: %w", h.TX, h.TY, h.TLayer, ErrInvalidLayer)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := [2]int32{h.TX, h.TY}
	for _, slot := range c.columns[key] {
		if c.layers[slot].header.TLayer == h.TLayer {
			return 0, fmt.Errorf("tilecache: add layer (%d, %d, layer %d): %w", h.TX, h.TY, h.TLayer, ErrLayerExists)
		}
	}
	var slot uint32
	if ref == 0 {
		var ok bool
		if slot, ok = c.takeLayerSlot(); !ok {
			return 0, fmt.Errorf("tilecache: add layer (%d, %d, layer %d): %d layers: %w", h.TX, h.TY, h.TLayer, c.params.MaxTiles, ErrOutOfLayers)
		}
	} else {
		salt, at := c.bits.decode(ref)
		if salt == 0 || int64(at) >= int64(c.params.MaxTiles) || (int(at) < len(c.layers) && c.layers[at].used) {
			return 0, fmt.Errorf("tilecache: add layer (%d, %d, layer %d) at ref %#x: %w", h.TX, h.TY, h.TLayer, uint32(ref), ErrInvalidLayerRef)
		}
		for len(c.layers) <= int(at) {
			c.layers = append(c.layers, cachedLayer{salt: 1})
		}
		c.nextFreshLayer = uint32(len(c.layers))
		slot = at
		c.layers[slot].salt = salt
	}
	l := &c.layers[slot]
	*l = cachedLayer{salt: l.salt, used: true, data: data, header: h, obstacles: l.obstacles[:0]}
	l.tightMin, l.tightMax = tightBounds(&c.params, &h)
	column, existed := c.columns[key]
	c.columns[key] = append([]uint32{slot}, column...)
	if !existed {
		i, _ := slices.BinarySearchFunc(c.columnKeys, key, compareColumns)
		c.columnKeys = slices.Insert(c.columnKeys, i, key)
	}
	c.layerCount++
	// Resolved obstacles over the new layer mark it; queued ones find it
	// when they are resolved.
	for i := range c.obstacles {
		o := &c.obstacles[i]
		if o.state == obstacleActive && !o.queued && overlapBounds(o.placed.bmin, o.placed.bmax, l.tightMin, l.tightMax) {
			c.attach(uint32(i), slot)
		}
	}
	c.queueLayer(slot)
	return c.bits.encode(l.salt, slot), nil
}

// rebuildFreeLists makes the free lists of a restored cache: the unused
// slots below the highest used one, lowest first.
func (c *Cache) rebuildFreeLists() {
	c.freeLayers = c.freeLayers[:0]
	for slot := len(c.layers) - 1; slot >= 0; slot-- {
		if !c.layers[slot].used {
			c.freeLayers = append(c.freeLayers, uint32(slot))
		}
	}
	c.freeObstacles = c.freeObstacles[:0]
	for slot := len(c.obstacles) - 1; slot >= 0; slot-- {
		if c.obstacles[slot].state == obstacleFree {
			c.freeObstacles = append(c.freeObstacles, uint32(slot))
		}
	}
}

// compareColumns orders columns by y, then x.
func compareColumns(a, b [2]int32) int {
	if a[1] != b[1] {
		return int(a[1]) - int(b[1])
	}
	return int(a[0]) - int(b[0])
}

// takeLayerSlot pops the free list's head (slot 0, 1, 2... on a new cache,
// then the most recently freed).
func (c *Cache) takeLayerSlot() (uint32, bool) {
	if n := len(c.freeLayers); n > 0 {
		slot := c.freeLayers[n-1]
		c.freeLayers = c.freeLayers[:n-1]
		return slot, true
	}
	if c.nextFreshLayer >= uint32(c.params.MaxTiles) {
		return 0, false
	}
	slot := c.nextFreshLayer
	c.nextFreshLayer++
	c.layers = append(c.layers, cachedLayer{salt: 1})
	return slot, true
}

// layerByRef returns the slot ref names, ok false when it is zero, stale or
// out of range.
func (c *Cache) layerByRef(ref LayerRef) (uint32, bool) {
	salt, slot := c.bits.decode(ref)
	if ref == 0 || int(slot) >= len(c.layers) || !c.layers[slot].used || c.layers[slot].salt != salt {
		return 0, false
	}
	return slot, true
}

// RemoveLayer removes a layer and returns its data (dtTileCache::removeTile);
// the next Update removes its navmesh tile. Its ref goes stale. The error
// wraps ErrInvalidLayerRef.
func (c *Cache) RemoveLayer(ref LayerRef) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.layerByRef(ref)
	if !ok {
		return nil, fmt.Errorf("tilecache: remove layer %#x: %w", uint32(ref), ErrInvalidLayerRef)
	}
	l := &c.layers[slot]
	h := l.header
	for _, o := range l.obstacles {
		layers := &c.obstacles[o].layers
		*layers = slices.DeleteFunc(*layers, func(s uint32) bool { return s == slot })
	}
	key := [2]int32{h.TX, h.TY}
	column := slices.DeleteFunc(c.columns[key], func(s uint32) bool { return s == slot })
	if len(column) == 0 {
		delete(c.columns, key)
		if i, found := slices.BinarySearchFunc(c.columnKeys, key, compareColumns); found {
			c.columnKeys = slices.Delete(c.columnKeys, i, i+1)
		}
	} else {
		c.columns[key] = column
	}
	c.pending = append(c.pending, pendingBuild{remove: true, x: h.TX, y: h.TY, layer: h.TLayer})
	data := l.data
	*l = cachedLayer{salt: c.bits.nextSalt(l.salt), obstacles: l.obstacles[:0]}
	c.freeLayers = append(c.freeLayers, slot)
	c.layerCount--
	return data, nil
}

// LayerInfo describes one layer of the cache.
type LayerInfo struct {
	// Ref is the layer's ref.
	Ref LayerRef
	// Header is its header.
	Header LayerHeader
	// Data is its encoded form, shared with the cache: do not modify it.
	Data []byte
}

// Layers appends every layer of the cache to dst in slot order (the order
// Sample_TempObstacles::saveAll writes them) and returns it.
func (c *Cache) Layers(dst []LayerInfo) []LayerInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	for slot := range c.layers {
		if l := &c.layers[slot]; l.used {
			dst = append(dst, LayerInfo{Ref: c.bits.encode(l.salt, uint32(slot)), Header: l.header, Data: l.data})
		}
	}
	return dst
}

// LayersAt appends the refs of the layers at column (x, y) to dst, the most
// recently added first (dtTileCache::getTilesAt), and returns it.
func (c *Cache) LayersAt(x, y int32, dst []LayerRef) []LayerRef {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, slot := range c.columns[[2]int32{x, y}] {
		dst = append(dst, c.bits.encode(c.layers[slot].salt, slot))
	}
	return dst
}

// TileSet returns the cache's parameters, the mesh's and its layers in slot
// order, for WriteTSET or Save.
func (c *Cache) TileSet() *TileSet {
	layers := c.Layers(nil)
	set := &TileSet{MeshParams: c.mesh.Params(), CacheParams: c.params, Layers: make([]StoredLayer, len(layers))}
	for i, l := range layers {
		set.Layers[i] = StoredLayer{Ref: l.Ref, Data: l.Data}
	}
	return set
}

// queueLayer queues a rebuild of the layer in slot unless one is queued.
func (c *Cache) queueLayer(slot uint32) {
	l := &c.layers[slot]
	if l.pending {
		return
	}
	l.pending = true
	c.pending = append(c.pending, pendingBuild{slot: slot, salt: l.salt})
}

// overlapBounds is dtOverlapBounds: closed boxes in all three axes.
func overlapBounds(amin, amax, bmin, bmax mgl32.Vec3) bool {
	return !(amin[0] > bmax[0] || amax[0] < bmin[0] ||
		amin[1] > bmax[1] || amax[1] < bmin[1] ||
		amin[2] > bmax[2] || amax[2] < bmin[2])
}

// maxDirectColumns is the largest column range queryLayers looks up one by
// one; beyond it, it scans the sorted column list.
const maxDirectColumns = 64

// queryLayers appends to dst the slots of the layers whose used cells'
// bounds overlap bmin..bmax, by tile row, then column, then the column's
// chain order (dtTileCache::queryTiles without its 32-per-column and
// caller's caps).
func (c *Cache) queryLayers(bmin, bmax mgl32.Vec3, dst []uint32) []uint32 {
	p := &c.params
	tw, th := float32(p.Width)*p.CellSize, float32(p.Height)*p.CellSize
	tx0 := cellIndex((bmin[0] - p.Origin[0]) / tw)
	tx1 := cellIndex((bmax[0] - p.Origin[0]) / tw)
	ty0 := cellIndex((bmin[2] - p.Origin[2]) / th)
	ty1 := cellIndex((bmax[2] - p.Origin[2]) / th)
	visit := func(column []uint32) {
		for _, slot := range column {
			l := &c.layers[slot]
			if overlapBounds(bmin, bmax, l.tightMin, l.tightMax) {
				dst = append(dst, slot)
			}
		}
	}
	if span := (int64(tx1) - int64(tx0) + 1) * (int64(ty1) - int64(ty0) + 1); span <= maxDirectColumns {
		for ty := ty0; ty <= ty1; ty++ {
			for tx := tx0; tx <= tx1; tx++ {
				if fitsInt32(tx) && fitsInt32(ty) {
					visit(c.columns[[2]int32{int32(tx), int32(ty)}])
				}
			}
		}
		return dst
	}
	start, _ := slices.BinarySearchFunc(c.columnKeys, [2]int32{math.MinInt32, int32(max(ty0, math.MinInt32))}, compareColumns)
	for _, key := range c.columnKeys[start:] {
		if int(key[1]) > ty1 {
			break
		}
		if int(key[0]) >= tx0 && int(key[0]) <= tx1 {
			visit(c.columns[key])
		}
	}
	return dst
}

func fitsInt32(v int) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }
