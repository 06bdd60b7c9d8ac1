package dynamic

import (
	"unsafe"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Stats describe what a mesh holds and the memory it takes beside its
// navmesh.
type Stats struct {
	// Tiles counts the tiles with voxels: a level field, colliders or both.
	Tiles int
	// Colliders counts the colliders; PendingTiles the tiles waiting for a
	// rebuild.
	Colliders, PendingTiles int
	// VoxelBytes sums the tiles' encoded level fields; MaxTileVoxelBytes
	// is the largest of them [Units: bytes].
	VoxelBytes, MaxTileVoxelBytes int64
	// ColliderBytes estimates the memory of the colliders: their slots,
	// the tiles' lists of them and the placed vertices of mesh colliders
	// (a Mesh's own vertices and triangles are the caller's)
	// [Units: bytes].
	ColliderBytes int64
	// NavMeshBytes sums the tiles' data in the navmesh (navmesh.DNAVSize)
	// [Units: bytes].
	NavMeshBytes int64
}

// TileStats describe one tile of the grid.
type TileStats struct {
	// VoxelBytes is the size of the tile's encoded level field, 0 where
	// the level does not reach [Units: bytes].
	VoxelBytes int
	// Colliders counts the colliders over the tile's field.
	Colliders int
	// Pending reports that the tile waits for a rebuild.
	Pending bool
	// DataBytes is the size of the tile's data in the navmesh, 0 for none
	// [Units: bytes].
	DataBytes int
}

// Stats returns the mesh's counts and memory.
func (m *Mesh) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Stats{Tiles: len(m.tiles), Colliders: m.colliderCount, PendingTiles: len(m.pending)}
	for _, t := range m.tiles {
		n := int64(len(t.base))
		s.VoxelBytes += n
		s.MaxTileVoxelBytes = max(s.MaxTileVoxelBytes, n)
		s.ColliderBytes += int64(cap(t.colliders)) * 4
	}
	s.ColliderBytes += int64(cap(m.colliders)) * int64(unsafe.Sizeof(colliderSlot{}))
	for i := range m.colliders {
		c := &m.colliders[i]
		s.ColliderBytes += int64(cap(c.tiles))*4 + int64(cap(c.worldVertices))*12
	}
	for t := range m.nav.Snapshot().Tiles() {
		s.NavMeshBytes += int64(navmesh.DNAVSize(t.Data))
	}
	return s
}

// TileStats returns what the mesh holds for tile (x, y); a tile outside
// the grid or without voxels gives zero counts.
func (m *Mesh) TileStats(x, y int) TileStats {
	var s TileStats
	if t := m.nav.Snapshot().TileAt(x, y, 0); t != nil {
		s.DataBytes = navmesh.DNAVSize(t.Data)
	}
	if x < 0 || y < 0 || x >= m.tilesX || y >= m.tilesY {
		return s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.tiles[int32(x+y*m.tilesX)]; t != nil {
		s.VoxelBytes, s.Colliders, s.Pending = len(t.base), len(t.colliders), t.queued
	}
	return s
}
