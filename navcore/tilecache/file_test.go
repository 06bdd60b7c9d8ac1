package tilecache

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// savedDungeon returns the dungeon cache with the reference obstacles, one
// removed (a free slot in the middle), a prism and a door volume, brought
// up to date, and the refs of its obstacles.
func savedDungeon(t testing.TB) (*Cache, []ObstacleRef) {
	cache := loadDungeon(t, 1)
	var refs []ObstacleRef
	for _, row := range readObstacles(t, "testdata/tc48_dungeon_obstacles.csv") {
		ref, err := cache.AddObstacle(row.obstacle)
		require.NoError(t, err)
		refs = append(refs, ref)
	}
	require.NoError(t, cache.RemoveObstacle(refs[5]))
	refs = append(refs[:5], refs[6:]...)
	p := dungeonPoint
	prism, err := cache.AddObstacle(Prism([]mgl32.Vec2{{p[0] - 1, p[2]}, {p[0], p[2] + 1}, {p[0] + 1, p[2] - 1}}, p[1], p[1]+2))
	require.NoError(t, err)
	door, err := cache.AddObstacle(Box(p.Sub(mgl32.Vec3{3, 1, 3}), p.Add(mgl32.Vec3{3, 2, 3})).WithArea(navmesh.AreaDoor))
	require.NoError(t, err)
	refs = append(refs, prism, door)
	updateUntilDone(t, cache)
	return cache, refs
}

