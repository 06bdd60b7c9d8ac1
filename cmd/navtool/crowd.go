package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

func init() {
	register("crowd", "run a headless crowd on a navmesh and report speed and behaviour", runCrowd)
}

// crowdOptions are the flags of `navtool crowd`.
type crowdOptions struct {
	navmeshPath  string
	linksPath    string
	agents       int
	seed         uint64
	scenarioPath string
	ticks        int
	dt           float64
	workers      int
	json         bool
	reference    bool
	fullSearch   bool
	connected    bool
	retarget     bool
	tracePath    string
	tripsPath    string
	// saveAt is the tick after which the state is written to savePath
	// (-1: never); restorePath is a save file the run continues from.
	saveAt      int
	savePath    string
	restorePath string
	obstacles   crowdObstacleOptions
	paths       pathOptions
	avoidance   crowd.AvoidanceMethod
	// types are the agent types of -navmesh NAME=FILE, typedAgents the
	// -agents NAME=N.
	types       []crowdType
	typedAgents []typedCount
}

func parseCrowdFlags(args []string) (*crowdOptions, error) {
	fs := flag.NewFlagSet("crowd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := &crowdOptions{}
	fs.Var(navmeshFlag{opts}, "navmesh", "navmesh `file` (DNAV tile, MSET tile set or archenav mesh); or NAME=FILE, repeated, one agent type each (FILE may be a mesh set file holding a mesh NAME)")
	fs.Var(agentsFlag{opts}, "agents", "number of agents at seeded random starts and targets; with typed meshes NAME=N, repeated: N agents of type NAME on its own mesh")
	fs.Uint64Var(&opts.seed, "seed", 1, "random seed for -agents")
	fs.StringVar(&opts.linksPath, "links", "", "CSV `file` of runtime links added to every navmesh first (crossed as the crowd crosses off-mesh connections): sx,sy,sz,ex,ey,ez,radius,bidirectional, optionally width,area,flags,cost")
	fs.StringVar(&opts.scenarioPath, "scenario", "", "CSV `file` whose header names sx,sy,sz,tx,ty,tz (one agent per row), and type (the agent type's NAME) with typed meshes")
	fs.IntVar(&opts.ticks, "ticks", 600, "number of ticks to run")
	fs.Float64Var(&opts.dt, "dt", 1.0/60, "tick length in seconds")
	fs.IntVar(&opts.workers, "workers", 1, "goroutines for the parallel stages")
	fs.BoolVar(&opts.json, "json", false, "print one JSON object")
	fs.BoolVar(&opts.reference, "reference", false, "turn the improvements over DetourCrowd off")
	fs.BoolVar(&opts.fullSearch, "full-search-unreachable", false, "search out-of-reach targets in full, as the reference does (implied by -reference)")
	fs.StringVar(&opts.tracePath, "trace", "", "write the positions and target states of tick 0 and every 30th tick to `file` (the format of plugin/testdata/reference)")
	fs.StringVar(&opts.tripsPath, "write-scenario", "", "write the agents' starts and targets to `file` as a -scenario CSV")
	fs.StringVar(&opts.obstacles.tsetPath, "tset", "", "walk on the navmesh of tile cache `file` (RecastDemo's TSET or an archenav cache) instead of -navmesh")
	fs.Var((*stringList)(&opts.obstacles.obstaclePaths), "obstacles", "at the matching -obstacles-at tick the carving obstacles become the set of CSV `file` (id,type,x,y,z,x2,y2,z2,radius,height,yaw); repeat for more states")
	fs.Var((*intList)(&opts.obstacles.obstacleTicks), "obstacles-at", "the `tick` the matching -obstacles file applies at")
	fs.IntVar(&opts.saveAt, "save-at", -1, "write the crowd's state after `tick` (0 is the first) to the -save file")
	fs.StringVar(&opts.savePath, "save", "", "save `file` written after the -save-at tick (plugin.Plugin.Save)")
	fs.StringVar(&opts.restorePath, "restore", "", "continue the run from save `file`, written by a run with the same flags: the ticks after the saved one run; -obstacles-at ticks at or before it are in the state already")
	fs.BoolVar(&opts.connected, "connected", false, "with -agents: random starts and targets on the mesh's largest connected part only, so every target is in reach")
	fs.BoolVar(&opts.retarget, "retarget", false, "give an agent a new random target (of the same kind as -connected picks) each time it arrives, and 10 s after its path came out partial or failed")
	opts.paths.addFlags(fs)
	avoidance := fs.String("avoidance", "adaptive", "obstacle avoidance of every agent: adaptive (the reference's preset 3), grid (its 33×33 grid) or orca")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "usage: navtool crowd (-navmesh FILE | -tset FILE [-obstacles STATE.csv -obstacles-at TICK]... | (-navmesh NAME=FILE)... ) (-agents N | (-agents NAME=N)... [-seed S] [-connected] | -scenario AGENTS.csv) [-links LINKS.csv] [-ticks 600] [-dt 0.0166667] [-workers 1] [-avoidance adaptive|grid|orca] [-retarget] [-hierarchical=true|false] [-nodes N] [-json] [-reference] [-full-search-unreachable] [-trace FILE] [-write-scenario FILE] [-save-at TICK -save FILE] [-restore FILE]")
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
		}
		return nil, err
	}
	method, err := crowd.ParseAvoidanceMethod(*avoidance)
	if err != nil {
		return nil, fmt.Errorf("-avoidance %q: want adaptive, grid or orca", *avoidance)
	}
	opts.avoidance = method
	if len(opts.types) > 0 || len(opts.typedAgents) > 0 {
		if fs.NArg() > 0 {
			return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
		}
		if err := opts.checkTypes(); err != nil {
			return nil, err
		}
		return opts, opts.checkRun()
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	case opts.obstacles.check(opts.navmeshPath) != nil:
		return nil, opts.obstacles.check(opts.navmeshPath)
	case (opts.agents > 0) == (opts.scenarioPath != ""):
		return nil, errors.New("give either -agents N (> 0) or -scenario FILE")
	case opts.connected && opts.scenarioPath != "":
		return nil, errors.New("-connected picks random points: use it with -agents, not -scenario")
	case opts.agents < 0:
		return nil, fmt.Errorf("-agents %d: want > 0", opts.agents)
	}
	return opts, opts.checkRun()
}

