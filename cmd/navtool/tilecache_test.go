package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tileCacheData = "../../navcore/tilecache/testdata/"

// tileCacheReference is the part of tc48_dungeon.json the command reports.
type tileCacheReference struct {
	Layers          int    `json:"layers"`
	TilesWithLayers int    `json:"tilesWithLayers"`
	MaxLayersInTile int    `json:"maxLayersInTile"`
	LayerHash       string `json:"layerHash"`
	LayerRawBytes   int    `json:"layerRawBytes"`
	Compressed      int    `json:"layerCompressedBytesFastLZ"`
	Initial         meshFigures
	WithObstacles   meshFigures
	AfterMove       meshFigures
	Cleared         meshFigures
}

// TestTileCacheCommandMatchesReference loads the C++ TSET or bakes the level
// (-obj), applies the
// reference obstacles, the moved set and an empty set, serial and burst, on
// one and two workers: the JSON report must give the C++ figures.
func TestTileCacheCommandMatchesReference(t *testing.T) {
	raw, err := os.ReadFile(tileCacheData + "tc48_dungeon.json")
	require.NoError(t, err)
	var ref tileCacheReference
	require.NoError(t, json.Unmarshal(raw, &ref))
	empty := filepath.Join(t.TempDir(), "empty.csv")
	require.NoError(t, os.WriteFile(empty, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n"), 0o644))

	tset := []string{"-tset", tileCacheData + "tc48_dungeon.tset"}
	obj := []string{"-obj", "../../testdata/dungeon.obj"}
	for _, args := range [][]string{tset, append(tset, "-burst"), append(tset, "-burst", "-workers", "2"), obj, append(obj, "-burst", "-workers", "2")} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout bytes.Buffer
			cmd := append([]string{"tilecache",
				"-obstacles", tileCacheData + "tc48_dungeon_obstacles.csv",
				"-obstacles", tileCacheData + "tc48_dungeon_obstacles_moved.csv",
				"-obstacles", empty, "-json"}, args...)
			require.NoError(t, run(cmd, &stdout, &bytes.Buffer{}))
			var got tileCacheReport
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))
			assert.Equal(t, ref.Layers, got.Layers)
			assert.Equal(t, ref.TilesWithLayers, got.TilesWithLayers)
			assert.Equal(t, ref.MaxLayersInTile, got.MaxLayersInTile)
			assert.Equal(t, ref.LayerHash, got.LayerHash)
			assert.Equal(t, ref.LayerRawBytes, got.LayerRawBytes)
			assert.Equal(t, ref.Compressed, got.LayerCompressedBytes)
			assert.Equal(t, ref.Initial, got.Initial)
			require.Len(t, got.States, 3)
			assert.Equal(t, ref.WithObstacles, got.States[0])
			assert.Equal(t, ref.AfterMove, got.States[1])
			assert.Equal(t, ref.Cleared, got.States[2])
			assert.Equal(t, 80, got.StateChanges[0].Added)
			assert.Equal(t, 3, got.StateChanges[1].Outside, "three cylinders move off every layer")
			assert.Zero(t, got.StateChanges[2].Obstacles)
			assert.Len(t, got.TimingMs.States, 3)

			// The JSON keys the issue lists.
			var keys map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &keys))
			for _, key := range []string{"layers", "tilesWithLayers", "maxLayersInTile", "layerHash", "layerRawBytes", "layerCompressedBytes", "initial", "states", "timingMs"} {
				assert.Contains(t, keys, key)
			}
		})
	}
}

// TestTileCacheCommandPairsAndTSET runs the reference path requests on the
// mesh with the obstacles and writes the layers back as a TSET, which must
// equal the C++ file.
func TestTileCacheCommandPairsAndTSET(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "pairs.csv")
	tset := filepath.Join(dir, "out.tset")
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"tilecache", "-tset", tileCacheData + "tc48_dungeon.tset",
		"-obstacles", tileCacheData + "tc48_dungeon_obstacles.csv", "-o", tset,
		"-pairs", tileCacheData + "tc48_dungeon_query_obstacles.csv", "-pairs-out", out}, &stdout, &bytes.Buffer{}))
	assert.Contains(t, stdout.String(), "pairs          1000, 674 partial")

	got := readCSV(t, out)
	want := readCSV(t, tileCacheData+"tc48_dungeon_query_obstacles.csv")
	require.Len(t, got, 1001)
	g, w := columns(got[0]), columns(want[0])
	for row := 1; row < len(got); row++ {
		for _, pair := range [][2]string{{"start_found", "start_found"}, {"end_found", "end_found"},
			{"partial", "path_partial"}, {"npolys", "npolys"}, {"nstraight", "nstraight"}} {
			assert.Equal(t, want[row][w[pair[1]]], got[row][g[pair[0]]], "row %d %s", row, pair[0])
		}
		for _, name := range []string{"len3d", "len2d", "endx", "endy", "endz"} {
			assert.InDelta(t, number(t, want[row][w[name]]), number(t, got[row][g[name]]), 1e-4, "row %d %s", row, name)
		}
	}

	written, err := os.ReadFile(tset)
	require.NoError(t, err)
	original, err := os.ReadFile(tileCacheData + "tc48_dungeon.tset")
	require.NoError(t, err)
	assert.Equal(t, original, written)
}

