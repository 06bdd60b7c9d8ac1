package tilecache

import (
	"fmt"
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
	if runner == nil {
		workers = c.workers
	}
	for len(c.builders) < min(workers, n) {
		c.builders = append(c.builders, newBuilder(int(c.params.Width), int(c.params.Height)))
	}
	if c.buildJob == nil {
		c.buildJob = func(worker, i int) { c.buildOne(i, c.builders[worker], &c.results[i]) }
	}
	done := c.scheduler.Run(n, runner, workers, deadline, c.buildJob)
	// Results past the built prefix are dropped; their layers stay queued.
	clear(results[done:])

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
