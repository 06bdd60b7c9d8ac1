package plugin

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// The save harness: a crowd run without a break (A) and the same crowd
// saved at a tick, restored (into a fresh world from the saved bytes, or
// into the same world from a snapshot after running on) and continued (B)
// must agree on every component of every agent and obstacle at every tick.
// The level is a tile cache per agent type (two radii) with the bake's
// automatic links; carving and area obstacles land before and after the
// save; runtime link entities (auto and manual, with and without a
// capacity, one wide) are spawned, moved and removed before and after it,
// agents queue at them, cross them and are held on them (some with their
// own AgentLinkTraversal) while the game moves, lets off and cancels the
// held ones; the path queue plans on the hierarchy.

// harnessRadii are the two agent types' radii.
var harnessRadii = [2]float32{0.5, 0.9}

// harnessLevel is a level baked for the harness: per agent type, its
// layers and the mesh process that adds its links.
type harnessLevel struct {
	name      string
	layers    []*bake.TileCacheResult
	processes []*tilecache.RecastDemoProcess
	links     int
}

var (
	harnessLevelsMu sync.Mutex
	harnessLevels   = map[string]*harnessLevel{}
)

// bakeHarnessLevel bakes ../testdata/<name>.obj for the harness once per
// test binary.
func bakeHarnessLevel(tb testing.TB, name string) *harnessLevel {
	tb.Helper()
	harnessLevelsMu.Lock()
	defer harnessLevelsMu.Unlock()
	if l := harnessLevels[name]; l != nil {
		return l
	}
	g, err := bake.LoadOBJ("../testdata/" + name + ".obj")
	require.NoError(tb, err)
	types := make([]bake.AgentType, len(harnessRadii))
	for t, r := range harnessRadii {
		s := bake.DefaultSettings()
		s.AgentRadius = r
		s.TileSize = 48
		types[t] = bake.AgentType{Name: []string{"small", "large"}[t], Settings: s}
	}
	result, err := bake.TileCacheTypes(context.Background(), g, types, bake.TileCacheOptions{})
	require.NoError(tb, err)
	l := &harnessLevel{name: name, layers: result.Results}
	for t := range types {
		// Links placed on the tiles built without them, then given to the
		// mesh process of every later build.
		cache, mesh, err := result.Results[t].Cache(tilecache.Options{})
		require.NoError(tb, err)
		_, err = cache.Update(tilecache.Budget{})
		require.NoError(tb, err)
		s := types[t].Settings
		s.Links = bake.DefaultLinkSettings()
		baker, err := bake.NewTileBaker(g, s, bake.TiledOptions{TileSize: 48})
		require.NoError(tb, err)
		links, err := baker.PlaceLinks(context.Background(), mesh, 0)
		require.NoError(tb, err)
		l.links += len(links)
		l.processes = append(l.processes, &tilecache.RecastDemoProcess{OffMeshConnections: bake.ConnectionParams(links)})
	}
	harnessLevels[name] = l
	return l
}

// config returns a crowd configuration on freshly built caches of the
// level, as a game makes it when it loads the level.
func (l *harnessLevel) config(tb testing.TB, workers, maxAgents int) Config {
	tb.Helper()
	config := Config{MaxAgentRadius: harnessRadii[1], MaxAgents: maxAgents, Workers: workers, HierarchicalPaths: On}
	for t, layers := range l.layers {
		cache, _, err := layers.Cache(tilecache.Options{Process: l.processes[t]})
		require.NoError(tb, err)
		for done := false; !done; {
			done, err = cache.Update(tilecache.Budget{})
			require.NoError(tb, err)
		}
		config.AgentTypes = append(config.AgentTypes, AgentTypeConfig{Name: []string{"small", "large"}[t], TileCache: cache})
	}
	return config
}

// harnessRun is one world of the harness and the scripted inputs it
// gets.
type harnessRun struct {
	world     *ecs.World
	plugin    *Plugin
	agents    []ecs.Entity // by spawn order
	obstacles []ecs.Entity // by spawn order
	links     []ecs.Entity // runtime link entities, by spawn order
	script    *harnessScript
	tick      int
	// staleSaves counts the saves with a hierarchical search begun on an
	// older snapshot.
	staleSaves int
}

