package tilecache

import "github.com/archenav/archenav/navcore/navmesh"

// MeshProcess adjusts a tile before its tile data is built
// (dtTileCacheMeshProcess): it may rewrite params.PolyAreas (the layer areas,
// WalkableArea for plain ground, an area obstacle's id where one lies) and
// params.PolyFlags (all 0 on entry), and set params.OffMeshConnections (the
// connections starting in the tile are stored in it; pass the whole level's
// list, BuildTileData keeps those that belong). The slices are the builder's:
// do not keep them. Process runs on the cache's worker goroutines during
// Update, so it must be safe for concurrent use and must not call the Cache.
type MeshProcess interface {
	Process(params *navmesh.BuildParams)
}

// MeshProcessFunc adapts a function to MeshProcess.
type MeshProcessFunc func(params *navmesh.BuildParams)

// Process calls f(params); a nil f, or nil params, does nothing.
func (f MeshProcessFunc) Process(params *navmesh.BuildParams) {
	if f != nil && params != nil {
		f(params)
	}
}

// RecastDemoProcess is Sample_TempObstacles' MeshProcess, the default: each
// polygon's area and flags become navmesh.RecastDemoAreaFlags of its area
// (WalkableArea to navmesh.AreaGround; ground, grass and road get
// navmesh.FlagWalk, water navmesh.FlagSwim, doors FlagWalk|FlagDoor, any
// other area no flags), and every tile gets OffMeshConnections. So an area
// obstacle with navmesh.AreaDoor makes a door a filter can shut
// (navmesh.FlagDoor), one with an area the mapping leaves unflagged (jump,
// or an id of your own) closes the cells to filters that need a flag.
type RecastDemoProcess struct {
	// OffMeshConnections are the level's off-mesh connections.
	OffMeshConnections []navmesh.OffMeshConnectionParams
}

// Process maps areas to flags and passes the off-mesh connections; nil
// params are nothing to process.
func (p *RecastDemoProcess) Process(params *navmesh.BuildParams) {
	if params == nil {
		return
	}
	for i, area := range params.PolyAreas {
		params.PolyAreas[i], params.PolyFlags[i] = navmesh.RecastDemoAreaFlags(area)
	}
	if p != nil {
		params.OffMeshConnections = p.OffMeshConnections
	}
}
