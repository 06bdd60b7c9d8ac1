package bake

// glibcMergeSort sorts items as glibc's qsort (2.36, msort_with_tmp) does
// when it can allocate its buffer: a top-down merge sort that sorts the first
// n/2 items, then the rest, then merges them taking from the first half while
// cmp(first, second) <= 0. It is stable, and with a comparator that is not a
// proper order (RecastDemo's truncating ones) it still compares exactly the
// pairs the C++ compares, so it reaches the same order. scratch must be at
// least as long as items.
func glibcMergeSort[T any](items, scratch []T, cmp func(a, b *T) int) {
	n := len(items)
	if n <= 1 {
		return
	}
	n1 := n / 2
	glibcMergeSort(items[:n1], scratch, cmp)
	glibcMergeSort(items[n1:], scratch, cmp)

	first, second := items[:n1], items[n1:]
	out := scratch[:0]
	for len(first) > 0 && len(second) > 0 {
		if cmp(&first[0], &second[0]) <= 0 {
			out = append(out, first[0])
			first = first[1:]
		} else {
			out = append(out, second[0])
			second = second[1:]
		}
	}
	// What is left of the second half is already in place.
	out = append(out, first...)
	copy(items, out)
}
