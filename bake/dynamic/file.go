package dynamic

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/internal/ownfile"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// The dynamic mesh file: archenav's own envelope (internal/ownfile,
// version 2, a CRC-32 at the end) with magic "ANDYNMSH" and five named
// sections, little-endian:
//
//	settings   the bake settings (automatic links off), the headroom,
//	           MaxColliders
//	level      the tile grid's bounds, the level's area volumes and
//	           off-mesh connections
//	tiles      per tile with voxels: x, y and its encoded level field
//	           (bake.HeightfieldCodec, or none); then the tiles waiting for
//	           a rebuild, in order
//	colliders  the next sequence number; per collider its slot, salt,
//	           sequence, shape (mesh included) and pose
//	navmesh    the navmesh as navmesh.Save writes it (refs and salts kept)
var fileFormat = ownfile.Format{
	Magic: "ANDYNMSH", Noun: "section", Nouns: "sections",
	MinSection: 0, MaxEntries: 5, MaxNameLength: 16,
	ValidateName: func(name string) error {
		if !slices.Contains(sectionNames, name) {
			return fmt.Errorf("unknown section %q", name)
		}
		return nil
	},
}

var sectionNames = []string{"settings", "level", "tiles", "colliders", "navmesh"}

// ErrCorruptFile is wrapped by Load's errors for input that is not a
// dynamic mesh file or does not hold together.
var ErrCorruptFile = errors.New("dynamic: corrupt dynamic mesh file")

// Save writes the mesh as a dynamic mesh file: the settings, the level's
// voxels, the colliders and the navmesh, so that Load gives back a mesh
// that rebuilds tiles as this one does, with the same collider refs and
// navmesh refs. Tiles still waiting for a rebuild are saved as waiting.
// AreaFlags are not saved: give them to Load again.
func (m *Mesh) Save(w io.Writer) error {
	m.mu.Lock()
	file, err := m.encode()
	m.mu.Unlock()
	if err != nil {
		return fmt.Errorf("dynamic: save: %w", err)
	}
	if _, err := w.Write(file); err != nil {
		return fmt.Errorf("dynamic: save: %w", err)
	}
	return nil
}

// encode returns the mesh's file.
func (m *Mesh) encode() ([]byte, error) {
	var nav bytes.Buffer
	if err := navmesh.Save(&nav, m.nav); err != nil {
		return nil, err
	}
	out := fileFormat.AppendPrefix(nil, ownfile.SetVersion)
	out, err := ownfile.AppendEntries(out, sectionNames, func(out []byte, i int) ([]byte, error) {
		w := writer{out}
		switch sectionNames[i] {
		case "settings":
			m.writeSettings(&w)
		case "level":
			m.writeLevel(&w)
		case "tiles":
			m.writeTiles(&w)
		case "colliders":
			m.writeColliders(&w)
		case "navmesh":
			w.out = append(w.out, nav.Bytes()...)
		}
		return w.out, nil
	})
	if err != nil {
		return nil, err
	}
	return ownfile.AppendChecksum(out), nil
}

func (m *Mesh) writeSettings(w *writer) {
	s := &m.settings
	for _, f := range []float32{s.CellSize, s.CellHeight, s.AgentHeight, s.AgentRadius, s.AgentMaxClimb, s.AgentMaxSlope,
		s.RegionMinSize, s.RegionMergeSize, s.EdgeMaxLen, s.EdgeMaxError, s.DetailSampleDist, s.DetailSampleMaxError, m.headroom} {
		w.f32(f)
	}
	w.u32(uint32(s.VertsPerPoly))
	w.u32(uint32(s.Partition))
	w.bool(s.Filters.LowHangingObstacles)
	w.bool(s.Filters.LedgeSpans)
	w.bool(s.Filters.WalkableLowHeightSpans)
	w.u32(uint32(s.TileSize))
	w.u64(uint64(s.MaxMemory))
	w.u32(uint32(s.MaxTiles))
	w.u32(uint32(m.maxColliders))
}

