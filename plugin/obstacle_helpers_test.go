package plugin

import (
	"encoding/csv"
	"maps"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// The tile cache of dungeon, RecastDemo's file, and its obstacle sets.
const (
	dungeonTSETPath          = "../navcore/tilecache/testdata/tc48_dungeon.tset"
	dungeonObstaclesPath     = "../navcore/tilecache/testdata/tc48_dungeon_obstacles.csv"
	dungeonMovedObstaclePath = "../navcore/tilecache/testdata/tc48_dungeon_obstacles_moved.csv"
)

// loadDungeonCache returns the tile cache of dungeon with every tile
// built.
func loadDungeonCache(tb testing.TB) *tilecache.Cache {
	tb.Helper()
	file, err := os.ReadFile(dungeonTSETPath)
	require.NoError(tb, err)
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	require.NoError(tb, err)
	for done := false; !done; {
		done, err = cache.Update(tilecache.Budget{})
		require.NoError(tb, err)
	}
	return cache
}

// placedObstacle is an obstacle of a CSV state: its id, shape and pose.
type placedObstacle struct {
	id       int
	obstacle components.Obstacle
	pose     components.ObstaclePose
}

// readObstacleState reads a state of the tile cache reference (columns
// id,type,x,y,z,x2,y2,z2,radius,height,yaw) as carving obstacles: a box
// from its bounds, an oriented box from its centre and half extents.
func readObstacleState(tb testing.TB, path string) []placedObstacle {
	tb.Helper()
	f, err := os.Open(path)
	require.NoError(tb, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(tb, err)
	var out []placedObstacle
	for _, row := range rows[1:] {
		num := func(i int) float32 {
			v, err := strconv.ParseFloat(row[i], 32)
			require.NoError(tb, err)
			return float32(v)
		}
		id, err := strconv.Atoi(row[0])
		require.NoError(tb, err)
		p := placedObstacle{id: id}
		switch row[1] {
		case "cylinder":
			p.obstacle = components.CylinderObstacle(num(8), num(9))
			p.pose.Position = geom.Vec3{num(2), num(3), num(4)}
		case "box":
			p.obstacle = components.BoxObstacle((num(5)-num(2))/2, (num(7)-num(4))/2, num(6)-num(3))
			p.pose.Position = geom.Vec3{(num(2) + num(5)) / 2, num(3), (num(4) + num(7)) / 2}
		case "orientedbox":
			p.obstacle = components.OrientedBoxObstacle(num(5), num(7), 2*num(6))
			p.pose = components.ObstaclePose{Position: geom.Vec3{num(2), num(3) - num(6), num(4)}, Yaw: num(10)}
		default:
			tb.Fatalf("%s: unknown obstacle type %q", path, row[1])
		}
		p.obstacle = p.obstacle.Carving()
		out = append(out, p)
	}
	return out
}

// obstacleRun is a crowd on a tile cache with obstacles that change at
// given ticks, and the checks of the tile cache issue, tick by tick.
type obstacleRun struct {
	*crowdFixture
	cache   *tilecache.Cache
	q       *query.Query
	filter  query.Filter
	entries map[int]ecs.Entity // obstacle id → entity
	// landedAt is the tick each obstacle's carve landed, -1 while not.
	landedAt map[ecs.Entity]int
	tick     int
	last     []geom.Vec3

	offMesh, wallPenetrations, obstacleAgentTicks, events int
	maxStep                                               float32
	maxStepAgent, maxStepTick                             int
	trace                                                 func(agent int, obstacle ecs.Entity, info AgentInfo, distance float32)
	// targetBlocked marks agents whose target lay in an obstacle's grown
	// footprint at some tick.
	targetBlocked []bool
}

func newObstacleRun(tb testing.TB, cache *tilecache.Cache, agents int, seed uint64, config Config) *obstacleRun {
	tb.Helper()
	config.TileCache = cache
	f := newCrowd(tb, cache.Mesh(), agents, seed, config)
	q, err := query.New(cache.Mesh(), 2048)
	require.NoError(tb, err)
	r := &obstacleRun{crowdFixture: f, cache: cache, q: q, filter: components.DefaultFilter(),
		entries: map[int]ecs.Entity{}, landedAt: map[ecs.Entity]int{}, targetBlocked: make([]bool, agents)}
	r.last = f.positions(tb)
	return r
}

// apply makes the obstacle entities state's set: ids kept are moved, ids
// gone removed, new ids spawned.
func (r *obstacleRun) apply(tb testing.TB, state []placedObstacle) {
	tb.Helper()
	keep := map[int]bool{}
	for _, o := range state {
		keep[o.id] = true
		if e, ok := r.entries[o.id]; ok {
			info, err := r.plugin.Obstacle(r.world, e)
			require.NoError(tb, err)
			if info.Pose != o.pose || info.Obstacle != o.obstacle {
				require.NoError(tb, r.plugin.SetObstacle(r.world, e, o.obstacle))
				require.NoError(tb, r.plugin.SetObstaclePose(r.world, e, o.pose))
				delete(r.landedAt, e)
			}
			continue
		}
		e, err := r.plugin.SpawnObstacle(r.world, o.pose, o.obstacle)
		require.NoError(tb, err)
		r.entries[o.id] = e
	}
	// Removed in id order: the order of the changes decides which tiles a
	// tick's budget rebuilds first.
	for _, id := range slices.Sorted(maps.Keys(r.entries)) {
		if e := r.entries[id]; !keep[id] {
			require.NoError(tb, r.plugin.RemoveObstacle(r.world, e))
			delete(r.entries, id)
			delete(r.landedAt, e)
		}
	}
}

// step runs one tick and checks it.
func (r *obstacleRun) step(tb testing.TB) {
	tb.Helper()
	require.NoError(tb, r.plugin.Step(r.world, 1.0/60))
	for _, ev := range r.plugin.Events(r.world) {
		if ev.Kind == components.EventObstacleLanded {
			r.landedAt[ev.Entity] = r.tick
		}
		if ev.Kind >= components.EventGroundLost {
			r.events++
		}
	}
	ids := slices.Sorted(maps.Keys(r.entries))
	for i, e := range r.agents {
		info, err := r.plugin.State(r.world, e)
		require.NoError(tb, err)
		if d := geom.Dist2D(info.Position, r.last[i]); d > r.maxStep {
			r.maxStep, r.maxStepAgent, r.maxStepTick = d, i, r.tick
		}
		r.last[i] = info.Position
		if info.Mode != components.AgentWalking && info.Mode != components.AgentReturning {
			continue
		}
		if info.Mode == components.AgentWalking {
			if !r.onMesh(info.Position) {
				r.offMesh++
			}
			if closest, _, err := r.q.ClosestPointOnPoly(info.Poly, info.Position); err != nil || geom.Dist2D(closest, info.Position) > 0.01 {
				r.wallPenetrations++
			}
		}
		for _, id := range ids {
			oe := r.entries[id]
			o, err := r.plugin.Obstacle(r.world, oe)
			require.NoError(tb, err)
			f := o.Obstacle.Footprint(o.Pose)
			grown := components.DefaultAgentParams().Radius - traceSlack
			if at, ok := r.landedAt[oe]; ok && info.Mode == components.AgentWalking && r.tick >= at+60 && inFootprint(&f, info.Position, grown) {
				r.obstacleAgentTicks++
				if r.trace != nil {
					d, _, _ := f.Distance(info.Position[0], info.Position[2])
					r.trace(i, oe, info, d)
				}
			}
			if inFootprint(&f, r.targets[i], components.DefaultAgentParams().Radius) {
				r.targetBlocked[i] = true
			}
		}
	}
	r.tick++
}

// traceSlack is the slack of the obstacle agent-tick count.
var traceSlack = float32(0.1)

// inFootprint reports whether pos lies in f grown by grow, on its floor.
func inFootprint(f *components.Footprint, pos geom.Vec3, grow float32) bool {
	if pos[1] < f.MinY-1 || pos[1] > f.MaxY {
		return false
	}
	d, _, _ := f.Distance(pos[0], pos[2])
	return d < grow
}

// onMesh reports whether a polygon lies under pos within 1 cm (xz).
func (r *obstacleRun) onMesh(pos geom.Vec3) bool {
	nearest, err := r.q.FindNearestPoly(pos, geom.Vec3{0.1, 0.5, 0.1}, &r.filter)
	return err == nil && nearest.Ref != 0 && geom.Dist2D(nearest.Point, pos) <= 0.01
}

// invalid counts the invalid agents.
func (r *obstacleRun) invalid(tb testing.TB) int {
	n := 0
	for _, e := range r.agents {
		info, err := r.plugin.State(r.world, e)
		require.NoError(tb, err)
		if info.Mode == components.AgentInvalid {
			n++
		}
	}
	return n
}
