package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// agentTypeJSON holds the keys of an -agent-types entry of its own; the
// entry's other keys are those of the settings file (the level's keys
// aside).
type agentTypeJSON struct {
	Name   *string  `json:"name"`
	Radius *float32 `json:"radius"`
	Height *float32 `json:"height"`
	Climb  *float32 `json:"climb"`
	Slope  *float32 `json:"slope"`
}

// agentTypeOwnKeys are agentTypeJSON's keys; agentTypeRefusedKeys are the
// settings keys an entry may not have, with what to write instead.
var (
	agentTypeOwnKeys     = map[string]bool{"name": true, "radius": true, "height": true, "climb": true, "slope": true}
	agentTypeRefusedKeys = map[string]string{
		"agentRadius":        `write "radius"`,
		"agentHeight":        `write "height"`,
		"agentMaxClimb":      `write "climb"`,
		"agentMaxSlope":      `write "slope"`,
		"convexVolumes":      "the level's area volumes belong in -config",
		"offMeshConnections": "the level's connections belong in -config",
	}
)

// loadAgentTypes reads an -agent-types file (parseAgentTypes).
func loadAgentTypes(path string, base bake.Settings) ([]bake.AgentType, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	types, err := parseAgentTypes(file, base)
	if err != nil {
		return nil, fmt.Errorf("agent types %s: %w", path, err)
	}
	return types, nil
}

// parseAgentTypes parses an -agent-types file: a JSON array of objects,
// each an agent type with its "name", its "radius", "height", "climb" and
// "slope" (each optional, base's when left out) and any key of the
// settings file but the agent's and the level's (convexVolumes,
// offMeshConnections), which overrides base for that type. Every type's
// settings are validated, and the names checked as the mesh set needs
// them.
func parseAgentTypes(file []byte, base bake.Settings) ([]bake.AgentType, error) {
	decoder := json.NewDecoder(bytes.NewReader(file))
	var entries []map[string]json.RawMessage
	if err := decoder.Decode(&entries); err != nil {
		return nil, fmt.Errorf("want a JSON array of agent types: %w", err)
	}
	if _, err := decoder.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the array of agent types")
	}
	if len(entries) == 0 {
		return nil, errors.New("no agent types")
	}
	types := make([]bake.AgentType, len(entries))
	for i, entry := range entries {
		t, err := parseAgentType(entry, base)
		if err != nil {
			if t.Name != "" {
				return nil, fmt.Errorf("type %d (%q): %w", i, t.Name, err)
			}
			return nil, fmt.Errorf("type %d: %w", i, err)
		}
		types[i] = t
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.Name
	}
	if err := navmesh.ValidateMeshNames(names); err != nil {
		return nil, err
	}
	return types, nil
}

// parseAgentType parses one entry of an -agent-types file; the type it
// returns carries the name as soon as it is known.
func parseAgentType(entry map[string]json.RawMessage, base bake.Settings) (bake.AgentType, error) {
	var t bake.AgentType
	var own agentTypeJSON
	// encoding/json matches keys without regard to case: ours must be
	// spelled exactly, as the settings file's are.
	for key := range entry {
		if lower := strings.ToLower(key); agentTypeOwnKeys[lower] && key != lower {
			return t, fmt.Errorf("unknown key %q", key)
		}
	}
	ownKeys, err := json.Marshal(entry)
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal(ownKeys, &own); err != nil {
		return t, err
	}
	if own.Name == nil {
		return t, errors.New(`no "name"`)
	}
	t.Name = *own.Name
	rest := map[string]json.RawMessage{}
	for key, value := range entry {
		if why, refused := agentTypeRefusedKeys[key]; refused {
			return t, fmt.Errorf("key %q: %s", key, why)
		}
		if !agentTypeOwnKeys[key] {
			rest[key] = value
		}
	}
	s := base
	setFloat(&s.AgentRadius, own.Radius)
	setFloat(&s.AgentHeight, own.Height)
	setFloat(&s.AgentMaxClimb, own.Climb)
	setFloat(&s.AgentMaxSlope, own.Slope)
	overrides, err := json.Marshal(rest)
	if err != nil {
		return t, err
	}
	if t.Settings, err = parseBakeSettings(overrides, &bake.Geometry{}, s); err != nil {
		return t, err
	}
	return t, nil
}

// typesReport is what `navtool bake -agent-types` prints; its JSON form is
// the -json output: the level, one bake report per type and what the
// types shared.
type typesReport struct {
	Input          string       `json:"input"`
	InputVertices  int          `json:"inputVertices"`
	InputTriangles int          `json:"inputTriangles"`
	Mode           string       `json:"mode"`
	Types          []typeReport `json:"types"`
	Bakes          int          `json:"bakes"`
	Rasterizations int          `json:"rasterizations"`
	Compactions    int          `json:"compactions"`
	Workers        int          `json:"workers"`
	TotalMs        float64      `json:"totalMs"`
	Output         string       `json:"output"`
	Format         string       `json:"format"`
	OutputBytes    int          `json:"outputBytes"`
}

// typeReport is one type's bake report, under its name.
type typeReport struct {
	Name string `json:"name"`
	*bakeReport
}

