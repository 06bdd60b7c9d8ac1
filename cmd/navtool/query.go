package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

func init() {
	register("query", "run nearest-poly, path and straight-path queries for start/end pairs", runQuery)
}

// queryOptions are the flags of `navtool query`.
type queryOptions struct {
	navmeshPath string
	pairsPath   string
	linksPath   string
	outPath     string
	nodes       int
	extents     geom.Vec3
	include     uint16
	exclude     uint16
	maxPath     int
	// hierarchical plans with navcore/hierarchy instead of plain A*.
	hierarchical bool
	// stats prints the timing line of -stats to queryStatsOutput.
	stats bool
}

// maxQueryPath bounds -max-path.
const maxQueryPath = 1 << 20

// queryStatsOutput is where -stats writes its line (tests replace it).
var queryStatsOutput io.Writer = os.Stderr

func parseQueryFlags(args []string) (*queryOptions, error) {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := &queryOptions{}
	fs.StringVar(&opts.navmeshPath, "navmesh", "", "navmesh `file` (DNAV tile or MSET tile set)")
	fs.StringVar(&opts.pairsPath, "pairs", "", "CSV `file` whose header names sx,sy,sz,ex,ey,ez")
	fs.StringVar(&opts.linksPath, "links", "", "CSV `file` of runtime links added to the navmesh first: sx,sy,sz,ex,ey,ez,radius,bidirectional, optionally width,area,flags,cost")
	fs.StringVar(&opts.outPath, "o", "", "output CSV `file` (default stdout)")
	fs.IntVar(&opts.nodes, "nodes", 2048, "search node pool size")
	extents := fs.String("extents", "2,4,2", "nearest-poly half extents `x,y,z`")
	include := fs.String("include", "0xffef", "filter include flags")
	exclude := fs.String("exclude", "0", "filter exclude flags")
	fs.IntVar(&opts.maxPath, "max-path", 256, "most polygons of a corridor and points of a straight path")
	fs.BoolVar(&opts.hierarchical, "hierarchical", false, "plan with the hierarchical search (navcore/hierarchy) instead of plain A*")
	fs.BoolVar(&opts.stats, "stats", false, "print one JSON line of timings to standard error")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "usage: navtool query -navmesh FILE -pairs PAIRS.csv [-links LINKS.csv] [-o OUT.csv] [-nodes 2048] [-extents 2,4,2] [-include 0xffef] [-exclude 0] [-max-path 256] [-hierarchical] [-stats]")
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if opts.navmeshPath == "" || opts.pairsPath == "" {
		return nil, errors.New("-navmesh and -pairs are required")
	}
	if opts.maxPath < 1 || opts.maxPath > maxQueryPath {
		return nil, fmt.Errorf("-max-path %d outside 1..%d", opts.maxPath, maxQueryPath)
	}
	var err error
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

func parseVec3(s string) (geom.Vec3, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return geom.Vec3{}, fmt.Errorf("%q: want three comma-separated numbers", s)
	}
	var v geom.Vec3
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil {
			return geom.Vec3{}, fmt.Errorf("%q: %w", s, err)
		}
		v[i] = float32(f)
	}
	return v, nil
}

func parseFlags(s string) (uint16, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, 16)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	return uint16(v), nil
}

// queryPair is one start/end pair read from the pairs CSV.
type queryPair struct{ start, end geom.Vec3 }

