package sim

import (
	"testing"

	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// twoTypeDungeon bakes the embedded dungeon for the demo's two agent types
// into tile caches, as the demo does.
func twoTypeDungeon(t *testing.T) *level.Level {
	t.Helper()
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	l, err := level.Load("", level.Options{TileCache: true, TileSize: 32, Workers: 2, Types: level.DefaultTypes()})
	require.NoError(t, err)
	require.Len(t, l.Types, 2)
	return l
}

// demoTypes are the demo's small and large types on l's meshes.
func demoTypes(l *level.Level) []AgentType {
	return []AgentType{
		SmallType(l.Types[0].Mesh, l.Types[0].Cache),
		DefaultLargeType(l.Types[1].Mesh, l.Types[1].Cache),
	}
}

// onMesh reports whether p stands on a polygon of mesh's current
// snapshot (within 1 cm, seen from above).
func onMesh(t *testing.T, q *query.Query, p geom.Vec3) bool {
	t.Helper()
	nearest, err := q.FindNearestPoly(p, geom.Vec3{0.1, 1, 0.1}, query.NewFilter())
	require.NoError(t, err)
	return nearest.Ref != 0 && geom.Dist2D(nearest.Point, p) < 0.01
}

// inHole reports whether p is within reach of an obstacle's footprint:
// where the obstacle carves (or has just carved) a hole grown by the
// agent's radius [Units: world units].
func inHole(t *testing.T, s *Sim, p geom.Vec3, reach float32) bool {
	t.Helper()
	for _, o := range s.obstacles {
		info, err := s.crowd.Obstacle(&s.world, o.entity)
		require.NoError(t, err)
		footprint := info.Obstacle.Footprint(info.Pose)
		if d, _, _ := footprint.Distance(p[0], p[2]); d <= reach {
			return true
		}
	}
	return false
}

// TestTwoTypesStayOnTheirOwnMeshes runs the demo's crowd (40 agents of two
// types) for 10 s and checks every agent every tick on its own type's
// mesh: no large agent ever stands where only the small mesh is, while the
// small agents do walk there (so the check can fail), and the large ones
// walk too, slower. Without the script nothing changes the meshes and no
// agent ever leaves its own; with it (the default: crates and the door
// carve both meshes, the large one's holes wider) an agent a hole opens
// under is off its mesh until it has walked out, which it does within 2 s,
// and only there, within its radius and 1 m of the obstacle.
func TestTwoTypesStayOnTheirOwnMeshes(t *testing.T) {
	l := twoTypeDungeon(t)
	queries := make([]*query.Query, 2)
	for i := range queries {
		var err error
		queries[i], err = query.New(l.Types[i].Mesh, 64)
		require.NoError(t, err)
	}
	for _, script := range []bool{false, true} {
		config := DefaultConfig()
		config.Script = script
		s, err := NewTypes(demoTypes(l), config)
		require.NoError(t, err)
		start := s.Agents(nil)
		counts := [2]int{}
		for _, a := range start {
			counts[a.Type]++
			assert.Equal(t, scene.TypeHue(a.Type), a.Hue, "an agent in its type's colour")
		}
		assert.Equal(t, [2]int{27, 13}, counts, "two small agents to one large")
		require.Equal(t, float32(0.6), start[0].Radius)
		require.Equal(t, float32(1.8), start[2].Radius)

		offOwn, offNearObstacle := [2]int{}, [2]int{}
		longestOff := 0
		offFor := make([]int, len(start))
		smallOnlyTicks := 0
		walked := [2]float32{}
		previous := start
		for tick := 0; tick < 10*30; tick++ {
			require.NoError(t, s.Step(1.0/30))
			agents := s.Agents(nil)
			for i, a := range agents {
				if onMesh(t, queries[a.Type], a.Position) {
					offFor[i] = 0
				} else {
					offOwn[a.Type]++
					offFor[i]++
					longestOff = max(longestOff, offFor[i])
					if inHole(t, s, a.Position, a.Radius+1) {
						offNearObstacle[a.Type]++
					}
				}
				if a.Type == 0 && !onMesh(t, queries[1], a.Position) {
					smallOnlyTicks++
				}
				walked[a.Type] += geom.Dist2D(a.Position, previous[i].Position)
			}
			previous = agents
		}
		if script {
			assert.Equal(t, offOwn, offNearObstacle, "off their own mesh only in an obstacle's hole")
			assert.LessOrEqual(t, longestOff, 2*30, "out of a hole within 2 s")
			for i, a := range previous {
				assert.True(t, onMesh(t, queries[a.Type], a.Position), "agent %d of type %d on its mesh at the end", i, a.Type)
			}
		} else {
			assert.Zero(t, offOwn[0], "small agents off the small mesh")
			assert.Zero(t, offOwn[1], "large agents off the large mesh")
		}
		assert.Greater(t, smallOnlyTicks, 100, "small agents walk where the large mesh is not")
		mean := [2]float32{walked[0] / 27, walked[1] / 13}
		assert.Greater(t, mean[1], float32(8), "the large agents walk")
		assert.Greater(t, mean[0], mean[1], "the small agents walk faster")
		t.Logf("script %v: off their own mesh %v agent-ticks (longest %d ticks), small agents where the large mesh is not %d, mean walked %v m",
			script, offOwn, longestOff, smallOnlyTicks, mean)

		stats := s.Stats()
		require.Len(t, stats.Types, 2)
		assert.Equal(t, TypeStats{Name: "small", Radius: 0.6, Agents: 27, Arrivals: stats.Types[0].Arrivals}, stats.Types[0])
		assert.Equal(t, "large", stats.Types[1].Name)
		assert.Equal(t, stats.Arrivals, stats.Types[0].Arrivals+stats.Types[1].Arrivals)
		assert.Positive(t, stats.Types[0].Arrivals)
	}
}

// towerTop is a spot on the top floor of the dungeon's tower, which only
// the small agents' mesh has (level.TestLargeMeshLacksTheTowerRamp), and
// towerCorner one at its far corner: the large mesh has no polygon within
// the crowd's placement box (3.6 m across, 2.7 m up and down) of it.
var (
	towerTop    = geom.Vec3{20.1, 19.25, -80.8}
	towerCorner = geom.Vec3{18.5, 20.32, -81.04}
)

// TestGatherAndSpawnWithTwoTypes: a target every type's mesh has sends
// every agent there, each to its own mesh's point; one on the tower's top
// floor sends the small agents and stops the large ones; an agent added
// where the large mesh is not is small whatever its turn, and one added
// in a wide room follows the turns.
func TestGatherAndSpawnWithTwoTypes(t *testing.T) {
	l := twoTypeDungeon(t)
	config := DefaultConfig()
	config.Agents, config.Script = 6, false
	s, err := NewTypes(demoTypes(l), config)
	require.NoError(t, err)

	room := geom.Vec3{42.7, 10.2, 4.4}
	require.NoError(t, s.SetTarget(room))
	for i, a := range s.Agents(nil) {
		assert.Less(t, geom.Dist(a.Target, room), float32(0.5), "agent %d of type %d", i, a.Type)
	}

	require.NoError(t, s.SetTarget(towerTop))
	run(t, s, 0.1)
	for i, a := range s.Agents(nil) {
		if a.Type == 0 {
			assert.True(t, a.HasTarget, "small agent %d goes up", i)
			assert.Less(t, geom.Dist(a.Target, towerTop), float32(0.5))
		} else {
			assert.False(t, a.HasTarget, "large agent %d stops", i)
		}
	}

	// Agents 6, 7 and 8 are small, small, large in turn; the last is
	// small too in the tower's corner.
	for range 3 {
		require.NoError(t, s.Spawn(towerCorner))
	}
	agents := s.Agents(nil)
	require.Len(t, agents, 9)
	for _, a := range agents[6:] {
		assert.Zero(t, a.Type)
	}
	require.NoError(t, s.Spawn(room)) // agent 9: small
	require.NoError(t, s.Spawn(room)) // 10: small
	require.NoError(t, s.Spawn(room)) // 11: large
	agents = s.Agents(nil)
	assert.Equal(t, []int{0, 0, 1}, []int{agents[9].Type, agents[10].Type, agents[11].Type})
	assert.Equal(t, 3, s.Stats().Types[1].Agents)

	s.Wander()
	for i, a := range s.Agents(nil) {
		assert.True(t, a.HasTarget, "agent %d wanders again", i)
	}
}

func TestAgentTypesAreChecked(t *testing.T) {
	l := dungeon(t)
	good := func() []AgentType {
		return []AgentType{SmallType(l.Mesh, nil), DefaultLargeType(l.Mesh, nil)}
	}
	_, err := NewTypes(good(), DefaultConfig())
	require.NoError(t, err)
	cached := cachedDungeon(t)
	for name, change := range map[string]func([]AgentType) []AgentType{
		"none":       func([]AgentType) []AgentType { return nil },
		"same names": func(ts []AgentType) []AgentType { ts[1].Name = ts[0].Name; return ts },
		"empty name": func(ts []AgentType) []AgentType { ts[1].Name = ""; return ts },
		"no mesh":    func(ts []AgentType) []AgentType { ts[1].Mesh = nil; return ts },
		"one cache":  func(ts []AgentType) []AgentType { ts[0].TileCache = cached.Cache; return ts },
		"zero share": func(ts []AgentType) []AgentType { ts[1].Share = 0; return ts },
		"huge share": func(ts []AgentType) []AgentType { ts[1].Share = maxShare + 1; return ts },
		"no radius":  func(ts []AgentType) []AgentType { ts[1].Radius = 0; return ts },
		"no speed":   func(ts []AgentType) []AgentType { ts[0].MaxSpeed = -1; return ts },
		"too many":   func(ts []AgentType) []AgentType { return make([]AgentType, 17) },
	} {
		_, err := NewTypes(change(good()), DefaultConfig())
		assert.Error(t, err, name)
	}
}

// TestWanderersPickTargetsTheyCanReach: with the door shut and the crates
// down (whose holes in the large mesh shut corridors the small agents still
// pass), the targets Wander gives every agent are ones it can reach on its
// own mesh as it is now: after the replans no agent's path is partial.
func TestWanderersPickTargetsTheyCanReach(t *testing.T) {
	l := twoTypeDungeon(t)
	s, err := NewTypes(demoTypes(l), DefaultConfig())
	require.NoError(t, err)
	run(t, s, 5)
	require.True(t, s.DoorClosed())
	s.Wander()
	run(t, s, 0.5)
	partial := [2]int{}
	states := generic.NewMap[components.AgentState](&s.world)
	for _, e := range s.agents {
		if states.Get(e).Partial {
			partial[s.paramsMap.Get(e).Type]++
		}
	}
	assert.Equal(t, [2]int{}, partial, "agents of each type with a partial path")
}

// cutPairs counts, of 200 seeded pairs of random points of the large
// type's mesh (as baked), those that each type's mesh as it is now joins
// by no complete path.
func cutPairs(t *testing.T, s *Sim) [2]int {
	t.Helper()
	rng := newRandom(99)
	var cut [2]int
	var path [maxSearchPath]navmesh.Ref
	for range 200 {
		a, err := s.types[1].spawns.RandomPoint(rng.Float32)
		require.NoError(t, err)
		b, err := s.types[1].spawns.RandomPoint(rng.Float32)
		require.NoError(t, err)
		for i := range s.types {
			q := s.types[i].query
			from, err := q.FindNearestPoly(a.Pos, nearestExtents, s.filter)
			require.NoError(t, err)
			to, err := q.FindNearestPoly(b.Pos, nearestExtents, s.filter)
			require.NoError(t, err)
			if from.Ref == 0 || to.Ref == 0 {
				cut[i]++
				continue
			}
			_, status, err := q.FindPath(from.Ref, to.Ref, from.Point, to.Point, s.filter, path[:])
			require.NoError(t, err)
			if status.Partial() {
				cut[i]++
			}
		}
	}
	return cut
}

// TestCratesShutCorridorsToTheLargeAgents: the script's crates carve both
// meshes, the large one's holes grown by its radius; once they have landed
// most pairs of places on the large mesh are cut apart there, none on the
// small mesh, whose agents walk round the crates. Wanderers whose path
// turns partial get a new target at once: no agent's path stays partial
// for more than a few ticks.
func TestCratesShutCorridorsToTheLargeAgents(t *testing.T) {
	l := twoTypeDungeon(t)
	s, err := NewTypes(demoTypes(l), DefaultConfig())
	require.NoError(t, err)
	assert.Equal(t, [2]int{}, cutPairs(t, s), "nothing cut before the crates")
	states := generic.NewMap[components.AgentState](&s.world)
	partialFor := make([]int, len(s.agents))
	longest := 0
	for tick := 1; tick <= 10*30; tick++ {
		require.NoError(t, s.Step(1.0/30))
		for i, e := range s.agents {
			if states.Get(e).Partial {
				partialFor[i]++
				longest = max(longest, partialFor[i])
			} else {
				partialFor[i] = 0
			}
		}
		if tick == 75 { // 2.5 s: the crates have carved, the door is open
			cut := cutPairs(t, s)
			assert.Zero(t, cut[0], "pairs the small mesh cuts")
			assert.Greater(t, cut[1], 50, "pairs the large mesh cuts")
			t.Logf("at 2.5 s of 200 pairs of places the small mesh cuts %d, the large %d", cut[0], cut[1])
		}
	}
	assert.LessOrEqual(t, longest, 10, "ticks an agent's path stays partial")
}

// TestTwoTypesSameSeedSameRun: with two types (and the script) the same
// seed gives the same positions to the bit, with one worker or two; another
// seed another run.
func TestTwoTypesSameSeedSameRun(t *testing.T) {
	positions := func(seed uint64, workers int) []geom.Vec3 {
		// Each run on a fresh bake: the script's obstacles carve the caches.
		fresh := twoTypeDungeon(t)
		config := DefaultConfig()
		config.Seed, config.Workers = seed, workers
		s, err := NewTypes(demoTypes(fresh), config)
		require.NoError(t, err)
		run(t, s, 4)
		var out []geom.Vec3
		for _, a := range s.Agents(nil) {
			out = append(out, a.Position)
		}
		return out
	}
	one := positions(7, 1)
	assert.Equal(t, one, positions(7, 2))
	assert.NotEqual(t, one, positions(8, 1))
}
