package crowd

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gridAgents are (x, z) agent positions added with radius 0.6 to a grid of
// 1.8-wide cells (the crowd's 3 radii), ids 1..10.
var gridAgents = [][2]float32{
	{0.5, 0.5}, {1.2, 0.4}, {-3.1, 2.2}, {5.0, 5.0}, {1.79, 1.81},
	{-0.2, -0.3}, {10.0, -7.5}, {3.6, 0.0}, {-3.5, 2.0}, {0.9, 1.0},
}

func newTestGrid(t testing.TB) *ProximityGrid {
	g, err := NewProximityGrid(40, 1.8)
	require.NoError(t, err)
	for i, p := range gridAgents {
		const r = 0.6
		require.NoError(t, g.Add(uint32(i+1), p[0]-r, p[1]-r, p[0]+r, p[1]+r))
	}
	return g
}

func TestProximityGridMatchesReference(t *testing.T) {
	// Expected values from dtProximityGrid (g++ -O2) fed the same agents.
	// Checked by hand for the cell at the origin: the ids whose boxes touch
	// cell (0, 0), [0, 1.8)², newest first, are 10, 6, 5, 2, 1.
	g := newTestGrid(t)
	assert.Equal(t, 35, g.Len())

	minX, minY, maxX, maxY := g.Bounds()
	assert.Equal(t, []int{-3, -5, 5, 3}, []int{minX, minY, maxX, maxY})

	tests := []struct {
		name                   string
		minX, minY, maxX, maxY float32
		capacity               int
		want                   []uint32
	}{
		{"around origin", -1, -1, 1, 1, 32, []uint32{6, 1, 2, 10, 5}},
		{"one cell", 0, 0, 0, 0, 32, []uint32{10, 6, 5, 2, 1}},
		{"query range 7.2", -7.2, -7.2, 7.2, 7.2, 32, []uint32{6, 1, 2, 8, 9, 3, 10, 5, 4}},
		{"far agent", 9, -8, 11, -7, 32, []uint32{7}},
		{"left pair", -4, 1.5, -3, 2.5, 32, []uint32{9, 3}},
		{"empty area", 20, 20, 30, 30, 32, []uint32{}},
		{"cell corner", 1.7, 1.7, 1.9, 1.9, 32, []uint32{10, 6, 5, 2, 1, 8}},
		{"stops when full", -7.2, -7.2, 7.2, 7.2, 3, []uint32{6, 1, 2}},
		{"no room", -7.2, -7.2, 7.2, 7.2, 0, []uint32{}},
		// Row y = -5 (agent 7) comes first over the whole grid.
		{"huge rectangle", -1e30, -1e30, 1e30, 1e30, 32, []uint32{7, 6, 1, 2, 8, 9, 3, 10, 5, 4}},
		{"infinite rectangle", float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.Inf(1)), 32,
			[]uint32{7, 6, 1, 2, 8, 9, 3, 10, 5, 4}},
		{"NaN finds nothing", float32(math.NaN()), 0, 1, 1, 32, []uint32{}},
		{"inverted finds nothing", 1, 1, -1, -1, 32, []uint32{}},
	}
	for _, indexed := range []bool{false, true} {
		if indexed {
			require.True(t, g.Index())
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/indexed=%v", tt.name, indexed), func(t *testing.T) {
				dst := make([]uint32, tt.capacity)
				n := g.QueryItems(tt.minX, tt.minY, tt.maxX, tt.maxY, dst)
				assert.Equal(t, tt.want, dst[:n])
			})
		}
	}

	counts := [][]int{ // y = -2..2, x = -3..3
		{0, 0, 0, 0, 0, 0, 0},
		{0, 0, 2, 3, 2, 1, 0},
		{2, 2, 2, 5, 3, 1, 0},
		{2, 2, 0, 1, 1, 0, 0},
		{0, 0, 0, 0, 0, 1, 1},
	}
	for y := -2; y <= 2; y++ {
		for x := -3; x <= 3; x++ {
			assert.Equal(t, counts[y+2][x+3], g.ItemCountAt(x, y), "cell (%d, %d)", x, y)
		}
	}
}

func TestProximityGridClear(t *testing.T) {
	g := newTestGrid(t)
	g.Clear()
	assert.Equal(t, 0, g.Len())
	minX, minY, maxX, maxY := g.Bounds()
	assert.Equal(t, []int{0xffff, 0xffff, -0xffff, -0xffff}, []int{minX, minY, maxX, maxY})
	dst := make([]uint32, 8)
	assert.Equal(t, 0, g.QueryItems(-100, -100, 100, 100, dst))

	require.NoError(t, g.Add(42, 0.1, 0.1, 0.2, 0.2))
	n := g.QueryItems(-100, -100, 100, 100, dst)
	assert.Equal(t, []uint32{42}, dst[:n])
}

