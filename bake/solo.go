package bake

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

// ErrNoPolygons is returned by Solo when the level has no walkable polygon
// to build a tile from. The error wrapping it says what to check: the
// faces' winding when the floors face down, the up axis when they stand on
// their side, the level's scale otherwise. A tiled bake with no walkable
// polygon is no error (tiles may come later); its Stats.Warnings say the
// same.
var ErrNoPolygons = errors.New("no walkable polygons")

// Area ids and polygon flags of RecastDemo's samples, used by
// RecastDemoAreaFlags: the names of package navmesh, repeated here so that
// bake's callers need not import it.
const (
	// DemoAreaGround .. DemoAreaJump are RecastDemo's polygon areas.
	DemoAreaGround = navmesh.AreaGround
	DemoAreaWater  = navmesh.AreaWater
	DemoAreaRoad   = navmesh.AreaRoad
	DemoAreaDoor   = navmesh.AreaDoor
	DemoAreaGrass  = navmesh.AreaGrass
	DemoAreaJump   = navmesh.AreaJump

	// DemoFlagWalk .. DemoFlagDisabled are RecastDemo's polygon flags.
	DemoFlagWalk     = navmesh.FlagWalk
	DemoFlagSwim     = navmesh.FlagSwim
	DemoFlagDoor     = navmesh.FlagDoor
	DemoFlagJump     = navmesh.FlagJump
	DemoFlagDisabled = navmesh.FlagDisabled
)

// RecastDemoAreaFlags maps a baked polygon area to the area and flags
// RecastDemo stores in its tiles (navmesh.RecastDemoAreaFlags): WalkableArea
// becomes DemoAreaGround; ground, grass and road polygons get DemoFlagWalk,
// water DemoFlagSwim, doors DemoFlagWalk|DemoFlagDoor, anything else no
// flags.
func RecastDemoAreaFlags(area uint8) (uint8, uint16) { return navmesh.RecastDemoAreaFlags(area) }

// SoloOption adjusts a solo bake.
type SoloOption func(*soloOptions)

type soloOptions struct {
	areaFlags         func(area uint8) (uint8, uint16)
	keepIntermediates bool
	workEstimated     func(WorkEstimate)
}

// WithAreaFlags sets how each polygon's baked area becomes the area and
// flags stored in the tile (default RecastDemoAreaFlags). The function must
// return areas below navmesh.MaxAreas.
func WithAreaFlags(mapping func(area uint8) (newArea uint8, flags uint16)) SoloOption {
	return func(o *soloOptions) { o.areaFlags = mapping }
}

// WithIntermediates keeps the compact heightfield and the contour set in the
// result, for debugging and drawing; they are dropped by default.
func WithIntermediates() SoloOption {
	return func(o *soloOptions) { o.keepIntermediates = true }
}

// WithWorkEstimate calls report with the bake's work estimate once it
// passed Settings.MaxWork, before the bake starts (to show how long it
// will take: WorkEstimate.Time).
func WithWorkEstimate(report func(WorkEstimate)) SoloOption {
	return func(o *soloOptions) { o.workEstimated = report }
}

// Fingerprints identify the products of a bake bit for bit (see
// PolyMeshFingerprint, DetailMeshFingerprint and
// navmesh.TileDataFingerprint).
type Fingerprints struct {
	// PolyMesh is taken before the area mapping.
	PolyMesh   uint64
	DetailMesh uint64
	TileData   uint64
}

// SoloResult is what a solo bake produced.
type SoloResult struct {
	// Config is the cell-unit configuration the bake ran with.
	Config *Config
	// CompactHeightfield and Contours are kept only WithIntermediates.
	CompactHeightfield *CompactHeightfield
	Contours           *ContourSet
	// PolyMesh is the polygon mesh, its Areas and Flags already mapped as
	// stored in the tile.
	PolyMesh *PolyMesh
	// DetailMesh is the height detail mesh.
	DetailMesh *PolyMeshDetail
	// TileData is the navmesh tile (tile 0, 0) for navmesh.Mesh.AddTile.
	TileData *navmesh.TileData
	// Links are the automatic drop and jump links the tile holds (with
	// Settings.Links enabled), after the geometry's own connections.
	Links []OffMeshConnection
	// Fingerprints of the poly mesh, the detail mesh and the tile.
	Fingerprints Fingerprints
	// Stats holds the time per stage, the sizes and the warnings.
	Stats BuildStats
}

// NavMesh returns a navigation mesh holding the baked tile, ready for
// queries and crowds: one tile whose grid origin is the tile's minimum
// corner, as navmesh.SingleTileParams gives (and a C++ DNAV tile loads
// with). Each call makes a new mesh from the same tile data.
func (r *SoloResult) NavMesh() (*navmesh.Mesh, error) {
	if r == nil || r.TileData == nil {
		return nil, errors.New("bake: navmesh of an empty solo result")
	}
	m, err := navmesh.New(navmesh.SingleTileParams(r.TileData))
	if err != nil {
		return nil, fmt.Errorf("bake: solo navmesh: %w", err)
	}
	if _, err := m.AddTile(r.TileData, 0); err != nil {
		return nil, fmt.Errorf("bake: solo navmesh: %w", err)
	}
	return m, nil
}