// checkRun checks the flags of the run's length and workers.
func (opts *crowdOptions) checkRun() error {
	switch {
	case opts.ticks < 1:
		return fmt.Errorf("-ticks %d: want >= 1", opts.ticks)
	case !(opts.dt > 0) || math.IsInf(opts.dt, 0):
		return fmt.Errorf("-dt %v: want a positive number", opts.dt)
	case opts.workers < 1:
		return fmt.Errorf("-workers %d: want >= 1", opts.workers)
	case (opts.saveAt >= 0) != (opts.savePath != ""):
		return errors.New("give -save-at TICK and -save FILE together")
	case opts.saveAt >= opts.ticks:
		return fmt.Errorf("-save-at %d: the run has ticks 0..%d", opts.saveAt, opts.ticks-1)
	}
	return opts.paths.check()
}

// crowdTrip is one agent of a run: where it starts and where it goes, and
// with agent types its type (typeName from a scenario's type column).
type crowdTrip struct {
	start, target geom.Vec3
	typ           int
	typeName      string
}

// readCrowdScenario reads the sx,sy,sz,tx,ty,tz columns of a CSV, found by
// header name; other columns are ignored.
func readCrowdScenario(r io.Reader) ([]crowdTrip, error) {
	reader := csv.NewReader(r)
	reader.FieldsPerRecord = -1
	reader.TrimLeadingSpace = true
	header, err := reader.Read()
	if err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	names := [6]string{"sx", "sy", "sz", "tx", "ty", "tz"}
	var cols [6]int
	for i, name := range names {
		cols[i] = slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == name })
		if cols[i] < 0 {
			return nil, fmt.Errorf("header has no %q column", name)
		}
	}
	typeCol := slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == "type" })
	var trips []crowdTrip
	for row := 2; ; row++ {
		record, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", row, err)
		}
		var v [6]float32
		for i, col := range cols {
			if col >= len(record) {
				return nil, fmt.Errorf("row %d: no %s value", row, names[i])
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(record[col]), 32)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("row %d: %s %q is not a finite number", row, names[i], record[col])
			}
			v[i] = float32(f)
		}
		trip := crowdTrip{start: geom.Vec3{v[0], v[1], v[2]}, target: geom.Vec3{v[3], v[4], v[5]}}
		if typeCol >= 0 && typeCol < len(record) {
			trip.typeName = strings.TrimSpace(record[typeCol])
		}
		trips = append(trips, trip)
	}
	if len(trips) == 0 {
		return nil, errors.New("no agents")
	}
	return trips, nil
}

