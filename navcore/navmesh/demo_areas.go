package navmesh

// Area ids and polygon flags of RecastDemo's samples. Package bake stores
// them in the tiles it bakes by default (bake.RecastDemoAreaFlags), the tile
// cache's default mesh process does the same, and the crowd's default
// filters exclude FlagDisabled: one set of names for all of them.
const (
	// AreaGround .. AreaJump are RecastDemo's polygon areas
	// (SAMPLE_POLYAREA_*).
	AreaGround uint8 = 0
	AreaWater  uint8 = 1
	AreaRoad   uint8 = 2
	AreaDoor   uint8 = 3
	AreaGrass  uint8 = 4
	AreaJump   uint8 = 5

	// FlagWalk .. FlagDisabled are RecastDemo's polygon flags
	// (SAMPLE_POLYFLAGS_*). A polygon with FlagDisabled set is closed: a
	// door is closed by setting it (Mesh.SetPolyFlags) and opened by
	// clearing it, for every filter that excludes it (the crowd's and
	// navtool's defaults do).
	FlagWalk     uint16 = 0x01
	FlagSwim     uint16 = 0x02
	FlagDoor     uint16 = 0x04
	FlagJump     uint16 = 0x08
	FlagDisabled uint16 = 0x10
)

// RecastWalkableArea is the area id Recast gives walkable ground before
// areas are mapped (RC_WALKABLE_AREA, DT_TILECACHE_WALKABLE_AREA).
const RecastWalkableArea uint8 = 63

// RecastDemoAreaFlags maps a baked polygon area to the area and flags
// RecastDemo stores in its tiles: RecastWalkableArea becomes AreaGround;
// ground, grass and road polygons get FlagWalk, water FlagSwim, doors
// FlagWalk|FlagDoor, anything else (jump areas too: RecastDemo gives its
// off-mesh connections FlagJump itself) no flags.
func RecastDemoAreaFlags(area uint8) (uint8, uint16) {
	if area == RecastWalkableArea {
		area = AreaGround
	}
	switch area {
	case AreaGround, AreaGrass, AreaRoad:
		return area, FlagWalk
	case AreaWater:
		return area, FlagSwim
	case AreaDoor:
		return area, FlagWalk | FlagDoor
	}
	return area, 0
}
