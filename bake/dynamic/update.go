package dynamic

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
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
	// Build is the time the call spent on tile builds (zero with
	// background workers), Publish the time of the navmesh's snapshot swap
	// (Mesh.Apply).
	Build, Publish time.Duration
}

// buildJob is one tile rebuild: the tile, its inputs as they were when the
// build was claimed, and what came out.
type buildJob struct {
	index     int32
	version   uint64
	x, y      int
	base      []byte
	colliders []colliderInput
	data      *navmesh.TileData
	err       error
}

// claim fills job with the inputs of tile index as they are now.
func (m *Mesh) claim(job *buildJob, index int32) {
	t := m.tiles[index]
	job.index, job.version, job.x, job.y, job.base = index, t.version, int(t.x), int(t.y), t.base
	job.data, job.err = nil, nil
	clear(job.colliders)
	job.colliders = job.colliders[:0]
	for _, slot := range t.colliders {
		s := &m.colliders[slot]
		job.colliders = append(job.colliders, colliderInput{placed: s.placed, vertices: s.worldVertices})
	}
}

// Update rebuilds the tiles marked by collider changes (within budget, in
// the order they were first marked, on the mesh's workers) and publishes
// them to the navmesh in one Mesh.Apply. It reports whether every change
// is in the navmesh. A tile that cannot be built keeps its old data and
// the error (the first; ErrTileTooComplex for one with more polygons
// than the navmesh's MaxPolys) is returned after the others are
// published; a failed publish publishes nothing and leaves the tiles
// marked. Update allocates about what the tile builds do.
//
// With background workers running (StartBackground), Update builds
// nothing: it publishes the tiles the workers finished since the last
// call, at most budget.MaxTiles of them, the latest build of each.
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
	if m.background != nil {
		return m.publishFinished(budget)
	}
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
		m.jobs = slices.Grow(m.jobs[:cap(m.jobs)], n-cap(m.jobs))
	}
	m.jobs = m.jobs[:n]
	for i := range m.jobs {
		m.claim(&m.jobs[i], m.pending[i])
	}
	if m.buildJob == nil {
		m.buildJob = func(worker, i int) { m.build(m.builders[worker], &m.jobs[i]) }
	}
	done := m.scheduler.Run(n, runner, workers, deadline, m.buildJob)
	build := time.Since(start)
	stats, _, err := m.publish(m.jobs[:done])
	stats.Build = build
	m.last = stats
	return len(m.pending) == 0, err
}

