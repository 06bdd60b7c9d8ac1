package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

// FuzzParseBakeSettings feeds arbitrary bytes to the settings parser: it
// must not panic, a settings file it accepts must validate, and a file it
// refuses must leave the geometry as it was.
func FuzzParseBakeSettings(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"cellSize": 0.3, "cellHeight": 0.2, "agentHeight": 2, "agentRadius": 0.6, "agentMaxClimb": 0.9, "agentMaxSlope": 45}`,
		`{"partition": "layers", "tileSize": 48, "vertsPerPoly": 3, "filterLedgeSpans": false}`,
		`{"convexVolumes": [{"points": [[0, 0, 0], [1, 0, 0], [1, 0, 1]], "minY": 0, "maxY": 1, "area": 3}]}`,
		`{"offMeshConnections": [{"start": [0, 0, 0], "end": [1, 0, 1], "radius": 0.5, "bidirectional": true, "area": 5, "flags": 8, "userId": 1}]}`,
		`{"links": {"drops": true, "jumps": true, "dropMaxHeight": 3.2, "jumpMaxGap": 2, "jumpHeight": 0.4, "spacing": 2, "jumpArea": 5, "dropFlags": 32}}`,
		`{"links": {"jumps": true, "jumpMaxGap": 1e30}}`,
		`{"cellSize": -1}`,
		`{"detailSampleDist": 1e39}`,
		`[1, 2]`,
		`{"tileSize": 1} {}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		g := &bake.Geometry{}
		settings, err := parseBakeSettings(file, g, defaultBakeSettings())
		if err != nil {
			require.Empty(t, g.ConvexVolumes)
			require.Empty(t, g.OffMeshConnections)
			return
		}
		require.NoError(t, settings.Validate())
		for i := range g.ConvexVolumes {
			require.NoError(t, g.ConvexVolumes[i].Validate())
		}
		for i := range g.OffMeshConnections {
			require.NoError(t, g.OffMeshConnections[i].Validate())
		}
	})
}

// FuzzParseAgentTypes feeds arbitrary bytes to the -agent-types parser: it
// must not panic, and types it accepts must have settings that validate and
// names a mesh set takes.
func FuzzParseAgentTypes(f *testing.F) {
	for _, seed := range []string{
		soldierAndOgre,
		`[{"name": "a"}]`,
		`[{"name": "jumper", "links": {"jumps": true}, "tileSize": 48}, {"name": "é", "slope": 30}]`,
		`[{"name": "a", "agentRadius": 1}]`,
		`[{"name": "a"}, {"name": "a"}]`,
		`[{"name": "a", "radius": -1}]`,
		`[]`,
		`{"name": "a"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		types, err := parseAgentTypes(file, defaultBakeSettings())
		if err != nil {
			require.Nil(t, types)
			return
		}
		names := make([]string, len(types))
		for i := range types {
			require.NoError(t, types[i].Settings.Validate())
			names[i] = types[i].Name
		}
		require.NoError(t, navmesh.ValidateMeshNames(names))
	})
}
