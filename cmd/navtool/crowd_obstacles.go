package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// intList is a repeatable integer flag.
type intList []int

func (l *intList) String() string {
	parts := make([]string, len(*l))
	for i, v := range *l {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

func (l *intList) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return err
	}
	*l = append(*l, n)
	return nil
}

// crowdObstacleOptions are the tile cache flags of `navtool crowd`: the
// crowd walks on the cache's mesh and its carving obstacle entities become
// the set of obstaclePaths[i] at tick obstacleTicks[i].
type crowdObstacleOptions struct {
	tsetPath      string
	obstaclePaths []string
	obstacleTicks []int
}

// check reports the first inconsistent tile cache flag.
func (o *crowdObstacleOptions) check(navmeshPath string) error {
	switch {
	case (navmeshPath == "") == (o.tsetPath == ""):
		return errors.New("give either -navmesh FILE or -tset FILE")
	case len(o.obstaclePaths) > 0 && o.tsetPath == "":
		return errors.New("-obstacles needs -tset")
	case len(o.obstaclePaths) != len(o.obstacleTicks):
		return fmt.Errorf("%d -obstacles files and %d -obstacles-at ticks: give one tick per file", len(o.obstaclePaths), len(o.obstacleTicks))
	}
	for i, tick := range o.obstacleTicks {
		if tick < 0 || i > 0 && tick < o.obstacleTicks[i-1] {
			return fmt.Errorf("-obstacles-at %d: want ticks >= 0 in increasing order", tick)
		}
	}
	return nil
}

