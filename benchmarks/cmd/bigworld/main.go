// Command bigworld writes the generated large level of the hierarchical
// path search and crowd benchmarks (benchmarks/bigworld) as a Wavefront OBJ
// file, for navtool bake, RecastDemo or a modeller:
//
//	go run ./benchmarks/cmd/bigworld -o bigworld.obj
//	go run ./benchmarks/cmd/bigworld -small -o small.obj
//
// The defaults are the 1 km level (2000 boxes, seed 1); -size, -boxes and
// -seed change it. Bake it with tile size 64 (navtool bake -tile-size 64)
// to get the benchmarks' tiling.
//
// -obstacles N -obstacle-dir DIR also writes obstacle states for a crowd
// on the level's tile cache (navtool bake -tilecache), half of the
// obstacles moving elsewhere at each state, and prints the navtool crowd
// flags that apply them:
//
//	go run ./benchmarks/cmd/bigworld -o bigworld.obj -obstacles 200 -obstacle-states 12 -obstacle-dir obstacles
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/archenav/archenav/benchmarks/bigworld"
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
	var obstacles obstacleOptions
	fs.IntVar(&obstacles.count, "obstacles", 0, "obstacles per state file (with -obstacle-dir)")
	fs.IntVar(&obstacles.states, "obstacle-states", 12, "number of obstacle state files")
	fs.IntVar(&obstacles.period, "obstacle-period", 300, "ticks between two obstacle states")
	fs.StringVar(&obstacles.dir, "obstacle-dir", "", "`directory` of the obstacle state files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := obstacles.check(); err != nil {
		return err
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

	if obstacles.count > 0 {
		flags, err := writeObstacleStates(p, obstacles, *seed)
		if err != nil {
			return err
		}
		if *out == "" {
			return fmt.Errorf("-obstacles: give -o for the level, the flags go to stdout")
		}
		fmt.Fprintln(stdout, strings.Join(flags, " "))
	}
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
