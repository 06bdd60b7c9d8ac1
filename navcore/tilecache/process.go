package tilecache

import "github.com/archenav/archenav/navcore/navmesh"

// MeshProcess adjusts a tile before its tile data is built
// (dtTileCacheMeshProcess): it may rewrite params.PolyAreas (the layer areas,
// WalkableArea for plain ground, an area obstacle's id where one lies) and
// params.PolyFlags (all 0 on entry), and set params.OffMeshConnections (the
// connections starting in the tile are stored in it; pass the whole level's
// list, BuildTileData keeps those that belong). The slices are the builder's:
// do not keep them. Process runs on the cache's worker goroutines, so it
// must be safe for concurrent use.
type MeshProcess interface {
	Process(params *navmesh.BuildParams)
}

// MeshProcessFunc adapts a function to MeshProcess.
type MeshProcessFunc func(params *navmesh.BuildParams)

// Process calls f(params).
func (f MeshProcessFunc) Process(params *navmesh.BuildParams) { f(params) }

// Area ids and polygon flags of RecastDemo's samples, which
// RecastDemoProcess maps between (SAMPLE_POLYAREA_*, SAMPLE_POLYFLAGS_*);
// they equal bake's DemoArea and DemoFlag constants.
const (
	DemoAreaGround uint8 = 0
	DemoAreaWater  uint8 = 1
	DemoAreaRoad   uint8 = 2
	DemoAreaDoor   uint8 = 3
	DemoAreaGrass  uint8 = 4
	DemoAreaJump   uint8 = 5

	DemoFlagWalk     uint16 = 0x01
	DemoFlagSwim     uint16 = 0x02
	DemoFlagDoor     uint16 = 0x04
	DemoFlagJump     uint16 = 0x08
	DemoFlagDisabled uint16 = 0x10
)

// RecastDemoProcess is Sample_TempObstacles' MeshProcess, the default: area
// WalkableArea (63) becomes DemoAreaGround; ground, grass and road polygons
// get DemoFlagWalk, water DemoFlagSwim, doors DemoFlagWalk|DemoFlagDoor, any
// other area no flags; every tile gets OffMeshConnections. So an area
// obstacle with DemoAreaDoor makes a door a filter can shut
// (DemoFlagDoor), one with an area the mapping leaves unflagged (jump, or an
// id of your own) closes the cells to filters that need a flag.
type RecastDemoProcess struct {
	// OffMeshConnections are the level's off-mesh connections.
	OffMeshConnections []navmesh.OffMeshConnectionParams
}

// Process maps areas to flags and passes the off-mesh connections.
func (p *RecastDemoProcess) Process(params *navmesh.BuildParams) {
	for i, area := range params.PolyAreas {
		if area == WalkableArea {
			area = DemoAreaGround
			params.PolyAreas[i] = area
		}
		switch area {
		case DemoAreaGround, DemoAreaGrass, DemoAreaRoad:
			params.PolyFlags[i] = DemoFlagWalk
		case DemoAreaWater:
			params.PolyFlags[i] = DemoFlagSwim
		case DemoAreaDoor:
			params.PolyFlags[i] = DemoFlagWalk | DemoFlagDoor
		}
	}
	if p != nil {
		params.OffMeshConnections = p.OffMeshConnections
	}
}
