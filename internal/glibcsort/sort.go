// Package glibcsort sorts exactly as the C library the reference
// recastnavigation build ran on: glibc 2.36's qsort, a top-down merge sort
// (msort_with_tmp) whenever it can allocate its buffer. Where the C++ calls
// qsort, sorting with Sort and the C++ comparator gives the C++ order by
// construction, ties and improper comparators included.
package glibcsort

// Sort sorts items with the C comparator cmp (negative when a goes before
// b, zero for a tie, positive when b goes first) as glibc's merge sort
// does: sort the first len/2 items, then the rest, then merge them, taking
// from the first half while cmp(first, second) <= 0. It is stable and
// compares exactly the pairs glibc compares, so even a comparator that is
// not a proper order (ties that do not chain) gives glibc's result.
// scratch is overwritten; when it is shorter than items Sort allocates its
// own.
func Sort[T any](items, scratch []T, cmp func(a, b *T) int) {
	if len(scratch) < len(items) {
		scratch = make([]T, len(items))
	}
	mergeSort(items, scratch, cmp)
}

func mergeSort[T any](items, scratch []T, cmp func(a, b *T) int) {
	n := len(items)
	if n <= 1 {
		return
	}
	n1 := n / 2
	mergeSort(items[:n1], scratch, cmp)
	mergeSort(items[n1:], scratch, cmp)

	// Merge into scratch; what is left of the second half is already in
	// place, so only the merged prefix is copied back.
	i, j, k := 0, n1, 0
	scratch = scratch[:n]
	for i < n1 && j < n {
		if cmp(&items[i], &items[j]) <= 0 {
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