// Solo bakes the whole level as one tile, in the order of RecastDemo's solo
// mesh sample: mark walkable triangles and rasterize, the span filters the
// settings select, the compact heightfield, erosion and the area volumes,
// the partition (distance field and watershed regions, monotone regions or
// layer regions), contours with wall edges tessellated, the poly mesh, the
// detail mesh, then the tile data with every polygon's area and flags
// mapped (RecastDemoAreaFlags unless WithAreaFlags), the BV tree and the
// geometry's off-mesh connections. With the same settings the products are
// bit-identical to recastnavigation 1.6.0's.
//
// ctx is checked between stages: once it is done Solo returns its error.
// Errors name the stage function that failed ("bake: build contours: ...").
// The geometry is only read.
//
// Solo bakes on a Baker from a pool shared by every Solo call, so that
// baking again reuses the working memory of earlier bakes until the
// garbage collector reclaims it; the result never shares memory with the
// pool. Keep a Baker of your own to hold on to that memory for sure.
func Solo(ctx context.Context, g *Geometry, settings Settings, opts ...SoloOption) (*SoloResult, error) {
	b := soloBakers.Get().(*Baker)
	result, err := b.Solo(ctx, g, settings, opts...)
	soloBakers.Put(b) // not after a panic: that Baker may be broken
	return result, err
}

// soloBakers are the Bakers of the package's Solo.
var soloBakers = sync.Pool{New: func() any { return new(Baker) }}

