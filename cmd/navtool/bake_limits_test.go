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

// TestHostileBakes runs the bake reproducers of issue 27's audit, built
// here small: each ends with a correct result or an error naming its
// cause, at once. (Before: 125 floors baked to 63, a vertex at 1e30 gave a
// -2147483648-cell grid, a repeated triangle and fine cells ran for minutes
// or hours; 300 floors in a tile cache said only "region id overflow".)
func TestHostileBakes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	var floors []([3]float32)
	for i := range 125 {
		floors = append(floors, [3]float32{0, float32(3 * i), 0})
	}
	stacked := writeOBJ(t, floors...)
	far := write("far.obj", "v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\nv 1e30 0 0\nf 1 2 3\nf 1 3 4\n")
	var repeated strings.Builder
	repeated.WriteString("v 0 0 0\nv 0 0 10\nv 10 0 10\n")
	for range 50_000 {
		repeated.WriteString("f 1 2 3\n")
	}
	repeat := write("repeat.obj", repeated.String())
	fine := write("fine.json", `{"cellSize": 0.001, "tileSize": 64}`)

	single := writeOBJ(t, floors[0])
	for _, args := range [][]string{{}, {"-tile-size", "32"}} {
		one := runBakeJSON(t, append(args, single)...)["polys"].(float64)
		report := runBakeJSON(t, append(args, stacked)...)
		assert.Equal(t, 125*one, report["polys"], "%v: every floor's polygons", args)
		assert.Empty(t, report["warnings"])
	}
	for i := 125; i < 300; i++ {
		floors = append(floors, [3]float32{0, float32(3 * i), 0})
	}
	err := run([]string{"bake", "-tilecache", writeOBJ(t, floors...)}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorIs(t, err, bake.ErrLayerRegionOverflow)
	assert.Contains(t, err.Error(), "stacks up to 300 walkable floors over one cell")
	assert.Contains(t, err.Error(), "bake a navmesh instead (solo or tiled: navtool bake without -tilecache)")
	for _, args := range [][]string{{far}, {"-tile-size", "32", far}} {
		err := run(append([]string{"bake"}, args...), &bytes.Buffer{}, &bytes.Buffer{})
		require.ErrorIs(t, err, bake.ErrLevelTooWide, "%v", args)
		assert.Contains(t, err.Error(), "vertex 4 (obj line 5) at [1e+30 0 0]")
	}
	for _, args := range [][]string{{repeat}, {"-tile-size", "32", repeat}, {"-tilecache", repeat}} {
		report := runBakeJSON(t, args...)
		assert.Equal(t, []any{"49999 triangles left out: they repeat an earlier triangle or have two corners at the same position"}, report["warnings"], "%v", args)
	}
	err = run([]string{"bake", "-config", fine, dungeonOBJ}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorIs(t, err, bake.ErrWorkLimit)
	assert.Contains(t, err.Error(), "raise it to bake anyway, or raise CellSize")
}

// TestBakeReportsWork: navtool bake prints the work estimate and the time
// it implies (typical and slowest) before it bakes (the text summary's first line) and puts it
// in the JSON report: the estimate bake.EstimateWork gives for the bake,
// the range WorkEstimate.Time gives on the bake's workers.
func TestBakeReportsWork(t *testing.T) {
	g, err := bake.LoadOBJ(dungeonOBJ)
	require.NoError(t, err)
	for _, tc := range []struct {
		args     []string
		tileSize int
		workers  int
	}{
		{nil, 0, 1},
		{[]string{"-tile-size", "32", "-workers", "2"}, 32, 2},
		{[]string{"-tile-size", "32", "-workers", "3"}, 32, 3},
	} {
		settings := defaultBakeSettings()
		settings.TileSize = tc.tileSize
		want, err := bake.EstimateWork(g, settings)
		require.NoError(t, err)
		typical, slowest := want.Time(tc.workers)
		report := runBakeJSON(t, append(tc.args, dungeonOBJ)...)
		work, ok := report["work"].(map[string]any)
		require.True(t, ok, "%v: %v", tc.args, report["work"])
		assert.Equal(t, map[string]any{
			"units": float64(want.Total()), "grids": float64(want.Grids), "cells": float64(want.Cells),
			"regions": float64(want.Regions), "footprint": float64(want.Footprint), "triangles": float64(want.Triangles), "workers": float64(tc.workers),
			"seconds": typical.Seconds(), "maxSeconds": slowest.Seconds(),
		}, work, "%v", tc.args)

		var text bytes.Buffer
		require.NoError(t, run(append([]string{"bake"}, append(tc.args, dungeonOBJ)...), &text, &bytes.Buffer{}))
		first, _, _ := strings.Cut(text.String(), "\n")
		assert.Equal(t, "work:         "+want.String()+": about "+roundDuration(typical).String()+", at most "+roundDuration(slowest).String()+" on "+itoa(tc.workers)+" workers", first)
	}
}