func TestProximityGridFarCells(t *testing.T) {
	// The reference keeps cell coordinates in 16 bits and loses items beyond
	// ±32767 cells; we keep 32.
	g, err := NewProximityGrid(8, 1)
	require.NoError(t, err)
	require.NoError(t, g.Add(1, 70000.5, -90000.5, 70000.5, -90000.5))
	require.NoError(t, g.Add(2, -1e8, 1e8, -1e8, 1e8))
	dst := make([]uint32, 4)
	n := g.QueryItems(70000, -90001, 70001, -90000, dst)
	assert.Equal(t, []uint32{1}, dst[:n])
	assert.Equal(t, 1, g.ItemCountAt(70000, -90001))
	n = g.QueryItems(-1e8, 1e8, -1e8, 1e8, dst)
	assert.Equal(t, []uint32{2}, dst[:n])
}

func TestProximityGridErrors(t *testing.T) {
	_, err := NewProximityGrid(0, 1)
	assert.True(t, errors.Is(err, ErrInvalidParam))
	_, err = NewProximityGrid(MaxProximityGridCapacity+1, 1)
	assert.True(t, errors.Is(err, ErrInvalidParam))
	for _, size := range []float32{0, -1, float32(math.NaN()), float32(math.Inf(1))} {
		_, err = NewProximityGrid(4, size)
		assert.True(t, errors.Is(err, ErrInvalidParam), "cell size %v", size)
	}

	g, err := NewProximityGrid(4, 1)
	require.NoError(t, err)
	require.NoError(t, g.Add(1, 0.5, 0.5, 1.5, 0.5)) // 2 cells
	before := g.Len()

	err = g.Add(2, 0.5, 0.5, 1.5, 1.5) // 4 cells, 2 free
	assert.True(t, errors.Is(err, ErrCapacity), "%v", err)
	assert.Equal(t, before, g.Len(), "a failed add stores nothing")

	for _, bad := range [][4]float32{
		{float32(math.NaN()), 0, 1, 1},
		{0, 0, float32(math.Inf(1)), 1},
		{0, -2e9, 1, 1},
	} {
		err = g.Add(3, bad[0], bad[1], bad[2], bad[3])
		assert.True(t, errors.Is(err, ErrInvalidParam), "%v", bad)
	}
	assert.Equal(t, before, g.Len())
	minX, minY, maxX, maxY := g.Bounds()
	assert.Equal(t, []int{0, 0, 1, 0}, []int{minX, minY, maxX, maxY}, "failed adds leave the bounds alone")

	require.NoError(t, g.Add(4, 1.5, 0.5, 1.9, 0.9)) // exactly fills the pool
	assert.Equal(t, 3, g.Len())
}

func TestProximityGridDoesNotAllocate(t *testing.T) {
	g := newTestGrid(t)
	dst := make([]uint32, 32)
	allocs := testing.AllocsPerRun(100, func() {
		g.Clear()
		for i, p := range gridAgents {
			_ = g.Add(uint32(i+1), p[0]-0.6, p[1]-0.6, p[0]+0.6, p[1]+0.6)
		}
		g.Index()
		g.QueryItems(-7.2, -7.2, 7.2, 7.2, dst)
	})
	assert.Zero(t, allocs)
}

// TestProximityGridReserveIndex checks that after ReserveIndex over the
// agents' bounds the first Index allocates nothing.
func TestProximityGridReserveIndex(t *testing.T) {
	g, err := NewProximityGrid(40, 1.8)
	require.NoError(t, err)
	g.ReserveIndex(-3.5-0.6, -7.5-0.6, 10.0+0.6, 5.0+0.6)
	for i, p := range gridAgents {
		require.NoError(t, g.Add(uint32(i+1), p[0]-0.6, p[1]-0.6, p[0]+0.6, p[1]+0.6))
	}
	// Not testing.AllocsPerRun: its warm-up run would index first.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	indexed := g.Index()
	runtime.ReadMemStats(&after)
	assert.True(t, indexed)
	assert.Zero(t, after.Mallocs-before.Mallocs)
	g.ReserveIndex(float32(math.NaN()), 0, 1, 1) // reserves nothing more, does not panic
}

