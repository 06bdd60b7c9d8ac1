// Package ownfile reads and writes the envelope that archenav's own file
// formats share (navmesh's archenav mesh file, tilecache's archenav tile
// cache file), little-endian throughout:
//
//	magic      8 bytes, the format's
//	version    uint32   1 or 2
//	reserved   uint32   0
//	version 1: one section
//	version 2: entry count uint32, then per entry
//	  name size uint32  1..the format's longest name
//	  name      bytes the format's name check accepts, unique in the file
//	  size      uint64  size of the section that follows
//	  section
//	checksum   uint32   CRC-32 (IEEE) of every byte before it
//
// What a section holds is the format's business; this package checks the
// envelope and finds the sections, checking every size and count against
// the bytes present before it is used.
package ownfile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
)

// Sizes and versions of the envelope.
const (
	// PrefixSize is the magic, the version and the reserved word [Units: bytes].
	PrefixSize = 8 + 4 + 4
	// ChecksumSize is the trailing CRC-32 [Units: bytes].
	ChecksumSize = 4
	// SingleVersion holds one unnamed section, SetVersion named ones.
	SingleVersion uint32 = 1
	SetVersion    uint32 = 2
)

// entryOverhead is what a version 2 entry adds to its section at least:
// the name size, a one-byte name and the section size.
const entryOverhead = 4 + 1 + 8

// Format describes one file format's envelope.
type Format struct {
	// Magic is the format's first 8 bytes.
	Magic string
	// Noun and Nouns name what a section holds in errors ("mesh",
	// "meshes").
	Noun, Nouns string
	// MinSection is the size of the smallest valid section [Units: bytes].
	MinSection int
	// MaxEntries and MaxNameLength bound a version 2 file's entry count
	// and name size [Units: entries, bytes].
	MaxEntries, MaxNameLength int
	// ValidateName checks a version 2 entry's name.
	ValidateName func(name string) error
}

// Entry is one section of a file's body: body[Start:End], named Name (""
// in a version 1 file).
type Entry struct {
	Name       string
	Start, End int
}

// ErrorKind says what kind of problem an Error is.
type ErrorKind int

// The kinds of Error.
const (
	// Malformed: the file is truncated, corrupted or inconsistent.
	Malformed ErrorKind = iota
	// UnknownFormat: the magic is not the format's.
	UnknownFormat
	// UnsupportedVersion: the version is neither 1 nor 2.
	UnsupportedVersion
)

// Error is what is wrong with a file: where ("header", "mesh 2 at offset
// 0x40") and what. The format's package wraps it into its own error.
type Error struct {
	Kind        ErrorKind
	Where, What string
}

func (e *Error) Error() string { return e.Where + ": " + e.What }

// Sentinels are a format package's errors for the kinds of Error.
type Sentinels struct {
	Malformed, UnknownFormat, UnsupportedVersion error
}

// Wrap returns e as "prefix: where: what", wrapping the sentinel of its
// kind.
func (e *Error) Wrap(prefix string, sentinels Sentinels) error {
	sentinel := sentinels.Malformed
	switch e.Kind {
	case UnknownFormat:
		sentinel = sentinels.UnknownFormat
	case UnsupportedVersion:
		sentinel = sentinels.UnsupportedVersion
	}
	return fmt.Errorf("%s: %s: %s: %w", prefix, e.Where, e.What, sentinel)
}

func malformed(where, what string, args ...any) *Error {
	return &Error{Kind: Malformed, Where: where, What: fmt.Sprintf(what, args...)}
}

// minSingle is the size of the smallest version 1 file.
func (f *Format) minSingle() int { return PrefixSize + f.MinSection + ChecksumSize }

