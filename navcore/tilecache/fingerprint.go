package tilecache

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/archenav/archenav/navcore/navmesh"
)

// FingerprintAppendLayer continues the FNV-1a 64-bit state h (start from
// navmesh.Fingerprint(nil)) with layer as the reference figures' layerHash
// does: tx, ty, tlayer (int32), bmin, bmax (float32), hmin, hmax (uint16),
// width, height, minx, maxx, miny, maxy (uint8), all little-endian, then
// the heights, areas and cons grids. It does not depend on the compressor.
// A nil layer adds nothing.
func FingerprintAppendLayer(h uint64, layer *Layer) uint64 {
	if layer == nil {
		return h
	}
	var buf [46]byte
	le := binary.LittleEndian
	hd := &layer.Header
	le.PutUint32(buf[0:], uint32(hd.TX))
	le.PutUint32(buf[4:], uint32(hd.TY))
	le.PutUint32(buf[8:], uint32(hd.TLayer))
	for i := range 3 {
		le.PutUint32(buf[12+4*i:], math.Float32bits(hd.BMin[i]))
		le.PutUint32(buf[24+4*i:], math.Float32bits(hd.BMax[i]))
	}
	le.PutUint16(buf[36:], hd.HMin)
	le.PutUint16(buf[38:], hd.HMax)
	buf[40], buf[41], buf[42], buf[43], buf[44], buf[45] = hd.Width, hd.Height, hd.MinX, hd.MaxX, hd.MinY, hd.MaxY
	h = navmesh.FingerprintAppend(h, buf[:46])
	h = navmesh.FingerprintAppend(h, layer.Heights)
	h = navmesh.FingerprintAppend(h, layer.Areas)
	return navmesh.FingerprintAppend(h, layer.Cons)
}

// MeshSummary gives the reference figures of a navmesh snapshot: counts,
// bytes and the tile hash.
type MeshSummary struct {
	// Tiles, Polys, Verts and DetailTris count tiles and, over all tiles,
	// polygons (off-mesh ones included), vertices and detail triangles.
	Tiles, Polys, Verts, DetailTris int
	// Links counts the links in use.
	Links int
	// Bytes is the size of all tiles as C++ tile blobs.
	Bytes int
	// TileHash is FNV-1a 64 over the tiles' blob hashes (8 little-endian
	// bytes each) in (y, x, layer) order; each blob hash is the FNV-1a 64
	// of the tile's blob as dtCreateNavMeshData writes it (links zero).
	TileHash uint64
}

// Summarize returns the figures of snapshot s. It errs only for tile data
// that cannot be written as a blob.
func Summarize(s *navmesh.Snapshot) (MeshSummary, error) {
	if s == nil {
		return MeshSummary{}, fmt.Errorf("tilecache: summarize: nil snapshot")
	}
	type located struct {
		x, y, layer int32
		tile        *navmesh.Tile
	}
	tiles := make([]located, 0, s.TileCount())
	for i := range s.MaxTiles() {
		if t := s.Tile(i); t != nil {
			tiles = append(tiles, located{t.Data.Header.X, t.Data.Header.Y, t.Data.Header.Layer, t})
		}
	}
	slices.SortFunc(tiles, func(a, b located) int {
		return cmp.Or(cmp.Compare(a.y, b.y), cmp.Compare(a.x, b.x), cmp.Compare(a.layer, b.layer))
	})
	sum := MeshSummary{Tiles: len(tiles)}
	hash := navmesh.Fingerprint(nil)
	var buf [8]byte
	for _, lt := range tiles {
		t := lt.tile
		sum.Polys += int(t.Data.Header.PolyCount)
		sum.Verts += int(t.Data.Header.VertCount)
		sum.DetailTris += int(t.Data.Header.DetailTriCount)
		for i := range t.Polys {
			for l := t.Polys[i].FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
				sum.Links++
			}
		}
		blob, err := navmesh.MarshalDNAV(t.Data)
		if err != nil {
			return MeshSummary{}, fmt.Errorf("tilecache: summarize tile (%d, %d, layer %d): %w", lt.x, lt.y, lt.layer, err)
		}
		sum.Bytes += len(blob)
		binary.LittleEndian.PutUint64(buf[:], navmesh.Fingerprint(blob))
		hash = navmesh.FingerprintAppend(hash, buf[:])
	}
	sum.TileHash = hash
	return sum, nil
}
