package tilecache

import (
	"errors"
	"fmt"
)

// FastLZ is the Compressor RecastDemo's tile cache uses (its FastLZCompressor
// around fastlz.c of 2007): Compress writes exactly the bytes fastlz_compress
// writes (level 1 below 64 KiB of input, level 2 from there on), so layers and
// TSET files written here equal the C++ ones, and Decompress reads both levels.
// Decompress checks every length and back-reference against its input and
// output, so a malformed stream gives an error wrapping ErrCorruptData, never a
// panic or a write past the output. The zero value is ready to use and safe for
// concurrent use.
type FastLZ struct{}

// FastLZ format constants.
const (
	// fastlzMaxCopy is the longest literal run one instruction holds.
	fastlzMaxCopy = 32
	// fastlzMaxLen is the longest match one level 1 instruction holds.
	fastlzMaxLen = 264
	// fastlzMaxDistance1 bounds level 1 back-references.
	fastlzMaxDistance1 = 8192
	// fastlzMaxDistance2 is where level 2 switches to 16-bit distances.
	fastlzMaxDistance2 = 8191
	// fastlzMaxFarDistance bounds level 2 back-references.
	fastlzMaxFarDistance = 65535 + fastlzMaxDistance2 - 1
	// fastlzLevel2From is the input size from which fastlz_compress picks
	// level 2.
	fastlzLevel2From = 65536

	fastlzHashLog  = 13
	fastlzHashSize = 1 << fastlzHashLog
	fastlzHashMask = fastlzHashSize - 1
)

// ErrCorruptData is wrapped by decompressors and decoders for input that is
// truncated, refers outside its own output or does not fit its destination.
var ErrCorruptData = errors.New("tilecache: corrupt compressed data")

// MaxCompressedSize returns the largest output Compress writes for n input
// bytes: one control byte per 32 literals plus one.
func (FastLZ) MaxCompressedSize(n int) int {
	if n <= 0 {
		return 0
	}
	return n + (n+fastlzMaxCopy-1)/fastlzMaxCopy + 1
}

// Compress appends the FastLZ form of src to dst, level 1 for fewer than
// 65536 bytes and level 2 from there on, as fastlz_compress does. It does
// not allocate when cap(dst)-len(dst) >= MaxCompressedSize(len(src)).
func (f FastLZ) Compress(dst, src []byte) ([]byte, error) {
	return fastlzCompress(dst, src, len(src) >= fastlzLevel2From), nil
}

// CompressLevel appends the FastLZ form of src at level (1 or 2) to dst, as
// fastlz_compress_level does. Other levels give an error.
func (FastLZ) CompressLevel(dst, src []byte, level int) ([]byte, error) {
	if level != 1 && level != 2 {
		return dst, fmt.Errorf("tilecache: fastlz: compression level %d, want 1 or 2", level)
	}
	return fastlzCompress(dst, src, level == 2), nil
}

// Decompress decompresses src, written at either level, into dst[:cap(dst)]
// and returns the decompressed bytes. An empty src decompresses to nothing.
// The error wraps ErrCorruptData when src is malformed or its output would not
// fit cap(dst); dst's content is then undefined but nothing past cap(dst) is
// written.
func (FastLZ) Decompress(dst, src []byte) ([]byte, error) {
	out, err := fastlzDecompress(dst[:cap(dst)], src)
	if err != nil {
		return dst[:0], err
	}
	return out, nil
}

// fastlzHash is HASH_FUNCTION: the 13-bit hash of the three bytes at p.
func fastlzHash(src []byte, p int) uint32 {
	v := uint32(src[p]) | uint32(src[p+1])<<8
	v ^= (uint32(src[p+1]) | uint32(src[p+2])<<8) ^ (v >> (16 - fastlzHashLog))
	return v & fastlzHashMask
}

