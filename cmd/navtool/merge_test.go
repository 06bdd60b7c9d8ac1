package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// TestBakeRangesMergeToTheWholeBake bakes the dungeon in four -tiles
// ranges, two as MSET files and two in the own format, merges them, and
// gets the whole bake's file byte for byte, in both formats.
func TestBakeRangesMergeToTheWholeBake(t *testing.T) {
	dir := t.TempDir()
	bakeTo := func(out string, args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(append(append([]string{"bake", "-tile-size", "32", "-o", filepath.Join(dir, out)}, args...), dungeonOBJ), &stdout, &stderr))
	}
	bakeTo("whole.navmesh")
	bakeTo("whole.mset", "-format", "mset")
	var parts []string
	for i, tiles := range []string{"0:3,0:5", "4:7,0:5", "0:3,6:10", "4:7,6:10"} {
		name := filepath.Join(dir, "part"+tiles)
		if i%2 == 0 {
			bakeTo(filepath.Base(name), "-tiles", tiles, "-format", "mset")
		} else {
			bakeTo(filepath.Base(name), "-tiles", tiles)
		}
		parts = append(parts, name)
	}

	for _, format := range []string{"own", "mset"} {
		out := filepath.Join(dir, "merged."+format)
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(append([]string{"merge", "-json", "-format", format, "-o", out}, parts...), &stdout, &stderr))
		var report mergeReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
		assert.Equal(t, 41, report.Tiles)
		assert.Len(t, report.Inputs, 4)
		assert.Equal(t, []int{5, 11, 15, 10}, []int{report.Inputs[0].Tiles, report.Inputs[1].Tiles, report.Inputs[2].Tiles, report.Inputs[3].Tiles})

		want := map[string]string{"own": "whole.navmesh", "mset": "whole.mset"}[format]
		wantBytes, err := os.ReadFile(filepath.Join(dir, want))
		require.NoError(t, err)
		got, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.Equal(t, wantBytes, got, format)
		assert.Equal(t, len(got), report.OutputBytes)
	}

	// Without -format: MSET inputs only give MSET.
	out := filepath.Join(dir, "default")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"merge", "-o", out, parts[0], parts[2]}, &stdout, &stderr))
	_, format, err := navmesh.LoadFile(out)
	require.NoError(t, err)
	assert.Equal(t, navmesh.FormatMSET, format)
	assert.Contains(t, stdout.String(), "wrote:   "+out+" (mset, 20 tiles")
}

// TestMergeErrors: inconsistent or overlapping bakes, bad flags and
// unreadable files are refused with the files named, and nothing is
// written.
func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	bakeTo := func(out string, args ...string) string {
		t.Helper()
		path := filepath.Join(dir, out)
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(append(append([]string{"bake", "-o", path}, args...), dungeonOBJ), &stdout, &stderr))
		return path
	}
	left := bakeTo("left", "-tile-size", "32", "-tiles", "0:3,0:10")
	overlap := bakeTo("overlap", "-tile-size", "32", "-tiles", "3:4,0:10")
	tiles40 := bakeTo("tiles40", "-tile-size", "40", "-tiles", "4:5,0:8")
	solo := bakeTo("solo")
	garbage := filepath.Join(dir, "garbage")
	require.NoError(t, os.WriteFile(garbage, []byte("not a navmesh"), 0o644))
	out := filepath.Join(dir, "never")

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-o", out, left, overlap}, overlap + ": holds tile (3, 0, layer 0), as does " + left},
		{[]string{"-o", out, left, tiles40}, tiles40 + ": tiles 12 × 12 differ from 9.6 × 9.6 of " + left},
		{[]string{"-o", out, left, solo}, solo + ": tiles 74.32036 × 98.93247 differ from 9.6 × 9.6 of " + left},
		{[]string{"-o", out, left, garbage}, garbage + ": navmesh: load: magic"},
		{[]string{"-o", out, left, filepath.Join(dir, "missing")}, "missing"},
		{[]string{"-o", out}, "no input files"},
		{[]string{left}, "-o is required"},
		{[]string{"-o", out, "-format", "dnav", left}, "unknown format"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"merge"}, tt.args...), &stdout, &stderr)
		require.Error(t, err, tt.args)
		assert.ErrorContains(t, err, tt.want, tt.args)
		assert.NoFileExists(t, out)
	}
}

// TestBakeTileCacheSummary bakes the dungeon's tile cache layers: the C++
// figures of the reference, the whole grid and a range.
func TestBakeTileCacheSummary(t *testing.T) {
	report := runBakeJSON(t, "-tilecache", "-workers", "2", dungeonOBJ)
	want := map[string]any{
		"mode": "tilecache", "tileSize": 48.0, "tilesX": 6.0, "tilesY": 7.0, "tiles": 24.0, "tileRange": "0:5,0:6",
		"layers": 30.0, "tilesWithLayers": 24.0, "maxLayersInTile": 2.0, "droppedLayers": 0.0,
		"heightfieldSpans": 75832.0, "layerRawBytes": 207360.0, "layerCompressedBytes": 18447.0, "layerHash": "9750808d4fa04934",
	}
	for key, value := range want {
		assert.Equal(t, value, report[key], key)
	}
	assert.Positive(t, report["stagesMs"].(map[string]any)["layers"])

	report = runBakeJSON(t, "-tilecache", "-tiles", "2:3,1", dungeonOBJ)
	assert.Equal(t, "2:3,1:1", report["tileRange"])
	assert.LessOrEqual(t, report["tiles"], 2.0)

	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"bake", "-tilecache", dungeonOBJ}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "layers:       30 (at most 2 in a tile, 0 dropped), 207360 bytes raw, 18447 with FastLZ (hash 9750808d4fa04934)")

	// The solo and tiled summaries carry no layer figures.
	report = runBakeJSON(t, dungeonOBJ)
	assert.NotContains(t, report, "layers")
	assert.NotContains(t, report, "tileRange")
}

