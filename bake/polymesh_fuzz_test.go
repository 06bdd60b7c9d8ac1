package bake

import (
	"testing"
)

// FuzzBuildPolyMesh feeds arbitrary contours (with border flags, a border
// size and any vertices per polygon) to BuildPolyMesh: it must not panic,
// and a mesh it returns must be well formed.
func FuzzBuildPolyMesh(f *testing.F) {
	f.Add([]byte{6, 1, 4, 0, 0, 0, 0, 0, 10, 0, 10, 0, 10, 0, 0})
	f.Add([]byte{4, 0, 6, 0, 0, 0, 0, 0, 20, 0, 20, 0, 20, 0, 10, 0x10, 10, 0x10, 10, 0, 20, 0, 0, 0, 0})
	f.Add([]byte{3, 3, 5, 0, 0, 0, 10, 10, 0, 0, 10, 0, 10, 5, 20, 5, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		nvp := int(data[0]%8) + 1
		cset := &ContourSet{Width: 32, Height: 32, BorderSize: int(data[1] % 4), CellSize: 0.3, CellHeight: 0.2}
		data = data[2:]
		for len(data) > 0 && len(cset.Contours) < 8 {
			n := int(data[0] % 16)
			data = data[1:]
			c := Contour{Region: uint16(len(cset.Contours) + 1), Area: WalkableArea}
			for range n {
				if len(data) < 3 {
					break
				}
				var flags int32
				if data[1]&0x10 != 0 {
					flags = BorderVertex
				}
				c.Verts = append(c.Verts, [4]int32{int32(data[0] % 33), int32(data[1] % 8), int32(data[2] % 33), flags})
				data = data[3:]
			}
			cset.Contours = append(cset.Contours, c)
		}
		mesh, err := BuildPolyMesh(cset, nvp)
		if err != nil {
			return
		}
		checkPolyMeshWellFormed(t, mesh)
	})
}

func checkPolyMeshWellFormed(t *testing.T, mesh *PolyMesh) {
	t.Helper()
	nvp := mesh.MaxVertsPerPoly
	if len(mesh.Polys) != mesh.PolyCount*2*nvp || len(mesh.Regions) != mesh.PolyCount || len(mesh.Areas) != mesh.PolyCount || len(mesh.Flags) != mesh.PolyCount {
		t.Fatalf("sizes: %d polys, %d values, %d regions, %d areas", mesh.PolyCount, len(mesh.Polys), len(mesh.Regions), len(mesh.Areas))
	}
	for i := 0; i < mesh.PolyCount; i++ {
		row := mesh.Polys[i*2*nvp : (i+1)*2*nvp]
		n := polyVertexCount(row, nvp)
		for j := 0; j < nvp; j++ {
			if j < n && int(row[j]) >= len(mesh.Verts) {
				t.Fatalf("polygon %d vertex %d out of range", i, row[j])
			}
			code := row[nvp+j]
			if code != MeshNullIndex && code&0x8000 == 0 && int(code) >= mesh.PolyCount {
				t.Fatalf("polygon %d neighbour %d out of range", i, code)
			}
		}
	}
}