// BenchmarkProximityGrid fills a grid and asks for every agent's
// neighbours within 7.2 (the crowd's query range), walking the hash chains
// and with the cell index (Index, built once per fill, counted in): 1000
// agents on a 60×60 area and 10,000 spread over 1 km² as on a large level.
func BenchmarkProximityGrid(b *testing.B) {
	for _, c := range []struct {
		agents int
		side   float32
	}{{1000, 60}, {10000, 1000}} {
		g, err := NewProximityGrid(c.agents*4, 1.8)
		require.NoError(b, err)
		positions := make([][2]float32, c.agents)
		seed := uint32(1)
		next := func() float32 {
			seed = seed*1664525 + 1013904223
			return float32(seed>>8) / float32(1<<24) * c.side
		}
		for i := range positions {
			positions[i] = [2]float32{next(), next()}
		}
		dst := make([]uint32, 32)
		for _, indexed := range []bool{false, true} {
			b.Run(fmt.Sprintf("agents=%d/side=%v/indexed=%v", c.agents, c.side, indexed), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					g.Clear()
					for id, p := range positions {
						_ = g.Add(uint32(id), p[0]-0.6, p[1]-0.6, p[0]+0.6, p[1]+0.6)
					}
					if indexed {
						g.Index()
					}
					for _, p := range positions {
						g.QueryItems(p[0]-7.2, p[1]-7.2, p[0]+7.2, p[1]+7.2, dst)
					}
				}
			})
		}
	}
}

// FuzzProximityGrid checks QueryItems against a brute-force answer: the ids
// whose cell range meets the query's, each once, for rectangles decoded from
// the fuzz input.
func FuzzProximityGrid(f *testing.F) {
	f.Add([]byte{0, 0, 10, 10, 5, 5, 20, 20, 1, 1, 2, 2}, []byte{0, 0, 255, 255})
	f.Add([]byte{200, 200, 210, 205, 3, 250, 4, 252}, []byte{100, 100, 101, 101})
	f.Fuzz(func(t *testing.T, rects, queryRect []byte) {
		if len(queryRect) < 4 {
			return
		}
		g, err := NewProximityGrid(64, 1.5)
		require.NoError(t, err)
		// Coordinates in -64..63.5 world units, in steps of 0.5.
		coord := func(b byte) float32 { return float32(int(b)-128) * 0.5 }
		cell := func(v float32) int { return int(math.Floor(float64(v / 1.5))) }
		type box struct{ minX, minY, maxX, maxY int }
		var added []box
		for i := 0; i+3 < len(rects); i += 4 {
			minX, minY := coord(rects[i]), coord(rects[i+1])
			maxX, maxY := coord(rects[i+2]), coord(rects[i+3])
			if err := g.Add(uint32(len(added)), minX, minY, maxX, maxY); err != nil {
				require.ErrorIs(t, err, ErrCapacity)
				added = append(added, box{1, 1, 0, 0}) // stored nowhere
				continue
			}
			added = append(added, box{cell(minX), cell(minY), cell(maxX), cell(maxY)})
		}
		qMinX, qMinY := coord(queryRect[0]), coord(queryRect[1])
		qMaxX, qMaxY := coord(queryRect[2]), coord(queryRect[3])
		want := map[uint32]bool{}
		for id, b := range added {
			if b.minX > b.maxX || b.minY > b.maxY {
				continue
			}
			if max(b.minX, cell(qMinX)) <= min(b.maxX, cell(qMaxX)) &&
				max(b.minY, cell(qMinY)) <= min(b.maxY, cell(qMaxY)) {
				want[uint32(id)] = true
			}
		}
		dst := make([]uint32, len(added)+1)
		n := g.QueryItems(qMinX, qMinY, qMaxX, qMaxY, dst)
		got := map[uint32]bool{}
		for _, id := range dst[:n] {
			require.False(t, got[id], "id %d reported twice", id)
			got[id] = true
		}
		require.Equal(t, want, got)
		// The index gives the same ids in the same order.
		if g.Index() {
			indexed := make([]uint32, len(dst))
			m := g.QueryItems(qMinX, qMinY, qMaxX, qMaxY, indexed)
			require.Equal(t, dst[:n], indexed[:m])
		}
	})
}

// bruteForceQuery returns what QueryItems must return for the rectangles
// added (in order, as cell ranges) and a query cell range: the cells row by
// row, within a cell the newest rectangle first, each id at its first
// appearance, at most capacity ids.
func bruteForceQuery(ids []uint32, rects [][4]int, query [4]int, capacity int) []uint32 {
	out := []uint32{}
	seen := map[uint32]bool{}
	for y := query[1]; y <= query[3]; y++ {
		for x := query[0]; x <= query[2]; x++ {
			for i := len(rects) - 1; i >= 0; i-- {
				r := rects[i]
				if x < r[0] || x > r[2] || y < r[1] || y > r[3] || seen[ids[i]] {
					continue
				}
				if len(out) == capacity {
					return out
				}
				seen[ids[i]] = true
				out = append(out, ids[i])
			}
		}
	}
	return out
}

