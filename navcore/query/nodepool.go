package query

import (
	"math/bits"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// nodeFlags mark where a search node is (dtNodeFlags).
type nodeFlags uint8

const (
	nodeOpen   nodeFlags = 0x01
	nodeClosed nodeFlags = 0x02
	// nodeParentDetached marks a node whose parent is not its neighbour: the
	// any-angle search reached it through a raycast shortcut.
	nodeParentDetached nodeFlags = 0x04
)

// maxStatesPerNode is how many nodes one polygon can have, one per state
// (DT_MAX_STATES_PER_NODE). The plain A* uses the tile side an edge crosses
// as the state.
const maxStatesPerNode = 4

// MaxNodes is the largest node pool a Query can have (the 24-bit parent index
// of dtNode).
const MaxNodes = 1<<24 - 1

// node is one search node (dtNode): a polygon, reached at pos, with the cost
// so far and the estimated total.
type node struct {
	pos   geom.Vec3
	cost  float32 // cost from the start to pos
	total float32 // cost plus heuristic
	// parent is the pool index+1 of the node this one was reached from, 0
	// for none.
	parent uint32
	// index is this node's own pool index+1.
	index uint32
	// next is the index+1 of the next node in this node's hash bucket, 0
	// for none (pool bookkeeping, not search state).
	next  uint32
	state uint8
	flags nodeFlags
	ref   navmesh.Ref
}

// nodePool hands out search nodes keyed by (polygon, state) and finds them
// again through a hash table (dtNodePool). Nodes are numbered in the order
// they are first requested; the pool never grows.
type nodePool struct {
	nodes []node
	// first holds the index+1 of each hash bucket's newest node, 0 for an
	// empty bucket (so clearing is a memory clear); each node's next
	// continues its bucket's chain.
	first []uint32
	count int
	// hashShift turns the 64-bit product of hashRef into a bucket: 64 minus
	// the log2 of the bucket count.
	hashShift uint8
}

// newNodePool makes a pool of maxNodes nodes and hashSize buckets (a power
// of two).
func newNodePool(maxNodes, hashSize int) *nodePool {
	p := &nodePool{
		nodes:     make([]node, maxNodes),
		first:     make([]uint32, hashSize),
		hashShift: uint8(64 - bits.TrailingZeros(uint(hashSize))),
	}
	for i := range p.nodes {
		p.nodes[i].index = uint32(i + 1)
	}
	p.clear()
	return p
}

// hashRef is the Fibonacci hash of ref: its product with 2^64 divided by
// the golden ratio, whose top bits spread nearby polygon references evenly
// over the buckets. (Detour hashes with Thomas Wang's integer hash; which
// bucket a node goes in changes no result, only the time to find it.)
func hashRef(ref navmesh.Ref) uint64 {
	return uint64(ref) * 0x9e3779b97f4a7c15
}

// bucket returns the hash bucket of ref.
func (p *nodePool) bucket(ref navmesh.Ref) uint32 {
	return uint32(hashRef(ref) >> (p.hashShift & 63))
}

// clear forgets every node.
func (p *nodePool) clear() {
	if used := p.nodes[:p.count]; len(used) < len(p.first)/16 {
		// A small search: empty only the buckets its nodes went in
		// (only get and RestoreSearch fill buckets, both with nodes
		// below count).
		for i := range used {
			p.first[p.bucket(used[i].ref)] = 0
		}
	} else {
		clear(p.first)
	}
	p.count = 0
}

// maxNodes returns the pool's capacity.
func (p *nodePool) maxNodes() int { return len(p.nodes) }

// nodeCount returns how many nodes are in use.
func (p *nodePool) nodeCount() int { return p.count }

// at returns the node with pool index+1 idx, nil for 0.
func (p *nodePool) at(idx uint32) *node {
	if idx == 0 {
		return nil
	}
	return &p.nodes[idx-1]
}

// refAt returns the polygon of the node with pool index+1 idx, 0 for 0 (no
// node): the parent polygon of a node, from its parent index.
func (p *nodePool) refAt(idx uint32) navmesh.Ref {
	if idx == 0 {
		return 0
	}
	return p.nodes[idx-1].ref
}

// find returns the node for (ref, state), nil if it has none.
func (p *nodePool) find(ref navmesh.Ref, state uint8) *node {
	for i := p.first[p.bucket(ref)]; i != 0; i = p.nodes[i-1].next {
		if n := &p.nodes[i-1]; n.ref == ref && n.state == state {
			return n
		}
	}
	return nil
}

// findAll writes the nodes of ref, in any state, into dst, newest first, and
// returns how many it wrote.
func (p *nodePool) findAll(ref navmesh.Ref, dst []*node) int {
	n := 0
	for i := p.first[p.bucket(ref)]; i != 0; i = p.nodes[i-1].next {
		if p.nodes[i-1].ref == ref {
			if n >= len(dst) {
				return n
			}
			dst[n] = &p.nodes[i-1]
			n++
		}
	}
	return n
}

// get returns the node for (ref, state), taking a fresh zeroed one from the
// pool when it has none yet; nil when the pool is exhausted.
func (p *nodePool) get(ref navmesh.Ref, state uint8) *node {
	bucket := p.bucket(ref)
	head := p.first[bucket]
	for i := head; i != 0; {
		n := &p.nodes[i-1]
		if n.ref == ref && n.state == state {
			return n
		}
		i = n.next
	}
	i := p.count
	if i >= len(p.nodes) {
		return nil
	}
	p.count = i + 1
	n := &p.nodes[i]
	*n = node{index: n.index, next: head, state: state, ref: ref}
	p.first[bucket] = n.index
	return n
}

// reverseChain turns the parent chain that ends at last around, so that the
// parent indices lead from the search start to last, and returns the search
// start. A nodeParentDetached mark describes the link to the parent, so
// it moves along with that link: onto the node that now points back at the
// detached one. A chain longer than the pool's nodes (a cycle) is left as
// it is, with errParentCycle.
func (p *nodePool) reverseChain(last *node) (*node, error) {
	length := 0
	for nd := last; nd != nil; nd = p.at(nd.parent) {
		length++
		if length > p.count {
			return nil, errParentCycle
		}
	}
	var prev *node
	var prevDetached nodeFlags
	for nd := last; nd != nil; {
		next := p.at(nd.parent)
		if prev == nil {
			nd.parent = 0
		} else {
			nd.parent = prev.index
		}
		detached := nd.flags & nodeParentDetached
		nd.flags = nd.flags&^nodeParentDetached | prevDetached
		prevDetached = detached
		prev = nd
		nd = next
	}
	return prev, nil
}
