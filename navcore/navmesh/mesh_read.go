package navmesh

import "github.com/go-gl/mathgl/mgl32"

// The read methods below are conveniences that each take a fresh Snapshot.
// Calls in a row may see different tile sets while writers run: code that
// needs a consistent view takes one Snapshot and uses it throughout.

// MaxTiles returns the number of tile slots.
func (m *Mesh) MaxTiles() int { return m.params.MaxTiles }

// TileCount returns the number of tiles in the mesh now.
func (m *Mesh) TileCount() int { return m.Snapshot().TileCount() }

// Tile returns the tile in slot i now; see Snapshot.Tile.
func (m *Mesh) Tile(i int) *Tile { return m.Snapshot().Tile(i) }

// TileAt returns the tile at (x, y, layer) now; see Snapshot.TileAt.
func (m *Mesh) TileAt(x, y, layer int) *Tile { return m.Snapshot().TileAt(x, y, layer) }

// TilesAt appends the tiles at (x, y) now; see Snapshot.TilesAt.
func (m *Mesh) TilesAt(x, y int, dst []*Tile) []*Tile { return m.Snapshot().TilesAt(x, y, dst) }

// NeighbourTilesAt appends the tiles next to (x, y) towards side now; see
// Snapshot.NeighbourTilesAt.
func (m *Mesh) NeighbourTilesAt(x, y, side int, dst []*Tile) []*Tile {
	return m.Snapshot().NeighbourTilesAt(x, y, side, dst)
}

// TileRefAt returns the reference of the tile at (x, y, layer) now.
func (m *Mesh) TileRefAt(x, y, layer int) TileRef { return m.Snapshot().TileRefAt(x, y, layer) }

// TileByRef returns the tile ref names now; see Snapshot.TileByRef.
func (m *Mesh) TileByRef(ref TileRef) *Tile { return m.Snapshot().TileByRef(ref) }

// IsValid reports whether ref names a polygon of the mesh now.
func (m *Mesh) IsValid(ref Ref) bool { return m.Snapshot().IsValid(ref) }

// TileAndPoly resolves ref now; see Snapshot.TileAndPoly.
func (m *Mesh) TileAndPoly(ref Ref) (*Tile, *Poly, error) { return m.Snapshot().TileAndPoly(ref) }

// TileAndPolyUnchecked resolves a ref known to be valid now; see
// Snapshot.TileAndPolyUnchecked.
func (m *Mesh) TileAndPolyUnchecked(ref Ref) (*Tile, *Poly) {
	return m.Snapshot().TileAndPolyUnchecked(ref)
}

// OffMeshConnectionEndPoints returns the end points of an off-mesh
// connection polygon now; see Snapshot.OffMeshConnectionEndPoints.
func (m *Mesh) OffMeshConnectionEndPoints(prevRef, polyRef Ref) (start, end mgl32.Vec3, err error) {
	return m.Snapshot().OffMeshConnectionEndPoints(prevRef, polyRef)
}

// OffMeshConnectionByRef returns the off-mesh connection of polygon ref now.
func (m *Mesh) OffMeshConnectionByRef(ref Ref) (*OffMeshConnection, error) {
	return m.Snapshot().OffMeshConnectionByRef(ref)
}

// PolyFlags returns the user flags of polygon ref now.
func (m *Mesh) PolyFlags(ref Ref) (uint16, error) { return m.Snapshot().PolyFlags(ref) }

// PolyArea returns the area id of polygon ref now.
func (m *Mesh) PolyArea(ref Ref) (uint8, error) { return m.Snapshot().PolyArea(ref) }

// ClosestPointOnPoly returns the point of polygon ref closest to pos now;
// see Snapshot.ClosestPointOnPoly.
func (m *Mesh) ClosestPointOnPoly(ref Ref, pos mgl32.Vec3) (closest mgl32.Vec3, posOverPoly bool, err error) {
	return m.Snapshot().ClosestPointOnPoly(ref, pos)
}