func (m *Mesh) writeLevel(w *writer) {
	bmin, bmax := m.baker.Bounds()
	w.vec(bmin)
	w.vec(bmax)
	g := m.level
	w.u32(uint32(len(g.ConvexVolumes)))
	for _, v := range g.ConvexVolumes {
		w.u32(uint32(len(v.Vertices)))
		for _, p := range v.Vertices {
			w.vec(p)
		}
		w.f32(v.MinY)
		w.f32(v.MaxY)
		w.u8(v.Area)
	}
	w.u32(uint32(len(g.BoxVolumes)))
	for _, v := range g.BoxVolumes {
		w.vec(v.Min)
		w.vec(v.Max)
		w.u8(v.Area)
	}
	w.u32(uint32(len(g.CylinderVolumes)))
	for _, v := range g.CylinderVolumes {
		w.vec(v.Base)
		w.f32(v.Radius)
		w.f32(v.Height)
		w.u8(v.Area)
	}
	w.u32(uint32(len(g.OffMeshConnections)))
	for _, c := range g.OffMeshConnections {
		w.vec(c.Start)
		w.vec(c.End)
		w.f32(c.Radius)
		w.bool(c.Bidirectional)
		w.u8(c.Area)
		w.u32(uint32(c.Flags))
		w.u32(c.UserID)
	}
}

func (m *Mesh) writeTiles(w *writer) {
	indices := make([]int32, 0, len(m.tiles))
	for index := range m.tiles {
		indices = append(indices, index)
	}
	slices.Sort(indices)
	w.u32(uint32(len(indices)))
	for _, index := range indices {
		t := m.tiles[index]
		w.u32(uint32(t.x))
		w.u32(uint32(t.y))
		w.bytes(t.base)
	}
	w.u32(uint32(len(m.pending)))
	for _, index := range m.pending {
		w.u32(uint32(index))
	}
}

func (m *Mesh) writeColliders(w *writer) {
	w.u64(m.nextSequence)
	w.u32(uint32(len(m.colliders)))
	for slot := range m.colliders {
		s := &m.colliders[slot]
		w.u32(s.salt)
		w.bool(s.used)
		if !s.used {
			continue
		}
		shape := s.placed.Shape()
		w.u64(s.sequence)
		w.u8(uint8(shape.Kind))
		w.bool(shape.Carve)
		w.u8(shape.Area)
		w.vec(shape.HalfExtents)
		w.f32(shape.Radius)
		w.f32(shape.HalfHeight)
		w.vec(s.pose.Position)
		q := s.pose.Rotation
		w.f32(q.W)
		w.vec(q.V)
		if shape.Mesh == nil {
			w.u32(0)
			w.u32(0)
			continue
		}
		w.u32(uint32(len(shape.Mesh.Vertices)))
		for _, v := range shape.Mesh.Vertices {
			w.vec(v)
		}
		w.u32(uint32(len(shape.Mesh.Triangles)))
		for _, t := range shape.Mesh.Triangles {
			w.u32(uint32(t[0]))
			w.u32(uint32(t[1]))
			w.u32(uint32(t[2]))
		}
	}
}

// Load reads a dynamic mesh file Save wrote and returns the mesh, its
// colliders under their saved refs, its navmesh with its saved refs, and
// its waiting tiles still waiting. opts gives the workers and the area
// flags (as New's; its Headroom, MaxColliders and MaxPolys are the
// file's). Every count and size is checked against the bytes present,
// every level field is decoded and checked against its tile's grid, every
// collider placed, before anything is built; an error wraps ErrCorruptFile
// (or the error of what was refused: bake's settings, a collider's
// shape) and returns no mesh.
func Load(r io.Reader, opts Options) (*Mesh, error) {
	file, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("dynamic: load: %w", err)
	}
	m, err := decode(file, opts)
	if err != nil {
		return nil, fmt.Errorf("dynamic: load: %w", err)
	}
	return m, nil
}

