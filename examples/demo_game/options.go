package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
)

// options are the command-line flags.
type options struct {
	level     string  // .obj level to bake or navmesh file to load; "" = embedded dungeon
	agents    int     // agents spawned at start
	seconds   float64 // simulated time (headless)
	out       string  // output directory (headless)
	width     int     // output size [Units: pixels]
	height    int
	seed      uint64
	tileSize  int  // cells per tile side; 0 bakes one tile
	links     bool // bake with the automatic drop and jump links
	obstacles bool // bake a tile cache and play the crates-and-door script
	dynamic   bool // bake a dynamic navmesh: R drops a crate with a ramp
	// largeRadius is the radius of the large agent type baked and run
	// beside the small one; 0 runs the small agents alone.
	largeRadius float32
	workers     int
	headless    bool    // with the window built in: write the GIF instead
	screenshot  string  // window: save a screenshot here ...
	exitAfter   float64 // ... and quit after this many seconds
}

// Limits keep a mistyped flag from asking for hours of work or gigabytes of
// frames.
const (
	maxAgents     = 2000
	maxSeconds    = 600
	maxImageSide  = 4096
	minImageSide  = 64
	defaultAgents = 40
	maxTileSize   = 4096
	// defaultTileSize is RecastDemo's tile size: 32 cells, 9.6 world units.
	defaultTileSize = 32
	// defaultLargeRadius and maxLargeRadius: the large agents' radius
	// [Units: world units].
	defaultLargeRadius = 1.8
	maxLargeRadius     = 5
)

func parseOptions(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("demo_game", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := "auto"
	largeRadius := 0.0
	fs.StringVar(&o.level, "level", "", "level to use: a Wavefront `FILE.obj` to bake, or a navmesh file (DNAV, MSET, archenav); default the embedded dungeon")
	fs.IntVar(&o.agents, "agents", defaultAgents, "number of agents at start")
	fs.Float64Var(&o.seconds, "seconds", 10, "simulated `seconds` recorded in the GIF")
	fs.StringVar(&o.out, "out", "out", "output `DIR` for demo_game.gif and demo_game.png")
	fs.StringVar(&size, "size", size, "image or window size `WxH` in pixels, or auto (640 on the level's long side)")
	fs.IntVar(&o.tileSize, "tile-size", defaultTileSize, "bake a tiled navmesh with tiles of `N` cells (0.3 units each) a side; 0 bakes one tile")
	fs.BoolVar(&o.links, "links", false, "bake the .obj level with automatic drop and jump links (drawn like any off-mesh connection; no obstacles then)")
	fs.BoolVar(&o.obstacles, "obstacles", true, "bake an .obj level into a tile cache, so that crates and a door carve it: crates dropped in the agents' way at 1.5 s, a door closed at 3 s and opened at 7 s")
	fs.BoolVar(&o.dynamic, "dynamic", false, "bake the .obj level into a dynamic navmesh (bake/dynamic): in the window R drops a crate with a ramp up to it under the mouse and the agents go up it (one agent type, no tile cache then)")
	fs.Float64Var(&largeRadius, "large-radius", defaultLargeRadius, "radius in world units of the large, slow agents (one in three) baked and run beside the small ones (radius 0.6) on a mesh of their own; 0 runs the small agents alone")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed for spawn points and targets")
	fs.IntVar(&o.workers, "workers", min(runtime.GOMAXPROCS(0), 4), "goroutines stepping the crowd")
	if haveWindow {
		fs.BoolVar(&o.headless, "headless", false, "write the GIF and PNG instead of opening the window")
		fs.StringVar(&o.screenshot, "screenshot", "", "window: save a PNG screenshot to `FILE` (with -exit-after)")
		fs.Float64Var(&o.exitAfter, "exit-after", 0, "window: take the screenshot and quit after `SECONDS` (0: run until closed)")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.largeRadius = float32(largeRadius)
	var err error
	if o.width, o.height, err = parseSize(size); err != nil {
		return nil, err
	}
	switch {
	case o.agents < 0 || o.agents > maxAgents:
		return nil, fmt.Errorf("-agents %d outside 0..%d", o.agents, maxAgents)
	case !(o.seconds > 0) || o.seconds > maxSeconds:
		return nil, fmt.Errorf("-seconds %v outside (0, %d]", o.seconds, maxSeconds)
	case o.tileSize < 0 || o.tileSize > maxTileSize:
		return nil, fmt.Errorf("-tile-size %d outside 0..%d", o.tileSize, maxTileSize)
	case largeRadius != 0 && !(largeRadius > smallRadius && largeRadius <= maxLargeRadius):
		return nil, fmt.Errorf("-large-radius %v: 0, or above %v up to %v", largeRadius, smallRadius, maxLargeRadius)
	case o.workers < 1 || o.workers > 256:
		return nil, fmt.Errorf("-workers %d outside 1..256", o.workers)
	case o.exitAfter < 0:
		return nil, fmt.Errorf("-exit-after %v is negative", o.exitAfter)
	case o.screenshot != "" && o.exitAfter == 0:
		return nil, errors.New("-screenshot needs -exit-after SECONDS")
	}
	return o, nil
}

// parseSize reads "WxH"; "auto" gives 0, 0 (fit to the level).
func parseSize(s string) (width, height int, err error) {
	if s == "auto" {
		return 0, 0, nil
	}
	w, h, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		return 0, 0, fmt.Errorf("-size %q: want WxH, e.g. 640x480", s)
	}
	if _, err := fmt.Sscan(w, &width); err != nil {
		return 0, 0, fmt.Errorf("-size %q: bad width", s)
	}
	if _, err := fmt.Sscan(h, &height); err != nil {
		return 0, 0, fmt.Errorf("-size %q: bad height", s)
	}
	if width < minImageSide || height < minImageSide || width > maxImageSide || height > maxImageSide {
		return 0, 0, fmt.Errorf("-size %q: each side must be %d..%d pixels", s, minImageSide, maxImageSide)
	}
	return width, height, nil
}
