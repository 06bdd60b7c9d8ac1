package query

import (
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// fuzzCost turns a byte into an area cost: NaN, infinities, negative,
// huge, tiny, zero and ordinary costs all come up.
func fuzzCost(b byte) float32 {
	switch b % 16 {
	case 0:
		return float32(math.NaN())
	case 1:
		return -1
	case 2:
		return float32(math.Inf(1))
	case 3:
		return math.MaxFloat32
	case 4:
		return 0
	case 5:
		return 1e-30
	case 6:
		return float32(math.Copysign(0, -1))
	case 7:
		return float32(math.Inf(-1))
	case 8:
		return -1e-30
	case 9:
		return 1e30
	}
	return float32(float32(b>>4)/4) + 0.01
}

// fuzzCustom is a Custom rule whose pass and cost answers come from the
// fuzzer's bytes, keyed by the polygon: costs can be NaN, negative or
// infinite, and the same step can cost differently on later calls.
type fuzzCustom struct {
	rule  []byte
	calls atomic.Uint32
}

func (c *fuzzCustom) pick(ref navmesh.Ref, salt uint32) byte {
	if len(c.rule) == 0 {
		return 0xff
	}
	return c.rule[(uint32(ref)*2654435761+salt)%uint32(len(c.rule))]
}

func (c *fuzzCustom) Passes(ref navmesh.Ref, _ *navmesh.Tile, _ *navmesh.Poly) bool {
	return c.pick(ref, 0)&0x80 == 0 || len(c.rule) < 4
}

func (c *fuzzCustom) Cost(a, b geom.Vec3, _, cur, _ PolyContext) float32 {
	salt := uint32(0)
	if c.pick(cur.Ref, 1)&1 != 0 {
		salt = c.calls.Add(1) // a cost that changes from call to call
	}
	return dist(a, b) * fuzzCost(c.pick(cur.Ref, 2+salt))
}

// fuzzLevels are the meshes FuzzQueryFilters runs on: the C++ dungeon tile
// and nav_test solo and tiled.
func fuzzLevels(f *testing.F) []*navmesh.Mesh {
	levels := []*navmesh.Mesh{testmesh.Dungeon(f)}
	for _, path := range []string{"testdata/nav_test_solo.navmesh", "testdata/nav_test_tiled32.navmesh"} {
		mesh, _, err := navmesh.LoadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		levels = append(levels, mesh)
	}
	return levels
}

// fuzzRef picks a polygon of snap from raw bits: mostly a real polygon
// (its index taken modulo the tile's count, plus one past the end), now and
// then the raw bits themselves.
func fuzzRef(snap *navmesh.Snapshot, raw uint64) navmesh.Ref {
	if raw&0xf == 0xf {
		return navmesh.Ref(raw >> 4)
	}
	var tiles []*navmesh.Tile
	for t := snap.NextTile(0); t != nil; t = snap.NextTile(t.Index() + 1) {
		tiles = append(tiles, t)
	}
	tile := tiles[(raw>>4)%uint64(len(tiles))]
	return tile.PolyRefBase() | navmesh.Ref((raw>>20)%uint64(len(tile.Polys)+1))
}

// fuzzPos is a position near polygon ref's first vertex when the fuzzer
// says so (so that searches start on the mesh), else the raw values.
func fuzzPos(snap *navmesh.Snapshot, ref navmesh.Ref, raw geom.Vec3, near bool) geom.Vec3 {
	if tile, poly, err := snap.TileAndPoly(ref); near && err == nil {
		v := tile.Verts[poly.Verts[0]]
		return geom.Vec3{v[0] + float32(math.Mod(float64(raw[0]), 1)), v[1], v[2] + float32(math.Mod(float64(raw[2]), 1))}
	}
	return raw
}

// callTimeout bounds each query call of FuzzQueryFilters: a hang fails the
// input instead of stalling the fuzzer.
const callTimeout = 5 * time.Second

// FuzzQueryFilters runs the searches and the other queries with random
// filters (area costs NaN, infinite, negative, huge, tiny or ordinary,
// random flag masks, sometimes a Custom rule with such costs) from random
// refs and positions on the dungeon and nav_test (solo and tiled). Each
// call must return within callTimeout, without a panic, with one of the
// package's sentinel errors or a result within its buffer; a filter with a
// bad area cost is refused by every query that charges costs, and a path
// found is a chain of linked polygons from the start.
func FuzzQueryFilters(f *testing.F) {
	levels := fuzzLevels(f)
	queries := make([]*Query, len(levels))
	for i, mesh := range levels {
		q, err := New(mesh, 512)
		if err != nil {
			f.Fatal(err)
		}
		queries[i] = q
	}
	f.Add([]byte{0}, uint16(0xffff), uint16(0), uint64(0x1230), uint64(0x4560), float32(1), float32(2), float32(3), float32(4), float32(5), float32(6), uint8(0), uint8(0))
	f.Add([]byte{0x11, 0x22, 0x33}, uint16(0xffef), uint16(0x10), uint64(0x51230), uint64(0x74560), float32(0.5), float32(0), float32(0.5), float32(0.2), float32(0), float32(0.7), uint8(1), uint8(0x12))
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4}, uint16(0xffff), uint16(0), uint64(0x2000f), uint64(0x90000), float32(-1e30), float32(0), float32(1e30), float32(1e30), float32(0), float32(-1e30), uint8(2), uint8(0x21))
	f.Add([]byte{0x80, 0x01, 0x90, 0xa3, 0x00, 0x17}, uint16(1), uint16(0), uint64(0x33330), uint64(0x11110), float32(0.3), float32(0), float32(0.3), float32(0.3), float32(0), float32(0.3), uint8(1), uint8(0xff))
	f.Add([]byte{0xf5, 0xe3, 0x99}, uint16(0xffff), uint16(0xffff), uint64(0x3ff0), uint64(0x1ff0), float32(math.NaN()), float32(0), float32(0), float32(3.4e38), float32(3.4e38), float32(-3.4e38), uint8(0), uint8(0x43))

	f.Fuzz(func(t *testing.T, rule []byte, include, exclude uint16, rawStart, rawEnd uint64,
		sx, sy, sz, ex, ey, ez float32, level, mode uint8) {
		q := queries[int(level)%len(queries)]
		snap := q.Mesh().Snapshot()
		filter := &Filter{IncludeFlags: include, ExcludeFlags: exclude}
		for area := range filter.AreaCost {
			filter.AreaCost[area] = 1
			if len(rule) > 0 {
				filter.AreaCost[area] = fuzzCost(rule[area%len(rule)])
			}
		}
		if mode&1 != 0 {
			filter.Custom = &fuzzCustom{rule: rule}
		}
		badCosts := filter.Custom == nil && filter.Validate() != nil
		startRef, endRef := fuzzRef(snap, rawStart), fuzzRef(snap, rawEnd)
		start := fuzzPos(snap, startRef, geom.Vec3{sx, sy, sz}, mode&2 == 0)
		end := fuzzPos(snap, endRef, geom.Vec3{ex, ey, ez}, mode&4 == 0)
		radius := float32(mode>>3) * 2

		var running atomic.Value
		done := make(chan struct{})
		go func() {
			defer close(done)
			runFilterQueries(t, q, filter, badCosts, startRef, endRef, start, end, radius, mode, &running)
		}()
		select {
		case <-done:
		case <-time.After(callTimeout):
			t.Fatalf("%v did not return within %v", running.Load(), callTimeout)
		}
	})
}