// decode builds a mesh from a file.
func decode(file []byte, opts Options) (*Mesh, error) {
	body, entries, problem := fileFormat.Decode(file)
	if problem != nil {
		return nil, problem.Wrap("file", ownfile.Sentinels{Malformed: ErrCorruptFile, UnknownFormat: ErrCorruptFile, UnsupportedVersion: ErrCorruptFile})
	}
	sections := map[string][]byte{}
	for _, e := range entries {
		sections[e.Name] = body[e.Start:e.End]
	}
	for _, name := range sectionNames {
		if _, ok := sections[name]; !ok {
			return nil, fmt.Errorf("%w: no %s section", ErrCorruptFile, name)
		}
	}
	settings, headroom, maxColliders, err := readSettings(&reader{data: sections["settings"], section: "settings"})
	if err != nil {
		return nil, err
	}
	bounds, level, err := readLevel(&reader{data: sections["level"], section: "level"})
	if err != nil {
		return nil, err
	}
	opts.Headroom, opts.MaxColliders, opts.MaxPolys = 0, int(maxColliders), 0
	m, err := newMesh(nil, &bounds, level, settings, opts)
	if err != nil {
		return nil, err
	}
	m.headroom = headroom
	if err := m.readTiles(&reader{data: sections["tiles"], section: "tiles"}); err != nil {
		return nil, err
	}
	if err := m.readColliders(&reader{data: sections["colliders"], section: "colliders"}); err != nil {
		return nil, err
	}
	nav, err := navmesh.Load(bytes.NewReader(sections["navmesh"]))
	if err != nil {
		return nil, fmt.Errorf("%w: navmesh: %w", ErrCorruptFile, err)
	}
	p := nav.Params()
	if p.Origin[0] != m.origin[0] || p.Origin[2] != m.origin[2] || p.TileWidth != m.tileWorldSize || p.TileHeight != m.tileWorldSize ||
		p.MaxTiles < m.tilesX*m.tilesY {
		return nil, fmt.Errorf("%w: navmesh grid %v %v×%v (%d tiles) does not match the tiles' %v %v (%d×%d)",
			ErrCorruptFile, p.Origin, p.TileWidth, p.TileHeight, p.MaxTiles, m.origin, m.tileWorldSize, m.tilesX, m.tilesY)
	}
	m.nav = nav
	return m, nil
}

func readSettings(r *reader) (bake.Settings, float32, uint32, error) {
	s := bake.DefaultSettings()
	for _, f := range []*float32{&s.CellSize, &s.CellHeight, &s.AgentHeight, &s.AgentRadius, &s.AgentMaxClimb, &s.AgentMaxSlope,
		&s.RegionMinSize, &s.RegionMergeSize, &s.EdgeMaxLen, &s.EdgeMaxError, &s.DetailSampleDist, &s.DetailSampleMaxError} {
		*f = r.f32()
	}
	headroom := r.f32()
	s.VertsPerPoly = int(r.u32())
	s.Partition = bake.PartitionType(r.u32())
	s.Filters.LowHangingObstacles = r.bool()
	s.Filters.LedgeSpans = r.bool()
	s.Filters.WalkableLowHeightSpans = r.bool()
	s.TileSize = int(r.u32())
	s.MaxMemory = int64(r.u64())
	s.MaxTiles = int(r.u32())
	maxColliders := r.u32()
	if err := r.finish(); err != nil {
		return s, 0, 0, err
	}
	if !(headroom >= 0 && headroom <= collider.MaxExtent) || maxColliders == 0 || maxColliders > MaxColliders || s.MaxMemory < 0 ||
		s.TileSize <= 0 || s.MaxTiles < 0 {
		return s, 0, 0, fmt.Errorf("%w: settings: headroom %v, %d colliders, tile size %d, memory %d, tiles %d out of range",
			ErrCorruptFile, headroom, maxColliders, s.TileSize, s.MaxMemory, s.MaxTiles)
	}
	if err := s.Validate(); err != nil {
		return s, 0, 0, fmt.Errorf("%w: %w", ErrCorruptFile, err)
	}
	return s, headroom, maxColliders, nil
}

func readLevel(r *reader) ([2]geom.Vec3, *bake.Geometry, error) {
	bounds := [2]geom.Vec3{r.vec(), r.vec()}
	g := &bake.Geometry{}
	for range r.count(4*3 + 8 + 1) {
		v := bake.ConvexVolume{}
		for range r.count(12) {
			v.Vertices = append(v.Vertices, r.vec())
		}
		v.MinY, v.MaxY, v.Area = r.f32(), r.f32(), r.u8()
		g.ConvexVolumes = append(g.ConvexVolumes, v)
	}
	for range r.count(25) {
		g.BoxVolumes = append(g.BoxVolumes, bake.BoxVolume{Min: r.vec(), Max: r.vec(), Area: r.u8()})
	}
	for range r.count(21) {
		g.CylinderVolumes = append(g.CylinderVolumes, bake.CylinderVolume{Base: r.vec(), Radius: r.f32(), Height: r.f32(), Area: r.u8()})
	}
	for range r.count(38) {
		c := bake.OffMeshConnection{Start: r.vec(), End: r.vec(), Radius: r.f32(), Bidirectional: r.bool(), Area: r.u8()}
		flags := r.u32()
		c.Flags, c.UserID = uint16(flags), r.u32()
		if flags > math.MaxUint16 {
			r.fail("connection flags %#x", flags)
		}
		g.OffMeshConnections = append(g.OffMeshConnections, c)
	}
	if err := r.finish(); err != nil {
		return bounds, nil, err
	}
	for _, v := range g.ConvexVolumes {
		if err := v.Validate(); err != nil {
			return bounds, nil, fmt.Errorf("%w: level: convex volume: %w", ErrCorruptFile, err)
		}
	}
	for _, v := range g.BoxVolumes {
		if err := v.Validate(); err != nil {
			return bounds, nil, fmt.Errorf("%w: level: box volume: %w", ErrCorruptFile, err)
		}
	}
	for _, v := range g.CylinderVolumes {
		if err := v.Validate(); err != nil {
			return bounds, nil, fmt.Errorf("%w: level: cylinder volume: %w", ErrCorruptFile, err)
		}
	}
	for _, c := range g.OffMeshConnections {
		if err := c.Validate(); err != nil {
			return bounds, nil, fmt.Errorf("%w: level: off-mesh connection: %w", ErrCorruptFile, err)
		}
	}
	return bounds, g, nil
}

