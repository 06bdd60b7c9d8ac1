package bake

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// TileConfig returns the configuration tile (tx, ty) bakes with: its field
// is the tile with a border of WalkableRadius + 3 cells around it,
// TileSize + 2·BorderSize cells a side, over the level's height range
// (raised by TiledOptions.Headroom).
func (b *TileBaker) TileConfig(tx, ty int) (*Config, error) {
	if tx < 0 || ty < 0 || tx >= b.tilesX || ty >= b.tilesY {
		return nil, fmt.Errorf("bake: tile config (%d, %d): %w of %d×%d tiles", tx, ty, errTileOutOfGrid, b.tilesX, b.tilesY)
	}
	tileMin, tileMax := b.TileBounds(tx, ty)
	return b.settings.TileConfig(tileMin, tileMax)
}

// RasterizeTile empties hf, sizes it for tile (tx, ty)'s field (TileConfig)
// and rasterizes into it the level's triangles near the tile, in the order
// BuildTile rasterizes them: the tile's solid spans before the span
// filters. It reports whether any triangle lay near the tile (BuildAll
// bakes only the tiles with some; hf is left empty otherwise). It is safe
// to call from several goroutines at once, each with its own hf.
func (b *TileBaker) RasterizeTile(tx, ty int, hf *Heightfield) (bool, error) {
	if hf == nil {
		return false, errors.New("bake: rasterize tile: nil heightfield")
	}
	cfg, err := b.TileConfig(tx, ty)
	if err != nil {
		return false, err
	}
	if err := hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight); err != nil {
		return false, fmt.Errorf("bake: rasterize tile (%d, %d): %w", tx, ty, err)
	}
	baker := b.getBaker()
	defer b.bakers.Put(baker)
	if _, ok := b.gatherTriangles(baker, cfg); !ok {
		return false, nil
	}
	if err := hf.RasterizeTriangles(b.geometry.Vertices, baker.tileTriangles, baker.triangleAreas, cfg.WalkableClimb); err != nil {
		return false, fmt.Errorf("bake: rasterize tile (%d, %d): %w", tx, ty, err)
	}
	return true, nil
}

// BuildTileFrom bakes tile (tx, ty) from solid spans instead of the level's
// triangles: fill gets the bake's heightfield, emptied and sized for the
// tile's field (TileConfig), and puts the tile's spans into it (decodes a
// field RasterizeTile made, rasterizes more shapes, carves some away);
// fill must keep the grid and bounds. The span filters and every later
// stage then run as in BuildTile, on the level's area volumes and off-mesh
// connections, so with the spans of RasterizeTile the result is
// BuildTile's byte for byte. A tile with nothing walkable gives a result
// with nil Data. fill runs on the calling goroutine and its time counts
// as StageRasterize. It is safe to call from several goroutines at once.
// ctx stops the build between stages; a nil ctx never stops it.
func (b *TileBaker) BuildTileFrom(ctx context.Context, tx, ty int, fill func(hf *Heightfield) error) (*TileResult, error) {
	cfg, err := b.TileConfig(tx, ty)
	if err != nil {
		return nil, err
	}
	if fill == nil {
		return nil, fmt.Errorf("bake: build tile (%d, %d) from spans: nil fill", tx, ty)
	}
	baker := b.getBaker()
	defer b.bakers.Put(baker)
	bc := NewBuildContext(ctx)
	result := &TileResult{X: tx, Y: ty}
	result.BMin, result.BMax = b.TileBounds(tx, ty)
	err = bc.Run(StageRasterize, func() error {
		hf := &baker.heightfield
		if err := hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight); err != nil {
			return err
		}
		if err := fill(hf); err != nil {
			return err
		}
		if hf.Width != cfg.Width || hf.Height != cfg.Height || hf.BMin != cfg.BMin || hf.BMax != cfg.BMax ||
			hf.CellSize != cfg.CellSize || hf.CellHeight != cfg.CellHeight {
			return fmt.Errorf("fill changed the field's grid to %d×%d over %v-%v", hf.Width, hf.Height, hf.BMin, hf.BMax)
		}
		return nil
	})
	if err == nil {
		err = b.bakeRasterizedTile(bc, cfg, baker, result)
	}
	result.Stats = bc.Stats()
	if err != nil {
		return nil, fmt.Errorf("bake: build tile (%d, %d) from spans: %w", tx, ty, err)
	}
	result.solid, result.linkParams = nil, nil // no links for a tile alone
	return result, nil
}

// TilesWithGeometry returns the tiles BuildAll bakes: those with the box
// of a triangle within their border, as grid indices x + y·tilesX in grid
// order. Past Settings.MaxTiles of them it fails with ErrTooManyTiles.
func (b *TileBaker) TilesWithGeometry() ([]int32, error) {
	return b.tilesWithGeometry(b.GridRange(), b.settings.maxTiles())
}

// BorderSize returns the margin of a tile's field around the tile,
// WalkableRadius + 3 [Units: cells]
func (b *TileBaker) BorderSize() int { return b.borderSize }

// AreaFlags returns the mapping from polygon areas to tile areas and flags
// the baker builds tiles with (TiledOptions.AreaFlags).
func (b *TileBaker) AreaFlags() func(area uint8) (uint8, uint16) { return b.areaFlags }

// NewVoxelTileBaker returns a TileBaker for a level known by its voxels
// alone, whose tiles are baked with BuildTileFrom (RasterizeTile, BuildTile
// and BuildAll find no triangles): its tile grid covers [bmin, bmax], the
// Bounds of the TileBaker that rasterized the voxels (its headroom
// included, so opts.Headroom must be 0), and its tiles are baked with
// level's area volumes and off-mesh connections; level's triangles are not
// used, and level may be nil. bake/dynamic reads its files with it.
func NewVoxelTileBaker(bmin, bmax mgl32.Vec3, level *Geometry, settings Settings, opts TiledOptions) (*TileBaker, error) {
	if opts.Headroom != 0 {
		return nil, fmt.Errorf("bake: voxel tile baker: Headroom %v: the bounds hold it already", opts.Headroom)
	}
	if err := validateBounds(bmin, bmax); err != nil {
		return nil, fmt.Errorf("bake: voxel tile baker: %w", err)
	}
	// A degenerate triangle across the box gives the grid its bounds; it
	// is dropped before anything could rasterize it.
	g := &Geometry{Vertices: []mgl32.Vec3{bmin, bmax}, Triangles: [][3]int32{{0, 1, 1}}}
	if level != nil {
		g.ConvexVolumes, g.BoxVolumes, g.CylinderVolumes = level.ConvexVolumes, level.BoxVolumes, level.CylinderVolumes
		g.OffMeshConnections = level.OffMeshConnections
	}
	b, err := newTileBaker(g, settings, opts)
	if err != nil {
		return nil, err
	}
	g.Triangles = nil
	b.chunks = newChunkyMesh(g.Vertices, nil, 1)
	return b, nil
}
