package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bakeSoldierAndOgre bakes the dungeon for the soldier (radius 0.6) and
// the ogre (1.5) into one mesh set file and returns its path.
func bakeSoldierAndOgre(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "types.navmesh")
	runBakeJSON(t, "-agent-types", writeFile(t, dir, "types.json", soldierAndOgre), "-o", out, dungeonOBJ)
	return out
}

// crowdTypesJSON runs navtool crowd with args and decodes its JSON.
func crowdTypesJSON(t *testing.T, args ...string) crowdReport {
	t.Helper()
	var stdout bytes.Buffer
	require.NoError(t, run(append([]string{"crowd", "-json"}, args...), &stdout, &bytes.Buffer{}))
	var report crowdReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
	return report
}

func TestCrowdCommandAgentTypes(t *testing.T) {
	set := bakeSoldierAndOgre(t)
	report := crowdTypesJSON(t, "-navmesh", "soldier="+set, "-navmesh", "ogre="+set,
		"-agents", "soldier=24", "-agents", "ogre=8", "-seed", "3", "-ticks", "300", "-workers", "2")
	assert.Equal(t, 32, report.Agents)
	require.Len(t, report.PerType, 2)
	soldier, ogre := report.PerType["soldier"], report.PerType["ogre"]
	require.NotNil(t, soldier)
	require.NotNil(t, ogre)
	assert.Equal(t, 24, soldier.Agents)
	assert.Equal(t, 8, ogre.Agents)
	for name, r := range report.PerType {
		assert.Zero(t, r.OffMeshViolations, "%s: off its own mesh", name)
		assert.Zero(t, r.WallPenetrations, "%s: through a wall", name)
	}
	assert.Equal(t, soldier.OffMeshViolations+ogre.OffMeshViolations, report.OffMeshViolations)
	assert.Equal(t, soldier.Reached+ogre.Reached, report.Reached)
	assert.Equal(t, soldier.OverlapAgentTicks+ogre.OverlapAgentTicks, report.OverlapAgentTicks)
	assert.Positive(t, soldier.Reached)

	// The same trips from a scenario with a type column give the same run.
	dir := t.TempDir()
	scenario := filepath.Join(dir, "trips.csv")
	again := crowdTypesJSON(t, "-navmesh", "soldier="+set, "-navmesh", "ogre="+set,
		"-agents", "soldier=24", "-agents", "ogre=8", "-seed", "3", "-ticks", "300", "-write-scenario", scenario)
	csv, err := os.ReadFile(scenario)
	require.NoError(t, err)
	assert.Contains(t, string(csv), "type,sx,sy,sz,tx,ty,tz\nsoldier,")
	fromFile := crowdTypesJSON(t, "-navmesh", "soldier="+set, "-navmesh", "ogre="+set, "-scenario", scenario, "-ticks", "300")
	assert.Equal(t, again.PerType, fromFile.PerType)
	assert.Equal(t, report.PerType, again.PerType, "1 and 2 workers")
}

func TestCrowdCommandAgentTypesErrors(t *testing.T) {
	set := bakeSoldierAndOgre(t)
	dir := t.TempDir()
	untyped := writeFile(t, dir, "untyped.csv", "sx,sy,sz,tx,ty,tz\n0,0,0,1,0,1\n")
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no such mesh in the set", []string{"-navmesh", "troll=" + set, "-agents", "troll=3"}, `none called "troll"`},
		{"agents of an unknown type", []string{"-navmesh", "soldier=" + set, "-agents", "ogre=3"}, "no -navmesh ogre=FILE"},
		{"mixed forms", []string{"-navmesh", crowdTestMesh, "-navmesh", "ogre=" + set, "-agents", "ogre=3"}, "not both"},
		{"plain count with types", []string{"-navmesh", "ogre=" + set, "-agents", "3"}, "NAME=N"},
		{"typed agents without types", []string{"-navmesh", crowdTestMesh, "-agents", "ogre=3"}, "needs -navmesh NAME=FILE"},
		{"bad count", []string{"-navmesh", "ogre=" + set, "-agents", "ogre=0"}, "N > 0"},
		{"twice", []string{"-navmesh", "ogre=" + set, "-navmesh", "ogre=" + set, "-agents", "ogre=1"}, "twice"},
		{"scenario without types", []string{"-navmesh", "ogre=" + set, "-scenario", untyped}, "no type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(append([]string{"crowd", "-ticks", "5"}, tt.args...), &bytes.Buffer{}, &bytes.Buffer{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
