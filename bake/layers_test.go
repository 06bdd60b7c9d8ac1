package bake

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layerFixture is a hand-made heightfield of testdata/layers: a field and
// rectangles of spans, in the text form the C++ harness reads too.
type layerFixture struct {
	width, height, border, walkableHeight, walkableClimb int
	compact                                              *CompactHeightfield
}

// loadLayerFixture reads testdata/layers/<name>.txt and builds its compact
// heightfield as the C++ harness does: rcCreateHeightfield over
// (0, 0, 0)..(w·0.3, 100, h·0.3) with cells 0.3 × 0.2, one rcAddSpan per
// cell of each rectangle with merge threshold 1, rcBuildCompactHeightfield.
func loadLayerFixture(t *testing.T, name string) *layerFixture {
	t.Helper()
	file, err := os.Open(filepath.Join("testdata", "layers", name+".txt"))
	require.NoError(t, err)
	defer file.Close()
	f := &layerFixture{}
	var hf *Heightfield
	scanner := bufio.NewScanner(file)
	for scanner.Scan() {
		line, _, _ := strings.Cut(scanner.Text(), "#")
		var x0, z0, x1, z1, spanMin, spanMax, area int
		if n, _ := fmt.Sscanf(line, "field %d %d %d %d %d", &f.width, &f.height, &f.border, &f.walkableHeight, &f.walkableClimb); n == 5 {
			hf, err = NewHeightfield(f.width, f.height, mgl32.Vec3{}, mgl32.Vec3{float32(f.width) * 0.3, 100, float32(f.height) * 0.3}, 0.3, 0.2)
			require.NoError(t, err)
		} else if n, _ := fmt.Sscanf(line, "rect %d %d %d %d %d %d %d", &x0, &z0, &x1, &z1, &spanMin, &spanMax, &area); n == 7 {
			require.NotNil(t, hf, "rect before field")
			for z := z0; z <= z1; z++ {
				for x := x0; x <= x1; x++ {
					require.NoError(t, hf.AddSpan(x, z, uint16(spanMin), uint16(spanMax), uint8(area), 1))
				}
			}
		}
	}
	require.NoError(t, scanner.Err())
	f.compact, err = BuildCompactHeightfield(hf, f.walkableHeight, f.walkableClimb)
	require.NoError(t, err)
	return f
}

// formatLayers writes layers in the C++ harness's text form: per layer its
// sizes and bounds (floats as their bits), then its grids in hex rows.
func formatLayers(layers []HeightfieldLayer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "layers %d\n", len(layers))
	bits := func(v mgl32.Vec3) string {
		return fmt.Sprintf("%08x %08x %08x", math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2]))
	}
	grid := func(name string, g []uint8, w, h int) {
		b.WriteString(name + "\n")
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				fmt.Fprintf(&b, "%02x", g[x+y*w])
			}
			b.WriteString("\n")
		}
	}
	for i, l := range layers {
		fmt.Fprintf(&b, "layer %d size %d %d bounds %d %d %d %d heights %d %d bmin %s bmax %s\n",
			i, l.Width, l.Height, l.MinX, l.MaxX, l.MinY, l.MaxY, l.HMin, l.HMax, bits(l.BMin), bits(l.BMax))
		grid("heights", l.Heights, l.Width, l.Height)
		grid("areas", l.Areas, l.Width, l.Height)
		grid("cons", l.Cons, l.Width, l.Height)
	}
	return b.String()
}