// TestProximityGridQueryOrder checks the order of QueryItems against
// bruteForceQuery on random crowds, with ids added in increasing order (one
// rectangle per id, the crowd's case) and with ids repeated and shuffled,
// walking the hash chains and then with the cell index.
func TestProximityGridQueryOrder(t *testing.T) {
	const cellSize = 1.5
	cell := func(v float32) int { return int(math.Floor(float64(v * (1 / float32(cellSize))))) }
	for _, repeated := range []bool{false, true} {
		for seed := uint64(1); seed <= 40; seed++ {
			rng := rand.New(rand.NewPCG(seed, 7))
			coord := func() float32 { return float32(float32(rng.IntN(80)-40) * 0.25) }
			g, err := NewProximityGrid(4096, cellSize)
			require.NoError(t, err)
			var ids []uint32
			var rects [][4]int
			for i := 0; i < 60; i++ {
				x, y := coord(), coord()
				w, h := float32(float32(rng.IntN(8))*0.25), float32(float32(rng.IntN(8))*0.25)
				id := uint32(2*i + rng.IntN(2))
				if repeated {
					id = uint32(rng.IntN(20))
				}
				require.NoError(t, g.Add(id, x, y, x+w, y+h))
				ids = append(ids, id)
				rects = append(rects, [4]int{cell(x), cell(y), cell(x + w), cell(y + h)})
			}
			for q := 0; q < 60; q++ {
				if q == 30 {
					require.True(t, g.Index())
				}
				x, y := coord(), coord()
				r := float32(float32(rng.IntN(16)) * 0.5)
				capacity := []int{32, 5, 1}[q%3]
				dst := make([]uint32, capacity)
				n := g.QueryItems(x-r, y-r, x+r, y+r, dst)
				want := bruteForceQuery(ids, rects, [4]int{cell(x - r), cell(y - r), cell(x + r), cell(y + r)}, capacity)
				require.Equal(t, want, dst[:n], "seed %d repeated %v query %d indexed %v", seed, repeated, q, q >= 30)
			}
		}
	}
}

// TestProximityGridIndex checks what drops and declines the cell index:
// an Add after Index is found (the index is dropped), bounds too wide for
// the pool are left to the hash chains with the same answers, and an
// empty grid has no index.
func TestProximityGridIndex(t *testing.T) {
	g := newTestGrid(t)
	require.True(t, g.Index())
	require.NoError(t, g.Add(11, 0.1, 0.1, 0.2, 0.2))
	dst := make([]uint32, 32)
	n := g.QueryItems(0, 0, 0, 0, dst)
	assert.Equal(t, []uint32{11, 10, 6, 5, 2, 1}, dst[:n], "an Add after Index is found")
	require.True(t, g.Index())
	n = g.QueryItems(0, 0, 0, 0, dst)
	assert.Equal(t, []uint32{11, 10, 6, 5, 2, 1}, dst[:n])

	g.Clear()
	assert.False(t, g.Index(), "an empty grid")
	assert.Zero(t, g.QueryItems(-100, -100, 100, 100, dst))

	// 8 items: at most 8*16+4096 cells. Two agents 1e4 cells apart span 1e8.
	far, err := NewProximityGrid(8, 1)
	require.NoError(t, err)
	require.NoError(t, far.Add(1, 0.5, 0.5, 0.5, 0.5))
	require.NoError(t, far.Add(2, 10000.5, 10000.5, 10000.5, 10000.5))
	assert.False(t, far.Index(), "bounds of 1e8 cells")
	n = far.QueryItems(-1, -1, 1, 1, dst)
	assert.Equal(t, []uint32{1}, dst[:n])
	// A long thin row is fine.
	row, err := NewProximityGrid(8, 1)
	require.NoError(t, err)
	require.NoError(t, row.Add(1, 0.5, 0.5, 0.5, 0.5))
	require.NoError(t, row.Add(2, 4000.5, 0.5, 4000.5, 0.5))
	assert.True(t, row.Index())
	n = row.QueryItems(-1e9, -1, 1e9, 1, dst)
	assert.Equal(t, []uint32{1, 2}, dst[:n])
}
