package hierarchy

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireSameAsFindPath checks that the Searcher's answer is FindPath's,
// polygon for polygon, and says why it fell back.
func requireSameAsFindPath(t *testing.T, mesh *navmesh.Mesh, s *Searcher, p pathPair, filter *query.Filter, want Fallback) {
	t.Helper()
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	want1 := make([]navmesh.Ref, 1024)
	got := make([]navmesh.Ref, 1024)
	n, status, err := q.FindPath(p.startRef, p.endRef, p.start, p.end, filter, want1)
	require.NoError(t, err)
	r, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, got)
	require.NoError(t, err)
	assert.Equal(t, want, r.Fallback)
	assert.Equal(t, status, r.Status)
	assert.Equal(t, want1[:n], got[:r.Count])
}

func TestFallbackForOtherFilters(t *testing.T) {
	mesh := testMesh(t, "dungeon")
	h, err := New(mesh, demoFilter(), Options{})
	require.NoError(t, err)
	q, _ := query.New(mesh, 2048)
	s, _ := NewSearcher(q, h)
	other := demoFilter()
	other.AreaCost[5] = 2
	assert.False(t, h.Matches(other))
	assert.True(t, h.Matches(demoFilter()))
	assert.True(t, h.Matches(h.Filter()))
	for _, p := range randomPairs(t, mesh, other, 20, 1) {
		requireSameAsFindPath(t, mesh, s, p, other, FallbackFilter)
	}
	assert.Nil(t, s.HierarchyFor(other))

	// A Custom rule never matches, even with the same default rules.
	custom := demoFilter()
	custom.Custom = passAll{}
	assert.False(t, h.Matches(custom))
	p := randomPairs(t, mesh, custom, 1, 2)[0]
	requireSameAsFindPath(t, mesh, s, p, custom, FallbackFilter)
}

type passAll struct{}

func (passAll) Passes(navmesh.Ref, *navmesh.Tile, *navmesh.Poly) bool { return true }
func (passAll) Cost(a, b geom.Vec3, _, _, _ query.PolyContext) float32 {
	return geom.Dist(a, b)
}

func TestFallbackFromAnExcludedStart(t *testing.T) {
	mesh := testMesh(t, "dungeon")
	filter := demoFilter()
	filter.ExcludeFlags = disabledFlag
	pairs := randomPairs(t, mesh, filter, 10, 4)
	for _, p := range pairs {
		flags, err := mesh.Snapshot().PolyFlags(p.startRef)
		require.NoError(t, err)
		require.NoError(t, mesh.SetPolyFlags(p.startRef, flags|disabledFlag))
	}
	h, err := New(mesh, filter, Options{})
	require.NoError(t, err)
	q, _ := query.New(mesh, 2048)
	s, _ := NewSearcher(q, h)
	for _, p := range pairs {
		if p.startRef != p.endRef {
			requireSameAsFindPath(t, mesh, s, p, filter, FallbackStartExcluded)
		}
	}
}

// offMeshDungeon bakes the tiled dungeon with off-mesh connections
// between far points of its largest component, one-way or both ways.
func offMeshDungeon(t *testing.T, bidirectional bool) *navmesh.Mesh {
	t.Helper()
	g, err := bake.LoadOBJ("../../testdata/dungeon.obj")
	require.NoError(t, err)
	settings := bake.DefaultSettings()
	settings.TileSize = 32
	plain, err := bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
	require.NoError(t, err)
	plainMesh, err := plain.NavMesh()
	require.NoError(t, err)
	snap := plainMesh.Snapshot()
	for _, p := range randomPairs(t, plainMesh, demoFilter(), 40, 8) {
		if snap.SameComponent(p.startRef, p.endRef) && geom.Dist(p.start, p.end) > 10 {
			g.OffMeshConnections = append(g.OffMeshConnections, bake.OffMeshConnection{
				Start: p.start, End: p.end, Radius: 0.6, Bidirectional: bidirectional, Flags: bake.DemoFlagJump, Area: 5,
			})
			if len(g.OffMeshConnections) == 3 {
				break
			}
		}
	}
	require.NotEmpty(t, g.OffMeshConnections)
	r, err := bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
	require.NoError(t, err)
	mesh, err := r.NavMesh()
	require.NoError(t, err)
	return mesh
}

// TestFallbackWithOneWayConnections: searches from a component with a
// one-way off-mesh connection go to plain A*.
func TestFallbackWithOneWayConnections(t *testing.T) {
	mesh := offMeshDungeon(t, false)
	filter := demoFilter()
	h, err := New(mesh, filter, Options{})
	require.NoError(t, err)
	q, _ := query.New(mesh, 2048)
	s, _ := NewSearcher(q, h)
	conn := mesh.Snapshot().FlagConnectivity(filter.IncludeFlags, filter.ExcludeFlags)
	oneWay := 0
	for _, p := range randomPairs(t, mesh, filter, 60, 9) {
		if p.startRef == p.endRef {
			continue
		}
		if info, _ := conn.Info(conn.Component(p.startRef)); info.OneWay {
			requireSameAsFindPath(t, mesh, s, p, filter, FallbackOneWay)
			oneWay++
		}
	}
	assert.Positive(t, oneWay)
}

