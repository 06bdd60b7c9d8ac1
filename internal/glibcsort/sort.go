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
	sortInPlace(items, scratch[:len(items)], cmp)
}

// The merge sort below compares exactly the pairs glibc's msort_with_tmp
// compares, in the same order: the same halves (the first len/2 items, then
// the rest), merged taking from the first while cmp <= 0. Instead of merging
// into the buffer and copying back as glibc does, each level merges from
// one buffer into the other (sortInPlace sorts with its halves sorted into
// the scratch, sortInto with its halves sorted in place), which moves every
// item once per level.

// sortInPlace sorts items, with scratch (as long) for the halves.
func sortInPlace[T any](items, scratch []T, cmp func(a, b *T) int) {
	switch n := len(items); n {
	case 0, 1:
	case 2:
		if cmp(&items[0], &items[1]) > 0 {
			items[0], items[1] = items[1], items[0]
		}
	default:
		half := n / 2
		sortInto(items[:half], scratch[:half], cmp)
		sortInto(items[half:], scratch[half:n], cmp)
		merge(scratch[:half], scratch[half:n], items, cmp)
	}
}

// sortInto sorts items into out (as long); items is left in any order.
func sortInto[T any](items, out []T, cmp func(a, b *T) int) {
	switch n := len(items); n {
	case 1:
		out[0] = items[0]
	case 2:
		if cmp(&items[0], &items[1]) <= 0 {
			out[0], out[1] = items[0], items[1]
		} else {
			out[0], out[1] = items[1], items[0]
		}
	default:
		half := n / 2
		sortInPlace(items[:half], out[:half], cmp)
		sortInPlace(items[half:], out[half:], cmp)
		merge(items[:half], items[half:], out, cmp)
	}
}

// merge merges the sorted runs first and second into out, taking from first
// on ties.
func merge[T any](first, second, out []T, cmp func(a, b *T) int) {
	i, j, k := 0, 0, 0
	for i < len(first) && j < len(second) {
		if cmp(&first[i], &second[j]) <= 0 {
			out[k] = first[i]
			i++
		} else {
			out[k] = second[j]
			j++
		}
		k++
	}
	k += copy(out[k:], first[i:])
	copy(out[k:], second[j:])
}
