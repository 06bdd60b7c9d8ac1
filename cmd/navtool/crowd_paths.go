package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// The path planning flags of `navtool crowd`: -hierarchical and -nodes,
// and the waits for a first path its report gives.

// pathOptions are the path planning flags.
type pathOptions struct {
	// hierarchical is -hierarchical: plugin.Auto unless given.
	hierarchical plugin.Switch
	// nodes is -nodes: the node pool of each path queue search, 0 for the
	// plugin's.
	nodes int
	// retarget is -retarget: an agent that reaches its target gets a new
	// random one.
	retarget bool
}

// addFlags registers the flags on fs.
func (o *pathOptions) addFlags(fs *flag.FlagSet) {
	fs.Var(switchFlag{&o.hierarchical}, "hierarchical", "plan paths with the hierarchy (true|false; default: on for a large level, see plugin.IsLargeLevel)")
	fs.IntVar(&o.nodes, "nodes", 0, "node pool of each path queue search, fixed (default: the plugin's, 4096 growing to 65536)")
	fs.BoolVar(&o.retarget, "retarget", false, "with -agents N: an agent that reaches its target gets a new random one (from the same points, -connected included)")
}

// check checks the flags' values.
func (o *pathOptions) check() error {
	if o.nodes < 0 || o.nodes > maxCrowdNodes {
		return fmt.Errorf("-nodes %d: want 1..%d", o.nodes, maxCrowdNodes)
	}
	return nil
}

// maxCrowdNodes bounds -nodes: 2^20 nodes of every path queue slot take
// about 50 MB each.
const maxCrowdNodes = 1 << 20

// apply sets the flags in config, whose Mesh and Reference are set.
func (o *pathOptions) apply(config *plugin.Config, mesh *navmesh.Mesh) {
	config.HierarchicalPaths = o.hierarchical
	if o.nodes == 0 {
		return
	}
	// A fixed pool of -nodes in the path queue the plugin would make.
	sizes := crowd.DefaultPathQueueConfig()
	if plugin.IsLargeLevel(mesh) && !config.Reference {
		sizes.Slots = plugin.LargeLevelPathQueueSlots
	}
	sizes.MaxNodes, sizes.NodeLimit = o.nodes, 0
	sizes.FullSearchUnreachable = config.PathQueue.FullSearchUnreachable
	config.PathQueue = sizes
}

// switchFlag is a plugin.Switch set with true or false (or alone, for
// true), Auto when not given.
type switchFlag struct{ s *plugin.Switch }

func (f switchFlag) String() string {
	if f.s == nil || *f.s == plugin.Auto {
		return ""
	}
	return strconv.FormatBool(*f.s == plugin.On)
}

func (f switchFlag) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%q: want true or false", v)
	}
	*f.s = plugin.Off
	if on {
		*f.s = plugin.On
	}
	return nil
}

// IsBoolFlag lets the flag stand alone for true.
func (f switchFlag) IsBoolFlag() bool { return true }

// pathWaits summarizes the waits for a first path over a run: those that
// ended and those of agents still waiting [Units: s].
func pathWaits(stats *components.Stats) (p99, longest float64) {
	if stats == nil {
		return 0, 0
	}
	waits := stats.PathWaits
	waits.Merge(&stats.OpenWaits)
	return roundMillis(waits.Quantile(0.99)), roundMillis(waits.Max)
}

// roundMillis rounds seconds to the millisecond.
func roundMillis(seconds float32) float64 {
	return float64(int64(float64(seconds)*1000+0.5)) / 1000
}

// retargeter gives the agents that reached their target a new random one
// (-retarget).
type retargeter struct {
	p       *plugin.Plugin
	world   *ecs.World
	index   map[ecs.Entity]int
	point   func() (query.RandomPoint, error)
	targets []geom.Vec3 // per agent: its target now, shared with the report
	// obstacleTargets, when not nil, are the obstacle checks' targets,
	// kept up to date too.
	obstacleTargets []geom.Vec3
	// count is the number of new targets given.
	count int
}

// newRetargeter returns the retargeter of a run whose agents' targets are
// targets (kept up to date), or nil without -retarget. Its random points
// come from a source of their own, seeded from seed.
func newRetargeter(opts *crowdOptions, mesh *navmesh.Mesh, filter *query.Filter, p *plugin.Plugin, world *ecs.World,
	agents []ecs.Entity, targets []geom.Vec3,
) (*retargeter, error) {
	if !opts.paths.retarget {
		return nil, nil
	}
	point, err := randomPoints(mesh, filter, opts.seed^0x5eed, opts.connected)
	if err != nil {
		return nil, err
	}
	r := &retargeter{p: p, world: world, index: make(map[ecs.Entity]int, len(agents)), point: point, targets: targets}
	for i, e := range agents {
		r.index[e] = i
	}
	return r, nil
}

// after sends every agent that reached its target in the last tick to a
// new one.
func (r *retargeter) after() error {
	if r == nil {
		return nil
	}
	for _, ev := range r.p.Events(r.world) {
		i, ok := r.index[ev.Entity]
		if ev.Kind != components.EventTargetReached || !ok {
			continue
		}
		target, err := r.point()
		if err != nil {
			return fmt.Errorf("random target: %w", err)
		}
		if err := r.p.RequestMoveTarget(r.world, ev.Entity, target.Pos); err != nil {
			return fmt.Errorf("agent %d: new target: %w", i, err)
		}
		r.targets[i] = target.Pos
		if r.obstacleTargets != nil {
			r.obstacleTargets[i] = target.Pos
		}
		r.count++
	}
	return nil
}
