package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

const dungeonOBJ = "../../testdata/dungeon.obj"

func runBakeJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(append([]string{"bake", "-json"}, args...), &stdout, &stderr))
	assert.Empty(t, stderr.String())
	var report map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
	return report
}

// TestBakeSoloDungeonGolden bakes the dungeon with the defaults: the counts
// and fingerprints of the C++ solo bake.
func TestBakeSoloDungeonGolden(t *testing.T) {
	report := runBakeJSON(t, dungeonOBJ)
	want := map[string]any{
		"mode": "solo", "gridWidth": 248.0, "gridHeight": 330.0, "tiles": 1.0,
		"heightfieldSpans": 52106.0, "compactSpans": 23569.0, "walkableSpans": 17500.0,
		"regions": 16.0, "contours": 15.0, "polyVerts": 223.0, "polys": 118.0,
		"detailVerts": 513.0, "detailTris": 291.0, "tileBytes": 19064.0,
		"polyMeshHash": "b610cb7db5148d78", "detailMeshHash": "9daa27fc585abb5e", "tileHash": "9acbed5cd350892d",
		"inputVertices": 5101.0, "inputTriangles": 10133.0,
	}
	for key, value := range want {
		assert.Equal(t, value, report[key], key)
	}
	stages := report["stagesMs"].(map[string]any)
	for _, key := range []string{"rasterize", "filters", "compact", "erode", "distanceField", "regions", "contours", "polyMesh", "detailMesh", "tileData"} {
		assert.Contains(t, stages, key)
	}
	assert.Positive(t, stages["rasterize"])
	assert.Positive(t, report["totalMs"])
	assert.Empty(t, report["warnings"])
}

// TestBakeTiledDungeonGolden bakes the dungeon in tiles of 32 cells: the
// totals of the C++ tile sample, and its tiles' bytes.
func TestBakeTiledDungeonGolden(t *testing.T) {
	report := runBakeJSON(t, "-tile-size", "32", "-workers", "2", dungeonOBJ)
	want := map[string]any{
		"mode": "tiled", "tileSize": 32.0, "tilesX": 8.0, "tilesY": 11.0, "tiles": 41.0, "workers": 2.0,
		"polys": 143.0, "polyVerts": 398.0, "detailTris": 344.0, "tileBytes": 32052.0,
		"heightfieldSpans": 86940.0, "compactSpans": 36085.0, "walkableSpans": 22085.0, "contours": 59.0,
		// FNV-1a over the 41 C++ tile blobs in grid order.
		"tileHash": "2b6e853216bd9ccb",
	}
	for key, value := range want {
		assert.Equal(t, value, report[key], key)
	}
}

