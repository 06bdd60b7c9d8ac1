package tilecache

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// vectorInput reproduces the inputs of the C harness that wrote
// testdata/fastlz (gen.h, see testdata/README.md): an xorshift32 stream
// shaped by kind (0 random, 1 runs, 2 small alphabet, 3 repeated blocks,
// 4 far repeats, 5 layer-like rows).
func vectorInput(kind, length int, seed uint32) []byte {
	state := seed*2654435761 + 1
	if state == 0 {
		state = 1
	}
	next := func() uint32 {
		x := state
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		state = x
		return x
	}
	out := make([]byte, length)
	i := 0
	switch kind {
	case 0:
		for i = range out {
			out[i] = byte(next() >> 24)
		}
	case 1:
		for i < length {
			run := 1 + int(next()%300)
			b := byte(next() >> 24)
			for k := 0; k < run && i < length; k++ {
				out[i] = b
				i++
			}
		}
	case 2:
		for i = range out {
			out[i] = byte(next() >> 30)
		}
	case 3:
		block := 1 + int(next()%100)
		buf := make([]byte, block)
		for k := range buf {
			buf[k] = byte(next() >> 24)
		}
		for i < length {
			for k := 0; k < block && i < length; k++ {
				out[i] = buf[k]
				i++
			}
			if next()&7 == 0 {
				at := next() % uint32(block)
				buf[at] = byte(next() >> 24)
			}
		}
	case 4:
		block := 9000 + int(next()%20000)
		for i = range out {
			if i < block {
				out[i] = byte(next() >> 24)
			} else {
				flip := byte(0)
				if next()&63 == 0 {
					flip = 1
				}
				out[i] = out[i-block] ^ flip
			}
		}
	case 5:
		for i = range out {
			r := next()
			x := i % 48
			if (i/48)%7 == 0 || x < 5 {
				out[i] = 0xff
			} else {
				extra := byte(0)
				if r&15 == 0 {
					extra = 1
				}
				out[i] = byte(x/6) + extra
			}
		}
	}
	return out
}

type fastlzVector struct {
	kind, length int
	seed         uint32
	level        int // 0: the level fastlz_compress picks
	size         int
	hash         uint64
}

func readFastLZVectors(t *testing.T) []fastlzVector {
	t.Helper()
	f, err := os.Open("testdata/fastlz/vectors.csv")
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	vectors := make([]fastlzVector, 0, len(rows)-1)
	for _, row := range rows[1:] {
		atoi := func(s string) int {
			v, err := strconv.Atoi(s)
			require.NoError(t, err)
			return v
		}
		hash, err := strconv.ParseUint(row[5], 16, 64)
		require.NoError(t, err)
		vectors = append(vectors, fastlzVector{
			kind: atoi(row[0]), length: atoi(row[1]), seed: uint32(atoi(row[2])),
			level: atoi(row[3]), size: atoi(row[4]), hash: hash,
		})
	}
	return vectors
}

// TestFastLZMatchesC compresses the harness inputs and compares size and
// FNV-1a 64 of every stream with what fastlz.c wrote, at level 1, level 2
// and the level fastlz_compress picks; each stream must also decompress
// back to its input.
func TestFastLZMatchesC(t *testing.T) {
	vectors := readFastLZVectors(t)
	require.Greater(t, len(vectors), 1000)
	var codec FastLZ
	for _, v := range vectors {
		input := vectorInput(v.kind, v.length, v.seed)
		var out []byte
		var err error
		if v.level == 0 {
			out, err = codec.Compress(nil, input)
		} else {
			out, err = codec.CompressLevel(nil, input, v.level)
		}
		require.NoError(t, err)
		name := fmt.Sprintf("kind %d length %d seed %d level %d", v.kind, v.length, v.seed, v.level)
		if !assert.Equal(t, v.size, len(out), name) || !assert.Equal(t, v.hash, navmesh.Fingerprint(out), name) {
			continue
		}
		assert.LessOrEqual(t, len(out), codec.MaxCompressedSize(len(input)), name)
		back, err := codec.Decompress(make([]byte, 0, len(input)), out)
		require.NoError(t, err, name)
		assert.Equal(t, input, back, name)
	}
}

// TestFastLZDecompressesCStreams decodes whole streams fastlz.c wrote
// (levels 1 and 2, far matches included) and checks the input comes back.
func TestFastLZDecompressesCStreams(t *testing.T) {
	files, err := filepath.Glob("testdata/fastlz/*.bin")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var codec FastLZ
	for _, file := range files {
		var kind, length, level int
		var seed uint32
		_, err := fmt.Sscanf(filepath.Base(file), "%d_%d_%d_l%d.bin", &kind, &length, &seed, &level)
		require.NoError(t, err, file)
		stream, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, byte(level-1), stream[0]>>5, file)
		back, err := codec.Decompress(make([]byte, 0, length), stream)
		require.NoError(t, err, file)
		assert.Equal(t, vectorInput(kind, length, seed), back, file)

		// One byte less room must fail cleanly.
		_, err = codec.Decompress(make([]byte, 0, length-1), stream)
		assert.ErrorIs(t, err, ErrCorruptData, file)
		// So must every truncation that cuts an instruction.
		for cut := 1; cut < len(stream); cut += 1 + len(stream)/37 {
			out, err := codec.Decompress(make([]byte, 0, length), stream[:cut])
			if err == nil {
				assert.Less(t, len(out), length, "%s cut at %d", file, cut)
			}
		}
	}
}

