package dynamic

import (
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
)

// colliderSlot is one collider slot of the mesh.
type colliderSlot struct {
	salt uint32
	used bool
	// sequence orders the colliders by when they were added: tiles
	// rasterize them in this order.
	sequence uint64
	pose     collider.Pose
	placed   collider.Placed
	// worldVertices are a mesh collider's vertices placed in the world,
	// computed once per change and never written afterwards.
	worldVertices []geom.Vec3
	// tiles are the grid indices of the tiles whose fields the collider
	// touches, ascending.
	tiles []int32
}

// refOf returns the ref of slot.
func (m *Mesh) refOf(slot uint32) collider.Ref {
	return collider.Ref(uint64(m.colliders[slot].salt)<<32 | uint64(slot))
}

// slotOf returns the slot ref names, if it names a live collider.
func (m *Mesh) slotOf(ref collider.Ref) (uint32, bool) {
	slot, salt := uint64(ref)&0xffffffff, uint32(uint64(ref)>>32)
	if salt == 0 || slot >= uint64(len(m.colliders)) {
		return 0, false
	}
	s := &m.colliders[slot]
	if !s.used || s.salt != salt {
		return 0, false
	}
	return uint32(slot), true
}

// AddCollider adds a collider of shape at pose and marks the tiles it
// touches for the next Update; it returns the collider's ref. The error
// wraps collider.ErrInvalidShape for a bad shape or pose, ErrOutsideGrid
// for a collider that misses every tile's field, ErrTooManyColliders past
// Options.MaxColliders; nothing changes then. A mesh collider's Mesh must
// not change afterwards (see collider.Mesh). Steady-state adds and moves
// of primitives allocate nothing; a mesh collider's vertices are placed
// once per change.
func (m *Mesh) AddCollider(shape collider.Shape, pose collider.Pose) (collider.Ref, error) {
	placed, err := collider.Place(shape, pose)
	if err != nil {
		return 0, fmt.Errorf("dynamic: add collider: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.colliderCount >= m.maxColliders {
		return 0, fmt.Errorf("dynamic: add collider: %d colliders: %w", m.colliderCount, ErrTooManyColliders)
	}
	x0, y0, x1, y1, err := m.tilesUnder(&placed)
	if err != nil {
		return 0, fmt.Errorf("dynamic: add collider: %w", err)
	}
	slot := m.takeSlot()
	s := &m.colliders[slot]
	s.sequence = m.nextSequence
	m.nextSequence++
	m.place(slot, pose, placed, x0, y0, x1, y1)
	return m.refOf(slot), nil
}

// MoveCollider moves collider ref to pose, marking the tiles it leaves
// and those it reaches. Errors are AddCollider's, and ErrInvalidRef; the
// collider stays where it was then.
func (m *Mesh) MoveCollider(ref collider.Ref, pose collider.Pose) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	slot, ok := m.slotOf(ref)
	if !ok {
		return fmt.Errorf("dynamic: move collider %#x: %w", uint64(ref), ErrInvalidRef)
	}
	if err := m.replace(slot, m.colliders[slot].placed.Shape(), pose); err != nil {
		return fmt.Errorf("dynamic: move collider: %w", err)
	}
	return nil
}

// SetCollider gives collider ref a new shape and pose (a crate that
// breaks, a door that turns), marking the tiles it leaves and those it
// reaches. It keeps its place in the order colliders are rasterized in.
// Errors are AddCollider's, and ErrInvalidRef; the collider stays as it
// was then.
func (m *Mesh) SetCollider(ref collider.Ref, shape collider.Shape, pose collider.Pose) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	slot, ok := m.slotOf(ref)
	if !ok {
		return fmt.Errorf("dynamic: set collider %#x: %w", uint64(ref), ErrInvalidRef)
	}
	if err := m.replace(slot, shape, pose); err != nil {
		return fmt.Errorf("dynamic: set collider: %w", err)
	}
	return nil
}

// replace puts collider slot's new shape at pose, or changes nothing when
// that fails.
func (m *Mesh) replace(slot uint32, shape collider.Shape, pose collider.Pose) error {
	placed, err := collider.Place(shape, pose)
	if err != nil {
		return err
	}
	x0, y0, x1, y1, err := m.tilesUnder(&placed)
	if err != nil {
		return err
	}
	m.unplace(slot)
	m.place(slot, pose, placed, x0, y0, x1, y1)
	return nil
}

