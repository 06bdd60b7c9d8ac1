package tilecache

import "github.com/go-gl/mathgl/mgl32"

// Cell values of a layer's Areas grid.
const (
	// NullArea marks a cell with no walkable ground (DT_TILECACHE_NULL_AREA).
	NullArea uint8 = 0
	// WalkableArea is the default area of walkable ground
	// (DT_TILECACHE_WALKABLE_AREA, RC_WALKABLE_AREA).
	WalkableArea uint8 = 63
)

// MaxLayerSide is the largest width or height of a layer in cells: the
// header stores both as one byte.
const MaxLayerSide = 255

// LayerHeader describes one heightfield layer of a tile
// (dtTileCacheLayerHeader without its magic and version, which the encoded
// form adds).
type LayerHeader struct {
	// TX, TY are the tile's grid location; TLayer is the layer's index in
	// the tile [Limit: 0..254].
	TX, TY, TLayer int32
	// BMin and BMax bound the layer, border included [Units: world units].
	BMin, BMax mgl32.Vec3
	// HMin and HMax are the lowest and highest cell heights of the layer
	// [Units: cells of CellHeight above BMin.Y].
	HMin, HMax uint16
	// Width and Height are the layer's size, border included
	// [Limit: 1..255] [Units: cells].
	Width, Height uint8
	// MinX, MaxX, MinY, MaxY bound the cells of the layer that hold ground
	// (the usable sub-region) [Units: cells].
	MinX, MaxX, MinY, MaxY uint8
}

// Layer is one uncompressed heightfield layer: three grids of
// Width × Height cells, row-major with x fastest (index x + y·Width).
type Layer struct {
	Header LayerHeader
	// Heights holds each cell's floor height above Header.HMin
	// [Units: cells of CellHeight]; 0xff where Areas is NullArea.
	Heights []uint8
	// Areas holds each cell's area id; NullArea where there is no ground.
	Areas []uint8
	// Cons holds each cell's connections: the low 4 bits say which of the
	// four neighbours (bit 0 -x, 1 +y, 2 +x, 3 -y, Recast's direction
	// order) is reachable in this layer, the high 4 bits which of them is
	// a portal to another layer.
	Cons []uint8
}

// Compressor packs and unpacks the grids of an encoded layer
// (dtTileCacheCompressor).
type Compressor interface {
	// MaxCompressedSize returns an upper bound on the compressed size of
	// n bytes.
	MaxCompressedSize(n int) int
	// Compress appends the compressed form of src to dst and returns it.
	Compress(dst, src []byte) ([]byte, error)
	// Decompress decompresses src into dst[:cap(dst)] and returns the
	// decompressed bytes; it returns an error, never panics or writes past
	// cap(dst), when src is malformed or would not fit.
	Decompress(dst, src []byte) ([]byte, error)
}

// Params are the tile cache's settings (dtTileCacheParams).
type Params struct {
	// Origin is the world position of the tile grid's minimum corner
	// [Units: world units].
	Origin mgl32.Vec3
	// CellSize and CellHeight are the voxel sizes the layers were baked
	// with [Limit: > 0] [Units: world units].
	CellSize, CellHeight float32
	// Width and Height are a tile's size without border
	// [Limit: 1..255] [Units: cells].
	Width, Height int32
	// WalkableHeight, WalkableRadius and WalkableClimb are the agent's
	// height, radius and step height [Units: world units].
	WalkableHeight, WalkableRadius, WalkableClimb float32
	// MaxSimplificationError is the contour simplification tolerance
	// [Units: cells].
	MaxSimplificationError float32
	// MaxTiles bounds the number of compressed layers the cache holds
	// [Limit: >= 1].
	MaxTiles int32
	// MaxObstacles bounds the number of obstacles [Limit: >= 1].
	MaxObstacles int32
}
