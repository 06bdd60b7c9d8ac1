package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/archenav/archenav/plugin/crowdcheck"
	"github.com/mlange-42/arche/ecs"
)

// Agent types of `navtool crowd`: -navmesh NAME=FILE (repeatable) gives each
// type its mesh, -agents NAME=N (repeatable) its agents, or the scenario's
// type column names each agent's type.

// crowdType is one agent type of a run: its name, mesh and the radius of
// its agents (the radius the mesh was baked for).
type crowdType struct {
	name   string
	path   string
	mesh   *navmesh.Mesh
	radius float32
}

// typedCount is one -agents NAME=N.
type typedCount struct {
	name string
	n    int
}

// navmeshFlag is -navmesh: FILE once, or NAME=FILE for each agent type.
type navmeshFlag struct{ opts *crowdOptions }

func (f navmeshFlag) String() string {
	if f.opts == nil {
		return ""
	}
	return f.opts.navmeshPath
}

func (f navmeshFlag) Set(v string) error {
	name, path, typed := strings.Cut(v, "=")
	switch {
	case !typed && f.opts.navmeshPath != "":
		return errors.New("give -navmesh FILE once (or NAME=FILE per agent type)")
	case !typed:
		f.opts.navmeshPath = v
		return nil
	case name == "" || path == "":
		return fmt.Errorf("%q: want NAME=FILE", v)
	}
	for _, t := range f.opts.types {
		if t.name == name {
			return fmt.Errorf("agent type %q given twice", name)
		}
	}
	f.opts.types = append(f.opts.types, crowdType{name: name, path: path})
	return nil
}

// agentsFlag is -agents: N, or NAME=N for each agent type.
type agentsFlag struct{ opts *crowdOptions }

func (f agentsFlag) String() string {
	if f.opts == nil {
		return "0"
	}
	return strconv.Itoa(f.opts.agents)
}

func (f agentsFlag) Set(v string) error {
	name, count, typed := strings.Cut(v, "=")
	if !typed {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q: want a number or NAME=N", v)
		}
		f.opts.agents = n
		return nil
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 || name == "" {
		return fmt.Errorf("%q: want NAME=N with N > 0", v)
	}
	for _, c := range f.opts.typedAgents {
		if c.name == name {
			return fmt.Errorf("-agents %s given twice", name)
		}
	}
	f.opts.typedAgents = append(f.opts.typedAgents, typedCount{name, n})
	return nil
}

// checkTypes checks the agent type flags.
func (o *crowdOptions) checkTypes() error {
	if len(o.types) == 0 {
		if len(o.typedAgents) > 0 {
			return errors.New("-agents NAME=N needs -navmesh NAME=FILE")
		}
		return nil
	}
	switch {
	case o.navmeshPath != "":
		return errors.New("give -navmesh FILE or -navmesh NAME=FILE per agent type, not both")
	case o.obstacles.tsetPath != "":
		return errors.New("-tset walks one tile cache's navmesh: not with -navmesh NAME=FILE")
	case o.agents != 0:
		return errors.New("with -navmesh NAME=FILE give -agents NAME=N per agent type")
	case (len(o.typedAgents) > 0) == (o.scenarioPath != ""):
		return errors.New("give either -agents NAME=N or -scenario FILE (with a type column)")
	case o.connected && o.scenarioPath != "":
		return errors.New("-connected picks random points: use it with -agents, not -scenario")
	}
	for _, c := range o.typedAgents {
		if o.typeIndex(c.name) < 0 {
			return fmt.Errorf("-agents %s=%d: no -navmesh %s=FILE", c.name, c.n, c.name)
		}
	}
	return nil
}

// typeIndex returns the index of the agent type called name, -1 for none.
func (o *crowdOptions) typeIndex(name string) int {
	for i, t := range o.types {
		if t.name == name {
			return i
		}
	}
	return -1
}

