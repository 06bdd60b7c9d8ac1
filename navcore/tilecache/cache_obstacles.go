package tilecache

import (
	"fmt"
	"slices"
)

// ObstacleRef is a handle to an obstacle of a Cache: its slot in the low 32
// bits and the slot's salt above. The zero ObstacleRef names no obstacle; a
// removed obstacle's handle goes stale at once.
type ObstacleRef uint64

type obstacleState uint8

const (
	obstacleFree obstacleState = iota
	obstacleActive
	obstacleRemoving // removed, waiting for Update to clear its layers
)

// obstacleSlot is one obstacle slot.
type obstacleSlot struct {
	salt     uint32
	state    obstacleState
	queued   bool
	sequence uint64
	placed   placedObstacle
	// layers are the slots of the layers it marks since it was last
	// resolved.
	layers []uint32
}

func obstacleRef(salt, slot uint32) ObstacleRef { return ObstacleRef(salt)<<32 | ObstacleRef(slot) }

// obstacleByRef returns the slot of an active obstacle.
func (c *Cache) obstacleByRef(ref ObstacleRef) (uint32, bool) {
	slot, salt := uint32(ref), uint32(ref>>32)
	if ref == 0 || uint64(slot) >= uint64(len(c.obstacles)) { // not int(slot): negative on 32-bit CPUs
		return 0, false
	}
	o := &c.obstacles[slot]
	return slot, o.state == obstacleActive && o.salt == salt
}

// checkPlaced checks o and that it touches at least one layer.
func (c *Cache) checkPlaced(o Obstacle) (placedObstacle, error) {
	if err := o.check(); err != nil {
		return placedObstacle{}, err
	}
	p := place(o)
	c.touched = c.queryLayers(p.bmin, p.bmax, c.touched[:0])
	if len(c.touched) == 0 {
		return placedObstacle{}, fmt.Errorf("tilecache: %s obstacle over %v..%v: %w", o.Shape, p.bmin, p.bmax, ErrOutsideLayers)
	}
	return p, nil
}

// AddObstacle adds an obstacle (dtTileCache::addObstacle, addBoxObstacle)
// and queues the layers it touches for the next Update. Errors wrap
// ErrInvalidObstacle, ErrOutsideLayers or ErrOutOfObstacles; on error
// nothing changes. Once the cache has held as many obstacles it does not
// allocate.
func (c *Cache) AddObstacle(o Obstacle) (ObstacleRef, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	placed, err := c.checkPlaced(o)
	if err != nil {
		return 0, fmt.Errorf("tilecache: add obstacle: %w", err)
	}
	var slot uint32
	if n := len(c.freeObstacles); n > 0 {
		slot = c.freeObstacles[n-1]
		c.freeObstacles = c.freeObstacles[:n-1]
	} else {
		if c.nextFreshObstacle >= uint32(c.params.MaxObstacles) {
			return 0, fmt.Errorf("tilecache: add obstacle: %d obstacles: %w", c.params.MaxObstacles, ErrOutOfObstacles)
		}
		slot = c.nextFreshObstacle
		c.nextFreshObstacle++
		c.obstacles = append(c.obstacles, obstacleSlot{salt: 1})
	}
	s := &c.obstacles[slot]
	s.state = obstacleActive
	s.sequence = c.nextSequence
	c.nextSequence++
	s.placed = placed
	c.queueObstacle(slot)
	c.obstacleCount++
	return obstacleRef(s.salt, slot), nil
}

// addObstacleAt adds an obstacle in the slot and with the salt of ref
// (restoring a saved cache); the caller rebuilds the free list after.
func (c *Cache) addObstacleAt(ref ObstacleRef, o Obstacle) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, salt := uint32(ref), uint32(ref>>32)
	if salt == 0 || int64(slot) >= int64(c.params.MaxObstacles) || (int(slot) < len(c.obstacles) && c.obstacles[slot].state != obstacleFree) {
		return fmt.Errorf("tilecache: add obstacle at %#x: %w", uint64(ref), ErrInvalidObstacleRef)
	}
	placed, err := c.checkPlaced(o)
	if err != nil {
		return fmt.Errorf("tilecache: add obstacle at %#x: %w", uint64(ref), err)
	}
	for len(c.obstacles) <= int(slot) {
		c.obstacles = append(c.obstacles, obstacleSlot{salt: 1})
	}
	c.nextFreshObstacle = uint32(len(c.obstacles))
	s := &c.obstacles[slot]
	s.salt = salt
	s.state = obstacleActive
	s.sequence = c.nextSequence
	c.nextSequence++
	s.placed = placed
	c.queueObstacle(slot)
	c.obstacleCount++
	return nil
}