// Decode checks the envelope of file (magic, version, checksum, reserved
// word and, in a version 2 file, the entries' framing and names) and
// returns its body, the bytes before the checksum, and its sections in
// file order: one unnamed entry for version 1. It allocates only for the
// entries, at most one per MinSection plus entry overhead bytes of the
// file.
//
// On a problem it returns an Error, with the body and the entries framed
// before the problem when it lies in a later entry: a reader that decodes
// those sections first reports the file's first problem in file order.
func (f *Format) Decode(file []byte) (body []byte, entries []Entry, problem *Error) {
	le := binary.LittleEndian
	if len(file) < len(f.Magic)+4 {
		return nil, nil, malformed("header", "truncated: %d bytes, want at least %d", len(file), f.minSingle())
	}
	if string(file[:len(f.Magic)]) != f.Magic {
		return nil, nil, &Error{Kind: UnknownFormat, Where: "header", What: fmt.Sprintf("magic %q, want %q", file[:len(f.Magic)], f.Magic)}
	}
	version := le.Uint32(file[8:])
	if version != SingleVersion && version != SetVersion {
		return nil, nil, &Error{Kind: UnsupportedVersion, Where: "header", What: fmt.Sprintf("version %d, want %d or %d", version, SingleVersion, SetVersion)}
	}
	minSize := f.minSingle()
	if version == SetVersion {
		minSize = PrefixSize + 4 + entryOverhead + f.MinSection + ChecksumSize
	}
	if len(file) < minSize {
		return nil, nil, malformed("header", "truncated: %d bytes, want at least %d", len(file), minSize)
	}
	body = file[:len(file)-ChecksumSize]
	if stored, computed := le.Uint32(file[len(body):]), crc32.ChecksumIEEE(body); stored != computed {
		return nil, nil, malformed(fmt.Sprintf("checksum at offset %#x", len(body)), "stored %#08x, computed %#08x (truncated or corrupted)", stored, computed)
	}
	if reserved := le.Uint32(file[12:]); reserved != 0 {
		return nil, nil, malformed("header", "reserved field is %#x, want 0", reserved)
	}
	if version == SingleVersion {
		return body, []Entry{{Start: PrefixSize, End: len(body)}}, nil
	}
	entries, problem = f.decodeEntries(body)
	return body, entries, problem
}

// decodeEntries finds the sections of a version 2 body, up to the first
// problem.
func (f *Format) decodeEntries(body []byte) (entries []Entry, problem *Error) {
	le := binary.LittleEndian
	count := le.Uint32(body[PrefixSize:])
	roomFor := (len(body) - PrefixSize - 4) / (entryOverhead + f.MinSection)
	if count == 0 || uint64(count) > uint64(f.MaxEntries) || uint64(count) > uint64(roomFor) {
		return nil, malformed("header", "%d %s: want 1..%d and the file has room for %d", count, f.Nouns, f.MaxEntries, roomFor)
	}
	entries = make([]Entry, 0, count)
	offset := PrefixSize + 4
	for i := 0; i < int(count); i++ {
		where := fmt.Sprintf("%s %d at offset %#x", f.Noun, i, offset)
		if len(body)-offset < 4 {
			return entries, malformed(where, "truncated name size")
		}
		nameSize := uint64(le.Uint32(body[offset:]))
		offset += 4
		if nameSize == 0 || nameSize > uint64(f.MaxNameLength) || nameSize > uint64(len(body)-offset) {
			return entries, malformed(where, "name size %d: want 1..%d, %d bytes left", nameSize, f.MaxNameLength, len(body)-offset)
		}
		name := string(body[offset : offset+int(nameSize)])
		offset += int(nameSize)
		if err := f.ValidateName(name); err != nil {
			return entries, malformed(where, "%v", err)
		}
		if previous := slices.IndexFunc(entries, func(e Entry) bool { return e.Name == name }); previous >= 0 {
			return entries, malformed(where, "name %q already used by %s %d", name, f.Noun, previous)
		}
		if len(body)-offset < 8 {
			return entries, malformed(where, "truncated section size")
		}
		size := le.Uint64(body[offset:])
		offset += 8
		if size > uint64(len(body)-offset) {
			return entries, malformed(where, "section size %d, %d bytes left", size, len(body)-offset)
		}
		end := offset + int(size)
		entries = append(entries, Entry{Name: name, Start: offset, End: end})
		offset = end
	}
	if offset != len(body) {
		return entries, malformed(fmt.Sprintf("offset %#x", offset), "%d bytes after the last %s", len(body)-offset, f.Noun)
	}
	return entries, nil
}

// AppendPrefix appends the magic, version and reserved word to out.
func (f *Format) AppendPrefix(out []byte, version uint32) []byte {
	out = append(out, f.Magic...)
	out = binary.LittleEndian.AppendUint32(out, version)
	return binary.LittleEndian.AppendUint32(out, 0)
}

// AppendEntries appends a version 2 file's entries to out, which holds the
// prefix: the count, then for each name its framing around the section
// appendSection(out, i) appends. Names are the caller's to check. It
// returns the first error of appendSection.
func AppendEntries(out []byte, names []string, appendSection func(out []byte, i int) ([]byte, error)) ([]byte, error) {
	le := binary.LittleEndian
	out = le.AppendUint32(out, uint32(len(names)))
	for i, name := range names {
		out = le.AppendUint32(out, uint32(len(name)))
		out = append(out, name...)
		sizeAt := len(out)
		out = le.AppendUint64(out, 0)
		var err error
		if out, err = appendSection(out, i); err != nil {
			return nil, err
		}
		le.PutUint64(out[sizeAt:], uint64(len(out)-sizeAt-8))
	}
	return out, nil
}

// AppendChecksum appends the CRC-32 (IEEE) of out to it.
func AppendChecksum(out []byte) []byte {
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}
