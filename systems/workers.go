package systems

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// MaxWorkers bounds the goroutines of a Workers pool.
const MaxWorkers = 256

// workChunk is the fewest agents a worker takes at a time. A claim takes
// 1/guidedShare of what is left per worker (guided self-scheduling): larger
// chunks first, so that the claims themselves (an atomic operation on a
// shared counter each) cost little, and small ones at the end, so that the
// workers finish together. The share is small so that a worker the machine
// takes away in the middle of a chunk (its thread descheduled for another
// process) holds back little of the job: on 2 workers a claim takes at most
// 1/16 of it, and the other worker goes on with the rest while it is away,
// instead of running out of work after 3/4 of the job and waiting (issue
// 23). Which worker gets which agent does not change any result, only the
// load balance.
const (
	workChunk   = 16
	guidedShare = 8
)

// Spin budgets, in rounds of checking an atomic and yielding the processor:
// a helper that finished a job watches for the next one this long before it
// sleeps (the stages of a tick follow each other within microseconds), and
// the caller waits this long for the helpers' last chunks before it sleeps.
const (
	helperSpinRounds = 2000
	callerSpinRounds = 2000
)

// Workers is a resource: a fixed pool of goroutines that the parallel stages
// share. The goroutine calling a stage's Update works too, so a pool of n
// workers runs n-1 helpers. Without a Workers resource every stage runs on
// the calling goroutine. Close the pool when the world is done with it.
//
// A job is cut into chunks that the caller and the helpers claim one at a
// time. The caller never waits for a helper to wake up: a helper that comes
// late finds the chunks taken and goes back to waiting, so a busy machine
// costs parallelism, never a stall.
type Workers struct {
	count  int
	wake   []chan struct{} // one per helper, buffered: a pending job
	stop   chan struct{}
	doneMu sync.Mutex // with done: the caller sleeps until a job is done
	done   *sync.Cond

	mu     sync.Mutex // guards the job description below
	job    func(worker, begin, end int)
	total  int
	chunk  int    // the fewest agents per claim
	active int    // workers allowed on the job: helpers 1..active-1
	gen    uint32 // numbers the jobs

	// claim holds the current job's generation in the high 32 bits and the
	// first agent not yet handed out in the low 32 bits.
	claim atomic.Uint64
	// completed counts the agents of the current job that are done.
	completed atomic.Int64

	closed bool
}

// NewWorkers starts a pool of n workers [Limit: 1..MaxWorkers].
func NewWorkers(n int) (*Workers, error) {
	if n < 1 || n > MaxWorkers {
		return nil, fmt.Errorf("systems: %d workers, want 1..%d", n, MaxWorkers)
	}
	w := &Workers{
		count: n,
		wake:  make([]chan struct{}, n-1),
		stop:  make(chan struct{}),
	}
	w.done = sync.NewCond(&w.doneMu)
	for i := range w.wake {
		w.wake[i] = make(chan struct{}, 1)
		go w.loop(i+1, w.wake[i])
	}
	return w, nil
}

// Count returns the number of workers, the calling goroutine included.
func (w *Workers) Count() int {
	if w == nil {
		return 1
	}
	return w.count
}

// Close stops the pool's goroutines. The pool must not be running a job.
func (w *Workers) Close() {
	if w == nil || w.closed {
		return
	}
	w.closed = true
	close(w.stop)
}

// loop is a helper: it works on each job it hears of, then watches for the
// next one for a while before it sleeps until woken.
func (w *Workers) loop(worker int, wake chan struct{}) {
	var seen uint32
	for {
		select {
		case <-wake:
		case <-w.stop:
			return
		}
		seen = w.help(worker)
		for spin := 0; spin < helperSpinRounds; spin++ {
			if uint32(w.claim.Load()>>32) != seen {
				seen = w.help(worker)
				spin = 0
				continue
			}
			runtime.Gosched()
		}
	}
}