// harnessScript is what happens to the crowd, tick by tick: random trips,
// new targets for a tenth of the agents every 120 ticks, obstacles that
// carve and mark areas, spawned, moved and removed at given ticks.
type harnessScript struct {
	level           *harnessLevel
	agents, workers int
	starts, targets []geom.Vec3
	types           []uint8
	retargets       [][]geom.Vec3 // per retarget round, per agent
	spots           []geom.Vec3   // obstacle places
	// linkers are agents sent over the level's links again and again:
	// every 120 ticks each is put at its link's start and sent past its
	// end.
	linkers   []int
	linkStart []geom.Vec3
	linkEnd   []geom.Vec3
	// runtime are the runtime links spawned at tick 10 (all but the last)
	// and 240 (the last); moved is link 0 as SetLink makes it at tick 200.
	runtime []components.Link
	moved   components.Link
	// riders are agents sent over the runtime links every 120 ticks:
	// riders[k] over runtime[riderLink[k]].
	riders    []int
	riderLink []int
}

// Agents with their own AgentLinkTraversal: harnessManualRider crosses
// every link held (from tick 5), harnessAutoRider crosses the manual link
// as an auto one from tick 5 to 160.
const (
	harnessManualRider = 9
	harnessAutoRider   = 10
)

// newHarnessScript draws the trips of n agents on the level, a third of
// them large.
func newHarnessScript(tb testing.TB, level *harnessLevel, n, workers int, ticks int, seed uint64) *harnessScript {
	tb.Helper()
	s := &harnessScript{level: level, agents: n, workers: workers}
	config := level.config(tb, 1, n)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	random := func() float32 { return rng.Float32() }
	queries := make([]*query.Query, len(config.AgentTypes))
	filter := components.DefaultFilter()
	for t := range config.AgentTypes {
		var err error
		queries[t], err = query.New(config.AgentTypes[t].TileCache.Mesh(), 2048)
		require.NoError(tb, err)
	}
	point := func(t uint8) geom.Vec3 {
		p, err := queries[t].FindRandomPoint(&filter, random)
		require.NoError(tb, err)
		return p.Pos
	}
	for i := range n {
		t := uint8(0)
		if i%3 == 2 {
			t = 1
		}
		s.types = append(s.types, t)
		s.starts = append(s.starts, point(t))
		s.targets = append(s.targets, point(t))
	}
	for range ticks/120 + 1 {
		round := make([]geom.Vec3, n)
		for i := range round {
			round[i] = point(s.types[i])
		}
		s.retargets = append(s.retargets, round)
	}
	for range 8 {
		s.spots = append(s.spots, point(1))
	}
	// The last agents of each type go over the type's links.
	next := n - 1
	for t, process := range level.processes {
		for k, link := range process.OffMeshConnections {
			if k >= 4 || next < 0 {
				break
			}
			for next >= 0 && s.types[next] != uint8(t) {
				next--
			}
			if next < 0 {
				break
			}
			s.linkers = append(s.linkers, next)
			s.linkStart = append(s.linkStart, link.Start)
			s.linkEnd = append(s.linkEnd, link.End)
			s.starts[next], s.targets[next] = link.Start, link.End
			next--
		}
	}
	// Runtime links between far points, cheap enough that the crowd's
	// paths take them: auto without a limit, manual one at a time, a wide
	// auto one at a time for the small agents only, and one spawned after
	// the first saves.
	link := func(traversal components.LinkTraversal, capacity, types uint16, width float32) components.Link {
		return components.Link{
			Start: point(0), End: point(0), Radius: 1, Width: width, Bidirectional: true, Cost: 0.05,
			Traversal: traversal, Capacity: capacity, AgentTypes: types, UserID: uint32(len(s.runtime)),
		}
	}
	s.runtime = []components.Link{
		link(components.LinkAuto, 0, 0, 0),
		link(components.LinkManual, 1, 0, 0),
		link(components.LinkAuto, 1, 1, 1.5),
		link(components.LinkAuto, 2, 0, 0),
	}
	s.moved = s.runtime[0]
	s.moved.End = point(0)
	for k, i := range []int{0, 1, 3, 4, 6, 7, harnessManualRider, harnessAutoRider} {
		if i < n && !slices.Contains(s.linkers, i) {
			s.riders = append(s.riders, i)
			s.riderLink = append(s.riderLink, min(k/2, 2))
		}
	}
	return s
}

