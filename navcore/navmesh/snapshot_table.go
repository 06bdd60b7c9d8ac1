package navmesh

// radixTable is a persistent sparse array of T indexed by uint32: a trie of
// fanout radixFanout whose height grows with the highest index ever set,
// not with any declared length. Entries never set read as the zero value.
// Setting an entry in a changed copy copies only the nodes on its path (the
// height, at most 7 nodes), so publishing a change costs O(log n) and never
// depends on MaxTiles; the memory of a table is bounded by the entries ever
// set times the height, whatever their indexes. A table is immutable once
// published and safe for concurrent readers.
type radixTable[T any] struct {
	root *radixNode[T]
	// shift is the index shift of the root level: 0 when the root is a
	// leaf, radixBits more per level above.
	shift uint32
}

const (
	radixBits   = 5
	radixFanout = 1 << radixBits
	radixMask   = radixFanout - 1
)

// radixNode is an interior node (children set) or a leaf (values set).
type radixNode[T any] struct {
	// owner is the edit that made the node: only that edit may change it
	// in place, every other edit copies it first.
	owner    *radixOwner
	children *[radixFanout]*radixNode[T]
	values   *[radixFanout]T
}

// radixOwner identifies one edit. It has a size so that two owners never
// share an address.
type radixOwner struct{ _ byte }

// at returns entry i (the zero value when it was never set).
func (t *radixTable[T]) at(i uint32) T {
	n := t.root
	if n == nil || uint64(i)>>t.shift >= radixFanout {
		var zero T
		return zero
	}
	for shift := t.shift; shift > 0; shift -= radixBits {
		n = n.children[(i>>shift)&radixMask]
		if n == nil {
			var zero T
			return zero
		}
	}
	return n.values[i&radixMask]
}

// next returns the lowest index at or above from whose subtree holds a
// leaf, with the leaf and ok true; it skips empty subtrees whole. It is the
// cursor of each and of Snapshot.NextTile.
func (t *radixTable[T]) nextLeaf(from uint64) (leaf *radixNode[T], base uint64, ok bool) {
	if t.root == nil {
		return nil, 0, false
	}
	limit := uint64(radixFanout) << t.shift
	for from < limit {
		n, shift := t.root, t.shift
		for shift > 0 {
			child := n.children[(from>>shift)&radixMask]
			if child == nil {
				break
			}
			n, shift = child, shift-radixBits
		}
		if shift == 0 {
			return n, from &^ radixMask, true
		}
		// the subtree at this level is empty: jump past it
		from = (from>>shift + 1) << shift
	}
	return nil, 0, false
}

// each calls fn for every entry in index order whose leaf exists (set
// entries, and entries sharing a leaf with one), skipping empty subtrees.
func (t *radixTable[T]) each(fn func(i uint32, v T)) {
	for from := uint64(0); ; {
		leaf, base, ok := t.nextLeaf(from)
		if !ok {
			return
		}
		for k, v := range leaf.values {
			fn(uint32(base)+uint32(k), v)
		}
		from = base + radixFanout
	}
}

// radixEdit builds a changed copy of a radixTable without touching the
// original: a node is copied the first time the edit writes through it and
// changed in place afterwards.
type radixEdit[T any] struct {
	table radixTable[T]
	owner *radixOwner
}

func editRadix[T any](base radixTable[T]) radixEdit[T] {
	return radixEdit[T]{table: base, owner: new(radixOwner)}
}

// own returns n itself when this edit made it, else a copy the edit owns; a
// nil n becomes a new empty node (a leaf when leaf is set).
func (e *radixEdit[T]) own(n *radixNode[T], leaf bool) *radixNode[T] {
	if n != nil && n.owner == e.owner {
		return n
	}
	c := &radixNode[T]{owner: e.owner}
	switch {
	case n != nil && n.values != nil:
		values := *n.values
		c.values = &values
	case n != nil:
		children := *n.children
		c.children = &children
	case leaf:
		c.values = new([radixFanout]T)
	default:
		c.children = new([radixFanout]*radixNode[T])
	}
	return c
}

// set stores v at entry i of the copy, growing the trie by a level at a
// time until it reaches i.
func (e *radixEdit[T]) set(i uint32, v T) {
	t := &e.table
	if t.root == nil {
		for t.shift = 0; uint64(i)>>t.shift >= radixFanout; t.shift += radixBits {
		}
	}
	for uint64(i)>>t.shift >= radixFanout {
		root := e.own(nil, false)
		root.children[0] = t.root
		t.root, t.shift = root, t.shift+radixBits
	}
	t.root = e.own(t.root, t.shift == 0)
	n := t.root
	for shift := t.shift; shift > 0; shift -= radixBits {
		k := (i >> shift) & radixMask
		child := e.own(n.children[k], shift == radixBits)
		n.children[k] = child
		n = child
	}
	n.values[i&radixMask] = v
}
