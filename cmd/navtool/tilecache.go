package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

func init() {
	register("tilecache", "build a tile cache, apply obstacle states and report the navmesh after each", runTileCache)
}

// tileCacheOptions are the parsed flags of `navtool tilecache`.
type tileCacheOptions struct {
	objPath, tsetPath string
	tileSize          int
	workers           int
	outPath           string
	obstaclePaths     []string
	burst             bool
	pairsPath         string
	pairsOutPath      string
	asJSON            bool
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

const tileCacheUsage = "usage: navtool tilecache (-obj LEVEL.obj | -tset FILE) [-tile-size 48] [-workers N] [-o OUT.tset] [-obstacles STATE.csv]... [-burst] [-pairs PAIRS.csv -pairs-out OUT.csv] [-json]"

func parseTileCacheFlags(args []string, stdout io.Writer) (*tileCacheOptions, error) {
	flags := flag.NewFlagSet("tilecache", flag.ContinueOnError)
	flags.SetOutput(stdout)
	o := &tileCacheOptions{}
	flags.StringVar(&o.objPath, "obj", "", "bake the cache's layers from an OBJ `level` (RecastDemo's TempObstacles settings)")
	flags.StringVar(&o.tsetPath, "tset", "", "load the cache from a tile cache `file` (RecastDemo's TSET or an archenav cache file)")
	flags.IntVar(&o.tileSize, "tile-size", 48, "tile side in `cells` for -obj")
	flags.IntVar(&o.workers, "workers", 1, "`goroutines` building tiles")
	flags.StringVar(&o.outPath, "o", "", "write the cache's layers as a TSET `file`")
	flags.Var((*stringList)(&o.obstaclePaths), "obstacles", "apply the obstacle state in CSV `file` (id,type,x,y,z,x2,y2,z2,radius,height,yaw); repeat for more states")
	flags.BoolVar(&o.burst, "burst", false, "queue all changes of a state, then update (default: update after each change)")
	flags.StringVar(&o.pairsPath, "pairs", "", "run path queries for the start/end pairs in CSV `file` on the last state's mesh")
	flags.StringVar(&o.pairsOutPath, "pairs-out", "", "write the -pairs answers to CSV `file`")
	flags.BoolVar(&o.asJSON, "json", false, "print the report as one JSON object")
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), tileCacheUsage)
		fmt.Fprintln(flags.Output(), "Builds every navmesh tile of a tile cache, applies each obstacle state in turn (ids kept with new values move, ids gone are removed, new ids are added) and reports the navmesh after each.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case flags.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments %q", flags.Args())
	case (o.objPath == "") == (o.tsetPath == ""):
		return nil, errors.New("want exactly one of -obj and -tset")
	case (o.pairsPath == "") != (o.pairsOutPath == ""):
		return nil, errors.New("-pairs and -pairs-out go together")
	case o.tileSize < 1 || o.tileSize > tilecache.MaxLayerSide:
		return nil, fmt.Errorf("tile size %d outside 1..%d", o.tileSize, tilecache.MaxLayerSide)
	case o.workers < 1:
		return nil, fmt.Errorf("workers %d must be at least 1", o.workers)
	}
	return o, nil
}

// meshFigures are the reference figures of a navmesh.
type meshFigures struct {
	Tiles      int    `json:"tiles"`
	Polys      int    `json:"polys"`
	Verts      int    `json:"verts"`
	Links      int    `json:"links"`
	DetailTris int    `json:"detailTris"`
	Bytes      int    `json:"bytes"`
	TileHash   string `json:"tileHash"`
}

// stateChanges counts what applying one obstacle state did.
type stateChanges struct {
	File        string `json:"file"`
	Obstacles   int    `json:"obstacles"`
	Added       int    `json:"added"`
	Moved       int    `json:"moved"`
	Removed     int    `json:"removed"`
	Outside     int    `json:"outside"`
	UpdateCalls int    `json:"updateCalls"`
}

// tileCacheTiming holds the times of the run in milliseconds.
type tileCacheTiming struct {
	Layers  float64   `json:"layers"`
	Navmesh float64   `json:"navmesh"`
	States  []float64 `json:"states"`
}

// tileCacheReport is what `navtool tilecache` prints; its JSON form is the
// -json output.
type tileCacheReport struct {
	Input                string          `json:"input"`
	Layers               int             `json:"layers"`
	TilesWithLayers      int             `json:"tilesWithLayers"`
	MaxLayersInTile      int             `json:"maxLayersInTile"`
	LayerHash            string          `json:"layerHash"`
	LayerRawBytes        int             `json:"layerRawBytes"`
	LayerCompressedBytes int             `json:"layerCompressedBytes"`
	Workers              int             `json:"workers"`
	Burst                bool            `json:"burst"`
	Initial              meshFigures     `json:"initial"`
	States               []meshFigures   `json:"states"`
	StateChanges         []stateChanges  `json:"stateChanges"`
	Pairs                int             `json:"pairs,omitempty"`
	PartialPaths         int             `json:"partialPaths,omitempty"`
	TimingMs             tileCacheTiming `json:"timingMs"`
}

