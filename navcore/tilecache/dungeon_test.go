package tilecache

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// obstacleRow is one row of the reference obstacle CSVs.
type obstacleRow struct {
	id       int
	obstacle Obstacle
}

func readObstacles(t testing.TB, path string) []obstacleRow {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	out := make([]obstacleRow, 0, len(rows)-1)
	for _, row := range rows[1:] {
		num := func(i int) float32 {
			v, err := strconv.ParseFloat(row[i], 32)
			require.NoError(t, err)
			return float32(v)
		}
		id, err := strconv.Atoi(row[0])
		require.NoError(t, err)
		a := mgl32.Vec3{num(2), num(3), num(4)}
		b := mgl32.Vec3{num(5), num(6), num(7)}
		var o Obstacle
		switch row[1] {
		case "cylinder":
			o = Cylinder(a, num(8), num(9))
		case "box":
			o = Box(a, b)
		case "orientedbox":
			o = OrientedBox(a, b, num(10))
		default:
			t.Fatalf("unknown obstacle type %q", row[1])
		}
		out = append(out, obstacleRow{id: id, obstacle: o})
	}
	return out
}

// loadDungeon returns the C++ TSET file's cache with every tile built.
func loadDungeon(t testing.TB, workers int) *Cache {
	t.Helper()
	set, _ := readDungeonTSET(t)
	cache, _, err := FromTileSet(set, Options{Workers: workers})
	require.NoError(t, err)
	updateUntilDone(t, cache)
	return cache
}

func updateUntilDone(t testing.TB, cache *Cache) int {
	t.Helper()
	for calls := 1; ; calls++ {
		done, err := cache.Update(Budget{})
		require.NoError(t, err)
		if done {
			return calls
		}
		require.Less(t, calls, 10000)
	}
}

func summary(t testing.TB, cache *Cache) referenceMesh {
	t.Helper()
	s, err := Summarize(cache.Mesh().Snapshot())
	require.NoError(t, err)
	return referenceMesh{Tiles: s.Tiles, Polys: s.Polys, Verts: s.Verts, Links: s.Links, DetailTris: s.DetailTris, Bytes: s.Bytes, TileHash: fmt.Sprintf("%016x", s.TileHash)}
}

func TestDungeonInitialMesh(t *testing.T) {
	ref := readDungeonReference(t)
	cache := loadDungeon(t, 1)
	assert.Equal(t, ref.Initial, summary(t, cache))
}

// obstacleSet applies obstacle states to a cache, as navtool tilecache
// does: ids kept with new values move, ids gone are removed, new ids added.
type obstacleSet struct {
	refs    map[int]ObstacleRef
	values  map[int]Obstacle
	outside int // moved off every layer, so removed
}

func newObstacleSet() *obstacleSet {
	return &obstacleSet{refs: map[int]ObstacleRef{}, values: map[int]Obstacle{}}
}

// apply moves the cache to state; serial updates after every change.
func (s *obstacleSet) apply(t testing.TB, cache *Cache, state []obstacleRow, serial bool) {
	t.Helper()
	keep := map[int]bool{}
	step := func() {
		if serial {
			updateUntilDone(t, cache)
		}
	}
	for _, row := range state {
		keep[row.id] = true
		ref, ok := s.refs[row.id]
		switch {
		case !ok:
			r, err := cache.AddObstacle(row.obstacle)
			require.NoError(t, err, "obstacle %d", row.id)
			s.refs[row.id] = r
		case s.values[row.id] != row.obstacle:
			err := cache.MoveObstacle(ref, row.obstacle)
			if errors.Is(err, ErrOutsideLayers) {
				// Moved off every layer: it carves nothing there (the C++
				// keeps it without tiles), so it goes.
				require.NoError(t, cache.RemoveObstacle(ref))
				delete(s.refs, row.id)
				delete(s.values, row.id)
				s.outside++
				step()
				continue
			}
			require.NoError(t, err, "obstacle %d", row.id)
		default:
			continue
		}
		s.values[row.id] = row.obstacle
		step()
	}
	for id, ref := range s.refs {
		if !keep[id] {
			require.NoError(t, cache.RemoveObstacle(ref))
			delete(s.refs, id)
			delete(s.values, id)
			step()
		}
	}
	updateUntilDone(t, cache)
}

// TestDungeonObstaclePhases applies the reference obstacles, the moved set
// and nothing, serial (one change, then Update until up to date) and burst
// (all changes, then Update), on one and two workers: every phase must give
// the C++ figures.
func TestDungeonObstaclePhases(t *testing.T) {
	ref := readDungeonReference(t)
	added := readObstacles(t, "testdata/tc48_dungeon_obstacles.csv")
	moved := readObstacles(t, "testdata/tc48_dungeon_obstacles_moved.csv")
	require.Len(t, added, 80)
	for _, mode := range []struct {
		name    string
		serial  bool
		workers int
	}{{"serial", true, 1}, {"burst", false, 1}, {"burst 2 workers", false, 2}} {
		t.Run(mode.name, func(t *testing.T) {
			cache := loadDungeon(t, mode.workers)
			set := newObstacleSet()
			set.apply(t, cache, added, mode.serial)
			assert.Equal(t, ref.WithObstacles, summary(t, cache), "with obstacles")
			set.apply(t, cache, moved, mode.serial)
			assert.Equal(t, 3, set.outside, "three cylinders move off every layer")
			assert.Equal(t, ref.AfterMove, summary(t, cache), "after move")
			set.apply(t, cache, nil, mode.serial)
			assert.Equal(t, ref.Cleared, summary(t, cache), "cleared")
			assert.Zero(t, cache.ObstacleCount())
		})
	}
}
