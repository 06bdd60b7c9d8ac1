package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/bakedraw"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/raster"
	"github.com/archenav/archenav/navcore/debugdraw/svg"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

func init() {
	register("draw", "render a navmesh file (over its level, with paths) as PNG or SVG", runDraw)
}

const drawUsage = "usage: navtool draw [-view top|iso] [-layers mesh,tiles,offmesh,...] [-color area|tile] [-obj LEVEL.obj] [-pairs PAIRS.csv] [-links LINKS.csv] [-obstacles STATE.csv] [-cache-layers areas,regions,contours,polymesh] [-size 800] [-samples 2] -o OUT.png|svg FILE\n" +
	"FILE is a navmesh file (DNAV, MSET, archenav) or a tile cache file (TSET, archenav): a tile cache's navmesh is built, after the obstacles of -obstacles (the CSV navtool tilecache reads), and its obstacles are drawn on top."

// drawOptions are the flags of `navtool draw`.
type drawOptions struct {
	navmeshPath string
	outPath     string
	objPath     string
	pairsPath   string
	linksPath   string
	obstacles   string
	cacheLayers []string
	view        string
	layers      navdraw.Layers
	colorBy     string
	size        int
	samples     int
	slope       float32
	nodes       int
	extents     geom.Vec3
	include     uint16
	exclude     uint16
}

// drawBackground is the colour behind everything.
var drawBackground = color.NRGBA{36, 40, 48, 255}

// drawMargin is the free border around the picture [Units: pixels].
const drawMargin = 8

func parseDrawFlags(args []string) (*drawOptions, error) {
	fs := flag.NewFlagSet("draw", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := &drawOptions{}
	fs.StringVar(&opts.outPath, "o", "", "output `file`: .png or .svg")
	fs.StringVar(&opts.objPath, "obj", "", "level `file` (OBJ) to draw under the navmesh")
	fs.StringVar(&opts.pairsPath, "pairs", "", "CSV `file` of start/end pairs (sx,sy,sz,ex,ey,ez) whose paths are drawn")
	fs.StringVar(&opts.linksPath, "links", "", "CSV `file` of runtime links added to the navmesh before drawing (as navtool query -links reads it)")
	fs.StringVar(&opts.obstacles, "obstacles", "", "obstacle state CSV `file` (id,type,x,y,z,x2,y2,z2,radius,height,yaw) applied to a tile cache FILE before drawing")
	cacheLayers := fs.String("cache-layers", "", "tile cache FILE only: draw every layer's build `stages` over the navmesh, any of "+strings.Join(cacheLayerNames, ","))
	fs.StringVar(&opts.view, "view", "top", "`top` (from above) or iso (isometric, floors above floors apart)")
	layers := fs.String("layers", "mesh", "navmesh `layers`: mesh (= "+navdraw.DefaultLayers.String()+"), all, or any of "+strings.Join(navdraw.LayerNames(), ","))
	fs.StringVar(&opts.colorBy, "color", "area", "fill polygons by `area` or by tile")
	fs.IntVar(&opts.size, "size", 800, "long side of the picture [pixels]")
	fs.IntVar(&opts.samples, "samples", 2, "PNG samples per pixel along each axis (1: no smoothing)")
	slope := fs.Float64("slope", 45, "walkable slope of the level's triangles [degrees]: steeper ones are tinted")
	fs.IntVar(&opts.nodes, "nodes", 2048, "search node pool size for -pairs")
	extents := fs.String("extents", "2,4,2", "nearest-poly half extents `x,y,z` for -pairs")
	include := fs.String("include", "0xffef", "filter include flags for -pairs")
	exclude := fs.String("exclude", "0", "filter exclude flags for -pairs")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, drawUsage)
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
		}
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, fmt.Errorf("want one navmesh file, got %d arguments\n%s", fs.NArg(), drawUsage)
	}
	opts.navmeshPath = fs.Arg(0)
	if opts.outPath == "" {
		return nil, errors.New("-o is required")
	}
	switch strings.ToLower(filepath.Ext(opts.outPath)) {
	case ".png", ".svg":
	default:
		return nil, fmt.Errorf("-o %s: want a .png or .svg file", opts.outPath)
	}
	if opts.view != "top" && opts.view != "iso" {
		return nil, fmt.Errorf("-view %q: want top or iso", opts.view)
	}
	if opts.colorBy != "area" && opts.colorBy != "tile" {
		return nil, fmt.Errorf("-color %q: want area or tile", opts.colorBy)
	}
	const maxSide = 8192
	if opts.size < 16 || opts.size > maxSide {
		return nil, fmt.Errorf("-size %d outside 16..%d", opts.size, maxSide)
	}
	if opts.samples < 1 || opts.samples > raster.MaxSamples {
		return nil, fmt.Errorf("-samples %d outside 1..%d", opts.samples, raster.MaxSamples)
	}
	if !(*slope >= 0 && *slope <= 90) {
		return nil, fmt.Errorf("-slope %v outside 0..90", *slope)
	}
	opts.slope = float32(*slope)
	for _, name := range strings.Split(*cacheLayers, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(cacheLayerNames, name) {
			return nil, fmt.Errorf("-cache-layers: unknown stage %q (known: %s)", name, strings.Join(cacheLayerNames, ", "))
		}
		opts.cacheLayers = append(opts.cacheLayers, name)
	}
	var err error
	if opts.layers, err = navdraw.ParseLayers(*layers); err != nil {
		return nil, fmt.Errorf("-layers: %w", err)
	}
	if opts.extents, err = parseVec3(*extents); err != nil {
		return nil, fmt.Errorf("-extents: %w", err)
	}
	if opts.include, err = parseFlags(*include); err != nil {
		return nil, fmt.Errorf("-include: %w", err)
	}
	if opts.exclude, err = parseFlags(*exclude); err != nil {
		return nil, fmt.Errorf("-exclude: %w", err)
	}
	return opts, nil
}

