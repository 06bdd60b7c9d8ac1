package bake

import (
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
)

// Area ids and polygon flags DefaultLinkSettings gives the automatic links.
const (
	// DemoAreaDrop is the area of drop links (navmesh.AreaDrop), beside
	// RecastDemo's areas (DemoAreaJump, RecastDemo's jump area, is the jump
	// links').
	DemoAreaDrop = navmesh.AreaDrop
	// DemoFlagDrop is the flag of drop links (navmesh.FlagDrop), beside
	// RecastDemo's flags (DemoFlagJump is the jump links').
	DemoFlagDrop = navmesh.FlagDrop
)

// LinkSettings tune the off-mesh connections a bake places by itself along
// the boundary edges of the polygon mesh (Settings.Links): drops, where an
// agent can walk off a ledge onto lower ground, and jumps, where it can leap
// across a gap (up or down within limits). Every candidate is checked for
// the agent's body (AgentRadius, AgentHeight) along its path (see
// navmesh.LinkPath) through the solid heightfield; see the package
// documentation for the whole method.
//
// Distances are measured in the xz-plane from the edge of the polygon mesh,
// which lies about AgentRadius inside the lip of a ledge, so ground right at
// the foot of a vertical ledge lies about 2·AgentRadius out; the Out and Gap
// limits count beyond that. Heights are differences between the two ends.
type LinkSettings struct {
	// Drops turns on drop links: one-way links down to ground lower by more
	// than AgentMaxClimb and at most DropMaxHeight.
	Drops bool
	// Jumps turns on jump links: across gaps up to JumpMaxGap wide, down at
	// most JumpMaxDown or up at most JumpMaxUp; both ways when the two ends
	// lie within JumpMaxUp of each other in height, else one way (down).
	Jumps bool

	// DropMaxHeight is the deepest drop [Limit: > AgentMaxClimb]
	// [Units: world units]
	DropMaxHeight float32
	// DropMaxOut is how much further than 2·AgentRadius from the edge a
	// drop may land, for ledges whose foot reaches out [Limit: >= 0]
	// [Units: world units]
	DropMaxOut float32
	// JumpMaxGap is the widest gap, lip to lip: a jump lands at most
	// JumpMaxGap + 2·AgentRadius from the edge [Limit: >= 0]
	// [Units: world units]
	JumpMaxGap float32
	// JumpMaxDown is the deepest a jump may land below its start
	// [Limit: >= 0] [Units: world units]
	JumpMaxDown float32
	// JumpMaxUp is the highest a jump may land above its start
	// [Limit: >= 0] [Units: world units]
	JumpMaxUp float32
	// JumpHeight is how far the arc's apex rises above the higher end
	// [Limit: > 0, <= navmesh.MaxLinkArcHeight] [Units: world units]
	JumpHeight float32
	// Spacing is the distance between neighbouring links along one stretch
	// of edge [Limit: >= CellSize] [Units: world units]
	Spacing float32

	// DropArea and JumpArea are the links' area ids, for filter costs
	// [Limit: < navmesh.MaxAreas]
	DropArea, JumpArea uint8
	// DropFlags and JumpFlags are the links' polygon flags, for filters.
	DropFlags, JumpFlags uint16
	// DropCost and JumpCost are the area costs ApplyCosts puts in a filter:
	// a link costs its straight length times its area's cost
	// [Limit: >= 1 keeps A* exact]
	DropCost, JumpCost float32
}