// readTiles reads the tiles section into m, decoding every field to check
// it.
func (m *Mesh) readTiles(r *reader) error {
	var codec bake.HeightfieldCodec
	var field bake.Heightfield
	count := r.count(12)
	if count > m.tilesX*m.tilesY {
		return fmt.Errorf("%w: tiles: %d tiles in a %d×%d grid", ErrCorruptFile, count, m.tilesX, m.tilesY)
	}
	for range count {
		ux, uy, base := r.u32(), r.u32(), r.bytes()
		if r.err != nil {
			break
		}
		// Compared unsigned: on 32-bit CPUs int(0xffffffff) is -1, which
		// a signed check would let through.
		if uint64(ux) >= uint64(m.tilesX) || uint64(uy) >= uint64(m.tilesY) {
			return fmt.Errorf("%w: tiles: tile (%d, %d) outside the %d×%d grid", ErrCorruptFile, ux, uy, m.tilesX, m.tilesY)
		}
		x, y := int(ux), int(uy)
		index := int32(x + y*m.tilesX)
		if _, ok := m.tiles[index]; ok {
			return fmt.Errorf("%w: tiles: tile (%d, %d) twice", ErrCorruptFile, x, y)
		}
		t := &tile{x: int32(x), y: int32(y)}
		if len(base) > 0 {
			cfg, err := m.baker.TileConfig(x, y)
			if err != nil {
				return err
			}
			if err := codec.Decode(base, &field); err != nil {
				return fmt.Errorf("%w: tiles: tile (%d, %d): %w", ErrCorruptFile, x, y, err)
			}
			if field.Width != cfg.Width || field.Height != cfg.Height || field.BMin != cfg.BMin || field.BMax != cfg.BMax ||
				field.CellSize != cfg.CellSize || field.CellHeight != cfg.CellHeight {
				return fmt.Errorf("%w: tiles: tile (%d, %d): the field's grid is not the tile's", ErrCorruptFile, x, y)
			}
			t.base = slices.Clone(base)
		}
		m.tiles[index] = t
	}
	for range r.count(4) {
		index := int32(r.u32())
		if r.err != nil {
			break
		}
		t := m.tiles[index]
		if t == nil || t.queued {
			return fmt.Errorf("%w: tiles: waiting tile %d unknown or listed twice", ErrCorruptFile, index)
		}
		m.queue(index, t)
	}
	return r.finish()
}

