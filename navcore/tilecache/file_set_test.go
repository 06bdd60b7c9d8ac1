package tilecache

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallCache returns a cache of three layers of the dungeon's TSET, up to
// date.
func smallCache(t testing.TB) *Cache {
	t.Helper()
	set, _ := readDungeonTSET(t)
	small := &TileSet{MeshParams: set.MeshParams, CacheParams: set.CacheParams, Layers: set.Layers[20:23]}
	cache, _, err := FromTileSet(small, Options{})
	require.NoError(t, err)
	updateUntilDone(t, cache)
	return cache
}

// cacheSetByHand lays out a version 2 file field by field from the
// caches' version 1 files, independently of SaveSet.
func cacheSetByHand(t testing.TB, names []string, caches []*Cache) []byte {
	t.Helper()
	le := binary.LittleEndian
	file := []byte("ANAVTCCH")
	file = le.AppendUint32(file, 2)
	file = le.AppendUint32(file, 0)
	file = le.AppendUint32(file, uint32(len(caches)))
	for i, c := range caches {
		var single bytes.Buffer
		require.NoError(t, c.Save(&single))
		section := single.Bytes()[16 : single.Len()-4]
		file = le.AppendUint32(file, uint32(len(names[i])))
		file = append(file, names[i]...)
		file = le.AppendUint64(file, uint64(len(section)))
		file = append(file, section...)
	}
	return le.AppendUint32(file, crc32.ChecksumIEEE(file))
}

func TestSaveSetLoadSet(t *testing.T) {
	soldier, refs := savedDungeon(t)
	ogre := smallCache(t)
	var file bytes.Buffer
	require.NoError(t, SaveSet(&file, []NamedCache{{Name: "soldier", Cache: soldier}, {Name: "ogre", Cache: ogre}}))
	require.Equal(t, cacheSetByHand(t, []string{"soldier", "ogre"}, []*Cache{soldier, ogre}), file.Bytes(), "version 2 layout")

	loaded, format, err := LoadSet(file.Bytes(), Options{Workers: 2})
	require.NoError(t, err)
	assert.Equal(t, FormatArchenav, format)
	require.Len(t, loaded, 2)
	assert.Equal(t, []string{"soldier", "ogre"}, []string{loaded[0].Name, loaded[1].Name})
	for i, want := range []*Cache{soldier, ogre} {
		got := loaded[i]
		assert.Same(t, got.Mesh, got.Cache.Mesh())
		assert.Equal(t, want.Layers(nil), got.Cache.Layers(nil))
		assert.Equal(t, want.ObstacleCount(), got.Cache.ObstacleCount())
		updateUntilDone(t, got.Cache)
		assert.Equal(t, tileBlobs(t, want.Mesh().Snapshot()), tileBlobs(t, got.Mesh.Snapshot()), got.Name)
	}
	for _, ref := range refs {
		want, err := soldier.Obstacle(ref)
		require.NoError(t, err)
		got, err := loaded[0].Cache.Obstacle(ref)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}

	// The single-cache loader refuses to guess.
	c, m, _, err := Load(file.Bytes(), Options{})
	require.ErrorIs(t, err, ErrSeveralCaches)
	assert.Contains(t, err.Error(), `2 caches ("soldier", "ogre")`)
	assert.Nil(t, c)
	assert.Nil(t, m)
}

func TestSaveSetOfOneCache(t *testing.T) {
	cache := smallCache(t)
	var single, set bytes.Buffer
	require.NoError(t, cache.Save(&single))
	require.NoError(t, SaveSet(&set, []NamedCache{{Cache: cache}}))
	assert.Equal(t, single.Bytes(), set.Bytes(), "one unnamed cache: Save's file")

	var named bytes.Buffer
	require.NoError(t, SaveSet(&named, []NamedCache{{Name: "cart", Cache: cache}}))
	assert.Equal(t, uint32(2), binary.LittleEndian.Uint32(named.Bytes()[8:]))
	loaded, _, _, err := Load(named.Bytes(), Options{})
	require.NoError(t, err, "Load reads a set of one")
	assert.Equal(t, cache.Layers(nil), loaded.Layers(nil))

	_, tset := readDungeonTSET(t)
	fromTSET, format, err := LoadSet(tset, Options{})
	require.NoError(t, err)
	assert.Equal(t, FormatTSET, format)
	require.Len(t, fromTSET, 1)
	assert.Equal(t, "", fromTSET[0].Name)

	for _, bad := range [][]NamedCache{
		nil,
		{{Name: "a", Cache: cache}, {Name: "a", Cache: cache}},
		{{Name: "a", Cache: cache}, {Cache: cache}},
		{{Name: "a", Cache: cache}, {Name: "b"}},
	} {
		var out bytes.Buffer
		require.Error(t, SaveSet(&out, bad))
		assert.Zero(t, out.Len())
	}
}

