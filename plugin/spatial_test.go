package plugin

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpatialOrder(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name   string
		points []geom.Vec3
		want   []int
	}{
		{"none", nil, []int{}},
		{"one", []geom.Vec3{{5, 1, 5}}, []int{0}},
		// The first-order curve: low corner, up z, across, down z.
		{"square", []geom.Vec3{{1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {0, 0, 0}}, []int{3, 2, 1, 0}},
		{"height ignored", []geom.Vec3{{1, 9, 0}, {0, -9, 0}}, []int{1, 0}},
		{"ties in index order", []geom.Vec3{{2, 0, 2}, {0, 0, 0}, {2, 0, 2}, {0, 0, 0}}, []int{1, 3, 0, 2}},
		{"same point", []geom.Vec3{{3, 0, 3}, {3, 0, 3}}, []int{0, 1}},
		{"not finite first", []geom.Vec3{{1, 0, 1}, {nan, 0, 0}, {0, 0, 0}}, []int{1, 2, 0}},
		{"none finite", []geom.Vec3{{nan, 0, 0}, {0, 0, nan}}, []int{0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, spatialOrder(c.points))
		})
	}
}

// TestSpatialOrderIsContinuous checks the curve's defining property on a
// 16 × 16 grid of points (shuffled): each point in the order is a grid
// neighbour of the one before.
func TestSpatialOrderIsContinuous(t *testing.T) {
	const side = 16
	var points []geom.Vec3
	for x := 0; x < side; x++ {
		for z := 0; z < side; z++ {
			points = append(points, geom.Vec3{float32(x) + 100, 7, float32(z) - 40})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(points), func(i, j int) { points[i], points[j] = points[j], points[i] })
	order := spatialOrder(points)
	require.Len(t, order, side*side)
	seen := map[int]bool{}
	for k, i := range order {
		assert.False(t, seen[i], "index %d twice", i)
		seen[i] = true
		if k > 0 {
			a, b := points[order[k-1]], points[i]
			assert.Equal(t, float32(1), abs32(a[0]-b[0])+abs32(a[2]-b[2]), "step %d: %v to %v", k, a, b)
		}
	}
	assert.Equal(t, geom.Vec3{100, 7, -40}, points[order[0]])
}

func abs32(v float32) float32 { return float32(math.Abs(float64(v))) }

// localTrips returns n starts on mesh at least spacing apart (xz) and,
// for each, a target within radius of it along the mesh.
func localTrips(t *testing.T, n int, spacing, radius float32, seed uint64) (starts, targets []geom.Vec3) {
	t.Helper()
	mesh := loadDungeon(t)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	random := func() float32 { return rng.Float32() }
	filter := query.NewFilter()
	for tries := 0; len(starts) < n && tries < 10000; tries++ {
		p, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		far := true
		for _, s := range starts {
			far = far && geom.Dist2D(s, p.Pos) >= spacing
		}
		if !far {
			continue
		}
		target, _, err := q.FindRandomPointAroundCircle(p.Ref, p.Pos, radius, filter, random)
		require.NoError(t, err)
		starts, targets = append(starts, p.Pos), append(targets, target.Pos)
	}
	require.Len(t, starts, n)
	return starts, targets
}

// TestSpawnBatchSpatialOrder spawns agents far apart with short trips
// (they never meet) by SpawnBatch and one by one with Spawn in spec order:
// SpawnBatch returns each spec's agent at its index, creates the entities
// in spatial order (in spec order with Reference), and every agent is
// placed and walks exactly as the one spawned alone.
func TestSpawnBatchSpatialOrder(t *testing.T) {
	starts, targets := localTrips(t, 6, 20, 4, 5)
	specs := make([]AgentSpec, len(starts))
	for i := range specs {
		specs[i] = AgentSpec{Position: starts[i], Params: components.DefaultAgentParams()}
		specs[i].Params.MaxSpeed += float32(float32(i) * 0.1) // tell them apart
	}
	for _, c := range []struct {
		name      string
		reference bool
	}{{"default", false}, {"reference", true}} {
		t.Run(c.name, func(t *testing.T) {
			run := func(batch bool) (*Plugin, *ecs.World, []ecs.Entity) {
				p, err := New(Config{Mesh: loadDungeon(t), MaxAgents: len(specs), Reference: c.reference})
				require.NoError(t, err)
				world := ecs.NewWorld()
				require.NoError(t, p.Install(&world))
				agents := []ecs.Entity{{}} // SpawnBatch appends
				if batch {
					agents, err = p.SpawnBatch(&world, specs, agents)
					require.NoError(t, err)
				} else {
					for _, s := range specs {
						e, err := p.Spawn(&world, s.Position, s.Params)
						require.NoError(t, err)
						agents = append(agents, e)
					}
				}
				require.Len(t, agents, len(specs)+1)
				assert.Equal(t, ecs.Entity{}, agents[0])
				agents = agents[1:]
				for i, e := range agents {
					require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
				}
				return p, &world, agents
			}
			batchPlugin, batchWorld, batch := run(true)
			alonePlugin, aloneWorld, alone := run(false)

			// Creation order: the world's query order.
			var created []int
			byEntity := map[ecs.Entity]int{}
			for i, e := range batch {
				byEntity[e] = i
			}
			filter := generic.NewFilter1[components.Position]()
			q := filter.Query(batchWorld)
			for q.Next() {
				created = append(created, byEntity[q.Entity()])
			}
			want := spatialOrder(starts)
			if c.reference {
				want = []int{0, 1, 2, 3, 4, 5}
			}
			assert.Equal(t, want, created)
			if !c.reference {
				assert.NotEqual(t, []int{0, 1, 2, 3, 4, 5}, created, "the seed should shuffle")
			}

			for tick := 0; tick <= 120; tick++ {
				if tick%30 == 0 {
					for i := range specs {
						got, err := batchPlugin.State(batchWorld, batch[i])
						require.NoError(t, err)
						wantState, err := alonePlugin.State(aloneWorld, alone[i])
						require.NoError(t, err)
						require.Equal(t, wantState, got, "tick %d agent %d", tick, i)
						if tick == 0 {
							params, _, _, _, _, _, _, _, _, _ := batchPlugin.agents.Get(batch[i])
							assert.Equal(t, specs[i].Params, *params)
						}
					}
				}
				require.NoError(t, batchPlugin.Step(batchWorld, 1.0/60))
				require.NoError(t, alonePlugin.Step(aloneWorld, 1.0/60))
			}
			final, err := batchPlugin.State(batchWorld, batch[0])
			require.NoError(t, err)
			assert.Greater(t, geom.Dist2D(final.Position, starts[0]), float32(0.5), "the agents walk")
		})
	}
}