// fastlzCompress appends the level 1 (or level 2) FastLZ stream of src to
// dst, instruction for instruction as fastlz.c's compressor emits it.
func fastlzCompress(dst, src []byte, level2 bool) []byte {
	length := len(src)
	if length < 4 {
		if length == 0 {
			return dst
		}
		dst = append(dst, byte(length-1))
		return append(dst, src...)
	}
	start := len(dst)
	// htab holds, per hash, the last input position with that hash; all
	// start at position 0 like the C table of pointers to the input.
	var htab [fastlzHashSize]int32
	ipBound := length - 2
	ipLimit := length - 12

	// Start with a literal run of the first two bytes; copy counts the
	// literals of the open run, whose control byte sits before them.
	copied := 2
	dst = append(dst, fastlzMaxCopy-1, src[0], src[1])
	ip := 2

	for ip < ipLimit {
		anchor := ip
		matchLen := 3
		var ref, distance int
		matched := false

		if level2 && src[ip] == src[ip-1] && src[ip-1] == src[ip+1] && src[ip] == src[ip+2] {
			// A run of the previous byte: distance 1.
			distance = 1
			ref = anchor - 1 + 3
			matched = true
		} else {
			hval := fastlzHash(src, ip)
			ref = int(htab[hval])
			distance = anchor - ref
			htab[hval] = int32(anchor)
			maxDistance := fastlzMaxDistance1
			if level2 {
				maxDistance = fastlzMaxFarDistance
			}
			if distance != 0 && distance < maxDistance &&
				src[ref] == src[ip] && src[ref+1] == src[ip+1] && src[ref+2] == src[ip+2] {
				matched = true
				ref += 3
				if level2 && distance >= fastlzMaxDistance2 {
					// Far matches need at least five bytes.
					if src[ip+3] != src[ref] || src[ip+4] != src[ref+1] {
						matched = false
					} else {
						ref += 2
						matchLen += 2
					}
				}
			}
		}

		if !matched {
			dst = append(dst, src[anchor])
			ip = anchor + 1
			copied++
			if copied == fastlzMaxCopy {
				copied = 0
				dst = append(dst, fastlzMaxCopy-1)
			}
			continue
		}

		// Extend the match; ip ends one past the first byte that differs.
		ip = anchor + matchLen
		distance-- // biased: 0 means the previous byte
		if distance == 0 {
			x := src[ip-1]
			for ip < ipBound {
				r := src[ref]
				ref++
				if r != x {
					break
				}
				ip++
			}
		} else {
			ip = extendMatch(src, ref, ip, ipBound)
		}

		// Close the open literal run, or drop its unused control byte.
		if copied > 0 {
			dst[len(dst)-copied-1] = byte(copied - 1)
		} else {
			dst = dst[:len(dst)-1]
		}
		copied = 0

		ip -= 3
		n := ip - anchor // biased: 1 means three bytes
		if level2 {
			dst = appendMatch2(dst, n, distance)
		} else {
			dst = appendMatch1(dst, n, distance)
		}

		// Hash the two positions at the match boundary. A level 2 far match
		// can end so close to the input's end that the C hashes a byte past
		// it; that entry is never used (the main loop is over), so it is
		// skipped here.
		for range 2 {
			if ip+2 < length {
				htab[fastlzHash(src, ip)] = int32(ip)
			}
			ip++
		}

		// Assume a literal run follows.
		dst = append(dst, fastlzMaxCopy-1)
	}

	// The rest goes out as literals.
	for ip < length {
		dst = append(dst, src[ip])
		ip++
		copied++
		if copied == fastlzMaxCopy {
			copied = 0
			dst = append(dst, fastlzMaxCopy-1)
		}
	}
	if copied > 0 {
		dst[len(dst)-copied-1] = byte(copied - 1)
	} else {
		dst = dst[:len(dst)-1]
	}
	if level2 {
		dst[start] |= 1 << 5
	}
	return dst
}

// extendMatch compares the bytes after a three-byte match at ref and ip:
// eight without a bound check (the main loop keeps ip 12 bytes from the
// end), then up to ipBound. It returns ip one past the first differing byte
// (or at ipBound).
func extendMatch(src []byte, ref, ip, ipBound int) int {
	for range 8 {
		a, b := src[ref], src[ip]
		ref++
		ip++
		if a != b {
			return ip
		}
	}
	for ip < ipBound {
		a, b := src[ref], src[ip]
		ref++
		ip++
		if a != b {
			break
		}
	}
	return ip
}