// TestHeightfieldLayersMatchTheCPP builds the layers of every hand-made
// field and compares them, every header value and grid cell, with what
// rcBuildHeightfieldLayers gave for the same field (testdata/layers/*.want).
func TestHeightfieldLayersMatchTheCPP(t *testing.T) {
	tests := []struct {
		name string
		// wantErr names the C++ failures.
		wantErr error
		// departure, when set, turns the C++ output into ours where they
		// differ on purpose.
		departure func(want string) string
	}{
		{name: "two_floors"},
		{name: "bridge"},
		{name: "merge_by_height"},
		{name: "ramp"},
		{name: "areas"},
		{name: "platforms63"},
		{name: "platforms64", wantErr: ErrLayerOverflow},
		// Recorded with the C++'s sweep buffer enlarged: the stock build
		// writes past it here (a row of 192 runs over 7 columns). The C++
		// links no span more than 62 up its column (6-bit links): the
		// spans of layer 60 have no neighbours there; here they do.
		{name: "stacked64", departure: func(want string) string {
			i := strings.Index(want, "layer 60 ")
			j := i + strings.Index(want[i:], "cons\n")
			return want[:j] + strings.Replace(want[j:], "cons\n000000\n000000\n000000\n", "cons\n060703\n0e0f0b\n0c0d09\n", 1)
		}},
		{name: "random1"},
		{name: "random2"},
		{name: "random3"},
		{name: "random4"},
		{name: "random5"},
		{name: "random6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := loadLayerFixture(t, tt.name)
			want, err := os.ReadFile(filepath.Join("testdata", "layers", tt.name+".want"))
			require.NoError(t, err)
			before := cloneCompact(f.compact)
			layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
			assert.Equal(t, before, f.compact, "the field changed")
			if tt.wantErr != nil {
				require.Equal(t, "error\n", string(want))
				require.ErrorIs(t, err, tt.wantErr)
				assert.Nil(t, layers)
				return
			}
			require.NoError(t, err)
			if tt.departure != nil {
				patched := tt.departure(string(want))
				require.NotEqual(t, string(want), patched, "the departure changes the C++ output")
				want = []byte(patched)
			}
			assert.Equal(t, string(want), formatLayers(layers))
		})
	}
}

// cloneCompact deep-copies the parts of chf the layer stage reads.
func cloneCompact(chf *CompactHeightfield) *CompactHeightfield {
	c := *chf
	c.Cells = append([]CompactCell(nil), chf.Cells...)
	c.Spans = append([]CompactSpan(nil), chf.Spans...)
	c.Areas = append([]uint8(nil), chf.Areas...)
	return &c
}

// TestHeightfieldLayersTwoFloors checks by hand what the C++ comparison
// checks in bulk, on a ground floor with a second floor 28 cells above
// part of it: two layers, each flat, the ground's edge cells portals to the
// border.
func TestHeightfieldLayersTwoFloors(t *testing.T) {
	f := loadLayerFixture(t, "two_floors")
	layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.NoError(t, err)
	require.Len(t, layers, 2)

	ground, upper := layers[0], layers[1]
	// 14 × 12 cells less a border of 2 on each side.
	assert.Equal(t, [2]int{10, 8}, [2]int{ground.Width, ground.Height})
	assert.Equal(t, [4]int{0, 9, 0, 7}, [4]int{ground.MinX, ground.MaxX, ground.MinY, ground.MaxY})
	// Floors are the tops of the solid spans: 2 and 32.
	assert.Equal(t, [2]int{2, 2}, [2]int{ground.HMin, ground.HMax})
	assert.Equal(t, [2]int{32, 32}, [2]int{upper.HMin, upper.HMax})
	// The upper floor covers cells 4..9 × 3..8, 2..7 × 1..6 inside the
	// border.
	assert.Equal(t, [4]int{2, 7, 1, 6}, [4]int{upper.MinX, upper.MaxX, upper.MinY, upper.MaxY})
	border := float32(float32(2) * 0.3)
	assert.Equal(t, mgl32.Vec3{border, float32(float32(2) * 0.2), border}, ground.BMin)
	assert.Equal(t, float32(float32(32)*0.2), upper.BMin[1])
	width, cellSize := float32(14), float32(0.3)
	assert.Equal(t, float32(width*cellSize)-border, ground.BMax[0])

	for y := 0; y < 8; y++ {
		for x := 0; x < 10; x++ {
			cell := x + y*10
			assert.Equal(t, uint8(0), ground.Heights[cell])
			assert.Equal(t, WalkableArea, ground.Areas[cell])
			// All four neighbours are ground; those outside the grid are
			// the border's, portals rather than connections.
			var connections, portals uint8
			for dir := 0; dir < 4; dir++ {
				nx, ny := x+DirOffsetX(dir), y+DirOffsetZ(dir)
				if nx < 0 || ny < 0 || nx >= 10 || ny >= 8 {
					portals |= 1 << dir
				} else {
					connections |= 1 << dir
				}
			}
			assert.Equal(t, portals<<4|connections, ground.Cons[cell], "ground cell (%d, %d)", x, y)

			inUpper := x >= 2 && x <= 7 && y >= 1 && y <= 6
			if !inUpper {
				assert.Equal(t, uint8(0xff), upper.Heights[cell])
				assert.Equal(t, NullArea, upper.Areas[cell])
				assert.Equal(t, uint8(0), upper.Cons[cell])
				continue
			}
			assert.Equal(t, uint8(0), upper.Heights[cell])
			var upperConnections uint8
			for dir := 0; dir < 4; dir++ {
				nx, ny := x+DirOffsetX(dir), y+DirOffsetZ(dir)
				if nx >= 2 && nx <= 7 && ny >= 1 && ny <= 6 {
					upperConnections |= 1 << dir
				}
			}
			assert.Equal(t, upperConnections, upper.Cons[cell], "upper cell (%d, %d)", x, y)
		}
	}
}