// Solo is the package's Solo on the Baker's memory. With WithIntermediates
// the compact heightfield and the contour set go to the result and the
// Baker builds new ones next time; everything else in the result is new in
// any case.
func (b *Baker) Solo(ctx context.Context, g *Geometry, settings Settings, opts ...SoloOption) (*SoloResult, error) {
	options := soloOptions{areaFlags: RecastDemoAreaFlags}
	for _, opt := range opts {
		opt(&options)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	g, skipped := g.withoutRepeatedTriangles(&b.dedupe)
	bmin, bmax, err := levelBounds(g, settings.CellSize)
	if err != nil {
		return nil, err
	}
	cfg, err := settings.Config(bmin, bmax)
	if err != nil {
		return nil, err
	}
	if err := settings.checkMemory("solo", cfg, 1); err != nil {
		return nil, err
	}
	work := cfg.EstimatedWork(g)
	work.Triangles = int64(len(g.Triangles) + skipped)
	if err := settings.checkWork("solo", work); err != nil {
		return nil, err
	}
	if options.workEstimated != nil {
		options.workEstimated(work)
	}
	b.heightfield.maxWalk = settings.maxWork()

	bc := NewBuildContext(ctx)
	if warning := repeatWarning(skipped); warning != "" {
		bc.Warnf("%s", warning)
	}
	result := &SoloResult{Config: cfg}
	if err := b.rasterizeShared(bc, func() error { return b.rasterize(g, cfg) }); err != nil {
		return nil, err
	}
	if warning := b.heightfield.ClampWarning(); warning != "" {
		bc.Warnf("%s", warning)
	}
	chf, cset, err := b.buildContours(bc, g, cfg)
	if err != nil {
		return nil, err
	}
	mesh, detail, err := b.buildMeshes(bc, chf, cset, cfg, &result.Fingerprints)
	if errors.Is(err, ErrTooManyVertices) || errors.Is(err, ErrTooManyPolygons) {
		return nil, fmt.Errorf("%w: a solo bake is one tile, with at most 65535 vertices and polygons; bake the level tiled (Settings.TileSize, navtool -tile-size)", err)
	}
	if err != nil {
		return nil, err
	}
	if mesh.PolyCount == 0 {
		return nil, fmt.Errorf("bake: solo: %w: %s", ErrNoPolygons, noPolygonsHint(g, settings))
	}
	spec := tileSpec{settings: &settings, config: cfg, areaFlags: options.areaFlags}
	tile, params, err := buildTileStage(bc, mesh, detail, g, spec, &result.Fingerprints, "bake: solo: ")
	if err != nil {
		return nil, err
	}
	if settings.Links.Enabled() {
		if err := bc.Run(StageLinks, func() (err error) {
			tile, result.Links, err = soloLinks(&settings, cfg, &b.heightfield, tile, params)
			return err
		}); err != nil {
			return nil, fmt.Errorf("bake: solo: links: %w", err)
		}
		if err := finishTile(bc.Counts(), tile, &result.Fingerprints, "bake: solo: "); err != nil {
			return nil, err
		}
		countLinks(bc.Counts(), result.Links)
	}

	result.PolyMesh, result.DetailMesh, result.TileData = mesh, detail, tile
	if options.keepIntermediates {
		result.CompactHeightfield, result.Contours = b.handOverIntermediates()
	}
	result.Stats = bc.Stats()
	return result, nil
}

// filterHeightfield runs the span filters cfg selects, in RecastDemo's
// order.
func filterHeightfield(hf *Heightfield, cfg *Config) {
	if cfg.Filters.LowHangingObstacles {
		hf.FilterLowHangingWalkableObstacles(cfg.WalkableClimb)
	}
	if cfg.Filters.LedgeSpans {
		hf.FilterLedgeSpans(cfg.WalkableHeight, cfg.WalkableClimb)
	}
	if cfg.Filters.WalkableLowHeightSpans {
		hf.FilterWalkableLowHeightSpans(cfg.WalkableHeight)
	}
}

// walkableSpanCount counts the spans of chf whose area is not NullArea.
func walkableSpanCount(chf *CompactHeightfield) int {
	n := 0
	for _, a := range chf.Areas {
		if a != NullArea {
			n++
		}
	}
	return n
}

// tileTop returns the poly mesh's upper bound raised, if need be, to the
// detail mesh's highest vertex. The detail mesh sits a cell height above
// the spans (as in Recast), so with an agent under two cell heights high
// its vertices rise above the mesh's bound, which is the walkable height
// above the level; the BV tree then bounds polygons above the tile's box,
// and Detour's queries, which clamp their box to the tile's, miss them (as
// they do in the C++). With any agent at least two cell heights high the
// bound is the mesh's and the tile is Recast's byte for byte.
func tileTop(mesh *PolyMesh, detail *PolyMeshDetail) mgl32.Vec3 {
	top := mesh.BMax
	for _, v := range detail.Verts {
		top[1] = max(top[1], v[1])
	}
	return top
}

// buildTileData maps the mesh's areas to tile areas and flags (in place, as
// RecastDemo does) and builds tile (spec.x, spec.y) with the BV tree and the
// geometry's off-mesh connections.
func buildTileData(mesh *PolyMesh, detail *PolyMeshDetail, g *Geometry, spec tileSpec) (*navmesh.TileData, error) {
	params, err := tileBuildParams(mesh, detail, g, spec)
	if err != nil {
		return nil, err
	}
	return navmesh.BuildTileData(params)
}

// tileBuildParams maps the mesh's areas to tile areas and flags (in place,
// as RecastDemo does) and returns the parameters that build tile (spec.x,
// spec.y) with the BV tree and the geometry's off-mesh connections.
func tileBuildParams(mesh *PolyMesh, detail *PolyMeshDetail, g *Geometry, spec tileSpec) (*navmesh.BuildParams, error) {
	settings, cfg := spec.settings, spec.config
	for i := 0; i < mesh.PolyCount; i++ {
		area, flags := spec.areaFlags(mesh.Areas[i])
		if area >= navmesh.MaxAreas {
			return nil, fmt.Errorf("area mapping gave area %d for polygon %d, max %d", area, i, navmesh.MaxAreas-1)
		}
		mesh.Areas[i], mesh.Flags[i] = area, flags
	}
	params := &navmesh.BuildParams{
		Verts:          mesh.Verts,
		Polys:          mesh.Polys,
		PolyFlags:      mesh.Flags,
		PolyAreas:      mesh.Areas,
		VertsPerPoly:   mesh.MaxVertsPerPoly,
		DetailMeshes:   detail.Meshes,
		DetailVerts:    detail.Verts,
		DetailTris:     detail.Tris,
		TileX:          int32(spec.x),
		TileY:          int32(spec.y),
		BMin:           mesh.BMin,
		BMax:           tileTop(mesh, detail),
		WalkableHeight: settings.AgentHeight,
		WalkableRadius: settings.AgentRadius,
		WalkableClimb:  settings.AgentMaxClimb,
		CellSize:       cfg.CellSize,
		CellHeight:     cfg.CellHeight,
		BuildBVTree:    true,
	}
	params.OffMeshConnections = appendOffMeshParams(params.OffMeshConnections, g.OffMeshConnections)
	return params, nil
}

// ConnectionParams returns connections in the tile builder's form, for
// navmesh.BuildParams or a tile cache's mesh process
// (tilecache.RecastDemoProcess.OffMeshConnections).
func ConnectionParams(connections []OffMeshConnection) []navmesh.OffMeshConnectionParams {
	return appendOffMeshParams(nil, connections)
}

// appendOffMeshParams appends the tile builder's form of connections to dst.
func appendOffMeshParams(dst []navmesh.OffMeshConnectionParams, connections []OffMeshConnection) []navmesh.OffMeshConnectionParams {
	for _, c := range connections {
		dst = append(dst, navmesh.OffMeshConnectionParams{
			Start:         c.Start,
			End:           c.End,
			Radius:        c.Radius,
			Flags:         c.Flags,
			Area:          c.Area,
			Bidirectional: c.Bidirectional,
			UserID:        c.UserID,
		})
	}
	return dst
}
