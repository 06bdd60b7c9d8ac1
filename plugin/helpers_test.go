package plugin

import (
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

const dungeonPath = "../testdata/navmesh_solo_dungeon.bin"

func loadDungeon(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	mesh, _, err := navmesh.LoadFile(dungeonPath)
	require.NoError(tb, err)
	return mesh
}

// randomPairs returns n seeded random start and target points on mesh.
func randomPairs(tb testing.TB, mesh *navmesh.Mesh, n int, seed uint64) (starts, targets []geom.Vec3) {
	tb.Helper()
	q, err := query.New(mesh, 2048)
	require.NoError(tb, err)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	random := func() float32 { return rng.Float32() }
	filter := query.NewFilter()
	for i := 0; i < 2*n; i++ {
		p, err := q.FindRandomPoint(filter, random)
		require.NoError(tb, err)
		if i%2 == 0 {
			starts = append(starts, p.Pos)
		} else {
			targets = append(targets, p.Pos)
		}
	}
	return starts, targets
}

// crowdFixture is a world with an installed plugin and agents sent to
// random targets.
type crowdFixture struct {
	world   *ecs.World
	plugin  *Plugin
	agents  []ecs.Entity
	targets []geom.Vec3
}

func newCrowd(tb testing.TB, mesh *navmesh.Mesh, n int, seed uint64, config Config) *crowdFixture {
	tb.Helper()
	config.Mesh = mesh
	if config.MaxAgents == 0 {
		config.MaxAgents = max(n, 1)
	}
	p, err := New(config)
	require.NoError(tb, err)
	world := ecs.NewWorld()
	require.NoError(tb, p.Install(&world))
	starts, targets := randomPairs(tb, mesh, n, seed)
	specs := make([]AgentSpec, n)
	for i := range specs {
		specs[i] = AgentSpec{Position: starts[i], Params: components.DefaultAgentParams()}
	}
	agents, err := p.SpawnBatch(&world, specs, nil)
	require.NoError(tb, err)
	for i, e := range agents {
		require.NoError(tb, p.RequestMoveTarget(&world, e, targets[i]))
	}
	return &crowdFixture{world: &world, plugin: p, agents: agents, targets: targets}
}

func (f *crowdFixture) step(tb testing.TB, ticks int) {
	tb.Helper()
	for i := 0; i < ticks; i++ {
		require.NoError(tb, f.plugin.Step(f.world, 1.0/60))
	}
}

func (f *crowdFixture) positions(tb testing.TB) []geom.Vec3 {
	tb.Helper()
	out := make([]geom.Vec3, len(f.agents))
	for i, e := range f.agents {
		info, err := f.plugin.State(f.world, e)
		require.NoError(tb, err)
		out[i] = info.Position
	}
	return out
}

func (f *crowdFixture) reached(tb testing.TB, within float32) int {
	n := 0
	for i, p := range f.positions(tb) {
		if geom.Dist2D(p, f.targets[i]) <= within {
			n++
		}
	}
	return n
}

// stageTimes runs ticks ticks and returns the mean wall time per stage.
func (f *crowdFixture) stageTimes(tb testing.TB, ticks int) map[string]float64 {
	tb.Helper()
	out := map[string]float64{}
	for i := 0; i < ticks; i++ {
		require.NoError(tb, f.plugin.Step(f.world, 1.0/60))
		st := f.plugin.Stats(f.world)
		for j, name := range st.StageNames {
			out[name] += float64(st.StageDurations[j].Microseconds()) / 1000 / float64(ticks)
		}
	}
	return out
}
