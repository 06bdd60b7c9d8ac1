package plugin

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Radii of the two agent types of the tests: small quick soldiers and
// large ogres, each walking a dungeon baked for its size.
const (
	smallRadius = float32(0.3)
	largeRadius = float32(1.2)
)

var dungeonTypes struct {
	once         sync.Once
	small, large *navmesh.Mesh
	err          error
}

// loadDungeonTypes bakes the dungeon level for the two agent types with
// bake.SoloTypes, once per test binary.
func loadDungeonTypes(tb testing.TB) (small, large *navmesh.Mesh) {
	tb.Helper()
	d := &dungeonTypes
	d.once.Do(func() {
		g, err := bake.LoadOBJ("../testdata/dungeon.obj")
		if err != nil {
			d.err = err
			return
		}
		types := make([]bake.AgentType, 2)
		for i, r := range []float32{smallRadius, largeRadius} {
			s := bake.DefaultSettings()
			s.AgentRadius = r
			types[i] = bake.AgentType{Name: []string{"small", "large"}[i], Settings: s}
		}
		result, err := bake.SoloTypes(context.Background(), g, types, bake.SoloTypesOptions{})
		if err != nil {
			d.err = err
			return
		}
		if d.small, d.err = result.Results[0].NavMesh(); d.err != nil {
			return
		}
		d.large, d.err = result.Results[1].NavMesh()
	})
	require.NoError(tb, d.err)
	return d.small, d.large
}

// twoTypeConfig is a crowd of the two dungeon types, "small" at 0 and
// "large" at 1.
func twoTypeConfig(small, large *navmesh.Mesh, workers, maxAgents int) Config {
	return Config{
		AgentTypes:     []AgentTypeConfig{{Name: "small", Mesh: small}, {Name: "large", Mesh: large}},
		MaxAgentRadius: largeRadius,
		MaxAgents:      maxAgents,
		Workers:        workers,
	}
}

// typedCrowd is a crowd with agents of two types sent to random targets of
// their own meshes.
type typedCrowd struct {
	crowdFixture
	types  []uint8 // per agent
	meshes []*navmesh.Mesh
}

// newTypedCrowd spawns counts[t] agents of type t at seeded random points
// of type t's mesh and sends each to another such point.
func newTypedCrowd(tb testing.TB, config Config, counts []int, seed uint64) *typedCrowd {
	tb.Helper()
	p, err := New(config)
	require.NoError(tb, err)
	world := ecs.NewWorld()
	require.NoError(tb, p.Install(&world))
	f := &typedCrowd{crowdFixture: crowdFixture{world: &world, plugin: p}}
	var specs []AgentSpec
	for t, n := range counts {
		mesh := config.AgentTypes[t].Mesh
		f.meshes = append(f.meshes, mesh)
		starts, targets := randomPairs(tb, mesh, n, seed+uint64(t))
		params := components.AgentParamsForRadius([]float32{smallRadius, largeRadius}[t])
		params.Type = uint8(t)
		if t == 1 {
			params.MaxSpeed = 2 // the ogres are slow
		}
		for i := range starts {
			specs = append(specs, AgentSpec{Position: starts[i], Params: params})
			f.targets = append(f.targets, targets[i])
			f.types = append(f.types, uint8(t))
		}
	}
	f.agents, err = p.SpawnBatch(&world, specs, nil)
	require.NoError(tb, err)
	for i, e := range f.agents {
		require.NoError(tb, p.RequestMoveTarget(&world, e, f.targets[i]))
	}
	return f
}