// MoveObstacle gives the obstacle ref a new shape and place (any shape, any
// area) in one change: the next Update rebuilds the layers it left and
// those it now touches, each once. Where it overlaps other area obstacles
// it keeps its place in the order they were added. Errors wrap
// ErrInvalidObstacleRef, ErrInvalidObstacle or ErrOutsideLayers; on error
// nothing changes.
func (c *Cache) MoveObstacle(ref ObstacleRef, o Obstacle) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.obstacleByRef(ref)
	if !ok {
		return fmt.Errorf("tilecache: move obstacle %#x: %w", uint64(ref), ErrInvalidObstacleRef)
	}
	placed, err := c.checkPlaced(o)
	if err != nil {
		return fmt.Errorf("tilecache: move obstacle %#x: %w", uint64(ref), err)
	}
	c.obstacles[slot].placed = placed
	c.queueObstacle(slot)
	return nil
}

// RemoveObstacle removes the obstacle ref (dtTileCache::removeObstacle):
// its handle goes stale at once, the next Update rebuilds the layers it
// marked and frees its slot. The error wraps ErrInvalidObstacleRef.
func (c *Cache) RemoveObstacle(ref ObstacleRef) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.obstacleByRef(ref)
	if !ok {
		return fmt.Errorf("tilecache: remove obstacle %#x: %w", uint64(ref), ErrInvalidObstacleRef)
	}
	s := &c.obstacles[slot]
	s.state = obstacleRemoving
	s.salt++
	if s.salt == 0 {
		s.salt = 1
	}
	c.queueObstacle(slot)
	c.obstacleCount--
	return nil
}

// Obstacle returns the obstacle ref names. The error wraps
// ErrInvalidObstacleRef.
func (c *Cache) Obstacle(ref ObstacleRef) (Obstacle, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.obstacleByRef(ref)
	if !ok {
		return Obstacle{}, fmt.Errorf("tilecache: obstacle %#x: %w", uint64(ref), ErrInvalidObstacleRef)
	}
	return c.obstacles[slot].placed.Obstacle, nil
}

// ObstacleCount returns the number of obstacles (removed ones no longer
// count).
func (c *Cache) ObstacleCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.obstacleCount
}

func (c *Cache) queueObstacle(slot uint32) {
	if s := &c.obstacles[slot]; !s.queued {
		s.queued = true
		c.dirty = append(c.dirty, slot)
	}
}

// resolve applies the queued obstacle changes in request order: the layers
// an obstacle marked and those it marks now are queued for rebuild (in the
// C++ update's order: for an added obstacle its touched layers, for a
// removed one those it had), and the per-layer obstacle lists follow.
func (c *Cache) resolve() {
	for _, slot := range c.dirty {
		s := &c.obstacles[slot]
		if !s.queued {
			continue
		}
		s.queued = false
		for _, l := range s.layers {
			c.queueLayer(l)
			c.detach(slot, l)
		}
		s.layers = s.layers[:0]
		if s.state == obstacleRemoving {
			s.state = obstacleFree
			s.placed = placedObstacle{}
			c.freeObstacles = append(c.freeObstacles, slot)
			continue
		}
		c.touched = c.queryLayers(s.placed.bmin, s.placed.bmax, c.touched[:0])
		for _, l := range c.touched {
			c.queueLayer(l)
			c.attach(slot, l)
		}
	}
	c.dirty = c.dirty[:0]
}

// attach records that obstacle slot marks layer l, keeping l's list in
// the order obstacles were added.
func (c *Cache) attach(slot, l uint32) {
	s := &c.obstacles[slot]
	s.layers = append(s.layers, l)
	list := c.layers[l].obstacles
	i := len(list)
	for i > 0 && c.obstacles[list[i-1]].sequence > s.sequence {
		i--
	}
	c.layers[l].obstacles = slices.Insert(list, i, slot)
}

// detach removes obstacle slot from layer l's list.
func (c *Cache) detach(slot, l uint32) {
	list := c.layers[l].obstacles
	if i := slices.Index(list, slot); i >= 0 {
		c.layers[l].obstacles = slices.Delete(list, i, i+1)
	}
}
