package dynamic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Defaults of Options.
const (
	// DefaultHeadroom is how far above the level's highest vertex the
	// tiles' fields reach by default, for solid colliders over the level
	// [Units: world units]
	DefaultHeadroom = float32(50)
	// DefaultMaxColliders is the most colliders a mesh holds by default.
	DefaultMaxColliders = 1 << 16
	// MaxColliders is the most colliders Options.MaxColliders may allow.
	MaxColliders = 1 << 24
	// DefaultMaxColliderTiles is the most tiles one collider may touch by
	// default (Options.MaxColliderTiles).
	DefaultMaxColliderTiles = 4096
	// DefaultMinMaxPolys is the least polygons per tile a mesh makes room
	// for by default (Options.MaxPolys): four times the level's busiest
	// tile, rounded up to a power of two, and at least this.
	DefaultMinMaxPolys = 1024
)

// Errors of the Mesh, for errors.Is.
var (
	// ErrOutsideGrid: a collider's box misses every tile's field, or the
	// height range of the fields.
	ErrOutsideGrid = errors.New("dynamic: collider outside the mesh")
	// ErrTooManyColliders: the mesh holds Options.MaxColliders already.
	ErrTooManyColliders = errors.New("dynamic: too many colliders")
	// ErrColliderTooLarge: a collider's box reaches more tiles than
	// Options.MaxColliderTiles.
	ErrColliderTooLarge = errors.New("dynamic: collider reaches too many tiles")
	// ErrInvalidRef: a zero, stale or unknown collider.Ref.
	ErrInvalidRef = errors.New("dynamic: invalid collider ref")
	// ErrTileTooComplex: a rebuilt tile has more polygons than the
	// navmesh's MaxPolys; the tile keeps its old data.
	ErrTileTooComplex = errors.New("dynamic: tile has more polygons than the navmesh takes")
	// ErrLinksUnsupported: the settings ask for automatic drop and jump
	// links, which a dynamic mesh does not place.
	ErrLinksUnsupported = errors.New("dynamic: automatic links are not supported")
)

// Options tune a dynamic mesh.
type Options struct {
	// Workers is the number of goroutines that bake the level in New and
	// rebuild tiles in Update [Limit: >= 0; 0 = runtime.GOMAXPROCS(0)].
	// Results do not depend on it.
	Workers int
	// Headroom raises the top of the tiles' fields above the level's
	// highest vertex, so that solid colliders over the level fit; parts of
	// colliders above it are flattened onto it [Limit: finite; 0 =
	// DefaultHeadroom, < 0 = none, the fields of bake.Tiled]
	// [Units: world units]
	Headroom float32
	// AreaFlags maps each polygon's area to the area and flags stored in
	// its tile, as bake.TiledOptions.AreaFlags; nil means
	// bake.RecastDemoAreaFlags.
	AreaFlags func(area uint8) (newArea uint8, flags uint16)
	// MaxPolys is the most polygons a tile of the navmesh may hold
	// [Limit: 0..2^20, rounded up to a power of two; 0 = four times the
	// busiest tile of the level, at least DefaultMinMaxPolys].
	MaxPolys int
	// MaxColliders bounds the colliders the mesh holds
	// [Limit: 0..MaxColliders; 0 = DefaultMaxColliders].
	MaxColliders int
	// MaxColliderTiles bounds the tiles one collider's box may reach (a
	// change costs a rebuild of each) [Limit: >= 0; 0 =
	// DefaultMaxColliderTiles].
	MaxColliderTiles int
}

