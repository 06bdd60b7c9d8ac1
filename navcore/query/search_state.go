package query

import (
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/navcore/navmesh"
)

// ErrBadSearchState is wrapped when a SearchState cannot be read or does
// not fit the Query it is restored into.
var ErrBadSearchState = errors.New("query: bad search state")

// SearchState is a Query's sliced path search (InitSlicedFindPath and
// UpdateSlicedFindPath) caught between two steps: its node pool (nodes in
// the order the search made them, so that ties break as before), its open
// list in heap order, the size the pool had grown to and where the search
// stands. Restored into a Query on the same mesh state it goes on exactly
// as the search it was taken from. The filter is not part of it: the
// caller gives it back to RestoreSearch.
type SearchState struct {
	active    bool
	poolSize  int
	nodeLimit int
	nodes     []node
	open      []uint32 // pool indices+1, heap order
	sliced    slicedQuery
	bestNode  uint32 // pool index+1 of sliced.lastBestNode
}

// Reset makes s an inactive state, keeping its memory.
func (s *SearchState) Reset() {
	s.active, s.nodes, s.open, s.sliced, s.bestNode = false, s.nodes[:0], s.open[:0], slicedQuery{}, 0
}

// Active reports whether the state holds a search in progress.
func (s *SearchState) Active() bool { return s.active }

// CaptureSearch stores q's sliced search in dst, reusing dst's memory; a
// Query without a search in progress gives an inactive state. It copies
// the nodes the search used, not the whole pool. A nil dst captures
// nothing.
func (q *Query) CaptureSearch(dst *SearchState) {
	if dst == nil {
		return
	}
	dst.poolSize, dst.nodeLimit = q.nodes.maxNodes(), q.nodeLimit
	dst.active = q.sliced.state == slicedInProgress
	if !dst.active {
		dst.nodes, dst.open, dst.sliced, dst.bestNode = dst.nodes[:0], dst.open[:0], slicedQuery{}, 0
		return
	}
	dst.nodes = append(dst.nodes[:0], q.nodes.nodes[:q.nodes.count]...)
	dst.open = dst.open[:0]
	for _, e := range q.open.heap[:q.open.size] {
		dst.open = append(dst.open, e.index())
	}
	dst.sliced = q.sliced
	dst.sliced.lastBestNode, dst.sliced.filter = nil, nil
	dst.bestNode = 0
	if q.sliced.lastBestNode != nil {
		dst.bestNode = q.sliced.lastBestNode.index
	}
}

// RestoreSearch makes s q's sliced search, with filter as its filter (the
// one the search was started with). An inactive s leaves q without a
// search. A pool of another size than q's is made anew; otherwise nothing
// allocates. The error wraps ErrBadSearchState when s is nil, s's pool is
// larger than MaxNodes or its nodes do not fit it; q is not changed then.
func (q *Query) RestoreSearch(s *SearchState, filter *Filter) error {
	if s == nil {
		return fmt.Errorf("query: restore search: nil state: %w", ErrBadSearchState)
	}
	if !s.active {
		q.sliced = slicedQuery{}
		return nil
	}
	if filter == nil {
		return fmt.Errorf("query: restore search: nil filter: %w", ErrBadSearchState)
	}
	if s.poolSize < 1 || s.poolSize > MaxNodes || len(s.nodes) > s.poolSize || len(s.open) > len(s.nodes) ||
		s.bestNode == 0 || int(s.bestNode) > len(s.nodes) || s.nodeLimit < 1 || s.nodeLimit > MaxNodes {
		return fmt.Errorf("query: restore search: %d nodes, %d open, in a pool of %d: %w", len(s.nodes), len(s.open), s.poolSize, ErrBadSearchState)
	}
	if q.nodes.maxNodes() != s.poolSize {
		q.nodes = newNodePool(s.poolSize, nodeHashSize(s.poolSize))
		q.open = newNodeQueue(q.nodes)
	}
	q.nodeLimit = s.nodeLimit
	pool := q.nodes
	pool.clear()
	for i := range s.nodes {
		n := s.nodes[i]
		n.index = uint32(i + 1)
		pool.nodes[i] = n
		// The chains as get made them: each node at the head of its bucket.
		bucket := pool.bucket(n.ref)
		pool.nodes[i].next = pool.first[bucket]
		pool.first[bucket] = n.index
	}
	pool.count = len(s.nodes)
	q.open.clear()
	for _, idx := range s.open {
		q.open.heap[q.open.size] = q.open.entry(&pool.nodes[idx-1])
		q.open.size++
	}
	q.sliced = s.sliced
	q.sliced.filter = filter
	q.sliced.lastBestNode = &pool.nodes[s.bestNode-1]
	return nil
}

// nodeStateSize is the byte size of one node in a SearchState.
const nodeStateSize = 12 + 4 + 4 + 4 + 1 + 1 + 8