// TestSaveLoadKeepsEverything: an archenav file gives back the layers with
// their refs, the obstacles with their handles, and, once updated, the very
// same navmesh.
func TestSaveLoadKeepsEverything(t *testing.T) {
	cache, refs := savedDungeon(t)
	var file bytes.Buffer
	require.NoError(t, cache.Save(&file))
	assert.Equal(t, FormatArchenav, DetectFormat(file.Bytes()))

	loaded, mesh, format, err := Load(file.Bytes(), Options{Workers: 2})
	require.NoError(t, err)
	assert.Equal(t, FormatArchenav, format)
	assert.Same(t, mesh, loaded.Mesh())
	assert.Equal(t, cache.Layers(nil), loaded.Layers(nil))
	assert.Equal(t, cache.ObstacleCount(), loaded.ObstacleCount())
	for _, ref := range refs {
		want, err := cache.Obstacle(ref)
		require.NoError(t, err)
		got, err := loaded.Obstacle(ref)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	updateUntilDone(t, loaded)
	assert.Equal(t, tileBlobs(t, cache.Mesh().Snapshot()), tileBlobs(t, mesh.Snapshot()))
	assertSameSummary(t, cache, loaded)

	// Handles go on working: the freed slot is reused first, removing
	// everything gives the initial mesh.
	again, err := loaded.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	assert.Equal(t, uint32(5), uint32(again))
	refs = append(refs, again)
	for _, ref := range refs {
		require.NoError(t, loaded.RemoveObstacle(ref))
	}
	updateUntilDone(t, loaded)
	assert.Equal(t, readDungeonReference(t).Initial, summary(t, loaded))

	// And the saved file is stable: saving the loaded cache again writes
	// the same bytes, obstacles and all, before any change.
	reloaded, _, _, err := Load(file.Bytes(), Options{})
	require.NoError(t, err)
	var second bytes.Buffer
	require.NoError(t, reloaded.Save(&second))
	assert.Equal(t, file.Bytes(), second.Bytes())
}

func TestLoadTSET(t *testing.T) {
	set, file := readDungeonTSET(t)
	cache, mesh, format, err := Load(file, Options{})
	require.NoError(t, err)
	assert.Equal(t, FormatTSET, format)
	assert.Equal(t, set.MeshParams, mesh.Params())
	updateUntilDone(t, cache)
	assert.Equal(t, readDungeonReference(t).Initial, summary(t, cache))
	out, err := MarshalTSET(cache.TileSet())
	require.NoError(t, err)
	assert.Equal(t, file, out, "the cache writes the C++ file back")
}

// TestLoadRejectsDamage: every truncation and single-byte corruption of both
// formats gives an error and no cache, or (for a corruption the format
// cannot see, in a TSET) a cache that still builds.
func TestLoadRejectsDamage(t *testing.T) {
	cache, _ := savedDungeon(t)
	var own bytes.Buffer
	require.NoError(t, cache.Save(&own))
	_, tset := readDungeonTSET(t)
	for _, file := range [][]byte{own.Bytes(), tset} {
		name := DetectFormat(file).String()
		for cut := 0; cut < len(file); cut += 1 + len(file)/97 {
			c, m, _, err := Load(file[:cut], Options{})
			assert.Error(t, err, "%s cut at %d", name, cut)
			assert.Nil(t, c)
			assert.Nil(t, m)
		}
		for at := 0; at < len(file); at += 1 + len(file)/211 {
			damaged := bytes.Clone(file)
			damaged[at] ^= 0x5a
			c, m, _, err := Load(damaged, Options{})
			if DetectFormat(file) == FormatArchenav {
				require.Error(t, err, "%s byte %d", name, at)
			}
			if err != nil {
				assert.Nil(t, c)
				assert.Nil(t, m)
				continue
			}
			// The TSET has no checksum: the change sits in a float or a
			// compressed byte; the cache must still update without
			// panicking, or report what it could not build.
			_, _ = c.Update(Budget{})
		}
	}
	_, _, format, err := Load([]byte("not a tile cache"), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat)
	assert.Equal(t, FormatUnknown, format)
}

func TestReadTSETBounds(t *testing.T) {
	_, file := readDungeonTSET(t)
	// A layer count far beyond the file: refused before any allocation.
	huge := bytes.Clone(file)
	binary.LittleEndian.PutUint32(huge[8:], 1<<30)
	_, err := ReadTSET(huge)
	assert.ErrorIs(t, err, ErrMalformedFile)
	// A layer size beyond the file.
	big := bytes.Clone(file)
	binary.LittleEndian.PutUint32(big[tsetHeaderSize+4:], 1<<30)
	_, err = ReadTSET(big)
	assert.ErrorIs(t, err, ErrMalformedFile)
	// Bad parameters.
	bad := bytes.Clone(file)
	binary.LittleEndian.PutUint32(bad[40+12:], 0) // cell size 0
	_, err = ReadTSET(bad)
	assert.ErrorIs(t, err, ErrMalformedFile)
	// Another version.
	v2 := bytes.Clone(file)
	binary.LittleEndian.PutUint32(v2[4:], 2)
	_, err = ReadTSET(v2)
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
}

// TestCacheMeshSavesWithNavmeshFormats: a navmesh built from the cache
// goes through the navmesh package's own file and MSET unchanged.
func TestCacheMeshSavesWithNavmeshFormats(t *testing.T) {
	cache, _ := savedDungeon(t)
	mesh := cache.Mesh()
	var own bytes.Buffer
	require.NoError(t, navmesh.Save(&own, mesh))
	loaded, format, err := navmesh.LoadBytes(own.Bytes())
	require.NoError(t, err)
	assert.Equal(t, navmesh.FormatArchenav, format)
	want := tileBlobs(t, mesh.Snapshot())
	assert.Equal(t, want, tileBlobs(t, loaded.Snapshot()))
	a, err := Summarize(mesh.Snapshot())
	require.NoError(t, err)
	b, err := Summarize(loaded.Snapshot())
	require.NoError(t, err)
	assert.Equal(t, a, b)

	var mset bytes.Buffer
	require.NoError(t, navmesh.WriteMSET(&mset, navmesh.TileSetFromMesh(mesh)))
	fromMSET, format, err := navmesh.LoadBytes(mset.Bytes())
	require.NoError(t, err)
	assert.Equal(t, navmesh.FormatMSET, format)
	assert.Equal(t, want, tileBlobs(t, fromMSET.Snapshot()))
}

func TestDecodeLayerRejectsBadLayers(t *testing.T) {
	set, _ := readDungeonTSET(t)
	data := set.Layers[0].Data
	layer, err := DecodeLayer(data, FastLZ{})
	require.NoError(t, err)
	mutate := func(change func(l *Layer)) []byte {
		l := cloneLayer(layer)
		change(l)
		// Encode without the checks, to feed DecodeLayer bad layers.
		grids := append(append(append([]byte(nil), l.Heights...), l.Areas...), l.Cons...)
		out := make([]byte, EncodedLayerHeaderSize)
		putLayerHeader(out, &l.Header)
		out, _ = FastLZ{}.Compress(out, grids)
		return out
	}
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"short", data[:20], ErrInvalidLayer},
		{"magic", append([]byte("XXXX"), data[4:]...), ErrUnknownLayerFormat},
		{"area above 63", mutate(func(l *Layer) { l.Areas[100] = 64 }), ErrInvalidLayer},
		{"connection off the grid", mutate(func(l *Layer) { l.Cons[0] |= 1 }), ErrInvalidLayer},
		{"zero width", mutate(func(l *Layer) { l.Header.Width = 0 }), ErrInvalidLayer},
		{"used cells beyond the grid", mutate(func(l *Layer) { l.Header.MaxX = 48 }), ErrInvalidLayer},
		{"bounds not ordered", mutate(func(l *Layer) { l.Header.BMin[0] = l.Header.BMax[0] + 1 }), ErrInvalidLayer},
		{"grids too short", func() []byte {
			out := bytes.Clone(data[:EncodedLayerHeaderSize])
			out, _ = FastLZ{}.Compress(out, make([]byte, 100))
			return out
		}(), ErrCorruptData},
		{"grids corrupt", append(bytes.Clone(data[:EncodedLayerHeaderSize]), 0x1f, 1), ErrCorruptData},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeLayer(c.data, FastLZ{})
			assert.ErrorIs(t, err, c.want)
		})
	}
	_, err = EncodeLayer(&Layer{Header: layer.Header}, FastLZ{})
	assert.ErrorIs(t, err, ErrInvalidLayer, "grids missing")
}

