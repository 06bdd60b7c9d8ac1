package crowd

import "math"

// patternRotationBits[d] holds, as float32 bits, cos and sin of the adaptive
// pattern's division angle a = (1/d)·π·2 (π as the float32 3.14159265) and of
// a/2, for d divisions, as glibc's cosf and sinf return them. glibc's sinf is
// not always correctly rounded (d = 31 is one ulp off the rounded float64
// sine), so a table, not math.Sin, keeps the samples bit-identical to the
// reference build.
var patternRotationBits = [MaxAdaptiveDivisions + 1][4]uint32{
	{}, // no division
	{0x3f800000, 0x343bbd2e, 0xbf800000, 0xb3bbbd2e}, // 1
	{0xbf800000, 0xb3bbbd2e, 0xb33bbd2e, 0x3f800000}, // 2
	{0xbf000001, 0x3f5db3d7, 0x3effffff, 0x3f5db3d8}, // 3
	{0xb33bbd2e, 0x3f800000, 0x3f3504f3, 0x3f3504f3}, // 4
	{0x3e9e3779, 0x3f737871, 0x3f4f1bbd, 0x3f167918}, // 5
	{0x3effffff, 0x3f5db3d8, 0x3f5db3d7, 0x3f000000}, // 6
	{0x3f1f9d06, 0x3f48261c, 0x3f66a5e5, 0x3ede2603}, // 7
	{0x3f3504f3, 0x3f3504f3, 0x3f6c835e, 0x3ec3ef16}, // 8
	{0x3f441b7d, 0x3f248dbb, 0x3f708fb2, 0x3eaf1d44}, // 9
	{0x3f4f1bbd, 0x3f167918, 0x3f737871, 0x3e9e377a}, // 10
	{0x3f575c64, 0x3f0a6770, 0x3f75a155, 0x3e903f41}, // 11
	{0x3f5db3d7, 0x3f000000, 0x3f7746ea, 0x3e8483ee}, // 12
	{0x3f62ad3f, 0x3eedf033, 0x3f788fa5, 0x3e750f2b}, // 13
	{0x3f66a5e5, 0x3ede2603, 0x3f7994e0, 0x3e63dc88}, // 14
	{0x3f69de1d, 0x3ed03fca, 0x3f7a67e2, 0x3e54e6cf}, // 15
	{0x3f6c835e, 0x3ec3ef16, 0x3f7b14be, 0x3e47c5c2}, // 16
	{0x3f6eb680, 0x3eb8f4ab, 0x3f7ba420, 0x3e3c28d5}, // 17
	{0x3f708fb2, 0x3eaf1d44, 0x3f7c1c5c, 0x3e31d0d5}, // 18
	{0x3f722114, 0x3ea63f03, 0x3f7c822d, 0x3e288b7d}, // 19
	{0x3f737871, 0x3e9e377a, 0x3f7cd925, 0x3e20305c}, // 20
	{0x3f74a06b, 0x3e96ea27, 0x3f7d2404, 0x3e189e8a}, // 21
	{0x3f75a155, 0x3e903f41, 0x3f7d64f0, 0x3e11bafc}, // 22
	{0x3f7681bf, 0x3e8a22ce, 0x3f7d9d98, 0x3e0b6f45}, // 23
	{0x3f7746ea, 0x3e8483ee, 0x3f7dcf55, 0x3e05a8a9}, // 24
	{0x3f77f511, 0x3e7ea891, 0x3f7dfb3b, 0x3e00575b}, // 25
	{0x3f788fa5, 0x3e750f2b, 0x3f7e222b, 0x3df6dbf0}, // 26
	{0x3f791978, 0x3e6c2691, 0x3f7e44de, 0x3dedc21f}, // 27
	{0x3f7994e0, 0x3e63dc88, 0x3f7e63ec, 0x3de54da3}, // 28
	{0x3f7a03ce, 0x3e5c2137, 0x3f7e7fd3, 0x3ddd6d82}, // 29
	{0x3f7a67e2, 0x3e54e6cf, 0x3f7e98fd, 0x3dd61306}, // 30
	{0x3f7ac279, 0x3e4e2133, 0x3f7eafc2, 0x3dcf3156}, // 31
	{0x3f7b14be, 0x3e47c5c2, 0x3f7ec46d, 0x3dc8bd36}, // 32
}

// patternRotation returns cos and sin of the division angle of a pattern of
// divisions directions [Limit: 1..MaxAdaptiveDivisions], and of half of it.
func patternRotation(divisions int) (cosA, sinA, cosHalf, sinHalf float32) {
	b := &patternRotationBits[divisions]
	return math.Float32frombits(b[0]), math.Float32frombits(b[1]),
		math.Float32frombits(b[2]), math.Float32frombits(b[3])
}