// loadCrowdTypes loads each type's mesh: FILE's only mesh, or, for a mesh
// set file, the mesh called NAME. An agent's radius is the one its mesh was
// baked for (the tiles' WalkableRadius), 0.6 when the file does not say.
func loadCrowdTypes(types []crowdType) error {
	for i := range types {
		t := &types[i]
		set, _, err := navmesh.LoadSetFile(t.path)
		if err != nil {
			return fmt.Errorf("-navmesh %s=%s: %w", t.name, t.path, err)
		}
		switch {
		case set.Find(t.name) != nil:
			t.mesh = set.Find(t.name)
		case len(set) == 1:
			t.mesh = set[0].Mesh
		default:
			return fmt.Errorf("-navmesh %s=%s: the file holds meshes %q, none called %q", t.name, t.path, set.Names(), t.name)
		}
		t.radius = 0.6
		snap := t.mesh.Snapshot()
		for k := 0; k < snap.MaxTiles(); k++ {
			if tile := snap.Tile(k); tile != nil && tile.Data != nil && tile.Data.Header.WalkableRadius > 0 {
				t.radius = tile.Data.Header.WalkableRadius
				break
			}
		}
	}
	return nil
}

// typedCrowdTrips picks, for each -agents NAME=N, N seeded random trips on
// that type's mesh (seeded with the seed and the type's position among the
// -agents flags).
func typedCrowdTrips(opts *crowdOptions, filter *query.Filter) ([]crowdTrip, error) {
	var trips []crowdTrip
	for k, c := range opts.typedAgents {
		t := opts.typeIndex(c.name)
		some, err := randomCrowdTrips(opts.types[t].mesh, filter, c.n, opts.seed+uint64(k), opts.connected)
		if err != nil {
			return nil, fmt.Errorf("agents of type %s: %w", c.name, err)
		}
		for i := range some {
			some[i].typ, some[i].typeName = t, c.name
		}
		trips = append(trips, some...)
	}
	return trips, nil
}

// resolveTripTypes sets the type index of scenario trips from their type
// column.
func resolveTripTypes(opts *crowdOptions, trips []crowdTrip) error {
	for i := range trips {
		if trips[i].typeName == "" {
			return fmt.Errorf("%s: agent %d has no type (add a type column naming a -navmesh NAME)", opts.scenarioPath, i+1)
		}
		t := opts.typeIndex(trips[i].typeName)
		if t < 0 {
			return fmt.Errorf("%s: agent %d: type %q has no -navmesh %s=FILE", opts.scenarioPath, i+1, trips[i].typeName, trips[i].typeName)
		}
		trips[i].typ = t
	}
	return nil
}

// crowdTypeReport is the behaviour of one agent type's agents in a run,
// each checked against its type's mesh; overlaps count pairs within the
// type.
type crowdTypeReport struct {
	Agents            int `json:"agents"`
	OffMeshViolations int `json:"offMeshViolations"`
	WallPenetrations  int `json:"wallPenetrations"`
	OverlapAgentTicks int `json:"overlapAgentTicks"`
	Reached           int `json:"reached"`
}

// crowdChecker measures a run: one crowdcheck.Checker for a crowd of one
// type, one per type (each on its type's mesh, with its agents) otherwise.
type crowdChecker struct {
	types    []crowdType
	checkers []*crowdcheck.Checker
	// members lists, per type, the indices of its agents in the run.
	members [][]int
}

