package dynamic

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floorLevel is a 12 m square floor with a box volume and an off-mesh
// connection, four tiles of 32 cells.
func floorLevel() *bake.Geometry {
	return &bake.Geometry{
		Vertices:           []geom.Vec3{{0, 0, 0}, {0, 0, 12}, {12, 0, 12}, {12, 0, 0}},
		Triangles:          [][3]int32{{0, 1, 2}, {0, 2, 3}},
		BoxVolumes:         []bake.BoxVolume{{Min: geom.Vec3{1, -1, 1}, Max: geom.Vec3{3, 1, 3}, Area: 5}},
		OffMeshConnections: []bake.OffMeshConnection{{Start: geom.Vec3{2, 0, 6}, End: geom.Vec3{9, 0, 6}, Radius: 0.5, Area: 1, Flags: 1}},
	}
}

// savedMesh returns a small mesh with colliders of every kind, some tiles
// waiting, and its file.
func savedMesh(t testing.TB) (*Mesh, []byte) {
	m, err := New(context.Background(), floorLevel(), bake.DefaultSettings(), Options{Workers: 1})
	require.NoError(t, err)
	ramp := &collider.Mesh{
		Vertices:  []geom.Vec3{{4, 0, 4}, {4, 1, 8}, {6, 1, 8}, {6, 0, 4}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	shapes := []struct {
		shape collider.Shape
		pose  collider.Pose
	}{
		{collider.NewBox(geom.Vec3{1, 0.5, 1}), collider.Pose{Position: geom.Vec3{8, 0.5, 8}}},
		{collider.NewSphere(1).Carving(), collider.Pose{Position: geom.Vec3{3, 0, 9}}},
		{collider.NewCylinder(0.5, 1).WithArea(7), collider.Pose{Position: geom.Vec3{9, 1, 3}, Rotation: mgl32QuatY(0.3)}},
		{collider.NewTriangleMesh(ramp), collider.Pose{}},
	}
	for i, s := range shapes {
		_, err := m.AddCollider(s.shape, s.pose)
		require.NoError(t, err)
		if i == 1 {
			update(t, m)
		}
	}
	var file bytes.Buffer
	require.NoError(t, m.Save(&file))
	return m, file.Bytes()
}

func TestSaveLoad(t *testing.T) {
	m, file := savedMesh(t)
	loaded, err := Load(bytes.NewReader(file), Options{Workers: 2})
	require.NoError(t, err)
	assert.Equal(t, m.Pending(), loaded.Pending())
	assert.Equal(t, tileFingerprints(t, m.NavMesh()), tileFingerprints(t, loaded.NavMesh()))
	refs := m.Colliders(nil)
	require.Equal(t, refs, loaded.Colliders(nil))
	for _, ref := range refs {
		wantShape, wantPose, err := m.Collider(ref)
		require.NoError(t, err)
		shape, pose, err := loaded.Collider(ref)
		require.NoError(t, err)
		assert.Equal(t, wantPose, pose)
		wantShape.Mesh, shape.Mesh = nil, nil
		assert.Equal(t, wantShape, shape)
	}
	// Saved again, the file is the same.
	var again bytes.Buffer
	require.NoError(t, loaded.Save(&again))
	assert.Equal(t, file, again.Bytes())
	// Both go on alike.
	update(t, m)
	update(t, loaded)
	assert.Equal(t, tileFingerprints(t, m.NavMesh()), tileFingerprints(t, loaded.NavMesh()))
	for _, ref := range refs {
		require.NoError(t, loaded.RemoveCollider(ref))
	}
	update(t, loaded)
	fresh, err := New(context.Background(), floorLevel(), bake.DefaultSettings(), Options{})
	require.NoError(t, err)
	assert.Equal(t, tileFingerprints(t, fresh.NavMesh()), tileFingerprints(t, loaded.NavMesh()))
}

func TestLoadRejectsCorruptFiles(t *testing.T) {
	_, file := savedMesh(t)
	// Re-frame a body change so that the checksum holds: the checks
	// behind it must catch it.
	rechecksum := func(b []byte) []byte {
		b = b[:len(b)-4]
		return binary.LittleEndian.AppendUint32(b, crc32IEEE(b))
	}
	flip := func(at int) []byte {
		b := bytes.Clone(file)
		b[at] ^= 0xff
		return rechecksum(b)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic", append([]byte("XNDYNMSH"), file[8:]...)},
		{"truncated", file[:len(file)/2]},
		{"checksum", append(bytes.Clone(file[:len(file)-1]), file[len(file)-1]^1)},
	}
	for at := 20; at < len(file)-4; at += max(1, len(file)/300) {
		tests = append(tests, struct {
			name string
			data []byte
		}{"byte flipped", flip(at)})
	}
	loaded := 0
	for _, test := range tests {
		m, err := Load(bytes.NewReader(test.data), Options{})
		if err == nil {
			// A flipped byte may still make a file (a coordinate): it
			// must then save back to itself.
			loaded++
			var again bytes.Buffer
			require.NoError(t, m.Save(&again))
			continue
		}
		assert.Nil(t, m, test.name)
	}
	assert.Less(t, loaded, len(tests)/2, "most damage is caught")
}

// FuzzLoad checks that any input loads without a panic, and that what
// loads saves and loads again.
func FuzzLoad(f *testing.F) {
	_, file := savedMesh(f)
	f.Add(file)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data), Options{Workers: 1})
		if err != nil {
			return
		}
		var again bytes.Buffer
		require.NoError(t, m.Save(&again))
		_, err = Load(bytes.NewReader(again.Bytes()), Options{Workers: 1})
		require.NoError(t, err)
	})
}

// TestReadTilesRefusesTilesOutsideTheGrid gives the tiles section a tile
// without voxels outside the grid, listed as waiting so that no later
// check catches it. Read as a signed int, 0xffffffff is -1 on 32-bit CPUs
// and passed a signed bound check there (GOARCH=386 loaded the file); it
// must be refused on every CPU.
func TestReadTilesRefusesTilesOutsideTheGrid(t *testing.T) {
	m, err := New(context.Background(), floorLevel(), bake.DefaultSettings(), Options{Workers: 1})
	require.NoError(t, err)
	tilesX, tilesY := m.Grid()
	tests := []struct {
		name string
		x, y uint32
	}{
		{"x of -1 on 32 bits", 0xffffffff, 0},
		{"y of -1 on 32 bits", 0, 0xffffffff},
		{"x of -2^31 on 32 bits", 0x80000000, 1},
		{"x one past the grid", uint32(tilesX), 0},
		{"y one past the grid", 0, uint32(tilesY)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w writer
			w.u32(1) // one tile
			w.u32(tt.x)
			w.u32(tt.y)
			w.bytes(nil) // no voxels
			w.u32(1)     // one waiting
			w.u32(tt.x + tt.y*uint32(tilesX))
			fresh := &Mesh{tilesX: tilesX, tilesY: tilesY, baker: m.baker, tiles: map[int32]*tile{}}
			err := fresh.readTiles(&reader{data: w.out, section: "tiles"})
			require.ErrorIs(t, err, ErrCorruptFile)
			assert.Contains(t, err.Error(), "outside the")
			assert.Empty(t, fresh.tiles, "nothing is kept from a refused section")
		})
	}
}
