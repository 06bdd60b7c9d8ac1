package tilecache

import (
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/internal/binstate"
)

// ErrStateMismatch is wrapped when a CacheState is restored into a Cache
// of other parameters, or is empty.
var ErrStateMismatch = errors.New("tilecache: state does not fit the cache")

// CacheState is everything a Cache holds besides its mesh: every layer
// slot with its salt and data, the obstacles with their slots, salts,
// shapes and order, the layers each obstacle marks, the free slots in the
// order they are taken, the obstacle changes not resolved yet and the
// tile rebuilds still queued, in order. With the mesh's navmesh.MeshState
// it continues the cache exactly: obstacle refs stay valid, and the next
// Updates rebuild the same tiles in the same order as the cache it was
// taken from.
//
// Cache.CaptureState fills one (sharing the layers' encoded data, which
// the cache never modifies), Cache.RestoreState puts it back, and
// AppendBinary and UnmarshalBinary write and read it as bytes. The zero
// CacheState is empty and restores nowhere.
type CacheState struct {
	params            Params
	captured          bool
	layers            []cachedLayer
	freeLayers        []uint32
	nextFreshLayer    uint32
	columns           []columnState
	obstacles         []obstacleSlot
	freeObstacles     []uint32
	nextFreshObstacle uint32
	nextSequence      uint64
	dirty             []uint32
	pending           []pendingBuild
}

// columnState is one column's layer slots, the most recently added first.
type columnState struct {
	key   [2]int32
	slots []uint32
}

// Params returns the parameters of the cache the state was taken from.
func (s *CacheState) Params() Params { return s.params }

// ObstacleCount returns the number of obstacles in the state (removed ones
// waiting for an Update do not count).
func (s *CacheState) ObstacleCount() int {
	n := 0
	for i := range s.obstacles {
		if s.obstacles[i].state == obstacleActive {
			n++
		}
	}
	return n
}

// CaptureState stores c's state in dst, reusing dst's memory; the layers'
// encoded data is shared. It allocates nothing once dst has held a state
// of the same size. A nil dst captures nothing.
func (c *Cache) CaptureState(dst *CacheState) {
	if dst == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	dst.params = c.params
	dst.captured = true
	dst.layers = copyLayers(dst.layers, c.layers)
	dst.freeLayers = append(dst.freeLayers[:0], c.freeLayers...)
	dst.nextFreshLayer = c.nextFreshLayer
	dst.columns = dst.columns[:0]
	for _, key := range c.columnKeys {
		k := len(dst.columns)
		if k < cap(dst.columns) {
			dst.columns = dst.columns[:k+1]
		} else {
			dst.columns = append(dst.columns, columnState{})
		}
		dst.columns[k].key = key
		dst.columns[k].slots = append(dst.columns[k].slots[:0], c.columns[key]...)
	}
	dst.obstacles = copyObstacles(dst.obstacles, c.obstacles)
	dst.freeObstacles = append(dst.freeObstacles[:0], c.freeObstacles...)
	dst.nextFreshObstacle = c.nextFreshObstacle
	dst.nextSequence = c.nextSequence
	dst.dirty = append(dst.dirty[:0], c.dirty...)
	dst.pending = append(dst.pending[:0], c.pending...)
}

// copyLayers makes dst a copy of src with lists of its own, reusing dst's
// memory.
func copyLayers(dst, src []cachedLayer) []cachedLayer {
	dst = slices.Grow(dst[:0], len(src))[:len(src)]
	for i := range src {
		obstacles := append(dst[i].obstacles[:0], src[i].obstacles...)
		dst[i] = src[i]
		dst[i].obstacles = obstacles
	}
	return dst
}

// copyObstacles makes dst a copy of src with lists of its own, reusing
// dst's memory.
func copyObstacles(dst, src []obstacleSlot) []obstacleSlot {
	dst = slices.Grow(dst[:0], len(src))[:len(src)]
	for i := range src {
		layers := append(dst[i].layers[:0], src[i].layers...)
		dst[i] = src[i]
		dst[i].layers = layers
	}
	return dst
}

