package navmesh

import (
	"fmt"
	"sync"
)

// FNV-1a 64-bit parameters.
const (
	fnvOffset64 uint64 = 0xcbf29ce484222325
	fnvPrime64  uint64 = 0x100000001b3
)

// Fingerprint returns the FNV-1a 64-bit hash of data (offset basis
// 0xcbf29ce484222325, prime 0x100000001b3), the hash the reference figures
// of the C++ build use.
func Fingerprint(data []byte) uint64 {
	return FingerprintAppend(fnvOffset64, data)
}

// FingerprintAppend continues an FNV-1a 64-bit hash whose state is h with
// more bytes, for fingerprints taken over several arrays in one running
// state. Start from Fingerprint(nil).
func FingerprintAppend(h uint64, data []byte) uint64 {
	for _, b := range data {
		h ^= uint64(b)
		h *= fnvPrime64
	}
	return h
}

// TileDataFingerprint returns the fingerprint of the C++ tile blob of data
// (Fingerprint of MarshalDNAV), the "tile data" figure of the reference.
func TileDataFingerprint(data *TileData) (uint64, error) {
	return FingerprintAppendTileData(fnvOffset64, data)
}

// FingerprintAppendTileData continues the FNV-1a 64-bit state h with the
// C++ tile blob of data: FingerprintAppend(h, blob) for the blob MarshalDNAV
// returns, with the same errors, but encoded into a buffer kept for the
// next call instead of a new one. It is safe for concurrent use.
func FingerprintAppendTileData(h uint64, data *TileData) (uint64, error) {
	if data == nil {
		return h, fmt.Errorf("navmesh: fingerprint tile: nil tile data: %w", ErrInconsistentTileData)
	}
	if problem := inspectTileData(data); problem != nil {
		return h, fmt.Errorf("navmesh: fingerprint tile: %s: %w", problem.describe(), ErrInconsistentTileData)
	}
	buffer, _ := blobBuffers.Get().(*[]byte)
	if buffer == nil {
		buffer = new([]byte)
	}
	*buffer = appendDNAV((*buffer)[:0], data)
	h = FingerprintAppend(h, *buffer)
	blobBuffers.Put(buffer)
	return h, nil
}

// blobBuffers holds *[]byte buffers for FingerprintAppendTileData.
var blobBuffers sync.Pool
