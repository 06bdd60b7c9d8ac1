package bake

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/go-gl/mathgl/mgl32"
)

// What agent types share. A bake's products depend on its settings stage
// by stage, so bakes of several agent types over one level share the
// stages whose inputs they have in common, and only those:
//
//   - Rasterization depends on the grid (the level's bounds, or in a tiled
//     bake the tile with its border of WalkableRadius + 3 cells, so the
//     radius in cells), the cell size and height, the slope (which
//     triangles are walkable) and the climb (spans merge their areas within
//     WalkableClimb). Types equal in all of these share one rasterized
//     heightfield (rasterKey).
//   - The span filters and the compact heightfield depend on the
//     rasterized field, the filters selected, WalkableHeight and
//     WalkableClimb; the erosion's boundary distances only on the compact
//     field. Types equal in these share the filtered heightfield, the
//     compact field before erosion and the distances (compactKey).
//   - Everything from the erosion's cut at WalkableRadius on is baked per
//     type: the area volumes, the partition, contours, meshes, tile data and
//     links, or the layers of a tile cache bake.
//
// The first type of a group bakes the shared stages and records their
// products; the others copy them into their own Baker instead of running
// the stages, so that every Baker holds, after each stage, exactly what it
// would hold had it baked alone: each type's products are those of its own
// bake, byte for byte.

// rasterKey holds what a rasterized heightfield depends on, from a bake's
// Config (in a tiled bake, the Config of a tile over the level's bounds,
// which fixes the tile grid and each tile's field).
type rasterKey struct {
	width, height, tileSize, borderSize int
	bmin, bmax                          mgl32.Vec3
	cellSize, cellHeight, slope         float32
	climb                               int
}

// compactKey holds what the filtered heightfield, the compact field and its
// boundary distances depend on.
type compactKey struct {
	raster         rasterKey
	walkableHeight int
	filters        Filters
}

func rasterKeyOf(cfg *Config) rasterKey {
	return rasterKey{
		width: cfg.Width, height: cfg.Height, tileSize: cfg.TileSize, borderSize: cfg.BorderSize,
		bmin: cfg.BMin, bmax: cfg.BMax,
		cellSize: cfg.CellSize, cellHeight: cfg.CellHeight, slope: cfg.WalkableSlopeAngle,
		climb: cfg.WalkableClimb,
	}
}

func compactKeyOf(cfg *Config) compactKey {
	return compactKey{raster: rasterKeyOf(cfg), walkableHeight: cfg.WalkableHeight, filters: cfg.Filters}
}

// sharePlan says, for each type of a bake, which earlier type's shared
// stages it copies: rasterLeader[i] is the first type with i's rasterKey,
// compactLeader[i] the first with its compactKey (i itself when none comes
// before it).
type sharePlan struct {
	rasterLeader, compactLeader []int
}

// planSharing groups the types by the keys of their configurations.
func planSharing(configs []*Config) sharePlan {
	plan := sharePlan{rasterLeader: make([]int, len(configs)), compactLeader: make([]int, len(configs))}
	rasterFirst := map[rasterKey]int{}
	compactFirst := map[compactKey]int{}
	for i, cfg := range configs {
		r, c := rasterKeyOf(cfg), compactKeyOf(cfg)
		if _, ok := rasterFirst[r]; !ok {
			rasterFirst[r] = i
		}
		if _, ok := compactFirst[c]; !ok {
			compactFirst[c] = i
		}
		plan.rasterLeader[i], plan.compactLeader[i] = rasterFirst[r], compactFirst[c]
	}
	return plan
}