// RestoreState makes s c's state. The cache's mesh is not touched: restore
// its navmesh.MeshState, taken at the same time, with it. The error wraps
// ErrStateMismatch when s is nil or empty or was taken from a cache of
// other parameters; nothing changes then.
func (c *Cache) RestoreState(s *CacheState) error {
	if s == nil || !s.captured {
		return fmt.Errorf("tilecache: restore state: empty state: %w", ErrStateMismatch)
	}
	if s.params != c.params {
		return fmt.Errorf("tilecache: restore state: a cache of %+v into one of %+v: %w", s.params, c.params, ErrStateMismatch)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.layers = copyLayers(c.layers, s.layers)
	c.freeLayers = append(c.freeLayers[:0], s.freeLayers...)
	c.nextFreshLayer = s.nextFreshLayer
	c.layerCount = 0
	for i := range c.layers {
		if c.layers[i].used {
			c.layerCount++
		}
	}
	c.columnKeys = c.columnKeys[:0]
	for key := range c.columns {
		if !slices.ContainsFunc(s.columns, func(col columnState) bool { return col.key == key }) {
			delete(c.columns, key)
		}
	}
	for _, col := range s.columns {
		c.columnKeys = append(c.columnKeys, col.key)
		c.columns[col.key] = append(c.columns[col.key][:0], col.slots...)
	}
	c.obstacles = copyObstacles(c.obstacles, s.obstacles)
	c.freeObstacles = append(c.freeObstacles[:0], s.freeObstacles...)
	c.nextFreshObstacle = s.nextFreshObstacle
	c.nextSequence = s.nextSequence
	c.obstacleCount = s.ObstacleCount()
	c.dirty = append(c.dirty[:0], s.dirty...)
	c.pending = append(c.pending[:0], s.pending...)
	return nil
}

// AppendBinary appends the state's byte form to b: the cache parameters,
// the layer slots with their encoded data, the columns, the obstacle slots
// with their shapes, the free slots, the unresolved obstacle changes and
// the queued rebuilds. It fails for the zero CacheState.
func (s *CacheState) AppendBinary(b []byte) ([]byte, error) {
	if !s.captured {
		return b, fmt.Errorf("tilecache: encode state: empty state: %w", ErrStateMismatch)
	}
	w := binstate.Writer{B: b}
	appendParamsState(&w, &s.params)
	w.Count(len(s.layers))
	for i := range s.layers {
		l := &s.layers[i]
		w.U32(l.salt)
		w.Bool(l.used)
		if !l.used {
			continue
		}
		w.Bool(l.pending)
		w.Bytes(l.data)
		appendSlots(&w, l.obstacles)
	}
	appendSlots(&w, s.freeLayers)
	w.U32(s.nextFreshLayer)
	w.Count(len(s.columns))
	for _, col := range s.columns {
		w.I32(col.key[0])
		w.I32(col.key[1])
		appendSlots(&w, col.slots)
	}
	w.Count(len(s.obstacles))
	for i := range s.obstacles {
		o := &s.obstacles[i]
		w.U32(o.salt)
		w.U8(uint8(o.state))
		if o.state == obstacleFree {
			continue
		}
		w.Bool(o.queued)
		w.U64(o.sequence)
		appendObstacle(&w, &o.placed.Obstacle)
		appendSlots(&w, o.layers)
	}
	appendSlots(&w, s.freeObstacles)
	w.U32(s.nextFreshObstacle)
	w.U64(s.nextSequence)
	appendSlots(&w, s.dirty)
	w.Count(len(s.pending))
	for _, p := range s.pending {
		w.Bool(p.remove)
		if p.remove {
			w.I32(p.x)
			w.I32(p.y)
			w.I32(p.layer)
			continue
		}
		w.U32(p.slot)
		w.U32(p.salt)
	}
	return w.B, nil
}

func appendSlots(w *binstate.Writer, slots []uint32) {
	w.Count(len(slots))
	for _, slot := range slots {
		w.U32(slot)
	}
}

func readSlots(r *binstate.Reader, limit int) []uint32 {
	n := r.Count(limit, 4)
	if n == 0 {
		return nil
	}
	slots := make([]uint32, n)
	for i := range slots {
		slots[i] = r.U32()
	}
	return slots
}

func appendParamsState(w *binstate.Writer, p *Params) {
	w.Vec3(p.Origin)
	w.F32(p.CellSize)
	w.F32(p.CellHeight)
	w.I32(p.Width)
	w.I32(p.Height)
	w.F32(p.WalkableHeight)
	w.F32(p.WalkableRadius)
	w.F32(p.WalkableClimb)
	w.F32(p.MaxSimplificationError)
	w.I32(p.MaxTiles)
	w.I32(p.MaxObstacles)
}

func readParamsState(r *binstate.Reader) Params {
	return Params{
		Origin: r.Vec3(), CellSize: r.F32(), CellHeight: r.F32(), Width: r.I32(), Height: r.I32(),
		WalkableHeight: r.F32(), WalkableRadius: r.F32(), WalkableClimb: r.F32(),
		MaxSimplificationError: r.F32(), MaxTiles: r.I32(), MaxObstacles: r.I32(),
	}
}

func appendObstacle(w *binstate.Writer, o *Obstacle) {
	w.U8(uint8(o.Shape))
	w.Vec3(o.Position)
	w.F32(o.Radius)
	w.F32(o.Height)
	w.Vec3(o.Min)
	w.Vec3(o.Max)
	w.Vec3(o.HalfExtents)
	w.F32(o.Yaw)
	w.Count(o.PointCount)
	for _, p := range o.Points[:min(max(o.PointCount, 0), MaxPrismPoints)] {
		w.F32(p[0])
		w.F32(p[1])
	}
	w.U8(o.Area)
}

func readObstacle(r *binstate.Reader) Obstacle {
	o := Obstacle{Shape: ObstacleShape(r.U8()), Position: r.Vec3(), Radius: r.F32(), Height: r.F32(),
		Min: r.Vec3(), Max: r.Vec3(), HalfExtents: r.Vec3(), Yaw: r.F32()}
	o.PointCount = r.Count(MaxPrismPoints, 8)
	for i := range o.PointCount {
		o.Points[i][0], o.Points[i][1] = r.F32(), r.F32()
	}
	o.Area = r.U8()
	return o
}

// Bounds of a decoded state, against hostile input.
const (
	// maxStateSequence bounds the obstacle sequence numbers.
	maxStateSequence = 1 << 62
	// stateLayerMinSize is the smallest encoded used layer slot.
	stateLayerMinSize = 4 + 1
)

// UnmarshalBinary reads a state written by AppendBinary into s, checking
// every slot, list and layer (as AddLayer checks a layer) so that a
// corrupt state is refused with an error wrapping ErrMalformedFile; s
// changes only when data is valid. The layers are decoded with the FastLZ
// compressor unless a cache of another compressor reads them (see
// Cache.CheckState).
func (s *CacheState) UnmarshalBinary(data []byte) error {
	return s.unmarshal(data, FastLZ{})
}

// unmarshal is UnmarshalBinary with the layers' compressor.
func (s *CacheState) unmarshal(data []byte, compressor Compressor) error {
	r := binstate.NewReader(data, "tile cache state")
	fail := func() error { return fmt.Errorf("tilecache: state: %w: %w", r.Err(), ErrMalformedFile) }
	st := CacheState{captured: true}
	st.params = readParamsState(r)
	if r.Err() == nil {
		if err := checkParams(st.params); err != nil {
			r.Fail("%v", err)
		}
	}
	if r.Err() != nil {
		return fail()
	}
	bits := newLayerRefBits(st.params.MaxTiles)
	maxTiles, maxObstacles := int(st.params.MaxTiles), int(st.params.MaxObstacles)

	// Layers.
	n := r.Count(maxTiles, 5)
	st.layers = make([]cachedLayer, n)
	locations := map[[3]int32]bool{}
	for i := range st.layers {
		l := &st.layers[i]
		l.salt = r.U32()
		l.used = r.Bool()
		if r.Err() == nil && (l.salt == 0 || l.salt >= 1<<bits.saltBits) {
			r.Fail("layer slot %d salt %d", i, l.salt)
		}
		if !l.used || r.Err() != nil {
			continue
		}
		l.pending = r.Bool()
		l.data = slices.Clone(r.Bytes(r.Left()))
		l.obstacles = readSlots(r, maxObstacles)
		if r.Err() != nil {
			break
		}
		layer, err := DecodeLayer(l.data, compressor)
		if err != nil {
			r.Fail("layer slot %d: %v", i, err)
			break
		}
		h := layer.Header
		if h.TLayer > 255 || locations[[3]int32{h.TX, h.TY, h.TLayer}] {
			r.Fail("layer slot %d at (%d, %d, layer %d) taken or out of range", i, h.TX, h.TY, h.TLayer)
			break
		}
		locations[[3]int32{h.TX, h.TY, h.TLayer}] = true
		l.header = h
		l.tightMin, l.tightMax = tightBounds(&st.params, &h)
	}
	st.freeLayers = readSlots(r, maxTiles)
	st.nextFreshLayer = r.U32()
	if r.Err() == nil && int(st.nextFreshLayer) != len(st.layers) {
		r.Fail("next fresh layer slot %d, %d slots", st.nextFreshLayer, len(st.layers))
	}
	seen := map[uint32]bool{}
	for _, slot := range st.freeLayers {
		if r.Err() == nil && (uint64(slot) >= uint64(len(st.layers)) || st.layers[slot].used || seen[slot]) {
			r.Fail("free layer slot %d in use, repeated or out of range", slot)
		}
		seen[slot] = true
	}
	for i := range st.layers {
		if r.Err() == nil && !st.layers[i].used && !seen[uint32(i)] {
			r.Fail("layer slot %d neither used nor free", i)
		}
	}

	// Columns: every used layer in its own column, once.
	n = r.Count(maxTiles, 12)
	inColumn := map[uint32]bool{}
	for range n {
		col := columnState{key: [2]int32{r.I32(), r.I32()}}
		col.slots = readSlots(r, maxTiles)
		if r.Err() != nil {
			break
		}
		if len(col.slots) == 0 || (len(st.columns) > 0 && compareColumns(st.columns[len(st.columns)-1].key, col.key) >= 0) {
			r.Fail("column (%d, %d) empty or out of order", col.key[0], col.key[1])
		}
		for _, slot := range col.slots {
			if r.Err() == nil && (uint64(slot) >= uint64(len(st.layers)) || !st.layers[slot].used || inColumn[slot] ||
				st.layers[slot].header.TX != col.key[0] || st.layers[slot].header.TY != col.key[1]) {
				r.Fail("column (%d, %d) holds layer slot %d", col.key[0], col.key[1], slot)
			}
			inColumn[slot] = true
		}
		st.columns = append(st.columns, col)
	}
	for i := range st.layers {
		if r.Err() == nil && st.layers[i].used && !inColumn[uint32(i)] {
			r.Fail("layer slot %d in no column", i)
		}
	}
	if r.Err() != nil {
		return fail()
	}

	// Obstacles.
	n = r.Count(maxObstacles, 5)
	st.obstacles = make([]obstacleSlot, n)
	for i := range st.obstacles {
		o := &st.obstacles[i]
		o.salt = r.U32()
		o.state = obstacleState(r.U8())
		if r.Err() == nil && (o.salt == 0 || o.state > obstacleRemoving) {
			r.Fail("obstacle slot %d salt %d state %d", i, o.salt, o.state)
		}
		if o.state == obstacleFree || r.Err() != nil {
			continue
		}
		o.queued = r.Bool()
		o.sequence = r.U64()
		obstacle := readObstacle(r)
		o.layers = readSlots(r, maxTiles)
		if r.Err() != nil {
			break
		}
		if o.sequence >= maxStateSequence {
			r.Fail("obstacle slot %d sequence %d", i, o.sequence)
		}
		if err := obstacle.check(); err != nil {
			r.Fail("obstacle slot %d: %v", i, err)
		}
		o.placed = place(obstacle)
	}
	st.freeObstacles = readSlots(r, maxObstacles)
	st.nextFreshObstacle = r.U32()
	st.nextSequence = r.U64()
	st.dirty = readSlots(r, maxObstacles)
	if r.Err() == nil && (int(st.nextFreshObstacle) != len(st.obstacles) || st.nextSequence >= maxStateSequence) {
		r.Fail("next fresh obstacle slot %d of %d, next sequence %d", st.nextFreshObstacle, len(st.obstacles), st.nextSequence)
	}
	clear(seen)
	for _, slot := range st.freeObstacles {
		if r.Err() == nil && (uint64(slot) >= uint64(len(st.obstacles)) || st.obstacles[slot].state != obstacleFree || seen[slot]) {
			r.Fail("free obstacle slot %d in use, repeated or out of range", slot)
		}
		seen[slot] = true
	}
	clear(seen)
	for _, slot := range st.dirty {
		if r.Err() == nil && (uint64(slot) >= uint64(len(st.obstacles)) || st.obstacles[slot].state == obstacleFree || !st.obstacles[slot].queued || seen[slot]) {
			r.Fail("changed obstacle slot %d free, not marked, repeated or out of range", slot)
		}
		seen[slot] = true
	}
	for i := range st.obstacles {
		o := &st.obstacles[i]
		if r.Err() == nil && o.queued && !seen[uint32(i)] {
			r.Fail("obstacle slot %d marked changed but not listed", i)
		}
		if r.Err() == nil && o.state == obstacleRemoving && !o.queued {
			r.Fail("removed obstacle slot %d not listed for removal", i)
		}
	}
	st.checkMarks(r)

	// Queued rebuilds.
	n = r.Count(1<<30, 5)
	queued := map[[2]uint32]bool{}
	for range n {
		var p pendingBuild
		p.remove = r.Bool()
		if p.remove {
			p.x, p.y, p.layer = r.I32(), r.I32(), r.I32()
		} else {
			p.slot, p.salt = r.U32(), r.U32()
			if r.Err() == nil && (uint64(p.slot) >= uint64(len(st.layers)) || queued[[2]uint32{p.slot, p.salt}] || p.salt == 0) {
				r.Fail("queued rebuild of layer slot %d repeated or out of range", p.slot)
			}
			queued[[2]uint32{p.slot, p.salt}] = true
		}
		if r.Err() != nil {
			break
		}
		st.pending = append(st.pending, p)
	}
	for i := range st.layers {
		l := &st.layers[i]
		if r.Err() == nil && l.used && l.pending && !queued[[2]uint32{uint32(i), l.salt}] {
			r.Fail("layer slot %d marked for a rebuild that is not queued", i)
		}
	}
	if err := r.End(); err != nil {
		return fail()
	}
	*s = st
	return nil
}

// checkMarks checks that the layers each obstacle marks and the obstacles
// each layer lists agree, the lists in the order of the obstacles'
// sequence numbers.
func (s *CacheState) checkMarks(r *binstate.Reader) {
	if r.Err() != nil {
		return
	}
	marks := 0
	for i := range s.obstacles {
		o := &s.obstacles[i]
		for k, l := range o.layers {
			if uint64(l) >= uint64(len(s.layers)) || !s.layers[l].used || slices.Index(o.layers, l) != k ||
				!slices.Contains(s.layers[l].obstacles, uint32(i)) {
				r.Fail("obstacle slot %d marks layer slot %d, which does not list it once", i, l)
				return
			}
			marks++
		}
	}
	for i := range s.layers {
		list := s.layers[i].obstacles
		for k, o := range list {
			if uint64(o) >= uint64(len(s.obstacles)) || s.obstacles[o].state == obstacleFree || slices.Index(list, o) != k ||
				(k > 0 && s.obstacles[list[k-1]].sequence > s.obstacles[o].sequence) {
				r.Fail("layer slot %d lists obstacle slot %d free, twice or out of order", i, o)
				return
			}
			marks--
		}
	}
	if marks != 0 {
		r.Fail("obstacle and layer lists disagree by %d marks", marks)
	}
}

// tightBounds returns the bounds of the used cells of a layer with header
// h (dtTileCache::calcTightTileBounds).
func tightBounds(p *Params, h *LayerHeader) (lo, hi [3]float32) {
	cs := p.CellSize
	lo = [3]float32{h.BMin[0] + float32(float32(h.MinX)*cs), h.BMin[1], h.BMin[2] + float32(float32(h.MinY)*cs)}
	hi = [3]float32{h.BMin[0] + float32(float32(int(h.MaxX)+1)*cs), h.BMax[1], h.BMin[2] + float32(float32(int(h.MaxY)+1)*cs)}
	return lo, hi
}

// CheckState reads data, a state written by CacheState.AppendBinary, into
// s with the cache's compressor and checks that it fits c (the same
// parameters), without changing c. Errors wrap ErrMalformedFile or
// ErrStateMismatch; s changes only when data is valid and fits. A nil s
// checks data only.
func (c *Cache) CheckState(s *CacheState, data []byte) error {
	var st CacheState
	if err := st.unmarshal(data, c.compressor); err != nil {
		return err
	}
	if st.params != c.params {
		return fmt.Errorf("tilecache: state of a cache of %+v for one of %+v: %w", st.params, c.params, ErrStateMismatch)
	}
	if s != nil {
		*s = st
	}
	return nil
}