// Mesh is a tiled navmesh over a level whose walkable geometry changes at
// runtime through colliders (see the package documentation). Its tiles
// are in NavMesh, which queries and crowds read as any navmesh.Mesh.
type Mesh struct {
	baker *bake.TileBaker
	// level holds the level's area volumes and off-mesh connections (its
	// triangles too when New made the mesh), for Save.
	level    *bake.Geometry
	settings bake.Settings
	nav      *navmesh.Mesh
	headroom float32
	workers  int
	// The tile grid: its origin, size and the width of a tile and of its
	// field's border [Units: world units].
	tilesX, tilesY int
	origin         geom.Vec3
	top            float32
	tileWorldSize  float32
	border         float32
	// walkableNormalY is the slope threshold of walkable surfaces,
	// mergeThreshold the climb in cells spans merge their areas within.
	walkableNormalY  float32
	mergeThreshold   int
	maxColliders     int
	maxColliderTiles int

	mu    sync.Mutex
	tiles map[int32]*tile
	// colliders holds the collider slots; free lists the unused ones.
	colliders     []colliderSlot
	free          []uint32
	colliderCount int
	nextSequence  uint64
	// pending lists the grid indices of the tiles to rebuild, in the
	// order they were first marked.
	pending []int32

	scheduler tilecache.Scheduler
	builders  []*builder
	jobs      []buildJob
	buildJob  func(worker, i int)
	batch     navmesh.Batch
	refs      []navmesh.TileRef
	last      UpdateStats
	// background, while running, holds the background workers (see
	// StartBackground).
	background *background
}

// tile is what the mesh keeps of one tile of the grid with voxels: its
// level field and the colliders over it.
type tile struct {
	x, y int32
	// base is the encoded field of the level's triangles, nil for a tile
	// the level does not reach.
	base []byte
	// colliders are the slots of the colliders over the tile's field, in
	// the order they were added.
	colliders []uint32
	// queued is set while the tile waits for a rebuild; version counts
	// its changes, so that a build that began before the last one does
	// not clear queued; building is set while a background worker builds
	// it.
	queued   bool
	building bool
	version  uint64
}

// New bakes g tiled with settings (settings.TileSize > 0; automatic links
// off) as bake.Tiled does with the same settings, AreaFlags and a
// TiledOptions.Headroom of the mesh's headroom, keeps every tile's
// rasterized field and returns the dynamic mesh, its navmesh holding the
// baked tiles. The limits of a bake hold (Settings.MaxTiles,
// Settings.MaxMemory for one tile's grid per worker). Cancelling ctx stops
// the bake and returns ctx's error; a nil ctx never stops it.
func New(ctx context.Context, g *bake.Geometry, settings bake.Settings, opts Options) (*Mesh, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := newMesh(g, nil, nil, settings, opts)
	if err != nil {
		return nil, err
	}
	if err := m.bakeTiles(ctx, nil, opts.MaxPolys); err != nil {
		return nil, err
	}
	return m, nil
}

// NewTypes makes one dynamic mesh per agent type of g, each as New makes
// it with the type's settings (and opts), in order. Types whose tiles'
// fields are rasterized alike (the same cell size and height, tile size
// and border, slope and climb: the fields bake.TiledTypes shares) share
// their level fields: rasterized and stored once. A collider is added to
// each type's mesh on its own (the plugin's ColliderSync does it for
// every type).
func NewTypes(ctx context.Context, g *bake.Geometry, types []bake.AgentType, opts Options) ([]*Mesh, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	meshes := make([]*Mesh, len(types))
	for i, t := range types {
		m, err := newMesh(g, nil, nil, t.Settings, opts)
		if err != nil {
			return nil, fmt.Errorf("dynamic: agent type %q: %w", t.Name, err)
		}
		var shared *Mesh
		for _, other := range meshes[:i] {
			if sameFields(other, m) {
				shared = other
				break
			}
		}
		if err := m.bakeTiles(ctx, shared, opts.MaxPolys); err != nil {
			return nil, fmt.Errorf("dynamic: agent type %q: %w", t.Name, err)
		}
		meshes[i] = m
	}
	return meshes, nil
}

// sameFields reports whether two meshes rasterize the level into the same
// tile fields: the same grid, bounds, cells, border, slope and climb.
func sameFields(a, b *Mesh) bool {
	as, bs := &a.settings, &b.settings
	aMin, aMax := a.baker.Bounds()
	bMin, bMax := b.baker.Bounds()
	return a.tilesX == b.tilesX && a.tilesY == b.tilesY && aMin == bMin && aMax == bMax &&
		as.CellSize == bs.CellSize && as.CellHeight == bs.CellHeight && as.TileSize == bs.TileSize &&
		a.baker.BorderSize() == b.baker.BorderSize() && as.AgentMaxSlope == bs.AgentMaxSlope && a.mergeThreshold == b.mergeThreshold
}

