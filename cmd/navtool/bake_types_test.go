package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// soldierAndOgre is an -agent-types file: the defaults and a large agent
// with a region override.
const soldierAndOgre = `[
	{"name": "soldier"},
	{"name": "ogre", "radius": 1.5, "height": 3, "climb": 0.6, "slope": 40, "regionMinSize": 10}
]`

func TestParseAgentTypes(t *testing.T) {
	base := defaultBakeSettings()
	types, err := parseAgentTypes([]byte(soldierAndOgre), base)
	require.NoError(t, err)
	require.Len(t, types, 2)
	assert.Equal(t, bake.AgentType{Name: "soldier", Settings: base}, types[0])
	ogre := base
	ogre.AgentRadius, ogre.AgentHeight, ogre.AgentMaxClimb, ogre.AgentMaxSlope = 1.5, 3, 0.6, 40
	ogre.RegionMinSize = 10
	assert.Equal(t, bake.AgentType{Name: "ogre", Settings: ogre}, types[1])

	// A type may turn links on, or take another tile size.
	types, err = parseAgentTypes([]byte(`[{"name": "jumper", "links": {"jumps": true}, "tileSize": 48}]`), base)
	require.NoError(t, err)
	assert.True(t, types[0].Settings.Links.Jumps)
	assert.Equal(t, 48, types[0].Settings.TileSize)

	tests := []struct {
		file string
		want string
	}{
		{`{"name": "a"}`, "want a JSON array"},
		{`[]`, "no agent types"},
		{`[{"name": "a"}] []`, "data after"},
		{`[{"radius": 1}]`, `type 0: no "name"`},
		{`[{"name": 3}]`, "type 0"},
		{`[{"name": "a"}, {"name": "a"}]`, `name "a" already used`},
		{`[{"name": "a"}, {"name": ""}]`, "empty name"},
		{`[{"name": "a", "agentRadius": 1}]`, `type 0 ("a"): key "agentRadius": write "radius"`},
		{`[{"name": "a", "convexVolumes": []}]`, "belong in -config"},
		{`[{"name": "a", "offMeshConnections": []}]`, "belong in -config"},
		{`[{"name": "a", "Radius": 1}]`, `unknown key "Radius"`},
		{`[{"name": "a", "speed": 1}]`, `unknown key "speed"`},
		{`[{"name": "a"}, {"name": "b", "radius": -1}]`, `type 1 ("b"): bake: settings: AgentRadius -1`},
		{`[{"name": "a", "radius": "wide"}]`, "type 0"},
	}
	for _, tt := range tests {
		_, err := parseAgentTypes([]byte(tt.file), base)
		require.Error(t, err, tt.file)
		assert.ErrorContains(t, err, tt.want, tt.file)
	}
}

// writeFile writes content to name in dir and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// TestBakeAgentTypes bakes the soldier and the ogre in one call, solo and
// tiled: each type's summary and mesh are those of a bake of its settings
// alone, and the file holds both meshes by name.
func TestBakeAgentTypes(t *testing.T) {
	dir := t.TempDir()
	typesFile := writeFile(t, dir, "types.json", soldierAndOgre)
	ogreConfig := writeFile(t, dir, "ogre.json", `{"agentRadius": 1.5, "agentHeight": 3, "agentMaxClimb": 0.6, "agentMaxSlope": 40, "regionMinSize": 10}`)
	for _, mode := range []struct {
		name string
		args []string
	}{{"solo", nil}, {"tiled", []string{"-tile-size", "32"}}} {
		t.Run(mode.name, func(t *testing.T) {
			out := filepath.Join(dir, mode.name+".navmesh")
			report := runBakeJSON(t, append(append([]string{"-agent-types", typesFile, "-o", out}, mode.args...), dungeonOBJ)...)
			assert.Equal(t, mode.name, report["mode"])
			types := report["types"].([]any)
			require.Len(t, types, 2)
			if mode.name == "solo" {
				assert.Equal(t, 2.0, report["bakes"])
			}

			set, format, err := navmesh.LoadSetFile(out)
			require.NoError(t, err)
			assert.Equal(t, navmesh.FormatArchenav, format)
			require.Equal(t, []string{"soldier", "ogre"}, set.Names())

			// Each type against its own bake.
			for i, config := range []string{"", ogreConfig} {
				single := filepath.Join(dir, mode.name+"_single.navmesh")
				args := append([]string{"-o", single}, mode.args...)
				if config != "" {
					args = append(args, "-config", config)
				}
				alone := runBakeJSON(t, append(args, dungeonOBJ)...)
				got := types[i].(map[string]any)
				assert.Equal(t, set[i].Name, got["name"])
				for _, key := range []string{"polyMeshHash", "detailMeshHash", "tileHash", "polys", "walkableSpans", "tiles"} {
					assert.Equal(t, alone[key], got[key], "%s %s", set[i].Name, key)
				}
				want, err := os.ReadFile(single)
				require.NoError(t, err)
				var saved bytes.Buffer
				require.NoError(t, navmesh.Save(&saved, set[i].Mesh))
				assert.Equal(t, want, saved.Bytes(), "%s: the mesh of its own bake", set[i].Name)
			}
			if mode.name == "solo" {
				soldier := types[0].(map[string]any)
				assert.Equal(t, "9acbed5cd350892d", soldier["tileHash"], "the C++ solo tile")
			}
		})
	}
}

