package tilecache

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goRunner runs each range of a job on a goroutine of its own, ranges of
// size chunk, handed out last first so that the built tiles are not claimed
// in order.
type goRunner struct{ chunk int }

func (r goRunner) Run(workers, total int, job func(worker, begin, end int)) {
	var wg sync.WaitGroup
	ranges := make(chan [2]int, total)
	for end := total; end > 0; end -= r.chunk {
		ranges <- [2]int{max(0, end-r.chunk), end}
	}
	close(ranges)
	wg.Add(workers)
	for w := range workers {
		go func() {
			defer wg.Done()
			for rg := range ranges {
				job(w, rg[0], rg[1])
			}
		}()
	}
	wg.Wait()
}

// TestUpdateWithMatchesUpdate: the obstacle phases of the reference come
// out the same when the builds run on a caller's runner, with any budget,
// and ObstacleUpToDate tells when an obstacle's tiles have landed.
func TestUpdateWithMatchesUpdate(t *testing.T) {
	ref := readDungeonReference(t)
	rows := readObstacles(t, "testdata/tc48_dungeon_obstacles.csv")
	for _, budget := range []Budget{{}, {MaxTiles: 3}, {MaxDuration: time.Microsecond}} {
		cache := loadDungeon(t, 1)
		refs := make([]ObstacleRef, len(rows))
		for i, row := range rows {
			var err error
			refs[i], err = cache.AddObstacle(row.obstacle)
			require.NoError(t, err)
		}
		landed := make([]bool, len(refs))
		for calls := 0; ; calls++ {
			require.Less(t, calls, 100000)
			done, err := cache.UpdateWith(budget, goRunner{chunk: 2}, 3)
			require.NoError(t, err)
			for i, r := range refs {
				up, err := cache.ObstacleUpToDate(r)
				require.NoError(t, err)
				assert.False(t, landed[i] && !up, "obstacle %d landed, then not", i)
				landed[i] = up
			}
			if done {
				break
			}
		}
		for i := range landed {
			assert.True(t, landed[i], "obstacle %d", i)
		}
		assert.Equal(t, ref.WithObstacles, summary(t, cache), "budget %+v", budget)

		require.NoError(t, cache.MoveObstacle(refs[0], rows[1].obstacle))
		up, err := cache.ObstacleUpToDate(refs[0])
		require.NoError(t, err)
		assert.False(t, up, "a moved obstacle waits for its rebuild")
		require.NoError(t, cache.RemoveObstacle(refs[0]))
		_, err = cache.ObstacleUpToDate(refs[0])
		assert.ErrorIs(t, err, ErrInvalidObstacleRef)
	}
}