// bakeTiles bakes every tile with geometry near it into m's fields and
// navmesh, rasterizing the level or, with shared, decoding the fields of
// that mesh (which rasterizes alike, sameFields) and keeping them shared.
func (m *Mesh) bakeTiles(ctx context.Context, shared *Mesh, maxPolys int) error {
	tiles, err := m.baker.TilesWithGeometry()
	if err != nil {
		return err
	}
	built := make([]*tile, len(tiles))
	data := make([]*navmesh.TileData, len(tiles))
	var codec sync.Pool
	err = parallel(ctx, len(tiles), m.workers, func(i int) error {
		index := tiles[i]
		x, y := int(index)%m.tilesX, int(index)/m.tilesX
		c, _ := codec.Get().(*bake.HeightfieldCodec)
		if c == nil {
			c = &bake.HeightfieldCodec{}
		}
		defer codec.Put(c)
		t := &tile{x: int32(x), y: int32(y)}
		if shared != nil {
			if other := shared.tiles[index]; other != nil {
				t.base = other.base
			}
		}
		result, err := m.baker.BuildTileFrom(ctx, x, y, func(hf *bake.Heightfield) error {
			if shared != nil {
				if t.base == nil {
					return nil
				}
				return c.Decode(t.base, hf)
			}
			near, err := m.baker.RasterizeTile(x, y, hf)
			if err != nil || !near {
				return err
			}
			t.base, err = c.Encode(nil, hf)
			return err
		})
		if err != nil {
			return err
		}
		built[i], data[i] = t, result.Data
		return nil
	})
	if err != nil {
		return err
	}
	busiest := 1
	for _, d := range data {
		if d != nil {
			busiest = max(busiest, len(d.Polys))
		}
	}
	if err := m.makeNavMesh(maxPolys, busiest); err != nil {
		return err
	}
	for i, t := range built {
		if t.base != nil {
			m.tiles[tiles[i]] = t
		}
		if data[i] != nil {
			if _, err := m.nav.AddTile(data[i], 0); err != nil {
				return fmt.Errorf("dynamic: new: add tile (%d, %d): %w", t.x, t.y, err)
			}
		}
	}
	return nil
}