// start makes the world of a run at tick 0: the agents spawned and sent
// to their targets.
func (s *harnessScript) start(tb testing.TB) *harnessRun {
	tb.Helper()
	r := s.world(tb)
	specs := make([]AgentSpec, s.agents)
	for i := range specs {
		params := components.AgentParamsForRadius(harnessRadii[s.types[i]])
		params.Type = s.types[i]
		specs[i] = AgentSpec{Position: s.starts[i], Params: params}
	}
	var err error
	r.agents, err = r.plugin.SpawnBatch(r.world, specs, nil)
	require.NoError(tb, err)
	for i, e := range r.agents {
		require.NoError(tb, r.plugin.RequestMoveTarget(r.world, e, s.targets[i]))
	}
	return r
}

// world returns a fresh world with the level loaded and the crowd
// installed, no agents.
func (s *harnessScript) world(tb testing.TB) *harnessRun {
	tb.Helper()
	p, err := New(s.level.config(tb, s.workers, s.agents))
	require.NoError(tb, err)
	world := ecs.NewWorld()
	require.NoError(tb, p.Install(&world))
	return &harnessRun{world: &world, plugin: p, script: s}
}

// inputs applies the script's inputs of tick r.tick (before that tick
// runs).
func (r *harnessRun) inputs(tb testing.TB) {
	tb.Helper()
	s, p, w := r.script, r.plugin, r.world
	spot := func(k int) components.ObstaclePose {
		return components.ObstaclePose{Position: s.spots[k%len(s.spots)], Yaw: 0.3 * float32(k)}
	}
	switch r.tick {
	case 20, 140:
		k := len(r.obstacles)
		for _, o := range []components.Obstacle{
			components.CylinderObstacle(1, 2).Carving(),
			components.OrientedBoxObstacle(1.5, 0.6, 2).Carving(),
			components.BoxObstacle(1.2, 1.2, 2).MarkingArea(navmesh.AreaDoor),
			components.CylinderObstacle(0.7, 2),
		} {
			e, err := p.SpawnObstacle(w, spot(k), o)
			require.NoError(tb, err)
			r.obstacles = append(r.obstacles, e)
			k++
		}
	case 190:
		require.NoError(tb, p.SetObstaclePose(w, r.obstacles[0], spot(5)))
	case 260:
		require.NoError(tb, p.RemoveObstacle(w, r.obstacles[1]))
	case 300:
		require.NoError(tb, p.SetObstacle(w, r.obstacles[2], components.BoxObstacle(1.2, 1.2, 2).Carving()))
	}
	r.linkInputs(tb)
	if r.tick%120 == 60 {
		for k, i := range s.linkers {
			// An obstacle may have carved the link's end away: the same in
			// every run.
			offMesh(tb, p.Teleport(w, r.agents[i], s.linkStart[k]))
			offMesh(tb, p.RequestMoveTarget(w, r.agents[i], s.linkEnd[k]))
		}
	}
	if r.tick > 0 && r.tick%120 == 0 {
		round := s.retargets[r.tick/120]
		for i, e := range r.agents {
			if (i+r.tick/120)%10 == 0 {
				offMesh(tb, p.RequestMoveTarget(w, e, round[i]))
			}
		}
	}
}

