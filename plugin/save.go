package plugin

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/internal/ownfile"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
)

// The save file, written by Save and read by Load, is archenav's own
// envelope (package internal/ownfile: magic "ANAVSAVE", envelope version
// 2, named sections, a CRC-32 of everything before it), little-endian:
//
//	header            format version uint32, then the crowd it was
//	                  saved from: agent type names, Config.MaxPath, the
//	                  counts of agents and obstacles
//	resources         Settings, TimeStep, AvoidancePresets and the Stats
//	                  counts, each a record; the move requests since the
//	                  last tick
//	type/N/mesh       agent type N's navmesh (navmesh.MeshState)
//	type/N/cache      its tile cache, when it has one (tilecache.CacheState)
//	type/N/queue      its path queue (crowd.PathQueueState)
//	type/N/filters    its query filters (components.Filters)
//	agents            count, then per component a column of one record
//	                  per agent, in the order the crowd visits them: the
//	                  entity (id, generation), AgentParams, Position,
//	                  Velocity, AgentState, the corridor
//	                  (crowd.CorridorState), MoveTarget, Boundary,
//	                  Neighbours, Corners, OffMeshAnimation; then, when
//	                  an agent has one, a record of each agent's
//	                  AgentLinkTraversal (0: none, else 1 + Traversal)
//	obstacles         count, then columns: entity, Obstacle, ObstaclePose,
//	                  ObstacleState
//	links             when the world has runtime links: count, then
//	                  columns: entity, Link, LinkState
//	linktraffic       the LinkTraffic resource (components.LinkTraffic),
//	                  agents and links by their place in the columns
//	stage/ObstacleSync, stage/PathRequest, stage/LinkSync
//	                  what those stages keep between ticks
//
// The navmeshes' runtime links (their tiles, ids and free link slots) are
// in each type's mesh section.
//
// A record is framed by its length (a varint), so that a later version
// can add fields at the end of one; a section a later version adds is
// missing from older files and takes its default. saveVersion counts the
// versions of this layout; Load reads every version up to its own.
const (
	saveMagic   = "ANAVSAVE"
	saveVersion = 1
	// maxSaveSections bounds a file's sections: the fixed ones and four
	// per agent type.
	maxSaveSections = 12 + 4*components.MaxAgentTypes
)

// Errors of Load, for errors.Is.
var (
	// ErrNotSaveFile is wrapped when the bytes are not a save file (another
	// magic).
	ErrNotSaveFile = errors.New("plugin: not a save file")
	// ErrBadSaveFile is wrapped for a truncated, corrupted or inconsistent
	// save file, or one of a later format version.
	ErrBadSaveFile = errors.New("plugin: bad save file")
)

// saveSectionName is the form of a section name.
var saveSectionName = regexp.MustCompile(`^[a-zA-Z0-9/]{1,32}$`)

// saveFormat is the save file's envelope.
var saveFormat = ownfile.Format{
	Magic: saveMagic, Noun: "section", Nouns: "sections",
	MinSection: 0, MaxEntries: maxSaveSections, MaxNameLength: 32,
	ValidateName: func(name string) error {
		if !saveSectionName.MatchString(name) {
			return fmt.Errorf("section name %q", name)
		}
		return nil
	},
}

// Save writes the navigation state of world (see Snapshot) to w, in the
// save file format: versioned, checksummed, loaded by Load into a world
// whose crowd has the same agent types, meshes, tile caches and sizes
// (made from the same level). Call it between ticks. A game's own
// components are the game's to save: key them by entity, and find their
// entities again with the EntityMap Load returns.
func (p *Plugin) Save(world *ecs.World, w io.Writer) error {
	if err := p.Snapshot(world, &p.saveScratch); err != nil {
		return err
	}
	file, err := p.encodeSnapshot(&p.saveScratch)
	if err != nil {
		return err
	}
	if _, err := w.Write(file); err != nil {
		return fmt.Errorf("plugin: save: %w", err)
	}
	return nil
}

