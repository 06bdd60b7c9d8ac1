package bake

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPartitionAndContoursMatchRecast runs the distance field, a partition
// and contours on pseudo-random fields with borders, several areas, holes,
// stacked floors and self-overlapping spirals, and compares a fingerprint of
// everything they produce (fieldFingerprint) with the one recastnavigation
// 1.6.0 gives on the same fields and settings.
func TestPartitionAndContoursMatchRecast(t *testing.T) {
	const (
		watershed = 0
		monotone  = 1
		layers    = 2
	)
	tests := []struct {
		seed            int64
		partition       int
		borderSize      int
		mergeRegionArea int
		flags           ContourBuildFlags
		fingerprint     uint64
	}{
		{1, watershed, 1, 10, 1, 0xaf8504e58d0126cb},
		{1, monotone, 1, 10, 1, 0x6fde65a5515cfa3c},
		{1, layers, 1, 10, 1, 0x63d5904af8b4259c},
		{2, watershed, 2, 20, 2, 0x5a442e870d40b301},
		{2, monotone, 2, 20, 2, 0xf1de4d959b615ea1},
		{2, layers, 2, 20, 2, 0xdb32ac3a09ac83e9},
		{3, watershed, 0, 30, 3, 0x4112f059776969cc},
		{3, monotone, 0, 30, 3, 0x92e26f5dbd9a2453},
		{3, layers, 0, 30, 3, 0x1f3db93ec2d98bd8},
		{4, watershed, 1, 0, 0, 0x56fd4300a1bec833},
		{4, monotone, 1, 0, 0, 0x3b1ecb78ccf0a31b},
		{4, layers, 1, 0, 0, 0x71e44869a0d8e524},
		{5, watershed, 2, 10, 1, 0x730a7ac671fd8d4d},
		{5, monotone, 2, 10, 1, 0xfac99901527a3b},
		{5, layers, 2, 10, 1, 0xad4967a787cf4663},
		{6, watershed, 0, 20, 2, 0x5c78c9b066714437},
		{6, monotone, 0, 20, 2, 0xf0461e5c2133fd31},
		{6, layers, 0, 20, 2, 0xe67fa2a5104dfba5},
		{7, watershed, 1, 30, 3, 0xa2d77b3502ab1ded},
		{7, monotone, 1, 30, 3, 0x3d3fac2511066865},
		{7, layers, 1, 30, 3, 0x88a580023f3c9d98},
		{8, watershed, 2, 0, 0, 0x28030fc35883a91},
		{8, monotone, 2, 0, 0, 0x15984ae26a810713},
		{8, layers, 2, 0, 0, 0x1c7abfccb924355},
		{9, watershed, 0, 10, 1, 0x9c57476297138e2d},
		{9, monotone, 0, 10, 1, 0xdfacf8e4202fb393},
		{9, layers, 0, 10, 1, 0xe484cc92b7107617},
		{10, watershed, 1, 20, 2, 0xb6e7caf0c55ed958},
		{10, monotone, 1, 20, 2, 0x4212af8956691871},
		{10, layers, 1, 20, 2, 0xeaa875639ad99988},
		{11, watershed, 2, 30, 3, 0x8cfd280d74e33063},
		{11, monotone, 2, 30, 3, 0x5922f3c935fe57c9},
		{11, layers, 2, 30, 3, 0x3d16c66c9a58e065},
		{12, watershed, 0, 0, 0, 0xf146d414d8c6c491},
		{12, monotone, 0, 0, 0, 0xc1a991c26e08806f},
		{12, layers, 0, 0, 0, 0x7bdcd39346b786e1},
		{13, watershed, 1, 10, 1, 0x18ca4477436d80c1},
		{13, monotone, 1, 10, 1, 0x7f97d5dae5fa5255},
		{13, layers, 1, 10, 1, 0x56309af921256a59},
		{14, watershed, 2, 20, 2, 0x7cf0c5bc276f2c0a},
		{14, monotone, 2, 20, 2, 0xdac0e1255d63e934},
		{14, layers, 2, 20, 2, 0x56c48991d944afca},
		{15, watershed, 0, 30, 3, 0x81842b2b26c85ca2},
		{15, monotone, 0, 30, 3, 0x2b7368a82e33c64e},
		{15, layers, 0, 30, 3, 0x2a7bf66ae1ac66e3},
		// Regions with more holes than diagonal candidates, where the C++
		// hole merging reads diagonal entries it never wrote.
		{133, watershed, 0, 30, 1, 0xc68b6b091e5de7a2},
		{133, watershed, 3, 30, 1, 0xdd6f79c3446d0ad7},
		{185, watershed, 0, 0, 1, 0xdad75cec2056f1f6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("seed %d partition %d", tt.seed, tt.partition), func(t *testing.T) {
			chf := randomTestField(tt.seed)
			const minRegionArea = 8
			switch tt.partition {
			case watershed:
				require.NoError(t, BuildDistanceField(chf))
				require.NoError(t, BuildRegions(chf, tt.borderSize, minRegionArea, tt.mergeRegionArea))
			case monotone:
				require.NoError(t, BuildRegionsMonotone(chf, tt.borderSize, minRegionArea, tt.mergeRegionArea))
			case layers:
				require.NoError(t, BuildLayerRegions(chf, tt.borderSize, minRegionArea))
			}
			cset, err := BuildContours(chf, 1.3, 12, tt.flags)
			require.NoError(t, err)
			require.Equal(t, fmt.Sprintf("%#x", tt.fingerprint), fmt.Sprintf("%#x", fieldFingerprint(chf, cset)))
		})
	}
}