// linkInputs applies the script's runtime link inputs of tick r.tick:
// links spawned, moved and removed, riders sent over them, the held ones
// moved, let off or sent back by the game.
func (r *harnessRun) linkInputs(tb testing.TB) {
	tb.Helper()
	s, p, w := r.script, r.plugin, r.world
	spawn := func(links ...components.Link) {
		for _, l := range links {
			e, err := p.SpawnLink(w, l)
			require.NoError(tb, err)
			r.links = append(r.links, e)
		}
	}
	agent := func(i int) (ecs.Entity, bool) { return r.agents[i], i < len(r.agents) }
	switch r.tick {
	case 5:
		if e, ok := agent(harnessManualRider); ok {
			require.NoError(tb, p.SetAgentLinkTraversal(w, e, components.LinkManual))
		}
		if e, ok := agent(harnessAutoRider); ok {
			require.NoError(tb, p.SetAgentLinkTraversal(w, e, components.LinkAuto))
		}
	case 10:
		spawn(s.runtime[:len(s.runtime)-1]...)
	case 160:
		if e, ok := agent(harnessAutoRider); ok {
			require.NoError(tb, p.ClearAgentLinkTraversal(w, e))
		}
	case 200:
		require.NoError(tb, p.SetLink(w, r.links[0], s.moved))
	case 240:
		spawn(s.runtime[len(s.runtime)-1])
	case 300:
		require.NoError(tb, p.RemoveLink(w, r.links[2]))
	}
	if r.tick%120 == 90 && len(r.links) >= 3 {
		for k, i := range s.riders {
			l := s.runtime[s.riderLink[k]]
			if s.riderLink[k] == 0 && r.tick > 200 {
				l = s.moved
			}
			offMesh(tb, p.Teleport(w, r.agents[i], l.Start))
			offMesh(tb, p.RequestMoveTarget(w, r.agents[i], l.End))
		}
	}
	// The game moves the agents held on links, and lets them off or sends
	// them back, looking only at the world.
	if r.tick%10 != 0 {
		return
	}
	for _, e := range r.agents {
		ride, ok, err := p.AgentLink(w, e)
		require.NoError(tb, err)
		if !ok || ride.Phase != components.LinkHeld {
			continue
		}
		switch {
		case r.tick%20 == 10:
			mid := geom.Vec3{(ride.Start[0] + ride.End[0]) / 2, (ride.Start[1] + ride.End[1]) / 2, (ride.Start[2] + ride.End[2]) / 2}
			require.NoError(tb, p.MoveOnLink(w, e, mid))
		case (r.tick/20)%5 == 4:
			offMesh(tb, p.CancelLink(w, e))
		default:
			require.NoError(tb, p.CompleteLink(w, e))
		}
	}
}

// offMesh fails tb for any error but ErrOffMesh: a point an obstacle
// carved away is refused, alike in every run.
func offMesh(tb testing.TB, err error) {
	tb.Helper()
	if !errors.Is(err, ErrOffMesh) {
		require.NoError(tb, err)
	}
}

// step applies the tick's inputs and runs it.
func (r *harnessRun) step(tb testing.TB) {
	tb.Helper()
	r.inputs(tb)
	require.NoError(tb, r.plugin.Step(r.world, 1.0/60))
	r.tick++
}

// harnessHashes are a run's state after each tick: one hash of every
// agent's components (entities as spawn indices) and the obstacles'.
type harnessHashes struct {
	agents    [][]uint64 // per tick, per agent in the crowd's order
	obstacles []uint64   // per tick
	links     []uint64   // per tick: the link entities and LinkTraffic
}

// fingerprint hashes the state of r after its last tick: each agent's,
// the obstacles' and the runtime links' (link entities, LinkTraffic).
func (r *harnessRun) fingerprint(tb testing.TB) ([]uint64, uint64, uint64) {
	tb.Helper()
	index := make(map[ecs.Entity]uint32, len(r.agents))
	for i, e := range r.agents {
		index[e] = uint32(i)
	}
	indexOf := func(e ecs.Entity) (uint32, bool) {
		i, ok := index[e]
		return i, ok
	}
	agentFilter, obstacleFilter := r.plugin.snapshotFilters()
	var out []uint64
	var buf []byte
	q := agentFilter.Query(r.world)
	mesh := r.plugin.types
	for q.Next() {
		params, position, velocity, state, corridor, target, boundary, neighbours, corners, animation := q.Get()
		i, _ := indexOf(q.Entity())
		buf = binary.LittleEndian.AppendUint32(buf[:0], i)
		buf = params.AppendState(buf)
		buf = position.AppendState(buf)
		buf = velocity.AppendState(buf)
		buf = state.AppendState(buf)
		var cs crowd.CorridorState
		path := corridor.CaptureState(&cs, nil)
		m := mesh[params.Type].mesh
		buf = cs.AppendState(buf, path, m, m.Snapshot().Version())
		buf = target.AppendState(buf)
		buf = boundary.AppendState(buf)
		buf = neighbours.AppendState(buf, indexOf)
		buf = corners.AppendState(buf)
		buf = animation.AppendState(buf)
		buf = append(buf, r.plugin.overrideOf(r.world, q.Entity()))
		h := fnv.New64a()
		_, _ = h.Write(buf)
		out = append(out, h.Sum64())
	}
	h := fnv.New64a()
	oq := obstacleFilter.Query(r.world)
	for oq.Next() {
		shape, pose, state := oq.Get()
		buf = shape.AppendState(buf[:0])
		buf = pose.AppendState(buf)
		buf = state.AppendState(buf)
		_, _ = h.Write(buf)
	}
	return out, h.Sum64(), r.linkFingerprint()
}