// encodeSnapshot returns the save file of s.
func (p *Plugin) encodeSnapshot(s *Snapshot) ([]byte, error) {
	type section struct {
		name string
		data []byte
	}
	var sections []section
	add := func(name string, data []byte) { sections = append(sections, section{name, data}) }

	var w binstate.Writer
	w.U32(saveVersion)
	w.Count(len(p.types))
	for t := range p.types {
		w.String(p.types[t].name)
	}
	w.U32(uint32(p.config.MaxPath))
	w.Count(len(s.agents.entities))
	w.Count(len(s.obstacles.entities))
	add("header", w.B)

	w = binstate.Writer{}
	w.Record(s.settings.AppendState(nil))
	w.Record(s.timeStep.AppendState(nil))
	w.Record(s.presets.AppendState(nil))
	w.Record(s.stats.AppendState(nil))
	w.Int(s.requestsSinceTick)
	add("resources", w.B)

	for t := range s.types {
		ts, pt := &s.types[t], &p.types[t]
		prefix := "type/" + strconv.Itoa(t) + "/"
		mesh, err := ts.mesh.AppendBinary(nil)
		if err != nil {
			return nil, fmt.Errorf("plugin: save: agent type %s: %w", pt.name, err)
		}
		add(prefix+"mesh", mesh)
		if ts.hasCache {
			cache, err := ts.cache.AppendBinary(nil)
			if err != nil {
				return nil, fmt.Errorf("plugin: save: agent type %s: %w", pt.name, err)
			}
			add(prefix+"cache", cache)
		}
		filters := pt.filters
		queue, err := ts.queue.AppendState(nil, func(f *query.Filter) (int, bool) {
			for i := range filters.List {
				if f == &filters.List[i] {
					return i, true
				}
			}
			return 0, false
		})
		if err != nil {
			return nil, fmt.Errorf("plugin: save: agent type %s: %w", pt.name, err)
		}
		add(prefix+"queue", queue)
		add(prefix+"filters", ts.filters.AppendState(nil))
	}

	add("agents", p.encodeAgents(s))
	add("obstacles", encodeObstacles(s))
	if s.hasLinks() {
		links, traffic := encodeLinks(s)
		add("links", links)
		add("linktraffic", traffic)
	}

	if s.hasObstacleSync {
		data, err := s.obstacleSync.AppendBinary(nil)
		if err != nil {
			return nil, err
		}
		add("stage/ObstacleSync", data)
	}
	if s.hasPathRequest {
		data, err := s.pathRequest.AppendBinary(nil)
		if err != nil {
			return nil, err
		}
		add("stage/PathRequest", data)
	}
	if s.hasLinkSync && s.linkSync.Entities() > 0 {
		data, err := s.linkSync.AppendBinary(nil)
		if err != nil {
			return nil, err
		}
		add("stage/LinkSync", data)
	}

	out := saveFormat.AppendPrefix(nil, ownfile.SetVersion)
	names := make([]string, len(sections))
	for i := range sections {
		names[i] = sections[i].name
	}
	out, err := ownfile.AppendEntries(out, names, func(out []byte, i int) ([]byte, error) {
		return append(out, sections[i].data...), nil
	})
	if err != nil {
		return nil, err
	}
	return ownfile.AppendChecksum(out), nil
}