// runBakeTypes bakes the types of the -agent-types file, whose settings
// start from settings, as runBake bakes one.
func runBakeTypes(ctx context.Context, o *bakeOptions, g *bake.Geometry, settings bake.Settings, stdout io.Writer) error {
	types, err := loadAgentTypes(o.agentTypesPath, settings)
	if err != nil {
		return err
	}
	for i := range types {
		s := &types[i].Settings
		if o.tileSizeSet {
			s.TileSize = o.tileSize
		}
		if o.tileCache && s.TileSize == 0 {
			s.TileSize = defaultTileCacheTileSize
		}
		if (s.TileSize == 0) != (types[0].Settings.TileSize == 0) {
			return fmt.Errorf("agent types %q and %q: one is solo (tile size 0), the other tiled: bake them apart or give -tile-size", types[0].Name, types[i].Name)
		}
	}
	tiled := types[0].Settings.TileSize > 0
	switch {
	case o.format == "dnav" || o.format == "mset" || o.format == "tset":
		return fmt.Errorf("format %s holds one mesh: -agent-types writes own (one file of all the types)", o.format)
	case !tiled && o.tiles != nil:
		return errors.New("-tiles needs a tiled bake: give -tile-size or a tileSize setting")
	}

	report := &typesReport{
		Input:          o.input,
		InputVertices:  len(g.Vertices),
		InputTriangles: len(g.Triangles),
		Output:         o.outPath,
		Format:         o.format,
	}
	typeReports := make([]*bakeReport, len(types))
	for i := range typeReports {
		typeReports[i] = &bakeReport{Input: o.input, InputVertices: len(g.Vertices), InputTriangles: len(g.Triangles)}
	}
	var stats bake.TypesStats
	var write func(*bytes.Buffer) error
	switch {
	case o.tileCache:
		report.Mode = "tilecache"
		result, err := bake.TileCacheTypes(ctx, g, types, bake.TileCacheOptions{Workers: o.workers, Tiles: o.tiles, Compressor: tilecache.FastLZ{}})
		if err != nil {
			return err
		}
		stats = result.Stats
		for i, r := range result.Results {
			typeReports[i].setTileCache(r)
		}
		write = func(file *bytes.Buffer) error {
			caches, set, err := result.Caches(tilecache.Options{})
			if err != nil {
				return err
			}
			named := make([]tilecache.NamedCache, len(caches))
			for i := range caches {
				named[i] = tilecache.NamedCache{Name: set[i].Name, Cache: caches[i]}
			}
			return tilecache.SaveSet(file, named)
		}
	case tiled:
		report.Mode = "tiled"
		result, err := bake.TiledTypes(ctx, g, types, bake.TiledOptions{Workers: o.workers, Tiles: o.tiles})
		if err != nil {
			return err
		}
		stats = result.Stats
		for i, r := range result.Results {
			if err := typeReports[i].setTiled(r); err != nil {
				return err
			}
		}
		write = func(file *bytes.Buffer) error {
			set, err := result.MeshSet()
			if err != nil {
				return err
			}
			return navmesh.SaveSet(file, set)
		}
	default:
		report.Mode = "solo"
		result, err := bake.SoloTypes(ctx, g, types, bake.SoloTypesOptions{Workers: o.workers})
		if err != nil {
			return err
		}
		stats = result.Stats
		for i, r := range result.Results {
			typeReports[i].setSolo(r)
		}
		write = func(file *bytes.Buffer) error {
			set, err := result.MeshSet()
			if err != nil {
				return err
			}
			return navmesh.SaveSet(file, set)
		}
	}
	for i, r := range typeReports {
		report.Types = append(report.Types, typeReport{Name: types[i].Name, bakeReport: r})
	}
	report.Bakes, report.Rasterizations, report.Compactions = stats.Bakes, stats.Rasterizations, stats.Compactions
	report.Workers, report.TotalMs = stats.Workers, ms(stats.Wall)

	if o.outPath != "" {
		var file bytes.Buffer
		if err := write(&file); err != nil {
			return err
		}
		if err := os.WriteFile(o.outPath, file.Bytes(), 0o644); err != nil {
			return err
		}
		report.OutputBytes = file.Len()
	}
	if o.asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	return printTypesReport(stdout, report)
}

// printTypesReport prints the report of a bake of several types: what they
// shared, then each type's summary.
func printTypesReport(w io.Writer, r *typesReport) error {
	names := make([]string, len(r.Types))
	for i, t := range r.Types {
		names[i] = t.Name
	}
	fmt.Fprintf(w, "input:        %s (%d vertices, %d triangles)\n", r.Input, r.InputVertices, r.InputTriangles)
	fmt.Fprintf(w, "agent types:  %s (%s; %d bakes, %d rasterizations, %d compactions, %d workers, %.2f ms)\n",
		strings.Join(names, ", "), r.Mode, r.Bakes, r.Rasterizations, r.Compactions, r.Workers, r.TotalMs)
	for _, t := range r.Types {
		fmt.Fprintf(w, "type %q:\n", t.Name)
		var block bytes.Buffer
		if err := printBakeReport(&block, t.bakeReport); err != nil {
			return err
		}
		lines := strings.Split(strings.TrimSuffix(block.String(), "\n"), "\n")
		for _, line := range lines[1:] { // the input line is the report's
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if r.Output != "" {
		fmt.Fprintf(w, "wrote:        %s (%s, %d bytes)\n", r.Output, r.Format, r.OutputBytes)
	}
	return nil
}
