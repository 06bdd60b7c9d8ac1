package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const crowdTestMesh = "../../testdata/navmesh_solo_dungeon.bin"

// The tile cache of dungeon and its obstacle states, from the tile cache's
// test data.
const (
	crowdTestTSET           = "../../navcore/tilecache/testdata/tc48_dungeon.tset"
	crowdTestObstacles      = "../../navcore/tilecache/testdata/tc48_dungeon_obstacles.csv"
	crowdTestMovedObstacles = "../../navcore/tilecache/testdata/tc48_dungeon_obstacles_moved.csv"
)

func TestCrowdCommandJSON(t *testing.T) {
	var stdout bytes.Buffer
	err := run([]string{"crowd", "-navmesh", crowdTestMesh, "-agents", "30", "-seed", "4", "-ticks", "240", "-workers", "2", "-json"},
		&stdout, &bytes.Buffer{})
	require.NoError(t, err)
	var report map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
	for _, key := range []string{"agents", "ticks", "msPerTick", "stageMs", "reached", "offMeshViolations",
		"wallPenetrations", "overlapAgentTicks", "stuckAgents", "allocsPerTick", "steadyAllocsPerTick", "waitingForPath", "outOfReach", "reachedReachable",
		"obstacleAgentTicks", "invalidAgents", "maxStepDistance", "obstacleMs", "targetsInObstacles",
		"avoidance", "velocityChangePerTick", "orcaInfeasiblePerTick", "arrived", "hovering", "nearNotArrived", "nearArrivedAfterEnd",
		"nearNotArrivedStill", "arrivals", "arrivalsPerMinute"} {
		assert.Contains(t, report, key)
	}
	assert.EqualValues(t, 30, report["agents"])
	assert.EqualValues(t, 240, report["ticks"])
	assert.EqualValues(t, 0, report["offMeshViolations"])
	assert.EqualValues(t, 0, report["wallPenetrations"])
	times := report["msPerTick"].(map[string]any)
	for _, key := range []string{"mean", "p50", "p99", "max"} {
		assert.Greater(t, times[key].(float64), 0.0, key)
	}
	assert.GreaterOrEqual(t, times["max"].(float64), times["p99"].(float64))
	stages := report["stageMs"].(map[string]any)
	assert.Len(t, stages, 13)
	assert.Greater(t, stages["VelocitySampling"].(float64), 0.0)
	assert.Greater(t, report["reached"].(float64), 0.0)
	assert.Equal(t, "adaptive", report["avoidance"], "the reference's method by default")
	assert.Greater(t, report["velocityChangePerTick"].(float64), 0.0)
	assert.Less(t, report["velocityChangePerTick"].(float64), 8.0/60+1e-6, "within the acceleration limit")
	assert.Zero(t, report["orcaInfeasiblePerTick"])
}

// TestCrowdCommandRetarget: without -retarget every agent arrives at most
// once and those that did count as arrived at the end; with it the same
// crowd arrives more often (agents walk on to new targets), and the
// arrivals per minute are the arrivals over the simulated time.
func TestCrowdCommandRetarget(t *testing.T) {
	args := []string{"crowd", "-navmesh", crowdTestMesh, "-agents", "30", "-seed", "6", "-ticks", "900", "-connected", "-json"}
	var once, again crowdReport
	for _, c := range []struct {
		report *crowdReport
		extra  []string
	}{{&once, nil}, {&again, []string{"-retarget"}}} {
		var stdout bytes.Buffer
		require.NoError(t, run(append(args, c.extra...), &stdout, &bytes.Buffer{}))
		require.NoError(t, json.Unmarshal(stdout.Bytes(), c.report))
	}
	assert.Equal(t, once.Arrivals, once.Arrived, "each agent arrives once and stays")
	assert.LessOrEqual(t, once.Arrived, 30)
	assert.Greater(t, again.Arrivals, once.Arrivals)
	assert.InDelta(t, float64(again.Arrivals)/(900.0/60/60), again.ArrivalsPerMinute, 1e-9)
	assert.Zero(t, again.OffMeshViolations)
	err := run([]string{"crowd", "-navmesh", "a=" + crowdTestMesh, "-agents", "a=3", "-retarget"}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "-retarget")
}

// TestCrowdCommandAvoidance runs the same crowd with each method: each is
// named in the report, and none leaves the mesh.
func TestCrowdCommandAvoidance(t *testing.T) {
	for _, method := range []string{"adaptive", "grid", "orca"} {
		var stdout bytes.Buffer
		require.NoError(t, run([]string{"crowd", "-navmesh", crowdTestMesh, "-agents", "40", "-seed", "5", "-ticks", "120",
			"-avoidance", method, "-json"}, &stdout, &bytes.Buffer{}))
		var report crowdReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
		assert.Equal(t, method, report.Avoidance)
		assert.Zero(t, report.OffMeshViolations, method)
		assert.Zero(t, report.WallPenetrations, method)
		assert.Greater(t, report.VelocityChangePerTick, 0.0, method)
	}
	err := run([]string{"crowd", "-navmesh", crowdTestMesh, "-agents", "3", "-avoidance", "rvo"}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "-avoidance")
}