// encodeAgents returns the agents section of s.
func (p *Plugin) encodeAgents(s *Snapshot) []byte {
	a := &s.agents
	var w binstate.Writer
	w.Count(len(a.entities))
	index := make(map[ecs.Entity]uint32, len(a.entities))
	for i, e := range a.entities {
		index[e] = uint32(i)
		w.U32(e.ID())
		w.U32(e.Generation())
	}
	indexOf := func(e ecs.Entity) (uint32, bool) {
		i, ok := index[e]
		return i, ok
	}
	var rec []byte
	column := func(record func(i int, b []byte) []byte) {
		for i := range a.entities {
			rec = record(i, rec[:0])
			w.Record(rec)
		}
	}
	column(func(i int, b []byte) []byte { return a.params[i].AppendState(b) })
	column(func(i int, b []byte) []byte { return a.positions[i].AppendState(b) })
	column(func(i int, b []byte) []byte { return a.velocities[i].AppendState(b) })
	column(func(i int, b []byte) []byte { return a.states[i].AppendState(b) })
	offset := 0
	column(func(i int, b []byte) []byte {
		t := &s.types[p.typeOf(&a.params[i]).index]
		n := a.corridors[i].PathCount()
		b = a.corridors[i].AppendState(b, a.paths[offset:offset+n], p.typeOf(&a.params[i]).mesh, t.mesh.Version())
		offset += n
		return b
	})
	column(func(i int, b []byte) []byte { return a.targets[i].AppendState(b) })
	column(func(i int, b []byte) []byte { return a.boundaries[i].AppendState(b) })
	column(func(i int, b []byte) []byte { return a.neighbours[i].AppendState(b, indexOf) })
	column(func(i int, b []byte) []byte { return a.corners[i].AppendState(b) })
	column(func(i int, b []byte) []byte { return a.animations[i].AppendState(b) })
	if slices.ContainsFunc(a.overrides, func(o uint8) bool { return o != 0 }) {
		w.Record(a.overrides)
	}
	return w.B
}

// hasLinks reports whether s holds runtime links, agents at them or the
// LinkSync stage's record of link entities: what the links and
// linktraffic sections carry.
func (s *Snapshot) hasLinks() bool {
	return len(s.links.entities) > 0 || len(s.traffic.Rides) > 0 || len(s.traffic.Pending) > 0 ||
		(s.hasLinkSync && s.linkSync.Entities() > 0)
}

// encodeLinks returns the links and linktraffic sections of s.
func encodeLinks(s *Snapshot) (links, traffic []byte) {
	l := &s.links
	var w binstate.Writer
	w.Count(len(l.entities))
	for _, e := range l.entities {
		w.U32(e.ID())
		w.U32(e.Generation())
	}
	for i := range l.entities {
		w.Record(l.links[i].AppendState(nil))
	}
	for i := range l.entities {
		w.Record(l.states[i].AppendState(nil))
	}
	indexOf := func(list []ecs.Entity) components.EntityIndex {
		index := make(map[ecs.Entity]uint32, len(list))
		for i, e := range list {
			index[e] = uint32(i)
		}
		return func(e ecs.Entity) (uint32, bool) {
			i, ok := index[e]
			return i, ok
		}
	}
	return w.B, s.traffic.AppendState(nil, indexOf(s.agents.entities), indexOf(l.entities))
}

// encodeObstacles returns the obstacles section of s.
func encodeObstacles(s *Snapshot) []byte {
	o := &s.obstacles
	var w binstate.Writer
	w.Count(len(o.entities))
	for _, e := range o.entities {
		w.U32(e.ID())
		w.U32(e.Generation())
	}
	for i := range o.entities {
		w.Record(o.shapes[i].AppendState(nil))
	}
	for i := range o.entities {
		w.Record(o.poses[i].AppendState(nil))
	}
	for i := range o.entities {
		w.Record(o.states[i].AppendState(nil))
	}
	return w.B
}

// Load reads a save file written by Save from r and puts its state into
// world, as Restore does: the crowd goes on from there to the bit as the
// one it was saved from. The crowd must have the same agent types (names,
// navmesh and tile cache parameters) and sizes as the saved one: make it
// from the same level, fresh or running. Everything is read and checked
// before anything changes: a truncated, corrupted or foreign file, or one
// that does not fit the crowd, is an error (wrapping ErrNotSaveFile,
// ErrBadSaveFile or ErrSnapshotMismatch) and leaves the world as it was.
// Dynamic geometry is not saved: see ErrDynamicGeometryNotSaved.
//
// The returned EntityMap gives, for each saved agent, obstacle and link
// entity (as it was in the saved world), its entity in world.
func (p *Plugin) Load(world *ecs.World, r io.Reader) (*EntityMap, error) {
	const what = "load"
	if err := p.checkWorld(world, what, true); err != nil {
		return nil, err
	}
	if err := p.checkSavable(world, what); err != nil {
		return nil, err
	}
	file, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("plugin: load: %w", err)
	}
	s := &Snapshot{}
	if err := p.decodeSnapshot(file, s); err != nil {
		return nil, err
	}
	if err := p.checkFits(s, what); err != nil {
		return nil, err
	}
	p.restore(world, s)
	return &s.remap, nil
}