// TestBakeWritesEveryFormat writes each format and reads it back.
func TestBakeWritesEveryFormat(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args   []string
		format navmesh.Format
		tiles  int
	}{
		{[]string{"-format", "own"}, navmesh.FormatArchenav, 1},
		{[]string{"-format", "dnav"}, navmesh.FormatDNAV, 1},
		{[]string{"-format", "mset"}, navmesh.FormatMSET, 1},
		{[]string{"-format", "own", "-tile-size", "32"}, navmesh.FormatArchenav, 41},
		{[]string{"-format", "mset", "-tile-size", "32"}, navmesh.FormatMSET, 41},
	}
	for i, tt := range tests {
		path := filepath.Join(dir, tt.format.String()+string(rune('a'+i)))
		report := runBakeJSON(t, append(tt.args, "-o", path, dungeonOBJ)...)
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, float64(info.Size()), report["outputBytes"])

		mesh, format, err := navmesh.LoadFile(path)
		require.NoError(t, err, tt.args)
		assert.Equal(t, tt.format, format, tt.args)
		assert.Equal(t, tt.tiles, mesh.TileCount(), tt.args)
	}

	// The solo DNAV is the C++ tile, byte for byte.
	want, err := os.ReadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "DNAVb"))
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestBakeConfig applies a settings file: every key it sets, the rest
// RecastDemo's defaults.
func TestBakeConfig(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "settings.json")
	require.NoError(t, os.WriteFile(config, []byte(`{
		"partition": "monotone",
		"tileSize": 64,
		"cellSize": 0.3,
		"filterLedgeSpans": true,
		"convexVolumes": [{"points": [[0, 0, -20], [10, 0, -20], [10, 0, -10], [0, 0, -10]], "minY": -1, "maxY": 20, "area": 1}],
		"offMeshConnections": [{"start": [0, 0, -40], "end": [5, 0, -40], "radius": 0.6, "bidirectional": true, "area": 5, "flags": 8, "userId": 7}]
	}`), 0o644))
	out := filepath.Join(dir, "out.navmesh")
	report := runBakeJSON(t, "-config", config, "-o", out, dungeonOBJ)
	assert.Equal(t, "tiled", report["mode"])
	assert.Equal(t, 64.0, report["tileSize"])
	assert.Equal(t, [2]any{4.0, 6.0}, [2]any{report["tilesX"], report["tilesY"]})
	assert.Equal(t, 0.0, report["stagesMs"].(map[string]any)["distanceField"]) // monotone needs none

	// The volume made water polygons (area 1, flag swim).
	mesh, _, err := navmesh.LoadFile(out)
	require.NoError(t, err)
	water := 0
	snapshot := mesh.Snapshot()
	for i := range snapshot.MaxTiles() {
		if tile := snapshot.Tile(i); tile != nil {
			for _, p := range tile.Polys {
				if p.Area() == 1 {
					water++
					assert.Equal(t, uint16(2), p.Flags)
				}
			}
		}
	}
	assert.Positive(t, water)

	// -tile-size wins over the file; the connection lands in the solo tile.
	report = runBakeJSON(t, "-config", config, "-tile-size", "0", "-o", out, dungeonOBJ)
	assert.Equal(t, "solo", report["mode"])
	mesh, _, err = navmesh.LoadFile(out)
	require.NoError(t, err)
	tile := mesh.Snapshot().TileAt(0, 0, 0)
	require.NotNil(t, tile)
	require.Len(t, tile.Data.OffMeshConnections, 1)
	c := tile.Data.OffMeshConnections[0]
	assert.Equal(t, uint32(7), c.UserID)
	assert.Equal(t, float32(0.6), c.Radius)
}

// TestBakeErrors checks that bad flags, settings and inputs are reported and
// write nothing.
func TestBakeErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	out := filepath.Join(dir, "never.navmesh")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-format", "obj", dungeonOBJ}, "unknown format"},
		{[]string{"-format", "dnav", "-tile-size", "32", dungeonOBJ}, "dnav"},
		{[]string{"-tile-size", "-3", dungeonOBJ}, "tile size"},
		{[]string{"-workers", "-1", dungeonOBJ}, "workers"},
		{[]string{}, "input.obj"},
		{[]string{"a.obj", "b.obj"}, "input.obj"},
		{[]string{filepath.Join(dir, "missing.obj")}, "missing.obj"},
		{[]string{"-config", write("unknown.json", `{"cellsize": 0.3}`), dungeonOBJ}, `unknown key "cellsize"`},
		{[]string{"-config", write("bad.json", `{"cellSize": -1}`), dungeonOBJ}, "CellSize"},
		{[]string{"-config", write("part.json", `{"partition": "voronoi"}`), dungeonOBJ}, "voronoi"},
		{[]string{"-config", write("trail.json", `{} {}`), dungeonOBJ}, "after the settings"},
		{[]string{"-config", write("vol.json", `{"convexVolumes": [{"points": [[0,0,0]], "area": 1}]}`), dungeonOBJ}, "convexVolumes[0]"},
		{[]string{"-config", write("off.json", `{"offMeshConnections": [{"radius": -1}]}`), dungeonOBJ}, "offMeshConnections[0]"},
		{[]string{"-config", write("nested.json", `{"offMeshConnections": [{"radius": 1, "speed": 2}]}`), dungeonOBJ}, "unknown field"},
		{[]string{"-config", filepath.Join(dir, "none.json"), dungeonOBJ}, "none.json"},
		{[]string{"-tilecache", "-auto-links", dungeonOBJ}, "PlaceLinks"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		args := append([]string{"bake", "-o", out}, tt.args...)
		err := run(args, &stdout, &stderr)
		require.Error(t, err, tt.args)
		assert.ErrorContains(t, err, tt.want, tt.args)
		assert.NoFileExists(t, out)
	}
}

