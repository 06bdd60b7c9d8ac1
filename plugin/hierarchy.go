package plugin

import (
	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/query"
)

// newPathQueue makes the path queue of agent type t, with a hierarchy for
// its first filter when c.HierarchicalPaths asks for one (not with
// Reference).
func newPathQueue(c *Config, t *AgentTypeConfig) (*crowd.PathQueue, error) {
	config := t.PathQueue
	if c.HierarchicalPaths == On && !c.Reference {
		// The filter agents use unless they pick another: the type's
		// first, or the default the Filters resource fills in.
		filter := components.DefaultFilter()
		if len(t.Filters) > 0 {
			filter = t.Filters[0]
		}
		// The path queue computes the landmarks of each version before
		// its searches (crowd.PathQueue.Update), on the tick's goroutine,
		// so that the searches never depend on timing.
		h, err := hierarchy.New(t.Mesh, &filter, hierarchy.Options{Workers: c.Workers, ManualLandmarks: true})
		if err != nil {
			return nil, fmt.Errorf("hierarchical paths: %w", err)
		}
		config.Hierarchy = h
	}
	pq, err := crowd.NewPathQueue(t.Mesh, config)
	if err != nil {
		return nil, err
	}
	if !config.FullSearchUnreachable {
		warmComponents(t)
	}
	return pq, nil
}

// warmComponents computes the connected components of the current tile set
// of t's mesh, for every filter of t, now rather than in the first tick:
// a crowd that plans out-of-reach targets to their nearest point asks
// query.OutOfReach of every request, and on a large level labelling every
// polygon takes tens of milliseconds (a mass spawn's first tick would pay
// for it). The labels are kept with the tile set, so later ticks find them.
func warmComponents(t *AgentTypeConfig) {
	snap := t.Mesh.Snapshot()
	snap.Connectivity()
	filters := t.Filters
	if len(filters) == 0 {
		filters = []query.Filter{components.DefaultFilter()}
	}
	for i := range filters {
		// An invalid filter has its error where the crowd uses it.
		_, _ = query.Components(snap, &filters[i])
	}
}

// Hierarchy returns the hierarchy the path queue plans with
// (Config.HierarchicalPaths), nil when there is none.
func (p *Plugin) Hierarchy() *hierarchy.Hierarchy {
	if p.pathQueue == nil {
		return nil
	}
	return p.pathQueue.Hierarchy()
}