// randomPoints returns a source of seeded random points on mesh: Detour's
// FindRandomPoint over the whole mesh, or with connected over its largest
// connected part only (query.LargestComponentSampler).
func randomPoints(mesh *navmesh.Mesh, filter *query.Filter, seed uint64, connected bool) (func() (query.RandomPoint, error), error) {
	q, err := query.New(mesh, 2048)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	random := func() float32 { return rng.Float32() }
	point := func() (query.RandomPoint, error) { return q.FindRandomPoint(filter, random) }
	if connected {
		sampler, err := query.LargestComponentSampler(mesh.Snapshot(), filter)
		if err != nil {
			return nil, err
		}
		point = func() (query.RandomPoint, error) { return sampler.RandomPoint(random) }
	}
	return point, nil
}

// randomCrowdTrips picks n seeded random starts and targets on mesh: start
// and target of agent i are the (2i)th and (2i+1)th random points. They
// come from Detour's FindRandomPoint over the whole mesh (the points the
// C++ comparison runs use), or with connected from the largest connected
// part only (query.LargestComponentSampler), so that every target is in
// reach.
func randomCrowdTrips(mesh *navmesh.Mesh, filter *query.Filter, n int, seed uint64, connected bool) ([]crowdTrip, error) {
	point, err := randomPoints(mesh, filter, seed, connected)
	if err != nil {
		return nil, err
	}
	trips := make([]crowdTrip, n)
	for i := range trips {
		start, err := point()
		if err != nil {
			return nil, fmt.Errorf("random start: %w", err)
		}
		target, err := point()
		if err != nil {
			return nil, fmt.Errorf("random target: %w", err)
		}
		trips[i] = crowdTrip{start: start.Pos, target: target.Pos}
	}
	return trips, nil
}

// crowdFilter is the agents' filter: everything but RecastDemo's
// "disabled" flag, as in the reference crowd benchmark.
func crowdFilter() *query.Filter {
	filter := query.NewFilter()
	filter.ExcludeFlags = navmesh.FlagDisabled
	return filter
}