func TestBakeAgentTypesTileCache(t *testing.T) {
	dir := t.TempDir()
	typesFile := writeFile(t, dir, "types.json", `[{"name": "soldier"}, {"name": "tall", "height": 3}]`)
	out := filepath.Join(dir, "types.tilecache")
	report := runBakeJSON(t, "-agent-types", typesFile, "-tilecache", "-o", out, dungeonOBJ)
	assert.Equal(t, "tilecache", report["mode"])
	types := report["types"].([]any)
	assert.Equal(t, "9750808d4fa04934", types[0].(map[string]any)["layerHash"], "the C++ sample's layers")
	assert.Equal(t, report["bakes"], 2*report["rasterizations"].(float64), "the two types share every rasterization")

	file, err := os.ReadFile(out)
	require.NoError(t, err)
	caches, _, err := tilecache.LoadSet(file, tilecache.Options{})
	require.NoError(t, err)
	require.Len(t, caches, 2)
	assert.Equal(t, "tall", caches[1].Name)
	assert.Equal(t, float32(3), caches[1].Cache.Params().WalkableHeight)

	single := filepath.Join(dir, "soldier.tilecache")
	runBakeJSON(t, "-tilecache", "-o", single, dungeonOBJ)
	want, err := os.ReadFile(single)
	require.NoError(t, err)
	var saved bytes.Buffer
	require.NoError(t, caches[0].Cache.Save(&saved))
	assert.Equal(t, want, saved.Bytes(), "the soldier's cache is its own bake's")
}

func TestBakeAgentTypesErrors(t *testing.T) {
	dir := t.TempDir()
	typesFile := writeFile(t, dir, "types.json", soldierAndOgre)
	mixed := writeFile(t, dir, "mixed.json", `[{"name": "a"}, {"name": "b", "tileSize": 32}]`)
	out := filepath.Join(dir, "never.navmesh")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-agent-types", typesFile, "-format", "dnav"}, "format dnav holds one mesh"},
		{[]string{"-agent-types", typesFile, "-format", "mset", "-tile-size", "32"}, "format mset holds one mesh"},
		{[]string{"-agent-types", mixed}, `"a" and "b": one is solo`},
		{[]string{"-agent-types", typesFile, "-tiles", "0:1,0:1"}, "-tiles needs a tiled bake"},
		{[]string{"-agent-types", filepath.Join(dir, "none.json")}, "none.json"},
		{[]string{"-agent-types", writeFile(t, dir, "bad.json", `[{"name": "x", "cellSize": 0}]`)}, `type 0 ("x")`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(append(append([]string{"bake", "-o", out}, tt.args...), dungeonOBJ), &stdout, &stderr)
		require.Error(t, err, tt.args)
		assert.ErrorContains(t, err, tt.want, tt.args)
		assert.NoFileExists(t, out)
	}
	// With -tile-size the mixed types all bake tiled.
	report := runBakeJSON(t, "-agent-types", mixed, "-tile-size", "32", dungeonOBJ)
	assert.Equal(t, "tiled", report["mode"])
}

func TestBakeAgentTypesTextSummary(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "types.navmesh")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"bake", "-agent-types", writeFile(t, dir, "types.json", soldierAndOgre), "-o", out, dungeonOBJ}, &stdout, &stderr))
	text := stdout.String()
	for _, want := range []string{
		"agent types:  soldier, ogre (solo; 2 bakes, 2 rasterizations, 2 compactions",
		`type "soldier":`, "  poly mesh:    118 polygons, 223 vertices (hash b610cb7db5148d78)",
		`type "ogre":`, "wrote:        " + out + " (own, ",
	} {
		assert.Contains(t, text, want)
	}

	// navtool info lists the types, and each type's mesh on its own.
	stdout.Reset()
	require.NoError(t, run([]string{"info", out}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), `format:  archenav, 2 agent types: "soldier", "ogre"`)
	assert.Contains(t, stdout.String(), `type "ogre":`)
	stdout.Reset()
	require.NoError(t, run([]string{"info", "-json", out}, &stdout, &stderr))
	var set map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &set))
	assert.Equal(t, []any{"soldier", "ogre"}, set["types"])
	meshes := set["meshes"].([]any)
	require.Len(t, meshes, 2)
	assert.Equal(t, "soldier", meshes[0].(map[string]any)["name"])
	assert.Equal(t, 118.0, meshes[0].(map[string]any)["polys"])
	stdout.Reset()
	require.NoError(t, run([]string{"info", "-json", "-type", "ogre", out}, &stdout, &stderr))
	var ogre map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &ogre))
	assert.Equal(t, meshes[1].(map[string]any)["polys"], ogre["polys"])
	assert.NotContains(t, ogre, "name")
	err := run([]string{"info", "-type", "cart", out}, &stdout, &stderr)
	assert.ErrorContains(t, err, `no mesh of agent type "cart" (it has "soldier", "ogre")`)
}