// readAll reads r to its end, in one allocation when r tells its length
// (bytes.Reader, bytes.Buffer, strings.Reader).
func readAll(r io.Reader) ([]byte, error) {
	sized, ok := r.(interface{ Len() int })
	if !ok {
		return io.ReadAll(r)
	}
	file := make([]byte, 0, sized.Len()+1) // +1: the read that sees the end
	for {
		n, err := r.Read(file[len(file):cap(file)])
		file = file[:len(file)+n]
		if err == io.EOF {
			return file, nil
		}
		if err != nil {
			return file, err
		}
		if len(file) == cap(file) {
			file = append(file, 0)[:len(file)]
		}
	}
}

// decodeSnapshot reads the save file file into s, checking everything
// that can be checked without the world.
func (p *Plugin) decodeSnapshot(file []byte, s *Snapshot) error {
	body, entries, problem := saveFormat.Decode(file)
	if problem != nil {
		return problem.Wrap("plugin: load", ownfile.Sentinels{
			Malformed: ErrBadSaveFile, UnknownFormat: ErrNotSaveFile, UnsupportedVersion: ErrBadSaveFile,
		})
	}
	sections := map[string][]byte{}
	for _, e := range entries {
		sections[e.Name] = body[e.Start:e.End]
	}
	bad := func(where string, err error) error {
		return fmt.Errorf("plugin: load: %s: %w: %w", where, err, ErrBadSaveFile)
	}
	need := func(name string) ([]byte, error) {
		data, ok := sections[name]
		if !ok {
			return nil, bad(name, errors.New("missing"))
		}
		return data, nil
	}

	header, err := need("header")
	if err != nil {
		return err
	}
	r := binstate.NewReader(header, "header")
	version := r.U32()
	if r.Err() == nil && (version < 1 || version > saveVersion) {
		r.Fail("format version %d, this reader reads 1..%d", version, saveVersion)
	}
	typeCount := r.Count(components.MaxAgentTypes, 4)
	names := make([]string, typeCount)
	for t := range names {
		names[t] = r.String(256)
	}
	maxPath := r.Size()
	agentCount := r.Count(1<<24, 0)
	obstacleCount := r.Count(1<<24, 0)
	if err := r.End(); err != nil {
		return bad("header", err)
	}
	if typeCount != len(p.types) {
		return fmt.Errorf("plugin: load: %d agent types %q, the crowd has %q: %w", typeCount, names, p.AgentTypeNames(), ErrSnapshotMismatch)
	}
	for t := range names {
		if names[t] != p.types[t].name {
			return fmt.Errorf("plugin: load: agent types %q, the crowd has %q: %w", names, p.AgentTypeNames(), ErrSnapshotMismatch)
		}
	}
	if maxPath > p.config.MaxPath {
		return fmt.Errorf("plugin: load: saved with MaxPath %d, the crowd has %d: %w", maxPath, p.config.MaxPath, ErrSnapshotMismatch)
	}

	*s = Snapshot{plugin: p, taken: true, decoded: true, types: make([]typeState, typeCount)}
	data, err := need("resources")
	if err != nil {
		return err
	}
	r = binstate.NewReader(data, "resources")
	s.settings, s.timeStep, s.presets = *p.settings.Get(), *p.timeStep.Get(), *p.presets.Get()
	for _, read := range []func([]byte) error{s.settings.ReadState, s.timeStep.ReadState, s.presets.ReadState, s.stats.ReadState} {
		record := r.Record()
		if r.Err() == nil {
			if err := read(record); err != nil {
				return bad("resources", err)
			}
		}
	}
	s.requestsSinceTick = r.Int(0, 1<<30)
	if err := r.End(); err != nil {
		return bad("resources", err)
	}

	for t := range s.types {
		ts, pt := &s.types[t], &p.types[t]
		prefix := "type/" + strconv.Itoa(t) + "/"
		if data, err = need(prefix + "mesh"); err != nil {
			return err
		}
		if err := ts.mesh.UnmarshalBinary(data); err != nil {
			return bad(prefix+"mesh", err)
		}
		if ts.mesh.Params() != pt.mesh.Params() {
			return fmt.Errorf("plugin: load: agent type %s: a navmesh of %+v, the crowd's is %+v: %w", pt.name, ts.mesh.Params(), pt.mesh.Params(), ErrSnapshotMismatch)
		}
		cache := p.config.AgentTypes[t].TileCache
		if data, ok := sections[prefix+"cache"]; ok {
			if cache == nil {
				return fmt.Errorf("plugin: load: agent type %s: saved with a tile cache, the crowd has none: %w", pt.name, ErrSnapshotMismatch)
			}
			if err := cache.CheckState(&ts.cache, data); err != nil {
				return fmt.Errorf("plugin: load: %s: %w", prefix+"cache", err)
			}
			ts.hasCache = true
		}
		if data, err = need(prefix + "filters"); err != nil {
			return err
		}
		ts.filters = *pt.filters
		if err := ts.filters.ReadState(data); err != nil {
			return bad(prefix+"filters", err)
		}
		if data, err = need(prefix + "queue"); err != nil {
			return err
		}
		filters := pt.filters
		if err := ts.queue.ReadState(data, func(i int) *query.Filter {
			if i < 0 || i >= len(filters.List) {
				return nil
			}
			return &filters.List[i]
		}); err != nil {
			return bad(prefix+"queue", err)
		}
	}

	if data, err = need("agents"); err != nil {
		return err
	}
	if err := p.decodeAgents(data, s, agentCount); err != nil {
		return bad("agents", err)
	}
	if data, err = need("obstacles"); err != nil {
		return err
	}
	if err := decodeObstacles(data, s, obstacleCount); err != nil {
		return bad("obstacles", err)
	}
	if err := decodeLinks(sections["links"], sections["linktraffic"], s); err != nil {
		return bad("links", err)
	}
	if data, ok := sections["stage/ObstacleSync"]; ok {
		if err := s.obstacleSync.UnmarshalBinary(data); err != nil {
			return bad("stage/ObstacleSync", err)
		}
		s.hasObstacleSync = true
	}
	if data, ok := sections["stage/PathRequest"]; ok {
		if err := s.pathRequest.UnmarshalBinary(data); err != nil {
			return bad("stage/PathRequest", err)
		}
		s.hasPathRequest = true
	}
	if data, ok := sections["stage/LinkSync"]; ok {
		if err := s.linkSync.UnmarshalBinary(data); err != nil {
			return bad("stage/LinkSync", err)
		}
		s.hasLinkSync = true
	}
	return nil
}