// readColliders reads the colliders section into m, placing each. Every
// slot, used or free, takes at least five bytes of the file, so the slot
// table is bounded by the file's size.
func (m *Mesh) readColliders(r *reader) error {
	m.nextSequence = r.u64()
	slots := r.count(5)
	if slots > MaxColliders {
		return fmt.Errorf("%w: colliders: %d slots, more than %d", ErrCorruptFile, slots, MaxColliders)
	}
	lastSequence, used := uint64(0), 0
	for slot := range slots {
		salt, inUse := r.u32(), r.bool()
		if r.err != nil {
			break
		}
		if salt == 0 {
			return fmt.Errorf("%w: colliders: slot %d has salt 0", ErrCorruptFile, slot)
		}
		m.colliders = append(m.colliders, colliderSlot{salt: salt})
		if !inUse {
			m.free = append(m.free, uint32(slot))
			continue
		}
		sequence := r.u64()
		shape := collider.Shape{Kind: collider.Kind(r.u8()), Carve: r.bool(), Area: r.u8(), HalfExtents: r.vec(), Radius: r.f32(), HalfHeight: r.f32()}
		pose := collider.Pose{Position: r.vec()}
		pose.Rotation.W, pose.Rotation.V = r.f32(), r.vec()
		var mesh collider.Mesh
		for range r.count(12) {
			mesh.Vertices = append(mesh.Vertices, r.vec())
		}
		for range r.count(12) {
			mesh.Triangles = append(mesh.Triangles, [3]int32{int32(r.u32()), int32(r.u32()), int32(r.u32())})
		}
		if r.err != nil {
			break
		}
		if len(mesh.Triangles) > 0 {
			shape.Mesh = &mesh
		}
		used++
		if used > m.maxColliders || (used > 1 && sequence <= lastSequence) || sequence >= m.nextSequence {
			return fmt.Errorf("%w: colliders: slot %d: collider %d, sequence %d out of order or range", ErrCorruptFile, slot, used, sequence)
		}
		lastSequence = sequence
		placed, err := collider.Place(shape, pose)
		if err != nil {
			return fmt.Errorf("%w: colliders: slot %d: %w", ErrCorruptFile, slot, err)
		}
		x0, y0, x1, y1, err := m.tilesUnder(&placed)
		if err != nil {
			return fmt.Errorf("%w: colliders: slot %d: %w", ErrCorruptFile, slot, err)
		}
		s := &m.colliders[slot]
		s.used, s.sequence = true, sequence
		m.colliderCount++
		// Placing queues the tiles; the file says which wait.
		queued := len(m.pending)
		m.place(uint32(slot), pose, placed, x0, y0, x1, y1)
		for _, index := range m.pending[queued:] {
			m.tiles[index].queued = false
		}
		m.pending = m.pending[:queued]
	}
	if err := r.finish(); err != nil {
		return err
	}
	// A free slot is taken last freed first: the file keeps no order, so
	// take the lowest first.
	slices.Reverse(m.free)
	// A tile with neither level nor colliders has no business in the file.
	for index, t := range m.tiles {
		if t.base == nil && len(t.colliders) == 0 && !t.queued {
			return fmt.Errorf("%w: tiles: tile %d has no voxels and no colliders", ErrCorruptFile, index)
		}
	}
	return nil
}

// writer appends little-endian values.
type writer struct{ out []byte }

func (w *writer) u8(v uint8)   { w.out = append(w.out, v) }
func (w *writer) u32(v uint32) { w.out = binary.LittleEndian.AppendUint32(w.out, v) }
func (w *writer) u64(v uint64) { w.out = binary.LittleEndian.AppendUint64(w.out, v) }
func (w *writer) f32(v float32) {
	w.u32(math.Float32bits(v))
}
func (w *writer) vec(v geom.Vec3) {
	for _, c := range v {
		w.f32(c)
	}
}
func (w *writer) bool(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}
func (w *writer) bytes(b []byte) {
	w.u32(uint32(len(b)))
	w.out = append(w.out, b...)
}

// reader reads little-endian values from one section, remembering the
// first error: every later read returns zero.
type reader struct {
	data    []byte
	at      int
	section string
	err     error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at byte %d: %s", ErrCorruptFile, r.section, r.at, fmt.Sprintf(format, args...))
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.data)-r.at < n {
		r.fail("truncated: %d bytes wanted, %d left", n, len(r.data)-r.at)
		return nil
	}
	b := r.data[r.at : r.at+n]
	r.at += n
	return b
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }

func (r *reader) vec() geom.Vec3 { return mgl32.Vec3{r.f32(), r.f32(), r.f32()} }

func (r *reader) bool() bool {
	v := r.u8()
	if v > 1 {
		r.fail("flag %d", v)
	}
	return v == 1
}

func (r *reader) bytes() []byte {
	n := r.u32()
	return r.take(int(min(n, math.MaxInt32)))
}

// count reads a count of items at least each bytes long and checks that
// they fit the bytes left.
func (r *reader) count(each int) int {
	n := r.u32()
	if r.err == nil && uint64(n)*uint64(each) > uint64(len(r.data)-r.at) {
		r.fail("%d items of at least %d bytes, %d bytes left", n, each, len(r.data)-r.at)
		return 0
	}
	return int(n)
}

// finish returns the first error, or one for bytes left over.
func (r *reader) finish() error {
	if r.err == nil && r.at != len(r.data) {
		r.fail("%d bytes left over", len(r.data)-r.at)
	}
	return r.err
}