// rasterGroups returns the types grouped by rasterLeader, each group in
// type order, the groups in the order of their leaders.
func (p sharePlan) rasterGroups() [][]int {
	var groups [][]int
	index := map[int]int{}
	for i, leader := range p.rasterLeader {
		g, ok := index[leader]
		if !ok {
			g = len(groups)
			index[leader] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// shares returns one stageShare for each of the types members (in type
// order, each with its leaders among them), with records for the products
// more than one of them uses: a type records what it leads and copies what
// an earlier type leads.
func (p sharePlan) shares(members []int) []*stageShare {
	rasterUsers, compactUsers := map[int]int{}, map[int]int{}
	for _, i := range members {
		rasterUsers[p.rasterLeader[i]]++
		compactUsers[p.compactLeader[i]]++
	}
	shares := make([]*stageShare, len(members))
	byType := map[int]*stageShare{}
	for k, i := range members {
		s := &stageShare{}
		shares[k], byType[i] = s, s
		if leader := p.rasterLeader[i]; rasterUsers[leader] > 1 {
			if leader == i {
				s.raster, s.recordsRaster = takeRecord[rasterRecord](&rasterRecords), true
			} else {
				s.raster = byType[leader].raster
			}
		}
		if leader := p.compactLeader[i]; compactUsers[leader] > 1 {
			if leader == i {
				s.compact, s.recordsCompact = takeRecord[compactRecord](&compactRecords), true
			} else {
				s.compact = byType[leader].compact
			}
		}
	}
	return shares
}

// stageShare connects one type's bake to the stages it shares: for the
// rasterized heightfield and for the compact stages, the record it fills
// (when it leads) or copies (when an earlier type leads), nil when no other
// type shares them. A nil *stageShare shares nothing.
type stageShare struct {
	raster         *sharedRecord[rasterRecord]
	recordsRaster  bool
	compact        *sharedRecord[compactRecord]
	recordsCompact bool
	// counts sums up the bakes that went through this share.
	counts TypesStats
}

// reset readies the records this share leads for the next tile, keeping
// their memory; no bake may be using them.
func (s *stageShare) reset() {
	if s.recordsRaster {
		s.raster.reset()
	}
	if s.recordsCompact {
		s.compact.reset()
	}
}

// noteRasterized counts a bake that got its rasterized heightfield, by
// rasterizing (not copied) or by copying it.
func (s *stageShare) noteRasterized(copied bool) {
	if s == nil {
		return
	}
	s.counts.Bakes++
	if !copied {
		s.counts.Rasterizations++
	}
}

// noteCompacted counts a bake that ran the compact stages itself.
func (s *stageShare) noteCompacted() {
	if s != nil {
		s.counts.Compactions++
	}
}

// sumCounts adds up the counts of shares into stats.
func sumCounts(stats *TypesStats, shares []*stageShare) {
	for _, s := range shares {
		stats.Bakes += s.counts.Bakes
		stats.Rasterizations += s.counts.Rasterizations
		stats.Compactions += s.counts.Compactions
	}
}

// rasterRecord is a rasterized heightfield.
type rasterRecord struct {
	heightfield Heightfield
}

// compactRecord holds the products of the compact stages: the filtered
// heightfield, the compact field before erosion, its boundary distances and
// the heightfield's span count.
type compactRecord struct {
	heightfield      Heightfield
	compact          CompactHeightfield
	distances        []uint8
	heightfieldSpans int
}

// errSharedStage is returned by a type's bake when the type that bakes a
// stage they share failed or stopped before recording it; that type's own
// error says why.
var errSharedStage = errors.New("the agent type baking a shared stage failed")

// sharedRecord is a product one bake records once and others read: ready
// is closed once it is recorded (ok) or abandoned.
type sharedRecord[T any] struct {
	ready chan struct{}
	once  sync.Once
	ok    bool
	value T
}

// rasterRecords and compactRecords keep the records of finished bakes,
// with their memory, for the next.
var (
	rasterRecords  sync.Pool
	compactRecords sync.Pool
)

// takeRecord returns a record from pool, ready to be recorded, or a new
// one.
func takeRecord[T any](pool *sync.Pool) *sharedRecord[T] {
	if r, ok := pool.Get().(*sharedRecord[T]); ok {
		r.reset()
		return r
	}
	return &sharedRecord[T]{ready: make(chan struct{})}
}

// releaseRecords gives the records the shares lead back to their pools, once
// no bake uses them.
func releaseRecords(shares []*stageShare) {
	for _, s := range shares {
		if s.recordsRaster {
			rasterRecords.Put(s.raster)
		}
		if s.recordsCompact {
			compactRecords.Put(s.compact)
		}
		s.raster, s.compact = nil, nil
	}
}

// reset makes the record unrecorded again, keeping the value's memory.
func (r *sharedRecord[T]) reset() {
	r.ready = make(chan struct{})
	r.once = sync.Once{}
	r.ok = false
}

// publish records the value fill writes and wakes the readers.
func (r *sharedRecord[T]) publish(fill func(*T)) {
	r.once.Do(func() {
		fill(&r.value)
		r.ok = true
		close(r.ready)
	})
}

// abandon wakes the readers of a record that will not be made.
func (r *sharedRecord[T]) abandon() {
	r.once.Do(func() { close(r.ready) })
}

// wait returns the recorded value once it is ready, or an error when it was
// abandoned or ctx is done first.
func (r *sharedRecord[T]) wait(ctx context.Context) (*T, error) {
	select {
	case <-r.ready:
		if !r.ok {
			return nil, errSharedStage
		}
		return &r.value, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("bake: %w", ctx.Err())
	}
}

// abandon wakes whoever waits for a record this bake leads and did not
// make (after an error): a bake calls it once it returns.
func (s *stageShare) abandon() {
	if s == nil {
		return
	}
	if s.recordsRaster {
		s.raster.abandon()
	}
	if s.recordsCompact {
		s.compact.abandon()
	}
}

// rasterFrom returns the rasterized heightfield to copy instead of
// rasterizing, once it is recorded; nil when this bake rasterizes itself.
func (s *stageShare) rasterFrom(ctx context.Context) (*rasterRecord, error) {
	if s == nil || s.raster == nil || s.recordsRaster {
		return nil, nil
	}
	return s.raster.wait(ctx)
}

// compactFrom returns the products of the compact stages to copy instead of
// running them, once they are recorded; nil when this bake runs them.
func (s *stageShare) compactFrom(ctx context.Context) (*compactRecord, error) {
	if s == nil || s.compact == nil || s.recordsCompact {
		return nil, nil
	}
	return s.compact.wait(ctx)
}

// recordRaster records hf for the types that share it, when this bake
// leads them.
func (s *stageShare) recordRaster(hf *Heightfield) {
	if s == nil || !s.recordsRaster {
		return
	}
	s.raster.publish(func(r *rasterRecord) { r.heightfield.copyFrom(hf) })
}

// recordCompact records the filtered hf, chf before its erosion, its
// boundary distances and the span count for the types that share them,
// when this bake leads them.
func (s *stageShare) recordCompact(hf *Heightfield, chf *CompactHeightfield, distances []uint8, heightfieldSpans int) {
	if s == nil || !s.recordsCompact {
		return
	}
	s.compact.publish(func(r *compactRecord) {
		r.heightfield.copyFrom(hf)
		r.compact.copyFrom(chf)
		r.distances = append(r.distances[:0], distances...)
		r.heightfieldSpans = heightfieldSpans
	})
}

// copyFrom makes hf a copy of src, reusing hf's memory.
func (hf *Heightfield) copyFrom(src *Heightfield) {
	columns, pool, hints := hf.Columns, hf.Pool, hf.hints
	*hf = *src
	hf.Columns = append(columns[:0], src.Columns...)
	hf.Pool = append(pool[:0], src.Pool...)
	hf.hints = hints // scratch: never shared
}

// copyFrom makes chf a copy of src, reusing chf's memory for the cells,
// spans, areas and distances.
func (chf *CompactHeightfield) copyFrom(src *CompactHeightfield) {
	cells, spans, areas, dist := chf.Cells, chf.Spans, chf.Areas, chf.Dist
	*chf = *src
	chf.Cells = append(cells[:0], src.Cells...)
	chf.Spans = append(spans[:0], src.Spans...)
	chf.Areas = append(areas[:0], src.Areas...)
	chf.Dist = nil
	if src.Dist != nil {
		chf.Dist = append(dist[:0], src.Dist...)
	}
	chf.Warnings = slices.Clone(src.Warnings)
}

// rasterizeShared runs the rasterize stage with rasterize, or copies the
// heightfield another type's bake rasterized (Baker.share), and records the
// field for the types that share it when this bake leads them.
func (b *Baker) rasterizeShared(bc *BuildContext, rasterize func() error) error {
	shared, err := b.share.rasterFrom(bc.ctx)
	if err != nil {
		return err
	}
	if err := bc.Run(StageRasterize, func() error {
		if shared != nil {
			b.heightfield.copyFrom(&shared.heightfield)
			return nil
		}
		return rasterize()
	}); err != nil {
		return err
	}
	b.share.noteRasterized(shared != nil)
	b.share.recordRaster(&b.heightfield)
	return nil
}

// erode erodes chf by radius cells as CompactHeightfield.ErodeWalkableArea
// does: with the boundary distances of shared when another type's bake
// computed them, else computing them and, when this bake leads the types
// that share its compact stages, recording the field before its erosion
// with them.
func (b *Baker) erode(chf *CompactHeightfield, radius, heightfieldSpans int, shared *compactRecord) error {
	if radius < 0 {
		return fmt.Errorf("bake: erode walkable area: radius %d is negative", radius)
	}
	distances := b.erosion
	if shared != nil {
		distances = shared.distances // read only
	} else {
		b.erosion = chf.boundaryDistances(b.erosion)
		distances = b.erosion
		b.share.noteCompacted()
		b.share.recordCompact(&b.heightfield, chf, distances, heightfieldSpans)
	}
	chf.erodeByDistances(distances, radius)
	return nil
}
