package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// TestQueryCommandMatchesReference runs `navtool query` on the C++ reference
// pairs and compares its answers with what the C++ recorded.
func TestQueryCommandMatchesReference(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.csv")
	var stdout bytes.Buffer
	err := run([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin",
		"-pairs", "../../testdata/query_dungeon.csv", "-o", out}, &stdout, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Zero(t, stdout.Len(), "results go to -o, not stdout")

	got := readCSV(t, out)
	want := readCSV(t, "../../testdata/query_dungeon.csv")
	require.Len(t, got, len(want))
	require.Len(t, got, 1001)
	assert.Equal(t, []string{"i", "start_found", "end_found", "partial", "npolys", "nstraight", "len3d", "len2d", "endx", "endy", "endz"}, got[0])
	g, w := columns(got[0]), columns(want[0])
	for row := 1; row < len(got); row++ {
		for _, pair := range [][2]string{{"i", "i"}, {"start_found", "start_found"}, {"end_found", "end_found"},
			{"partial", "path_partial"}, {"npolys", "npolys"}, {"nstraight", "nstraight"}} {
			assert.Equal(t, want[row][w[pair[1]]], got[row][g[pair[0]]], "row %d %s", row, pair[0])
		}
		for _, name := range []string{"len3d", "len2d", "endx", "endy", "endz"} {
			assert.InDelta(t, number(t, want[row][w[name]]), number(t, got[row][g[name]]), 1e-4, "row %d %s", row, name)
		}
	}
}

func TestQueryCommandStdoutAndOptions(t *testing.T) {
	dir := t.TempDir()
	pairs := filepath.Join(dir, "pairs.csv")
	// Columns in another order, an extra column, one pair far off the mesh.
	require.NoError(t, os.WriteFile(pairs, []byte(
		"ez,ey,ex,name,sz,sy,sx\n"+
			"-73.5664291,15.0986919,23.7297325,a,-20.340023,10.1972942,-9.17410278\n"+
			"0,0,1000,b,0,0,1000\n"), 0o644))
	var stdout bytes.Buffer
	err := run([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin", "-pairs", pairs,
		"-nodes", "512", "-extents", "2, 4, 2", "-include", "0xffff", "-exclude", "0x10"}, &stdout, &bytes.Buffer{})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[1], "0,1,1,0,22,8,65.65"), lines[1])
	assert.Equal(t, "1,0,0,0,0,0,0,0,0,0,0", lines[2])
}

// TestQueryCommandReadsTileSets runs the command on the dungeon tile saved
// as a RecastDemo tile set: same answers as on the DNAV tile.
func TestQueryCommandReadsTileSets(t *testing.T) {
	blob, err := os.ReadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	data, err := navmesh.ReadDNAV(blob)
	require.NoError(t, err)
	h := data.Header
	set := &navmesh.TileSet{
		Params: navmesh.Params{Origin: h.BMin, TileWidth: h.BMax[0] - h.BMin[0], TileHeight: h.BMax[2] - h.BMin[2], MaxTiles: 4, MaxPolys: 128},
		Tiles:  []navmesh.TileSetTile{{Ref: navmesh.EncodeRef(1, 2, 0), Data: data}},
	}
	msetPath := filepath.Join(t.TempDir(), "dungeon.mset")
	f, err := os.Create(msetPath)
	require.NoError(t, err)
	require.NoError(t, navmesh.WriteMSET(f, set))
	require.NoError(t, f.Close())

	var fromDNAV, fromMSET bytes.Buffer
	require.NoError(t, run([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin", "-pairs", "../../testdata/query_dungeon.csv"}, &fromDNAV, &bytes.Buffer{}))
	require.NoError(t, run([]string{"query", "-navmesh", msetPath, "-pairs", "../../testdata/query_dungeon.csv"}, &fromMSET, &bytes.Buffer{}))
	assert.Equal(t, fromDNAV.String(), fromMSET.String())
}

func TestQueryCommandErrors(t *testing.T) {
	dir := t.TempDir()
	badHeader := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(badHeader, []byte("sx,sy,sz,ex,ey\n1,2,3,4,5\n"), 0o644))
	badNumber := filepath.Join(dir, "num.csv")
	require.NoError(t, os.WriteFile(badNumber, []byte("sx,sy,sz,ex,ey,ez\n1,2,x,4,5,6\n"), 0o644))
	tile := "../../testdata/navmesh_solo_dungeon.bin"
	for name, args := range map[string][]string{
		"no flags":        {},
		"no pairs":        {"-navmesh", tile},
		"missing column":  {"-navmesh", tile, "-pairs", badHeader},
		"bad number":      {"-navmesh", tile, "-pairs", badNumber},
		"missing navmesh": {"-navmesh", filepath.Join(dir, "none.bin"), "-pairs", badHeader},
		"bad extents":     {"-navmesh", tile, "-pairs", badHeader, "-extents", "1,2"},
		"bad include":     {"-navmesh", tile, "-pairs", badHeader, "-include", "0x10000"},
		"bad nodes":       {"-navmesh", tile, "-pairs", "../../testdata/query_dungeon.csv", "-nodes", "0"},
		"stray argument":  {"-navmesh", tile, "-pairs", badHeader, "extra"},
		"not a navmesh":   {"-navmesh", "../../testdata/query_dungeon.csv", "-pairs", badHeader},
	} {
		t.Run(name, func(t *testing.T) {
			err := run(append([]string{"query"}, args...), &bytes.Buffer{}, &bytes.Buffer{})
			assert.Error(t, err)
		})
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return rows
}

func columns(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		m[h] = i
	}
	return m
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}