// drawPath is one pair's result, drawn over the mesh.
type drawPath struct {
	corridor []navmesh.Ref
	points   []query.StraightPathPoint
}

func runDraw(args []string, stdout io.Writer) error {
	opts, err := parseDrawFlags(args)
	if err != nil {
		return err
	}
	mesh, cache, format, err := loadDrawInput(opts)
	if err != nil {
		return err
	}
	if err := addLinksFile(opts.linksPath, mesh); err != nil {
		return err
	}
	snap := mesh.Snapshot()
	if snap.TileCount() == 0 {
		return fmt.Errorf("%s: no tiles to draw", opts.navmeshPath)
	}
	var level *bake.Geometry
	if opts.objPath != "" {
		if level, err = bake.LoadOBJ(opts.objPath); err != nil {
			return err
		}
	}
	var paths []drawPath
	if opts.pairsPath != "" {
		if paths, err = findDrawPaths(mesh, opts); err != nil {
			return err
		}
	}

	yaw, pitch := float32(0), float32(90)
	if opts.view == "iso" {
		yaw, pitch = debugdraw.IsoYaw, debugdraw.IsoPitch
	}
	forward := debugdraw.NewView(yaw, pitch, 1, mgl32.Vec3{}, 1, 1).Forward()
	// Everything is recorded first, so that the picture frames what is
	// drawn rather than its bounding box.
	var scene debugdraw.Recorder
	if level != nil {
		// The level's triangles facing the viewer only, so that rooms with
		// ceilings show their floors, and a little lower, so that the
		// navmesh resting on them (its detail mesh may dip a little under
		// the triangles) stays in front.
		bakedraw.Geometry(debugdraw.CullBackFaces(debugdraw.Translate(&scene, mgl32.Vec3{0, -levelDrop(snap), 0}), forward), level, opts.slope)
	}
	style := navdraw.DefaultStyle()
	style.ColorByTile = opts.colorBy == "tile"
	if level == nil {
		style.PolygonAlpha = 200
	}
	navdraw.Mesh(&scene, snap, opts.layers, style)
	for i, p := range paths {
		pathStyle := style
		pathStyle.Corridor = color.NRGBA{255, 255, 255, 40}
		pathStyle.Path = debugdraw.WithAlpha(pathColours[i%len(pathColours)], 235)
		pathStyle.PathWidth = 3
		navdraw.Corridor(&scene, snap, p.corridor, pathStyle)
		navdraw.StraightPath(&scene, p.points, pathStyle)
	}
	if len(opts.cacheLayers) > 0 && cache == nil {
		return fmt.Errorf("-cache-layers: %s is no tile cache file", opts.navmeshPath)
	}
	if cache != nil {
		if err := drawCacheLayers(&scene, cache, opts.cacheLayers, style); err != nil {
			return err
		}
	}
	obstacles := 0
	if cache != nil {
		infos := cache.Obstacles(nil)
		obstacles = len(infos)
		navdraw.TileCacheObstacles(&scene, infos, style)
	}
	if scene.Len() == 0 {
		return fmt.Errorf("%s: nothing to draw with -layers %s", opts.navmeshPath, opts.layers)
	}

	width, height := scene.FitSize(yaw, pitch, opts.size-2*drawMargin, 64, drawMargin)
	view := scene.FitView(yaw, pitch, width, height, drawMargin)
	var canvas interface {
		debugdraw.Drawer
		write(w io.Writer) error
	}
	if strings.EqualFold(filepath.Ext(opts.outPath), ".svg") {
		c, err := svg.New(view, svg.Options{Background: drawBackground})
		if err != nil {
			return err
		}
		canvas = svgCanvas{c}
	} else {
		c, err := raster.New(view, raster.Options{Samples: opts.samples})
		if err != nil {
			return err
		}
		c.Clear(drawBackground)
		canvas = rasterCanvas{c}
	}
	scene.Replay(canvas)

	f, err := os.Create(opts.outPath)
	if err != nil {
		return err
	}
	err = canvas.write(f)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", opts.outPath, err)
	}
	info, err := os.Stat(opts.outPath)
	if err != nil {
		return err
	}
	obstacleNote := ""
	if cache != nil {
		obstacleNote = fmt.Sprintf(", %d obstacles", obstacles)
	}
	fmt.Fprintf(stdout, "wrote %s: %d×%d, %s view of %s (%s, %d tiles%s), %d primitives, %d paths, %d KB\n",
		opts.outPath, width, height, opts.view, opts.navmeshPath, format, snap.TileCount(), obstacleNote, scene.Len(), len(paths), (info.Size()+512)/1024)
	return nil
}