func TestAgentTypesConfig(t *testing.T) {
	small, large := loadDungeonTypes(t)
	tests := []struct {
		name    string
		config  Config
		wantErr string
	}{
		{"two types", twoTypeConfig(small, large, 1, 10), ""},
		{"Mesh equal to the first type's", Config{Mesh: small, AgentTypes: []AgentTypeConfig{{Name: "a", Mesh: small}}}, ""},
		{"empty name", Config{AgentTypes: []AgentTypeConfig{{Mesh: small}}}, "empty Name"},
		{"duplicate name", Config{AgentTypes: []AgentTypeConfig{{Name: "a", Mesh: small}, {Name: "a", Mesh: large}}}, "given twice"},
		{"nil mesh", Config{AgentTypes: []AgentTypeConfig{{Name: "a", Mesh: small}, {Name: "b"}}}, "nil Mesh"},
		{"Mesh differs from the first type's", Config{Mesh: large, AgentTypes: []AgentTypeConfig{{Name: "a", Mesh: small}}}, "AgentTypes[0].Mesh"},
		{"bad filter", Config{AgentTypes: []AgentTypeConfig{{Name: "a", Mesh: small},
			{Name: "b", Mesh: large, Filters: []query.Filter{{AreaCost: [64]float32{-1}}}}}}, "AreaCost"},
		{"too many types", Config{AgentTypes: func() []AgentTypeConfig {
			types := make([]AgentTypeConfig, components.MaxAgentTypes+1)
			for i := range types {
				types[i] = AgentTypeConfig{Name: string(rune('a' + i)), Mesh: small}
			}
			return types
		}()}, "AgentTypes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.config)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrInvalidConfig)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.config.AgentTypes[0].Mesh, p.Config().Mesh)
			for i, typ := range tt.config.AgentTypes {
				index, err := p.AgentType(typ.Name)
				require.NoError(t, err)
				assert.Equal(t, uint8(i), index)
				assert.Same(t, typ.Mesh, p.AgentTypeMesh(i))
			}
			_, err = p.AgentType("nobody")
			assert.ErrorIs(t, err, ErrInvalidInput)
		})
	}

	// The single-mesh form is one implicit type.
	p, err := New(Config{Mesh: small})
	require.NoError(t, err)
	assert.Equal(t, []string{DefaultAgentTypeName}, p.AgentTypeNames())
}

// TestSpawnOnOwnTypesMesh: an agent is placed on its own type's mesh, and
// one of a type the crowd lacks is refused.
func TestSpawnOnOwnTypesMesh(t *testing.T) {
	small, large := loadDungeonTypes(t)
	p, err := New(twoTypeConfig(small, large, 1, 10))
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))

	largeQuery, err := query.New(large, 512)
	require.NoError(t, err)
	filter := components.DefaultFilter()
	// A point of the small mesh that the large one lacks.
	point := offLargeMeshPoint(t, small, largeQuery)

	params := components.AgentParamsForRadius(largeRadius)
	params.Type = 1
	e, err := p.Spawn(&world, point, params)
	if err == nil {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		assert.True(t, onMesh(largeQuery, &filter, info.Position), "a large agent spawned off its mesh at %v", info.Position)
		assert.Equal(t, uint8(1), info.Type)
		assert.Equal(t, "large", info.TypeName)
		assert.True(t, largeQuery.IsValidPolyRef(info.Poly, &filter))
	} else {
		assert.ErrorIs(t, err, ErrOffMesh)
	}

	params.Type = 2
	_, err = p.Spawn(&world, point, params)
	assert.ErrorIs(t, err, ErrInvalidInput)
}

// offLargeMeshPoint returns a seeded random point of small that no
// polygon of the large mesh lies under.
func offLargeMeshPoint(tb testing.TB, small *navmesh.Mesh, largeQuery *query.Query) geom.Vec3 {
	tb.Helper()
	q, err := query.New(small, 512)
	require.NoError(tb, err)
	rng := rand.New(rand.NewPCG(5, 6))
	filter := components.DefaultFilter()
	for range 1000 {
		p, err := q.FindRandomPoint(&filter, rng.Float32)
		require.NoError(tb, err)
		if nearest, err := largeQuery.FindNearestPoly(p.Pos, geom.Vec3{2, 1, 2}, &filter); err == nil && nearest.Ref != 0 &&
			geom.Dist2D(nearest.Point, p.Pos) > 0.5 {
			return p.Pos
		}
	}
	tb.Fatal("no point of the small mesh off the large one")
	return geom.Vec3{}
}