func TestTileCacheCommandErrors(t *testing.T) {
	dir := t.TempDir()
	badType := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(badType, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n1,sphere,0,0,0,0,0,0,1,1,0\n"), 0o644))
	twice := filepath.Join(dir, "twice.csv")
	require.NoError(t, os.WriteFile(twice, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n1,cylinder,0,0,0,0,0,0,1,1,0\n1,cylinder,0,0,0,0,0,0,1,1,0\n"), 0o644))
	noColumn := filepath.Join(dir, "nocol.csv")
	require.NoError(t, os.WriteFile(noColumn, []byte("id,type,x,y,z\n"), 0o644))
	// Issue 27: a cylinder of radius 0, which the crowd refuses, was
	// accepted here, and a box upside down became a "box height -10" in
	// navtool crowd.
	flat := filepath.Join(dir, "flat.csv")
	require.NoError(t, os.WriteFile(flat, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n1,cylinder,0,0,0,0,0,0,1,1,0\n2,cylinder,0,0,0,0,0,0,0,1,0\n"), 0o644))
	upsideDown := filepath.Join(dir, "upside.csv")
	require.NoError(t, os.WriteFile(upsideDown, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n1,box,0,10,0,2,0,2,0,0,0\n"), 0o644))
	// 10,000 boxes over the whole level ran for a minute, tile rebuild
	// after tile rebuild, before the 1025th was refused.
	var many strings.Builder
	many.WriteString("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n")
	for i := range 10000 {
		fmt.Fprintf(&many, "%d,box,-100,-100,-100,100,100,100,0,0,0\n", i)
	}
	manyBoxes := filepath.Join(dir, "many.csv")
	require.NoError(t, os.WriteFile(manyBoxes, []byte(many.String()), 0o644))
	tset := tileCacheData + "tc48_dungeon.tset"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{}, "exactly one of -obj and -tset"},
		{[]string{"-tset", tset, "-obj", "x.obj"}, "exactly one of -obj and -tset"},
		{[]string{"-tset", tset, "-pairs", "p.csv"}, "-pairs and -pairs-out go together"},
		{[]string{"-tset", tset, "-workers", "0"}, "workers 0"},
		{[]string{"-tset", tset, "-obstacles", badType}, `type "sphere"`},
		{[]string{"-tset", tset, "-obstacles", twice}, "given twice"},
		{[]string{"-tset", tset, "-obstacles", noColumn}, `no "x2" column`},
		{[]string{"-tset", tset, "-obstacles", flat}, "flat.csv: line 3: tilecache: cylinder obstacle: radius 0, want a finite number > 0"},
		{[]string{"-tset", tset, "-obstacles", upsideDown}, "upside.csv: line 2: tilecache: box obstacle: min y 10 is not below max y 0"},
		{[]string{"-tset", tset, "-obstacles", manyBoxes}, "a state of 10000 obstacles, 10000 of them new, needs room for 10000 at once (the new ones are added before the old ones go), more than the 1024 the tile cache holds (MaxObstacles)"},
		{[]string{"-tset", filepath.Join(dir, "missing.tset")}, "no such file"},
		{[]string{"-tset", badType}, "neither TSET"},
		{[]string{"-obj", filepath.Join(dir, "missing.obj")}, "no such file"},
	}
	for _, c := range cases {
		err := run(append([]string{"tilecache"}, c.args...), &bytes.Buffer{}, &bytes.Buffer{})
		if assert.Error(t, err, "%v", c.args) {
			assert.Contains(t, err.Error(), c.want, "%v", c.args)
		}
	}
}