// crowdReport is the result of a run; -json prints it as is.
type crowdReport struct {
	Agents    int                `json:"agents"`
	Ticks     int                `json:"ticks"`
	Workers   int                `json:"workers"`
	MsPerTick crowdTimes         `json:"msPerTick"`
	StageMs   map[string]float64 `json:"stageMs"`
	// PerType gives, with agent types, each type's figures, keyed by name.
	PerType           map[string]*crowdTypeReport `json:"perType,omitempty"`
	Reached           int                         `json:"reached"`
	OffMeshViolations int                         `json:"offMeshViolations"`
	WallPenetrations  int                         `json:"wallPenetrations"`
	OverlapAgentTicks int                         `json:"overlapAgentTicks"`
	StuckAgents       int                         `json:"stuckAgents"`
	AllocsPerTick     float64                     `json:"allocsPerTick"`
	// SteadyAllocsPerTick averages the allocations of the ticks after the
	// first second, once the crowd has set itself up.
	SteadyAllocsPerTick float64 `json:"steadyAllocsPerTick"`
	PartialPaths        int     `json:"partialPaths"`
	WaitingForPath      int     `json:"waitingForPath"`
	// PathWaitP99S and PathWaitMaxS are the 99th percentile and the
	// longest wait of an agent for the first path to its target (complete
	// or partial), from the move request, over the run; agents still
	// waiting at the end count with their wait so far [Units: s]
	PathWaitP99S float64 `json:"pathWaitP99S"`
	PathWaitMaxS float64 `json:"pathWaitMaxS"`
	// Hierarchical tells whether the path queue planned with the
	// hierarchy.
	Hierarchical bool `json:"hierarchical"`
	// OutOfReach counts the agents whose target lies in another connected
	// component of the navmesh than their start: no path leads there.
	OutOfReach int `json:"outOfReach"`
	// ReachedReachable counts the agents that reached a target within
	// their reach.
	ReachedReachable int `json:"reachedReachable"`
	// ObstacleAgentTicks counts the agent-ticks of walking agents whose
	// centre lies nearer an obstacle's footprint than their radius less
	// 0.1 m, from one second after the obstacle's carve landed.
	ObstacleAgentTicks int `json:"obstacleAgentTicks"`
	// InvalidAgents counts the agents that are AgentInvalid at the end.
	InvalidAgents int `json:"invalidAgents"`
	// MaxStepDistance is the largest move (xz) of one agent in one tick,
	// to a tenth of a millimetre [Units: world units]
	MaxStepDistance float32 `json:"maxStepDistance"`
	// ObstacleMs is the mean time of the ObstacleSync stage per tick
	// [Units: ms]
	ObstacleMs float64 `json:"obstacleMs"`
	// TargetsInObstacles counts the agents whose target lay in an
	// obstacle's footprint grown by their radius at some tick: they may
	// not reach it while it stands.
	TargetsInObstacles int `json:"targetsInObstacles"`
	// Avoidance names the agents' avoidance method.
	Avoidance string `json:"avoidance"`
	// VelocityChangePerTick is the mean change of a walking agent's velocity
	// from one tick to the next [Units: world units per second]: lower is
	// smoother.
	VelocityChangePerTick float64 `json:"velocityChangePerTick"`
	// ORCAInfeasiblePerTick is the mean number of agents per tick whose ORCA
	// program was infeasible and fell back.
	ORCAInfeasiblePerTick float64 `json:"orcaInfeasiblePerTick"`
	// Arrived counts the agents that got EventTargetReached for their
	// target at the end (with -retarget, those that arrived in the last
	// tick).
	Arrived int `json:"arrived"`
	// Hovering counts the agents with a target in reach, within 2 m of it
	// at the end, without EventTargetReached for it, that moved less than
	// 0.5 m in the last 5 s (crowdcheck.Result.Hovering).
	Hovering int `json:"hovering"`
	// NearNotArrived counts the agents within 1 m of a target in reach at
	// the end without EventTargetReached for it that still have none after
	// the run goes on for 2 s with no new targets (nearGrace: agents
	// braking into their target at the last tick arrive then, and so do
	// agents whose target was set a moment before the end, their path
	// perhaps still pending, which are rightly near and not arrived;
	// NearArrivedAfterEnd counts those). NearNotArrivedStill counts the
	// agents within 1 m at the end, not arrived, that moved less than
	// 0.5 m in the last 5 s.
	NearNotArrived      int `json:"nearNotArrived"`
	NearArrivedAfterEnd int `json:"nearArrivedAfterEnd"`
	NearNotArrivedStill int `json:"nearNotArrivedStill"`
	// Arrivals counts every EventTargetReached of the run, ArrivalsPerMinute
	// per simulated minute.
	Arrivals          int     `json:"arrivals"`
	ArrivalsPerMinute float64 `json:"arrivalsPerMinute"`
}

// crowdTimes summarizes the wall time of the ticks [Units: ms].
type crowdTimes struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

