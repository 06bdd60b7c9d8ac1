package bake

import (
	"testing"
)

// FuzzPartitionAndContours checks invariants of every partition method and
// the contours on pseudo-random fields: null spans and border spans keep
// their ids, regions never mix areas, ids stay below MaxRegions, and
// contour vertices stay on the tile.
func FuzzPartitionAndContours(f *testing.F) {
	f.Add(int64(1), uint8(0), uint8(0), uint8(20), uint8(1))
	f.Add(int64(5), uint8(0), uint8(2), uint8(10), uint8(3))
	f.Add(int64(10), uint8(2), uint8(1), uint8(0), uint8(2))
	f.Add(int64(12), uint8(1), uint8(3), uint8(40), uint8(0))
	f.Fuzz(func(t *testing.T, seed int64, partition, borderSize, mergeArea, flags uint8) {
		chf := randomTestField(seed)
		border := int(borderSize % 6)
		var err error
		switch partition % 3 {
		case 0:
			if err = BuildDistanceField(chf); err == nil {
				err = BuildRegions(chf, border, 8, int(mergeArea))
			}
		case 1:
			err = BuildRegionsMonotone(chf, border, 8, int(mergeArea))
		case 2:
			err = BuildLayerRegions(chf, border, 8)
		}
		if err != nil {
			t.Fatal(err)
		}

		regionArea := map[uint16]uint8{}
		for cell, c := range chf.Cells {
			x, z := cell%chf.Width, cell/chf.Width
			inBorder := x < border || z < border || x >= chf.Width-border || z >= chf.Height-border
			for i := int(c.Index); i < int(c.Index+c.Count); i++ {
				region := chf.Spans[i].Region
				switch {
				case chf.Areas[i] == NullArea:
					if region != 0 {
						t.Fatalf("null span %d has region %d", i, region)
					}
				case inBorder:
					if region&BorderRegion == 0 {
						t.Fatalf("border span %d has region %d", i, region)
					}
				case region&BorderRegion != 0:
					t.Fatalf("inner span %d has border region %#x", i, region)
				case region != 0:
					if region >= chf.MaxRegions {
						t.Fatalf("span %d region %d not below MaxRegions %d", i, region, chf.MaxRegions)
					}
					if area, seen := regionArea[region]; seen && area != chf.Areas[i] {
						t.Fatalf("region %d holds areas %d and %d", region, area, chf.Areas[i])
					}
					regionArea[region] = chf.Areas[i]
				}
			}
		}

		cset, err := BuildContours(chf, 1.3, 12, ContourBuildFlags(flags%4))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cset.Contours {
			if _, ok := regionArea[c.Region]; !ok {
				t.Fatalf("contour %d of region %d without spans", i, c.Region)
			}
			if c.Area != regionArea[c.Region] {
				t.Fatalf("contour %d area %d, region area %d", i, c.Area, regionArea[c.Region])
			}
			for _, v := range append(c.Verts, c.RawVerts...) {
				if v[0] < 0 || v[2] < 0 || int(v[0]) > cset.Width || int(v[2]) > cset.Height {
					t.Fatalf("contour %d vertex %v off the %d×%d tile", i, v, cset.Width, cset.Height)
				}
			}
		}
	})
}