// openStretch returns the ends of a straight walk of 10 to 16 m across
// mesh with no wall between them (seeded, so always the same).
func openStretch(tb testing.TB, mesh *navmesh.Mesh) (a, b geom.Vec3) {
	tb.Helper()
	q, err := query.New(mesh, 512)
	require.NoError(tb, err)
	rng := rand.New(rand.NewPCG(7, 8))
	filter := components.DefaultFilter()
	for range 5000 {
		p1, err := q.FindRandomPoint(&filter, rng.Float32)
		require.NoError(tb, err)
		p2, err := q.FindRandomPoint(&filter, rng.Float32)
		require.NoError(tb, err)
		if d := geom.Dist2D(p1.Pos, p2.Pos); d < 10 || d > 16 || geom.Abs(p1.Pos[1]-p2.Pos[1]) > 0.3 {
			continue
		}
		hit, _, err := q.Raycast(p1.Ref, p1.Pos, p2.Pos, &filter, 0, 0, nil)
		if err == nil && hit.T == math.MaxFloat32 {
			return p1.Pos, p2.Pos
		}
	}
	tb.Fatal("no open stretch")
	return
}

// typeRun is what a run of a two-type crowd measured, per type.
type typeRun struct {
	offMesh [2]int // agent-ticks off the agent's own mesh
	// smallOnlyTicks counts small agents' ticks on ground the large mesh
	// lacks: it shows that the large agents' check can fail.
	smallOnlyTicks int
	reached        [2]int
	// reachable counts the agents whose target lies in the connected part
	// of their type's mesh they start in.
	reachable [2]int
}

func runTypedCrowd(t *testing.T, f *typedCrowd, ticks, every int) typeRun {
	t.Helper()
	filter := components.DefaultFilter()
	queries := make([]*query.Query, len(f.meshes))
	for i, mesh := range f.meshes {
		var err error
		queries[i], err = query.New(mesh, 512)
		require.NoError(t, err)
	}
	var run typeRun
	for i, e := range f.agents {
		info, err := f.plugin.State(f.world, e)
		require.NoError(t, err)
		typ := f.types[i]
		target, err := queries[typ].FindNearestPoly(info.TargetPosition, geom.Vec3{0.1, 0.5, 0.1}, &filter)
		require.NoError(t, err)
		if target.Ref != 0 && f.meshes[typ].Snapshot().SameComponent(info.Poly, target.Ref) {
			run.reachable[typ]++
		}
	}
	for tick := 1; tick <= ticks; tick++ {
		require.NoError(t, f.plugin.Step(f.world, 1.0/60))
		if tick%every != 0 {
			continue
		}
		for i, e := range f.agents {
			info, err := f.plugin.State(f.world, e)
			require.NoError(t, err)
			typ := f.types[i]
			require.Equal(t, typ, info.Type)
			if info.Mode != components.AgentWalking {
				continue
			}
			if !onMesh(queries[typ], &filter, info.Position) {
				run.offMesh[typ]++
			}
			if typ == 0 && !onMesh(queries[1], &filter, info.Position) {
				run.smallOnlyTicks++
			}
		}
	}
	for i, e := range f.agents {
		info, err := f.plugin.State(f.world, e)
		require.NoError(t, err)
		if geom.Dist2D(info.Position, f.targets[i]) <= 1 {
			run.reached[f.types[i]]++
		}
	}
	return run
}

