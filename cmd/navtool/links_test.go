package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueryLinksCompletePartialPairs: the reference pairs whose paths were
// partial on the dungeon become complete, with A* and with the
// hierarchical search, once a link joins each pair's start to its end.
func TestQueryLinksCompletePartialPairs(t *testing.T) {
	dir := t.TempDir()
	rows := readCSV(t, "../../testdata/query_dungeon.csv")
	c := columns(rows[0])
	var pairs, links strings.Builder
	pairs.WriteString("sx,sy,sz,ex,ey,ez\n")
	links.WriteString("sx,sy,sz,ex,ey,ez,radius,bidirectional\n")
	n := 0
	for _, row := range rows[1:] {
		if row[c["path_partial"]] != "1" || row[c["start_found"]] != "1" || row[c["end_found"]] != "1" || n == 20 {
			continue
		}
		ends := strings.Join([]string{row[c["sx"]], row[c["sy"]], row[c["sz"]], row[c["ex"]], row[c["ey"]], row[c["ez"]]}, ",")
		pairs.WriteString(ends + "\n")
		fmt.Fprintf(&links, "%s,1,%d\n", ends, n%2)
		n++
	}
	require.Equal(t, 20, n)
	pairsPath, linksPath := filepath.Join(dir, "pairs.csv"), filepath.Join(dir, "links.csv")
	require.NoError(t, os.WriteFile(pairsPath, []byte(pairs.String()), 0o644))
	require.NoError(t, os.WriteFile(linksPath, []byte(links.String()), 0o644))

	partials := func(args ...string) int {
		var stdout bytes.Buffer
		err := run(append([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin", "-pairs", pairsPath}, args...), &stdout, &bytes.Buffer{})
		require.NoError(t, err)
		out, err := csv.NewReader(&stdout).ReadAll()
		require.NoError(t, err)
		require.Len(t, out, n+1)
		count := 0
		for _, row := range out[1:] {
			if row[columns(out[0])["partial"]] == "1" {
				count++
			}
		}
		return count
	}
	assert.Equal(t, n, partials(), "without links")
	assert.Zero(t, partials("-links", linksPath), "with links")
	assert.Zero(t, partials("-links", linksPath, "-hierarchical"), "with links, hierarchical")
}

func TestReadLinks(t *testing.T) {
	links, err := readLinks(strings.NewReader(
		"radius,bidirectional,sx,sy,sz,ex,ey,ez,cost,width,flags,area\n" +
			"0.5,1,1,2,3,4,5,6,,,,\n" +
			"1,false,0,0,0,1,1,1,0.25,2,0x3,7\n"))
	require.NoError(t, err)
	assert.Equal(t, []navmesh.LinkDesc{
		{Start: mgl32.Vec3{1, 2, 3}, End: mgl32.Vec3{4, 5, 6}, Radius: 0.5, Bidirectional: true, Flags: 1},
		{Start: mgl32.Vec3{0, 0, 0}, End: mgl32.Vec3{1, 1, 1}, Radius: 1, Cost: 0.25, Width: 2, Flags: 3, Area: 7},
	}, links)

	for name, tc := range map[string]struct{ file, want string }{
		"no radius column":  {"sx,sy,sz,ex,ey,ez,bidirectional\n", `no "radius" column`},
		"short row":         {"sx,sy,sz,ex,ey,ez,radius,bidirectional\n1,2,3\n", "line 2: no ex value"},
		"bad number":        {"sx,sy,sz,ex,ey,ez,radius,bidirectional\n1,2,3,4,5,x,1,1\n", "line 2: ez"},
		"bad bool":          {"sx,sy,sz,ex,ey,ez,radius,bidirectional\n1,2,3,4,5,6,1,yes\n", `bidirectional "yes"`},
		"area beyond uint8": {"sx,sy,sz,ex,ey,ez,radius,bidirectional,area\n1,2,3,4,5,6,1,1,300\n", "area"},
		"empty":             {"", "read header"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := readLinks(strings.NewReader(tc.file))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// TestQueryLinksRefused: a link the navmesh refuses names its line.
func TestQueryLinksRefused(t *testing.T) {
	dir := t.TempDir()
	linksPath := filepath.Join(dir, "links.csv")
	require.NoError(t, os.WriteFile(linksPath, []byte("sx,sy,sz,ex,ey,ez,radius,bidirectional,area\n0,0,0,1,1,1,1,1,64\n"), 0o644))
	err := run([]string{"query", "-navmesh", "../../testdata/navmesh_solo_dungeon.bin", "-pairs", "../../testdata/query_dungeon.csv", "-links", linksPath}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.ErrorIs(t, err, navmesh.ErrInvalidLink)
	assert.ErrorContains(t, err, "line 2")
}

// TestCrowdLinksBringTargetsInReach: agents sent between the dungeon's
// disconnected parts are out of reach; with a link from each start to its
// target they are not, and they get there across the links.
func TestCrowdLinksBringTargetsInReach(t *testing.T) {
	dir := t.TempDir()
	rows := readCSV(t, "../../testdata/query_dungeon.csv")
	c := columns(rows[0])
	var scenario, links strings.Builder
	scenario.WriteString("sx,sy,sz,tx,ty,tz\n")
	links.WriteString("sx,sy,sz,ex,ey,ez,radius,bidirectional\n")
	n := 0
	for _, row := range rows[1:] {
		if row[c["path_partial"]] != "1" || row[c["start_found"]] != "1" || row[c["end_found"]] != "1" || n == 10 {
			continue
		}
		ends := strings.Join([]string{row[c["sx"]], row[c["sy"]], row[c["sz"]], row[c["ex"]], row[c["ey"]], row[c["ez"]]}, ",")
		scenario.WriteString(ends + "\n")
		links.WriteString(ends + ",1,1\n")
		n++
	}
	scenarioPath, linksPath := filepath.Join(dir, "agents.csv"), filepath.Join(dir, "links.csv")
	require.NoError(t, os.WriteFile(scenarioPath, []byte(scenario.String()), 0o644))
	require.NoError(t, os.WriteFile(linksPath, []byte(links.String()), 0o644))
	report := func(args ...string) crowdReport {
		var stdout bytes.Buffer
		require.NoError(t, run(append([]string{"crowd", "-navmesh", crowdTestMesh, "-scenario", scenarioPath, "-ticks", "900", "-json"}, args...), &stdout, &bytes.Buffer{}))
		var r crowdReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
		return r
	}
	without, with := report(), report("-links", linksPath)
	t.Logf("without links: %d out of reach, %d reached; with: %d out of reach, %d reached", without.OutOfReach, without.Reached, with.OutOfReach, with.Reached)
	assert.Equal(t, n, without.OutOfReach)
	assert.Zero(t, with.OutOfReach)
	assert.Greater(t, with.Reached, without.Reached)
	assert.Zero(t, with.OffMeshViolations)
}

// TestInfoCountsSavedLinks: navtool info on a mesh file saved with a
// runtime link counts the link apart from the tiles.
func TestInfoCountsSavedLinks(t *testing.T) {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	_, err = mesh.AddLink(navmesh.LinkDesc{Start: mgl32.Vec3{-9.17, 10.2, -20.34}, End: mgl32.Vec3{23.73, 15.1, -73.57}, Radius: 1, Flags: 1})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "linked.nav")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, navmesh.Save(f, mesh))
	require.NoError(t, f.Close())
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"info", path}, &stdout, &bytes.Buffer{}))
	assert.Contains(t, stdout.String(), "links:   1 runtime links\ntiles:   1\n")
}