// linkFingerprint hashes the link entities (as spawn indices) with their
// components, and the LinkTraffic resource.
func (r *harnessRun) linkFingerprint() uint64 {
	indexIn := func(list []ecs.Entity) components.EntityIndex {
		return func(e ecs.Entity) (uint32, bool) {
			i := slices.Index(list, e)
			return uint32(i), i >= 0
		}
	}
	links := indexIn(r.links)
	h := fnv.New64a()
	var buf []byte
	q := r.plugin.linkQuery.Query(r.world)
	for q.Next() {
		link, state := q.Get()
		i, _ := links(q.Entity())
		buf = binary.LittleEndian.AppendUint32(buf[:0], i)
		buf = link.AppendState(buf)
		buf = state.AppendState(buf)
		_, _ = h.Write(buf)
	}
	_, _ = h.Write(r.plugin.linkAPI.traffic.Get().AppendState(buf[:0], indexIn(r.agents), links))
	return h.Sum64()
}

// runTo steps r to tick end, recording the state of every tick into
// hashes when it is not nil.
func (r *harnessRun) runTo(tb testing.TB, end int, record *harnessHashes) {
	tb.Helper()
	for r.tick < end {
		r.step(tb)
		if record != nil {
			agents, obstacles, links := r.fingerprint(tb)
			record.agents = append(record.agents, agents)
			record.obstacles = append(record.obstacles, obstacles)
			record.links = append(record.links, links)
		}
	}
}

// checkAgainst steps r to tick end and checks its state after every tick
// against want, the uninterrupted run's (want's entry k is tick k+1's).
func (r *harnessRun) checkAgainst(t *testing.T, want *harnessHashes, end int, what string) {
	t.Helper()
	for r.tick < end {
		r.step(t)
		agents, obstacles, links := r.fingerprint(t)
		k := r.tick - 1
		require.Len(t, agents, len(want.agents[k]), "%s: agents after tick %d", what, r.tick)
		for i := range agents {
			if agents[i] != want.agents[k][i] {
				t.Fatalf("%s: agent %d (in the crowd's order) differs after tick %d", what, i, r.tick)
			}
		}
		require.Equal(t, want.obstacles[k], obstacles, "%s: obstacles after tick %d", what, r.tick)
		require.Equal(t, want.links[k], links, "%s: runtime links after tick %d", what, r.tick)
	}
}

// remap follows the entities of a restore (a snapshot taken at tick, with
// counts spawned obstacles and link entities) and rewinds the run's tick
// count.
func (r *harnessRun) remap(tb testing.TB, m *EntityMap, tick int, counts [2]int) {
	tb.Helper()
	r.tick = tick
	r.obstacles = r.obstacles[:counts[0]]
	r.links = r.links[:counts[1]]
	if !m.Changed() {
		return
	}
	for _, list := range [][]ecs.Entity{r.agents, r.obstacles, r.links} {
		for i, old := range list {
			if e, ok := m.Entity(old); ok {
				list[i] = e
			}
		}
	}
}

// checkToStale steps r, checking it against want, from tick from on
// until it holds a hierarchical search begun on an older snapshot than
// the mesh's current one, at most to tick limit, and returns that tick
// (-1 when there was none).
func (r *harnessRun) checkToStale(t *testing.T, want *harnessHashes, from, limit int) int {
	t.Helper()
	r.checkAgainst(t, want, from, "the saving run")
	for r.tick < limit {
		before := r.staleSaves
		r.interesting()
		if r.staleSaves > before {
			return r.tick
		}
		r.checkAgainst(t, want, r.tick+1, "the saving run")
	}
	return -1
}

// counts returns the obstacles and link entities r spawned.
func (r *harnessRun) counts() [2]int { return [2]int{len(r.obstacles), len(r.links)} }

// rides counts the agents at runtime links, by phase (queued, crossing,
// held).
func (r *harnessRun) rides() (out [3]int) {
	for _, ride := range r.plugin.linkAPI.traffic.Get().Rides {
		out[ride.Phase-components.LinkQueued]++
	}
	return out
}

