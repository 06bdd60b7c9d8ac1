package tilecache

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/internal/ownfile"
	"github.com/archenav/archenav/navcore/navmesh"
)

// The archenav tile cache file, little-endian throughout. Version 1 holds
// one cache:
//
//	magic        8 bytes  "ANAVTCCH"
//	version      uint32   1
//	reserved     uint32   0
//	cache        the cache section:
//	  mesh params  28 bytes as in TSET (dtNavMeshParams)
//	  cache params 52 bytes as in TSET (dtTileCacheParams)
//	  layer count  uint32
//	  per layer:   ref uint32, size uint32, the encoded layer
//	  obstacle count uint32
//	  per obstacle, in the order they were added: ref uint64, shape, area,
//	               point count, 0 (4 bytes), then 47 float32: position (3),
//	               radius, height, min (3), max (3), half extents (3), yaw,
//	               16 prism points (x, z)
//	checksum     uint32   CRC-32 (IEEE) of every byte before it
//
// Version 2 holds one named cache per agent type (SaveSet):
//
//	magic        8 bytes  "ANAVTCCH"
//	version      uint32   2
//	reserved     uint32   0
//	cache count  uint32   1..navmesh.MaxMeshSetSize
//	per cache, in the set's order:
//	  name size  uint32   1..navmesh.MaxMeshNameLength
//	  name       UTF-8 bytes, no control characters, unique in the file
//	  size       uint64   size of the cache section that follows
//	  cache      the cache section, as in version 1
//	checksum     uint32   CRC-32 (IEEE) of every byte before it
//
// SaveSet writes version 1 for a set of one unnamed cache, as Save does.
const (
	ownMagic      = "ANAVTCCH"
	ownVersion    = ownfile.SingleVersion
	ownSetVersion = ownfile.SetVersion

	ownPrefixSize       = ownfile.PrefixSize
	ownSectionHeader    = meshParamsSize + 52 + 4
	ownHeaderSize       = ownPrefixSize + ownSectionHeader
	ownLayerHeaderSize  = 8
	ownObstacleSize     = 8 + 4 + 47*4
	ownMinObstacleBlock = 4
)

// ownFormat is the envelope of the archenav tile cache file (package
// ownfile): its smallest section has no layers and no obstacles.
var ownFormat = ownfile.Format{
	Magic: ownMagic, Noun: "cache", Nouns: "caches",
	MinSection: ownSectionHeader + ownMinObstacleBlock, MaxEntries: navmesh.MaxMeshSetSize, MaxNameLength: navmesh.MaxMeshNameLength,
	ValidateName: navmesh.ValidateMeshName,
}

// ownFileError wraps what ownfile found wrong with a file into this
// package's errors.
func ownFileError(problem *ownfile.Error) error {
	return problem.Wrap("tilecache: archenav", ownfile.Sentinels{
		Malformed: ErrMalformedFile, UnknownFormat: ErrUnknownFormat, UnsupportedVersion: ErrUnsupportedVersion,
	})
}

// Format names a tile cache file format.
type Format int

// The formats Load reads.
const (
	// FormatUnknown is not a tile cache file.
	FormatUnknown Format = iota
	// FormatTSET is RecastDemo's tile cache file (magic "TSET").
	FormatTSET
	// FormatArchenav is this package's own file (magic "ANAVTCCH"), which
	// keeps layer and obstacle refs and the obstacles themselves.
	FormatArchenav
)

// String returns "TSET", "archenav" or "unknown".
func (f Format) String() string {
	switch f {
	case FormatTSET:
		return "TSET"
	case FormatArchenav:
		return "archenav"
	}
	return "unknown"
}

// DetectFormat tells the format of a file from its first 8 bytes.
func DetectFormat(head []byte) Format {
	switch {
	case len(head) >= len(ownMagic) && string(head[:len(ownMagic)]) == ownMagic:
		return FormatArchenav
	case len(head) >= 4 && binary.LittleEndian.Uint32(head) == tsetMagic:
		return FormatTSET
	}
	return FormatUnknown
}

