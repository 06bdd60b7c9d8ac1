package query

// nodeQueue is the open list: a binary min-heap of nodes on their total cost
// (dtNodeQueue). Its sift-up and sift-down match Detour's step for step, so
// nodes with equal totals come out in the same order.
type nodeQueue struct {
	heap []*node // len is the capacity; size entries are in use
	size int
}

func newNodeQueue(capacity int) *nodeQueue {
	return &nodeQueue{heap: make([]*node, capacity+1)}
}

func (q *nodeQueue) clear() { q.size = 0 }

func (q *nodeQueue) empty() bool { return q.size == 0 }

// top returns the cheapest node without removing it.
func (q *nodeQueue) top() *node { return q.heap[0] }

// pop removes and returns the cheapest node.
func (q *nodeQueue) pop() *node {
	n := q.heap[0]
	q.dropFirst()
	return n
}

// push adds n.
func (q *nodeQueue) push(n *node) {
	q.size++
	q.bubbleUp(q.size-1, n)
}

// modify restores the heap order after n's total decreased.
func (q *nodeQueue) modify(n *node) {
	for i := 0; i < q.size; i++ {
		if q.heap[i] == n {
			q.bubbleUp(i, n)
			return
		}
	}
}

func (q *nodeQueue) bubbleUp(i int, n *node) {
	heap := q.heap
	parent := (i - 1) / 2
	for i > 0 && heap[parent].total > n.total {
		heap[i] = heap[parent]
		i = parent
		parent = (i - 1) / 2
	}
	heap[i] = n
}

// dropFirst removes the cheapest node: the last node sifts down from the
// top (dtNodeQueue::trickleDown).
func (q *nodeQueue) dropFirst() {
	q.size--
	n := q.heap[q.size]
	heap := q.heap
	i := 0
	child := 1
	for child < q.size {
		if child+1 < q.size && heap[child].total > heap[child+1].total {
			child++
		}
		heap[i] = heap[child]
		i = child
		child = i*2 + 1
	}
	q.bubbleUp(i, n)
}

// closeCheapest removes the cheapest node from the open list and marks it
// closed: the next node a search expands.
func (q *nodeQueue) closeCheapest() *node {
	n := q.heap[0]
	q.dropFirst()
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
