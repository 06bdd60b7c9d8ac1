package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
)

// writeOBJ writes a level of axis-aligned 20 × 20 floors, one per entry of
// floors (x, y, z of its corner), and returns its path.
func writeOBJ(t *testing.T, floors ...[3]float32) string {
	t.Helper()
	var b strings.Builder
	for i, f := range floors {
		x, y, z := f[0], f[1], f[2]
		for _, c := range [][2]float32{{0, 0}, {0, 20}, {20, 20}, {20, 0}} {
			b.WriteString("v " + ftoa(x+c[0]) + " " + ftoa(y) + " " + ftoa(z+c[1]) + "\n")
		}
		n := 4*i + 1
		b.WriteString("f " + itoa(n) + " " + itoa(n+1) + " " + itoa(n+2) + "\n")
		b.WriteString("f " + itoa(n) + " " + itoa(n+2) + " " + itoa(n+3) + "\n")
	}
	path := filepath.Join(t.TempDir(), "level.obj")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestBakeReportsSpanHeightClamp: the JSON report's warnings and the text
// summary say that a floor above the span height limit was clamped.
func TestBakeReportsSpanHeightClamp(t *testing.T) {
	level := writeOBJ(t, [3]float32{0, 0, 0}, [3]float32{30, 2000, 0})
	report := runBakeJSON(t, level)
	warnings, ok := report["warnings"].([]any)
	require.True(t, ok, "warnings: %v", report["warnings"])
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "clamped")
	assert.Contains(t, warnings[0], "8191 cells")

	report = runBakeJSON(t, "-tile-size", "32", level)
	require.NotEmpty(t, report["warnings"])
	assert.Contains(t, report["warnings"].([]any)[0], "clamped")
}

func ftoa(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

func itoa(i int) string { return strconv.Itoa(i) }

// TestBakeConfigRefusesTooFineCells: a settings file with a cell size of
// 0.002 on the dungeon fails with the estimate (it ran out of memory), and
// maxMemoryMB moves the limit.
func TestBakeConfigRefusesTooFineCells(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "fine.json")
	require.NoError(t, os.WriteFile(config, []byte(`{"cellSize": 0.002, "agentRadius": 0.5, "detailSampleDist": 0}`), 0o644))
	err := run([]string{"bake", "-config", config, dungeonOBJ}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorIs(t, err, bake.ErrMemoryLimit)
	assert.Contains(t, err.Error(), "needs at least 85.6 GiB")

	small := filepath.Join(dir, "small.json")
	require.NoError(t, os.WriteFile(small, []byte(`{"maxMemoryMB": 1}`), 0o644))
	err = run([]string{"bake", "-config", small, dungeonOBJ}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorIs(t, err, bake.ErrMemoryLimit, "the dungeon's 4.1 MB grid is over 1 MiB")
	require.NoError(t, os.WriteFile(small, []byte(`{"maxMemoryMB": 4}`), 0o644))
	require.NoError(t, run([]string{"bake", "-config", small, dungeonOBJ}, &bytes.Buffer{}, &bytes.Buffer{}))

	bad := filepath.Join(dir, "bad.json")
	for _, content := range []string{`{"maxMemoryMB": 0}`, `{"maxMemoryMB": -3}`, `{"maxTiles": 0}`} {
		require.NoError(t, os.WriteFile(bad, []byte(content), 0o644))
		assert.Error(t, run([]string{"bake", "-config", bad, dungeonOBJ}, &bytes.Buffer{}, &bytes.Buffer{}), content)
	}
}

// TestBakeTiledMaxTilesAndFarFloors: maxTiles refuses a tiled bake with
// more tiles with geometry; two floors 100 km apart bake at once, the
// report telling the tiles baked of the 108 million.
func TestBakeTiledMaxTilesAndFarFloors(t *testing.T) {
	config := filepath.Join(t.TempDir(), "tiles.json")
	require.NoError(t, os.WriteFile(config, []byte(`{"tileSize": 32, "maxTiles": 10}`), 0o644))
	err := run([]string{"bake", "-config", config, dungeonOBJ}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorIs(t, err, bake.ErrTooManyTiles)
	assert.Contains(t, err.Error(), "more than 10 of the 8×11 tiles")

	level := writeOBJ(t, [3]float32{0, 0, 0}, [3]float32{100000, 0, 100000})
	report := runBakeJSON(t, "-tile-size", "32", level)
	assert.EqualValues(t, 10419, report["tilesX"])
	assert.EqualValues(t, 10419, report["tilesY"])
	assert.Less(t, report["tilesBaked"].(float64), 60.0)
	assert.Positive(t, report["tiles"].(float64))
}
