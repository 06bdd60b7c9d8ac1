package tilecache

import (
	"encoding/csv"
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