// FuzzLoad feeds arbitrary files to Load: an error, or a cache whose
// Update does not panic.
func FuzzLoad(f *testing.F) {
	_, tset := readDungeonTSET(f)
	// A small TSET: the header and the smallest layer.
	set, _ := readDungeonTSET(f)
	small := &TileSet{MeshParams: set.MeshParams, CacheParams: set.CacheParams, Layers: set.Layers[22:23]}
	smallFile, err := MarshalTSET(small)
	require.NoError(f, err)
	f.Add(smallFile)
	f.Add(tset[:200])
	cache, _, err := FromTileSet(small, Options{})
	require.NoError(f, err)
	updateUntilDone(f, cache)
	h := set.Layers[22]
	header, err := DecodeLayerHeader(h.Data)
	require.NoError(f, err)
	c := mgl32.Vec3{header.BMin[0] + 2, header.BMin[1], header.BMin[2] + 14}
	if _, err := cache.AddObstacle(Cylinder(c, 1, 3)); err == nil {
		updateUntilDone(f, cache)
	}
	var own bytes.Buffer
	require.NoError(f, cache.Save(&own))
	f.Add(own.Bytes())
	f.Fuzz(func(t *testing.T, file []byte) {
		cache, mesh, _, err := Load(file, Options{})
		if err != nil {
			require.Nil(t, cache)
			require.Nil(t, mesh)
			return
		}
		_, _ = cache.Update(Budget{})
	})
}

// FuzzDecodeLayer: any bytes decode to an error or a layer that encodes.
func FuzzDecodeLayer(f *testing.F) {
	set, _ := readDungeonTSET(f)
	f.Add(set.Layers[22].Data)
	f.Add(set.Layers[4].Data)
	f.Fuzz(func(t *testing.T, data []byte) {
		layer, err := DecodeLayer(data, FastLZ{})
		if err != nil {
			return
		}
		_, err = EncodeLayer(layer, FastLZ{})
		require.NoError(t, err)
	})
}
