package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// maxObstacleSpeed is the fastest an obstacle is taken to move: a pose
// that changed faster jumped, and its velocity counts as zero
// [Units: world units / s]
const maxObstacleSpeed = float32(30)

// ObstacleSync is the first stage: it keeps the tile cache in step with the
// obstacle entities (those with components.Obstacle, ObstaclePose and
// ObstacleState), runs the cache's Update within the tick's budget
// (Settings.ObstacleTilesPerTick and ObstacleTimePerTick; what is left goes
// on next tick) on the crowd's workers, and lists the obstacles the agents
// must avoid this tick (ObstacleBodies). The tile cache is the only writer
// of the navmesh during a tick, so every later stage sees one snapshot.
//
// A carving obstacle follows Unity's policy: it carves once it has stood
// still (within MoveThreshold) for StationaryTime, its hole goes when it
// moves, and it carves again at its new place once it stands still again;
// with CarveWhileMoving it carves at once and moves its hole whenever it
// has moved more than MoveThreshold. Its footprint grows by
// Settings.CarveInflation. An area obstacle is in the cache at once and
// follows moves beyond MoveThreshold. An obstacle whose entity is removed
// (or that lost one of its components) leaves the cache. While a carving
// obstacle's hole is not in the navmesh, and always for an ObstacleAvoided
// one, it is a body the agents avoid and are pushed out of.
//
// The cache refuses obstacles that touch no layer, and takes no more than
// its MaxObstacles; without a TileCache resource every obstacle that would
// change the navmesh is refused. A refused obstacle is avoided instead,
// and tried again once it has moved. The stage raises EventObstacleLanded
// when an obstacle's tiles are rebuilt and EventObstacleRefused, and fills
// the obstacle counts of Stats.
//
// With agent types (the AgentTypes resource), an obstacle carves (or marks)
// every type's tile cache, each footprint grown by its type's
// AgentType.CarveInflation; it has landed when every cache has rebuilt its
// tiles, and a cache that refuses it makes it refused in all.
//
// Resources: ObstacleBodies; optional TileCache, AgentTypes, Settings,
// TimeStep, Events, Stats, Workers.
type ObstacleSync struct {
	filter      *generic.Filter3[components.Obstacle, components.ObstaclePose, components.ObstacleState]
	cacheRes    generic.Resource[components.TileCache]
	bodiesRes   generic.Resource[components.ObstacleBodies]
	settingsRes generic.Resource[components.Settings]
	timeStepRes generic.Resource[components.TimeStep]
	eventsRes   generic.Resource[components.Events]
	statsRes    generic.Resource[components.Stats]
	workersRes  generic.Resource[Workers]
	queriesRes  generic.Resource[components.Queries]
	typesRes    generic.Resource[components.AgentTypes]

	// entries are the obstacles known to the stage, in the order they were
	// first seen; slots maps an entity ID to 1 + its entry's index.
	entries []obstacleEntry
	slots   []int32
	tick    uint64

	// Valid during an Update.
	cache *tilecache.Cache
	// more are the other agent types' tile caches, each with its carve
	// inflation.
	more     []extraCache
	settings components.Settings
	events   *components.Events
}

// obstacleEntry is what the stage keeps of one obstacle entity.
type obstacleEntry struct {
	entity ecs.Entity
	seen   uint64
	state  *components.ObstacleState // valid during an Update

	// fresh is set until the stage has tracked the entry once; valid
	// caches obstacle.Validate() == nil.
	fresh, valid bool
	obstacle     components.Obstacle
	pose         components.ObstaclePose
	// anchor is where it stood when it last counted as moving; still is
	// how long it has been within MoveThreshold of there.
	anchor   components.ObstaclePose
	still    float32
	velocity geom.Vec3

	// ref is its tile cache obstacle, 0 when none, made from cached at
	// cachedPose grown by cachedInflation and cachedDepth; landed is set
	// once its tiles are rebuilt.
	ref             tilecache.ObstacleRef
	cached          components.Obstacle
	cachedPose      components.ObstaclePose
	cachedInflation float32
	cachedDepth     float32
	landed          bool
	// more are its obstacles in the other agent types' caches
	// (ObstacleSync.more), valid while ref is not 0.
	more [components.MaxAgentTypes - 1]tilecache.ObstacleRef

	// refused is set while the cache refuses it, as refusedObstacle at
	// refusedPose.
	refused         bool
	refusedObstacle components.Obstacle
	refusedPose     components.ObstaclePose
}