func TestLoadSetRejectsDamage(t *testing.T) {
	le := binary.LittleEndian
	soldier, ogre := smallCache(t), smallCache(t)
	good := cacheSetByHand(t, []string{"soldier", "ogre"}, []*Cache{soldier, ogre})
	for n := 0; n < len(good); n += 1 + len(good)/301 {
		caches, _, err := LoadSet(good[:n], Options{})
		require.Error(t, err, "prefix of %d bytes", n)
		assert.Nil(t, caches)
	}
	for i := 12; i < len(good); i += 1 + len(good)/307 {
		damaged := bytes.Clone(good)
		damaged[i] ^= 0x20
		_, err := decodeOwnSet(damaged)
		require.ErrorIs(t, err, ErrMalformedFile, "byte %d flipped", i)
		assert.Contains(t, err.Error(), "checksum")
	}

	const firstName = ownPrefixSize + 4
	firstSize := firstName + 4 + len("soldier")
	secondName := firstSize + 8 + int(le.Uint64(good[firstSize:]))
	secondSection := secondName + 4 + len("ogre") + 8
	reseal := func(b []byte) []byte {
		le.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
		return b
	}
	tests := []struct {
		name   string
		mutate func([]byte)
		want   string
	}{
		{"no caches", func(b []byte) { le.PutUint32(b[ownPrefixSize:], 0) }, "0 caches"},
		{"more caches than room", func(b []byte) { le.PutUint32(b[ownPrefixSize:], 100) }, "100 caches"},
		{"empty name", func(b []byte) { le.PutUint32(b[firstName:], 0) }, "name size 0"},
		{"name control character", func(b []byte) { b[firstName+4] = 0 }, "control characters"},
		{"section past the end", func(b []byte) { le.PutUint64(b[firstSize:], 1<<40) }, "section size 1099511627776"},
		{"section short", func(b []byte) { le.PutUint64(b[firstSize:], le.Uint64(b[firstSize:])-1) }, `cache "soldier": obstacles at offset`},
		{"bad params of the second", func(b []byte) { le.PutUint32(b[secondSection+20:], 0) }, `cache "ogre": header`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			damaged := bytes.Clone(good)
			tt.mutate(damaged)
			saved, err := decodeOwnSet(reseal(damaged))
			require.ErrorIs(t, err, ErrMalformedFile)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, saved)
		})
	}
	saved, err := decodeOwnSet(cacheSetByHand(t, []string{"ogre", "ogre"}, []*Cache{soldier, ogre}))
	require.ErrorIs(t, err, ErrMalformedFile)
	assert.Contains(t, err.Error(), `cache 1 at offset`)
	assert.Contains(t, err.Error(), `name "ogre" already used by cache 0`)
	assert.Nil(t, saved)
}

// FuzzLoadSet feeds arbitrary files to LoadSet: an error and nothing
// built, or caches that save and load again to the same names and layers.
func FuzzLoadSet(f *testing.F) {
	f.Add(cacheSetByHand(f, []string{"soldier", "ogre"}, []*Cache{smallCache(f), smallCache(f)}))
	f.Fuzz(func(t *testing.T, file []byte) {
		caches, _, err := LoadSet(file, Options{})
		if err != nil {
			require.Nil(t, caches)
			return
		}
		var out bytes.Buffer
		require.NoError(t, SaveSet(&out, caches))
		again, _, err := LoadSet(out.Bytes(), Options{})
		require.NoError(t, err)
		require.Len(t, again, len(caches))
		for i := range caches {
			require.Equal(t, caches[i].Name, again[i].Name)
			require.Equal(t, caches[i].Cache.Layers(nil), again[i].Cache.Layers(nil))
		}
	})
}
