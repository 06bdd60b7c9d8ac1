package crowd

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

type mergeCase struct {
	name     string
	path     []navmesh.Ref // the whole buffer
	count    int
	visited  []navmesh.Ref
	want     int
	wantPath []navmesh.Ref // the whole buffer afterwards
}

func runMergeCases(t *testing.T, merge func([]navmesh.Ref, int, []navmesh.Ref) int, cases []mergeCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			path := append([]navmesh.Ref(nil), tt.path...)
			got := merge(path, tt.count, tt.visited)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantPath, path)
		})
	}
}

// Port of Tests/DetourCrowd/Tests_DetourPathCorridor.cpp.
func TestMergeCorridorStartMoved(t *testing.T) {
	runMergeCases(t, MergeCorridorStartMoved, []mergeCase{
		{"empty input", nil, 0, nil, 0, nil},
		{"empty visited", []navmesh.Ref{1}, 1, nil, 1, []navmesh.Ref{1}},
		{"empty path", nil, 0, []navmesh.Ref{1}, 0, nil},
		{"strips visited points from path except last",
			[]navmesh.Ref{1, 2}, 2, []navmesh.Ref{1, 2}, 1, []navmesh.Ref{2, 2}},
		{"adds visited points not in path in reverse order",
			[]navmesh.Ref{1, 2, 0}, 2, []navmesh.Ref{1, 2, 3, 4}, 3, []navmesh.Ref{4, 3, 2}},
		{"adds visited points not in path up to the capacity",
			[]navmesh.Ref{1, 2, 0}, 2, []navmesh.Ref{1, 2, 3, 4, 5}, 3, []navmesh.Ref{5, 4, 3}},
		{"no intersection leaves path",
			[]navmesh.Ref{1, 2}, 2, []navmesh.Ref{3, 4}, 2, []navmesh.Ref{1, 2}},
		{"saves unvisited path points",
			[]navmesh.Ref{1, 2, 0}, 2, []navmesh.Ref{1, 3}, 3, []navmesh.Ref{3, 1, 2}},
		{"saves unvisited path points up to the capacity",
			[]navmesh.Ref{1, 2}, 2, []navmesh.Ref{1, 3}, 2, []navmesh.Ref{3, 1}},
		// Beyond the C++ tests.
		{"shared polygon furthest along the path wins",
			[]navmesh.Ref{1, 2, 3, 4, 5, 0}, 5, []navmesh.Ref{1, 7, 3}, 3, []navmesh.Ref{3, 4, 5, 4, 5, 0}},
		{"count beyond buffer is clamped",
			[]navmesh.Ref{1, 2}, 9, []navmesh.Ref{1, 3}, 2, []navmesh.Ref{3, 1}},
		{"negative count keeps nothing", []navmesh.Ref{1, 2}, -1, []navmesh.Ref{1}, 0, []navmesh.Ref{1, 2}},
	})
}

func TestMergeCorridorEndMoved(t *testing.T) {
	runMergeCases(t, MergeCorridorEndMoved, []mergeCase{
		{"empty input", nil, 0, nil, 0, nil},
		{"no intersection leaves path",
			[]navmesh.Ref{1, 2, 0}, 2, []navmesh.Ref{3, 4}, 2, []navmesh.Ref{1, 2, 0}},
		{"target moved into a new polygon",
			[]navmesh.Ref{1, 2, 3, 0}, 3, []navmesh.Ref{3, 4}, 4, []navmesh.Ref{1, 2, 3, 4}},
		{"target moved back along the path trims it",
			[]navmesh.Ref{1, 2, 3, 0}, 3, []navmesh.Ref{3, 2}, 2, []navmesh.Ref{1, 2, 3, 0}},
		{"first shared polygon cuts the path",
			[]navmesh.Ref{1, 2, 3, 4, 0}, 4, []navmesh.Ref{2, 5, 6}, 4, []navmesh.Ref{1, 2, 5, 6, 0}},
		{"visited beyond the capacity is cut",
			[]navmesh.Ref{1, 2, 3}, 3, []navmesh.Ref{2, 5, 6, 7}, 3, []navmesh.Ref{1, 2, 5}},
	})
}

func TestMergeCorridorStartShortcut(t *testing.T) {
	runMergeCases(t, MergeCorridorStartShortcut, []mergeCase{
		{"empty input", nil, 0, nil, 0, nil},
		{"no intersection leaves path",
			[]navmesh.Ref{1, 2, 3}, 3, []navmesh.Ref{7, 8}, 3, []navmesh.Ref{1, 2, 3}},
		{"shortcut to the start itself changes nothing",
			[]navmesh.Ref{1, 2, 3}, 3, []navmesh.Ref{1}, 3, []navmesh.Ref{1, 2, 3}},
		{"shortcut skips polygons",
			[]navmesh.Ref{1, 2, 3, 4, 5, 6}, 6, []navmesh.Ref{1, 9, 5}, 4, []navmesh.Ref{1, 9, 5, 6, 5, 6}},
		{"longer shortcut grows the path",
			[]navmesh.Ref{1, 2, 3, 0, 0}, 3, []navmesh.Ref{1, 7, 8, 3}, 4, []navmesh.Ref{1, 7, 8, 3, 0}},
		{"growth is capped by the buffer",
			[]navmesh.Ref{1, 2, 3, 4}, 4, []navmesh.Ref{1, 7, 8, 3}, 4, []navmesh.Ref{1, 7, 8, 3}},
		{"shortcut longer than the buffer is cut, not overrun",
			[]navmesh.Ref{1, 2, 3}, 3, []navmesh.Ref{1, 7, 8, 9, 3}, 3, []navmesh.Ref{1, 7, 8}},
	})
}

// TestMergeCorridorStartShortcutOnePolygon: a corridor of one polygon stays
// as it is for any shortcut that starts in that polygon, as a raycast's
// does (what lets OptimizePathVisibility skip the ray for it).
func TestMergeCorridorStartShortcutOnePolygon(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := 0; trial < 500; trial++ {
		first := navmesh.Ref(1 + rng.IntN(5))
		visited := []navmesh.Ref{first}
		for k := rng.IntN(12); k > 0; k-- {
			visited = append(visited, navmesh.Ref(1+rng.IntN(5)))
		}
		path := []navmesh.Ref{first, 0, 0, 0}
		n := MergeCorridorStartShortcut(path, 1, visited)
		require.Equal(t, 1, n, "visited %v", visited)
		require.Equal(t, []navmesh.Ref{first, 0, 0, 0}, path, "visited %v", visited)
	}
}