// extraCache is the tile cache of an agent type after the first.
type extraCache struct {
	cache     *tilecache.Cache
	inflation float32
}

// Initialize prepares the stage for world.
func (s *ObstacleSync) Initialize(world *ecs.World) {
	s.filter = generic.NewFilter3[components.Obstacle, components.ObstaclePose, components.ObstacleState]()
	s.cacheRes = generic.NewResource[components.TileCache](world)
	s.bodiesRes = generic.NewResource[components.ObstacleBodies](world)
	s.settingsRes = generic.NewResource[components.Settings](world)
	s.timeStepRes = generic.NewResource[components.TimeStep](world)
	s.eventsRes = generic.NewResource[components.Events](world)
	s.statsRes = generic.NewResource[components.Stats](world)
	s.workersRes = generic.NewResource[Workers](world)
	s.queriesRes = generic.NewResource[components.Queries](world)
	s.typesRes = generic.NewResource[components.AgentTypes](world)
}

// Finalize does nothing.
func (s *ObstacleSync) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *ObstacleSync) Update(world *ecs.World) {
	dt := float32(1.0 / 60)
	if s.timeStepRes.Has() {
		dt = s.timeStepRes.Get().Dt
	}
	s.settings = components.DefaultSettings(0.6)
	if s.settingsRes.Has() {
		s.settings = *s.settingsRes.Get()
	}
	s.cache = nil
	if s.cacheRes.Has() {
		s.cache = s.cacheRes.Get().Cache
	}
	s.more = s.more[:0]
	if s.cache != nil && s.typesRes.Has() {
		list := s.typesRes.Get().List
		for i := 1; i < len(list) && i < components.MaxAgentTypes; i++ {
			if list[i].TileCache != nil {
				s.more = append(s.more, extraCache{list[i].TileCache, max(0, list[i].CarveInflation)})
			}
		}
	}
	s.events = nil
	if s.eventsRes.Has() {
		s.events = s.eventsRes.Get()
	}
	s.tick++

	q := s.filter.Query(world)
	for q.Next() {
		obstacle, pose, state := q.Get()
		e := &s.entries[s.entry(q.Entity())]
		e.state = state
		s.track(e, obstacle, pose, dt)
		s.syncCache(e, obstacle, pose)
	}
	s.dropUnseen()

	if s.cache != nil {
		var workers *Workers
		if s.workersRes.Has() {
			workers = s.workersRes.Get()
		}
		count := workers.Count()
		if s.queriesRes.Has() {
			count = min(count, max(1, len(s.queriesRes.Get().PerWorker)))
		}
		budget := tilecache.Budget{MaxTiles: s.settings.ObstacleTilesPerTick, MaxDuration: s.settings.ObstacleTimePerTick}
		// A layer that cannot be built keeps its old tile; nothing else to
		// do about it here.
		_, _ = s.cache.UpdateWith(budget, workers, count)
		for _, more := range s.more {
			_, _ = more.cache.UpdateWith(budget, workers, count)
		}
		s.noteLanded()
	}
	bodies := s.listBodies()
	if s.statsRes.Has() {
		stats := s.statsRes.Get()
		stats.Obstacles, stats.ObstacleBodies, stats.ObstacleTilesPending = len(s.entries), bodies, 0
		if s.cache != nil {
			stats.ObstacleTilesPending = s.cache.Pending()
			for _, more := range s.more {
				stats.ObstacleTilesPending += more.cache.Pending()
			}
		}
	}
}