// TestAgentTypesStayOnOwnMesh: small and large agents walk the dungeon
// baked for each; every walking agent stands on its own type's mesh every
// tick checked, so the large ones never go where only the small mesh is
// (which the small agents do, showing the check can fail).
func TestAgentTypesStayOnOwnMesh(t *testing.T) {
	small, large := loadDungeonTypes(t)
	ticks, counts := 600, []int{40, 20}
	if longtest.Enabled() && !longtest.Race { // minutes under the race detector
		ticks, counts = 3600, []int{150, 60}
	}
	f := newTypedCrowd(t, twoTypeConfig(small, large, 2, 300), counts, 21)
	defer f.plugin.Schedule().Finalize(f.world)
	run := runTypedCrowd(t, f, ticks, 5)
	t.Logf("off mesh %v, small agents on small-only ground %d agent-ticks, reached %v of %v (%v in reach)", run.offMesh, run.smallOnlyTicks, run.reached, counts, run.reachable)
	assert.Zero(t, run.offMesh[0], "small agent-ticks off the small mesh")
	assert.Zero(t, run.offMesh[1], "large agent-ticks off the large mesh")
	assert.Positive(t, run.smallOnlyTicks, "the small agents never used ground the large mesh lacks")
	assert.Positive(t, run.reached[0], "no small agent reached its target")
	assert.Positive(t, run.reached[1], "no large agent reached its target")
	if longtest.Enabled() && !longtest.Race {
		assert.GreaterOrEqual(t, run.reached[0], run.reachable[0]/2)
	}
	if longtest.Enabled() && !longtest.Race {
		// Ogres of radius 1.2 jam in the dungeon's corridors even alone
		// (12 to 22 of about 50 in reach arrive in 60 s, by seed); among
		// the soldiers they must keep at least half that progress, summed
		// over four seeds: one seed's arrivals move by half with any change
		// of order (seed 21: 9 among the soldiers and 20 alone; seed 24: 17
		// and 12). Behaviour does not depend on the race detector, so its
		// pass skips these runs.
		mixed, alone := run.reached[1], 0
		for seed := uint64(21); seed < 25; seed++ {
			if seed != 21 {
				m := newTypedCrowd(t, twoTypeConfig(small, large, 2, 300), counts, seed)
				r := runTypedCrowd(t, m, ticks, 5)
				m.plugin.Schedule().Finalize(m.world)
				assert.Zero(t, r.offMesh[0]+r.offMesh[1], "seed %d: agent-ticks off their own mesh", seed)
				mixed += r.reached[1]
			}
			a := newTypedCrowd(t, twoTypeConfig(small, large, 2, 300), []int{0, counts[1]}, seed)
			baseline := runTypedCrowd(t, a, ticks, 5)
			a.plugin.Schedule().Finalize(a.world)
			assert.Zero(t, baseline.offMesh[1], "seed %d: the large agents alone off their mesh", seed)
			alone += baseline.reached[1]
		}
		t.Logf("the large agents over seeds 21-24: reached %d among the small ones, %d alone", mixed, alone)
		assert.GreaterOrEqual(t, 2*mixed, alone, "the large agents lost more than half their progress among the small ones")
	}
}

// TestAgentTypesWorkersBitIdentical: a two-type crowd gives the same
// positions with 1 and 2 workers.
func TestAgentTypesWorkersBitIdentical(t *testing.T) {
	small, large := loadDungeonTypes(t)
	var want []geom.Vec3
	for _, workers := range []int{1, 2} {
		f := newTypedCrowd(t, twoTypeConfig(small, large, workers, 200), []int{60, 30}, 31)
		f.step(t, 200)
		got := f.positions(t)
		f.plugin.Schedule().Finalize(f.world)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got, "%d workers", workers)
	}
}

