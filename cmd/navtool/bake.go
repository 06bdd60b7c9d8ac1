package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

func init() {
	register("bake", "bake a navmesh (solo or tiled) or tile cache layers from an OBJ level", runBake)
}

// bakeOptions are the parsed flags of `navtool bake`.
type bakeOptions struct {
	configPath string
	outPath    string
	format     string
	tileSize   int
	// tileSizeSet tells whether -tile-size was given (it then wins over
	// the settings file).
	tileSizeSet bool
	workers     int
	asJSON      bool
	autoLinks   bool
	input       string
	// tiles is the -tiles range, nil for the whole grid.
	tiles *bake.TileRange
	// tileCache selects the tile cache bake.
	tileCache bool
	// agentTypesPath is the -agent-types file, "" for one bake.
	agentTypesPath string
}

// defaultTileCacheTileSize is the tile side of a tile cache bake without
// -tile-size or a tileSize setting: RecastDemo's tile cache sample's.
const defaultTileCacheTileSize = 48

func parseBakeFlags(args []string, stdout io.Writer) (*bakeOptions, error) {
	flags := flag.NewFlagSet("bake", flag.ContinueOnError)
	flags.SetOutput(stdout)
	o := &bakeOptions{}
	flags.StringVar(&o.configPath, "config", "", "settings JSON `file` (keys in docs/navtool.md); RecastDemo defaults without it")
	flags.StringVar(&o.outPath, "o", "", "write the navmesh to `file` (nothing is written without -o)")
	flags.StringVar(&o.format, "format", "own", "output format: own (archenav mesh file, or tile cache file with -tilecache), dnav (C++ tile, solo only), mset (RecastDemo tile set) or tset (RecastDemo tile cache file, with -tilecache)")
	flags.IntVar(&o.tileSize, "tile-size", 0, "tile side in `cells`; 0 bakes one solo tile (without the flag: the settings' tileSize)")
	flags.IntVar(&o.workers, "workers", 0, "`goroutines` baking tiles; 0 means GOMAXPROCS")
	flags.BoolVar(&o.asJSON, "json", false, "print the summary as one JSON object")
	flags.BoolVar(&o.autoLinks, "auto-links", false, "place drop and jump links along the mesh's edges with the default link settings (the settings file's \"links\" keys tune them); not with -tilecache: its layers hold no links")
	flags.BoolVar(&o.tileCache, "tilecache", false, "bake tile cache layers (Sample_TempObstacles), tiles of 48 cells unless told otherwise")
	flags.StringVar(&o.agentTypesPath, "agent-types", "", "bake one mesh per agent type of the JSON `file` (a list of {name, radius, height, climb, slope, ...settings keys}, see docs/navtool.md) and write them all to one own file")
	var tiles string
	flags.StringVar(&tiles, "tiles", "", "bake only the tiles `X0:X1,Y0:Y1` (inclusive, on the whole level's grid) of a tiled or tile cache bake; merge the parts with navtool merge")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: navtool bake [-config settings.json] [-agent-types types.json] [-o out.navmesh] [-format own|dnav|mset|tset] [-tile-size N] [-tiles X0:X1,Y0:Y1] [-tilecache] [-auto-links] [-workers N] [-json] input.obj")
		fmt.Fprintln(flags.Output(), "Bakes a navigation mesh or tile cache layers from an OBJ level with RecastDemo's pipeline and prints a summary.")
		fmt.Fprintln(flags.Output(), "With -agent-types it bakes one per agent type, sharing the work the types' settings allow. The types file is")
		fmt.Fprintln(flags.Output(), "a JSON array of objects, each with a \"name\" (unique), optional \"radius\", \"height\", \"climb\" (world units)")
		fmt.Fprintln(flags.Output(), "and \"slope\" (degrees), the -config values when left out, and any other settings key (cellSize, regionMinSize,")
		fmt.Fprintln(flags.Output(), "links, ...) overriding -config for that type:")
		fmt.Fprintln(flags.Output(), `  [{"name": "soldier", "radius": 0.6, "height": 2}, {"name": "ogre", "radius": 1.5, "height": 3, "climb": 0.6}]`)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return nil, errors.New("want exactly one input.obj")
	}
	o.input = flags.Arg(0)
	flags.Visit(func(f *flag.Flag) { o.tileSizeSet = o.tileSizeSet || f.Name == "tile-size" })
	switch o.format {
	case "own", "dnav", "mset", "tset":
	default:
		return nil, fmt.Errorf("unknown format %q: want own, dnav or mset (tset with -tilecache)", o.format)
	}
	if o.tileSize < 0 {
		return nil, fmt.Errorf("tile size %d must not be negative", o.tileSize)
	}
	if o.workers < 0 {
		return nil, fmt.Errorf("workers %d must not be negative", o.workers)
	}
	if tiles != "" {
		area, err := parseTileRange(tiles)
		if err != nil {
			return nil, err
		}
		o.tiles = &area
	}
	if o.tileCache {
		switch o.format {
		case "own", "tset":
		default:
			return nil, fmt.Errorf("format %s holds navmeshes: a tile cache bake writes own (archenav tile cache file) or tset", o.format)
		}
	} else if o.format == "tset" {
		return nil, errors.New("format tset holds tile cache layers: give -tilecache")
	}
	return o, nil
}

