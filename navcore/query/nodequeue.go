package query

import "math"

// nodeQueue is the open list: a binary min-heap of nodes on their total cost
// (dtNodeQueue). Its sift-up and sift-down match Detour's step for step, so
// nodes with equal totals come out in the same order.
//
// Each entry keeps its node's total beside the node's pool index, so that
// the sifts compare totals in the heap's own memory instead of following
// a pointer per comparison; a node's total changes only through push and
// modify, which write it into the entry too.
//
// The sifts compare the totals' bits as integers, which order the float32
// totals the searches make (finite or infinite, >= +0) exactly as float
// comparisons do, in fewer instructions. A NaN or negative total (a NaN
// comes from an infinite distance times a cost of 0) switches the queue
// to float comparisons until it is cleared: the heap built so far holds
// only totals on which both orders agree, so the switch changes no result.
type nodeQueue struct {
	heap  []queueEntry // len is the capacity; size entries are in use
	size  int
	nodes []node // the pool's nodes, which the entries index
	// floatOrder is set once an entry with a NaN or negative total (-0
	// included) has been added: the sifts then compare float32 totals.
	floatOrder bool
}

// queueEntry is one node of the open list: its pool index+1 (node.index)
// in the high 32 bits, the bits of its total in the low ones. One word, so
// that the sifts move an entry with one load and one store.
type queueEntry uint64

// makeEntry returns the entry of n.
func makeEntry(n *node) queueEntry {
	return queueEntry(n.index)<<32 | queueEntry(math.Float32bits(n.total))
}

// total returns the total of e's node.
func (e queueEntry) total() float32 { return math.Float32frombits(uint32(e)) }

// index returns the pool index+1 of e's node.
func (e queueEntry) index() uint32 { return uint32(e >> 32) }

// newNodeQueue returns an empty open list for the nodes of pool.
func newNodeQueue(pool *nodePool) *nodeQueue {
	return &nodeQueue{heap: make([]queueEntry, len(pool.nodes)+1), nodes: pool.nodes}
}

func (q *nodeQueue) clear() { q.size, q.floatOrder = 0, false }

// entry returns the entry of n, switching the queue to float comparisons
// when n's total is NaN or negative.
func (q *nodeQueue) entry(n *node) queueEntry {
	e := makeEntry(n)
	if uint32(e) > 0x7f800000 {
		q.floatOrder = true
	}
	return e
}

func (q *nodeQueue) empty() bool { return q.size == 0 }

// node returns the node of entry e.
func (q *nodeQueue) node(e queueEntry) *node { return &q.nodes[e.index()-1] }

// top returns the cheapest node without removing it.
func (q *nodeQueue) top() *node { return q.node(q.heap[0]) }

// pop removes and returns the cheapest node.
func (q *nodeQueue) pop() *node {
	n := q.node(q.heap[0])
	if q.floatOrder {
		q.dropFirstFloat()
	} else {
		q.dropFirst()
	}
	return n
}

// push adds n, a node of the queue's pool.
func (q *nodeQueue) push(n *node) {
	e := q.entry(n)
	i := q.size
	q.size++
	if q.floatOrder {
		q.bubbleUpFloat(i, e)
		return
	}
	bubbleUpBits(q.heap, i, e)
}

// modify restores the heap order after n's total decreased.
func (q *nodeQueue) modify(n *node) {
	heap := q.heap[:q.size]
	for i := range heap {
		if heap[i].index() == n.index {
			q.bubbleUp(i, q.entry(n))
			return
		}
	}
}

// bubbleUp places e at slot i or above (dtNodeQueue::bubbleUp).
func (q *nodeQueue) bubbleUp(i int, e queueEntry) {
	if q.floatOrder {
		q.bubbleUpFloat(i, e)
		return
	}
	bubbleUpBits(q.heap, i, e)
}

// bubbleUpBits is bubbleUp comparing the totals' bits.
func bubbleUpBits(heap []queueEntry, i int, e queueEntry) {
	for i > 0 {
		parent := (i - 1) >> 1
		p := heap[parent]
		if uint32(p) <= uint32(e) {
			break
		}
		heap[i] = p
		i = parent
	}
	heap[i] = e
}

// bubbleUpFloat is bubbleUp comparing float32 totals.
func (q *nodeQueue) bubbleUpFloat(i int, e queueEntry) {
	heap := q.heap
	for i > 0 {
		parent := (i - 1) >> 1
		p := heap[parent]
		if !(p.total() > e.total()) {
			break
		}
		heap[i] = p
		i = parent
	}
	heap[i] = e
}

// dropFirst removes the cheapest node: the last node sifts down from the
// top (dtNodeQueue::trickleDown). The callers have checked that
// floatOrder is off.
func (q *nodeQueue) dropFirst() {
	size := q.size - 1
	q.size = size
	heap := q.heap[:size+1]
	e := heap[size]
	heap = heap[:size]
	i := uint(0)
	for child := uint(1); child < uint(len(heap)); child = 2*i + 1 {
		c := heap[child]
		if next := child + 1; next < uint(len(heap)) {
			if r := heap[next]; uint32(c) > uint32(r) {
				child = next
				c = r
			}
		}
		heap[i] = c
		i = child
	}
	bubbleUpBits(q.heap, int(i), e)
}

// dropFirstFloat is dropFirst comparing float32 totals.
func (q *nodeQueue) dropFirstFloat() {
	size := q.size - 1
	q.size = size
	heap := q.heap[:size+1]
	e := heap[size]
	heap = heap[:size]
	i := uint(0)
	for child := uint(1); child < uint(len(heap)); child = 2*i + 1 {
		c := heap[child]
		if next := child + 1; next < uint(len(heap)) {
			if r := heap[next]; c.total() > r.total() {
				child = next
				c = r
			}
		}
		heap[i] = c
		i = child
	}
	q.bubbleUpFloat(int(i), e)
}

// closeCheapest removes the cheapest node from the open list and marks it
// closed: the next node a search expands.
func (q *nodeQueue) closeCheapest() *node {
	n := q.node(q.heap[0])
	if q.floatOrder {
		q.dropFirstFloat()
	} else {
		q.dropFirst()
	}
	n.flags = n.flags&^nodeOpen | nodeClosed
	return n
}

// reopen puts n, whose total has just dropped, where it belongs: further up
// the heap when it is open, else on the open list.
func (q *nodeQueue) reopen(n *node) {
	if n.flags&nodeOpen != 0 {
		q.modify(n)
		return
	}
	n.flags |= nodeOpen
	q.push(n)
}