// TestAgentTypesAvoidEachOther: two agents walking head-on at each other
// along a straight corridor overlap no more when they are of different
// types (each on its own mesh) than when both are of one type: the
// proximity grid and the pushes span the types.
func TestAgentTypesAvoidEachOther(t *testing.T) {
	small, large := loadDungeonTypes(t)
	a, b := openStretch(t, large)
	tests := []struct {
		name  string
		types [2]uint8
	}{
		{"same type", [2]uint8{1, 1}},
		{"different types", [2]uint8{0, 1}},
	}
	overlaps := map[string]float32{}
	for _, tt := range tests {
		p, err := New(twoTypeConfig(small, large, 1, 4))
		require.NoError(t, err)
		world := ecs.NewWorld()
		require.NoError(t, p.Install(&world))
		var agents [2]ecs.Entity
		for i, start := range []geom.Vec3{a, b} {
			params := components.AgentParamsForRadius(largeRadius)
			params.Type = tt.types[i]
			agents[i], err = p.Spawn(&world, start, params)
			require.NoError(t, err)
		}
		first, err := p.State(&world, agents[0])
		require.NoError(t, err)
		second, err := p.State(&world, agents[1])
		require.NoError(t, err)
		require.NoError(t, p.RequestMoveTarget(&world, agents[0], second.Position))
		require.NoError(t, p.RequestMoveTarget(&world, agents[1], first.Position))
		worst, met := float32(0), false
		for range 600 {
			require.NoError(t, p.Step(&world, 1.0/60))
			s0, err := p.State(&world, agents[0])
			require.NoError(t, err)
			s1, err := p.State(&world, agents[1])
			require.NoError(t, err)
			d := geom.Dist2D(s0.Position, s1.Position)
			worst = max(worst, 2*largeRadius-d)
			if geom.Dist2D(s0.Position, first.Position) > geom.Dist2D(s0.Position, second.Position) {
				met = true // the first has passed the middle
			}
		}
		require.True(t, met, "%s: the agents never passed each other", tt.name)
		overlaps[tt.name] = worst
	}
	t.Logf("worst overlap: %v", overlaps)
	assert.Less(t, overlaps["same type"], largeRadius, "one type: the bodies went through each other")
	assert.LessOrEqual(t, overlaps["different types"], overlaps["same type"]+0.05, "two types overlap more than one")
}

// TestUpdateParamsChangesType: changing an agent's type mid-run moves it
// onto the other mesh and keeps its trip; a change to a mesh with no
// ground near the agent fails and changes nothing.
func TestUpdateParamsChangesType(t *testing.T) {
	small, large := loadDungeonTypes(t)
	g := &bake.Geometry{}
	addFloor(g, 200, 200, 210, 210, 0)
	config := twoTypeConfig(small, large, 1, 10)
	config.AgentTypes = append(config.AgentTypes, AgentTypeConfig{Name: "island", Mesh: bakeLevel(t, g)})
	p, err := New(config)
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	filter := components.DefaultFilter()
	smallQuery, err := query.New(small, 512)
	require.NoError(t, err)
	largeQuery, err := query.New(large, 512)
	require.NoError(t, err)

	// An agent of the small type where both meshes are.
	params := components.AgentParamsForRadius(smallRadius)
	start, goal := openStretch(t, large)
	e, err := p.Spawn(&world, start, params)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, e, goal))
	for range 60 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	before, err := p.State(&world, e)
	require.NoError(t, err)
	require.True(t, smallQuery.IsValidPolyRef(before.Poly, &filter))

	// To the large type: it stands on a large-mesh polygon and walks on.
	params.Type = 1
	require.NoError(t, p.UpdateParams(&world, e, params))
	moved, err := p.State(&world, e)
	require.NoError(t, err)
	assert.Equal(t, "large", moved.TypeName)
	assert.True(t, largeQuery.IsValidPolyRef(moved.Poly, &filter), "not on a polygon of the large mesh")
	assert.True(t, onMesh(largeQuery, &filter, moved.Position))
	assert.Less(t, geom.Dist2D(moved.Position, before.Position), 2*largeRadius)
	assert.Equal(t, components.TargetRequesting, moved.Target)
	reached := false
	for range 900 {
		require.NoError(t, p.Step(&world, 1.0/60))
		for _, ev := range p.Events(&world) {
			if ev.Kind == components.EventTargetReached && ev.Entity == e {
				reached = true
				assert.Equal(t, uint8(1), ev.Type)
			}
		}
		info, err := p.State(&world, e)
		require.NoError(t, err)
		require.True(t, onMesh(largeQuery, &filter, info.Position), "off the large mesh at %v", info.Position)
	}
	assert.True(t, reached, "the agent did not reach its target after the type change")
	require.NoError(t, p.RequestMoveTarget(&world, e, start))

	// To a type whose mesh is a floor far away: refused, nothing changes.
	stuckBefore, err := p.State(&world, e)
	require.NoError(t, err)
	paramsBefore := params
	params.Type = 2
	params.MaxSpeed = 1
	err = p.UpdateParams(&world, e, params)
	require.ErrorIs(t, err, ErrOffMesh)
	assert.Contains(t, err.Error(), "island")
	after, err := p.State(&world, e)
	require.NoError(t, err)
	assert.Equal(t, stuckBefore, after, "a refused type change changed the agent")
	got, _, _, _, _, _, _, _, _, _ := p.agents.Get(e)
	assert.Equal(t, paramsBefore, *got, "a refused type change changed the params")
	for range 30 {
		require.NoError(t, p.Step(&world, 1.0/60))
		info, err := p.State(&world, e)
		require.NoError(t, err)
		require.True(t, onMesh(largeQuery, &filter, info.Position), "off the large mesh at %v", info.Position)
	}

	// A type the crowd lacks.
	params.Type = 5
	assert.ErrorIs(t, p.UpdateParams(&world, e, params), ErrInvalidInput)
}