// DefaultLinkSettings returns both kinds of links on with archenav's
// defaults, which start from DotRecast's jump-link tool: drops down to
// 3.2 (DotRecast: 1.5 to 3.2; here any ledge the agent cannot step down
// counts, so that ledges between AgentMaxClimb and 1.5 get drops rather
// than jumps), landing up to 1.0 further out; jumps over gaps up to 2.0
// wide (DotRecast: landing 2.0 from the edge, which leaves gaps of 0.8 for
// its default agent), 2.5 down, 0.3 up, apex 0.4 above the higher end;
// links 2.0 apart along an edge (DotRecast: one per agent radius, which
// crowds the mesh with connections). Drops take DemoAreaDrop and
// DemoFlagDrop, jumps RecastDemo's DemoAreaJump and DemoFlagJump; drops cost
// 1 (their straight length already exceeds the walk along the ground),
// jumps 1.5 (RecastDemo's cost for its jump area), so a path prefers
// walking around unless that is about 1.5 times as long.
func DefaultLinkSettings() LinkSettings {
	return LinkSettings{
		Drops:         true,
		Jumps:         true,
		DropMaxHeight: 3.2,
		DropMaxOut:    1.0,
		JumpMaxGap:    2.0,
		JumpMaxDown:   2.5,
		JumpMaxUp:     0.3,
		JumpHeight:    0.4,
		Spacing:       2.0,
		DropArea:      DemoAreaDrop,
		JumpArea:      DemoAreaJump,
		DropFlags:     DemoFlagDrop,
		JumpFlags:     DemoFlagJump,
		DropCost:      1,
		JumpCost:      1.5,
	}
}

// Enabled reports whether the bake places links of either kind.
func (s *LinkSettings) Enabled() bool { return s.Drops || s.Jumps }

// ApplyCosts sets the cost of the links' areas in filter: DropCost for
// DropArea, JumpCost for JumpArea. Detour's default filter (query.NewFilter)
// costs every area 1.
func (s *LinkSettings) ApplyCosts(filter *query.Filter) {
	if filter == nil {
		return
	}
	if s.DropArea < navmesh.MaxAreas {
		filter.AreaCost[s.DropArea] = s.DropCost
	}
	if s.JumpArea < navmesh.MaxAreas {
		filter.AreaCost[s.JumpArea] = s.JumpCost
	}
}

// maxLinkReachCells bounds how far out, in cells, the link search looks
// from an edge: a silly setting gets an error, not hours of work.
const maxLinkReachCells = 256

// validate checks the link settings against the agent settings s they bake
// with; links that are off are not checked.
func (l *LinkSettings) validate(s *Settings) error {
	if !l.Enabled() {
		return nil
	}
	values := []struct {
		name  string
		value float32
	}{
		{"DropMaxHeight", l.DropMaxHeight},
		{"DropMaxOut", l.DropMaxOut},
		{"JumpMaxGap", l.JumpMaxGap},
		{"JumpMaxDown", l.JumpMaxDown},
		{"JumpMaxUp", l.JumpMaxUp},
		{"JumpHeight", l.JumpHeight},
		{"Spacing", l.Spacing},
		{"DropCost", l.DropCost},
		{"JumpCost", l.JumpCost},
	}
	for _, f := range values {
		if !finite(f.value) || f.value < 0 {
			return fmt.Errorf("bake: settings: Links.%s %v must be finite and not negative", f.name, f.value)
		}
	}
	if l.Drops && l.DropMaxHeight <= s.AgentMaxClimb {
		return fmt.Errorf("bake: settings: Links.DropMaxHeight %v must exceed AgentMaxClimb %v", l.DropMaxHeight, s.AgentMaxClimb)
	}
	if l.Jumps && (l.JumpHeight <= 0 || l.JumpHeight > navmesh.MaxLinkArcHeight) {
		return fmt.Errorf("bake: settings: Links.JumpHeight %v must be in (0, %v]", l.JumpHeight, navmesh.MaxLinkArcHeight)
	}
	if l.Spacing < s.CellSize {
		return fmt.Errorf("bake: settings: Links.Spacing %v must be at least CellSize %v", l.Spacing, s.CellSize)
	}
	if l.DropArea >= navmesh.MaxAreas || l.JumpArea >= navmesh.MaxAreas {
		return fmt.Errorf("bake: settings: Links areas %d and %d must be below %d", l.DropArea, l.JumpArea, navmesh.MaxAreas)
	}
	if reach := l.reach(s.AgentRadius) / s.CellSize; reach > maxLinkReachCells {
		return fmt.Errorf("bake: settings: links reach %v cells from an edge, more than %d", reach, maxLinkReachCells)
	}
	for _, h := range []struct {
		name  string
		value float32
	}{{"DropMaxHeight", l.DropMaxHeight}, {"JumpMaxDown", l.JumpMaxDown}, {"JumpMaxUp", l.JumpMaxUp}, {"JumpHeight", l.JumpHeight}} {
		if h.value/s.CellHeight > MaxSpanHeight {
			return fmt.Errorf("bake: settings: Links.%s / CellHeight is more than %d cells", h.name, MaxSpanHeight)
		}
	}
	return nil
}