// newMesh checks the settings and options and returns a mesh without
// tiles or navmesh, on a baker of g or, when g is nil, a voxel baker over
// [bmin, bmax] with level's volumes and connections.
func newMesh(g *bake.Geometry, bounds *[2]geom.Vec3, level *bake.Geometry, settings bake.Settings, opts Options) (*Mesh, error) {
	if settings.Links.Enabled() {
		return nil, fmt.Errorf("%w: turn Settings.Links' drops and jumps off", ErrLinksUnsupported)
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("dynamic: Workers %d must not be negative", opts.Workers)
	}
	if opts.MaxColliders < 0 || opts.MaxColliders > MaxColliders {
		return nil, fmt.Errorf("dynamic: MaxColliders %d must be 0..%d", opts.MaxColliders, MaxColliders)
	}
	if opts.MaxColliderTiles < 0 {
		return nil, fmt.Errorf("dynamic: MaxColliderTiles %d must not be negative", opts.MaxColliderTiles)
	}
	if opts.MaxPolys < 0 || opts.MaxPolys > navmesh.MaxPolysPerTile {
		return nil, fmt.Errorf("dynamic: MaxPolys %d must be 0..%d", opts.MaxPolys, navmesh.MaxPolysPerTile)
	}
	headroom := opts.Headroom
	switch {
	case math.IsNaN(float64(headroom)) || math.IsInf(float64(headroom), 0):
		return nil, fmt.Errorf("dynamic: Headroom %v must be finite", headroom)
	case headroom == 0:
		headroom = DefaultHeadroom
	case headroom < 0:
		headroom = 0
	}
	workers := opts.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	tiled := bake.TiledOptions{Workers: workers, AreaFlags: opts.AreaFlags}
	var baker *bake.TileBaker
	var err error
	if g != nil {
		tiled.Headroom = headroom
		baker, err = bake.NewTileBaker(g, settings, tiled)
	} else {
		baker, err = bake.NewVoxelTileBaker(bounds[0], bounds[1], level, settings, tiled)
	}
	if err != nil {
		return nil, err
	}
	settings = baker.Settings()
	cfg, err := baker.TileConfig(0, 0)
	if err != nil {
		return nil, err
	}
	limit := settings.MaxMemory
	if limit == 0 {
		limit = bake.DefaultMaxMemory
	}
	if estimate := cfg.EstimatedMemory() * int64(workers); estimate > limit {
		return nil, fmt.Errorf("dynamic: a %d×%d cell tile grid on %d workers needs at least %d bytes, over the limit of %d (Settings.MaxMemory): %w",
			cfg.Width, cfg.Height, workers, estimate, limit, bake.ErrMemoryLimit)
	}
	tilesX, tilesY := baker.Grid()
	bmin, bmax := baker.Bounds()
	maxColliders := opts.MaxColliders
	if maxColliders == 0 {
		maxColliders = DefaultMaxColliders
	}
	maxColliderTiles := opts.MaxColliderTiles
	if maxColliderTiles == 0 {
		maxColliderTiles = DefaultMaxColliderTiles
	}
	if g != nil {
		level = g
	} else if level == nil {
		level = &bake.Geometry{}
	}
	return &Mesh{
		baker:            baker,
		level:            level,
		settings:         settings,
		headroom:         headroom,
		workers:          workers,
		tilesX:           tilesX,
		tilesY:           tilesY,
		origin:           bmin,
		top:              bmax[1],
		tileWorldSize:    baker.TileWorldSize(),
		border:           float32(baker.BorderSize()) * settings.CellSize,
		walkableNormalY:  bake.WalkableSlopeThreshold(settings.AgentMaxSlope),
		mergeThreshold:   cfg.WalkableClimb,
		maxColliders:     maxColliders,
		maxColliderTiles: maxColliderTiles,
		tiles:            map[int32]*tile{},
	}, nil
}

// makeNavMesh makes the mesh's empty navmesh, with room for maxPolys
// polygons per tile, or, when that is 0, for four times busiest.
func (m *Mesh) makeNavMesh(maxPolys, busiest int) error {
	if maxPolys == 0 {
		maxPolys = max(4*int(geom.NextPow2(uint32(busiest))), DefaultMinMaxPolys)
	}
	maxPolys = min(int(geom.NextPow2(uint32(maxPolys))), navmesh.MaxPolysPerTile)
	nav, err := navmesh.New(navmesh.Params{
		Origin:     m.origin,
		TileWidth:  m.tileWorldSize,
		TileHeight: m.tileWorldSize,
		MaxTiles:   int(geom.NextPow2(uint32(m.tilesX * m.tilesY))),
		MaxPolys:   maxPolys,
	})
	if err != nil {
		return fmt.Errorf("dynamic: navmesh: %w", err)
	}
	m.nav = nav
	return nil
}

// parallel runs fn(i) for i in [0, n) on workers goroutines and returns
// the first error (ctx's once it is done), stopping the others.
func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	workers = max(min(workers, n), 1)
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, workers)
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := range workers {
		go func() {
			defer wg.Done()
			for !failed.Load() {
				if err := ctx.Err(); err != nil {
					errs[w] = err
					failed.Store(true)
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					errs[w] = err
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// NavMesh returns the navmesh the tiles are published to.
func (m *Mesh) NavMesh() *navmesh.Mesh { return m.nav }

// Settings returns the bake settings of the tiles.
func (m *Mesh) Settings() bake.Settings { return m.settings }

// Headroom returns how far the tiles' fields reach above the level's
// highest vertex [Units: world units].
func (m *Mesh) Headroom() float32 { return m.headroom }

// Grid returns the number of tiles along x and z.
func (m *Mesh) Grid() (tilesX, tilesY int) { return m.tilesX, m.tilesY }

// Baker returns the tile baker the mesh bakes with (its grid, bounds and
// settings).
func (m *Mesh) Baker() *bake.TileBaker { return m.baker }