// loadDrawInput reads the file to draw: a navmesh file as it is, or a
// tile cache file whose navmesh is built after the obstacles of
// opts.obstacles are applied (cache is then not nil). format names the
// file's format.
func loadDrawInput(opts *drawOptions) (mesh *navmesh.Mesh, cache *tilecache.Cache, format string, err error) {
	file, err := os.ReadFile(opts.navmeshPath)
	if err != nil {
		return nil, nil, "", err
	}
	tileCacheFormat := tilecache.DetectFormat(file)
	if tileCacheFormat == tilecache.FormatUnknown {
		if opts.obstacles != "" {
			return nil, nil, "", fmt.Errorf("-obstacles %s: %s is no tile cache file (TSET or archenav tile cache)", opts.obstacles, opts.navmeshPath)
		}
		mesh, meshFormat, err := navmesh.LoadFile(opts.navmeshPath)
		if err != nil {
			return nil, nil, "", err
		}
		return mesh, nil, meshFormat.String(), nil
	}
	var state []obstacleRow
	if opts.obstacles != "" {
		if state, err = readObstacleState(opts.obstacles); err != nil {
			return nil, nil, "", err
		}
	}
	cache, mesh, _, err = tilecache.Load(file, tilecache.Options{})
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", opts.navmeshPath, err)
	}
	if _, err := updateUntilDone(cache); err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", opts.navmeshPath, err)
	}
	if state != nil {
		applier := &stateApplier{cache: cache, burst: true, refs: map[string]tilecache.ObstacleRef{}, values: map[string]tilecache.Obstacle{}}
		if _, err := applier.apply(state); err != nil {
			return nil, nil, "", fmt.Errorf("%s: %w", opts.obstacles, err)
		}
	}
	return mesh, cache, tileCacheFormat.String() + " tile cache", nil
}

