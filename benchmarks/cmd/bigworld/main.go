// Command bigworld writes the generated large level of the hierarchical
// path search and crowd benchmarks (internal/bigworld) as a Wavefront OBJ
// file, for navtool bake, RecastDemo or a modeller:
//
//	go run ./benchmarks/cmd/bigworld -o bigworld.obj
//	go run ./benchmarks/cmd/bigworld -small -o small.obj
//
// The defaults are the 1 km level (2000 boxes, seed 1); -size, -boxes and
// -seed change it. Bake it with tile size 64 (navtool bake -tile-size 64)
// to get the benchmarks' tiling.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/archenav/archenav/internal/bigworld"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bigworld:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bigworld", flag.ContinueOnError)
	out := fs.String("o", "", "output OBJ `file` (default stdout)")
	small := fs.Bool("small", false, "the 250 m level of the default tests (bigworld.Small)")
	size := fs.Float64("size", 0, "level side in metres (default 1000, or 250 with -small)")
	boxes := fs.Int("boxes", -1, "number of boxes (default 2000, or 125 with -small)")
	seed := fs.Uint64("seed", 1, "random seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	p := bigworld.Default()
	if *small {
		p = bigworld.Small()
	}
	if *size != 0 {
		p.Size = *size
	}
	if *boxes >= 0 {
		p.Boxes = *boxes
	}
	p.Seed = *seed

	w := stdout
	var file *os.File
	if *out != "" {
		var err error
		if file, err = os.Create(*out); err != nil {
			return err
		}
		w = file
	}
	bw := bufio.NewWriter(w)
	err := p.WriteOBJ(bw)
	if flushErr := bw.Flush(); err == nil {
		err = flushErr
	}
	if file != nil {
		if closeErr := file.Close(); err == nil {
			err = closeErr
		}
	}
	return err
}