func runTileCache(args []string, stdout io.Writer) error {
	o, err := parseTileCacheFlags(args, stdout)
	if err != nil {
		return err
	}
	states := make([][]obstacleRow, len(o.obstaclePaths))
	for i, path := range o.obstaclePaths {
		if states[i], err = readObstacleState(path); err != nil {
			return err
		}
	}
	var pairs []queryPair
	if o.pairsPath != "" {
		f, err := os.Open(o.pairsPath)
		if err != nil {
			return err
		}
		pairs, err = readQueryPairs(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", o.pairsPath, err)
		}
	}

	report := &tileCacheReport{Workers: o.workers, Burst: o.burst, States: []meshFigures{}, StateChanges: []stateChanges{}, TimingMs: tileCacheTiming{States: []float64{}}}
	start := time.Now()
	var cache *tilecache.Cache
	if o.tsetPath != "" {
		report.Input = o.tsetPath
		file, err := os.ReadFile(o.tsetPath)
		if err != nil {
			return err
		}
		if cache, _, _, err = tilecache.Load(file, tilecache.Options{Workers: o.workers}); err != nil {
			return err
		}
	} else {
		report.Input = o.objPath
		if cache, err = tileCacheFromOBJ(o.objPath, o.tileSize, o.workers); err != nil {
			return err
		}
	}
	report.TimingMs.Layers = milliseconds(time.Since(start))
	if err := report.setLayers(cache); err != nil {
		return err
	}
	if o.outPath != "" {
		if err := writeTSET(o.outPath, cache.TileSet()); err != nil {
			return err
		}
	}

	start = time.Now()
	if _, err := updateUntilDone(cache); err != nil {
		return err
	}
	report.TimingMs.Navmesh = milliseconds(time.Since(start))
	if report.Initial, err = figures(cache.Mesh()); err != nil {
		return err
	}

	applier := &stateApplier{cache: cache, burst: o.burst, refs: map[string]tilecache.ObstacleRef{}, values: map[string]tilecache.Obstacle{}}
	for i, state := range states {
		start = time.Now()
		changes, err := applier.apply(state)
		if err != nil {
			return fmt.Errorf("%s: %w", o.obstaclePaths[i], err)
		}
		report.TimingMs.States = append(report.TimingMs.States, milliseconds(time.Since(start)))
		changes.File = o.obstaclePaths[i]
		report.StateChanges = append(report.StateChanges, changes)
		f, err := figures(cache.Mesh())
		if err != nil {
			return err
		}
		report.States = append(report.States, f)
	}

	if o.pairsPath != "" {
		if report.PartialPaths, err = writeTileCachePairs(o.pairsOutPath, cache.Mesh(), pairs); err != nil {
			return err
		}
		report.Pairs = len(pairs)
	}
	if o.asJSON {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		return encoder.Encode(report)
	}
	return printTileCacheReport(stdout, report)
}

