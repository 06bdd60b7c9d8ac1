package bigworld

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TileSize is the tile side the levels are baked with [Units: cells]: at
// RecastDemo's 0.3 m cells a tile is 19.2 m wide, so the 1 km level has
// 53 × 53 tiles.
const TileSize = 64

// Settings returns the bake settings of the levels: RecastDemo's defaults
// (agent 2 m high, radius 0.6 m, climb 0.9 m, slope 45°) with TileSize.
func Settings() bake.Settings {
	s := bake.DefaultSettings()
	s.TileSize = TileSize
	return s
}

// Bake generates the level and bakes it tiled with Settings on workers
// goroutines (0 or less: all cores).
func (p Params) Bake(ctx context.Context, workers int) (*bake.TiledResult, error) {
	g, err := p.Geometry()
	if err != nil {
		return nil, err
	}
	result, err := bake.Tiled(ctx, g, Settings(), bake.TiledOptions{Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("bigworld: bake: %w", err)
	}
	if len(result.Tiles) == 0 {
		return nil, errNoTiles
	}
	return result, nil
}

// CachedMesh returns the navmesh of the level baked with Settings, read
// from a file under os.TempDir when an earlier call wrote one, else baked
// (on workers goroutines) and written there for the next process. The file
// is named after a hash of Version, the Params, the Settings and the
// generated geometry; before it is used, the tile at the middle of the
// grid is baked again and must match the file's byte for byte, so a change
// of the bake pipeline bakes the level again. A file that cannot be read
// or written is no error: the level is baked. Each call returns a mesh of
// its own.
func (p Params) CachedMesh(ctx context.Context, workers int) (*navmesh.Mesh, error) {
	g, err := p.Geometry()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(os.TempDir(), "archenav-bigworld-"+cacheKey(p, g)+".nav")
	if mesh, ok := p.readCache(ctx, path, g); ok {
		return mesh, nil
	}
	result, err := bake.Tiled(ctx, g, Settings(), bake.TiledOptions{Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("bigworld: bake: %w", err)
	}
	if len(result.Tiles) == 0 {
		return nil, errNoTiles
	}
	mesh, err := result.NavMesh()
	if err != nil {
		return nil, fmt.Errorf("bigworld: %w", err)
	}
	writeCache(path, mesh)
	return mesh, nil
}

// readCache loads the cached mesh at path and checks it against a fresh
// bake of its middle tile.
func (p Params) readCache(ctx context.Context, path string, g *bake.Geometry) (*navmesh.Mesh, bool) {
	mesh, _, err := navmesh.LoadFile(path)
	if err != nil {
		return nil, false
	}
	baker, err := bake.NewTileBaker(g, Settings(), bake.TiledOptions{Workers: 1})
	if err != nil {
		return nil, false
	}
	tilesX, tilesY := baker.Grid()
	for ty := tilesY / 2; ty < tilesY; ty++ {
		tile, err := baker.BuildTile(ctx, tilesX/2, ty)
		if err != nil {
			return nil, false
		}
		if tile.Data == nil {
			continue // nothing walkable: try the next row
		}
		cached := mesh.Snapshot().TileAt(tilesX/2, ty, 0)
		if cached == nil {
			return nil, false
		}
		want, err1 := navmesh.TileDataFingerprint(tile.Data)
		got, err2 := navmesh.TileDataFingerprint(cached.Data)
		return mesh, err1 == nil && err2 == nil && want == got
	}
	return nil, false
}

// writeCache saves mesh at path through a temporary file, so that a
// reader never sees half a file; failures leave no file.
func writeCache(path string, mesh *navmesh.Mesh) {
	var buf bytes.Buffer
	if err := navmesh.Save(&buf, mesh); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return
	}
	_, err = tmp.Write(buf.Bytes())
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// cacheKey hashes what a cached bake depends on.
func cacheKey(p Params, g *bake.Geometry) string {
	h := sha256.New()
	fmt.Fprintf(h, "bigworld v%d\n%+v\n%+v\n", Version, p, Settings())
	var word [4]byte
	for _, v := range g.Vertices {
		for _, c := range v {
			binary.LittleEndian.PutUint32(word[:], math.Float32bits(c))
			h.Write(word[:])
		}
	}
	for _, t := range g.Triangles {
		for _, c := range t {
			binary.LittleEndian.PutUint32(word[:], uint32(c))
			h.Write(word[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}
