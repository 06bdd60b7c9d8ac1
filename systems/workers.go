package systems

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// MaxWorkers bounds the goroutines of a Workers pool.
const MaxWorkers = 256

// workChunk is how many agents a worker takes at a time. Which worker gets
// which agent does not change any result, only the load balance.
const workChunk = 16

// Workers is a resource: a fixed pool of goroutines that the parallel stages
// share. The goroutine calling a stage's Update works too, so a pool of n
// workers runs n-1 goroutines. Without a Workers resource every stage runs on
// the calling goroutine. Close the pool when the world is done with it.
type Workers struct {
	count int
	start []chan struct{}
	done  sync.WaitGroup

	// The job in progress, set before the start signals.
	job   func(worker, begin, end int)
	total int
	next  atomic.Int64

	closed bool
}

// NewWorkers starts a pool of n workers [Limit: 1..MaxWorkers].
func NewWorkers(n int) (*Workers, error) {
	if n < 1 || n > MaxWorkers {
		return nil, fmt.Errorf("systems: %d workers, want 1..%d", n, MaxWorkers)
	}
	w := &Workers{count: n, start: make([]chan struct{}, n-1)}
	for i := range w.start {
		w.start[i] = make(chan struct{})
		go w.loop(i+1, w.start[i])
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
	for _, c := range w.start {
		close(c)
	}
}

func (w *Workers) loop(worker int, start chan struct{}) {
	for range start {
		w.work(worker)
		w.done.Done()
	}
}

func (w *Workers) work(worker int) {
	for {
		begin := int(w.next.Add(workChunk)) - workChunk
		if begin >= w.total {
			return
		}
		w.job(worker, begin, min(begin+workChunk, w.total))
	}
}

// run calls job over [0, total) in chunks spread over at most workers
// goroutines and returns when every chunk is done. job gets the index of
// the worker running it (0 is the caller), so that it can use that worker's
// scratch. A nil pool, a closed one, one worker or a small total run
// everything on the caller.
func (w *Workers) run(workers, total int, job func(worker, begin, end int)) {
	if total <= 0 {
		return
	}
	if w == nil || w.closed || workers <= 1 || w.count <= 1 || total <= workChunk {
		job(0, 0, total)
		return
	}
	helpers := min(workers, w.count) - 1
	w.job, w.total = job, total
	w.next.Store(0)
	w.done.Add(helpers)
	for i := 0; i < helpers; i++ {
		w.start[i] <- struct{}{}
	}
	w.work(0)
	w.done.Wait()
	w.job = nil
}