// TestBakeTextSummary checks the human-readable summary.
func TestBakeTextSummary(t *testing.T) {
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "d.navmesh")
	require.NoError(t, run([]string{"bake", "-o", out, dungeonOBJ}, &stdout, &stderr))
	text := stdout.String()
	for _, want := range []string{
		"5101 vertices, 10133 triangles", "solo, 248 x 330 cells", "52106 heightfield, 23569 compact, 17500 walkable",
		"118 polygons, 223 vertices (hash b610cb7db5148d78)", "19064 bytes (hash 9acbed5cd350892d)", "stages (ms):", "wrote:",
	} {
		assert.True(t, strings.Contains(text, want), "missing %q in\n%s", want, text)
	}
}

// TestBakeAutoLinks bakes nav_test with -auto-links, solo and tiled: the
// report counts the drops and jumps, the link stage is timed, and navtool
// info counts the links among the file's off-mesh connections. A settings
// file tunes them ("links" keys) and can turn a kind off, or on without
// the flag.
func TestBakeAutoLinks(t *testing.T) {
	const navTest = "../../testdata/nav_test.obj"
	dir := t.TempDir()
	for _, c := range []struct {
		name         string
		args         []string
		drops, jumps float64
	}{
		{"solo", nil, 13, 1},
		{"tiled", []string{"-tile-size", "32"}, 24, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+".navmesh")
			report := runBakeJSON(t, append(c.args, "-auto-links", "-o", out, navTest)...)
			assert.Equal(t, c.drops, report["dropLinks"])
			assert.Equal(t, c.jumps, report["jumpLinks"])
			assert.Positive(t, report["stagesMs"].(map[string]any)["links"])

			var stdout, stderr bytes.Buffer
			require.NoError(t, run([]string{"info", "-json", out}, &stdout, &stderr))
			var info map[string]any
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &info))
			assert.Equal(t, c.drops+c.jumps, info["offMeshConnections"])
		})
	}

	without := runBakeJSON(t, navTest)
	assert.Equal(t, 0.0, without["dropLinks"])
	assert.Equal(t, 0.0, without["stagesMs"].(map[string]any)["links"])

	config := func(text string) string {
		path := filepath.Join(dir, "links.json")
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return path
	}
	dropsOnly := runBakeJSON(t, "-auto-links", "-config", config(`{"links": {"jumps": false}}`), navTest)
	assert.Equal(t, 13.0, dropsOnly["dropLinks"])
	assert.Equal(t, 0.0, dropsOnly["jumpLinks"])
	fileOnly := runBakeJSON(t, "-config", config(`{"links": {"drops": true, "dropMaxHeight": 30, "dropMaxOut": 3}}`), navTest)
	assert.Greater(t, fileOnly["dropLinks"], 13.0, "deeper drops")

	for _, bad := range []string{
		`{"links": {"jumpHeight": -1}}`,
		`{"links": {"spacing": 0.01}}`,
		`{"links": {"jumpGap": 2}}`,
		`{"links": 3}`,
	} {
		var stdout, stderr bytes.Buffer
		err := run([]string{"bake", "-auto-links", "-config", config(bad), navTest}, &stdout, &stderr)
		assert.Error(t, err, bad)
	}
}