// entityOf returns the entity with id and generation, as it was in a
// saved world.
func entityOf(id, generation uint32) ecs.Entity {
	var e ecs.Entity
	_ = e.UnmarshalJSON([]byte(fmt.Sprintf("[%d,%d]", id, generation)))
	return e
}

// readEntities reads n saved entities, which must be distinct and not
// the zero entity.
func readEntities(r *binstate.Reader, n int) []ecs.Entity {
	out := make([]ecs.Entity, 0, min(n, r.Left()/8))
	seen := make(map[ecs.Entity]bool, cap(out))
	for range n {
		e := entityOf(r.U32(), r.U32())
		if r.Err() != nil {
			break
		}
		if e.IsZero() || seen[e] {
			r.Fail("entity %v zero or repeated", e)
			break
		}
		seen[e] = true
		out = append(out, e)
	}
	return out
}

// decodeAgents reads the agents section into s.
func (p *Plugin) decodeAgents(data []byte, s *Snapshot, count int) error {
	r := binstate.NewReader(data, "agents")
	n := r.Count(count, 8+10)
	if r.Err() == nil && n != count {
		r.Fail("%d agents, the header says %d", n, count)
	}
	a := &s.agents
	a.entities = readEntities(r, n)
	if r.Err() != nil {
		return r.Err()
	}
	index := entityAt(a.entities)
	column := func(read func(i int, record []byte) error) {
		for i := range n {
			record := r.Record()
			if r.Err() != nil {
				return
			}
			if err := read(i, record); err != nil {
				r.Fail("agent %d: %v", i, err)
				return
			}
		}
	}
	a.params = make([]components.AgentParams, n)
	a.positions = make([]components.Position, n)
	a.velocities = make([]components.Velocity, n)
	a.states = make([]components.AgentState, n)
	a.corridors = make([]crowd.CorridorState, n)
	a.targets = make([]components.MoveTarget, n)
	a.boundaries = make([]components.Boundary, n)
	a.neighbours = make([]components.Neighbours, n)
	a.corners = make([]components.Corners, n)
	a.animations = make([]components.OffMeshAnimation, n)
	column(func(i int, b []byte) error {
		if err := a.params[i].ReadState(b); err != nil {
			return err
		}
		return p.checkParams(&a.params[i], "load")
	})
	column(func(i int, b []byte) error { return a.positions[i].ReadState(b) })
	column(func(i int, b []byte) error { return a.velocities[i].ReadState(b) })
	column(func(i int, b []byte) error { return a.states[i].ReadState(b) })
	column(func(i int, b []byte) error {
		t := &s.types[p.typeOf(&a.params[i]).index]
		var err error
		a.paths, err = a.corridors[i].ReadState(b, p.types[p.typeOf(&a.params[i]).index].mesh, t.mesh.Version(), p.config.MaxPath, a.paths)
		return err
	})
	column(func(i int, b []byte) error { return a.targets[i].ReadState(b) })
	column(func(i int, b []byte) error { return a.boundaries[i].ReadState(b) })
	column(func(i int, b []byte) error { return a.neighbours[i].ReadState(b, index) })
	column(func(i int, b []byte) error { return a.corners[i].ReadState(b) })
	column(func(i int, b []byte) error { return a.animations[i].ReadState(b) })
	a.overrides = make([]uint8, n)
	if r.Err() == nil && r.Left() > 0 {
		overrides := r.Record()
		if r.Err() == nil && len(overrides) != n {
			r.Fail("%d link traversal overrides for %d agents", len(overrides), n)
		}
		for i, o := range overrides {
			if r.Err() == nil && o > 1+uint8(components.LinkManual) {
				r.Fail("agent %d: link traversal override %d", i, o)
			}
		}
		copy(a.overrides, overrides)
	}
	return r.End()
}

