package tilecache

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Budget bounds the work of one Update call. The zero Budget means no
// bound: Update brings the cache up to date.
type Budget struct {
	// MaxTiles is the most tile changes to publish [Limit: <= 0 means no
	// limit].
	MaxTiles int
	// MaxDuration stops Update from starting more tile builds once it has
	// run this long; the builds under way finish, so one call can overrun
	// it by one tile build per worker. At least one tile is built per call
	// [Limit: <= 0 means no limit].
	MaxDuration time.Duration
}

// Update resolves the queued obstacle and layer changes, rebuilds the
// touched layers' tiles (within budget, in the order the changes were made,
// on the cache's workers) and publishes them to the mesh in one Mesh.Apply.
// It reports whether the cache is up to date: no change left queued.
//
// A layer that cannot be built (ErrLayerTooComplex, also for a tile with
// more polygons than the mesh's MaxPolys; ErrCorruptData) keeps its old tile
// and the error is returned after the other tiles are published; a failed
// publish (the mesh out of tile slots) publishes nothing and leaves the
// changes queued. In steady state Update allocates only the published tile
// data and the mesh's new snapshot.
func (c *Cache) Update(budget Budget) (upToDate bool, err error) {
	return c.update(budget, nil, 0)
}

// update is Update, with the tile builds on runner's goroutines (at most
// workers of them) when runner is not nil.
func (c *Cache) update(budget Budget, runner Runner, workers int) (upToDate bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resolve()
	n := len(c.pending)
	if budget.MaxTiles > 0 {
		n = min(n, budget.MaxTiles)
	}
	var deadline time.Time
	if budget.MaxDuration > 0 {
		deadline = time.Now().Add(budget.MaxDuration)
	}
	if cap(c.results) < n {
		c.results = make([]buildResult, n, max(n, 2*cap(c.results)))
	}
	results := c.results[:n]
	var done int
	if runner != nil {
		done = c.buildPendingOn(runner, workers, results, deadline)
	} else {
		done = c.buildPending(results, deadline)
	}

	c.batch.Reset()
	var buildErr error
	for i := range done {
		p, r := &c.pending[i], &results[i]
		switch {
		case p.remove:
			c.batch.RemoveAt(p.x, p.y, p.layer)
		case r.skip:
		case r.err != nil:
			if buildErr == nil {
				buildErr = r.err
			}
		case r.empty:
			h := &c.layers[p.slot].header
			c.batch.RemoveAt(h.TX, h.TY, h.TLayer)
		default:
			c.batch.Replace(r.data)
		}
	}
	refs, err := c.mesh.Apply(&c.batch, c.refs[:0])
	c.refs = refs
	if err != nil {
		clear(results)
		c.batch.Reset()
		return false, fmt.Errorf("tilecache: update: %w", err)
	}
	c.batch.Reset()
	clear(results)
	for i := range done {
		if p := &c.pending[i]; !p.remove && c.layers[p.slot].salt == p.salt {
			c.layers[p.slot].pending = false
		}
	}
	rest := copy(c.pending, c.pending[done:])
	clear(c.pending[rest:])
	c.pending = c.pending[:rest]
	return len(c.pending) == 0 && len(c.dirty) == 0, buildErr
}

// buildPending builds the first tiles of c.pending into results and
// returns how many it built: all of them, or, with a deadline, those begun
// before it (at least one). Builds are claimed in order, so the built ones
// are always the first.
func (c *Cache) buildPending(results []buildResult, deadline time.Time) int {
	n := len(results)
	if n == 0 {
		return 0
	}
	workers := min(c.workers, n)
	if workers == 1 {
		for i := range n {
			if i > 0 && !deadline.IsZero() && time.Now().After(deadline) {
				return i
			}
			c.buildOne(i, c.builders[0], &results[i])
		}
		return n
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := range workers {
		go func(b *builder) {
			defer wg.Done()
			for {
				if !deadline.IsZero() && next.Load() > 0 && time.Now().After(deadline) {
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				c.buildOne(i, b, &results[i])
			}
		}(c.builders[w])
	}
	wg.Wait()
	return min(int(next.Load()), n)
}

// buildOne builds pending change i with builder b.
func (c *Cache) buildOne(i int, b *builder, r *buildResult) {
	p := &c.pending[i]
	if p.remove {
		return
	}
	l := &c.layers[p.slot]
	if !l.used || l.salt != p.salt {
		r.skip = true
		return
	}
	in := buildInput{
		params:     &c.params,
		compressor: c.compressor,
		process:    c.process,
		header:     l.header,
		data:       l.data,
		obstacles:  l.obstacles,
		slots:      c.obstacles,
	}
	data, err := b.build(&in)
	if maxPolys := c.mesh.Params().MaxPolys; err == nil && data != nil && int(data.Header.PolyCount) > maxPolys {
		h := &l.header
		err = fmt.Errorf("tilecache: build tile (%d, %d, layer %d): %d polygons, the mesh takes %d per tile: %w",
			h.TX, h.TY, h.TLayer, data.Header.PolyCount, maxPolys, ErrLayerTooComplex)
	}
	switch {
	case err != nil:
		r.err = err
	case data == nil:
		r.empty = true
	default:
		r.data = data
	}
}
