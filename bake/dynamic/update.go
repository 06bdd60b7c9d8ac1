package dynamic

import (
	"context"
	"fmt"
	"time"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// UpdateStats sum up one Update call.
type UpdateStats struct {
	// TilesBuilt counts the tiles rebuilt and published (emptied ones
	// included); TilesEmptied those of them with nothing walkable left,
	// taken out of the navmesh; TilesFailed those that kept their old data
	// (see Update).
	TilesBuilt, TilesEmptied, TilesFailed int
	// Pending is the number of tiles left waiting.
	Pending int
	// Build is the time the tile builds took, Publish the time of the
	// navmesh's snapshot swap (Mesh.Apply).
	Build, Publish time.Duration
}

// buildJob is one tile rebuild of an Update.
type buildJob struct {
	index int32
	data  *navmesh.TileData
	err   error
}

// Update rebuilds the tiles marked by collider changes (within budget, in
// the order they were first marked, on the mesh's workers) and publishes
// them to the navmesh in one Mesh.Apply. It reports whether every change
// is in the navmesh. A tile that cannot be built keeps its old data and
// the error (the first; ErrTileTooComplex for one with more polygons
// than the navmesh's MaxPolys) is returned after the others are
// published; a failed publish publishes nothing and leaves the tiles
// marked. Update allocates about what the tile builds do.
func (m *Mesh) Update(budget tilecache.Budget) (upToDate bool, err error) {
	return m.update(budget, nil, 0)
}

// UpdateWith is Update with the tile builds run by runner on at most
// workers goroutines (a game's or the crowd's worker pool) instead of the
// mesh's; as tilecache.Cache.UpdateWith, it publishes the same tiles as
// Update for the same budget. With a nil runner it is Update.
//
// workers [Limit: <= 0 means 1]
func (m *Mesh) UpdateWith(budget tilecache.Budget, runner tilecache.Runner, workers int) (upToDate bool, err error) {
	return m.update(budget, runner, max(workers, 1))
}

// LastUpdate returns the sums of the last Update or UpdateWith call.
func (m *Mesh) LastUpdate() UpdateStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// update is Update on runner's goroutines when runner is not nil.
func (m *Mesh) update(budget tilecache.Budget, runner tilecache.Runner, workers int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	start := time.Now()
	n := len(m.pending)
	if budget.MaxTiles > 0 {
		n = min(n, budget.MaxTiles)
	}
	var deadline time.Time
	if budget.MaxDuration > 0 {
		deadline = start.Add(budget.MaxDuration)
	}
	if runner == nil {
		workers = m.workers
	}
	for len(m.builders) < min(workers, n) {
		m.builders = append(m.builders, &builder{})
	}
	if cap(m.jobs) < n {
		m.jobs = make([]buildJob, n, max(n, 2*cap(m.jobs)))
	}
	m.jobs = m.jobs[:n]
	for i := range m.jobs {
		m.jobs[i] = buildJob{index: m.pending[i]}
	}
	if m.buildJob == nil {
		m.buildJob = func(worker, i int) { m.build(m.builders[worker], &m.jobs[i]) }
	}
	done := m.scheduler.Run(n, runner, workers, deadline, m.buildJob)
	stats := UpdateStats{Build: time.Since(start)}

	m.batch.Reset()
	var buildErr error
	for i := range done {
		job := &m.jobs[i]
		t := m.tiles[job.index]
		switch {
		case job.err != nil:
			stats.TilesFailed++
			if buildErr == nil {
				buildErr = job.err
			}
		case job.data == nil:
			stats.TilesBuilt++
			stats.TilesEmptied++
			m.batch.RemoveAt(t.x, t.y, 0)
		default:
			stats.TilesBuilt++
			m.batch.Replace(job.data)
		}
	}
	publish := time.Now()
	refs, err := m.nav.Apply(&m.batch, m.refs[:0])
	m.refs = refs
	m.batch.Reset()
	stats.Publish = time.Since(publish)
	if err != nil {
		clear(m.jobs)
		m.last = UpdateStats{Pending: len(m.pending), Build: stats.Build, Publish: stats.Publish}
		return false, fmt.Errorf("dynamic: update: %w", err)
	}
	for i := range done {
		index := m.jobs[i].index
		t := m.tiles[index]
		t.queued = false
		if t.base == nil && len(t.colliders) == 0 {
			delete(m.tiles, index)
		}
	}
	rest := copy(m.pending, m.pending[done:])
	m.pending = m.pending[:rest]
	clear(m.jobs)
	stats.Pending = len(m.pending)
	m.last = stats
	return len(m.pending) == 0, buildErr
}

// build rebuilds the tile of job on builder b: its data, nil when nothing
// is walkable, or an error.
func (m *Mesh) build(b *builder, job *buildJob) {
	t := m.tiles[job.index]
	result, err := m.baker.BuildTileFrom(context.Background(), int(t.x), int(t.y), func(hf *bake.Heightfield) error {
		return m.fill(b, t.base, t.colliders, hf)
	})
	switch {
	case err != nil:
		job.err = fmt.Errorf("dynamic: rebuild tile (%d, %d): %w", t.x, t.y, err)
	case result.Data != nil && len(result.Data.Polys) > m.nav.Params().MaxPolys:
		job.err = fmt.Errorf("dynamic: rebuild tile (%d, %d): %d polygons, the navmesh takes %d per tile: %w",
			t.x, t.y, len(result.Data.Polys), m.nav.Params().MaxPolys, ErrTileTooComplex)
	default:
		job.data = result.Data
	}
}
