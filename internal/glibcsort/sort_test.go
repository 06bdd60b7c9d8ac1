package glibcsort

import (
	"encoding/binary"
	"hash/fnv"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

type keyed struct {
	key   float32
	index int32
}

// truncatedDifference is RecastDemo's chunk comparator: the float
// difference truncated to an int, so keys less than one apart tie and ties
// do not chain.
func truncatedDifference(a, b *keyed) int { return int(a.key - b.key) }

func properOrder(a, b *keyed) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	}
	return 0
}

// lcgItems returns n items with keys 0.00 to 19.99 from the same generator
// as the C program the expected orders come from.
func lcgItems(n int) []keyed {
	items := make([]keyed, n)
	x := uint32(12345 + n)
	for i := range items {
		x = x*1103515245 + 12345
		items[i] = keyed{key: float32(int32((x>>8)%2000)) / 100, index: int32(i)}
	}
	return items
}

func orderHash(items []keyed) uint64 {
	h := fnv.New64a()
	var buf [4]byte
	for _, it := range items {
		binary.LittleEndian.PutUint32(buf[:], uint32(it.index))
		h.Write(buf[:])
	}
	return h.Sum64()
}

// TestSortMatchesGlibc compares with the orders glibc 2.36's qsort gave
// (Debian 12, a C program sorting lcgItems with the same comparators and
// hashing the resulting indices with FNV-1a 64, 4 little-endian bytes
// each).
func TestSortMatchesGlibc(t *testing.T) {
	tests := []struct {
		truncated bool
		n         int
		want      uint64
	}{
		{true, 1, 0x4d25767f9dce13f5},
		{true, 2, 0x08cd4c29d1e47d34},
		{true, 3, 0x9ef40c127c771966},
		{true, 5, 0x352736e97f9895f1},
		{true, 8, 0x83d9c0142dbd02c5},
		{true, 13, 0x273874cd1c61bb09},
		{true, 100, 0x19ca2f84b06b9375},
		{true, 257, 0x916f9a357525383a},
		{true, 1000, 0x9278dd87ffe91dc9},
		{true, 4099, 0x7c6184a739dee08e},
		{false, 1, 0x4d25767f9dce13f5},
		{false, 2, 0x89cd31291d2aefa4},
		{false, 3, 0x9ef40c127c771966},
		{false, 5, 0x352736e97f9895f1},
		{false, 8, 0x3f5ed2ba988a9135},
		{false, 13, 0x0bb658b5cf888de9},
		{false, 100, 0x31716ee961900a35},
		{false, 257, 0xc7c56223412e000e},
		{false, 1000, 0x31d6ba50f52cd60d},
		{false, 4099, 0x9a49f2988da128d2},
	}
	for _, tt := range tests {
		items := lcgItems(tt.n)
		cmp := properOrder
		if tt.truncated {
			cmp = truncatedDifference
		}
		Sort(items, make([]keyed, tt.n), cmp)
		assert.Equal(t, tt.want, orderHash(items), "truncated %v, %d items", tt.truncated, tt.n)
	}
}

// TestSortThirteen spells out two of the glibc orders above.
func TestSortThirteen(t *testing.T) {
	indices := func(items []keyed) []int32 {
		var out []int32
		for _, it := range items {
			out = append(out, it.index)
		}
		return out
	}
	items := lcgItems(13)
	Sort(items, nil, truncatedDifference)
	assert.Equal(t, []int32{12, 1, 2, 7, 4, 5, 8, 3, 6, 0, 10, 11, 9}, indices(items))
	items = lcgItems(13)
	Sort(items, nil, properOrder)
	assert.Equal(t, []int32{12, 1, 7, 2, 4, 5, 8, 3, 11, 6, 10, 0, 9}, indices(items))
}

// TestSortIsStable checks that a proper comparator gives the stable sort's
// order, with a scratch buffer longer than the items left as it was beyond
// them.
func TestSortIsStable(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 64, 1001} {
		items := lcgItems(n)
		want := slices.Clone(items)
		slices.SortStableFunc(want, func(a, b keyed) int { return properOrder(&a, &b) })
		scratch := make([]keyed, n+3)
		scratch[n+2] = keyed{key: -1, index: -1}
		Sort(items, scratch, properOrder)
		assert.Equal(t, want, items, "%d items", n)
		assert.Equal(t, keyed{key: -1, index: -1}, scratch[n+2])
	}
}

// literalMergeSort is glibc's msort_with_tmp as written: merge into the
// buffer, then copy the merged prefix back.
func literalMergeSort(items, tmp []keyed, cmp func(a, b *keyed) int) {
	n := len(items)
	if n <= 1 {
		return
	}
	n1 := n / 2
	literalMergeSort(items[:n1], tmp, cmp)
	literalMergeSort(items[n1:], tmp, cmp)
	i, j, k := 0, n1, 0
	for i < n1 && j < n {
		if cmp(&items[i], &items[j]) <= 0 {
			tmp[k] = items[i]
			i++
		} else {
			tmp[k] = items[j]
			j++
		}
		k++
	}
	k += copy(tmp[k:], items[i:n1])
	copy(items[:k], tmp[:k])
}

// TestSortComparesGlibcPairs records every pair Sort compares and checks it
// against glibc's algorithm as written, pair for pair, with a comparator
// that is not an order.
func TestSortComparesGlibcPairs(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 6, 7, 9, 16, 31, 100, 513} {
		record := func(pairs *[][2]int32) func(a, b *keyed) int {
			return func(a, b *keyed) int {
				*pairs = append(*pairs, [2]int32{a.index, b.index})
				return truncatedDifference(a, b)
			}
		}
		var got, want [][2]int32
		items := lcgItems(n)
		Sort(items, make([]keyed, n), record(&got))
		reference := lcgItems(n)
		literalMergeSort(reference, make([]keyed, n), record(&want))
		assert.Equal(t, want, got, "%d items: compared pairs", n)
		assert.Equal(t, reference, items, "%d items: order", n)
	}
}
