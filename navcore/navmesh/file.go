package navmesh

import (
	"bytes"
	"encoding/binary"
)

// Format names a navmesh file format.
type Format int

// The formats LoadFile reads.
const (
	// FormatUnknown is not a navmesh file this package reads.
	FormatUnknown Format = iota
	// FormatDNAV is a single C++ Detour tile blob (magic "DNAV").
	FormatDNAV
	// FormatMSET is RecastDemo's tile-set file (magic "MSET").
	FormatMSET
	// FormatArchenav is this package's own mesh file (magic "ANAVMESH").
	FormatArchenav
)

// String returns the format's short name: "DNAV", "MSET", "archenav" or
// "unknown".
func (f Format) String() string {
	switch f {
	case FormatDNAV:
		return "DNAV"
	case FormatMSET:
		return "MSET"
	case FormatArchenav:
		return "archenav"
	}
	return "unknown"
}

// DetectFormat tells the format of a file from its first bytes (8 are
// enough) by its magic number; it does not check the rest.
func DetectFormat(head []byte) Format {
	if len(head) >= len(ownMagic) && string(head[:len(ownMagic)]) == ownMagic {
		return FormatArchenav
	}
	if len(head) < 4 {
		return FormatUnknown
	}
	switch {
	case binary.LittleEndian.Uint32(head) == dnavMagic, binary.BigEndian.Uint32(head) == dnavMagic:
		return FormatDNAV
	case bytes.Equal(head[:4], []byte("TESM")):
		return FormatMSET
	}
	return FormatUnknown
}