// entry returns the index of e's entry, adding one for an obstacle not
// seen before, and marks it seen this tick.
func (s *ObstacleSync) entry(e ecs.Entity) int {
	id := int(e.ID())
	if id < len(s.slots) {
		if i := int(s.slots[id]) - 1; i >= 0 && s.entries[i].entity == e {
			s.entries[i].seen = s.tick
			return i
		}
	} else {
		s.slots = append(s.slots, make([]int32, id+1-len(s.slots)+len(s.slots)/2)...)
	}
	s.entries = append(s.entries, obstacleEntry{entity: e, seen: s.tick, fresh: true})
	s.slots[id] = int32(len(s.entries))
	return len(s.entries) - 1
}

// track follows an obstacle's pose: its velocity and how long it has stood
// still.
func (s *ObstacleSync) track(e *obstacleEntry, o *components.Obstacle, pose *components.ObstaclePose, dt float32) {
	if e.fresh {
		e.fresh = false
		e.obstacle, e.pose, e.anchor, e.still, e.velocity = *o, *pose, *pose, 0, geom.Vec3{}
		e.valid = o.Validate() == nil
		return
	}
	velocity := geom.Scale(geom.Sub(pose.Position, e.pose.Position), 1/dt)
	if !(geom.Len(velocity) <= maxObstacleSpeed) {
		velocity = geom.Vec3{}
	}
	e.velocity = velocity
	e.pose = *pose
	if *o != e.obstacle {
		// A new shape or behaviour counts as a move.
		e.obstacle = *o
		e.valid = o.Validate() == nil
		e.anchor, e.still = *pose, 0
		return
	}
	if o.PoseDistance(*pose, e.anchor) > o.MoveThreshold {
		e.anchor, e.still = *pose, 0
		return
	}
	e.still += dt
}

// syncCache adds, moves or removes the obstacle's tile cache obstacle as
// its effect and policy ask.
func (s *ObstacleSync) syncCache(e *obstacleEntry, o *components.Obstacle, pose *components.ObstaclePose) {
	want := false
	inflation, depth := float32(0), max(0, s.settings.CarveDepth)
	switch o.Effect {
	case components.ObstacleCarves:
		want = o.CarveWhileMoving || e.still >= o.StationaryTime
		inflation = max(0, s.settings.CarveInflation)
	case components.ObstacleMarksArea:
		want = true
	}
	if !want || !e.valid {
		s.removeFromCache(e)
		if o.Effect == components.ObstacleAvoided {
			e.refused = false
		}
		return
	}
	if e.ref != 0 && *o == e.cached && inflation == e.cachedInflation && depth == e.cachedDepth &&
		o.PoseDistance(*pose, e.cachedPose) <= o.MoveThreshold {
		return // where it is, near enough
	}
	if e.refused && *o == e.refusedObstacle && o.PoseDistance(*pose, e.refusedPose) <= o.MoveThreshold {
		return // refused there already
	}
	if s.cache == nil {
		s.refuse(e, o, pose)
		return
	}
	c := o.CacheObstacle(*pose, inflation, depth, s.cache.Params().CellSize)
	var err error
	if e.ref == 0 {
		e.ref, err = s.cache.AddObstacle(c)
	} else if err = s.cache.MoveObstacle(e.ref, c); err != nil {
		// Its old hole must not stay behind.
		s.removeFromCache(e)
	}
	if err == nil {
		err = s.syncMore(e, o, pose, depth)
	}
	if err != nil {
		s.removeFromCache(e)
		s.refuse(e, o, pose)
		return
	}
	e.cached, e.cachedPose, e.cachedInflation, e.cachedDepth = *o, *pose, inflation, depth
	e.landed, e.refused = false, false
}

