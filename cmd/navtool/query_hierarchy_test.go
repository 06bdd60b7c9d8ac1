package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

// tiledDungeonFile bakes the dungeon in tiles of 32 cells and saves it.
func tiledDungeonFile(t *testing.T) string {
	t.Helper()
	g, err := bake.LoadOBJ("../../testdata/dungeon.obj")
	require.NoError(t, err)
	settings := bake.DefaultSettings()
	settings.TileSize = 32
	r, err := bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
	require.NoError(t, err)
	mesh, err := r.NavMesh()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "dungeon.nav")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, navmesh.Save(f, mesh))
	require.NoError(t, f.Close())
	return path
}

// TestQueryHierarchical runs the reference pairs on the tiled dungeon with
// plain A* and with the hierarchy: the same pairs are found and reached,
// the straight paths are as long within 5 %, and -stats prints its line.
func TestQueryHierarchical(t *testing.T) {
	navmeshFile := tiledDungeonFile(t)
	var stats bytes.Buffer
	queryStatsOutput = &stats
	defer func() { queryStatsOutput = os.Stderr }()

	var plain, hierarchical bytes.Buffer
	args := []string{"query", "-navmesh", navmeshFile, "-pairs", "../../testdata/query_dungeon.csv", "-nodes", "65535", "-max-path", "1024"}
	require.NoError(t, run(append(args, "-stats"), &plain, &bytes.Buffer{}))
	var plainStats queryStats
	require.NoError(t, json.Unmarshal(stats.Bytes(), &plainStats))
	stats.Reset()
	require.NoError(t, run(append(args, "-hierarchical", "-stats"), &hierarchical, &bytes.Buffer{}))
	var hierarchyStats queryStats
	require.NoError(t, json.Unmarshal(stats.Bytes(), &hierarchyStats))

	want := readCSVString(t, plain.String())
	got := readCSVString(t, hierarchical.String())
	require.Len(t, got, len(want))
	g := columns(got[0])
	longer := 0
	for row := 1; row < len(got); row++ {
		for _, name := range []string{"i", "start_found", "end_found", "partial"} {
			assert.Equal(t, want[row][g[name]], got[row][g[name]], "row %d %s", row, name)
		}
		if number(t, got[row][g["len3d"]]) > float64(1.05*number(t, want[row][g["len3d"]]))+1e-3 {
			longer++
		}
	}
	assert.LessOrEqual(t, longer, (len(got)-1)/100, "straight paths more than 5 % longer")

	for _, s := range []queryStats{plainStats, hierarchyStats} {
		assert.Equal(t, 1000, s.Pairs)
		assert.Positive(t, s.USPerFindPath.Mean)
		assert.LessOrEqual(t, s.USPerFindPath.P50, s.USPerFindPath.P99)
		assert.Positive(t, s.NodesVisited)
	}
	assert.Zero(t, plainStats.BuildMS)
	assert.Zero(t, plainStats.MemoryBytes)
	assert.Positive(t, hierarchyStats.BuildMS)
	assert.Positive(t, hierarchyStats.MemoryBytes)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(stats.Bytes(), &fields))
	assert.ElementsMatch(t, []string{"pairs", "usPerFindPath", "nodesVisited", "buildMs", "memoryBytes"}, keys(fields))
}

// TestQueryMaxPath: -max-path bounds the corridor and is checked.
func TestQueryMaxPath(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin",
		"-pairs", "../../testdata/query_dungeon.csv", "-max-path", "8"}, &out, &bytes.Buffer{}))
	rows := readCSVString(t, out.String())
	c := columns(rows[0])
	for _, row := range rows[1:] {
		assert.LessOrEqual(t, number(t, row[c["npolys"]]), 8.0)
		assert.LessOrEqual(t, number(t, row[c["nstraight"]]), 8.0)
	}
	for _, bad := range []string{"0", "-1", "2000000"} {
		err := run([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin",
			"-pairs", "../../testdata/query_dungeon.csv", "-max-path", bad}, &bytes.Buffer{}, &bytes.Buffer{})
		assert.Error(t, err, bad)
	}
}

func readCSVString(t *testing.T, s string) [][]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.csv")
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
	return readCSV(t, path)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