// parseTileRange parses a -tiles value, "X0:X1,Y0:Y1" with X0 <= X1 and
// Y0 <= Y1, or "X,Y" for one tile.
func parseTileRange(text string) (bake.TileRange, error) {
	bad := func(why string) (bake.TileRange, error) {
		return bake.TileRange{}, fmt.Errorf("-tiles %q: %s (want X0:X1,Y0:Y1)", text, why)
	}
	xs, ys, ok := strings.Cut(text, ",")
	if !ok {
		return bad("no comma between the x and y ranges")
	}
	var bounds [4]int
	for i, part := range []string{xs, ys} {
		low, high, isRange := strings.Cut(part, ":")
		if !isRange {
			high = low
		}
		for j, number := range []string{low, high} {
			n, err := strconv.Atoi(strings.TrimSpace(number))
			if err != nil {
				return bad(fmt.Sprintf("%q is not a tile index", number))
			}
			if n < 0 {
				return bad(fmt.Sprintf("tile index %d is negative", n))
			}
			bounds[2*i+j] = n
		}
		if bounds[2*i] > bounds[2*i+1] {
			return bad(fmt.Sprintf("%d > %d", bounds[2*i], bounds[2*i+1]))
		}
	}
	return bake.TileRange{MinX: bounds[0], MaxX: bounds[1], MinY: bounds[2], MaxY: bounds[3]}, nil
}

