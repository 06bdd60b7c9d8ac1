package bake

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// TileBaker bakes the tiles of one level, in any order and from any number of
// goroutines at once (Sample_TileMesh): it holds the level's triangles
// indexed by a chunk tree, its bounds and its tile grid. A TileBaker only
// reads its Geometry, which must not change while it is in use.
type TileBaker struct {
	geometry *Geometry
	settings Settings
	chunks   *chunkyMesh
	// areas holds each triangle's area after the slope test, computed once
	// for every tile (a triangle's walkability does not depend on the
	// tile).
	areas []uint8
	// boxes holds each triangle's bounding box, min then max corner.
	boxes [][2]mgl32.Vec3
	// areaFlags maps poly mesh areas to tile areas and flags.
	areaFlags func(area uint8) (uint8, uint16)
	// bmin and bmax bound the level's vertices [Units: world units]
	bmin, bmax mgl32.Vec3
	// tilesX and tilesY are the size of the tile grid.
	tilesX, tilesY int
	// tileWorldSize is the side of a tile, TileSize·CellSize
	// [Units: world units]
	tileWorldSize float32
	// borderSize is the margin of a tile's field [Units: cells]
	borderSize int
	// tileConfig is the configuration of a tile, its bounds aside.
	tileConfig *Config
	// bakers holds the *Baker of each BuildTile call between calls.
	bakers sync.Pool
	// skippedTriangles counts the triangles of the level the baker leaves
	// out (Geometry.WithoutRepeatedTriangles).
	skippedTriangles int
}

// NewTileBaker validates the geometry and the settings and indexes the
// triangles for tile lookups, on opts.Workers goroutines (0 or less means
// runtime.GOMAXPROCS(0)). opts.TileSize, when positive, replaces
// settings.TileSize, which must then be positive; opts.AreaFlags is kept for
// the tiles' data; Progress is BuildAll's. The tile grid covers
// the bounds of the vertices: (w + TileSize - 1) / TileSize tiles along x
// for a level w cells wide, likewise along z.
func NewTileBaker(g *Geometry, settings Settings, opts TiledOptions) (*TileBaker, error) {
	b, err := newTileBaker(g, settings, opts)
	if err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := b.indexTriangles(workers); err != nil {
		return nil, err
	}
	return b, nil
}

// newTileBaker is NewTileBaker without the triangle index: indexTriangles
// or shareIndex completes it.
func newTileBaker(g *Geometry, settings Settings, opts TiledOptions) (*TileBaker, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	g, skipped := g.WithoutRepeatedTriangles()
	if opts.TileSize < 0 {
		return nil, fmt.Errorf("bake: tiled build: TileSize %d must not be negative", opts.TileSize)
	}
	if opts.TileSize > 0 {
		settings.TileSize = opts.TileSize
	}
	areaFlags := opts.AreaFlags
	if areaFlags == nil {
		areaFlags = RecastDemoAreaFlags
	}
	if err := settings.Validate(); err != nil {
		return nil, err
	}
	if settings.TileSize <= 0 {
		return nil, fmt.Errorf("bake: tiled build: TileSize %d must be positive", settings.TileSize)
	}
	if !finite(opts.Headroom) || opts.Headroom < 0 {
		return nil, fmt.Errorf("bake: tiled build: Headroom %v must be finite and not negative", opts.Headroom)
	}
	bmin, bmax, err := levelBounds(g, settings.CellSize)
	if err != nil {
		return nil, err
	}
	bmax[1] += opts.Headroom
	// A tile's configuration checks the level's bounds and the tile grid,
	// and tells what one tile's bake needs.
	tileConfig, err := settings.TileConfig(bmin, bmax)
	if err != nil {
		return nil, err
	}
	if err := settings.checkMemory("tiled build: one tile", tileConfig, 1); err != nil {
		return nil, err
	}
	width, height := CalcGridSize(bmin, bmax, settings.CellSize)
	tilesX := (width + settings.TileSize - 1) / settings.TileSize
	tilesY := (height + settings.TileSize - 1) / settings.TileSize
	if tilesX <= 0 || tilesY <= 0 {
		// A level thinner than half a cell still gets one row of tiles.
		tilesX, tilesY = max(tilesX, 1), max(tilesY, 1)
	}
	if int64(tilesX)*int64(tilesY) > maxGridTiles {
		return nil, fmt.Errorf("bake: tiled build: %d×%d tiles, more than %d", tilesX, tilesY, maxGridTiles)
	}
	b := &TileBaker{
		geometry:         g,
		settings:         settings,
		areaFlags:        areaFlags,
		bmin:             bmin,
		bmax:             bmax,
		tilesX:           tilesX,
		tilesY:           tilesY,
		tileWorldSize:    float32(settings.TileSize) * settings.CellSize,
		borderSize:       tileConfig.BorderSize,
		tileConfig:       tileConfig,
		skippedTriangles: skipped,
	}
	return b, nil
}