// TestHeightfieldLayersMergeByHeight: platforms that do not touch share a
// layer when their floors lie within 4·walkableHeight of each other.
func TestHeightfieldLayersMergeByHeight(t *testing.T) {
	f := loadLayerFixture(t, "merge_by_height")
	layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.NoError(t, err)
	require.Len(t, layers, 2)
	// Floors 2 and 20 merge (18 < 40); 100 is beyond 20 + 40.
	assert.Equal(t, [2]int{2, 20}, [2]int{layers[0].HMin, layers[0].HMax})
	assert.Equal(t, [2]int{100, 100}, [2]int{layers[1].HMin, layers[1].HMax})
	// The second platform's floor sits 18 cells above the layer's.
	assert.Equal(t, uint8(18), layers[0].Heights[12-2])

	// With a smaller agent the first two stay apart: 4·4 = 16 < 18.
	layers, err = BuildHeightfieldLayers(f.compact, f.border, 4)
	require.NoError(t, err)
	assert.Len(t, layers, 3)
}

// TestHeightfieldLayersRampSplitsByHeight: a ramp 300 cells high made of
// several monotone regions becomes two layers, each under 255 cells of
// height, with portals where they meet.
func TestHeightfieldLayersRampSplitsByHeight(t *testing.T) {
	f := loadLayerFixture(t, "ramp")
	layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.NoError(t, err)
	require.Len(t, layers, 2)
	portals := 0
	for _, l := range layers {
		assert.Less(t, l.HMax-l.HMin, 255)
		for _, c := range l.Cons {
			if c>>4&(1<<1|1<<3) != 0 {
				portals++
			}
		}
	}
	assert.Positive(t, portals, "no portal along z between the layers")
}

// TestHeightfieldLayersRefuseATallRegion: a single monotone region whose
// floors span 300 cells cannot be stored in byte heights; the C++ wraps
// them (testdata/layers/tall_region.want: heights 6..304 in one layer), we
// refuse.
func TestHeightfieldLayersRefuseATallRegion(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "layers", "tall_region.want"))
	require.NoError(t, err)
	require.Contains(t, string(want), "heights 6 304", "the C++ made one layer 298 cells high")

	f := loadLayerFixture(t, "tall_region")
	layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.ErrorIs(t, err, ErrLayerTooTall)
	assert.Nil(t, layers)
}