// TestCrowdCommandNearGrace: one agent walking 4 m across open floor, the
// run cut at every third tick of its walk: whenever it ends within 1 m of
// its target, still braking, it arrives within the 2 s the run goes on
// (nearArrivedAfterEnd), so nearNotArrived stays 0; some cuts catch it so.
func TestCrowdCommandNearGrace(t *testing.T) {
	scenario := filepath.Join(t.TempDir(), "agent.csv")
	require.NoError(t, os.WriteFile(scenario, []byte("sx,sy,sz,tx,ty,tz\n"+
		"40.75225,10.197294,0.29230645,44.75225,10.197294,0.29230645\n"), 0o644))
	braking := 0
	for ticks := 30; ticks <= 120; ticks += 3 {
		var stdout bytes.Buffer
		require.NoError(t, run([]string{"crowd", "-navmesh", crowdTestMesh, "-scenario", scenario,
			"-ticks", strconv.Itoa(ticks), "-json"}, &stdout, &bytes.Buffer{}))
		var report crowdReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
		assert.Zero(t, report.NearNotArrived, "%d ticks", ticks)
		assert.LessOrEqual(t, report.Arrived+report.NearArrivedAfterEnd, 1, "%d ticks", ticks)
		braking += report.NearArrivedAfterEnd
	}
	assert.Greater(t, braking, 0, "some cut ends with the agent braking within 1 m")
}

func TestCrowdCommandScenario(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "agents.csv")
	// Columns in another order, an extra column ignored.
	require.NoError(t, os.WriteFile(scenario, []byte(
		"name,tx,ty,tz,sx,sy,sz\n"+
			"a,11.2181969,10.1972942,-0.930570245,-9.17410278,10.1972942,-20.340023\n"+
			"b,-9.17410278,10.1972942,-20.340023,11.2181969,10.1972942,-0.930570245\n"), 0o644))
	var stdout bytes.Buffer
	require.NoError(t, run([]string{"crowd", "-navmesh", crowdTestMesh, "-scenario", scenario, "-ticks", "900"}, &stdout, &bytes.Buffer{}))
	out := stdout.String()
	assert.Contains(t, out, "agents 2, ticks 900, workers 1")
	assert.Contains(t, out, "targets out of reach 0, reached 2 (2 of the reachable), stuck 0")
	assert.Contains(t, out, "off-mesh violations 0, wall penetrations 0")
	for _, stage := range []string{"PathRequest", "SurfaceClamp", "OffMeshAnimation"} {
		assert.Contains(t, out, stage)
	}
}

func TestCrowdCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	noColumn := write("no_tz.csv", "sx,sy,sz,tx,ty\n1,2,3,4,5\n")
	nan := write("nan.csv", "sx,sy,sz,tx,ty,tz\n1,2,NaN,4,5,6\n")
	empty := write("empty.csv", "sx,sy,sz,tx,ty,tz\n")
	offMesh := write("off.csv", "sx,sy,sz,tx,ty,tz\n1000,0,1000,0,0,0\n")
	for name, args := range map[string][]string{
		"no navmesh":         {"-agents", "3"},
		"no agents":          {"-navmesh", crowdTestMesh},
		"both":               {"-navmesh", crowdTestMesh, "-agents", "3", "-scenario", nan},
		"ticks":              {"-navmesh", crowdTestMesh, "-agents", "3", "-ticks", "0"},
		"dt":                 {"-navmesh", crowdTestMesh, "-agents", "3", "-dt", "-1"},
		"workers":            {"-navmesh", crowdTestMesh, "-agents", "3", "-workers", "0"},
		"extra argument":     {"-navmesh", crowdTestMesh, "-agents", "3", "more"},
		"missing column":     {"-navmesh", crowdTestMesh, "-scenario", noColumn},
		"NaN":                {"-navmesh", crowdTestMesh, "-scenario", nan},
		"no rows":            {"-navmesh", crowdTestMesh, "-scenario", empty},
		"off the mesh":       {"-navmesh", crowdTestMesh, "-scenario", offMesh},
		"no such mesh":       {"-navmesh", filepath.Join(dir, "nope.bin"), "-agents", "3"},
		"mesh and tset":      {"-navmesh", crowdTestMesh, "-tset", crowdTestTSET, "-agents", "3"},
		"no tset":            {"-navmesh", crowdTestMesh, "-agents", "3", "-obstacles", crowdTestObstacles, "-obstacles-at", "1"},
		"no tick":            {"-tset", crowdTestTSET, "-agents", "3", "-obstacles", crowdTestObstacles},
		"bad tick":           {"-tset", crowdTestTSET, "-agents", "3", "-obstacles", crowdTestObstacles, "-obstacles-at", "x"},
		"ticks backward":     {"-tset", crowdTestTSET, "-agents", "3", "-obstacles", crowdTestObstacles, "-obstacles-at", "9", "-obstacles", crowdTestObstacles, "-obstacles-at", "3"},
		"bad obstacles":      {"-tset", crowdTestTSET, "-agents", "3", "-obstacles", nan, "-obstacles-at", "1"},
		"no such tset":       {"-tset", filepath.Join(dir, "nope.tset"), "-agents", "3"},
		"connected scenario": {"-navmesh", crowdTestMesh, "-scenario", empty, "-connected"},
		"avoidance":          {"-navmesh", crowdTestMesh, "-agents", "3", "-avoidance", "sampling"},
	} {
		err := run(append([]string{"crowd"}, args...), &bytes.Buffer{}, &bytes.Buffer{})
		assert.Error(t, err, name)
		assert.True(t, strings.HasPrefix(err.Error(), "crowd: "), name)
	}
}

