package bake

// sortBoundsGlibc sorts triangle boxes by their smallest x (byZ false) or z
// (byZ true) with RecastDemo's comparator, the float difference truncated to
// an int, exactly as glibc's qsort (2.36, msort_with_tmp) does when it can
// allocate its buffer: a top-down merge sort that sorts the first n/2 items,
// then the rest, then merges them taking from the first half while the
// comparison is <= 0. The comparator is not a proper order (keys less than
// one unit apart tie, and ties do not chain), so only the same algorithm,
// comparing the same pairs, reaches the same order. scratch must be at
// least as long as items.
func sortBoundsGlibc(items, scratch []triangleBounds, byZ bool) {
	if byZ {
		glibcMergeSort(items, scratch, func(a, b *triangleBounds) bool { return truncateToInt32(a.minZ-b.minZ) <= 0 })
	} else {
		glibcMergeSort(items, scratch, func(a, b *triangleBounds) bool { return truncateToInt32(a.minX-b.minX) <= 0 })
	}
}

// glibcMergeSort is glibc's merge sort over items; inOrder(a, b) is
// cmp(a, b) <= 0 for the C comparator cmp. It is stable.
func glibcMergeSort[T any](items, scratch []T, inOrder func(a, b *T) bool) {
	n := len(items)
	if n <= 1 {
		return
	}
	n1 := n / 2
	glibcMergeSort(items[:n1], scratch, inOrder)
	glibcMergeSort(items[n1:], scratch, inOrder)

	// Merge into scratch; what is left of the second half is already in
	// place, so only the merged prefix is copied back.
	i, j, k := 0, n1, 0
	scratch = scratch[:n]
	for i < n1 && j < n {
		if inOrder(&items[i], &items[j]) {
			scratch[k] = items[i]
			i++
		} else {
			scratch[k] = items[j]
			j++
		}
		k++
	}
	k += copy(scratch[k:], items[i:n1])
	copy(items[:k], scratch[:k])
}