// TestAgentTypesSteadyStateAllocs: a tick of a two-type crowd allocates
// nothing once warm.
func TestAgentTypesSteadyStateAllocs(t *testing.T) {
	small, large := loadDungeonTypes(t)
	f := newTypedCrowd(t, twoTypeConfig(small, large, 1, 100), []int{40, 20}, 41)
	f.step(t, 120)
	allocs := testing.AllocsPerRun(30, func() {
		_ = f.plugin.Step(f.world, 1.0/60)
	})
	assert.Zero(t, allocs)
}

// TestObstacleCarvesEveryType: a carving obstacle cuts a hole into every
// type's tile cache, each grown by its own type's radius: the large mesh's
// hole is wider than the small one's by about the difference of the radii.
func TestObstacleCarvesEveryType(t *testing.T) {
	g, err := bake.LoadOBJ("../testdata/dungeon.obj")
	require.NoError(t, err)
	types := make([]bake.AgentType, 2)
	for i, r := range []float32{smallRadius, largeRadius} {
		s := bake.DefaultSettings()
		s.AgentRadius = r
		types[i] = bake.AgentType{Name: []string{"small", "large"}[i], Settings: s}
	}
	result, err := bake.TileCacheTypes(context.Background(), g, types, bake.TileCacheOptions{TileSize: 48})
	require.NoError(t, err)
	caches, set, err := result.Caches(tilecache.Options{})
	require.NoError(t, err)
	for _, cache := range caches {
		for done := false; !done; {
			done, err = cache.Update(tilecache.Budget{})
			require.NoError(t, err)
		}
	}
	p, err := New(Config{
		AgentTypes:     []AgentTypeConfig{{Name: "small", TileCache: caches[0]}, {Name: "large", TileCache: caches[1]}},
		MaxAgentRadius: largeRadius,
	})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))

	centre := openSpot(t, set[1].Mesh, 3.5)
	const obstacleRadius = float32(0.5)
	obstacle := components.CylinderObstacle(obstacleRadius, 2)
	obstacle.Effect = components.ObstacleCarves
	obstacle.CarveWhileMoving = true
	e, err := p.SpawnObstacle(&world, components.ObstaclePose{Position: centre}, obstacle)
	require.NoError(t, err)
	landed := false
	for range 60 {
		require.NoError(t, p.Step(&world, 1.0/60))
		for _, ev := range p.Events(&world) {
			landed = landed || (ev.Kind == components.EventObstacleLanded && ev.Entity == e)
		}
	}
	require.True(t, landed, "the obstacle never landed")

	holes := make([]float32, 2)
	for i, named := range set {
		holes[i] = holeRadius(t, named.Mesh, centre)
	}
	t.Logf("hole radii: small %.2f, large %.2f", holes[0], holes[1])
	cell := caches[0].Params().CellSize
	assert.GreaterOrEqual(t, holes[0], obstacleRadius+smallRadius, "the small mesh's hole is too small")
	assert.GreaterOrEqual(t, holes[1], obstacleRadius+largeRadius, "the large mesh's hole is too small")
	assert.InDelta(t, largeRadius-smallRadius, holes[1]-holes[0], float64(cell), "the holes differ by the radii's difference")

	// Removed, it leaves both meshes whole again.
	require.NoError(t, p.RemoveObstacle(&world, e))
	for range 60 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	for i, named := range set {
		assert.Zero(t, holeRadius(t, named.Mesh, centre), "type %d still has a hole", i)
	}
}