// decodeLinks reads the links and linktraffic sections into s (either
// may be nil: an older file, or a world without links).
func decodeLinks(links, traffic []byte, s *Snapshot) error {
	l := &s.links
	if links != nil {
		r := binstate.NewReader(links, "links")
		n := r.Count(1<<24, 8+2)
		l.entities = readEntities(r, n)
		l.links = make([]components.Link, len(l.entities))
		l.states = make([]components.LinkState, len(l.entities))
		for _, read := range []func(i int, b []byte) error{
			func(i int, b []byte) error { return l.links[i].ReadState(b) },
			func(i int, b []byte) error { return l.states[i].ReadState(b) },
		} {
			for i := range l.entities {
				record := r.Record()
				if r.Err() != nil {
					break
				}
				if err := read(i, record); err != nil {
					r.Fail("link %d: %v", i, err)
					break
				}
			}
		}
		if err := r.End(); err != nil {
			return fmt.Errorf("links: %w", err)
		}
	}
	if traffic != nil {
		if err := s.traffic.ReadState(traffic, entityAt(s.agents.entities), entityAt(l.entities)); err != nil {
			return fmt.Errorf("linktraffic: %w", err)
		}
	}
	return nil
}

// decodeObstacles reads the obstacles section into s.
func decodeObstacles(data []byte, s *Snapshot, count int) error {
	r := binstate.NewReader(data, "obstacles")
	n := r.Count(count, 8+3)
	if r.Err() == nil && n != count {
		r.Fail("%d obstacles, the header says %d", n, count)
	}
	o := &s.obstacles
	o.entities = readEntities(r, n)
	o.shapes = make([]components.Obstacle, len(o.entities))
	o.poses = make([]components.ObstaclePose, len(o.entities))
	o.states = make([]components.ObstacleState, len(o.entities))
	for _, read := range []func(i int, b []byte) error{
		func(i int, b []byte) error { return o.shapes[i].ReadState(b) },
		func(i int, b []byte) error { return o.poses[i].ReadState(b) },
		func(i int, b []byte) error { return o.states[i].ReadState(b) },
	} {
		for i := range o.entities {
			record := r.Record()
			if r.Err() != nil {
				break
			}
			if err := read(i, record); err != nil {
				r.Fail("obstacle %d: %v", i, err)
				break
			}
		}
	}
	return r.End()
}