func runCrowd(args []string, stdout io.Writer) error {
	opts, err := parseCrowdFlags(args)
	if err != nil {
		return err
	}
	var mesh *navmesh.Mesh
	var cache *tilecache.Cache
	if len(opts.types) > 0 {
		if err := loadCrowdTypes(opts.types); err != nil {
			return err
		}
		mesh = opts.types[0].mesh
	} else if mesh, cache, err = crowdMesh(opts.navmeshPath, &opts.obstacles, opts.workers); err != nil {
		return err
	}
	meshes := []*navmesh.Mesh{mesh}
	if len(opts.types) > 0 {
		meshes = meshes[:0]
		for _, t := range opts.types {
			meshes = append(meshes, t.mesh)
		}
	}
	if err := addLinksFile(opts.linksPath, meshes...); err != nil {
		return err
	}
	filter := *crowdFilter()

	var trips []crowdTrip
	if opts.scenarioPath != "" {
		f, err := os.Open(opts.scenarioPath)
		if err != nil {
			return err
		}
		trips, err = readCrowdScenario(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", opts.scenarioPath, err)
		}
		if len(opts.types) > 0 {
			if err := resolveTripTypes(opts, trips); err != nil {
				return err
			}
		}
	} else if len(opts.types) > 0 {
		if trips, err = typedCrowdTrips(opts, &filter); err != nil {
			return err
		}
	} else if trips, err = randomCrowdTrips(mesh, &filter, opts.agents, opts.seed, opts.connected); err != nil {
		return err
	}
	if opts.tripsPath != "" {
		if err := writeFileWith(opts.tripsPath, func(w io.Writer) error { return writeCrowdScenario(w, trips, len(opts.types) > 0) }); err != nil {
			return err
		}
	}

	var tracer *crowdTracer
	if opts.tracePath != "" {
		f, err := os.Create(opts.tracePath)
		if err != nil {
			return err
		}
		defer f.Close()
		tracer = newCrowdTracer(f)
	}
	report, err := simulateCrowd(mesh, cache, filter, trips, opts, tracer)
	if err != nil {
		return err
	}
	if tracer != nil {
		if err := tracer.flush(); err != nil {
			return err
		}
	}
	if opts.json {
		enc := json.NewEncoder(stdout)
		return enc.Encode(report)
	}
	return printCrowdReport(stdout, report)
}