// Save writes the cache as an archenav tile cache file: both parameter
// sets, every layer with its ref, and every obstacle with its ref, so that
// Load gives back a cache whose handles still work. It writes the obstacles
// as they were last changed, resolved or not. The navmesh tiles are not
// saved: Load queues every layer and Update rebuilds them.
func (c *Cache) Save(w io.Writer) error {
	if w == nil {
		return fmt.Errorf("tilecache: save: nil writer")
	}
	c.mu.Lock()
	file := c.encodeOwn()
	c.mu.Unlock()
	if _, err := w.Write(file); err != nil {
		return fmt.Errorf("tilecache: save: %w", err)
	}
	return nil
}

func (c *Cache) encodeOwn() []byte {
	out := ownFormat.AppendPrefix(make([]byte, 0, ownHeaderSize), ownVersion)
	return ownfile.AppendChecksum(c.appendSection(out))
}

// appendSection appends the cache section of c: the parameters, the layers
// and the obstacles. c.mu must be held.
func (c *Cache) appendSection(out []byte) []byte {
	le := binary.LittleEndian
	out = appendMeshParams(out, c.mesh.Params())
	out = appendCacheParams(out, c.params)
	out = le.AppendUint32(out, uint32(c.layerCount))
	for slot := range c.layers {
		l := &c.layers[slot]
		if !l.used {
			continue
		}
		out = le.AppendUint32(out, uint32(c.bits.encode(l.salt, uint32(slot))))
		out = le.AppendUint32(out, uint32(len(l.data)))
		out = append(out, l.data...)
	}
	order := make([]uint32, 0, c.obstacleCount)
	for slot := range c.obstacles {
		if c.obstacles[slot].state == obstacleActive {
			order = append(order, uint32(slot))
		}
	}
	slices.SortFunc(order, func(a, b uint32) int {
		return cmp.Compare(c.obstacles[a].sequence, c.obstacles[b].sequence)
	})
	out = le.AppendUint32(out, uint32(len(order)))
	for _, slot := range order {
		s := &c.obstacles[slot]
		o := &s.placed.Obstacle
		out = le.AppendUint64(out, uint64(obstacleRef(s.salt, slot)))
		out = append(out, byte(o.Shape), o.Area, byte(o.PointCount), 0)
		floats := [47]float32{
			o.Position[0], o.Position[1], o.Position[2], o.Radius, o.Height,
			o.Min[0], o.Min[1], o.Min[2], o.Max[0], o.Max[1], o.Max[2],
			o.HalfExtents[0], o.HalfExtents[1], o.HalfExtents[2], o.Yaw,
		}
		for i, p := range o.Points {
			floats[15+2*i], floats[16+2*i] = p[0], p[1]
		}
		for _, f := range floats {
			out = le.AppendUint32(out, math.Float32bits(f))
		}
	}
	return out
}

// savedObstacle is one obstacle of an archenav file.
type savedObstacle struct {
	ref      ObstacleRef
	obstacle Obstacle
}

// savedCache is one cache of an archenav file: its tile set and
// obstacles.
type savedCache struct {
	set       *TileSet
	obstacles []savedObstacle
}

// savedCaches is the content of an archenav file of either version: a
// version 1 file holds one cache named "".
type savedCaches struct {
	names  []string
	caches []savedCache
}

// decodeOwn decodes an archenav tile cache file that holds one cache (any
// version 1 file, or a version 2 file of one cache) into its tile set and
// obstacles. A file of several caches gives an error wrapping
// ErrSeveralCaches.
func decodeOwn(file []byte) (*TileSet, []savedObstacle, error) {
	saved, err := decodeOwnSet(file)
	if err != nil {
		return nil, nil, err
	}
	if len(saved.caches) != 1 {
		return nil, nil, fmt.Errorf("tilecache: archenav: the file holds %d caches (%s): load it with LoadSet: %w",
			len(saved.caches), quotedNames(saved.names), ErrSeveralCaches)
	}
	return saved.caches[0].set, saved.caches[0].obstacles, nil
}

