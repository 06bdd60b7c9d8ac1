package plugin

import (
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// BenchmarkCrowdAgentTypes measures what agent types cost: 1000 agents on
// the dungeon tile, random trips, 600 ticks from spawn on one worker, as
// one type ("types=1"), as two types on two copies of the same mesh, every
// other agent of the second ("types=2"; the same trips, so the difference
// is the cost of the types alone), and as two types on the meshes baked
// for radius 0.3 and 1.2 ("types=2-sizes"; other meshes, other trips:
// for information). It reports ms/tick and cpu-ms/tick.
func BenchmarkCrowdAgentTypes(b *testing.B) {
	const agents = 1000
	dungeon := loadDungeon(b)
	copyOf := loadDungeon(b)
	small, large := loadDungeonTypes(b)
	cases := []struct {
		name   string
		meshes []*navmesh.Mesh
		radii  []float32
	}{
		{"types=1", []*navmesh.Mesh{dungeon}, []float32{0.6}},
		{"types=2", []*navmesh.Mesh{dungeon, copyOf}, []float32{0.6, 0.6}},
		{"types=2-sizes", []*navmesh.Mesh{small, large}, []float32{smallRadius, largeRadius}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var total, cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				world, p := typesBenchCrowd(b, c.meshes, c.radii, agents)
				b.StartTimer()
				start, startCPU := time.Now(), cputime.Process()
				for range benchTicks {
					if err := p.Step(world, 1.0/60); err != nil {
						b.Fatal(err)
					}
				}
				total += time.Since(start)
				cpu += cputime.Process() - startCPU
			}
			ticks := float64(b.N * benchTicks)
			b.ReportMetric(float64(total.Microseconds())/1000/ticks, "ms/tick")
			b.ReportMetric(float64(cpu.Microseconds())/1000/ticks, "cpu-ms/tick")
		})
	}
}

// typesBenchCrowd makes a crowd of n agents over the types of meshes,
// agent i of type i mod len(meshes), with random trips on its type's mesh
// (the same trips for meshes with the same data).
func typesBenchCrowd(b *testing.B, meshes []*navmesh.Mesh, radii []float32, n int) (*ecs.World, *Plugin) {
	config := Config{MaxAgents: n}
	for t, mesh := range meshes {
		config.AgentTypes = append(config.AgentTypes, AgentTypeConfig{Name: string(rune('a' + t)), Mesh: mesh})
		config.MaxAgentRadius = max(config.MaxAgentRadius, radii[t])
	}
	p, err := New(config)
	require.NoError(b, err)
	world := ecs.NewWorld()
	require.NoError(b, p.Install(&world))
	var specs []AgentSpec
	startPoints := make([][]AgentSpec, len(meshes))
	targetPoints := make([][]AgentSpec, len(meshes))
	for t, mesh := range meshes {
		s, g := randomPairs(b, mesh, n, 1)
		params := components.AgentParamsForRadius(radii[t])
		params.Type = uint8(t)
		for i := range s {
			startPoints[t] = append(startPoints[t], AgentSpec{Position: s[i], Params: params})
			targetPoints[t] = append(targetPoints[t], AgentSpec{Position: g[i]})
		}
	}
	var goals []AgentSpec
	for i := 0; i < n; i++ {
		t := i % len(meshes)
		specs = append(specs, startPoints[t][i])
		goals = append(goals, targetPoints[t][i])
	}
	agents, err := p.SpawnBatch(&world, specs, nil)
	require.NoError(b, err)
	for i, e := range agents {
		require.NoError(b, p.RequestMoveTarget(&world, e, goals[i].Position))
	}
	return &world, p
}