// TestHeightfieldLayersOverlapLimit: a floor may lie under 63 separate
// platforms, not 64 (RC_MAX_LAYERS).
func TestHeightfieldLayersOverlapLimit(t *testing.T) {
	f := loadLayerFixture(t, "platforms63")
	layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.NoError(t, err)
	assert.Len(t, layers, 2, "the 63 platforms share one layer above the floor")

	f = loadLayerFixture(t, "platforms64")
	_, err = BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.ErrorIs(t, err, ErrLayerOverflow)
	assert.ErrorContains(t, err, "bake: build heightfield layers: layer overflow")
}

func TestHeightfieldLayersRefuseBadInput(t *testing.T) {
	f := loadLayerFixture(t, "two_floors")
	tests := []struct {
		name                   string
		chf                    *CompactHeightfield
		border, walkableHeight int
		want                   string
	}{
		{"nil field", nil, 2, 10, "nil compact heightfield"},
		{"negative border", f.compact, -1, 10, "negative border size"},
		{"negative height", f.compact, 2, -1, "walkable height -1"},
		{"cells missing", &CompactHeightfield{Width: 2, Height: 2}, 0, 10, "0 cells for a 2×2 grid"},
		{"too wide", &CompactHeightfield{Width: 260, Height: 1, Cells: make([]CompactCell, 260)}, 2, 10, "256×-3 cells inside the border"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			layers, err := BuildHeightfieldLayers(tt.chf, tt.border, tt.walkableHeight)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, layers)
		})
	}

	// Connections that point past a column are an error, not a panic.
	broken := cloneCompact(f.compact)
	broken.Spans[broken.Cells[11+9*14].Index].SetConnection(2, 62)
	_, err := BuildHeightfieldLayers(broken, 2, 10)
	assert.ErrorContains(t, err, "malformed compact heightfield")
}

// TestHeightfieldLayersEmpty: a field with nothing walkable inside its
// border has no layers.
func TestHeightfieldLayersEmpty(t *testing.T) {
	f := loadLayerFixture(t, "two_floors")
	layers, err := BuildHeightfieldLayers(f.compact, 6, f.walkableHeight)
	require.NoError(t, err)
	assert.Empty(t, layers)

	for i := range f.compact.Areas {
		f.compact.Areas[i] = NullArea
	}
	layers, err = BuildHeightfieldLayers(f.compact, 2, f.walkableHeight)
	require.NoError(t, err)
	assert.Empty(t, layers)
}

// TestHeightfieldLayersBridge: a deck joining two banks over a riverbed
// path is one layer with the banks; the path under it is another, and the
// deck's cells connect across the river.
func TestHeightfieldLayersBridge(t *testing.T) {
	f := loadLayerFixture(t, "bridge")
	layers, err := BuildHeightfieldLayers(f.compact, f.border, f.walkableHeight)
	require.NoError(t, err)
	require.Len(t, layers, 2)
	banks, river := layers[0], layers[1]
	assert.Equal(t, [2]int{20, 20}, [2]int{banks.HMin, banks.HMax})
	assert.Equal(t, [2]int{2, 2}, [2]int{river.HMin, river.HMax})
	// The riverbed runs along z over x 7..12 (5..10 inside the border).
	assert.Equal(t, [4]int{5, 10, 0, 15}, [4]int{river.MinX, river.MaxX, river.MinY, river.MaxY})
	for x := 5; x <= 10; x++ {
		for y := 0; y < 16; y++ {
			assert.Equal(t, WalkableArea, river.Areas[x+y*16])
			onDeck := y >= 6 && y <= 9
			assert.Equal(t, onDeck, banks.Areas[x+y*16] == WalkableArea, "deck cell (%d, %d)", x, y)
		}
		// Mid-deck cells connect all four ways.
		assert.Equal(t, uint8(0x0f), banks.Cons[x+7*16])
	}
}