// AppendBinary appends s's byte form to b.
func (s *SearchState) AppendBinary(b []byte) ([]byte, error) {
	w := binstate.Writer{B: b}
	w.Bool(s.active)
	if !s.active {
		return w.B, nil
	}
	w.U32(uint32(s.poolSize))
	w.U32(uint32(s.nodeLimit))
	w.Count(len(s.nodes))
	for i := range s.nodes {
		n := &s.nodes[i]
		w.Vec3(n.pos)
		w.F32(n.cost)
		w.F32(n.total)
		w.U32(n.parent)
		w.U8(n.state)
		w.U8(uint8(n.flags))
		w.U64(uint64(n.ref))
	}
	w.Count(len(s.open))
	for _, idx := range s.open {
		w.U32(idx)
	}
	sl := &s.sliced
	w.U8(uint8(sl.state))
	w.U32(uint32(sl.details))
	w.U32(s.bestNode)
	w.F32(sl.lastBestNodeCost)
	w.U64(uint64(sl.startRef))
	w.U64(uint64(sl.endRef))
	w.Vec3(sl.startPos)
	w.Vec3(sl.endPos)
	w.U8(uint8(sl.options))
	w.F32(sl.raycastLimitSqr)
	return w.B, nil
}

// UnmarshalBinary reads a state written by AppendBinary into s, checking
// every index (parents, open list, best node) against the pool, so that a
// restored search cannot reach outside it. s changes only when data is
// valid.
func (s *SearchState) UnmarshalBinary(data []byte) error {
	r := binstate.NewReader(data, "search state")
	var st SearchState
	st.active = r.Bool()
	if st.active {
		st.poolSize = r.Size()
		st.nodeLimit = r.Size()
		if r.Err() == nil && (st.poolSize < 1 || st.poolSize > MaxNodes || st.nodeLimit < 1 || st.nodeLimit > MaxNodes) {
			r.Fail("pool of %d nodes, limit %d, want 1..%d", st.poolSize, st.nodeLimit, MaxNodes)
		}
		n := r.Count(st.poolSize, nodeStateSize)
		st.nodes = make([]node, n)
		for i := range st.nodes {
			nd := &st.nodes[i]
			nd.pos, nd.cost, nd.total, nd.parent = r.Vec3(), r.F32(), r.F32(), r.U32()
			nd.state, nd.flags, nd.ref = r.U8(), nodeFlags(r.U8()), navmesh.Ref(r.U64())
			nd.index = uint32(i + 1)
			if r.Err() == nil && (nd.parent > uint32(n) || nd.state >= maxStatesPerNode) {
				r.Fail("node %d with parent %d, state %d", i, nd.parent, nd.state)
			}
		}
		open := r.Count(n, 4)
		seen := make([]bool, n+1)
		for range open {
			idx := r.U32()
			if r.Err() == nil && (idx == 0 || idx > uint32(n) || seen[idx] || st.nodes[idx-1].flags&nodeOpen == 0) {
				r.Fail("open node %d not an open node of the pool", idx)
				break
			}
			seen[idx] = true
			st.open = append(st.open, idx)
		}
		sl := &st.sliced
		sl.state = slicedState(r.U8())
		sl.details = Status(r.U32())
		st.bestNode = r.U32()
		sl.lastBestNodeCost = r.F32()
		sl.startRef, sl.endRef = navmesh.Ref(r.U64()), navmesh.Ref(r.U64())
		sl.startPos, sl.endPos = r.Vec3(), r.Vec3()
		sl.options = FindPathOptions(r.U8())
		sl.raycastLimitSqr = r.F32()
		if r.Err() == nil && (sl.state != slicedInProgress || st.bestNode == 0 || st.bestNode > uint32(n)) {
			r.Fail("search in state %d with best node %d of %d", sl.state, st.bestNode, n)
		}
	}
	if err := r.End(); err != nil {
		return fmt.Errorf("query: %w: %w", err, ErrBadSearchState)
	}
	*s = st
	return nil
}

// filterStateSize is the byte size of a Filter's state.
const filterStateSize = 4*navmesh.MaxAreas + 2 + 2

// AppendState appends f's area costs and flags to b (a Custom rule is
// code, not state: it is not written).
func (f *Filter) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	for _, c := range f.AreaCost {
		w.F32(c)
	}
	w.U16(f.IncludeFlags)
	w.U16(f.ExcludeFlags)
	return w.B
}

// ReadState reads costs and flags written by AppendState from the start of
// data into f, keeping its Custom rule, and returns the bytes after them.
// A cost must be a finite number >= 0; f changes only when all are.
func (f *Filter) ReadState(data []byte) ([]byte, error) {
	if len(data) < filterStateSize {
		return data, fmt.Errorf("query: filter state: %d bytes, want %d: %w", len(data), filterStateSize, ErrBadSearchState)
	}
	r := binstate.NewReader(data[:filterStateSize], "filter")
	var costs [navmesh.MaxAreas]float32
	for i := range costs {
		costs[i] = r.F32()
		if c := costs[i]; r.Err() == nil && !(c >= 0 && c <= math.MaxFloat32) {
			r.Fail("area %d costs %v", i, c)
		}
	}
	include, exclude := r.U16(), r.U16()
	if err := r.End(); err != nil {
		return data, fmt.Errorf("query: %w: %w", err, ErrBadSearchState)
	}
	f.AreaCost, f.IncludeFlags, f.ExcludeFlags = costs, include, exclude
	return data[filterStateSize:], nil
}