// readQueryPairs reads the sx..ez columns of a CSV, found by header name.
func readQueryPairs(r io.Reader) ([]queryPair, error) {
	reader := csv.NewReader(r)
	reader.FieldsPerRecord = -1
	header, err := reader.Read()
	if err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	names := []string{"sx", "sy", "sz", "ex", "ey", "ez"}
	var cols [6]int
	for i, name := range names {
		cols[i] = -1
		for j, h := range header {
			if strings.TrimSpace(h) == name {
				cols[i] = j
				break
			}
		}
		if cols[i] < 0 {
			return nil, fmt.Errorf("header has no %q column", name)
		}
	}
	var pairs []queryPair
	for line := 2; ; line++ {
		record, err := reader.Read()
		if err == io.EOF {
			return pairs, nil
		}
		if err != nil {
			return nil, err
		}
		var v [6]float32
		for i, col := range cols {
			if col >= len(record) {
				return nil, fmt.Errorf("line %d: no %s value", line, names[i])
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(record[col]), 32)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", line, names[i], err)
			}
			v[i] = float32(f)
		}
		pairs = append(pairs, queryPair{start: geom.Vec3{v[0], v[1], v[2]}, end: geom.Vec3{v[3], v[4], v[5]}})
	}
}

// queryResult is one output row of `navtool query`.
type queryResult struct {
	startFound, endFound bool
	partial              bool
	polys, straight      int
	length3D, length2D   float64
	end                  geom.Vec3
}

// pairRunner runs the four reference calls of a pair, the path with plain
// A* or, with a searcher, the hierarchical search, and keeps the time and
// the nodes of each path search.
type pairRunner struct {
	q        *query.Query
	searcher *hierarchy.Searcher
	filter   *query.Filter
	extents  geom.Vec3
	path     []navmesh.Ref
	points   []query.StraightPathPoint
	// partials counts the partial paths found so far.
	partials int

	durations []time.Duration
	nodes     int
}

func (r *pairRunner) run(p queryPair) (queryResult, error) {
	var res queryResult
	start, err := r.q.FindNearestPoly(p.start, r.extents, r.filter)
	if err != nil {
		return res, fmt.Errorf("start: %w", err)
	}
	end, err := r.q.FindNearestPoly(p.end, r.extents, r.filter)
	if err != nil {
		return res, fmt.Errorf("end: %w", err)
	}
	res.startFound, res.endFound = start.Ref != 0, end.Ref != 0
	if !res.startFound || !res.endFound {
		return res, nil
	}
	n, status, nodes, took, err := r.findPath(start.Ref, end.Ref, p.start, p.end)
	if err != nil {
		return res, fmt.Errorf("path: %w", err)
	}
	r.durations = append(r.durations, took)
	r.nodes += nodes
	res.partial = status.Partial()
	if res.partial {
		r.partials++
	}
	res.polys = n
	ns, _, err := r.q.FindStraightPath(p.start, p.end, r.path[:n], r.points, 0)
	if err != nil {
		return res, fmt.Errorf("straight path: %w", err)
	}
	res.straight = ns
	for i := 1; i < ns; i++ {
		a, b := r.points[i-1].Pos, r.points[i].Pos
		dx, dy, dz := float64(b[0]-a[0]), float64(b[1]-a[1]), float64(b[2]-a[2])
		res.length3D += math.Sqrt(float64(dx*dx) + float64(dy*dy) + float64(dz*dz))
		res.length2D += math.Sqrt(float64(dx*dx) + float64(dz*dz))
	}
	if ns > 0 {
		res.end = r.points[ns-1].Pos
	}
	return res, nil
}

// findPath plans one path and returns it with the nodes the search closed
// and how long the call took.
func (r *pairRunner) findPath(startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3) (int, query.Status, int, time.Duration, error) {
	began := time.Now()
	if r.searcher != nil {
		result, err := r.searcher.FindPath(startRef, endRef, startPos, endPos, r.filter, r.path)
		took := time.Since(began)
		return result.Count, result.Status, result.NodesVisited, took, err
	}
	n, status, err := r.q.FindPath(startRef, endRef, startPos, endPos, r.filter, r.path)
	took := time.Since(began)
	nodes := 0
	if err == nil && startRef != endRef {
		nodes = r.q.ClosedNodes()
	}
	return n, status, nodes, took, err
}

// queryStats is the line -stats prints: the path searches' time in
// microseconds, the nodes they closed on average, and the hierarchy's
// build time and memory (0 for plain A*).
type queryStats struct {
	Pairs         int           `json:"pairs"`
	USPerFindPath durationStats `json:"usPerFindPath"`
	NodesVisited  float64       `json:"nodesVisited"`
	BuildMS       float64       `json:"buildMs"`
	MemoryBytes   int           `json:"memoryBytes"`
}