// SaveInfo describes a save file without loading it.
type SaveInfo struct {
	// Version is the file's format version.
	Version int
	// Tick is the tick count when it was saved (components.TimeStep.Tick):
	// the ticks run before the state it holds.
	Tick uint64
	// AgentTypes are the names of the crowd's agent types.
	AgentTypes []string
	// Agents and Obstacles count the entities it holds.
	Agents, Obstacles int
}

// ReadSaveInfo reads what file, a save file written by Save, holds
// without loading it: to know which level and tick it continues. The file
// is checked whole (checksum and framing); its sections are not decoded.
func ReadSaveInfo(file []byte) (SaveInfo, error) {
	body, entries, problem := saveFormat.Decode(file)
	if problem != nil {
		return SaveInfo{}, problem.Wrap("plugin: save info", ownfile.Sentinels{
			Malformed: ErrBadSaveFile, UnknownFormat: ErrNotSaveFile, UnsupportedVersion: ErrBadSaveFile,
		})
	}
	var info SaveInfo
	var header, resources []byte
	for _, e := range entries {
		switch e.Name {
		case "header":
			header = body[e.Start:e.End]
		case "resources":
			resources = body[e.Start:e.End]
		}
	}
	r := binstate.NewReader(header, "header")
	info.Version = r.Size()
	n := r.Count(components.MaxAgentTypes, 4)
	for range n {
		info.AgentTypes = append(info.AgentTypes, r.String(256))
	}
	r.U32()
	info.Agents = r.Count(1<<24, 0)
	info.Obstacles = r.Count(1<<24, 0)
	if err := r.End(); err != nil {
		return SaveInfo{}, fmt.Errorf("plugin: save info: %w: %w", err, ErrBadSaveFile)
	}
	r = binstate.NewReader(resources, "resources")
	r.Record() // settings
	var step components.TimeStep
	if err := step.ReadState(r.Record()); err != nil || r.Err() != nil {
		return SaveInfo{}, fmt.Errorf("plugin: save info: time step: %w", ErrBadSaveFile)
	}
	info.Tick = step.Tick
	return info, nil
}

// entityAt returns the entity a saved index names in list, ok false past
// its end. The index is compared unsigned: as an int it is negative on
// 32-bit CPUs from 2^31 on and passed a signed check there.
func entityAt(list []ecs.Entity) components.EntityAt {
	return func(i uint32) (ecs.Entity, bool) {
		if uint64(i) >= uint64(len(list)) {
			return ecs.Entity{}, false
		}
		return list[i], true
	}
}
