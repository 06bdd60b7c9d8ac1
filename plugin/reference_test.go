package plugin

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// TestMatchesReferenceCrowd runs the recorded C++ crowds with Config.Reference
// and checks every recorded position and target state to the bit. The
// cluster runs never use the path queue (every path fits the quick search);
// the trips runs (random whole-level trips on dungeon and nav_test) hand
// dozens and hundreds of searches to it, so they check that the queue
// schedules like dtPathQueue.
func TestMatchesReferenceCrowd(t *testing.T) {
	dungeon := loadDungeon(t)
	navTest, _, err := navmesh.LoadFile(filepath.Join("testdata", "reference", "navmesh_solo_nav_test.bin"))
	require.NoError(t, err)
	for _, run := range []struct {
		name    string
		mesh    *navmesh.Mesh
		workers int
		// queueRequests is how many searches dtCrowd handed to its path
		// queue in the recorded run (the harness counts them)
		queueRequests int
	}{
		{"cluster1", dungeon, 1, 0}, {"cluster2", dungeon, 1, 0}, {"cluster1", dungeon, 3, 0},
		{"dungeon_trips", dungeon, 1, 71}, {"nav_test_trips", navTest, 1, 426}, {"nav_test_trips", navTest, 2, 426},
	} {
		name, mesh := run.name, run.mesh
		t.Run(fmt.Sprintf("%s/workers=%d", name, run.workers), func(t *testing.T) {
			starts, targets := readScenario(t, filepath.Join("testdata", "reference", name+".csv"))
			want := readTrace(t, filepath.Join("testdata", "reference", name+".trace"))

			filter := *query.NewFilter()
			filter.ExcludeFlags = 0x10
			p, err := New(Config{Mesh: mesh, MaxAgents: len(starts), Workers: run.workers, Reference: true, Filters: []query.Filter{filter}})
			require.NoError(t, err)
			world := ecs.NewWorld()
			require.NoError(t, p.Install(&world))
			agents := make([]ecs.Entity, len(starts))
			for i, start := range starts {
				agents[i], err = p.Spawn(&world, start, components.DefaultAgentParams())
				require.NoError(t, err)
			}
			for i, e := range agents {
				require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
			}

			checked, lastTick := 0, want[len(want)-1].tick
			queueRequests := 0
			for tick := 0; tick <= lastTick; tick++ {
				require.NoError(t, p.Step(&world, 1.0/60))
				queueRequests += p.Stats(&world).PathQueueRequests
				for len(want) > 0 && want[0].tick == tick {
					w := want[0]
					want = want[1:]
					info, err := p.State(&world, agents[w.agent])
					require.NoError(t, err)
					require.Equal(t, w.position, info.Position, "tick %d agent %d", tick, w.agent)
					require.Equal(t, w.state, info.Target, "tick %d agent %d", tick, w.agent)
					checked++
				}
			}
			require.Equal(t, 21*len(agents), checked)
			require.Equal(t, run.queueRequests, queueRequests, "searches handed to the path queue")
		})
	}
}

func readScenario(t *testing.T, path string) (starts, targets []geom.Vec3) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	require.True(t, sc.Scan()) // header
	for sc.Scan() {
		var v [6]float32
		for i, field := range strings.Split(sc.Text(), ",") {
			x, err := strconv.ParseFloat(field, 32)
			require.NoError(t, err)
			v[i] = float32(x)
		}
		starts = append(starts, geom.Vec3{v[0], v[1], v[2]})
		targets = append(targets, geom.Vec3{v[3], v[4], v[5]})
	}
	return starts, targets
}

type traceLine struct {
	tick, agent int
	position    geom.Vec3
	state       components.TargetState
}

func readTrace(t *testing.T, path string) []traceLine {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var lines []traceLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		require.Len(t, fields, 6)
		var l traceLine
		l.tick, err = strconv.Atoi(fields[0])
		require.NoError(t, err)
		l.agent, err = strconv.Atoi(fields[1])
		require.NoError(t, err)
		for i := range 3 {
			x, err := strconv.ParseFloat(fields[2+i], 32)
			require.NoError(t, err)
			l.position[i] = float32(x)
		}
		state, err := strconv.Atoi(fields[5])
		require.NoError(t, err)
		l.state = components.TargetState(state)
		lines = append(lines, l)
	}
	require.NotEmpty(t, lines)
	return lines
}