// runFilterQueries is FuzzQueryFilters' body; running names the call under
// way for the watchdog.
func runFilterQueries(t *testing.T, q *Query, filter *Filter, badCosts bool, startRef, endRef navmesh.Ref,
	start, end geom.Vec3, radius float32, mode uint8, running *atomic.Value) {
	var buf [32]navmesh.Ref
	var parents [32]navmesh.Ref
	var costs [32]float32
	rng := &testmesh.LCG{State: uint64(startRef) ^ uint64(endRef)<<1}
	check := func(name string, n, max int, err error, chargesCosts bool) bool {
		if err != nil {
			if !errors.Is(err, ErrInvalidParam) && !errors.Is(err, ErrInvalidRef) &&
				!errors.Is(err, ErrNotFound) && !errors.Is(err, ErrNoSlicedQuery) {
				t.Errorf("%s: unexpected error %v", name, err)
			}
			return false
		}
		if chargesCosts && badCosts {
			t.Errorf("%s: accepted area costs %v", name, filter.AreaCost)
		}
		if n < 0 || n > max {
			t.Errorf("%s: count %d outside 0..%d", name, n, max)
		}
		return true
	}
	call := func(name string) { running.Store(name) }

	call("FindPath")
	n, _, err := q.FindPath(startRef, endRef, start, end, filter, buf[:])
	if check("FindPath", n, len(buf), err, true) {
		checkChain(t, q, startRef, buf[:n])
	}

	call("sliced find path")
	status, err := q.InitSlicedFindPath(startRef, endRef, start, end, filter, FindPathOptions(mode&2))
	if check("InitSlicedFindPath", 0, 0, err, true) {
		for i := 0; err == nil && status.InProgress() && i < 1000; i++ {
			_, status, err = q.UpdateSlicedFindPath(int(mode%5) + 1)
			check("UpdateSlicedFindPath", 0, 0, err, true)
		}
		n, _, err = q.FinalizeSlicedFindPath(buf[:])
		if check("FinalizeSlicedFindPath", n, len(buf), err, true) && mode&2 == 0 {
			checkChain(t, q, startRef, buf[:n])
		}
	}

	call("FindPolysAroundCircle")
	n, _, err = q.FindPolysAroundCircle(startRef, start, radius, filter, buf[:], parents[:], costs[:])
	if check("FindPolysAroundCircle", n, len(buf), err, true) && n > 0 {
		call("PathFromDijkstraSearch")
		k, _, err := q.PathFromDijkstraSearch(buf[n-1], parents[:])
		check("PathFromDijkstraSearch", k, len(parents), err, false)
	}
	call("FindPolysAroundShape")
	shape := []geom.Vec3{start, end, {start[0] + radius, start[1], end[2]}}
	n, _, err = q.FindPolysAroundShape(startRef, shape, filter, buf[:], nil, costs[:])
	check("FindPolysAroundShape", n, len(buf), err, true)
	call("Raycast")
	hit, _, err := q.Raycast(startRef, start, end, filter, RaycastUseCosts, 0, buf[:])
	check("Raycast", hit.PathCount, len(buf), err, true)

	call("FindNearestPoly")
	_, err = q.FindNearestPoly(start, geom.Vec3{2, 4, 2}, filter)
	check("FindNearestPoly", 0, 0, err, false)
	call("FindNearestPolyInComponent")
	_, err = q.FindNearestPolyInComponent(startRef, end, filter)
	check("FindNearestPolyInComponent", 0, 0, err, false)
	call("OutOfReach")
	q.OutOfReach(startRef, endRef, filter)
	call("MoveAlongSurface")
	_, n, _, err = q.MoveAlongSurface(startRef, start, end, filter, buf[:])
	check("MoveAlongSurface", n, len(buf), err, false)
	call("FindDistanceToWall")
	_, _, err = q.FindDistanceToWall(startRef, start, radius, filter)
	check("FindDistanceToWall", 0, 0, err, false)
	call("FindLocalNeighbourhood")
	n, _, err = q.FindLocalNeighbourhood(startRef, start, radius, filter, buf[:], parents[:])
	check("FindLocalNeighbourhood", n, len(buf), err, false)
	call("FindRandomPointAroundCircle")
	_, _, err = q.FindRandomPointAroundCircle(startRef, start, radius, filter, rng.Next)
	check("FindRandomPointAroundCircle", 0, 0, err, false)
	if mode&0x80 != 0 {
		call("LargestComponentSampler")
		_, err = LargestComponentSampler(q.Mesh().Snapshot(), filter)
		check("LargestComponentSampler", 0, 0, err, false)
	}
}

// checkChain reports a path that does not start at start or whose
// consecutive polygons are not linked.
func checkChain(t *testing.T, q *Query, start navmesh.Ref, path []navmesh.Ref) {
	if len(path) == 0 {
		t.Errorf("an empty path without an error")
		return
	}
	if path[0] != start {
		t.Errorf("the path starts at %#x, not at %#x", uint64(path[0]), uint64(start))
	}
	snap := q.Mesh().Snapshot()
	for i := 1; i < len(path); i++ {
		tile, poly, err := snap.TileAndPoly(path[i-1])
		if err != nil {
			t.Errorf("path polygon %d: %v", i-1, err)
			return
		}
		linked := false
		for l := poly.FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
			linked = linked || tile.Links[l].Ref == path[i]
		}
		if !linked {
			t.Errorf("path polygons %d and %d are not linked", i-1, i)
		}
	}
}
