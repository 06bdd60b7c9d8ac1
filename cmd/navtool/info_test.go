package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

const dungeonTile = "../../testdata/navmesh_solo_dungeon.bin"

// innerEdges counts the polygon edges with a neighbour inside the tile:
// each becomes one link when the tile is added.
func innerEdges(t *testing.T, path string) int {
	t.Helper()
	blob, err := os.ReadFile(path)
	require.NoError(t, err)
	data, err := navmesh.ReadDNAV(blob)
	require.NoError(t, err)
	count := 0
	for _, p := range data.Polys {
		for j := 0; j < int(p.VertCount); j++ {
			if n := p.Neighbours[j]; n != 0 && n&navmesh.ExternalLink == 0 {
				count++
			}
		}
	}
	return count
}

func TestInfoJSONOnDungeonTile(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"info", "-json", dungeonTile}, &stdout, &stderr))
	assert.Empty(t, stderr.String())

	var report map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
	for _, key := range []string{"format", "tiles", "polys", "verts", "detailVerts", "detailTris", "offMeshConnections", "bounds", "links", "params", "perTile"} {
		assert.Contains(t, report, key)
	}
	assert.Equal(t, "DNAV", report["format"])
	assert.Equal(t, 1.0, report["tiles"])
	assert.Equal(t, 118.0, report["polys"])
	assert.Equal(t, 223.0, report["verts"])
	assert.Equal(t, 60.0, report["detailVerts"])
	assert.Equal(t, 291.0, report["detailTris"])
	assert.Equal(t, 0.0, report["offMeshConnections"])
	assert.Equal(t, 453.0, report["maxLinks"])
	assert.Equal(t, 236.0, report["bvNodes"])
	assert.Equal(t, float64(innerEdges(t, dungeonTile)), report["links"])

	bounds := report["bounds"].(map[string]any)
	assert.Equal(t, []any{-25.015217, -0.002705861, -90.041275}, bounds["min"])
	assert.Equal(t, []any{49.305145, 42.176586, 8.8912}, bounds["max"])

	params := report["params"].(map[string]any)
	assert.Equal(t, bounds["min"], params["origin"])
	assert.Equal(t, 1.0, params["maxTiles"])
	assert.Equal(t, 118.0, params["maxPolys"])

	perTile := report["perTile"].([]any)
	require.Len(t, perTile, 1)
	tile := perTile[0].(map[string]any)
	assert.Equal(t, 118.0, tile["polys"])
	assert.Equal(t, 0.0, tile["slot"])
	assert.Equal(t, report["links"], tile["links"])
}

func TestInfoTextOnDungeonTile(t *testing.T) {
	var stdout bytes.Buffer
	require.NoError(t, runInfo([]string{dungeonTile}, &stdout))
	out := stdout.String()
	assert.Contains(t, out, "format:  DNAV\n")
	assert.Contains(t, out, "params:  origin (-25.015, -0.003, -90.041), tile size 74.320 x 98.932, max tiles 1, max polys 118\n")
	assert.Contains(t, out, "bounds:  (-25.015, -0.003, -90.041) .. (49.305, 42.177, 8.891)\n")
	assert.Contains(t, out, "tiles:   1\n")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	total := strings.Fields(lines[len(lines)-1])
	assert.Equal(t, []string{"total", "118", "223", strconv.Itoa(innerEdges(t, dungeonTile)), "453", "60", "291", "0", "236"}, total)
}

func TestInfoOnTileSetAndOwnFormat(t *testing.T) {
	// Two copies of the dungeon tile side by side, saved as MSET and as an
	// archenav file.
	blob, err := os.ReadFile(dungeonTile)
	require.NoError(t, err)
	first, err := navmesh.ReadDNAV(blob)
	require.NoError(t, err)
	second, err := navmesh.ReadDNAV(blob)
	require.NoError(t, err)
	second.Header.X = 1
	width := first.Header.BMax[0] - first.Header.BMin[0]
	second.Header.BMin[0] += width
	second.Header.BMax[0] += width
	for i := range second.Verts {
		second.Verts[i][0] += width
	}
	for i := range second.DetailVerts {
		second.DetailVerts[i][0] += width
	}
	mesh, err := navmesh.New(navmesh.Params{Origin: first.Header.BMin, TileWidth: width, TileHeight: 100, MaxTiles: 4, MaxPolys: 128})
	require.NoError(t, err)
	_, err = mesh.AddTile(first, 0)
	require.NoError(t, err)
	_, err = mesh.AddTile(second, navmesh.EncodeRef(5, 3, 0))
	require.NoError(t, err)

	dir := t.TempDir()
	var own, mset bytes.Buffer
	require.NoError(t, navmesh.Save(&own, mesh))
	require.NoError(t, navmesh.WriteMSET(&mset, navmesh.TileSetFromMesh(mesh)))
	files := map[string][]byte{"mesh.anav": own.Bytes(), "all_tiles_navmesh.bin": mset.Bytes()}
	formats := map[string]string{"mesh.anav": "archenav", "all_tiles_navmesh.bin": "MSET"}
	for name, content := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			require.NoError(t, os.WriteFile(path, content, 0o644))
			var stdout bytes.Buffer
			require.NoError(t, runInfo([]string{"-json", path}, &stdout))
			var report infoReport
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
			assert.Equal(t, formats[name], report.Format)
			assert.Equal(t, 2, report.Tiles)
			assert.Equal(t, 236, report.Polys)
			assert.Equal(t, 446, report.Verts)
			assert.Equal(t, 582, report.DetailTris)
			require.Len(t, report.PerTile, 2)
			assert.Equal(t, []int{0, 3}, []int{report.PerTile[0].Slot, report.PerTile[1].Slot})
			assert.Equal(t, uint32(5), report.PerTile[1].Salt)
			assert.Equal(t, int32(1), report.PerTile[1].X)
			assert.Equal(t, report.PerTile[0].Bounds.Min, report.Bounds.Min)
			assert.Equal(t, report.PerTile[1].Bounds.Max, report.Bounds.Max)
			assert.GreaterOrEqual(t, report.Links, 2*innerEdges(t, dungeonTile))
		})
	}
}

func TestInfoErrors(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "level.obj")
	require.NoError(t, os.WriteFile(obj, []byte("v 0 0 0\n"), 0o644))
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no file", []string{"info"}, "want exactly one FILE"},
		{"two files", []string{"info", "a", "b"}, "want exactly one FILE"},
		{"missing file", []string{"info", filepath.Join(dir, "missing.bin")}, "no such file"},
		{"not a navmesh", []string{"info", obj}, "unknown navmesh file format"},
		{"bad flag", []string{"info", "-xml", obj}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(tt.args, &stdout, &stderr)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.True(t, strings.HasPrefix(err.Error(), "info: "), err.Error())
		})
	}
	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"info", "-h"}, &stdout, &stderr), "help is not an error")
	assert.Contains(t, stdout.String(), "usage: navtool info [-json] [-type NAME] FILE")
}
