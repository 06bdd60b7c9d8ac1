package main

import (
	"fmt"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/examples/demo_game/sim"
)

// tickRate is how many crowd ticks run per simulated second.
const tickRate = 30

// demo is what both the headless run and the window work on.
type demo struct {
	level *level.Level
	layer *scene.NavmeshLayer
	crowd *sim.Sim
}

func setup(o *options) (*demo, error) {
	lvl, err := level.Load(o.level, level.Options{TileSize: o.tileSize, Workers: o.workers, Links: o.links, TileCache: o.obstacles && !o.links})
	if err != nil {
		return nil, err
	}
	layer, err := scene.NewNavmeshLayer(lvl.Mesh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lvl.Name, err)
	}
	config := sim.DefaultConfig()
	config.Agents = o.agents
	config.MaxAgents = max(maxAgents, o.agents)
	config.Seed = o.seed
	config.Workers = o.workers
	config.TileCache = lvl.Cache
	crowd, err := sim.New(lvl.Mesh, config)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lvl.Name, err)
	}
	return &demo{level: lvl, layer: layer, crowd: crowd}, nil
}

// bakeSummary is the line about the level.
func (d *demo) bakeSummary() string {
	l := d.level
	verb := "loaded"
	if l.Baked {
		verb = fmt.Sprintf("baked %d triangles", l.Triangles)
	}
	summary := fmt.Sprintf("level %s: %s in %.1f ms -> %d tiles, %d polygons, %d vertices, %d wall edges",
		l.Name, verb, float64(l.BakeTime.Microseconds())/1000, l.Tiles, l.Polygons, l.Vertices, d.layer.Walls())
	if l.Cache != nil {
		summary += fmt.Sprintf(" (a tile cache: %d layers)", l.Cache.LayerCount())
	}
	if l.OffMeshConnections > 0 {
		summary += fmt.Sprintf(", %d off-mesh links", l.OffMeshConnections)
	}
	return summary
}