// loadCrowdTileCache loads a tile cache file (RecastDemo's TSET or the
// archenav cache format) and builds every tile of its navmesh.
func loadCrowdTileCache(path string, workers int) (*tilecache.Cache, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cache, _, _, err := tilecache.Load(file, tilecache.Options{Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := updateUntilDone(cache); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cache, nil
}

// crowdObstacle is one obstacle of a state file as an obstacle entity.
type crowdObstacle struct {
	id       string
	obstacle components.Obstacle
	pose     components.ObstaclePose
}

// readCrowdObstacles reads a state file as carving obstacle entities: a
// cylinder stands on its base, a box on the middle of its bottom, an
// oriented box on the middle of its bottom with its yaw.
// An empty file, like one with the header only, is the empty set.
func readCrowdObstacles(path string) ([]crowdObstacle, error) {
	if info, err := os.Stat(path); err == nil && info.Size() == 0 {
		return nil, nil
	}
	rows, err := readObstacleState(path)
	if err != nil {
		return nil, err
	}
	out := make([]crowdObstacle, len(rows))
	for i, row := range rows {
		out[i] = crowdObstacle{id: row.id}
		o, p := &out[i].obstacle, &out[i].pose
		c := row.obstacle
		switch c.Shape {
		case tilecache.ShapeCylinder:
			*o = components.CylinderObstacle(c.Radius, c.Height)
			p.Position = c.Position
		case tilecache.ShapeBox:
			*o = components.BoxObstacle((c.Max[0]-c.Min[0])/2, (c.Max[2]-c.Min[2])/2, c.Max[1]-c.Min[1])
			p.Position = geom.Vec3{(c.Min[0] + c.Max[0]) / 2, c.Min[1], (c.Min[2] + c.Max[2]) / 2}
		case tilecache.ShapeOrientedBox:
			*o = components.OrientedBoxObstacle(c.HalfExtents[0], c.HalfExtents[2], 2*c.HalfExtents[1])
			*p = components.ObstaclePose{Position: geom.Vec3{c.Position[0], c.Position[1] - c.HalfExtents[1], c.Position[2]}, Yaw: c.Yaw}
		}
		*o = o.Carving()
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("%s: obstacle %s: %w", path, row.id, err)
		}
	}
	return out, nil
}

// Tolerances of the obstacle checks.
const (
	// crowdObstacleSlack: a walking agent counts as inside an obstacle when
	// its centre is nearer its footprint than its radius minus this
	// [Units: world units]
	crowdObstacleSlack = float32(0.1)
	// crowdObstacleGrace is how many seconds after an obstacle's carve has
	// landed the agents it caught get to walk out before they count.
	crowdObstacleGrace = 1.0
)

// obstacleDriver applies the obstacle states of a run and measures the
// agents against the obstacles.
type obstacleDriver struct {
	p          *plugin.Plugin
	world      *ecs.World
	agents     []ecs.Entity
	states     [][]crowdObstacle
	ticks      []int
	next       int
	graceTicks int
	depth      float32 // how far below its pose an obstacle takes the floor

	entities map[string]ecs.Entity
	landedAt map[ecs.Entity]int
	ids      []string
	last     []geom.Vec3
	// Figures of the run; covered marks the agents whose target lay in an
	// obstacle's footprint grown by their radius at some tick.
	insideTicks int
	maxStep     float32
	targets     []geom.Vec3
	covered     []bool
}

func newObstacleDriver(p *plugin.Plugin, world *ecs.World, agents []ecs.Entity, opts *crowdObstacleOptions, dt float64) (*obstacleDriver, error) {
	d := &obstacleDriver{
		p: p, world: world, agents: agents, ticks: opts.obstacleTicks,
		graceTicks: int(crowdObstacleGrace/dt + 0.5), depth: p.Config().CarveDepth,
		entities: map[string]ecs.Entity{}, landedAt: map[ecs.Entity]int{},
		last: make([]geom.Vec3, len(agents)), targets: make([]geom.Vec3, len(agents)), covered: make([]bool, len(agents)),
	}
	for _, path := range opts.obstaclePaths {
		state, err := readCrowdObstacles(path)
		if err != nil {
			return nil, err
		}
		d.states = append(d.states, state)
	}
	for i, e := range agents {
		info, err := p.State(world, e)
		if err != nil {
			return nil, err
		}
		d.last[i], d.targets[i] = info.Position, info.TargetPosition
	}
	return d, nil
}

// coveredTargets counts the agents whose target an obstacle covered.
func (d *obstacleDriver) coveredTargets() int {
	n := 0
	for _, c := range d.covered {
		if c {
			n++
		}
	}
	return n
}

// before applies the states due at tick: ids kept with new values are
// moved, ids gone removed, new ids spawned, in id order.
func (d *obstacleDriver) before(tick int) error {
	for d.next < len(d.states) && d.ticks[d.next] == tick {
		state := d.states[d.next]
		d.next++
		keep := map[string]bool{}
		for _, o := range state {
			keep[o.id] = true
			if e, ok := d.entities[o.id]; ok {
				info, err := d.p.Obstacle(d.world, e)
				if err != nil {
					return err
				}
				if info.Obstacle != o.obstacle || info.Pose != o.pose {
					if err := d.p.SetObstacle(d.world, e, o.obstacle); err != nil {
						return err
					}
					if err := d.p.SetObstaclePose(d.world, e, o.pose); err != nil {
						return err
					}
					delete(d.landedAt, e)
				}
				continue
			}
			e, err := d.p.SpawnObstacle(d.world, o.pose, o.obstacle)
			if err != nil {
				return fmt.Errorf("obstacle %s: %w", o.id, err)
			}
			d.entities[o.id] = e
		}
		for _, id := range slices.Sorted(maps.Keys(d.entities)) {
			if e := d.entities[id]; !keep[id] {
				if err := d.p.RemoveObstacle(d.world, e); err != nil {
					return err
				}
				delete(d.entities, id)
				delete(d.landedAt, e)
			}
		}
		d.ids = slices.Sorted(maps.Keys(d.entities))
	}
	return nil
}

// invalid counts the agents that are AgentInvalid.
func (d *obstacleDriver) invalid() (int, error) {
	n := 0
	for _, e := range d.agents {
		info, err := d.p.State(d.world, e)
		if err != nil {
			return 0, err
		}
		if info.Mode == components.AgentInvalid {
			n++
		}
	}
	return n, nil
}

// after notes the carves that landed in tick and measures the agents: the
// largest step, and walking agents inside an obstacle's footprint grown by
// their radius less crowdObstacleSlack, from crowdObstacleGrace after its
// carve landed.
func (d *obstacleDriver) after(tick int) error {
	for _, ev := range d.p.Events(d.world) {
		if ev.Kind == components.EventObstacleLanded {
			d.landedAt[ev.Entity] = tick
		}
	}
	radius := components.DefaultAgentParams().Radius
	footprints := make([]components.Footprint, 0, len(d.ids))
	for _, id := range d.ids {
		e := d.entities[id]
		info, err := d.p.Obstacle(d.world, e)
		if err != nil {
			return err
		}
		f := info.Obstacle.Footprint(info.Pose)
		for i, target := range d.targets {
			if !d.covered[i] && d.inside(&f, target, radius) {
				d.covered[i] = true
			}
		}
		if at, ok := d.landedAt[e]; ok && tick >= at+d.graceTicks {
			footprints = append(footprints, f)
		}
	}
	for i, e := range d.agents {
		info, err := d.p.State(d.world, e)
		if err != nil {
			return err
		}
		if info.Mode != components.AgentOffMesh && info.Mode != components.AgentInvalid {
			d.maxStep = max(d.maxStep, geom.Dist2D(info.Position, d.last[i]))
		}
		d.last[i] = info.Position
		if info.Mode != components.AgentWalking {
			continue
		}
		for k := range footprints {
			if d.inside(&footprints[k], info.Position, radius-crowdObstacleSlack) {
				d.insideTicks++
			}
		}
	}
	return nil
}

// inside reports whether pos lies nearer f than grow (xz), on a floor the
// obstacle takes (from CarveDepth below it to its top).
func (d *obstacleDriver) inside(f *components.Footprint, pos geom.Vec3, grow float32) bool {
	if pos[1] < f.MinY-d.depth || pos[1] > f.MaxY {
		return false
	}
	dist, _, _ := f.Distance(pos[0], pos[2])
	return dist < grow
}

// crowdMesh is the navmesh of a run: loaded from -navmesh, or built from
// the -tset tile cache.
func crowdMesh(navmeshPath string, opts *crowdObstacleOptions, workers int) (*navmesh.Mesh, *tilecache.Cache, error) {
	if opts.tsetPath == "" {
		mesh, _, err := navmesh.LoadFile(navmeshPath)
		return mesh, nil, err
	}
	cache, err := loadCrowdTileCache(opts.tsetPath, workers)
	if err != nil {
		return nil, nil, err
	}
	return cache.Mesh(), cache, nil
}

// restoreCrowd continues a run from the save file at path: the obstacle
// states due up to the saved tick are applied first, so that the driver
// knows their entities, then the file is loaded over the world, and the
// agents (in place in agents) and the driver follow the loaded entities.
// It returns the first tick to run.
func restoreCrowd(path string, p *plugin.Plugin, world *ecs.World, agents []ecs.Entity, obstacles *obstacleDriver) (int, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	info, err := plugin.ReadSaveInfo(file)
	if err != nil {
		return 0, fmt.Errorf("-restore %s: %w", path, err)
	}
	first := int(info.Tick)
	for tick := range first {
		if err := obstacles.before(tick); err != nil {
			return 0, err
		}
	}
	m, err := p.Load(world, bytes.NewReader(file))
	if err != nil {
		return 0, fmt.Errorf("-restore %s: %w", path, err)
	}
	for i, e := range agents {
		loaded, ok := m.Entity(e)
		if !ok {
			return 0, fmt.Errorf("-restore %s: agent %d is not in the file: save and restore with the same flags", path, i)
		}
		agents[i] = loaded
	}
	return first, obstacles.follow(m)
}

// follow makes the driver's obstacles and positions those of a loaded
// state.
func (d *obstacleDriver) follow(m *plugin.EntityMap) error {
	for id, e := range d.entities {
		loaded, ok := m.Entity(e)
		if !ok {
			return fmt.Errorf("restore: obstacle %s is not in the file: save and restore with the same flags", id)
		}
		d.entities[id] = loaded
	}
	clear(d.landedAt)
	for i, e := range d.agents {
		info, err := d.p.State(d.world, e)
		if err != nil {
			return err
		}
		d.last[i], d.targets[i] = info.Position, info.TargetPosition
	}
	return nil
}
