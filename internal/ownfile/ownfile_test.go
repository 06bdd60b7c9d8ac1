package ownfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testFormat has sections of at least 4 bytes and names of letters.
var testFormat = Format{
	Magic: "TESTFILE", Noun: "part", Nouns: "parts",
	MinSection: 4, MaxEntries: 3, MaxNameLength: 8,
	ValidateName: func(name string) error {
		for _, r := range name {
			if r < 'a' || r > 'z' {
				return fmt.Errorf("name %q: letters only", name)
			}
		}
		return nil
	},
}

// setFile returns a version 2 file of the named sections.
func setFile(t *testing.T, names []string, sections [][]byte) []byte {
	t.Helper()
	out, err := AppendEntries(testFormat.AppendPrefix(nil, SetVersion), names, func(out []byte, i int) ([]byte, error) {
		return append(out, sections[i]...), nil
	})
	require.NoError(t, err)
	return AppendChecksum(out)
}

// singleFile returns a version 1 file of one section.
func singleFile(section []byte) []byte {
	return AppendChecksum(append(testFormat.AppendPrefix(nil, SingleVersion), section...))
}

// resum recomputes a file's checksum after an edit.
func resum(file []byte) []byte {
	body := file[:len(file)-ChecksumSize]
	return AppendChecksum(append([]byte(nil), body...))
}

func TestDecodeFindsTheSections(t *testing.T) {
	single := singleFile([]byte("abcdefg"))
	body, entries, problem := testFormat.Decode(single)
	require.Nil(t, problem)
	require.Equal(t, []Entry{{Start: PrefixSize, End: PrefixSize + 7}}, entries)
	assert.Equal(t, "abcdefg", string(body[entries[0].Start:entries[0].End]))

	sections := [][]byte{[]byte("1234"), []byte("567890"), []byte("abcd")}
	set := setFile(t, []string{"ogre", "elf", "orc"}, sections)
	body, entries, problem = testFormat.Decode(set)
	require.Nil(t, problem)
	require.Len(t, entries, 3)
	for i, name := range []string{"ogre", "elf", "orc"} {
		assert.Equal(t, name, entries[i].Name)
		assert.Equal(t, sections[i], body[entries[i].Start:entries[i].End])
	}
	assert.Equal(t, len(body), entries[2].End)
}

func TestDecodeRejectsBadFiles(t *testing.T) {
	le := binary.LittleEndian
	good := setFile(t, []string{"ogre", "elf"}, [][]byte{[]byte("1234"), []byte("5678")})
	firstName := PrefixSize + 4
	secondEntry := firstName + 4 + 4 + 8 + 4
	edit := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return resum(b)
	}
	tests := []struct {
		name   string
		file   []byte
		kind   ErrorKind
		want   string
		framed int // entries framed before the problem
	}{
		{"empty", nil, Malformed, "header: truncated: 0 bytes, want at least 24", 0},
		{"other magic", append([]byte("OTHERMAG"), good[8:]...), UnknownFormat, `header: magic "OTHERMAG", want "TESTFILE"`, 0},
		{"version 3", edit(func(b []byte) { le.PutUint32(b[8:], 3) }), UnsupportedVersion, "header: version 3, want 1 or 2", 0},
		{"set too short", good[:PrefixSize+4+17+ChecksumSize-1], Malformed, "header: truncated: 40 bytes, want at least 41", 0},
		{"checksum", func() []byte { b := append([]byte(nil), good...); b[20]++; return b }(), Malformed, "checksum at offset", 0},
		{"reserved", edit(func(b []byte) { b[12] = 1 }), Malformed, "header: reserved field is 0x1, want 0", 0},
		{"no parts", edit(func(b []byte) { le.PutUint32(b[PrefixSize:], 0) }), Malformed, "0 parts: want 1..3", 0},
		{"more parts than room", edit(func(b []byte) { le.PutUint32(b[PrefixSize:], 3) }), Malformed, "3 parts: want 1..3 and the file has room for 2", 0},
		{"name size 0", edit(func(b []byte) { le.PutUint32(b[firstName:], 0) }), Malformed, "part 0 at offset 0x14: name size 0: want 1..8", 0},
		{"bad name", edit(func(b []byte) { b[firstName+4] = 'O' }), Malformed, `part 0 at offset 0x14: name "Ogre": letters only`, 0},
		{"section past the end", edit(func(b []byte) { le.PutUint64(b[secondEntry+4+3:], 100) }), Malformed, "part 1 at offset 0x28: section size 100, 4 bytes left", 1},
		{"bytes after the last", edit(func(b []byte) { le.PutUint64(b[secondEntry+4+3:], 2) }), Malformed, "2 bytes after the last part", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, entries, problem := testFormat.Decode(tt.file)
			require.NotNil(t, problem)
			assert.Equal(t, tt.kind, problem.Kind)
			assert.Contains(t, problem.Error(), tt.want)
			assert.Len(t, entries, tt.framed, "entries framed before the problem")
		})
	}
}

