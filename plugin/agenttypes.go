package plugin

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// DefaultAgentTypeName names the one agent type of a crowd configured
// without Config.AgentTypes.
const DefaultAgentTypeName = "default"

// AgentTypeConfig is one agent type of a crowd: the navmesh its agents
// walk on (baked for their size, e.g. with bake.SoloTypes), as Unity's
// agent types. Agents pick their type with components.AgentParams.Type,
// the index of the type in Config.AgentTypes (Plugin.AgentType finds it
// by name). Every query of an agent (its corridor, walls, path searches,
// surface moves, target snapping, recovery) runs on its type's mesh;
// neighbours, avoidance and collisions work across all types.
type AgentTypeConfig struct {
	// Name names the type [Limit: not empty, unique in the crowd].
	Name string
	// Mesh is the navmesh of the type's agents. Required unless TileCache
	// is given; then it must be TileCache.Mesh() or nil.
	Mesh *navmesh.Mesh
	// TileCache, when not nil, is the tile cache Mesh is built from;
	// obstacle entities carve every type's cache. Either every type has
	// one or none has.
	TileCache *tilecache.Cache
	// DynamicMesh, when not nil, is the dynamic navmesh (bake/dynamic.Mesh)
	// Mesh is built from; collider entities change every type's
	// (dynamic.NewTypes bakes them together). Mesh must then be
	// DynamicMesh.NavMesh() or nil. Either every type has one or none has.
	DynamicMesh components.ColliderMesh
	// CarveInflation grows carving obstacles in this type's cache, as
	// Config.CarveInflation does for a crowd of one type [Limit: finite;
	// 0 = the cache's agent radius and one cell, < 0 = none]
	// [Units: world units]
	CarveInflation float32
	// Filters are the filters the type's agents pick from with
	// AgentParams.Filter [Limit: len <= 16; empty = Config.Filters].
	Filters []query.Filter
	// PathQueue sizes the type's path queue [zero sizes = Config.PathQueue];
	// with Config.HierarchicalPaths the type's queue gets a hierarchy of
	// its mesh for its first filter. Whether out-of-reach targets are
	// searched in full (FullSearchUnreachable) is the first type's choice
	// for every type.
	PathQueue crowd.PathQueueConfig
	// PathQueueIterations is the A* budget of the type's path queue per
	// tick [Limit: >= 0; 0 = Config.PathQueueIterations]. A budget equal
	// to the first type's follows Settings.PathQueueIterations when that
	// is changed between ticks, as the first type's does.
	PathQueueIterations int
	// RequestsPerTick bounds the searches handed to the type's path queue
	// per tick [Limit: 0..256; 0 = Config.RequestsPerTick]; one equal to
	// the first type's follows Settings.MaxPathQueueRequestsPerTick.
	RequestsPerTick int
}