// TestCrowdCommandConnected: with -connected every target is in reach on
// nav_test's solo tile, where most of FindRandomPoint's are not.
func TestCrowdCommandConnected(t *testing.T) {
	mesh := filepath.Join(t.TempDir(), "nav_test.navmesh")
	require.NoError(t, run([]string{"bake", "-o", mesh, "../../testdata/nav_test.obj"}, &bytes.Buffer{}, &bytes.Buffer{}))
	reports := map[bool]crowdReport{}
	for _, connected := range []bool{false, true} {
		args := []string{"crowd", "-navmesh", mesh, "-agents", "100", "-seed", "3", "-ticks", "30", "-json"}
		if connected {
			args = append(args, "-connected")
		}
		var stdout bytes.Buffer
		require.NoError(t, run(args, &stdout, &bytes.Buffer{}))
		var report crowdReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
		reports[connected] = report
	}
	assert.Greater(t, reports[false].OutOfReach, 50)
	assert.Zero(t, reports[true].OutOfReach)
	assert.Zero(t, reports[true].PartialPaths)
}

func mustLoad(t *testing.T, path string) *navmesh.Mesh {
	t.Helper()
	mesh, _, err := navmesh.LoadFile(path)
	require.NoError(t, err)
	return mesh
}

func TestReadCrowdScenario(t *testing.T) {
	trips, err := readCrowdScenario(strings.NewReader("tz, ty, tx, sz, sy, sx, note\n3,2,1,6,5,4,x\n 9, 8, 7, 12, 11, 10,y\n"))
	require.NoError(t, err)
	assert.Equal(t, []crowdTrip{
		{start: geom.Vec3{4, 5, 6}, target: geom.Vec3{1, 2, 3}},
		{start: geom.Vec3{10, 11, 12}, target: geom.Vec3{7, 8, 9}},
	}, trips)
}

// TestCrowdCommandOutOfReach bakes nav_test, where most random targets are
// out of reach, and runs 400 agents (1000 in the long test, ARCHENAV_LONG=1)
// for 120 ticks: planned to the nearest reachable point, no agent waits
// for a path at the end; searched in full, as the reference does, many
// still do.
func TestCrowdCommandOutOfReach(t *testing.T) {
	mesh := filepath.Join(t.TempDir(), "nav_test.navmesh")
	require.NoError(t, run([]string{"bake", "-o", mesh, "../../testdata/nav_test.obj"}, &bytes.Buffer{}, &bytes.Buffer{}))
	for _, c := range []struct {
		agents, minWaiting int
		long               bool
	}{{400, 10, false}, {1000, 100, true}} {
		t.Run(fmt.Sprint(c.agents, " agents"), func(t *testing.T) {
			if c.long {
				longtest.Skip(t)
			}
			reports := map[bool]crowdReport{}
			for _, full := range []bool{false, true} {
				args := []string{"crowd", "-navmesh", mesh, "-agents", fmt.Sprint(c.agents), "-seed", "3", "-ticks", "120", "-json"}
				if full {
					args = append(args, "-full-search-unreachable")
				}
				var stdout bytes.Buffer
				require.NoError(t, run(args, &stdout, &bytes.Buffer{}))
				var report crowdReport
				require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
				reports[full] = report
				t.Logf("full search %v: %d out of reach, %d waiting, %d reached (%d of the reachable)",
					full, report.OutOfReach, report.WaitingForPath, report.Reached, report.ReachedReachable)
			}
			nearest, full := reports[false], reports[true]
			assert.Equal(t, nearest.OutOfReach, full.OutOfReach)
			assert.Greater(t, nearest.OutOfReach, c.agents*6/10)
			assert.Zero(t, nearest.WaitingForPath)
			assert.Equal(t, nearest.OutOfReach, nearest.PartialPaths)
			assert.Greater(t, full.WaitingForPath, c.minWaiting)
			assert.LessOrEqual(t, nearest.ReachedReachable, nearest.Reached)
		})
	}
}