// interesting reports whether the crowd is in the middle of something a
// save must carry: a path search in progress in a queue and an agent
// crossing an off-mesh connection.
func (r *harnessRun) interesting() (searching, offMesh bool) {
	for t := range r.plugin.types {
		var st crowd.PathQueueState
		r.plugin.types[t].pathQueue.CaptureState(&st)
		if st.Searching() > 0 {
			searching = true
		}
		if st.StaleReplays() > 0 {
			r.staleSaves++
		}
	}
	agentFilter, _ := r.plugin.snapshotFilters()
	q := agentFilter.Query(r.world)
	for q.Next() {
		_, _, _, state, _, _, _, _, _, _ := q.Get()
		if state.Mode == components.AgentOffMesh {
			offMesh = true
		}
	}
	return searching, offMesh
}

// TestRewindContinuesToTheBit: snapshots taken at several ticks (one with
// searches in progress and an agent mid-jump), restored into the same
// world after it ran on, give exactly the ticks the uninterrupted run
// gave.
func TestRewindContinuesToTheBit(t *testing.T) {
	level := bakeHarnessLevel(t, "dungeon")
	const agents, ticks = 120, 420
	script := newHarnessScript(t, level, agents, 1, ticks, 3)
	var want harnessHashes
	a := script.start(t)
	a.runTo(t, ticks, &want)

	b := script.start(t)
	var snap Snapshot
	for _, saveAt := range []int{25, 130, 230, 329} {
		b.runTo(t, saveAt, nil)
		require.NoError(t, b.plugin.Snapshot(b.world, &snap))
		counts := b.counts()
		searching, offMesh := b.interesting()
		t.Logf("tick %d: searching %v, off-mesh %v, at runtime links (queued, crossing, held) %v", saveAt, searching, offMesh, b.rides())
		b.runTo(t, saveAt+37, nil)
		m, err := b.plugin.Restore(b.world, &snap)
		require.NoError(t, err)
		b.remap(t, m, saveAt, counts)
		b.checkAgainst(t, &want, saveAt+90, fmt.Sprintf("restored at %d", saveAt))
	}
}

// loadInto loads file, saved from run from at tick with counts spawned
// obstacles and link entities, into r and follows its entities.
func (r *harnessRun) loadInto(tb testing.TB, file []byte, from *harnessRun, tick int, counts [2]int) {
	tb.Helper()
	m, err := r.plugin.Load(r.world, bytes.NewReader(file))
	require.NoError(tb, err)
	r.agents = append([]ecs.Entity(nil), from.agents...)
	r.obstacles = append([]ecs.Entity(nil), from.obstacles[:counts[0]]...)
	r.links = append([]ecs.Entity(nil), from.links[:counts[1]]...)
	r.tick = tick
	for _, list := range [][]ecs.Entity{r.agents, r.obstacles, r.links} {
		for i, old := range list {
			if e, ok := m.Entity(old); ok {
				list[i] = e
			} else {
				list[i] = ecs.Entity{}
			}
		}
	}
}

// harnessCase is one configuration of the harness.
type harnessCase struct {
	level           string
	agents, workers int
	saves           []int // a negative one: the first tick from -save on with a stale search
	after           int   // ticks checked after each restore
}