// appendMatch1 writes a level 1 match of biased length n (n+2 bytes) at
// biased distance d, split into instructions of at most 264 bytes.
func appendMatch1(dst []byte, n, d int) []byte {
	for n > fastlzMaxLen-2 {
		dst = append(dst, byte(7<<5+d>>8), fastlzMaxLen-2-7-2, byte(d))
		n -= fastlzMaxLen - 2
	}
	if n < 7 {
		return append(dst, byte(n<<5+d>>8), byte(d))
	}
	return append(dst, byte(7<<5+d>>8), byte(n-7), byte(d))
}

// appendMatch2 writes a level 2 match of biased length n at biased
// distance d: lengths from 7 on continue in bytes of 255, distances from
// 8191 on take a 16-bit extension.
func appendMatch2(dst []byte, n, d int) []byte {
	appendLength := func(dst []byte, low byte) []byte {
		if n < 7 {
			return append(dst, byte(n<<5)+low)
		}
		dst = append(dst, 7<<5+low)
		rest := n - 7
		for ; rest >= 255; rest -= 255 {
			dst = append(dst, 255)
		}
		return append(dst, byte(rest))
	}
	if d < fastlzMaxDistance2 {
		dst = appendLength(dst, byte(d>>8))
		return append(dst, byte(d))
	}
	d -= fastlzMaxDistance2
	dst = appendLength(dst, 31)
	return append(dst, 255, byte(d>>8), byte(d))
}

// fastlzDecompress decodes src (level from its first byte) into out and
// returns out[:n]. Every read of src and every copy into out is checked.
func fastlzDecompress(out, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return out[:0], nil
	}
	level := src[0]>>5 + 1
	if level != 1 && level != 2 {
		return out[:0], fmt.Errorf("%w: fastlz: unknown level %d in the first byte", ErrCorruptData, level)
	}
	level2 := level == 2
	ip, op := 1, 0
	ctrl := int(src[0] & 31)
	for {
		if ctrl >= 32 {
			n := ctrl>>5 - 1
			distance := (ctrl & 31) << 8
			if n == 7-1 {
				if !level2 {
					if ip >= len(src) {
						return out[:0], truncatedStream(ip)
					}
					n += int(src[ip])
					ip++
				} else {
					for {
						if ip >= len(src) {
							return out[:0], truncatedStream(ip)
						}
						code := src[ip]
						ip++
						n += int(code)
						if code != 255 {
							break
						}
					}
				}
			}
			if ip >= len(src) {
				return out[:0], truncatedStream(ip)
			}
			code := src[ip]
			ip++
			distance += int(code)
			if level2 && code == 255 && distance == 31<<8+255 {
				if len(src)-ip < 2 {
					return out[:0], truncatedStream(ip)
				}
				distance = int(src[ip])<<8 + int(src[ip+1]) + fastlzMaxDistance2
				ip += 2
			}
			// Copy n+3 bytes from distance+1 bytes back.
			from := op - distance - 1
			if n+3 > len(out)-op {
				return out[:0], fmt.Errorf("%w: fastlz: match of %d bytes at output %d overflows the %d-byte buffer", ErrCorruptData, n+3, op, len(out))
			}
			if from < 0 {
				return out[:0], fmt.Errorf("%w: fastlz: match at output %d reaches %d bytes back", ErrCorruptData, op, distance+1)
			}
			// The copy overlaps its source when the distance is shorter
			// than the match: the output repeats with that period, so copy
			// from the same source in blocks that double.
			for left := n + 3; left > 0; {
				k := min(left, op-from)
				copy(out[op:op+k], out[from:from+k])
				op += k
				left -= k
			}
		} else {
			n := ctrl + 1
			if n > len(out)-op {
				return out[:0], fmt.Errorf("%w: fastlz: %d literals at output %d overflow the %d-byte buffer", ErrCorruptData, n, op, len(out))
			}
			if n > len(src)-ip {
				return out[:0], truncatedStream(len(src))
			}
			copy(out[op:op+n], src[ip:ip+n])
			op += n
			ip += n
		}
		if ip >= len(src) {
			return out[:op], nil
		}
		ctrl = int(src[ip])
		ip++
	}
}

func truncatedStream(at int) error {
	return fmt.Errorf("%w: fastlz: stream ends inside an instruction at byte %d", ErrCorruptData, at)
}