// shareIndex takes the chunk tree and the triangle boxes of index, a
// TileBaker of the same geometry, and its triangle areas when its slope is
// b's, else marks b's own.
func (b *TileBaker) shareIndex(index *TileBaker) error {
	b.chunks, b.boxes = index.chunks, index.boxes
	if index.settings.AgentMaxSlope == b.settings.AgentMaxSlope {
		b.areas = index.areas
		return nil
	}
	b.areas = make([]uint8, len(b.geometry.Triangles))
	return markTriangleAreas(b.areas, b.geometry, b.settings.AgentMaxSlope)
}

// indexTriangles marks the triangles' areas, bounds each triangle and
// builds the chunk tree, the tree on workers goroutines beside the rest
// when workers > 1.
func (b *TileBaker) indexTriangles(workers int) error {
	g := b.geometry
	var wg sync.WaitGroup
	if workers > 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.chunks = newChunkyMesh(g.Vertices, g.Triangles, workers)
		}()
	} else {
		b.chunks = newChunkyMesh(g.Vertices, g.Triangles, 1)
	}

	// Triangle areas, as every tile's build marks them (RecastDemo marks
	// the triangles of each chunk again for each tile).
	b.areas = make([]uint8, len(g.Triangles))
	err := markTriangleAreas(b.areas, g, b.settings.AgentMaxSlope)
	b.boxes = triangleBoxes(g)
	wg.Wait()
	return err
}

// triangleBoxes returns each triangle's bounding box, min then max corner.
func triangleBoxes(g *Geometry) [][2]mgl32.Vec3 {
	boxes := make([][2]mgl32.Vec3, len(g.Triangles))
	for i, t := range g.Triangles {
		v0, v1, v2 := g.Vertices[t[0]], g.Vertices[t[1]], g.Vertices[t[2]]
		boxes[i] = [2]mgl32.Vec3{geom.Min(geom.Min(v0, v1), v2), geom.Max(geom.Max(v0, v1), v2)}
	}
	return boxes
}

// maxGridTiles bounds the tile grid of a tiled build: a navmesh.Mesh holds
// at most 2^28 tiles. (Settings.MaxTiles bounds the tiles baked.)
const maxGridTiles = 1 << 28

// errTileOutOfGrid is wrapped by BuildTile for a tile outside the grid.
var errTileOutOfGrid = errors.New("tile outside the grid")

// Settings returns the settings the baker was made with.
func (b *TileBaker) Settings() Settings { return b.settings }

// Grid returns the number of tiles along x and z.
func (b *TileBaker) Grid() (tilesX, tilesY int) { return b.tilesX, b.tilesY }

// Bounds returns the box around the level's vertices, its top raised by
// TiledOptions.Headroom; the tile grid starts at its minimum corner
// [Units: world units].
func (b *TileBaker) Bounds() (bmin, bmax mgl32.Vec3) { return b.bmin, b.bmax }

// TileWorldSize returns the side of a tile, TileSize·CellSize
// [Units: world units].
func (b *TileBaker) TileWorldSize() float32 { return b.tileWorldSize }

// TileBounds returns the box of tile (tx, ty) without its border: x and z
// from the grid, y from the level's bounds, computed in float32 exactly as
// RecastDemo computes them [Units: world units].
func (b *TileBaker) TileBounds(tx, ty int) (bmin, bmax mgl32.Vec3) {
	size := b.tileWorldSize
	bmin = mgl32.Vec3{b.bmin[0] + float32(float32(tx)*size), b.bmin[1], b.bmin[2] + float32(float32(ty)*size)}
	bmax = mgl32.Vec3{b.bmin[0] + float32(float32(tx+1)*size), b.bmax[1], b.bmin[2] + float32(float32(ty+1)*size)}
	return bmin, bmax
}

// TileAt returns the tile that contains pos in the xz-plane, as RecastDemo
// picks the tile to rebuild under the mouse (truncating toward zero). The
// result may lie outside the grid.
func (b *TileBaker) TileAt(pos mgl32.Vec3) (tx, ty int) {
	return int((pos[0] - b.bmin[0]) / b.tileWorldSize), int((pos[2] - b.bmin[2]) / b.tileWorldSize)
}

// BuildTile bakes one tile of a level with settings (settings.TileSize must
// be positive) and RecastDemo's area flags, as TileBaker.BuildTile does. It
// indexes the whole level's triangles first: to rebuild several tiles, make
// one TileBaker instead.
func BuildTile(g *Geometry, settings Settings, tx, ty int) (*TileResult, error) {
	baker, err := NewTileBaker(g, settings, TiledOptions{})
	if err != nil {
		return nil, err
	}
	return baker.BuildTile(context.Background(), tx, ty)
}
