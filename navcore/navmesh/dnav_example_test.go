package navmesh_test

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

func ExampleReadDNAV() {
	blob, err := os.ReadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	data, err := navmesh.ReadDNAV(blob)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(data.Polys), "polygons,", len(data.Verts), "vertices,", len(data.DetailTris), "detail triangles")
	fmt.Printf("fingerprint %#x\n", navmesh.Fingerprint(blob))
	// Output:
	// 118 polygons, 223 vertices, 291 detail triangles
	// fingerprint 0x9acbed5cd350892d
}

func ExampleBuildTileData() {
	// One 3x3-cell square polygon, without a detail mesh.
	data, err := navmesh.BuildTileData(&navmesh.BuildParams{
		Verts:        [][3]uint16{{0, 0, 0}, {0, 0, 3}, {3, 0, 3}, {3, 0, 0}},
		Polys:        []uint16{0, 1, 2, 3, 0xffff, 0xffff, 0x800f, 0x800f, 0x800f, 0x800f, 0xffff, 0xffff},
		PolyFlags:    []uint16{1},
		PolyAreas:    []uint8{0},
		VertsPerPoly: 6,
		BMin:         mgl32.Vec3{10, 0, 20},
		BMax:         mgl32.Vec3{11, 1, 21},
		CellSize:     0.25,
		CellHeight:   0.5,
		BuildBVTree:  true,
	})
	if err != nil {
		log.Fatal(err)
	}
	var blob bytes.Buffer
	if err := navmesh.WriteDNAV(&blob, data); err != nil {
		log.Fatal(err)
	}
	fmt.Println(data.Verts[2], len(data.DetailTris), "triangles,", blob.Len(), "bytes")
	// Output: [10.75 0 20.75] 2 triangles, 280 bytes
}
