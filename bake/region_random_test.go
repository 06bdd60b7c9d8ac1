package bake

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand"
)

// randomTestField builds a pseudo-random compact heightfield for seed: a
// rolling single floor with gaps, NullArea spans and, depending on the seed,
// a strip of area 5, a cross-shaped upper floor and a spiral of stacked
// spans, so that partitions meet holes, overlaps and several areas.
func randomTestField(seed int64) *CompactHeightfield {
	rng := rand.New(rand.NewSource(seed))
	width := 20 + rng.Intn(60)
	height := 20 + rng.Intn(60)
	frequencyX, frequencyZ := rng.Float64()*0.3, rng.Float64()*0.3
	amplitude := rng.Float64() * 12
	gapChance := rng.Float64() * 0.15

	columns := make([][]testSpan, width*height)
	for z := 0; z < height; z++ {
		for x := 0; x < width; x++ {
			var column []testSpan
			if rng.Float64() > gapChance {
				y := int(amplitude*math.Sin(float64(x)*frequencyX)*math.Cos(float64(z)*frequencyZ)) + 20
				area := WalkableArea
				if r := rng.Float64(); r < 0.04 {
					area = NullArea
				} else if x > width/3 && x < width/2 && r < 0.9 && seed%3 == 0 {
					area = 5
				}
				column = append(column, testSpan{y, area})
			}
			if seed%2 == 0 && x > width/4 && x < 3*width/4 && (z > height/2-3 && z < height/2+3 || x > width/2-2 && x < width/2+2) {
				column = append(column, testSpan{45 + (x+z)%2, WalkableArea})
			}
			if seed%5 == 0 {
				dx, dz := float64(x-width/2), float64(z-height/2)
				if r := math.Hypot(dx, dz); r > 4 && r < 9 {
					y := 60 + int((math.Atan2(dz, dx)+math.Pi)*4)
					column = append(column, testSpan{y, WalkableArea}, testSpan{y + 26, WalkableArea})
				}
			}
			columns[x+z*width] = stackTestSpans(column)
		}
	}
	return newTestFieldFromColumns(width, height, columns)
}

// stackTestSpans sorts a column bottom to top and drops spans closer than
// testFieldHeight to the one below.
func stackTestSpans(column []testSpan) []testSpan {
	for i := 1; i < len(column); i++ {
		for j := i; j > 0 && column[j].y < column[j-1].y; j-- {
			column[j], column[j-1] = column[j-1], column[j]
		}
	}
	var kept []testSpan
	for _, s := range column {
		if len(kept) > 0 && s.y < kept[len(kept)-1].y+testFieldHeight {
			continue
		}
		kept = append(kept, s)
	}
	return kept
}

// fieldFingerprint hashes (FNV-1a 64) the distance field, the region of
// every span, and every contour's region, area, vertices and raw vertices.
func fieldFingerprint(chf *CompactHeightfield, cset *ContourSet) uint64 {
	hash := fnv.New64a()
	write := func(v any) { _ = binary.Write(hash, binary.LittleEndian, v) }
	write(chf.MaxDistance)
	for i := range chf.Spans {
		var distance uint16
		if chf.Dist != nil {
			distance = chf.Dist[i]
		}
		write(distance)
	}
	write(chf.MaxRegions)
	for _, s := range chf.Spans {
		write(s.Region)
	}
	write(int32(len(cset.Contours)))
	for _, c := range cset.Contours {
		write(c.Region)
		write(c.Area)
		write(int32(len(c.Verts)))
		write(c.Verts)
		write(int32(len(c.RawVerts)))
		write(c.RawVerts)
	}
	return hash.Sum64()
}