// decodeOwnSet decodes an archenav tile cache file of either version.
// Every size and count is checked against the bytes present before it is
// used.
func decodeOwnSet(file []byte) (*savedCaches, error) {
	// The sections framed before a problem first: errors come in file
	// order.
	body, entries, problem := ownFormat.Decode(file)
	saved := &savedCaches{names: make([]string, 0, len(entries)), caches: make([]savedCache, 0, len(entries))}
	for _, entry := range entries {
		label := "" // a version 1 file's cache, the only unnamed one
		if entry.Name != "" {
			label = fmt.Sprintf("cache %q: ", entry.Name)
		}
		cache, err := decodeSection(body[:entry.End], entry.Start, label)
		if err != nil {
			return nil, err
		}
		saved.names = append(saved.names, entry.Name)
		saved.caches = append(saved.caches, cache)
	}
	if problem != nil {
		return nil, ownFileError(problem)
	}
	return saved, nil
}

// decodeSection decodes the cache section that starts at offset start and
// ends at the end of body; label starts the place of its errors
// ("cache \"ogre\": "). Offsets in errors are offsets in body.
func decodeSection(body []byte, start int, label string) (savedCache, error) {
	le := binary.LittleEndian
	if len(body)-start < ownSectionHeader+ownMinObstacleBlock {
		return savedCache{}, malformed("archenav", label+"header", "truncated: %d bytes for the cache, want at least %d", len(body)-start, ownSectionHeader+ownMinObstacleBlock)
	}
	set := &TileSet{MeshParams: decodeMeshParams(body[start:]), CacheParams: decodeCacheParams(body[start+meshParamsSize:])}
	if err := checkFileParams(set); err != nil {
		return savedCache{}, malformed("archenav", label+"header", "%v", err)
	}
	bits := newLayerRefBits(set.CacheParams.MaxTiles)
	offset := start + ownSectionHeader - 4
	layerCount := le.Uint32(body[offset:])
	offset += 4
	if maxCount := (len(body) - offset) / (ownLayerHeaderSize + EncodedLayerHeaderSize); uint64(layerCount) > uint64(set.CacheParams.MaxTiles) || uint64(layerCount) > uint64(maxCount) {
		return savedCache{}, malformed("archenav", label+"header", "%d layers: the cache holds %d and the file has room for %d", layerCount, set.CacheParams.MaxTiles, maxCount)
	}
	set.Layers = make([]StoredLayer, 0, layerCount)
	slots := map[uint32]bool{}
	for i := 0; i < int(layerCount); i++ {
		where := fmt.Sprintf("%slayer %d at offset %#x", label, i, offset)
		if len(body)-offset < ownLayerHeaderSize {
			return savedCache{}, malformed("archenav", where, "truncated layer header")
		}
		ref := LayerRef(le.Uint32(body[offset:]))
		size := uint64(le.Uint32(body[offset+4:]))
		offset += ownLayerHeaderSize
		salt, slot := bits.decode(ref)
		if salt == 0 || int64(slot) >= int64(set.CacheParams.MaxTiles) || slots[slot] {
			return savedCache{}, malformed("archenav", where, "layer ref %#x: salt %d, slot %d (want salt >= 1, a free slot below %d)", uint32(ref), salt, slot, set.CacheParams.MaxTiles)
		}
		slots[slot] = true
		if size < EncodedLayerHeaderSize || size > uint64(len(body)-offset) {
			return savedCache{}, malformed("archenav", where, "layer size %d, want %d..%d", size, EncodedLayerHeaderSize, len(body)-offset)
		}
		data := body[offset : offset+int(size)]
		if _, err := DecodeLayerHeader(data); err != nil {
			return savedCache{}, malformed("archenav", where, "%v", err)
		}
		set.Layers = append(set.Layers, StoredLayer{Ref: ref, Data: bytes.Clone(data)})
		offset += int(size)
	}

	if len(body)-offset < 4 {
		return savedCache{}, malformed("archenav", fmt.Sprintf("%sobstacles at offset %#x", label, offset), "truncated obstacle count")
	}
	obstacleCount := le.Uint32(body[offset:])
	offset += 4
	if maxCount := (len(body) - offset) / ownObstacleSize; uint64(obstacleCount) > uint64(set.CacheParams.MaxObstacles) || uint64(obstacleCount) > uint64(maxCount) {
		return savedCache{}, malformed("archenav", label+"obstacles", "%d obstacles: the cache holds %d and the file has room for %d", obstacleCount, set.CacheParams.MaxObstacles, maxCount)
	}
	obstacles := make([]savedObstacle, 0, obstacleCount)
	obstacleSlots := map[uint32]bool{}
	for i := 0; i < int(obstacleCount); i++ {
		where := fmt.Sprintf("%sobstacle %d at offset %#x", label, i, offset)
		b := body[offset : offset+ownObstacleSize]
		ref := ObstacleRef(le.Uint64(b))
		slot, salt := uint32(ref), uint32(ref>>32)
		if salt == 0 || int64(slot) >= int64(set.CacheParams.MaxObstacles) || obstacleSlots[slot] {
			return savedCache{}, malformed("archenav", where, "obstacle ref %#x: salt %d, slot %d (want salt >= 1, a free slot below %d)", uint64(ref), salt, slot, set.CacheParams.MaxObstacles)
		}
		obstacleSlots[slot] = true
		if b[11] != 0 {
			return savedCache{}, malformed("archenav", where, "padding byte is %#x, want 0", b[11])
		}
		var f [47]float32
		for j := range f {
			f[j] = math.Float32frombits(le.Uint32(b[12+4*j:]))
		}
		o := Obstacle{
			Shape: ObstacleShape(b[8]), Area: b[9], PointCount: int(b[10]),
			Position: mgl32.Vec3{f[0], f[1], f[2]}, Radius: f[3], Height: f[4],
			Min: mgl32.Vec3{f[5], f[6], f[7]}, Max: mgl32.Vec3{f[8], f[9], f[10]},
			HalfExtents: mgl32.Vec3{f[11], f[12], f[13]}, Yaw: f[14],
		}
		for j := range o.Points {
			o.Points[j] = mgl32.Vec2{f[15+2*j], f[16+2*j]}
		}
		if err := o.check(); err != nil {
			return savedCache{}, malformed("archenav", where, "%v", err)
		}
		obstacles = append(obstacles, savedObstacle{ref: ref, obstacle: o})
		offset += ownObstacleSize
	}
	if offset != len(body) {
		return savedCache{}, malformed("archenav", fmt.Sprintf("%soffset %#x", label, offset), "%d bytes after the last obstacle", len(body)-offset)
	}
	return savedCache{set: set, obstacles: obstacles}, nil
}