// TestCrowdCommandObstacles runs a crowd on the tile cache of dungeon whose
// reference obstacles appear, move and go, beside the same crowd without
// them: nobody leaves the navmesh, walks into a wall or into an obstacle
// whose carve has landed, ends invalid or jumps further than without
// obstacles, and as many arrive but for those whose targets were covered;
// two workers give the same figures. (The run, 200 agents with the
// states at ticks 120, 300 and 480 for 900 ticks, is the same with other
// numbers; its figures are in the README.)
func TestCrowdCommandObstacles(t *testing.T) {
	cleared := filepath.Join(t.TempDir(), "cleared.csv")
	require.NoError(t, os.WriteFile(cleared, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n"), 0o644))
	base := []string{"crowd", "-tset", crowdTestTSET, "-agents", "60", "-seed", "2", "-ticks", "600", "-json"}
	states := []string{"-obstacles", crowdTestObstacles, "-obstacles-at", "60",
		"-obstacles", crowdTestMovedObstacles, "-obstacles-at", "200", "-obstacles", cleared, "-obstacles-at", "340"}
	report := func(args ...string) crowdReport {
		var stdout bytes.Buffer
		require.NoError(t, run(append(append([]string(nil), base...), args...), &stdout, &bytes.Buffer{}))
		var r crowdReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
		return r
	}
	without := report()
	with := report(states...)
	t.Logf("without: reached %d, largest step %.3f; with: reached %d (%d targets covered), largest step %.3f, obstacle stage %.3f ms/tick",
		without.Reached, without.MaxStepDistance, with.Reached, with.TargetsInObstacles, with.MaxStepDistance, with.ObstacleMs)
	assert.Zero(t, with.OffMeshViolations)
	assert.Zero(t, with.WallPenetrations)
	assert.Zero(t, with.ObstacleAgentTicks)
	assert.Zero(t, with.InvalidAgents)
	assert.Greater(t, with.TargetsInObstacles, 0)
	assert.Zero(t, without.TargetsInObstacles)
	assert.LessOrEqual(t, with.MaxStepDistance, without.MaxStepDistance)
	assert.Less(t, with.MaxStepDistance, float32(0.3))
	assert.GreaterOrEqual(t, with.Reached, without.Reached-with.TargetsInObstacles)
	assert.Greater(t, with.ObstacleMs, 0.0)

	two := report(append(states, "-workers", "2")...)
	for _, pair := range [][2]int{
		{with.Reached, two.Reached}, {with.OverlapAgentTicks, two.OverlapAgentTicks},
		{with.StuckAgents, two.StuckAgents}, {with.PartialPaths, two.PartialPaths},
	} {
		assert.Equal(t, pair[0], pair[1], "two workers")
	}
	assert.Equal(t, with.MaxStepDistance, two.MaxStepDistance, "two workers")
}

// TestCrowdCommandNearFreshTarget: an agent whose target, 0.8 m off, was
// set a tick or two before the run ends is within 1 m without having
// arrived, rightly (its path may still be pending). nearNotArrived must
// not count it: the 2 s the run goes on after the end (no new targets)
// let it plan and walk in, and it counts as nearArrivedAfterEnd.
func TestCrowdCommandNearFreshTarget(t *testing.T) {
	scenario := filepath.Join(t.TempDir(), "agent.csv")
	require.NoError(t, os.WriteFile(scenario, []byte("sx,sy,sz,tx,ty,tz\n"+
		"40.75225,10.197294,0.29230645,41.55225,10.197294,0.29230645\n"), 0o644))
	for _, ticks := range []int{1, 2} {
		var stdout bytes.Buffer
		require.NoError(t, run([]string{"crowd", "-navmesh", crowdTestMesh, "-scenario", scenario,
			"-ticks", strconv.Itoa(ticks), "-json"}, &stdout, &bytes.Buffer{}))
		var report crowdReport
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &report))
		assert.Zero(t, report.Arrived, "%d ticks: not arrived at the end", ticks)
		assert.Equal(t, 1, report.NearArrivedAfterEnd, "%d ticks: arrived after the end", ticks)
		assert.Zero(t, report.NearNotArrived, "%d ticks", ticks)
	}
}