func TestBadInput(t *testing.T) {
	mesh := testMesh(t, "dungeon")
	filter := demoFilter()
	custom := demoFilter()
	custom.Custom = passAll{}
	negative := demoFilter()
	negative.AreaCost[3] = -1
	infinite := demoFilter()
	infinite.AreaCost[3] = float32(math.Inf(1))
	for name, build := range map[string]func() (*Hierarchy, error){
		"nil mesh":        func() (*Hierarchy, error) { return New(nil, filter, Options{}) },
		"nil filter":      func() (*Hierarchy, error) { return New(mesh, nil, Options{}) },
		"custom filter":   func() (*Hierarchy, error) { return New(mesh, custom, Options{}) },
		"negative cost":   func() (*Hierarchy, error) { return New(mesh, negative, Options{}) },
		"infinite cost":   func() (*Hierarchy, error) { return New(mesh, infinite, Options{}) },
		"cluster size":    func() (*Hierarchy, error) { return New(mesh, filter, Options{ClusterSize: MaxClusterSize + 1}) },
		"negative size":   func() (*Hierarchy, error) { return New(mesh, filter, Options{ClusterSize: -1}) },
		"port width":      func() (*Hierarchy, error) { return New(mesh, filter, Options{MaxPortWidth: -1}) },
		"NaN port width":  func() (*Hierarchy, error) { return New(mesh, filter, Options{MaxPortWidth: float32(math.NaN())}) },
		"workers":         func() (*Hierarchy, error) { return New(mesh, filter, Options{Workers: -1}) },
		"landmarks":       func() (*Hierarchy, error) { return New(mesh, filter, Options{Landmarks: MaxLandmarks + 1}) },
		"landmarks below": func() (*Hierarchy, error) { return New(mesh, filter, Options{Landmarks: -1}) },
	} {
		h, err := build()
		assert.ErrorIs(t, err, ErrInvalidParam, name)
		assert.Nil(t, h, name)
	}

	h, err := New(mesh, filter, Options{})
	require.NoError(t, err)
	_, err = NewSearcher(nil, h)
	assert.ErrorIs(t, err, ErrInvalidParam)
	otherMesh := testMesh(t, "dungeon")
	otherQuery, _ := query.New(otherMesh, 64)
	_, err = NewSearcher(otherQuery, h)
	assert.ErrorIs(t, err, ErrInvalidParam)
	_, err = NewSearcher(otherQuery, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)

	q, _ := query.New(mesh, 64)
	s, err := NewSearcher(q, h)
	require.NoError(t, err)
	p := randomPairs(t, mesh, filter, 1, 1)[0]
	path := make([]navmesh.Ref, 16)
	nan := geom.Vec3{float32(math.NaN()), 0, 0}
	for name, call := range map[string]func() error{
		"zero start": func() error { _, err := s.FindPath(0, p.endRef, p.start, p.end, filter, path); return err },
		"stale end": func() error {
			_, err := s.FindPath(p.startRef, p.endRef+1<<47, p.start, p.end, filter, path)
			return err
		},
		"NaN start":    func() error { _, err := s.FindPath(p.startRef, p.endRef, nan, p.end, filter, path); return err },
		"nil filter":   func() error { _, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, nil, path); return err },
		"empty buffer": func() error { _, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, nil); return err },
		"sliced init":  func() error { _, err := s.InitSlicedFindPath(p.startRef, 0, p.start, p.end, filter); return err },
	} {
		err := call()
		assert.True(t, errors.Is(err, ErrInvalidRef) || errors.Is(err, ErrInvalidParam), "%s: %v", name, err)
	}
	// No sliced search in progress.
	_, _, err = s.UpdateSlicedFindPath(10)
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
	_, err = s.FinalizeSlicedFindPath(path)
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
	_, err = s.FinalizeSlicedFindPath(nil)
	assert.ErrorIs(t, err, ErrBufferTooSmall)
	// The Searcher still works afterwards.
	_, err = s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
	assert.NoError(t, err)
}

// TestOffMeshConnectionsBothWays: with two-way off-mesh connections the
// hierarchy answers, reaching what A* reaches.
func TestOffMeshConnectionsBothWays(t *testing.T) {
	mesh := offMeshDungeon(t, true)
	filter := demoFilter()
	h, err := New(mesh, filter, Options{ClusterSize: 2})
	require.NoError(t, err)
	q, _ := query.New(mesh, 64)
	s, _ := NewSearcher(q, h)
	quality := comparePaths(t, mesh, s, filter, randomPairs(t, mesh, filter, 300, 10))
	costMean, costP99 := summary(quality.costRatios)
	assert.LessOrEqual(t, costMean, 1.01)
	assert.LessOrEqual(t, costP99, 1.05)
}

// TestEmptyMeshAndOneTile: a mesh without tiles, and one of a single tile
// (no ports at all), build and answer.
func TestEmptyMeshAndOneTile(t *testing.T) {
	mesh, err := navmesh.New(navmesh.Params{TileWidth: 10, TileHeight: 10, MaxTiles: 4, MaxPolys: 16})
	require.NoError(t, err)
	h, err := New(mesh, demoFilter(), Options{})
	require.NoError(t, err)
	assert.Zero(t, h.Stats().Tiles)

	solo, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	filter := demoFilter()
	h, err = New(solo, filter, Options{})
	require.NoError(t, err)
	stats := h.Stats()
	assert.Equal(t, 1, stats.Tiles)
	assert.Zero(t, stats.Ports)
	q, _ := query.New(solo, 2048)
	s, _ := NewSearcher(q, h)
	quality := comparePaths(t, solo, s, filter, randomPairs(t, solo, filter, 200, 5))
	mean, _ := summary(quality.costRatios)
	assert.LessOrEqual(t, mean, 1.01)
}