// help works on the current job, if worker may, until its chunks are all
// handed out, and returns the job's generation.
func (w *Workers) help(worker int) uint32 {
	w.mu.Lock()
	job, total, chunk, active, gen := w.job, w.total, w.chunk, w.active, w.gen
	w.mu.Unlock()
	if job != nil && worker < active {
		w.work(job, worker, total, chunk, active*guidedShare, gen)
	}
	return gen
}

// work claims chunks of job gen and runs them until none is left: each
// claim takes 1/share of the agents left, at least chunk of them.
func (w *Workers) work(job func(worker, begin, end int), worker, total, chunk, share int, gen uint32) {
	for {
		c := w.claim.Load()
		begin := int(uint32(c))
		if uint32(c>>32) != gen || begin >= total {
			return
		}
		end := min(begin+max(chunk, (total-begin)/share), total)
		if !w.claim.CompareAndSwap(c, uint64(gen)<<32|uint64(end)) {
			continue
		}
		job(worker, begin, end)
		if w.completed.Add(int64(end-begin)) == int64(total) {
			w.doneMu.Lock()
			w.done.Broadcast()
			w.doneMu.Unlock()
		}
	}
}

// run calls job over [0, total) in chunks spread over at most workers
// goroutines and returns when every chunk is done. job gets the index of
// the worker running it (0 is the caller), so that it can use that worker's
// scratch. A nil pool, a closed one, one worker or a small total run
// everything on the caller.
func (w *Workers) run(workers, total int, job func(worker, begin, end int)) {
	w.runChunks(workers, total, workChunk, job)
}

// Run calls job over [0, total) in ranges of one index or more, spread over
// at most workers of the pool's goroutines (the caller's included), and
// returns when every range is done; job gets the index of the worker running
// it, in 0..workers-1. It is tilecache.Runner's method, so that a tile
// cache's rebuilds run on the crowd's workers. A nil or closed pool runs
// everything on the caller.
func (w *Workers) Run(workers, total int, job func(worker, begin, end int)) {
	w.runChunks(workers, total, 1, job)
}

// runBeside is run, except that the caller first runs serial, a task of
// its own, while the helpers start on the job; then it joins them. It
// hides serial work that the job does not depend on behind the job.
func (w *Workers) runBeside(serial func(), workers, total int, job func(worker, begin, end int)) {
	w.runJob(serial, workers, total, workChunk, job)
}

// runChunks is run with chunks of at least minChunk indices [Limit: >= 1].
func (w *Workers) runChunks(workers, total, minChunk int, job func(worker, begin, end int)) {
	w.runJob(nil, workers, total, minChunk, job)
}

// runJob is runChunks with the caller running serial, when not nil, before
// it claims chunks of the job.
func (w *Workers) runJob(serial func(), workers, total, minChunk int, job func(worker, begin, end int)) {
	if w == nil || w.closed || workers <= 1 || w.count <= 1 || total <= minChunk {
		if serial != nil {
			serial()
		}
		if total > 0 {
			job(0, 0, total)
		}
		return
	}
	active := min(workers, w.count)
	chunk := minChunk

	w.mu.Lock()
	w.gen++
	gen := w.gen
	w.job, w.total, w.chunk, w.active = job, total, chunk, active
	w.completed.Store(0)
	w.claim.Store(uint64(gen) << 32)
	w.mu.Unlock()
	for i := 0; i < active-1; i++ {
		select {
		case w.wake[i] <- struct{}{}:
		default: // already has a pending wake-up
		}
	}

	if serial != nil {
		serial()
	}
	w.work(job, 0, total, chunk, active*guidedShare, gen)
	for spin := 0; spin < callerSpinRounds && w.completed.Load() < int64(total); spin++ {
		runtime.Gosched()
	}
	if w.completed.Load() < int64(total) {
		w.doneMu.Lock()
		for w.completed.Load() < int64(total) {
			w.done.Wait()
		}
		w.doneMu.Unlock()
	}

	w.mu.Lock()
	w.job = nil
	w.mu.Unlock()
}
