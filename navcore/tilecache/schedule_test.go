package tilecache

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestSchedulerRun checks which jobs Run builds: all of them without a
// deadline, on its own goroutines or a runner's; with a passed deadline
// the first job only (its own goroutines may claim one more each); and
// never one worker running two builds at once.
func TestSchedulerRun(t *testing.T) {
	past := time.Now().Add(-time.Second)
	tests := []struct {
		name     string
		n        int
		runner   Runner
		workers  int
		deadline time.Time
		// wantMin and wantMax bound the count Run returns.
		wantMin, wantMax int
	}{
		{"none", 0, nil, 2, time.Time{}, 0, 0},
		{"one worker", 7, nil, 1, time.Time{}, 7, 7},
		{"own workers", 50, nil, 3, time.Time{}, 50, 50},
		{"more workers than jobs", 2, nil, 8, time.Time{}, 2, 2},
		{"runner", 50, goRunner{chunk: 4}, 3, time.Time{}, 50, 50},
		{"deadline, one worker", 9, nil, 1, past, 1, 1},
		{"deadline, own workers", 9, nil, 3, past, 1, 3},
		{"deadline, runner", 9, goRunner{chunk: 1}, 3, past, 1, 1},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			var s Scheduler
			built := make([]atomic.Int32, max(test.n, 1))
			busy := make([]atomic.Bool, max(test.workers, 1))
			var overlap atomic.Bool
			var mu sync.Mutex
			workersSeen := map[int]bool{}
			done := s.Run(test.n, test.runner, test.workers, test.deadline, func(worker, i int) {
				if busy[worker].Swap(true) {
					overlap.Store(true)
				}
				built[i].Add(1)
				mu.Lock()
				workersSeen[worker] = true
				mu.Unlock()
				busy[worker].Store(false)
			})
			assert.GreaterOrEqual(t, done, test.wantMin)
			assert.LessOrEqual(t, done, test.wantMax)
			for i := range done {
				assert.Equal(t, int32(1), built[i].Load(), "job %d", i)
			}
			for i := range test.n {
				assert.LessOrEqual(t, built[i].Load(), int32(1), "job %d built twice", i)
			}
			assert.False(t, overlap.Load())
			for w := range workersSeen {
				assert.Less(t, w, max(test.workers, 1))
			}
		})
	}
}