func TestFastLZDecompressRejectsHostileStreams(t *testing.T) {
	var codec FastLZ
	cases := []struct {
		name   string
		stream []byte
		room   int
	}{
		{"unknown level", []byte{0x40, 1}, 16},
		{"literals past the input", []byte{5, 1, 2}, 16},
		{"literals past the output", []byte{5, 1, 2, 3, 4, 5, 6}, 3},
		{"match before the start", []byte{0, 'a', 0x20, 5}, 16},
		{"match past the output", []byte{0, 'a', 0xe0, 200, 0}, 16},
		{"level 1 long match truncated", []byte{0, 'a', 0xe0}, 300},
		{"level 1 distance byte missing", []byte{0, 'a', 0x20}, 16},
		{"level 2 length chain truncated", []byte{0x20, 'a', 0xe0, 255, 255}, 2000},
		{"level 2 far distance truncated", []byte{0x20, 'a', 0x3f, 255, 1}, 16},
		{"level 2 far match before the start", []byte{0x20, 'a', 0x3f, 255, 0, 0}, 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := make([]byte, c.room, c.room+8)
			guard := buf[c.room : c.room+8]
			for i := range guard {
				guard[i] = 0xa5
			}
			_, err := codec.Decompress(buf[:0:c.room], c.stream)
			assert.ErrorIs(t, err, ErrCorruptData)
			assert.Equal(t, []byte{0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5}, guard, "nothing written past cap")
		})
	}
}

func TestFastLZEmptyAndTinyInputs(t *testing.T) {
	var codec FastLZ
	out, err := codec.Compress(nil, nil)
	require.NoError(t, err)
	assert.Empty(t, out)
	back, err := codec.Decompress(nil, out)
	require.NoError(t, err)
	assert.Empty(t, back)

	out, err = codec.Compress(nil, []byte{7, 8, 9})
	require.NoError(t, err)
	assert.Equal(t, []byte{2, 7, 8, 9}, out, "a literal run of three")

	_, err = codec.CompressLevel(nil, []byte{1}, 3)
	assert.Error(t, err)
}

func TestFastLZCompressAllocatesNothingWithRoom(t *testing.T) {
	var codec FastLZ
	input := vectorInput(5, 6912, 1)
	dst := make([]byte, 0, codec.MaxCompressedSize(len(input)))
	back := make([]byte, 0, len(input))
	allocs := testing.AllocsPerRun(20, func() {
		out, _ := codec.Compress(dst, input)
		_, _ = codec.Decompress(back, out)
	})
	assert.Zero(t, allocs)
}

// FuzzFastLZRoundTrip checks that any input compresses within
// MaxCompressedSize and decompresses back, at both levels.
func FuzzFastLZRoundTrip(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabcabcabc"), false)
	f.Add(vectorInput(1, 2000, 1), true)
	f.Add(vectorInput(5, 700, 2), false)
	f.Add([]byte{}, true)
	f.Fuzz(func(t *testing.T, input []byte, level2 bool) {
		var codec FastLZ
		level := 1
		if level2 {
			level = 2
		}
		out, err := codec.CompressLevel(nil, input, level)
		require.NoError(t, err)
		require.LessOrEqual(t, len(out), codec.MaxCompressedSize(len(input)))
		back, err := codec.Decompress(make([]byte, 0, len(input)), out)
		require.NoError(t, err)
		require.Equal(t, len(input), len(back))
		if len(input) > 0 {
			require.Equal(t, input, back)
		}
	})
}

// FuzzFastLZDecompress feeds arbitrary streams: the decoder must return an
// error or at most room bytes, and never write past cap.
func FuzzFastLZDecompress(f *testing.F) {
	var codec FastLZ
	seed, _ := codec.Compress(nil, vectorInput(3, 500, 1))
	f.Add(seed, uint16(500))
	seed2, _ := codec.CompressLevel(nil, vectorInput(4, 9500, 1), 2)
	f.Add(seed2, uint16(9500))
	f.Add([]byte{0x20, 'a', 0x3f, 255, 0, 0}, uint16(16))
	f.Fuzz(func(t *testing.T, stream []byte, room uint16) {
		buf := make([]byte, int(room)+4)
		for i := range 4 {
			buf[int(room)+i] = 0x5a
		}
		out, err := codec.Decompress(buf[:0:room], stream)
		if err == nil {
			require.LessOrEqual(t, len(out), int(room))
		}
		require.Equal(t, []byte{0x5a, 0x5a, 0x5a, 0x5a}, buf[room:])
	})
}