func TestDuplicateNamesAreRejected(t *testing.T) {
	file := setFile(t, []string{"ogre", "ogre"}, [][]byte{[]byte("1234"), []byte("5678")})
	_, entries, problem := testFormat.Decode(file)
	require.NotNil(t, problem)
	assert.Contains(t, problem.Error(), `part 1 at offset 0x28: name "ogre" already used by part 0`)
	assert.Len(t, entries, 1)
}

func TestErrorWrapsTheSentinelOfItsKind(t *testing.T) {
	malformed, unknown, unsupported := errors.New("malformed"), errors.New("unknown"), errors.New("unsupported")
	sentinels := Sentinels{Malformed: malformed, UnknownFormat: unknown, UnsupportedVersion: unsupported}
	for kind, want := range map[ErrorKind]error{Malformed: malformed, UnknownFormat: unknown, UnsupportedVersion: unsupported} {
		err := (&Error{Kind: kind, Where: "header", What: "what"}).Wrap("pkg: fmt", sentinels)
		assert.ErrorIs(t, err, want)
		assert.Equal(t, "pkg: fmt: header: what: "+want.Error(), err.Error())
	}
}

func TestAppendEntriesStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("boom")
	out, err := AppendEntries(nil, []string{"a", "b"}, func(out []byte, i int) ([]byte, error) {
		if i == 1 {
			return nil, boom
		}
		return append(out, "1234"...), nil
	})
	assert.ErrorIs(t, err, boom)
	assert.Nil(t, out)
}

// FuzzDecode: no input panics; the entries framed before a problem lie in
// the body; a file that decodes has its sections in order inside the body,
// no more of them than its size allows, and encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add(singleFile([]byte("abcd")))
	sections := [][]byte{[]byte("1234"), []byte("567890")}
	out, _ := AppendEntries(testFormat.AppendPrefix(nil, SetVersion), []string{"ogre", "elf"}, func(out []byte, i int) ([]byte, error) {
		return append(out, sections[i]...), nil
	})
	f.Add(AppendChecksum(out))
	f.Fuzz(func(t *testing.T, file []byte) {
		body, entries, problem := testFormat.Decode(file)
		if problem != nil {
			for _, e := range entries {
				require.LessOrEqual(t, e.End, len(body))
			}
			return
		}
		require.NotEmpty(t, entries)
		require.LessOrEqual(t, len(entries), len(file)/(entryOverhead+testFormat.MinSection)+1)
		var again []byte
		if entries[0].Name == "" {
			require.Len(t, entries, 1)
			again = singleFile(body[entries[0].Start:entries[0].End])
		} else {
			names := make([]string, len(entries))
			for i, e := range entries {
				names[i] = e.Name
				require.LessOrEqual(t, e.Start, e.End)
				if i > 0 {
					require.GreaterOrEqual(t, e.Start, entries[i-1].End)
				}
			}
			out, err := AppendEntries(testFormat.AppendPrefix(nil, SetVersion), names, func(out []byte, i int) ([]byte, error) {
				return append(out, body[entries[i].Start:entries[i].End]...), nil
			})
			require.NoError(t, err)
			again = AppendChecksum(out)
		}
		require.Equal(t, file, again)
	})
}