// resolveAgentTypes validates c.AgentTypes and fills their defaults from
// c (after c's own), or makes the one implicit type of c; the first type's
// mesh, cache, filters and queue become c's.
func (c *Config) resolveAgentTypes() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	if len(c.AgentTypes) == 0 {
		c.AgentTypes = []AgentTypeConfig{{
			Name: DefaultAgentTypeName, Mesh: c.Mesh, TileCache: c.TileCache, DynamicMesh: c.DynamicMesh, CarveInflation: c.CarveInflation,
			Filters: c.Filters, PathQueue: c.PathQueue,
			PathQueueIterations: c.PathQueueIterations, RequestsPerTick: c.RequestsPerTick,
		}}
		return nil
	}
	if len(c.AgentTypes) > components.MaxAgentTypes {
		return bad("%d AgentTypes, want at most %d", len(c.AgentTypes), components.MaxAgentTypes)
	}
	types := make([]AgentTypeConfig, len(c.AgentTypes))
	copy(types, c.AgentTypes)
	seen := make(map[string]bool, len(types))
	for i := range types {
		t := &types[i]
		if t.Mesh == nil && t.TileCache != nil {
			t.Mesh = t.TileCache.Mesh()
		}
		if t.Mesh == nil && t.DynamicMesh != nil {
			t.Mesh = t.DynamicMesh.NavMesh()
		}
		switch {
		case t.DynamicMesh != nil && t.DynamicMesh.NavMesh() != t.Mesh:
			return bad("AgentTypes[%d] (%s): Mesh is not DynamicMesh.NavMesh()", i, t.Name)
		case (t.DynamicMesh == nil) != (types[0].DynamicMesh == nil):
			return bad("AgentTypes[%d] (%s): every type needs a DynamicMesh or none", i, t.Name)
		case t.Name == "":
			return bad("AgentTypes[%d]: empty Name", i)
		case seen[t.Name]:
			return bad("AgentTypes[%d]: Name %q given twice", i, t.Name)
		case t.Mesh == nil:
			return bad("AgentTypes[%d] (%s): nil Mesh", i, t.Name)
		case t.TileCache != nil && t.TileCache.Mesh() != t.Mesh:
			return bad("AgentTypes[%d] (%s): Mesh is not TileCache.Mesh()", i, t.Name)
		case (t.TileCache == nil) != (types[0].TileCache == nil):
			return bad("AgentTypes[%d] (%s): every type needs a TileCache or none", i, t.Name)
		case math.IsNaN(float64(t.CarveInflation)) || math.IsInf(float64(t.CarveInflation), 0):
			return bad("AgentTypes[%d] (%s): CarveInflation %v, want a finite number", i, t.Name, t.CarveInflation)
		case len(t.Filters) > components.MaxFilters:
			return bad("AgentTypes[%d] (%s): %d Filters, want at most %d", i, t.Name, len(t.Filters), components.MaxFilters)
		case t.PathQueueIterations < 0:
			return bad("AgentTypes[%d] (%s): PathQueueIterations %d, want >= 0", i, t.Name, t.PathQueueIterations)
		case t.RequestsPerTick < 0 || t.RequestsPerTick > maxPathQueueRequestsPerTick:
			return bad("AgentTypes[%d] (%s): RequestsPerTick %d, want 0..%d", i, t.Name, t.RequestsPerTick, maxPathQueueRequestsPerTick)
		}
		seen[t.Name] = true
		if err := checkFilters(t.Filters); err != nil {
			return bad("AgentTypes[%d] (%s): %v", i, t.Name, err)
		}
		if len(t.Filters) == 0 {
			t.Filters = c.Filters
		}
		if sizes := t.PathQueue; sizes == (crowd.PathQueueConfig{FullSearchUnreachable: sizes.FullSearchUnreachable, ReferenceSchedule: sizes.ReferenceSchedule}) {
			t.PathQueue = c.PathQueue
		}
		if c.Reference {
			t.PathQueue.FullSearchUnreachable = true
			t.PathQueue.ReferenceSchedule = true
			t.PathQueue.NodeLimit = 0
		}
		if t.PathQueueIterations == 0 {
			t.PathQueueIterations = c.PathQueueIterations
		}
		if t.RequestsPerTick == 0 {
			t.RequestsPerTick = c.RequestsPerTick
		}
		switch {
		case t.CarveInflation < 0:
			t.CarveInflation = -1
		case t.CarveInflation == 0 && t.TileCache != nil:
			p := t.TileCache.Params()
			t.CarveInflation = p.WalkableRadius + p.CellSize
		}
	}
	first := &types[0]
	switch {
	case c.Mesh != nil && c.Mesh != first.Mesh:
		return bad("Mesh is not AgentTypes[0].Mesh (leave it nil with AgentTypes)")
	case c.TileCache != nil && c.TileCache != first.TileCache:
		return bad("TileCache is not AgentTypes[0].TileCache (leave it nil with AgentTypes)")
	case c.DynamicMesh != nil && c.DynamicMesh != first.DynamicMesh:
		return bad("DynamicMesh is not AgentTypes[0].DynamicMesh (leave it nil with AgentTypes)")
	}
	c.DynamicMesh = first.DynamicMesh
	c.Mesh, c.TileCache, c.Filters, c.PathQueue = first.Mesh, first.TileCache, first.Filters, first.PathQueue
	c.PathQueueIterations, c.RequestsPerTick = first.PathQueueIterations, first.RequestsPerTick
	c.CarveInflation = first.CarveInflation
	c.AgentTypes = types
	return nil
}

// checkFilters checks the area costs of filters (query.Filter.Validate).
func checkFilters(filters []query.Filter) error {
	for i := range filters {
		if err := filters[i].Validate(); err != nil {
			return fmt.Errorf("Filters[%d]: %w", i, err)
		}
	}
	return nil
}

// agentType is what the plugin's agent API uses of one agent type.
type agentType struct {
	index     int
	name      string
	mesh      *navmesh.Mesh
	query     *query.Query // for the agent API
	pathQueue *crowd.PathQueue
	filters   *components.Filters
}

// AgentType returns the index of the agent type called name, for
// components.AgentParams.Type; ErrInvalidInput when the crowd has none of
// that name. A crowd configured without Config.AgentTypes has one type,
// DefaultAgentTypeName, at index 0.
func (p *Plugin) AgentType(name string) (uint8, error) {
	for i := range p.config.AgentTypes {
		if p.config.AgentTypes[i].Name == name {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("plugin: agent type %q: no such type (have %v): %w", name, p.AgentTypeNames(), ErrInvalidInput)
}

// AgentTypeNames returns the names of the crowd's agent types, in index
// order.
func (p *Plugin) AgentTypeNames() []string {
	names := make([]string, len(p.config.AgentTypes))
	for i := range p.config.AgentTypes {
		names[i] = p.config.AgentTypes[i].Name
	}
	return names
}

// AgentTypeMesh returns the navmesh of agent type index, nil when there is
// no such type.
func (p *Plugin) AgentTypeMesh(index int) *navmesh.Mesh {
	if index < 0 || index >= len(p.config.AgentTypes) {
		return nil
	}
	return p.config.AgentTypes[index].Mesh
}

// typeOf returns the agent type of params (checked by checkParams).
func (p *Plugin) typeOf(params *components.AgentParams) *agentType {
	if t := int(params.Type); t < len(p.types) {
		return &p.types[t]
	}
	return &p.types[0]
}