// openSpot returns a seeded random point of mesh at least clearance from
// every wall.
func openSpot(tb testing.TB, mesh *navmesh.Mesh, clearance float32) geom.Vec3 {
	tb.Helper()
	q, err := query.New(mesh, 2048)
	require.NoError(tb, err)
	rng := rand.New(rand.NewPCG(9, 10))
	filter := components.DefaultFilter()
	for range 5000 {
		p, err := q.FindRandomPoint(&filter, rng.Float32)
		require.NoError(tb, err)
		hit, _, err := q.FindDistanceToWall(p.Ref, p.Pos, clearance, &filter)
		if err == nil && hit.Distance >= clearance {
			return p.Pos
		}
	}
	tb.Fatal("no open spot")
	return geom.Vec3{}
}

// holeRadius is the smallest distance from centre, over 16 directions, at
// which mesh has ground (0 when it has ground at centre).
func holeRadius(tb testing.TB, mesh *navmesh.Mesh, centre geom.Vec3) float32 {
	tb.Helper()
	q, err := query.New(mesh, 512)
	require.NoError(tb, err)
	filter := components.DefaultFilter()
	best := float32(math.MaxFloat32)
	for k := range 16 {
		angle := float64(k) * math.Pi / 8
		for r := float32(0); r < 4; r += 0.02 {
			p := geom.Vec3{centre[0] + float32(r*float32(math.Cos(angle))), centre[1], centre[2] + float32(r*float32(math.Sin(angle)))}
			if onMesh(q, &filter, p) {
				best = min(best, r)
				break
			}
		}
	}
	return best
}

// TestSecondTypeMatchesSingleType: a crowd whose agents are all of its
// second type moves to the bit as a crowd of one type on that type's mesh:
// every query of theirs runs on their own type's mesh, queue and filters.
func TestSecondTypeMatchesSingleType(t *testing.T) {
	small, _ := loadDungeonTypes(t)
	dungeon := loadDungeon(t)
	const n, ticks = 80, 240
	run := func(config Config, typ uint8) []geom.Vec3 {
		config.MaxAgents = n
		p, err := New(config)
		require.NoError(t, err)
		world := ecs.NewWorld()
		require.NoError(t, p.Install(&world))
		starts, targets := randomPairs(t, dungeon, n, 51)
		f := &crowdFixture{world: &world, plugin: p, targets: targets}
		for i := range starts {
			params := components.DefaultAgentParams()
			params.Type = typ
			e, err := p.Spawn(&world, starts[i], params)
			require.NoError(t, err)
			require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
			f.agents = append(f.agents, e)
		}
		f.step(t, ticks)
		return f.positions(t)
	}
	single := run(Config{Mesh: dungeon}, 0)
	second := run(Config{AgentTypes: []AgentTypeConfig{{Name: "other", Mesh: small}, {Name: "dungeon", Mesh: dungeon}}}, 1)
	require.Equal(t, single, second)
}