// simulateCrowd runs the trips through the plugin on a bare world and
// measures it.
func simulateCrowd(mesh *navmesh.Mesh, cache *tilecache.Cache, filter query.Filter, trips []crowdTrip, opts *crowdOptions, tracer *crowdTracer) (*crowdReport, error) {
	config := plugin.Config{
		Mesh:             mesh,
		TileCache:        cache,
		MaxAgents:        len(trips),
		Workers:          opts.workers,
		Filters:          []query.Filter{filter},
		Reference:        opts.reference,
		AvoidancePresets: avoidancePresets(opts.avoidance),
	}
	config.PathQueue.FullSearchUnreachable = opts.fullSearch
	opts.paths.apply(&config, mesh)
	if len(opts.types) > 0 {
		config.Mesh, config.TileCache = nil, nil
		for _, t := range opts.types {
			config.AgentTypes = append(config.AgentTypes, plugin.AgentTypeConfig{Name: t.name, Mesh: t.mesh})
			config.MaxAgentRadius = max(config.MaxAgentRadius, t.radius)
		}
	}
	p, err := plugin.New(config)
	if err != nil {
		return nil, err
	}
	world := ecs.NewWorld()
	if err := p.Install(&world); err != nil {
		return nil, err
	}
	defer p.Schedule().Finalize(&world)

	specs := make([]plugin.AgentSpec, len(trips))
	for i, trip := range trips {
		specs[i] = plugin.AgentSpec{Position: trip.start, Params: components.DefaultAgentParams()}
		if len(opts.types) > 0 {
			specs[i].Params = components.AgentParamsForRadius(opts.types[trip.typ].radius)
			specs[i].Params.Type = uint8(trip.typ)
		}
	}
	agents, err := p.SpawnBatch(&world, specs, nil)
	if err != nil {
		return nil, err
	}
	for i, e := range agents {
		if err := p.RequestMoveTarget(&world, e, trips[i].target); err != nil {
			return nil, fmt.Errorf("agent %d: %w", i, err)
		}
	}

	checker, err := newCrowdChecker(mesh, &filter, p, &world, agents, trips, opts.types)
	if err != nil {
		return nil, err
	}
	checker.SetTimeStep(opts.dt)
	if err := checker.Classify(); err != nil {
		return nil, err
	}
	arrivals, err := newRetargeter(p, &world, agents, trips, checker, mesh, &filter, opts)
	if err != nil {
		return nil, err
	}
	obstacles, err := newObstacleDriver(p, &world, agents, &opts.obstacles, opts.dt)
	if err != nil {
		return nil, err
	}
	first := 0
	if opts.restorePath != "" {
		if first, err = restoreCrowd(opts.restorePath, p, &world, agents, obstacles); err != nil {
			return nil, err
		}
		if first >= opts.ticks {
			return nil, fmt.Errorf("-restore %s: saved after tick %d, the run has ticks 0..%d", opts.restorePath, first-1, opts.ticks-1)
		}
	}
	ran := opts.ticks - first
	report := &crowdReport{Agents: len(agents), Ticks: ran, Workers: opts.workers, StageMs: map[string]float64{},
		Avoidance: opts.avoidance.String()}
	infeasible := 0
	times := make([]float64, opts.ticks-first)
	stageNames := p.Schedule().Stages()
	stageTotals := make([]time.Duration, len(stageNames))
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}
	var allocCount, steadyAllocCount uint64
	steadyFrom := int(math.Ceil(1 / opts.dt)) // the first tick after one second
	dt := float32(opts.dt)
	for tick := first; tick < opts.ticks; tick++ {
		if err := obstacles.before(tick); err != nil {
			return nil, err
		}
		metrics.Read(allocs)
		before := allocs[0].Value.Uint64()
		start := time.Now()
		if err := p.Step(&world, dt); err != nil {
			return nil, err
		}
		times[tick-first] = float64(time.Since(start).Nanoseconds()) / 1e6
		metrics.Read(allocs)
		allocCount += allocs[0].Value.Uint64() - before
		if tick >= max(steadyFrom, first) {
			steadyAllocCount += allocs[0].Value.Uint64() - before
		}

		stats := p.Stats(&world)
		for i, d := range stats.StageDurations {
			stageTotals[i] += d
		}
		infeasible += stats.ORCAInfeasible
		if err := checker.Check(); err != nil {
			return nil, err
		}
		if err := arrivals.after(tick, tick == opts.ticks-1); err != nil {
			return nil, err
		}
		if err := obstacles.after(tick); err != nil {
			return nil, err
		}
		if tracer != nil {
			if err := tracer.record(tick, p, &world, agents); err != nil {
				return nil, err
			}
		}
		if tick == opts.saveAt {
			if err := writeFileWith(opts.savePath, func(w io.Writer) error { return p.Save(&world, w) }); err != nil {
				return nil, fmt.Errorf("-save %s: %w", opts.savePath, err)
			}
		}
	}

	report.MsPerTick = summarizeTimes(times)
	for i, name := range stageNames {
		report.StageMs[name] = float64(stageTotals[i].Nanoseconds()) / 1e6 / float64(ran)
	}
	report.AllocsPerTick = float64(allocCount) / float64(ran)
	if steadyTicks := opts.ticks - max(steadyFrom, first); steadyTicks > 0 {
		report.SteadyAllocsPerTick = float64(steadyAllocCount) / float64(steadyTicks)
	}
	report.ObstacleAgentTicks = obstacles.insideTicks
	// To a tenth of a millimetre: steps at the push speed limit differ by
	// float32 rounding from run to run.
	report.MaxStepDistance = float32(math.Round(float64(obstacles.maxStep)*1e4) / 1e4)
	report.ObstacleMs = report.StageMs[plugin.StageObstacleSync]
	report.TargetsInObstacles = obstacles.coveredTargets()
	if report.InvalidAgents, err = obstacles.invalid(); err != nil {
		return nil, err
	}
	report.ORCAInfeasiblePerTick = float64(infeasible) / float64(ran)
	targets := make([]geom.Vec3, len(trips))
	for i, trip := range trips {
		targets[i] = trip.target
	}
	r := checker.Finish(targets)
	report.PerType = checker.perType(targets)
	report.OffMeshViolations = r.OffMesh
	report.WallPenetrations = r.WallPenetrations
	report.OverlapAgentTicks = r.OverlapAgentTicks
	report.VelocityChangePerTick = r.VelocityChangePerTick
	report.OutOfReach = r.OutOfReach
	report.Reached = r.Reached
	report.ReachedReachable = r.ReachedReachable
	report.StuckAgents = r.Stuck
	report.PartialPaths = r.PartialPaths
	report.WaitingForPath = r.WaitingForPath
	report.PathWaitP99S, report.PathWaitMaxS = pathWaits(p.Stats(&world))
	report.Hierarchical = p.Hierarchy() != nil && !opts.reference
	report.Arrived, report.Hovering = r.Arrived, r.Hovering
	report.NearNotArrivedStill = r.NearNotArrivedStill
	if report.NearArrivedAfterEnd, err = arrivingAfterEnd(p, &world, r.NearAgents, opts.dt); err != nil {
		return nil, err
	}
	report.NearNotArrived = r.NearNotArrived - report.NearArrivedAfterEnd
	report.Arrivals, report.ArrivalsPerMinute = arrivals.arrivals, arrivals.perMinute(opts.ticks, opts.dt)
	return report, nil
}

