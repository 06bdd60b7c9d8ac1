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

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

func init() {
	register("bake", "bake a navmesh from an OBJ level, solo or tiled", runBake)
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
}

func parseBakeFlags(args []string, stdout io.Writer) (*bakeOptions, error) {
	flags := flag.NewFlagSet("bake", flag.ContinueOnError)
	flags.SetOutput(stdout)
	o := &bakeOptions{}
	flags.StringVar(&o.configPath, "config", "", "settings JSON `file` (keys in the README); RecastDemo defaults without it")
	flags.StringVar(&o.outPath, "o", "", "write the navmesh to `file` (nothing is written without -o)")
	flags.StringVar(&o.format, "format", "own", "output format: own (archenav mesh file), dnav (C++ tile, solo only) or mset (RecastDemo tile set)")
	flags.IntVar(&o.tileSize, "tile-size", 0, "tile side in `cells`; 0 bakes one solo tile (without the flag: the settings' tileSize)")
	flags.IntVar(&o.workers, "workers", 0, "`goroutines` baking tiles; 0 means GOMAXPROCS")
	flags.BoolVar(&o.asJSON, "json", false, "print the summary as one JSON object")
	flags.BoolVar(&o.autoLinks, "auto-links", false, "place drop and jump links along the mesh's edges with the default link settings (the settings file's \"links\" keys tune them)")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: navtool bake [-config settings.json] [-o out.navmesh] [-format own|dnav|mset] [-tile-size N] [-workers N] [-auto-links] [-json] input.obj")
		fmt.Fprintln(flags.Output(), "Bakes a navigation mesh from an OBJ level with RecastDemo's pipeline and prints a summary.")
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
	case "own", "dnav", "mset":
	default:
		return nil, fmt.Errorf("unknown format %q: want own, dnav or mset", o.format)
	}
	if o.tileSize < 0 {
		return nil, fmt.Errorf("tile size %d must not be negative", o.tileSize)
	}
	if o.workers < 0 {
		return nil, fmt.Errorf("workers %d must not be negative", o.workers)
	}
	return o, nil
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
	if o.tileSizeSet {
		settings.TileSize = o.tileSize
	}
	if settings.TileSize > 0 && o.format == "dnav" {
		return errors.New("format dnav holds one tile: bake solo (-tile-size 0) or use mset or own")
	}

	report := &bakeReport{
		Input:          o.input,
		InputVertices:  len(g.Vertices),
		InputTriangles: len(g.Triangles),
		Output:         o.outPath,
		Format:         o.format,
	}
	var mesh *navmesh.Mesh
	var soloTile *navmesh.TileData
	if settings.TileSize == 0 {
		result, err := bake.Solo(ctx, g, settings)
		if err != nil {
			return err
		}
		report.setSolo(result)
		soloTile = result.TileData
		if mesh, err = soloMesh(result.TileData); err != nil {
			return err
		}
	} else {
		result, err := bake.Tiled(ctx, g, settings, bake.TiledOptions{Workers: o.workers})
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
	if o.asJSON {
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
