package bake

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"
)

// tallColumns returns a width × height heightfield whose columns hold up
// to maxSpans random spans each, many walkable.
func tallColumns(rng *rand.Rand, width, height, maxSpans int) *Heightfield {
	hf, err := NewHeightfield(width, height, mgl32.Vec3{}, mgl32.Vec3{float32(width), 100, float32(height)}, 1, 0.2)
	if err != nil {
		panic(err)
	}
	for column := range width * height {
		y := rng.IntN(20)
		for range rng.IntN(maxSpans + 1) {
			top := y + 1 + rng.IntN(4)
			if top > MaxSpanHeight {
				break
			}
			area := WalkableArea
			if rng.IntN(4) == 0 {
				area = NullArea
			}
			hf.addSpan(column, uint16(y), uint16(top), area, 1, nil)
			y = top + 1 + rng.IntN(12)
		}
	}
	return hf
}

// ledgeOracle is FilterLedgeSpans as Recast writes it: every span against
// every span of the four neighbour columns.
func ledgeOracle(hf *Heightfield, walkableHeight, walkableClimb int) {
	width, height := hf.Width, hf.Height
	pool, columns := hf.Pool, hf.Columns
	for z := range height {
		for x := range width {
			column := x + z*width
			for s := columns[column]; s != noSpan; {
				span := &pool[s]
				s = span.Next
				if span.Area == NullArea {
					continue
				}
				if x == 0 || z == 0 || x == width-1 || z == height-1 {
					span.Area = NullArea
					continue
				}
				floor, ceiling := int(span.Max), openTop
				if s != noSpan {
					ceiling = int(pool[s].Min)
				}
				low, high := floor, floor
				ledge := false
				for _, n := range [4]int32{columns[column-1], columns[column+width], columns[column+1], columns[column-width]} {
					nc := openTop
					if n != noSpan {
						nc = int(pool[n].Min)
					}
					if min(ceiling, nc)-floor >= walkableHeight {
						ledge = true
						break
					}
					for ; n != noSpan; n = pool[n].Next {
						nf, nc := int(pool[n].Max), openTop
						if next := pool[n].Next; next != noSpan {
							nc = int(pool[next].Min)
						}
						if min(ceiling, nc)-max(floor, nf) < walkableHeight {
							continue
						}
						if nf-floor < -walkableClimb {
							ledge = true
							break
						}
						if nf-floor <= walkableClimb {
							low, high = min(low, nf), max(high, nf)
						}
					}
					if ledge {
						break
					}
				}
				if ledge || high-low > walkableClimb {
					span.Area = NullArea
				}
			}
		}
	}
}

// connectOracle returns the connections Recast gives span i of column
// (x, z): per direction the first neighbour span within climb and with
// room, or NotConnected.
func connectOracle(chf *CompactHeightfield, x, z int, i uint32) [4]int {
	s := &chf.Spans[i]
	floor, ceiling := int(s.Y), int(s.Y)+s.Height()
	var links [4]int
	for dir := range 4 {
		links[dir] = NotConnected
		nx, nz := x+DirOffsetX(dir), z+DirOffsetZ(dir)
		if nx < 0 || nz < 0 || nx >= chf.Width || nz >= chf.Height {
			continue
		}
		cell := chf.Cells[nx+nz*chf.Width]
		for k := cell.Index; k < cell.Index+cell.Count; k++ {
			n := &chf.Spans[k]
			if min(ceiling, int(n.Y)+n.Height())-max(floor, int(n.Y)) >= chf.WalkableHeight && abs(int(n.Y)-floor) <= chf.WalkableClimb {
				links[dir] = int(k - cell.Index)
				break
			}
		}
	}
	return links
}

// TestStackedWindowsMatchTheReference: the ledge filter and the compact
// heightfield's links, which look at a moving window of each neighbour
// column, give what the reference's all-pairs loops give, on random
// columns of up to 300 spans.
func TestStackedWindowsMatchTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 62))
	for trial := range 20 {
		hf := tallColumns(rng, 7, 6, 300)
		oracle := tallColumnsCopy(hf)
		walkableHeight, walkableClimb := 1+rng.IntN(12), rng.IntN(5)
		hf.FilterLedgeSpans(walkableHeight, walkableClimb)
		ledgeOracle(oracle, walkableHeight, walkableClimb)
		require.Equal(t, oracle.Pool, hf.Pool, "trial %d", trial)

		chf, err := BuildCompactHeightfield(hf, walkableHeight, walkableClimb)
		require.NoError(t, err)
		for z := range chf.Height {
			for x := range chf.Width {
				cell := chf.Cells[x+z*chf.Width]
				for i := cell.Index; i < cell.Index+cell.Count; i++ {
					var got [4]int
					for dir := range got {
						got[dir] = chf.Spans[i].Connection(dir)
					}
					require.Equal(t, connectOracle(chf, x, z, i), got, "trial %d, column (%d, %d), span %d", trial, x, z, i-cell.Index)
				}
			}
		}
	}
}

func tallColumnsCopy(hf *Heightfield) *Heightfield {
	c := *hf
	c.Columns = append([]int32(nil), hf.Columns...)
	c.Pool = append([]Span(nil), hf.Pool...)
	return &c
}

// BenchmarkStackedFloors bakes 500 floors 3 m apart solo (issue 27: 62 s
// for its rasterization, ledge filter and links before their windows).
// BenchmarkStackedFloorsReference runs the reference's all-pairs ledge
// filter on the same field beside the windowed one.
func BenchmarkStackedFloors(b *testing.B) {
	g := stackedFloors(10, 3, 500)
	settings := DefaultSettings()
	settings.TileSize = 0
	for range b.N {
		if _, err := Solo(context.Background(), g, settings); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStackedFloorsLedgeFilter(b *testing.B) {
	g := stackedFloors(10, 3, 500)
	settings := DefaultSettings()
	settings.TileSize = 0
	bmin, bmax := g.Bounds()
	cfg, err := settings.Config(bmin, bmax)
	if err != nil {
		b.Fatal(err)
	}
	hf := &Heightfield{}
	if _, err := rasterizeGeometry(hf, nil, g, cfg); err != nil {
		b.Fatal(err)
	}
	for _, bench := range []struct {
		name   string
		filter func(*Heightfield, int, int)
	}{
		{"windows", (*Heightfield).FilterLedgeSpans},
		{"reference", ledgeOracle},
	} {
		b.Run(bench.name, func(b *testing.B) {
			for range b.N {
				field := tallColumnsCopy(hf)
				bench.filter(field, cfg.WalkableHeight, cfg.WalkableClimb)
			}
		})
	}
}
