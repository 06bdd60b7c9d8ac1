package bake

import (
	"errors"
	"testing"
)

// FuzzHeightfieldLayers checks invariants of the layer stage on
// pseudo-random fields: it fails only with its own errors and leaves the
// field alone; each layer spans less than 255 cells of height; every cell
// with ground matches a walkable span of its column (at that floor unless a
// portal raised it), no more cells than spans; a connection leads to ground
// of the same layer.
func FuzzHeightfieldLayers(f *testing.F) {
	for _, seed := range []int64{1, 2, 5, 10, 12, 15, 30} {
		f.Add(seed, uint8(seed%4), uint8(10))
	}
	f.Fuzz(func(t *testing.T, seed int64, borderSize, walkableHeight uint8) {
		chf := randomTestField(seed)
		border := int(borderSize % 6)
		before := cloneCompact(chf)
		layers, err := BuildHeightfieldLayers(chf, border, int(walkableHeight))
		if !equalCompact(before, chf) {
			t.Fatal("the field changed")
		}
		if err != nil {
			if !errors.Is(err, ErrLayerOverflow) && !errors.Is(err, ErrLayerRegionOverflow) && !errors.Is(err, ErrLayerTooTall) {
				t.Fatal(err)
			}
			return
		}
		w, lw, lh := chf.Width, chf.Width-2*border, chf.Height-2*border
		walkable, withGround := 0, 0
		for y := 0; y < lh; y++ {
			for x := 0; x < lw; x++ {
				c := chf.Cells[border+x+(border+y)*w]
				for i := int(c.Index); i < int(c.Index+c.Count); i++ {
					if chf.Areas[i] != NullArea {
						walkable++
					}
				}
			}
		}
		for id, l := range layers {
			if l.HMax-l.HMin >= 255 || l.HMin > l.HMax {
				t.Fatalf("layer %d floors %d..%d", id, l.HMin, l.HMax)
			}
			if l.Width != lw || l.Height != lh || len(l.Heights) != lw*lh || len(l.Areas) != lw*lh || len(l.Cons) != lw*lh {
				t.Fatalf("layer %d is %d×%d with grids of %d, %d, %d", id, l.Width, l.Height, len(l.Heights), len(l.Areas), len(l.Cons))
			}
			for y := 0; y < lh; y++ {
				for x := 0; x < lw; x++ {
					cell := x + y*lw
					if l.Areas[cell] == NullArea {
						if l.Heights[cell] != 0xff || l.Cons[cell] != 0 {
							t.Fatalf("layer %d cell (%d, %d) without ground has height %d, cons %#x", id, x, y, l.Heights[cell], l.Cons[cell])
						}
						continue
					}
					withGround++
					if x < l.MinX || x > l.MaxX || y < l.MinY || y > l.MaxY {
						t.Fatalf("layer %d cell (%d, %d) outside its bounds %d..%d × %d..%d", id, x, y, l.MinX, l.MaxX, l.MinY, l.MaxY)
					}
					c := chf.Cells[border+x+(border+y)*w]
					matched := false
					for i := int(c.Index); i < int(c.Index+c.Count); i++ {
						if chf.Areas[i] == l.Areas[cell] && (l.Cons[cell]>>4 != 0 || int(chf.Spans[i].Y)-l.HMin == int(l.Heights[cell])) {
							matched = true
						}
					}
					if !matched {
						t.Fatalf("layer %d cell (%d, %d) area %d height %d matches no span", id, x, y, l.Areas[cell], l.Heights[cell])
					}
					for dir := 0; dir < 4; dir++ {
						if l.Cons[cell]&(1<<dir) == 0 {
							continue
						}
						nx, ny := x+DirOffsetX(dir), y+DirOffsetZ(dir)
						if nx < 0 || ny < 0 || nx >= lw || ny >= lh || l.Areas[nx+ny*lw] == NullArea {
							t.Fatalf("layer %d cell (%d, %d) connects %d to no ground", id, x, y, dir)
						}
					}
				}
			}
		}
		if withGround > walkable {
			t.Fatalf("%d layer cells with ground for %d walkable spans", withGround, walkable)
		}
	})
}

// equalCompact tells whether two fields have the same cells, spans and
// areas.
func equalCompact(a, b *CompactHeightfield) bool {
	if len(a.Cells) != len(b.Cells) || len(a.Spans) != len(b.Spans) || len(a.Areas) != len(b.Areas) {
		return false
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	for i := range a.Spans {
		if a.Spans[i] != b.Spans[i] || a.Areas[i] != b.Areas[i] {
			return false
		}
	}
	return true
}
