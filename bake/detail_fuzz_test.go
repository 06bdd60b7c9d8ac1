package bake

import "testing"

// FuzzBuildPolyMeshDetail builds detail meshes for arbitrary polygons over
// the hill field: no panic, and triangles index their own sub-mesh.
func FuzzBuildPolyMeshDetail(f *testing.F) {
	f.Add([]byte{1, 20, 5, 1, 1, 1, 11, 11, 11, 11, 1, 6, 0})
	f.Add([]byte{0, 2, 3, 0, 0, 12, 12, 0, 12})
	f.Add([]byte{2, 255, 255, 3, 3, 3, 3, 3, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		region := uint16(data[0] % 3)
		sampleDist := float32(data[1]%32) * 0.1
		sampleError := float32(data[2]%16) * 0.1
		data = data[3:]
		mesh := detailTestPoly(hillHeight, region)
		mesh.Verts = mesh.Verts[:0]
		for i := 0; i+1 < len(data) && i/2 < 6; i += 2 {
			x, z := int(data[i]%13), int(data[i+1]%13)
			mesh.Verts = append(mesh.Verts, [3]uint16{uint16(x), uint16(hillHeight(min(x, 11), min(z, 11))), uint16(z)})
		}
		if len(mesh.Verts) < 3 {
			return
		}
		for j := range 6 {
			mesh.Polys[j] = MeshNullIndex
			if j < len(mesh.Verts) {
				mesh.Polys[j] = uint16(j)
			}
		}
		detail, err := BuildPolyMeshDetail(mesh, detailTestField(hillHeight, 1), sampleDist, sampleError)
		if err != nil {
			return
		}
		for _, m := range detail.Meshes {
			if int(m[0]+m[1]) > len(detail.Verts) || int(m[2]+m[3]) > len(detail.Tris) {
				t.Fatalf("sub-mesh %v out of range", m)
			}
			for _, tri := range detail.Tris[m[2] : m[2]+m[3]] {
				for _, v := range tri[:3] {
					if uint32(v) >= m[1] {
						t.Fatalf("triangle %v names vertex beyond %d", tri, m[1])
					}
				}
			}
		}
	})
}
