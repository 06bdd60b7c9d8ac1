package sim

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// AgentType is one kind of agent in the demo crowd: its size and speed, and
// the navmesh baked for its size that its agents walk.
type AgentType struct {
	// Name names the type in the crowd and the figures [Limit: not empty,
	// unique].
	Name string
	// Mesh is the type's navmesh [Limit: not nil].
	Mesh *navmesh.Mesh
	// TileCache, when not nil, is the cache Mesh is built from: crates and
	// doors carve it. Either every type has one or none has.
	TileCache *tilecache.Cache
	// Radius and Height are the agents' size [Limit: > 0] [Units: world
	// units].
	Radius, Height float32
	// MaxSpeed [Limit: > 0] [Units: world units per second]
	MaxSpeed float32
	// MaxAcceleration [Limit: > 0] [Units: world units per second squared]
	MaxAcceleration float32
	// Share is how many of every round of agents are of this type: agents
	// are given types in spawn order, Share of the first type, then Share
	// of the second, and so on, round after round [Limit: 1..100].
	Share int
}

// DefaultLargeType returns the demo's large, slow agent type on mesh (and
// cache): radius 1.8, 60 % of RecastDemo's agent's speed and acceleration,
// one in every three agents next to SmallType's two.
func DefaultLargeType(mesh *navmesh.Mesh, cache *tilecache.Cache) AgentType {
	return AgentType{Name: "large", Mesh: mesh, TileCache: cache, Radius: 1.8, Height: 2, MaxSpeed: 2.1, MaxAcceleration: 4.8, Share: 1}
}

// firstType is the one agent type of New: mesh with config's cache, size
// and speed.
func (c *Config) firstType(name string, mesh *navmesh.Mesh, share int) AgentType {
	return AgentType{
		Name: name, Mesh: mesh, TileCache: c.TileCache,
		Radius: c.Radius, Height: c.Height, MaxSpeed: c.MaxSpeed, MaxAcceleration: c.MaxAcceleration,
		Share: share,
	}
}

// SmallType returns DefaultConfig's agent (RecastDemo's crowd tool agent)
// as a type named "small" on mesh (and cache), two in every round.
func SmallType(mesh *navmesh.Mesh, cache *tilecache.Cache) AgentType {
	config := DefaultConfig()
	config.TileCache = cache
	return config.firstType("small", mesh, 2)
}

// maxShare bounds AgentType.Share.
const maxShare = 100

func validateTypes(types []AgentType) error {
	if len(types) == 0 {
		return errors.New("sim: no agent types")
	}
	if len(types) > components.MaxAgentTypes {
		return fmt.Errorf("sim: %d agent types, at most %d", len(types), components.MaxAgentTypes)
	}
	names := map[string]bool{}
	for i, t := range types {
		switch {
		case t.Name == "" || names[t.Name]:
			return fmt.Errorf("sim: agent type %d: name %q empty or used twice", i, t.Name)
		case t.Mesh == nil:
			return fmt.Errorf("sim: agent type %q: no navmesh", t.Name)
		case (t.TileCache == nil) != (types[0].TileCache == nil):
			return fmt.Errorf("sim: agent type %q: either every type has a tile cache or none has", t.Name)
		case !(t.Radius > 0) || !(t.Height > 0) || !(t.MaxSpeed > 0) || !(t.MaxAcceleration > 0):
			return fmt.Errorf("sim: agent type %q: radius, height, speed and acceleration must be positive", t.Name)
		case t.Share < 1 || t.Share > maxShare:
			return fmt.Errorf("sim: agent type %q: share %d outside 1..%d", t.Name, t.Share, maxShare)
		}
		names[t.Name] = true
	}
	return nil
}

// crowdType is an agent type in the running crowd, with what the demo
// asks of its mesh.
type crowdType struct {
	AgentType
	// params are the type's agents' parameters (Type set).
	params components.AgentParams
	// query runs the demo's own queries on the type's mesh: drawn paths,
	// targets.
	query *query.Query
	// spawns draws spawn points and targets on the largest connected part
	// of the type's mesh, so no agent starts on an island it cannot
	// leave, such as the top of a wall.
	spawns *query.ComponentSampler
	// target is the type's common target in Gather mode, valid when
	// hasTarget (the type's mesh may have none near it).
	target    [3]float32
	hasTarget bool
	// agents and arrivals count the type's agents and their targets
	// reached.
	agents, arrivals int
}

// typeOf returns the type of the agent spawned index-th: Share agents of
// each type in turn.
func (s *Sim) typeOf(index int) int {
	round := 0
	for i := range s.types {
		round += s.types[i].Share
	}
	r := index % round
	for i := range s.types {
		if r < s.types[i].Share {
			return i
		}
		r -= s.types[i].Share
	}
	return 0
}

// TypeStats are the figures of one agent type.
type TypeStats struct {
	// Name and Radius are the type's [Units: world units].
	Name   string
	Radius float32
	// Agents alive now, and their Arrivals (targets reached).
	Agents, Arrivals int
}

// Types returns the crowd's agent types, in order (an agent's
// scene.Agent.Type indexes them).
func (s *Sim) Types() []AgentType {
	out := make([]AgentType, len(s.types))
	for i := range s.types {
		out[i] = s.types[i].AgentType
	}
	return out
}
