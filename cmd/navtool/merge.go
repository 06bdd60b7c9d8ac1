package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

func init() {
	register("merge", "merge the navmesh files of range bakes (bake -tiles) into one", runMerge)
}

// mergeReport is what `navtool merge` prints; its JSON form is the -json
// output.
type mergeReport struct {
	Inputs      []mergeInput `json:"inputs"`
	Tiles       int          `json:"tiles"`
	Output      string       `json:"output"`
	Format      string       `json:"format"`
	OutputBytes int          `json:"outputBytes"`
}

// mergeInput is one input file of a merge.
type mergeInput struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Tiles  int    `json:"tiles"`
}

func runMerge(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("merge", flag.ContinueOnError)
	flags.SetOutput(stdout)
	outPath := flags.String("o", "", "write the merged navmesh to `file` (required)")
	format := flags.String("format", "", "output format: own (archenav mesh file) or mset (RecastDemo tile set); default: the inputs' format when they share one, else own")
	asJSON := flags.Bool("json", false, "print the summary as one JSON object")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: navtool merge -o OUT [-format own|mset] [-json] IN...")
		fmt.Fprintln(flags.Output(), "Merges the navmesh files of range bakes of one level (navtool bake -tiles) into the whole level's file.")
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
	case "", "own", "mset":
	default:
		return fmt.Errorf("unknown format %q: want own or mset", *format)
	}

	report := &mergeReport{Output: *outPath}
	files := flags.Args()
	meshes := make([]*navmesh.Mesh, len(files))
	formats := map[navmesh.Format]bool{}
	for i, path := range files {
		file, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// TODO(tile cache files): merge TSET files once navcore/tilecache's
		// reader and writer are on main.
		if bytes.HasPrefix(file, []byte("TEST")) {
			return fmt.Errorf("%s: merging tile cache files is not supported yet", path)
		}
		m, f, err := navmesh.LoadBytes(file)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		meshes[i] = m
		formats[f] = true
		report.Inputs = append(report.Inputs, mergeInput{File: path, Format: formatName(f), Tiles: m.TileCount()})
	}
	merged, err := bake.MergeNavMeshes(meshes...)
	if err != nil {
		var mergeErr *bake.MergeError
		if errors.As(err, &mergeErr) {
			if mergeErr.Other >= 0 {
				return fmt.Errorf("%s: %s %s", files[mergeErr.Input], mergeErr.Problem, files[mergeErr.Other])
			}
			return fmt.Errorf("%s: %s", files[mergeErr.Input], mergeErr.Problem)
		}
		return err
	}
	report.Tiles = merged.TileCount()
	report.Format = *format
	if report.Format == "" {
		report.Format = "own"
		if len(formats) == 1 && formats[navmesh.FormatMSET] {
			report.Format = "mset"
		}
	}
	if report.OutputBytes, err = writeNavMesh(*outPath, report.Format, merged, nil); err != nil {
		return err
	}
	if *asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	for _, in := range report.Inputs {
		fmt.Fprintf(stdout, "read:    %s (%s, %d tiles)\n", in.File, in.Format, in.Tiles)
	}
	fmt.Fprintf(stdout, "wrote:   %s (%s, %d tiles, %d bytes)\n", report.Output, report.Format, report.Tiles, report.OutputBytes)
	return nil
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