// cacheLayerNames are the tile cache stages -cache-layers draws, in
// drawing order.
var cacheLayerNames = []string{"areas", "regions", "contours", "polymesh"}

// drawCacheLayers draws the named build stages of every layer of cache
// (with its obstacles), in the order of cacheLayerNames.
func drawCacheLayers(d debugdraw.Drawer, cache *tilecache.Cache, names []string, style navdraw.Style) error {
	if len(names) == 0 {
		return nil
	}
	params := cache.Params()
	cs, ch := params.CellSize, params.CellHeight
	for _, info := range cache.Layers(nil) {
		stages, err := cache.LayerStages(info.Ref)
		if err != nil {
			return fmt.Errorf("-cache-layers: %w", err)
		}
		for _, name := range cacheLayerNames {
			if !slices.Contains(names, name) {
				continue
			}
			switch name {
			case "areas":
				navdraw.TileCacheLayer(d, &stages.Layer, cs, ch, style)
			case "regions":
				navdraw.TileCacheLayerRegions(d, stages, cs, ch)
			case "contours":
				navdraw.TileCacheContours(d, stages, cs, ch, style)
			case "polymesh":
				navdraw.TileCachePolyMesh(d, stages, cs, ch, style)
			}
		}
	}
	return nil
}

// pathColours tell the drawn paths apart.
var pathColours = []color.NRGBA{
	{255, 200, 40, 255},
	{255, 90, 70, 255},
	{120, 230, 90, 255},
	{230, 120, 255, 255},
	{60, 220, 220, 255},
}

// levelDrop is how far the level is drawn under its navmesh: a quarter of
// the climb the tiles were baked for, at most 0.25 [Units: world units].
func levelDrop(snap *navmesh.Snapshot) float32 {
	for i := range snap.MaxTiles() {
		if tile := snap.Tile(i); tile != nil && tile.Data != nil {
			return min(tile.Data.Header.WalkableClimb/4, 0.25)
		}
	}
	return 0
}

// findDrawPaths runs the pairs of opts.pairsPath on mesh: corridor and
// straight path of each pair whose ends are on the mesh.
func findDrawPaths(mesh *navmesh.Mesh, opts *drawOptions) ([]drawPath, error) {
	f, err := os.Open(opts.pairsPath)
	if err != nil {
		return nil, err
	}
	pairs, err := readQueryPairs(bufio.NewReader(f))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.pairsPath, err)
	}
	q, err := query.New(mesh, opts.nodes)
	if err != nil {
		return nil, err
	}
	filter := query.NewFilter()
	filter.IncludeFlags, filter.ExcludeFlags = opts.include, opts.exclude
	corridor := make([]navmesh.Ref, 1024)
	points := make([]query.StraightPathPoint, 256)
	var paths []drawPath
	for i, p := range pairs {
		start, err := q.FindNearestPoly(p.start, opts.extents, filter)
		if err != nil {
			return nil, fmt.Errorf("pair %d: start: %w", i, err)
		}
		end, err := q.FindNearestPoly(p.end, opts.extents, filter)
		if err != nil {
			return nil, fmt.Errorf("pair %d: end: %w", i, err)
		}
		if start.Ref == 0 || end.Ref == 0 {
			continue
		}
		n, _, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, corridor)
		if err != nil {
			return nil, fmt.Errorf("pair %d: path: %w", i, err)
		}
		ns, _, err := q.FindStraightPath(start.Point, end.Point, corridor[:n], points, 0)
		if err != nil {
			return nil, fmt.Errorf("pair %d: straight path: %w", i, err)
		}
		paths = append(paths, drawPath{
			corridor: append([]navmesh.Ref(nil), corridor[:n]...),
			points:   append([]query.StraightPathPoint(nil), points[:ns]...),
		})
	}
	return paths, nil
}

type rasterCanvas struct{ *raster.Canvas }

func (c rasterCanvas) write(w io.Writer) error { return c.EncodePNG(w) }

type svgCanvas struct{ *svg.Canvas }

func (c svgCanvas) write(w io.Writer) error {
	_, err := c.WriteTo(w)
	return err
}