// RemoveCollider removes collider ref and marks the tiles it touched; the
// ref is invalid from then on. The error wraps ErrInvalidRef.
func (m *Mesh) RemoveCollider(ref collider.Ref) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	slot, ok := m.slotOf(ref)
	if !ok {
		return fmt.Errorf("dynamic: remove collider %#x: %w", uint64(ref), ErrInvalidRef)
	}
	m.unplace(slot)
	s := &m.colliders[slot]
	s.used, s.placed, s.worldVertices = false, collider.Placed{}, nil
	s.salt++
	if s.salt == 0 {
		s.salt = 1
	}
	m.free = append(m.free, slot)
	m.colliderCount--
	return nil
}

// Collider returns the shape and pose of collider ref. The error wraps
// ErrInvalidRef.
func (m *Mesh) Collider(ref collider.Ref) (collider.Shape, collider.Pose, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	slot, ok := m.slotOf(ref)
	if !ok {
		return collider.Shape{}, collider.Pose{}, fmt.Errorf("dynamic: collider %#x: %w", uint64(ref), ErrInvalidRef)
	}
	s := &m.colliders[slot]
	return s.placed.Shape(), s.pose, nil
}

// Colliders appends the refs of every collider, in the order they were
// added, to dst and returns it.
func (m *Mesh) Colliders(dst []collider.Ref) []collider.Ref {
	m.mu.Lock()
	defer m.mu.Unlock()
	start := len(dst)
	for slot := range m.colliders {
		if m.colliders[slot].used {
			dst = append(dst, m.refOf(uint32(slot)))
		}
	}
	slices.SortFunc(dst[start:], func(a, b collider.Ref) int {
		sa, _ := m.slotOf(a)
		sb, _ := m.slotOf(b)
		return compareUint64(m.colliders[sa].sequence, m.colliders[sb].sequence)
	})
	return dst
}

func compareUint64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ColliderUpToDate reports whether the navmesh shows collider ref as it
// is: every tile it touches has been rebuilt since its last change. The
// error wraps ErrInvalidRef.
func (m *Mesh) ColliderUpToDate(ref collider.Ref) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	slot, ok := m.slotOf(ref)
	if !ok {
		return false, fmt.Errorf("dynamic: collider up to date %#x: %w", uint64(ref), ErrInvalidRef)
	}
	for _, index := range m.colliders[slot].tiles {
		if t := m.tiles[index]; t != nil && t.queued {
			return false, nil
		}
	}
	return true, nil
}

// Pending returns the number of tiles waiting for a rebuild.
func (m *Mesh) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.pending)
}

// ColliderCount returns the number of colliders.
func (m *Mesh) ColliderCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.colliderCount
}

// takeSlot returns a free collider slot, marked used.
func (m *Mesh) takeSlot() uint32 {
	var slot uint32
	if n := len(m.free); n > 0 {
		slot = m.free[n-1]
		m.free = m.free[:n-1]
	} else {
		m.colliders = append(m.colliders, colliderSlot{salt: 1})
		slot = uint32(len(m.colliders) - 1)
	}
	m.colliders[slot].used = true
	m.colliderCount++
	return slot
}

// place puts collider slot at its placement over tiles x0..x1 × y0..y1
// (those whose fields its box overlaps among them) and marks them.
func (m *Mesh) place(slot uint32, pose collider.Pose, placed collider.Placed, x0, y0, x1, y1 int) {
	s := &m.colliders[slot]
	s.pose, s.placed = pose, placed
	s.worldVertices = placed.WorldVertices(nil)
	bmin, bmax := placed.Bounds()
	s.tiles = s.tiles[:0]
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			fieldMin, fieldMax := m.fieldBounds(x, y)
			if bmin[0] > fieldMax[0] || bmax[0] < fieldMin[0] || bmin[2] > fieldMax[2] || bmax[2] < fieldMin[2] {
				continue
			}
			index := int32(x + y*m.tilesX)
			s.tiles = append(s.tiles, index)
			t := m.tiles[index]
			if t == nil {
				t = &tile{x: int32(x), y: int32(y)}
				m.tiles[index] = t
			}
			// Keep the tile's colliders in the order they were added.
			at, _ := slices.BinarySearchFunc(t.colliders, s.sequence, func(other uint32, sequence uint64) int {
				return compareUint64(m.colliders[other].sequence, sequence)
			})
			t.colliders = slices.Insert(t.colliders, at, slot)
			m.queue(index, t)
		}
	}
}

