package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCrowdCommandPathFlags runs the dungeon crowd with the path planning
// flags: the report says whether the hierarchy planned, and gives the
// waits for a first path, which a tiny fixed node pool does not lengthen
// (the quick search plans the near targets, the queue the others,
// partially) and which fit in the run.
func TestCrowdCommandPathFlags(t *testing.T) {
	base := []string{"crowd", "-navmesh", crowdTestMesh, "-agents", "40", "-seed", "4", "-ticks", "300", "-json"}
	for _, tc := range []struct {
		name         string
		args         []string
		hierarchical bool
	}{
		{"defaults", nil, false},
		{"hierarchical", []string{"-hierarchical"}, true},
		{"not hierarchical", []string{"-hierarchical=false"}, false},
		{"small pool", []string{"-nodes", "16"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout bytes.Buffer
			require.NoError(t, run(append(append([]string{}, base...), tc.args...), &stdout, &bytes.Buffer{}))
			var raw map[string]any
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &raw))
			for _, key := range []string{"pathWaitP99S", "pathWaitMaxS", "hierarchical", "waitingForPath"} {
				assert.Contains(t, raw, key)
			}
			var r crowdReport
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
			assert.Equal(t, tc.hierarchical, r.Hierarchical)
			assert.Zero(t, r.WaitingForPath)
			assert.Positive(t, r.PathWaitMaxS, "some targets need the queue")
			assert.LessOrEqual(t, r.PathWaitP99S, r.PathWaitMaxS)
			assert.Less(t, r.PathWaitMaxS, 300.0/60)
		})
	}
}

func TestCrowdCommandPathFlagsBadInput(t *testing.T) {
	for name, args := range map[string][]string{
		"negative nodes":     {"-navmesh", crowdTestMesh, "-agents", "3", "-nodes", "-1"},
		"too many nodes":     {"-navmesh", crowdTestMesh, "-agents", "3", "-nodes", "100000000"},
		"hierarchical maybe": {"-navmesh", crowdTestMesh, "-agents", "3", "-hierarchical=maybe"},
	} {
		err := run(append([]string{"crowd"}, args...), &bytes.Buffer{}, &bytes.Buffer{})
		require.Error(t, err, name)
		assert.True(t, strings.HasPrefix(err.Error(), "crowd: "), name)
	}
}
