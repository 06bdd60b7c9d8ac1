package plugin

import (
	"fmt"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Switch is a setting the plugin decides by itself unless told: Auto (the
// zero value), On or Off.
type Switch uint8

// Switch values.
const (
	// Auto lets the plugin decide (each field's comment says how).
	Auto Switch = iota
	// On turns the setting on.
	On
	// Off turns the setting off.
	Off
)

// String returns "auto", "on" or "off".
func (s Switch) String() string {
	switch s {
	case Auto:
		return "auto"
	case On:
		return "on"
	case Off:
		return "off"
	}
	return fmt.Sprintf("Switch(%d)", uint8(s))
}

// A large level is one whose long paths plain A* plans badly: more
// polygons than the path queue's node pool holds (a long search runs out
// of nodes or must grow its pool) on more tiles than one hierarchy cluster,
// or a tile grid of at least largeLevelMaxTiles (a level streamed in
// tiles, which may hold few of them yet). On a large level the crowd's
// defaults change (see Config): the hierarchy plans the paths, and the
// path queue has more slots, a larger budget and hands out more requests a
// tick. The RecastDemo levels (under 400 polygons) and the 250 m generated
// level (3365 polygons on 169 tiles) are small; the 1 km one (52,386
// polygons on 2809 tiles) is large.
const (
	largeLevelPolygons = 4096
	largeLevelTiles    = 16
	largeLevelMaxTiles = 1024
)

// Defaults of a large level.
const (
	// LargeLevelPathQueueSlots is PathQueue.Slots on a large level.
	LargeLevelPathQueueSlots = 32
	// LargeLevelPathQueueIterations is PathQueueIterations on a large level.
	LargeLevelPathQueueIterations = 8192
	// LargeLevelRequestsPerTick is RequestsPerTick on a large level.
	LargeLevelRequestsPerTick = 32
)

// IsLargeLevel reports whether the crowd's defaults treat mesh as a large
// level (see Config.HierarchicalPaths): more than 4096 polygons on more
// than 16 tiles, or room for 1024 tiles or more (navmesh.Params.MaxTiles).
func IsLargeLevel(mesh *navmesh.Mesh) bool {
	if mesh == nil {
		return false
	}
	snap := mesh.Snapshot()
	if snap.MaxTiles() >= largeLevelMaxTiles {
		return true
	}
	tiles, polys := 0, 0
	for tile := range snap.Tiles() {
		tiles++
		polys += len(tile.Polys)
	}
	return tiles > largeLevelTiles && polys > largeLevelPolygons
}

// levelDefaults fills the path planning fields left at zero with the
// values for the level's size (before the other defaults; not with
// Reference).
func (c *Config) levelDefaults() {
	if c.Reference || !IsLargeLevel(c.Mesh) {
		return
	}
	if c.HierarchicalPaths == Auto {
		c.HierarchicalPaths = On
	}
	if sizes := c.PathQueue; sizes == (crowd.PathQueueConfig{FullSearchUnreachable: sizes.FullSearchUnreachable}) {
		c.PathQueue = crowd.DefaultPathQueueConfig()
		c.PathQueue.Slots = LargeLevelPathQueueSlots
		c.PathQueue.FullSearchUnreachable = sizes.FullSearchUnreachable
		if c.MaxPath != 0 {
			c.PathQueue.MaxPathSize = c.MaxPath
		}
	}
	if c.PathQueueIterations == 0 {
		c.PathQueueIterations = LargeLevelPathQueueIterations
	}
	if c.RequestsPerTick == 0 {
		c.RequestsPerTick = LargeLevelRequestsPerTick
	}
}
