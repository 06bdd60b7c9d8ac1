package navmesh

import "slices"

// chunkedTable is a fixed-length array of T split into equal chunks behind a
// directory. A changed copy shares every chunk it does not touch, so
// publishing a change costs the directory plus the changed chunks, about
// O(sqrt(length)), never O(length). A nil chunk reads as all zero values.
type chunkedTable[T any] struct {
	dir   [][]T
	shift uint32
	mask  uint32
}

// newChunkedTable returns an all-zero table of length entries [Limit: >= 1].
func newChunkedTable[T any](length int) chunkedTable[T] {
	bits := uint32(0)
	for 1<<bits < length {
		bits++
	}
	chunkBits := (bits + 1) / 2
	chunkLen := 1 << chunkBits
	return chunkedTable[T]{
		dir:   make([][]T, (length+chunkLen-1)>>chunkBits),
		shift: chunkBits,
		mask:  uint32(chunkLen - 1),
	}
}

// at returns entry i; i must be below the table length.
func (t *chunkedTable[T]) at(i uint32) T {
	if chunk := t.dir[i>>t.shift]; chunk != nil {
		return chunk[i&t.mask]
	}
	var zero T
	return zero
}

// tableEdit builds a changed copy of a chunkedTable without touching the
// original: the directory is copied on the first set, each chunk on its first
// set.
type tableEdit[T any] struct {
	table     chunkedTable[T]
	dirCopied bool
	ownChunks []uint32
}

func editTable[T any](base chunkedTable[T]) tableEdit[T] {
	return tableEdit[T]{table: base}
}

// set stores v at entry i of the copy.
func (e *tableEdit[T]) set(i uint32, v T) {
	if !e.dirCopied {
		e.table.dir = slices.Clone(e.table.dir)
		e.dirCopied = true
	}
	c := i >> e.table.shift
	if !slices.Contains(e.ownChunks, c) {
		chunk := make([]T, e.table.mask+1)
		copy(chunk, e.table.dir[c])
		e.table.dir[c] = chunk
		e.ownChunks = append(e.ownChunks, c)
	}
	e.table.dir[c][i&e.table.mask] = v
}