// Load reads a tile cache file in either format, told apart by its magic
// (DetectFormat): a RecastDemo TSET file (layers added in file order, as
// FromTileSet does) or an archenav file written by Save (layers and
// obstacles back in their slots with their refs). It returns a new navmesh
// for the file's mesh parameters, the cache with every layer's tile queued
// (run Update to build them), and the format. The whole file is checked
// before anything is built; on any error nothing is returned.
func Load(file []byte, options Options) (*Cache, *navmesh.Mesh, Format, error) {
	switch format := DetectFormat(file); format {
	case FormatTSET:
		set, err := ReadTSET(file)
		if err != nil {
			return nil, nil, format, err
		}
		cache, mesh, err := FromTileSet(set, options)
		return cache, mesh, format, err
	case FormatArchenav:
		set, obstacles, err := decodeOwn(file)
		if err != nil {
			return nil, nil, format, err
		}
		cache, mesh, err := restore(set, obstacles, options)
		return cache, mesh, format, err
	default:
		head := file[:min(len(file), 8)]
		return nil, nil, format, fmt.Errorf("tilecache: load: magic %q is neither TSET nor %q: %w", head, ownMagic, ErrUnknownFormat)
	}
}

// restore builds a cache with set's layers and the obstacles at their
// saved refs.
func restore(set *TileSet, obstacles []savedObstacle, options Options) (*Cache, *navmesh.Mesh, error) {
	mesh, err := navmesh.New(set.MeshParams)
	if err != nil {
		return nil, nil, fmt.Errorf("tilecache: load: %w", err)
	}
	c, err := New(set.CacheParams, mesh, options)
	if err != nil {
		return nil, nil, fmt.Errorf("tilecache: load: %w", err)
	}
	for i, layer := range set.Layers {
		if _, err := c.addLayerAt(layer.Ref, layer.Data); err != nil {
			return nil, nil, fmt.Errorf("tilecache: load: layer %d: %w", i, err)
		}
	}
	for i, o := range obstacles {
		if err := c.addObstacleAt(o.ref, o.obstacle); err != nil {
			return nil, nil, fmt.Errorf("tilecache: load: obstacle %d: %w", i, err)
		}
	}
	c.rebuildFreeLists()
	return c, mesh, nil
}