// avoidancePresets returns the presets for every agent's avoidance method:
// the agents use preset 3 (components.DefaultAgentParams), the reference's
// high-quality adaptive preset; grid keeps its parameters and samples its
// 33×33 grid, orca is crowd.ORCAPreset.
func avoidancePresets(method crowd.AvoidanceMethod) []crowd.AvoidanceParams {
	presets := components.NewAvoidancePresets()
	preset := &presets.List[components.DefaultAgentParams().AvoidancePreset]
	switch method {
	case crowd.AvoidanceORCA:
		*preset = crowd.ORCAPreset()
	default:
		preset.Method = method
	}
	return presets.List[:]
}

// writeFileWith creates path and writes it with write.
func writeFileWith(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

func summarizeTimes(times []float64) crowdTimes {
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	sum := 0.0
	for _, t := range sorted {
		sum += t
	}
	at := func(q float64) float64 {
		return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
	}
	return crowdTimes{Mean: sum / float64(len(sorted)), P50: at(0.5), P99: at(0.99), Max: sorted[len(sorted)-1]}
}

func printCrowdReport(w io.Writer, r *crowdReport) error {
	_, err := fmt.Fprintf(w, "agents %d, ticks %d, workers %d, avoidance %s\n"+
		"ms per tick: mean %.3f, p50 %.3f, p99 %.3f, max %.3f\n",
		r.Agents, r.Ticks, r.Workers, r.Avoidance, r.MsPerTick.Mean, r.MsPerTick.P50, r.MsPerTick.P99, r.MsPerTick.Max)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(r.StageMs))
	for name := range r.StageMs {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return stageOrder(a) - stageOrder(b) })
	for _, name := range names {
		if _, err := fmt.Fprintf(w, "  %-18s %8.3f ms\n", name, r.StageMs[name]); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintf(w, "targets out of reach %d, reached %d (%d of the reachable), stuck %d, partial paths %d, waiting for a path %d\n"+
		"wait for a first path: p99 %.3f s, longest %.3f s, hierarchical paths %v\n"+
		"off-mesh violations %d, wall penetrations %d, overlapping agent-ticks %d\n"+
		"agent-ticks in obstacles %d, targets in obstacles %d, invalid agents %d, largest step %.3f m\n"+
		"velocity change per tick %.4f m/s, infeasible ORCA programs per tick %.2f\n"+
		"allocations per tick %.2f (after the first second %.2f)\n"+
		"arrivals %d (%.1f a minute), arrived at the end %d, hovering %d, within 1 m not arrived %d (%d more arrived within 2 s after the end; %d still)\n",
		r.OutOfReach, r.Reached, r.ReachedReachable, r.StuckAgents, r.PartialPaths, r.WaitingForPath,
		r.PathWaitP99S, r.PathWaitMaxS, r.Hierarchical,
		r.OffMeshViolations, r.WallPenetrations, r.OverlapAgentTicks,
		r.ObstacleAgentTicks, r.TargetsInObstacles, r.InvalidAgents, r.MaxStepDistance,
		r.VelocityChangePerTick, r.ORCAInfeasiblePerTick, r.AllocsPerTick, r.SteadyAllocsPerTick,
		r.Arrivals, r.ArrivalsPerMinute, r.Arrived, r.Hovering, r.NearNotArrived, r.NearArrivedAfterEnd, r.NearNotArrivedStill)
	if err != nil {
		return err
	}
	types := make([]string, 0, len(r.PerType))
	for name := range r.PerType {
		types = append(types, name)
	}
	slices.Sort(types)
	for _, name := range types {
		t := r.PerType[name]
		if _, err := fmt.Fprintf(w, "type %s: agents %d, reached %d, off-mesh violations %d, wall penetrations %d, overlapping agent-ticks %d\n",
			name, t.Agents, t.Reached, t.OffMeshViolations, t.WallPenetrations, t.OverlapAgentTicks); err != nil {
			return err
		}
	}
	return nil
}

func stageOrder(name string) int {
	for i, s := range plugin.NewSchedule().Stages() {
		if s == name {
			return i
		}
	}
	return len(name) + 100
}
