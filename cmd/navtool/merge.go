package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

func init() {
	register("merge", "merge the navmesh or tile cache files of range bakes (bake -tiles) into one", runMerge)
}

// mergeReport is what `navtool merge` prints; its JSON form is the -json
// output.
type mergeReport struct {
	// Kind is "navmesh" or "tilecache".
	Kind   string       `json:"kind"`
	Inputs []mergeInput `json:"inputs"`
	// Tiles counts the merged navmesh's tiles, or the tile cache's
	// layers.
	Tiles       int    `json:"tiles"`
	Output      string `json:"output"`
	Format      string `json:"format"`
	OutputBytes int    `json:"outputBytes"`
}

// mergeInput is one input file of a merge.
type mergeInput struct {
	File   string `json:"file"`
	Format string `json:"format"`
	// Tiles counts the file's navmesh tiles, or tile cache layers.
	Tiles int `json:"tiles"`
}

func runMerge(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("merge", flag.ContinueOnError)
	flags.SetOutput(stdout)
	outPath := flags.String("o", "", "write the merged file to `file` (required)")
	format := flags.String("format", "", "output format: own (archenav navmesh or tile cache file), mset (RecastDemo tile set) or tset (RecastDemo tile cache file); default: the inputs' format when they share one, else own")
	asJSON := flags.Bool("json", false, "print the summary as one JSON object")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: navtool merge -o OUT [-format own|mset|tset] [-json] IN...")
		fmt.Fprintln(flags.Output(), "Merges the navmesh or tile cache files of range bakes of one level (navtool bake -tiles) into the whole level's file.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *outPath == "" {
		flags.Usage()
		return errors.New("-o is required")
	}
	if flags.NArg() == 0 {
		flags.Usage()
		return errors.New("no input files")
	}
	switch *format {
	case "", "own", "mset", "tset":
	default:
		return fmt.Errorf("unknown format %q: want own, mset or tset", *format)
	}

	files := flags.Args()
	contents := make([][]byte, len(files))
	tileCaches := 0
	for i, path := range files {
		var err error
		if contents[i], err = os.ReadFile(path); err != nil {
			return err
		}
		if tilecache.DetectFormat(contents[i]) != tilecache.FormatUnknown {
			tileCaches++
		}
	}
	report := &mergeReport{Output: *outPath}
	var err error
	switch tileCaches {
	case 0:
		err = mergeNavMeshes(files, contents, *format, report)
	case len(files):
		err = mergeTileCaches(files, contents, *format, report)
	default:
		return errors.New("the inputs mix navmesh and tile cache files")
	}
	if err != nil {
		return err
	}
	if *asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	for _, in := range report.Inputs {
		fmt.Fprintf(stdout, "read:    %s (%s, %d %s)\n", in.File, in.Format, in.Tiles, report.unit())
	}
	fmt.Fprintf(stdout, "wrote:   %s (%s, %d %s, %d bytes)\n", report.Output, report.Format, report.Tiles, report.unit(), report.OutputBytes)
	return nil
}

// unit names what the report counts: tiles of a navmesh, layers of a tile
// cache.
func (r *mergeReport) unit() string {
	if r.Kind == "tilecache" {
		return "layers"
	}
	return "tiles"
}

// mergeNavMeshes merges navmesh files and writes the result in format
// (default: the inputs' when they share one).
func mergeNavMeshes(files []string, contents [][]byte, format string, report *mergeReport) error {
	if format == "tset" {
		return errors.New("format tset holds tile caches; the inputs are navmeshes")
	}
	report.Kind = "navmesh"
	meshes := make([]*navmesh.Mesh, len(files))
	formats := map[navmesh.Format]bool{}
	for i, path := range files {
		m, f, err := navmesh.LoadBytes(contents[i])
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		meshes[i] = m
		formats[f] = true
		report.Inputs = append(report.Inputs, mergeInput{File: path, Format: formatName(f), Tiles: m.TileCount()})
	}
	merged, err := bake.MergeNavMeshes(meshes...)
	if err != nil {
		return describeMergeError(err, files)
	}
	report.Tiles = merged.TileCount()
	report.Format = format
	if report.Format == "" {
		report.Format = "own"
		if len(formats) == 1 && formats[navmesh.FormatMSET] {
			report.Format = "mset"
		}
	}
	report.OutputBytes, err = writeNavMesh(report.Output, report.Format, merged, nil)
	return err
}

// mergeTileCaches merges tile cache files and writes the result in format
// (default: the inputs' when they share one).
func mergeTileCaches(files []string, contents [][]byte, format string, report *mergeReport) error {
	if format == "mset" {
		return errors.New("format mset holds navmeshes; the inputs are tile caches")
	}
	report.Kind = "tilecache"
	caches := make([]*tilecache.Cache, len(files))
	formats := map[tilecache.Format]bool{}
	for i, path := range files {
		c, _, f, err := tilecache.Load(contents[i], tilecache.Options{})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		caches[i] = c
		formats[f] = true
		name := "own"
		if f == tilecache.FormatTSET {
			name = "tset"
		}
		report.Inputs = append(report.Inputs, mergeInput{File: path, Format: name, Tiles: c.LayerCount()})
	}
	merged, _, err := bake.MergeTileCaches(tilecache.Options{}, caches...)
	if err != nil {
		return describeMergeError(err, files)
	}
	report.Tiles = merged.LayerCount()
	report.Format = format
	if report.Format == "" {
		report.Format = "own"
		if len(formats) == 1 && formats[tilecache.FormatTSET] {
			report.Format = "tset"
		}
	}
	report.OutputBytes, err = writeTileCache(report.Output, report.Format, merged)
	return err
}

// describeMergeError names the files a *bake.MergeError is about.
func describeMergeError(err error, files []string) error {
	var mergeErr *bake.MergeError
	if !errors.As(err, &mergeErr) {
		return err
	}
	if mergeErr.Other >= 0 {
		return fmt.Errorf("%s: %s %s", files[mergeErr.Input], mergeErr.Problem, files[mergeErr.Other])
	}
	return fmt.Errorf("%s: %s", files[mergeErr.Input], mergeErr.Problem)
}

// formatName is a navmesh file format as -format spells it.
func formatName(f navmesh.Format) string {
	switch f {
	case navmesh.FormatArchenav:
		return "own"
	case navmesh.FormatMSET:
		return "mset"
	case navmesh.FormatDNAV:
		return "dnav"
	}
	return f.String()
}
