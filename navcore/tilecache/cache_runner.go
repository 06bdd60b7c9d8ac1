package tilecache

import (
	"fmt"
)

// Runner runs job over the index range [0, total), cut into ranges
// [begin, end) spread over at most workers goroutines, and returns when
// every range is done. worker is the index of the goroutine running a
// range, in 0..workers-1; two ranges with the same worker never run at the
// same time. A game's or a crowd's worker pool (systems.Workers) can be one,
// so that the tile builds share its goroutines instead of starting their
// own.
type Runner interface {
	Run(workers, total int, job func(worker, begin, end int))
}

// UpdateWith is Update with the tile builds run by runner on at most
// workers goroutines (the cache's Options.Workers are not used): what it
// builds and publishes, and the mesh it leaves, are the same as Update's
// for the same budget. With a MaxDuration, the tiles published are those
// built, in order, before the first one left unbuilt when the time ran
// out; a tile built after that gap is built again by the next call.
//
// A nil runner makes it Update.
//
// workers [Limit: <= 0 means 1]
func (c *Cache) UpdateWith(budget Budget, runner Runner, workers int) (upToDate bool, err error) {
	if runner == nil {
		return c.Update(budget)
	}
	return c.update(budget, runner, max(workers, 1))
}

// ObstacleUpToDate reports whether the navmesh shows obstacle ref as it
// is: its last change (add or move) is resolved and every layer it marks
// has been rebuilt and published since. It may report false a little
// longer than needed, while a layer it marks waits for another change. The
// error wraps ErrInvalidObstacleRef.
func (c *Cache) ObstacleUpToDate(ref ObstacleRef) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot, ok := c.obstacleByRef(ref)
	if !ok {
		return false, fmt.Errorf("tilecache: obstacle up to date %#x: %w", uint64(ref), ErrInvalidObstacleRef)
	}
	s := &c.obstacles[slot]
	if s.queued {
		return false, nil
	}
	for _, l := range s.layers {
		if c.layers[l].pending {
			return false, nil
		}
	}
	return true, nil
}