// tileCacheFromOBJ bakes a tile cache from an OBJ level with RecastDemo's
// TempObstacles settings (bake.DefaultSettings, tiles of tileSize cells)
// and returns it with every layer's tile queued for building.
func tileCacheFromOBJ(path string, tileSize, workers int) (*tilecache.Cache, error) {
	geometry, err := bake.LoadOBJ(path)
	if err != nil {
		return nil, err
	}
	result, err := bake.TileCache(context.Background(), geometry, bake.DefaultSettings(), bake.TileCacheOptions{
		TileSize:   tileSize,
		Workers:    workers,
		Compressor: tilecache.FastLZ{},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cache, _, err := result.Cache(tilecache.Options{Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cache, nil
}

func milliseconds(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// setLayers fills the layer figures: count, columns, the layer hash over
// the layers in (y, x, layer) order and the raw and compressed sizes.
func (r *tileCacheReport) setLayers(cache *tilecache.Cache) error {
	layers := cache.Layers(nil)
	slices.SortFunc(layers, func(a, b tilecache.LayerInfo) int {
		return cmp.Or(cmp.Compare(a.Header.TY, b.Header.TY), cmp.Compare(a.Header.TX, b.Header.TX), cmp.Compare(a.Header.TLayer, b.Header.TLayer))
	})
	columns := map[[2]int32]int{}
	hash := navmesh.Fingerprint(nil)
	for _, info := range layers {
		layer, err := tilecache.DecodeLayer(info.Data, tilecache.FastLZ{})
		if err != nil {
			return err
		}
		hash = tilecache.FingerprintAppendLayer(hash, layer)
		r.LayerRawBytes += 3 * len(layer.Heights)
		r.LayerCompressedBytes += len(info.Data)
		key := [2]int32{info.Header.TX, info.Header.TY}
		columns[key]++
		r.MaxLayersInTile = max(r.MaxLayersInTile, columns[key])
	}
	r.Layers = len(layers)
	r.TilesWithLayers = len(columns)
	r.LayerHash = fmt.Sprintf("%016x", hash)
	return nil
}

func figures(mesh *navmesh.Mesh) (meshFigures, error) {
	s, err := tilecache.Summarize(mesh.Snapshot())
	if err != nil {
		return meshFigures{}, err
	}
	return meshFigures{Tiles: s.Tiles, Polys: s.Polys, Verts: s.Verts, Links: s.Links, DetailTris: s.DetailTris,
		Bytes: s.Bytes, TileHash: fmt.Sprintf("%016x", s.TileHash)}, nil
}

// updateUntilDone runs Update without a budget until the cache is up to
// date and returns the number of calls.
func updateUntilDone(cache *tilecache.Cache) (int, error) {
	for calls := 1; ; calls++ {
		done, err := cache.Update(tilecache.Budget{})
		if err != nil {
			return calls, err
		}
		if done {
			return calls, nil
		}
	}
}

// obstacleRow is one obstacle of a state file.
type obstacleRow struct {
	id       string
	obstacle tilecache.Obstacle
}

// readObstacleState reads an obstacle CSV (columns found by header name).
func readObstacleState(path string) ([]obstacleRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	reader := csv.NewReader(f)
	reader.FieldsPerRecord = -1
	header, err := reader.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: read header: %w", path, err)
	}
	names := []string{"id", "type", "x", "y", "z", "x2", "y2", "z2", "radius", "height", "yaw"}
	cols := map[string]int{}
	for _, name := range names {
		i := slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: header has no %q column", path, name)
		}
		cols[name] = i
	}
	var rows []obstacleRow
	seen := map[string]bool{}
	for line := 2; ; line++ {
		record, err := reader.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		field := func(name string) string {
			if i := cols[name]; i < len(record) {
				return strings.TrimSpace(record[i])
			}
			return ""
		}
		var v [9]float32
		for i, name := range names[2:] {
			f, err := strconv.ParseFloat(field(name), 32)
			if err != nil {
				return nil, fmt.Errorf("%s: line %d: %s: %w", path, line, name, err)
			}
			v[i] = float32(f)
		}
		a, b := mgl32.Vec3{v[0], v[1], v[2]}, mgl32.Vec3{v[3], v[4], v[5]}
		var o tilecache.Obstacle
		switch kind := field("type"); kind {
		case "cylinder":
			o = tilecache.Cylinder(a, v[6], v[7])
		case "box":
			o = tilecache.Box(a, b)
		case "orientedbox":
			o = tilecache.OrientedBox(a, b, v[8])
		default:
			return nil, fmt.Errorf("%s: line %d: type %q, want cylinder, box or orientedbox", path, line, kind)
		}
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		id := field("id")
		if seen[id] {
			return nil, fmt.Errorf("%s: line %d: id %q given twice", path, line, id)
		}
		seen[id] = true
		rows = append(rows, obstacleRow{id: id, obstacle: o})
	}
}

// stateApplier moves a cache from one obstacle state to the next.
type stateApplier struct {
	cache  *tilecache.Cache
	burst  bool
	refs   map[string]tilecache.ObstacleRef
	values map[string]tilecache.Obstacle
}

// apply makes state the cache's obstacle set: rows in file order are added
// or moved, then the ids no longer there are removed (in id order). Without
// burst the cache is brought up to date after each change. An obstacle
// outside every layer is left out (it would carve nothing); one moved out
// of them is removed. A state with more obstacles than the cache holds is
// refused before anything changes.
func (a *stateApplier) apply(state []obstacleRow) (stateChanges, error) {
	var ch stateChanges
	// The new obstacles are added before the old ones go.
	fresh := 0
	for _, row := range state {
		if _, had := a.refs[row.id]; !had {
			fresh++
		}
	}
	if limit := int(a.cache.Params().MaxObstacles); a.cache.ObstacleCount()+fresh > limit {
		return ch, fmt.Errorf("a state of %d obstacles, %d of them new, needs room for %d at once (the new ones are added before the old ones go), more than the %d the tile cache holds (MaxObstacles): %w",
			len(state), fresh, a.cache.ObstacleCount()+fresh, limit, tilecache.ErrOutOfObstacles)
	}
	step := func() error {
		if a.burst {
			return nil
		}
		calls, err := updateUntilDone(a.cache)
		ch.UpdateCalls += calls
		return err
	}
	remove := func(id string) error {
		if err := a.cache.RemoveObstacle(a.refs[id]); err != nil {
			return fmt.Errorf("obstacle %s: %w", id, err)
		}
		delete(a.refs, id)
		delete(a.values, id)
		return step()
	}
	keep := map[string]bool{}
	for _, row := range state {
		keep[row.id] = true
		ref, had := a.refs[row.id]
		switch {
		case !had:
			r, err := a.cache.AddObstacle(row.obstacle)
			if errors.Is(err, tilecache.ErrOutsideLayers) {
				ch.Outside++
				continue
			}
			if err != nil {
				return ch, fmt.Errorf("obstacle %s: %w", row.id, err)
			}
			a.refs[row.id] = r
			ch.Added++
		case a.values[row.id] != row.obstacle:
			err := a.cache.MoveObstacle(ref, row.obstacle)
			if errors.Is(err, tilecache.ErrOutsideLayers) {
				ch.Outside++
				if err := remove(row.id); err != nil {
					return ch, err
				}
				continue
			}
			if err != nil {
				return ch, fmt.Errorf("obstacle %s: %w", row.id, err)
			}
			ch.Moved++
		default:
			continue
		}
		a.values[row.id] = row.obstacle
		if err := step(); err != nil {
			return ch, err
		}
	}
	var gone []string
	for id := range a.refs {
		if !keep[id] {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	for _, id := range gone {
		if err := remove(id); err != nil {
			return ch, err
		}
		ch.Removed++
	}
	calls, err := updateUntilDone(a.cache)
	ch.UpdateCalls += calls
	ch.Obstacles = a.cache.ObstacleCount()
	return ch, err
}

// writeTileCachePairs runs the `navtool query` calls for pairs on mesh with
// the reference settings and writes the answers; it returns the number of
// partial paths.
func writeTileCachePairs(path string, mesh *navmesh.Mesh, pairs []queryPair) (int, error) {
	q, err := query.New(mesh, 2048)
	if err != nil {
		return 0, err
	}
	filter := query.NewFilter()
	filter.IncludeFlags, filter.ExcludeFlags = 0xffef, 0
	runner := &pairRunner{q: q, filter: filter, extents: geom.Vec3{2, 4, 2},
		path: make([]navmesh.Ref, 256), points: make([]query.StraightPathPoint, 256)}
	file, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(file)
	err = writeQueryResults(w, pairs, runner)
	if flushErr := w.Flush(); err == nil {
		err = flushErr
	}
	if closeErr := file.Close(); err == nil {
		err = closeErr
	}
	return runner.partials, err
}

// writeTSET writes set to path, replacing the file only once it is whole.
func writeTSET(path string, set *tilecache.TileSet) error {
	data, err := tilecache.MarshalTSET(set)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func printTileCacheReport(w io.Writer, r *tileCacheReport) error {
	mode := "serial"
	if r.Burst {
		mode = "burst"
	}
	line := func(name string, f meshFigures) string {
		return fmt.Sprintf("%-14s %3d tiles  %4d polys  %5d verts  %5d links  %5d detail tris  %7d bytes  tile hash %s",
			name, f.Tiles, f.Polys, f.Verts, f.Links, f.DetailTris, f.Bytes, f.TileHash)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "input          %s\n", r.Input)
	fmt.Fprintf(&b, "layers         %d in %d tiles (at most %d per tile), %d raw -> %d compressed bytes, layer hash %s, %.2f ms\n",
		r.Layers, r.TilesWithLayers, r.MaxLayersInTile, r.LayerRawBytes, r.LayerCompressedBytes, r.LayerHash, r.TimingMs.Layers)
	fmt.Fprintf(&b, "%s, %.2f ms\n", line("initial", r.Initial), r.TimingMs.Navmesh)
	for i, f := range r.States {
		c := r.StateChanges[i]
		fmt.Fprintf(&b, "%s, %.2f ms (%s: %d obstacles; %d added, %d moved, %d removed, %d outside every layer; %s, %d update calls)\n",
			line(fmt.Sprintf("state %d", i+1), f), r.TimingMs.States[i], c.File, c.Obstacles, c.Added, c.Moved, c.Removed, c.Outside, mode, c.UpdateCalls)
	}
	if r.Pairs > 0 {
		fmt.Fprintf(&b, "pairs          %d, %d partial\n", r.Pairs, r.PartialPaths)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