type durationStats struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P99  float64 `json:"p99"`
}

// stats sums up the runner's path searches.
func (r *pairRunner) stats(pairs int, build time.Duration, memory int) queryStats {
	s := queryStats{Pairs: pairs, BuildMS: float64(build.Microseconds()) / 1000, MemoryBytes: memory}
	if len(r.durations) == 0 {
		return s
	}
	us := make([]float64, len(r.durations))
	for i, d := range r.durations {
		us[i] = float64(d.Nanoseconds()) / 1000
		s.USPerFindPath.Mean += us[i]
	}
	slices.Sort(us)
	s.USPerFindPath.Mean /= float64(len(us))
	s.USPerFindPath.P50 = us[(len(us)-1)/2]
	s.USPerFindPath.P99 = us[int(math.Ceil(0.99*float64(len(us))))-1]
	s.NodesVisited = float64(r.nodes) / float64(len(us))
	return s
}

func runQuery(args []string, stdout io.Writer) error {
	opts, err := parseQueryFlags(args)
	if err != nil {
		return err
	}
	mesh, _, err := navmesh.LoadFile(opts.navmeshPath)
	if err != nil {
		return err
	}
	if err := addLinksFile(opts.linksPath, mesh); err != nil {
		return err
	}
	pairsFile, err := os.Open(opts.pairsPath)
	if err != nil {
		return err
	}
	pairs, err := readQueryPairs(pairsFile)
	pairsFile.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", opts.pairsPath, err)
	}
	q, err := query.New(mesh, opts.nodes)
	if err != nil {
		return err
	}
	filter := query.NewFilter()
	filter.IncludeFlags, filter.ExcludeFlags = opts.include, opts.exclude
	runner := &pairRunner{
		q:       q,
		filter:  filter,
		extents: opts.extents,
		path:    make([]navmesh.Ref, opts.maxPath),
		points:  make([]query.StraightPathPoint, opts.maxPath),
	}
	var build time.Duration
	memory := 0
	if opts.hierarchical {
		began := time.Now()
		h, err := hierarchy.New(mesh, filter, hierarchy.Options{})
		if err != nil {
			return err
		}
		build = time.Since(began)
		memory = h.MemoryBytes()
		if runner.searcher, err = hierarchy.NewSearcher(q, h); err != nil {
			return err
		}
	}

	out := stdout
	var outFile *os.File
	if opts.outPath != "" {
		if outFile, err = os.Create(opts.outPath); err != nil {
			return err
		}
		out = outFile
	}
	w := bufio.NewWriter(out)
	err = writeQueryResults(w, pairs, runner)
	if flushErr := w.Flush(); err == nil {
		err = flushErr
	}
	if outFile != nil {
		if closeErr := outFile.Close(); err == nil {
			err = closeErr
		}
	}
	if err == nil && opts.stats {
		line, _ := json.Marshal(runner.stats(len(pairs), build, memory))
		_, err = fmt.Fprintf(queryStatsOutput, "%s\n", line)
	}
	return err
}

func writeQueryResults(w io.Writer, pairs []queryPair, runner *pairRunner) error {
	if _, err := fmt.Fprintln(w, "i,start_found,end_found,partial,npolys,nstraight,len3d,len2d,endx,endy,endz"); err != nil {
		return err
	}
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for i, p := range pairs {
		res, err := runner.run(p)
		if err != nil {
			return fmt.Errorf("pair %d: %w", i, err)
		}
		_, err = fmt.Fprintf(w, "%d,%d,%d,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g\n", i,
			b(res.startFound), b(res.endFound), b(res.partial), res.polys, res.straight,
			res.length3D, res.length2D, res.end[0], res.end[1], res.end[2])
		if err != nil {
			return err
		}
	}
	return nil
}