func newCrowdChecker(mesh *navmesh.Mesh, filter *query.Filter, p *plugin.Plugin, world *ecs.World,
	agents []ecs.Entity, trips []crowdTrip, types []crowdType,
) (*crowdChecker, error) {
	c := &crowdChecker{types: types}
	if len(types) == 0 {
		checker, err := crowdcheck.New(mesh, filter, p, world, agents)
		if err != nil {
			return nil, err
		}
		c.checkers = []*crowdcheck.Checker{checker}
		c.members = [][]int{nil}
		return c, nil
	}
	c.members = make([][]int, len(types))
	for i, trip := range trips {
		c.members[trip.typ] = append(c.members[trip.typ], i)
	}
	for t, members := range c.members {
		own := make([]ecs.Entity, len(members))
		for k, i := range members {
			own[k] = agents[i]
		}
		checker, err := crowdcheck.New(types[t].mesh, filter, p, world, own)
		if err != nil {
			return nil, err
		}
		checker.SetRadius(types[t].radius)
		c.checkers = append(c.checkers, checker)
	}
	return c, nil
}

// Classify runs every checker's Classify.
func (c *crowdChecker) Classify() error {
	for _, checker := range c.checkers {
		if err := checker.Classify(); err != nil {
			return err
		}
	}
	return nil
}

// Check runs every checker's Check.
func (c *crowdChecker) Check() error {
	for _, checker := range c.checkers {
		if err := checker.Check(); err != nil {
			return err
		}
	}
	return nil
}

// targetsOf returns the targets of type t's agents.
func (c *crowdChecker) targetsOf(t int, targets []geom.Vec3) []geom.Vec3 {
	if c.members[t] == nil {
		return targets
	}
	own := make([]geom.Vec3, len(c.members[t]))
	for k, i := range c.members[t] {
		own[k] = targets[i]
	}
	return own
}

// Finish returns the figures of the run, summed over the types (the
// velocity change averaged over them, weighted by agents).
func (c *crowdChecker) Finish(targets []geom.Vec3) crowdcheck.Result {
	if len(c.checkers) == 1 && c.members[0] == nil {
		return c.checkers[0].Finish(targets)
	}
	var sum crowdcheck.Result
	weights := 0
	for t, checker := range c.checkers {
		r := checker.Finish(c.targetsOf(t, targets))
		sum.OffMesh += r.OffMesh
		sum.WallPenetrations += r.WallPenetrations
		sum.OverlapAgentTicks += r.OverlapAgentTicks
		sum.VelocityChangePerTick += float64(r.VelocityChangePerTick * float64(len(c.members[t])))
		weights += len(c.members[t])
		sum.OutOfReach += r.OutOfReach
		sum.Reached += r.Reached
		sum.ReachedReachable += r.ReachedReachable
		sum.Stuck += r.Stuck
		sum.PartialPaths += r.PartialPaths
		sum.WaitingForPath += r.WaitingForPath
		sum.Arrived += r.Arrived
		sum.Hovering += r.Hovering
		sum.NearNotArrived += r.NearNotArrived
		sum.NearNotArrivedStill += r.NearNotArrivedStill
		sum.NearAgents = append(sum.NearAgents, r.NearAgents...)
	}
	if weights > 0 {
		sum.VelocityChangePerTick /= float64(weights)
	}
	return sum
}

// perType returns each type's figures by name, nil for a crowd of one
// type.
func (c *crowdChecker) perType(targets []geom.Vec3) map[string]*crowdTypeReport {
	if len(c.types) == 0 {
		return nil
	}
	out := make(map[string]*crowdTypeReport, len(c.types))
	for t, checker := range c.checkers {
		r := checker.Finish(c.targetsOf(t, targets))
		out[c.types[t].name] = &crowdTypeReport{
			Agents: len(c.members[t]), OffMeshViolations: r.OffMesh, WallPenetrations: r.WallPenetrations,
			OverlapAgentTicks: r.OverlapAgentTicks, Reached: r.Reached,
		}
	}
	return out
}

// SetTimeStep sets every checker's tick length.
func (c *crowdChecker) SetTimeStep(dt float64) {
	for _, checker := range c.checkers {
		checker.SetTimeStep(dt)
	}
}

// Retarget classifies agent i's new target (an agent of a crowd of one
// type).
func (c *crowdChecker) Retarget(i int) error {
	return c.checkers[0].Retarget(i)
}