// reach is the farthest from an edge a link of an enabled kind may land
// [Units: world units].
func (l *LinkSettings) reach(agentRadius float32) float32 {
	out := float32(0)
	if l.Drops {
		out = max(out, l.DropMaxOut)
	}
	if l.Jumps {
		out = max(out, l.JumpMaxGap)
	}
	return float32(2*agentRadius) + out
}

// soloLinks places the links of a solo bake whose tile, built with params,
// came from the solid spans of hf, and returns the tile built again with
// them, and the links.
func soloLinks(s *Settings, cfg *Config, hf *Heightfield, tile *navmesh.TileData, params *navmesh.BuildParams) (*navmesh.TileData, []OffMeshConnection, error) {
	mesh, err := navmesh.New(navmesh.SingleTileParams(tile))
	if err != nil {
		return nil, nil, err
	}
	if _, err := mesh.AddTile(tile, 0); err != nil {
		return nil, nil, err
	}
	finder := newLinkFinder(s, mesh, heightfieldSolid{hf}, cfg.BMin)
	h := &tile.Header
	edges := finder.sampleTile(mesh.TileAt(int(h.X), int(h.Y), int(h.Layer)), nil)
	placed := newLinkGrouper(s, cfg.BMin).place([][]linkEdge{edges})
	links := make([]OffMeshConnection, 0, len(placed))
	for _, p := range placed {
		if startsInTile(params, p.connection.Start) {
			links = append(links, p.connection)
		}
	}
	if len(links) == 0 {
		// mesh linked tile's polygons in place; an array of its own lets
		// the result's mesh do so too.
		return tile.WithOwnPolys(), nil, nil
	}
	withLinks := *params
	withLinks.OffMeshConnections = appendOffMeshParams(append([]navmesh.OffMeshConnectionParams(nil), params.OffMeshConnections...), links)
	tile, err = navmesh.BuildTileData(&withLinks)
	if err != nil {
		return nil, nil, err
	}
	return tile, links, nil
}

// startsInTile reports whether the tile builder stores a connection starting
// at start in the tile params build: start lies in the tile's xz bounds
// (the upper ones excluded, as navmesh.BuildTileData has them).
func startsInTile(params *navmesh.BuildParams, start mgl32.Vec3) bool {
	return startsInBounds(params.BMin, params.BMax, start)
}

// startsInBounds reports whether start lies in the xz bounds [bmin, bmax),
// as navmesh.BuildTileData tests the start of a connection to store.
func startsInBounds(bmin, bmax, start mgl32.Vec3) bool {
	return start[0] >= bmin[0] && start[0] < bmax[0] && start[2] >= bmin[2] && start[2] < bmax[2]
}

// countLinks adds the drops and jumps among links to counts.
func countLinks(counts *BuildCounts, links []OffMeshConnection) {
	for i := range links {
		switch kind, _ := navmesh.ParseAutoLinkUserID(links[i].UserID); kind {
		case navmesh.LinkDrop:
			counts.DropLinks++
		case navmesh.LinkJump:
			counts.JumpLinks++
		}
	}
}