// syncMore adds or moves the obstacle in the other agent types' caches,
// each grown by its type's inflation when it carves.
func (s *ObstacleSync) syncMore(e *obstacleEntry, o *components.Obstacle, pose *components.ObstaclePose, depth float32) error {
	for k, more := range s.more {
		inflation := float32(0)
		if o.Effect == components.ObstacleCarves {
			inflation = more.inflation
		}
		c := o.CacheObstacle(*pose, inflation, depth, more.cache.Params().CellSize)
		if e.more[k] != 0 {
			if err := more.cache.MoveObstacle(e.more[k], c); err == nil {
				continue
			}
			_ = more.cache.RemoveObstacle(e.more[k])
			e.more[k] = 0
		}
		ref, err := more.cache.AddObstacle(c)
		if err != nil {
			return err
		}
		e.more[k] = ref
	}
	return nil
}

// removeFromCache takes the obstacle out of the tile caches, if it is in.
func (s *ObstacleSync) removeFromCache(e *obstacleEntry) {
	if e.ref != 0 && s.cache != nil {
		_ = s.cache.RemoveObstacle(e.ref)
	}
	for k := range e.more {
		if e.more[k] != 0 && k < len(s.more) {
			_ = s.more[k].cache.RemoveObstacle(e.more[k])
		}
		e.more[k] = 0
	}
	e.ref, e.landed = 0, false
}

// refuse marks the obstacle refused at pose, raising EventObstacleRefused
// when it was not.
func (s *ObstacleSync) refuse(e *obstacleEntry, o *components.Obstacle, pose *components.ObstaclePose) {
	if !e.refused && s.events != nil {
		s.events.Add(components.Event{Kind: components.EventObstacleRefused, Entity: e.entity, Position: pose.Position})
	}
	e.refused, e.refusedObstacle, e.refusedPose = true, *o, *pose
}

// dropUnseen removes the obstacles whose entities are gone, keeping the
// order of the others.
func (s *ObstacleSync) dropUnseen() {
	kept := 0
	for i := range s.entries {
		e := &s.entries[i]
		if e.seen != s.tick {
			s.removeFromCache(e)
			if id := int(e.entity.ID()); id < len(s.slots) {
				s.slots[id] = 0
			}
			continue
		}
		if kept != i {
			s.entries[kept] = *e
		}
		s.slots[e.entity.ID()] = int32(kept + 1)
		kept++
	}
	clear(s.entries[kept:])
	s.entries = s.entries[:kept]
}

// noteLanded marks the obstacles whose tiles the cache has rebuilt and
// raises EventObstacleLanded for them.
func (s *ObstacleSync) noteLanded() {
	for i := range s.entries {
		e := &s.entries[i]
		if e.ref == 0 || e.landed {
			continue
		}
		if up, err := s.cache.ObstacleUpToDate(e.ref); err == nil && up && s.moreUpToDate(e) {
			e.landed = true
			if s.events != nil {
				s.events.Add(components.Event{Kind: components.EventObstacleLanded, Entity: e.entity, Position: e.pose.Position})
			}
		}
	}
}

// moreUpToDate reports whether the other agent types' caches have rebuilt
// the obstacle's tiles.
func (s *ObstacleSync) moreUpToDate(e *obstacleEntry) bool {
	for k, more := range s.more {
		if up, err := more.cache.ObstacleUpToDate(e.more[k]); err != nil || !up {
			return false
		}
	}
	return true
}

// listBodies writes the obstacle states and lists the bodies of this tick,
// returning their number.
func (s *ObstacleSync) listBodies() int {
	var bodies *components.ObstacleBodies
	if s.bodiesRes.Has() {
		bodies = s.bodiesRes.Get()
		bodies.List = bodies.List[:0]
	}
	for i := range s.entries {
		e := &s.entries[i]
		*e.state = components.ObstacleState{
			InCache:   e.ref != 0,
			Landed:    e.landed,
			Refused:   e.refused,
			Velocity:  e.velocity,
			StillTime: e.still,
		}
		e.state = nil
		o := &e.obstacle
		if bodies == nil || o.Effect == components.ObstacleMarksArea || e.landed || !e.valid {
			continue
		}
		bodies.List = append(bodies.List, components.ObstacleBody{Entity: e.entity, Footprint: o.Footprint(e.pose), Velocity: e.velocity})
	}
	if bodies == nil {
		return 0
	}
	bodies.Index()
	return len(bodies.List)
}
