package navmesh

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
	blob, err := MarshalDNAV(data)
	if err != nil {
		return 0, err
	}
	return Fingerprint(blob), nil
}
