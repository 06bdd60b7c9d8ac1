package tilecache

import (
	"sync"
	"sync/atomic"
	"time"
)

// Scheduler runs the tile builds of one update on worker goroutines within
// a deadline: the Cache's Update runs its layer builds with it, and
// bake/dynamic's mesh its voxel tile builds, so that both publish the same
// way (the first tiles built, in order, in one navmesh.Mesh.Apply). The
// zero Scheduler is ready to use and keeps its memory between calls; it is
// not safe for concurrent use.
type Scheduler struct {
	built    []atomic.Bool
	deadline time.Time
	build    func(worker, i int)
	job      func(worker, begin, end int)
}

// Run builds jobs 0..n-1 with build(worker, i) on at most workers
// goroutines (at least one), runner's when runner is not nil, else
// goroutines of its own, worker being the goroutine's index in
// 0..workers-1; one worker never runs two builds at once. Job 0 is always
// built; the others only while the deadline (the zero time: none) has not
// passed. It returns the number of jobs built in one unbroken run from job
// 0: the jobs to publish. Its own goroutines take the jobs in order, so the
// built jobs are always the first; a runner's ranges may finish out of
// order, so a job built after a gap is not counted and must be built again
// by a later call. Run returns once every build it started has finished.
// A nil build builds nothing and returns 0.
func (s *Scheduler) Run(n int, runner Runner, workers int, deadline time.Time, build func(worker, i int)) int {
	if n <= 0 || build == nil {
		return 0
	}
	workers = max(min(workers, n), 1)
	if runner != nil {
		return s.runOn(n, runner, workers, deadline, build)
	}
	if workers == 1 {
		for i := range n {
			if i > 0 && !deadline.IsZero() && time.Now().After(deadline) {
				return i
			}
			build(0, i)
		}
		return n
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := range workers {
		go func() {
			defer wg.Done()
			for {
				if !deadline.IsZero() && next.Load() > 0 && time.Now().After(deadline) {
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				build(w, i)
			}
		}()
	}
	wg.Wait()
	return min(int(next.Load()), n)
}

// runOn is Run on runner's goroutines.
func (s *Scheduler) runOn(n int, runner Runner, workers int, deadline time.Time, build func(worker, i int)) int {
	if cap(s.built) < n {
		s.built = make([]atomic.Bool, n, max(n, 2*cap(s.built)))
	}
	s.built = s.built[:n] // buildRange indexes s.built
	built := s.built
	for i := range built {
		built[i].Store(false)
	}
	s.deadline, s.build = deadline, build
	if s.job == nil {
		s.job = s.buildRange
	}
	runner.Run(workers, n, s.job)
	s.build = nil
	done := 0
	for done < n && built[done].Load() {
		done++
	}
	return done
}

// buildRange is the job runOn hands its runner: jobs [begin, end), the
// first job of all always, the others while the deadline has not passed.
func (s *Scheduler) buildRange(worker, begin, end int) {
	for i := begin; i < end; i++ {
		if i > 0 && !s.deadline.IsZero() && time.Now().After(s.deadline) {
			return
		}
		s.build(worker, i)
		s.built[i].Store(true)
	}
}