// unplace takes collider slot off its tiles and marks them.
func (m *Mesh) unplace(slot uint32) {
	s := &m.colliders[slot]
	for _, index := range s.tiles {
		t := m.tiles[index]
		if t == nil {
			continue
		}
		if at := slices.Index(t.colliders, slot); at >= 0 {
			t.colliders = slices.Delete(t.colliders, at, at+1)
		}
		m.queue(index, t)
	}
	s.tiles = s.tiles[:0]
}

// queue marks tile t (grid index index) for the next Update and wakes the
// background workers, if any.
func (m *Mesh) queue(index int32, t *tile) {
	t.version++
	if !t.queued {
		t.queued = true
		m.pending = append(m.pending, index)
	}
	if m.background != nil {
		m.background.wake.Signal()
	}
}

// tilesUnder returns the range of tiles whose fields may overlap the
// placed collider's box, or ErrOutsideGrid when it misses every field.
func (m *Mesh) tilesUnder(placed *collider.Placed) (x0, y0, x1, y1 int, err error) {
	bmin, bmax := placed.Bounds()
	gridMax := geom.Vec3{
		m.origin[0] + float32(float32(m.tilesX)*m.tileWorldSize) + m.border,
		m.top,
		m.origin[2] + float32(float32(m.tilesY)*m.tileWorldSize) + m.border,
	}
	if bmax[0] < m.origin[0]-m.border || bmax[2] < m.origin[2]-m.border || bmax[1] < m.origin[1] ||
		bmin[0] > gridMax[0] || bmin[2] > gridMax[2] || bmin[1] > gridMax[1] {
		return 0, 0, 0, 0, fmt.Errorf("%s with box %v-%v, the tiles' fields span %v-%v: %w",
			placed.Shape().Kind, bmin, bmax, sub(m.origin, m.border), gridMax, ErrOutsideGrid)
	}
	// One tile wider on each side than the box says, against rounding;
	// place keeps the tiles whose fields the box overlaps.
	tileOf := func(v, origin float32, count int) int {
		t := geom.Floor((v - origin) / m.tileWorldSize)
		return int(min(max(t, 0), float32(count-1)))
	}
	x0 = max(tileOf(bmin[0]-m.border, m.origin[0], m.tilesX)-1, 0)
	x1 = min(tileOf(bmax[0]+m.border, m.origin[0], m.tilesX)+1, m.tilesX-1)
	y0 = max(tileOf(bmin[2]-m.border, m.origin[2], m.tilesY)-1, 0)
	y1 = min(tileOf(bmax[2]+m.border, m.origin[2], m.tilesY)+1, m.tilesY-1)
	// The range is at most two tiles wider than the tiles reached.
	if reach := int64(max(x1-x0-1, 1)) * int64(max(y1-y0-1, 1)); reach > int64(m.maxColliderTiles) {
		return 0, 0, 0, 0, fmt.Errorf("%s with box %v-%v reaches about %d tiles, more than %d (Options.MaxColliderTiles): %w",
			placed.Shape().Kind, bmin, bmax, reach, m.maxColliderTiles, ErrColliderTooLarge)
	}
	return x0, y0, x1, y1, nil
}

// fieldBounds returns the box of tile (x, y)'s field in xz, its border
// included, as bake.Settings.TileConfig computes it.
func (m *Mesh) fieldBounds(x, y int) (bmin, bmax geom.Vec3) {
	bmin, bmax = m.baker.TileBounds(x, y)
	bmin[0] -= m.border
	bmin[2] -= m.border
	bmax[0] += m.border
	bmax[2] += m.border
	return bmin, bmax
}

func sub(v geom.Vec3, d float32) geom.Vec3 { return geom.Vec3{v[0] - d, v[1], v[2] - d} }