// TestBakeTileCacheRangesMergeToTheWholeBake writes dungeon's tile cache
// as TSET (the C++ file, byte for byte) and in the own format, bakes it in
// four -tiles ranges of mixed formats, and merges them back into both
// files.
func TestBakeTileCacheRangesMergeToTheWholeBake(t *testing.T) {
	dir := t.TempDir()
	bakeTo := func(out string, args ...string) string {
		t.Helper()
		path := filepath.Join(dir, out)
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(append(append([]string{"bake", "-tilecache", "-o", path}, args...), dungeonOBJ), &stdout, &stderr))
		return path
	}
	wholeTSET := bakeTo("whole.tset", "-format", "tset")
	wholeOwn := bakeTo("whole.tilecache")
	cpp, err := os.ReadFile("../../bake/testdata/tilecache/tc48_dungeon.tset") // the C++ file (bake/testdata/README.md)
	require.NoError(t, err)
	got, err := os.ReadFile(wholeTSET)
	require.NoError(t, err)
	assert.Equal(t, cpp, got, "the C++ TSET file")

	var parts []string
	for i, tiles := range []string{"0:2,0:3", "3:5,0:3", "0:2,4:6", "3:5,4:6"} {
		format := []string{"tset", "own"}[i%2]
		parts = append(parts, bakeTo("part"+tiles, "-tiles", tiles, "-format", format))
	}
	for format, want := range map[string]string{"tset": wholeTSET, "own": wholeOwn} {
		out := filepath.Join(dir, "merged."+format)
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(append([]string{"merge", "-json", "-format", format, "-o", out}, parts...), &stdout, &stderr))
		var report mergeReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
		assert.Equal(t, "tilecache", report.Kind)
		assert.Equal(t, 30, report.Tiles)
		wantBytes, err := os.ReadFile(want)
		require.NoError(t, err)
		gotBytes, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.Equal(t, wantBytes, gotBytes, format)
	}

	// Mixed kinds and formats that do not fit are refused.
	navmeshFile := filepath.Join(dir, "tiles.navmesh")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"bake", "-tile-size", "32", "-o", navmeshFile, dungeonOBJ}, &stdout, &stderr))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{parts[0], navmeshFile}, "the inputs mix navmesh and tile cache files"},
		{[]string{"-format", "mset", parts[0], parts[1]}, "format mset holds navmeshes"},
		{[]string{"-format", "tset", navmeshFile}, "format tset holds tile caches"},
		{[]string{parts[0], parts[0]}, parts[0] + ": holds layer 0 of tile (2, 0), as does " + parts[0]},
	} {
		out := filepath.Join(dir, "never")
		err := run(append([]string{"merge", "-o", out}, tt.args...), &stdout, &stderr)
		require.Error(t, err, tt.args)
		assert.ErrorContains(t, err, tt.want)
		assert.NoFileExists(t, out)
	}
}

func TestBakeTilesFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-tiles", "0:3", "-tile-size", "32", dungeonOBJ}, "no comma"},
		{[]string{"-tiles", "0:a,1:2", "-tile-size", "32", dungeonOBJ}, `"a" is not a tile index`},
		{[]string{"-tiles", "3:1,1:2", "-tile-size", "32", dungeonOBJ}, "3 > 1"},
		{[]string{"-tiles", "-1:1,1:2", "-tile-size", "32", dungeonOBJ}, "negative"},
		{[]string{"-tiles", "0:8,0:0", "-tile-size", "32", dungeonOBJ}, "tiles 0:8,0:0 of a 8×11 grid (0:7,0:10)"},
		{[]string{"-tiles", "0:1,0:1", dungeonOBJ}, "-tiles needs a tiled bake"},
		{[]string{"-tilecache", "-format", "mset", dungeonOBJ}, "a tile cache bake writes own (archenav tile cache file) or tset"},
		{[]string{"-format", "tset", dungeonOBJ}, "format tset holds tile cache layers: give -tilecache"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"bake"}, tt.args...), &stdout, &stderr)
		require.Error(t, err, tt.args)
		assert.ErrorContains(t, err, tt.want, tt.args)
	}
}

// FuzzParseTileRange: any text parses to a valid range or an error, never
// a panic; a parsed range prints back to an equivalent -tiles value.
func FuzzParseTileRange(f *testing.F) {
	for _, seed := range []string{"0:3,0:5", "2,3", "1:1,0:9", "a:b,c", ",", "0:3", "9999999999999999999:1,0", "-1:2,3:4", " 1 : 2 , 3 : 4 "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := parseTileRange(text)
		if err != nil {
			return
		}
		require.LessOrEqual(t, 0, r.MinX)
		require.LessOrEqual(t, r.MinX, r.MaxX)
		require.LessOrEqual(t, 0, r.MinY)
		require.LessOrEqual(t, r.MinY, r.MaxY)
		again, err := parseTileRange(r.String())
		require.NoError(t, err)
		require.Equal(t, r, again)
	})
}
