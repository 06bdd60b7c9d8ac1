package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
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
}

// addFlags registers the flags on fs.
func (o *pathOptions) addFlags(fs *flag.FlagSet) {
	fs.Var(switchFlag{&o.hierarchical}, "hierarchical", "plan paths with the hierarchy (true|false; default: on for a large level, see plugin.IsLargeLevel)")
	fs.IntVar(&o.nodes, "nodes", 0, "node pool of each path queue search, fixed (default: the plugin's, 4096 growing to 65536)")
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
	return math.Round(float64(seconds)*1000) / 1000 // no add for a multiply-add to fuse
}