func runBake(args []string, stdout io.Writer) error {
	o, err := parseBakeFlags(args, stdout)
	if err != nil {
		return err
	}
	// Ctrl-C stops a bake between two stages.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g, err := bake.LoadOBJ(o.input)
	if err != nil {
		return err
	}
	settings := defaultBakeSettings()
	if o.autoLinks {
		settings.Links.Drops, settings.Links.Jumps = true, true
	}
	if o.configPath != "" {
		if settings, err = loadBakeSettings(o.configPath, g, settings); err != nil {
			return err
		}
	}
	if o.agentTypesPath != "" {
		return runBakeTypes(ctx, o, g, settings, stdout)
	}
	if o.tileSizeSet {
		settings.TileSize = o.tileSize
	}
	if o.tileCache && settings.TileSize == 0 {
		settings.TileSize = defaultTileCacheTileSize
	}
	if settings.TileSize > 0 && o.format == "dnav" {
		return errors.New("format dnav holds one tile: bake solo (-tile-size 0) or use mset or own")
	}
	if settings.TileSize == 0 && o.tiles != nil {
		return errors.New("-tiles needs a tiled bake: give -tile-size or a tileSize setting")
	}

	report := &bakeReport{
		Input:          o.input,
		InputVertices:  len(g.Vertices),
		InputTriangles: len(g.Triangles),
		Output:         o.outPath,
		Format:         o.format,
	}
	// The estimate comes before the bake, so that a long one says so first.
	workers := o.workers
	if workers == 0 || settings.TileSize == 0 {
		workers = runtime.GOMAXPROCS(0)
		if settings.TileSize == 0 {
			workers = 1
		}
	}
	estimated := func(work bake.WorkEstimate) {
		report.Work = newWorkReport(work, workers)
		if !o.asJSON {
			fmt.Fprintf(stdout, "work:         %s\n", report.Work.text)
		}
	}
	if o.tileCache {
		result, err := bake.TileCache(ctx, g, settings, bake.TileCacheOptions{Workers: o.workers, Tiles: o.tiles, Compressor: tilecache.FastLZ{}, WorkEstimated: estimated})
		if err != nil {
			return err
		}
		report.setTileCache(result)
		if o.outPath != "" {
			cache, _, err := result.Cache(tilecache.Options{})
			if err != nil {
				return err
			}
			if report.OutputBytes, err = writeTileCache(o.outPath, o.format, cache); err != nil {
				return err
			}
		}
		return printReport(stdout, report, o.asJSON)
	}
	var mesh *navmesh.Mesh
	var soloTile *navmesh.TileData
	if settings.TileSize == 0 {
		result, err := bake.Solo(ctx, g, settings, bake.WithWorkEstimate(estimated))
		if err != nil {
			return err
		}
		report.setSolo(result)
		soloTile = result.TileData
		if mesh, err = result.NavMesh(); err != nil {
			return err
		}
	} else {
		result, err := bake.Tiled(ctx, g, settings, bake.TiledOptions{Workers: o.workers, Tiles: o.tiles, WorkEstimated: estimated})
		if err != nil {
			return err
		}
		if err := report.setTiled(result); err != nil {
			return err
		}
		if mesh, err = result.NavMesh(); err != nil {
			return err
		}
	}

	if o.outPath != "" {
		size, err := writeNavMesh(o.outPath, o.format, mesh, soloTile)
		if err != nil {
			return err
		}
		report.OutputBytes = size
	}
	return printReport(stdout, report, o.asJSON)
}

// printReport prints the report as indented JSON or as text.
func printReport(stdout io.Writer, report *bakeReport, asJSON bool) error {
	if asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	return printBakeReport(stdout, report)
}

// soloMesh puts a solo tile in a mesh of its own.
func soloMesh(tile *navmesh.TileData) (*navmesh.Mesh, error) {
	mesh, err := navmesh.New(navmesh.SingleTileParams(tile))
	if err != nil {
		return nil, err
	}
	if _, err := mesh.AddTile(tile, 0); err != nil {
		return nil, err
	}
	return mesh, nil
}

// writeTileCache encodes the cache in format (own or tset) and writes it to
// path, replacing the file only once the whole encoding succeeded; it
// returns the size.
func writeTileCache(path, format string, cache *tilecache.Cache) (int, error) {
	var file []byte
	switch format {
	case "own":
		var buf bytes.Buffer
		if err := cache.Save(&buf); err != nil {
			return 0, err
		}
		file = buf.Bytes()
	case "tset":
		var err error
		if file, err = tilecache.MarshalTSET(cache.TileSet()); err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("format %s holds navmeshes, not tile caches", format)
	}
	if err := os.WriteFile(path, file, 0o644); err != nil {
		return 0, err
	}
	return len(file), nil
}

// writeNavMesh encodes the mesh in format and writes it to path, replacing
// the file only once the whole encoding succeeded; it returns the size.
func writeNavMesh(path, format string, mesh *navmesh.Mesh, soloTile *navmesh.TileData) (int, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "own":
		err = navmesh.Save(&buf, mesh)
	case "dnav":
		err = navmesh.WriteDNAV(&buf, soloTile)
	case "mset":
		err = navmesh.WriteMSET(&buf, navmesh.TileSetFromMesh(mesh))
	}
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return 0, err
	}
	return buf.Len(), nil
}
