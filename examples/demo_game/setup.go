package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/examples/demo_game/sim"
)

// tickRate is how many crowd ticks run per simulated second.
const tickRate = 30

// demo is what both the headless run and the window work on.
type demo struct {
	level *level.Level
	// layers draw each agent type's navmesh; layer, the first, is the
	// one shown.
	layers []*scene.NavmeshLayer
	layer  *scene.NavmeshLayer
	// difference hatches where only the first type's mesh reaches; nil
	// with one type.
	difference *scene.MeshDifference
	crowd      *sim.Sim
}

// smallRadius is the radius of the demo's small agents, RecastDemo's
// default agent [Units: world units].
const smallRadius = 0.6

func setup(o *options) (*demo, error) {
	var types []level.AgentType
	if o.largeRadius > 0 && !o.dynamic {
		types = level.DefaultTypes()
		types[1].Radius = o.largeRadius
	}
	lvl, err := level.Load(o.level, level.Options{TileSize: o.tileSize, Workers: o.workers, Links: o.links, TileCache: o.obstacles && !o.links && !o.dynamic, Dynamic: o.dynamic, Types: types})
	if err != nil {
		return nil, err
	}
	d := &demo{level: lvl}
	for _, t := range lvl.Types {
		layer, err := scene.NewNavmeshLayer(t.Mesh)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", lvl.Name, t.Name, err)
		}
		d.layers = append(d.layers, layer)
	}
	d.layer = d.layers[0]
	config := sim.DefaultConfig()
	config.Agents = o.agents
	config.MaxAgents = max(maxAgents, o.agents)
	config.Seed = o.seed
	config.Workers = o.workers
	config.TileCache = lvl.Cache
	if lvl.Dynamic != nil {
		config.DynamicMesh = lvl.Dynamic
	}
	if len(lvl.Types) == 1 {
		d.crowd, err = sim.New(lvl.Mesh, config)
	} else {
		small, large := lvl.Types[0], lvl.Types[1]
		largeType := sim.DefaultLargeType(large.Mesh, large.Cache)
		largeType.Radius = large.Radius
		d.crowd, err = sim.NewTypes([]sim.AgentType{sim.SmallType(small.Mesh, small.Cache), largeType}, config)
		if err == nil {
			d.difference, err = scene.NewMeshDifference(d.layers[0], d.layers[1], differenceWidth(small.Radius, large.Radius))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lvl.Name, err)
	}
	return d, nil
}

// differenceWidth is the narrowest region of the small mesh that the large
// one lacks that the demo hatches: wider than the band along every wall
// that the large mesh's greater erosion leaves, (large - small) and twice
// that at a corner, plus the meshes' rounding [Units: world units].
func differenceWidth(small, large float32) float32 {
	return float32(2*(large-small)) + 1.2
}

// refresh takes every layer's new snapshot when the tile cache changed its
// mesh and reports whether any did (the background is drawn again then).
func (d *demo) refresh() bool {
	refreshed := false
	for _, layer := range d.layers {
		refreshed = layer.Refresh() || refreshed
	}
	return refreshed
}

// drawNavmesh draws the first type's navmesh, hatches where only it
// reaches, and outlines the second type's mesh over it.
func (d *demo) drawNavmesh(c render.Canvas, v scene.View) {
	d.layer.Draw(c, v)
	if d.difference != nil {
		d.difference.Draw(c, v)
		d.layers[1].DrawOutline(c, v, 1, scene.LargeOutline)
	}
}

// legend returns the legend line of a crowd of several types: each type's
// colour, name, radius and speed, the second type's mesh outline and the
// hatching of where only the first type's mesh reaches; nil with one type.
func (d *demo) legend() []scene.LegendEntry {
	if d.difference == nil {
		return nil
	}
	var entries []scene.LegendEntry
	for i, t := range d.crowd.Types() {
		entries = append(entries, scene.LegendEntry{
			Label: fmt.Sprintf("%s r%.1f %.1fm/s", t.Name, t.Radius, t.MaxSpeed),
			Color: scene.AgentHue(scene.TypeHue(i)),
		})
	}
	names := d.crowd.Types()
	return append(entries,
		scene.LegendEntry{Label: names[1].Name + " mesh edge", Color: scene.LargeOutline, Swatch: scene.SwatchLine},
		scene.LegendEntry{Label: "only " + names[0].Name, Swatch: scene.SwatchHatch})
}

// printTypes prints a line of each agent type's figures when there are
// several.
func printTypes(w io.Writer, stats sim.Stats) {
	if len(stats.Types) < 2 {
		return
	}
	parts := make([]string, len(stats.Types))
	for i, t := range stats.Types {
		parts[i] = fmt.Sprintf("%s (r %.1f) %d agents, %d arrivals", t.Name, t.Radius, t.Agents, t.Arrivals)
	}
	fmt.Fprintf(w, "by type: %s\n", strings.Join(parts, "; "))
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
	if len(l.Types) > 1 {
		var types []string
		for _, t := range l.Types {
			types = append(types, fmt.Sprintf("%s r %.1f: %d polygons", t.Name, t.Radius, t.Polygons))
		}
		summary += fmt.Sprintf("\nagent types baked together: %s", strings.Join(types, ", "))
	}
	return summary
}