// runSaveHarness runs c: the uninterrupted run, the run that saves (which
// must not change it), and from each save a fresh world loading the file
// and the saving world loading it again after running on.
func runSaveHarness(t *testing.T, c harnessCase) {
	level := bakeHarnessLevel(t, c.level)
	end := c.saves[len(c.saves)-1] + c.after
	script := newHarnessScript(t, level, c.agents, c.workers, end, 7)
	var want harnessHashes
	script.start(t).runTo(t, end, &want)

	saver := script.start(t)
	type save struct {
		tick   int
		counts [2]int
		file   []byte
	}
	var saves []save
	for _, at := range c.saves {
		if at < 0 {
			// The first tick from -at on with a hierarchical search begun
			// before the mesh changed.
			at = saver.checkToStale(t, &want, -at, end-c.after)
			require.Positive(t, at, "a tick with a search begun before the mesh changed")
		}
		saver.checkAgainst(t, &want, at, "the saving run")
		var file bytes.Buffer
		require.NoError(t, saver.plugin.Save(saver.world, &file))
		stale := saver.staleSaves
		searching, offMesh := saver.interesting()
		t.Logf("%s: saved at tick %d: %d bytes, searches in progress %v (one begun before the mesh changed: %v), agents off-mesh %v, at runtime links (queued, crossing, held) %v",
			c.level, at, file.Len(), searching, saver.staleSaves > stale, offMesh, saver.rides())
		saves = append(saves, save{at, saver.counts(), file.Bytes()})
	}
	for _, s := range saves {
		fresh := script.world(t)
		fresh.loadInto(t, s.file, saver, s.tick, s.counts)
		fresh.checkAgainst(t, &want, s.tick+c.after, fmt.Sprintf("%s: loaded from tick %d into a fresh world", c.level, s.tick))
	}
	// Into the same world, after it ran on.
	s := saves[0]
	same := script.start(t)
	same.runTo(t, s.tick+41, nil)
	same.loadInto(t, s.file, saver, s.tick, s.counts)
	same.checkAgainst(t, &want, s.tick+c.after, fmt.Sprintf("%s: loaded from tick %d into the same world", c.level, s.tick))
}

// TestSaveLoadContinuesToTheBit: crowds saved at several ticks (with
// searches in progress and agents mid-jump), loaded into a fresh world
// made from the level and into the world itself after it ran on, give
// exactly the ticks of the uninterrupted run.
func TestSaveLoadContinuesToTheBit(t *testing.T) {
	for _, c := range []harnessCase{
		{level: "dungeon", agents: 300, workers: 1, saves: []int{-15, 150, 262}, after: 240},
		{level: "nav_test", agents: 150, workers: 2, saves: []int{30, 200}, after: 240},
	} {
		t.Run(fmt.Sprintf("%s/workers=%d", c.level, c.workers), func(t *testing.T) { runSaveHarness(t, c) })
	}
}

// TestRollbackEveryEightTicks: a rollback loop as a netcode runs it (a
// snapshot every tick; every 8 ticks the one of 8 ticks before restored
// and the ticks simulated again) gives every tick of the uninterrupted
// run.
func TestRollbackEveryEightTicks(t *testing.T) {
	level := bakeHarnessLevel(t, "dungeon")
	const agents, ticks = 90, 240
	script := newHarnessScript(t, level, agents, 2, ticks, 5)
	var want harnessHashes
	script.start(t).runTo(t, ticks, &want)

	r := script.start(t)
	var ring [rewindTicks + 1]Snapshot
	counts := make([][2]int, len(ring))
	rolledBack := 0 // the last tick rolled back from
	for r.tick < ticks {
		slot := r.tick % len(ring)
		require.NoError(t, r.plugin.Snapshot(r.world, &ring[slot]))
		counts[slot] = r.counts()
		r.checkAgainst(t, &want, r.tick+1, "rollback loop")
		if r.tick%rewindTicks == 0 && r.tick > rolledBack {
			rolledBack = r.tick
			back := r.tick - rewindTicks
			m, err := r.plugin.Restore(r.world, &ring[back%len(ring)])
			require.NoError(t, err)
			r.remap(t, m, back, counts[back%len(ring)])
		}
	}
}

// rewindTicks is how far TestRollbackEveryEightTicks rolls back.
const rewindTicks = 8

// TestSaveLoadLong is the save harness at full size (ARCHENAV_LONG,
// race-free pass only): 500 agents on dungeon and nav_test, 1 and 2
// workers, saves at three ticks, 1800 ticks checked after each load.
func TestSaveLoadLong(t *testing.T) {
	longtest.SkipSoak(t)
	for _, c := range []harnessCase{
		{level: "dungeon", agents: 500, workers: 1, saves: []int{25, -150, 520}, after: 1800},
		{level: "dungeon", agents: 500, workers: 2, saves: []int{145}, after: 1800},
		{level: "nav_test", agents: 500, workers: 2, saves: []int{30, 300}, after: 1800},
		{level: "nav_test", agents: 500, workers: 1, saves: []int{200}, after: 1800},
	} {
		t.Run(fmt.Sprintf("%s/workers=%d", c.level, c.workers), func(t *testing.T) { runSaveHarness(t, c) })
	}
}