// publish puts the tiles of jobs into the navmesh in one Apply and clears
// the marks of those whose tile has not changed since its build began.
// On a failed Apply nothing changes and the error is returned with
// applied false; else the first build error is.
func (m *Mesh) publish(jobs []buildJob) (stats UpdateStats, applied bool, err error) {
	m.batch.Reset()
	var buildErr error
	for i := range jobs {
		job := &jobs[i]
		switch {
		case job.err != nil:
			stats.TilesFailed++
			if buildErr == nil {
				buildErr = job.err
			}
		case job.data == nil:
			stats.TilesBuilt++
			stats.TilesEmptied++
			m.batch.RemoveAt(int32(job.x), int32(job.y), 0)
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
		stats = UpdateStats{Pending: len(m.pending), Publish: stats.Publish}
		return stats, false, fmt.Errorf("dynamic: update: %w", err)
	}
	cleared := false
	for i := range jobs {
		t := m.tiles[jobs[i].index]
		if t.version != jobs[i].version {
			continue // changed since: it waits for another build
		}
		t.queued, cleared = false, true
		if t.base == nil && len(t.colliders) == 0 {
			delete(m.tiles, jobs[i].index)
		}
	}
	if cleared {
		m.pending = slices.DeleteFunc(m.pending, func(index int32) bool {
			t := m.tiles[index]
			return t == nil || !t.queued
		})
	}
	for i := range jobs {
		jobs[i].data, jobs[i].err = nil, nil
	}
	stats.Pending = len(m.pending)
	return stats, true, buildErr
}

// build rebuilds the tile of job on builder b: its data, nil when nothing
// is walkable, or an error. It reads only the job.
func (m *Mesh) build(b *builder, job *buildJob) {
	result, err := m.baker.BuildTileFrom(context.Background(), job.x, job.y, func(hf *bake.Heightfield) error {
		return m.fill(b, job.base, job.colliders, hf)
	})
	maxPolys := m.nav.Params().MaxPolys
	switch {
	case err != nil:
		job.err = fmt.Errorf("dynamic: rebuild tile (%d, %d): %w", job.x, job.y, err)
	case result.Data != nil && len(result.Data.Polys) > maxPolys:
		job.err = fmt.Errorf("dynamic: rebuild tile (%d, %d): %d polygons, the navmesh takes %d per tile: %w",
			job.x, job.y, len(result.Data.Polys), maxPolys, ErrTileTooComplex)
	default:
		job.data = result.Data
	}
}

// background holds the background workers of a mesh.
type background struct {
	wake     *sync.Cond
	stopping bool
	done     sync.WaitGroup
	// finished holds the builds done since the last Update, at most one
	// per tile (the latest).
	finished []buildJob
}

// ErrBackgroundRunning is returned by StartBackground when the workers
// run already.
var ErrBackgroundRunning = errors.New("dynamic: background workers already running")

// StartBackground starts workers goroutines (0 or less: the mesh's
// Options.Workers) that rebuild marked tiles as soon as they are marked,
// each from the tile's inputs as they were when it began, so that a
// game's frame spends only the publishing on the navmesh: Update then
// publishes what they finished and builds nothing. A tile changed during
// its build is published as built (it is newer than the navmesh's) and
// built again. The workers use the processor time the game leaves; Close
// stops them. The navmesh they bring about is the same as Update's.
func (m *Mesh) StartBackground(workers int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.background != nil {
		return ErrBackgroundRunning
	}
	if workers <= 0 {
		workers = m.workers
	}
	bg := &background{wake: sync.NewCond(&m.mu)}
	m.background = bg
	bg.done.Add(workers)
	for range workers {
		go m.runBackground(bg)
	}
	return nil
}

// Close stops the background workers, if they run, after the builds under
// way; their finished builds are published by the next Update, which then
// builds again itself. Close may be called any number of times.
func (m *Mesh) Close() {
	m.mu.Lock()
	bg := m.background
	if bg == nil {
		m.mu.Unlock()
		return
	}
	bg.stopping = true
	bg.wake.Broadcast()
	m.mu.Unlock()
	bg.done.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(bg.finished) > 0 {
		m.last, _, _ = m.publish(bg.finished)
	}
	m.background = nil
}

// runBackground is one background worker: it claims the first marked tile
// no other worker builds, builds it and files the result.
func (m *Mesh) runBackground(bg *background) {
	defer bg.done.Done()
	b := &builder{}
	var job buildJob
	m.mu.Lock()
	defer m.mu.Unlock()
	for {
		index, ok := int32(0), false
		for !bg.stopping {
			if index, ok = m.nextUnclaimed(); ok {
				break
			}
			bg.wake.Wait()
		}
		if bg.stopping {
			return
		}
		t := m.tiles[index]
		t.building = true
		m.claim(&job, index)
		m.mu.Unlock()
		m.build(b, &job)
		m.mu.Lock()
		t.building = false
		m.file(bg, &job)
		if t.version != job.version {
			bg.wake.Signal() // built again, by whoever is free
		}
	}
}

// nextUnclaimed returns the first marked tile not being built whose
// finished build, if any, is older than its last change.
func (m *Mesh) nextUnclaimed() (int32, bool) {
	for _, index := range m.pending {
		t := m.tiles[index]
		if t.building {
			continue
		}
		if i := slices.IndexFunc(m.background.finished, func(j buildJob) bool { return j.index == index }); i >= 0 &&
			m.background.finished[i].version == t.version {
			continue // built as it is; waits for Update
		}
		return index, true
	}
	return 0, false
}

// file keeps job's result among the finished builds, replacing an older
// build of the same tile.
func (m *Mesh) file(bg *background, job *buildJob) {
	result := buildJob{index: job.index, version: job.version, x: job.x, y: job.y, data: job.data, err: job.err}
	if i := slices.IndexFunc(bg.finished, func(j buildJob) bool { return j.index == job.index }); i >= 0 {
		if bg.finished[i].version < job.version {
			bg.finished[i] = result
		}
		return
	}
	bg.finished = append(bg.finished, result)
}

// publishFinished is Update with background workers.
func (m *Mesh) publishFinished(budget tilecache.Budget) (bool, error) {
	bg := m.background
	n := len(bg.finished)
	if budget.MaxTiles > 0 {
		n = min(n, budget.MaxTiles)
	}
	stats, applied, err := m.publish(bg.finished[:n])
	if applied {
		rest := copy(bg.finished, bg.finished[n:])
		clear(bg.finished[rest:])
		bg.finished = bg.finished[:rest]
	}
	m.last = stats
	bg.wake.Broadcast()
	return len(m.pending) == 0, err
}
