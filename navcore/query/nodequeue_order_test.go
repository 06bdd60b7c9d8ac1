package query

import (
	"math"
	"math/rand"
	"testing"
)

// refHeap is dtNodeQueue on float32 totals, as Detour compares them.
type refHeap struct{ heap []*node }

func (h *refHeap) push(n *node) {
	h.heap = append(h.heap, n)
	h.bubbleUp(len(h.heap)-1, n)
}

func (h *refHeap) bubbleUp(i int, n *node) {
	for i > 0 {
		parent := (i - 1) / 2
		if !(h.heap[parent].total > n.total) {
			break
		}
		h.heap[i] = h.heap[parent]
		i = parent
	}
	h.heap[i] = n
}

func (h *refHeap) pop() *node {
	top := h.heap[0]
	last := h.heap[len(h.heap)-1]
	h.heap = h.heap[:len(h.heap)-1]
	i, child := 0, 1
	for child < len(h.heap) {
		if child+1 < len(h.heap) && h.heap[child].total > h.heap[child+1].total {
			child++
		}
		h.heap[i] = h.heap[child]
		i = child
		child = 2*i + 1
	}
	if len(h.heap) > 0 {
		h.bubbleUp(i, last)
	}
	return top
}

// TestNodeQueueOrder checks that the queue pops nodes in Detour's order,
// ties included, with the totals' bits compared as integers and after a
// NaN or negative total switches it to float comparisons.
func TestNodeQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	odd := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), -1, float32(math.Inf(1))}
	for round := range 400 {
		pool := newNodePool(256, 64)
		q := newNodeQueue(pool)
		var ref refHeap
		for i := range pool.nodes[:200] {
			n := &pool.nodes[i]
			switch r := rng.Intn(100); {
			case round%2 == 1 && r < 2:
				n.total = odd[rng.Intn(len(odd))]
			case r < 30:
				n.total = float32(rng.Intn(8)) // ties
			default:
				n.total = rng.Float32() * 100
			}
			q.push(n)
			ref.push(n)
			if rng.Intn(3) == 0 {
				if got, want := q.pop(), ref.pop(); got != want {
					t.Fatalf("round %d: popped node %d (total %v), want %d (total %v)", round, got.index, got.total, want.index, want.total)
				}
			}
		}
		for !q.empty() {
			if got, want := q.pop(), ref.pop(); got != want {
				t.Fatalf("round %d: popped node %d (total %v), want %d (total %v)", round, got.index, got.total, want.index, want.total)
			}
		}
	}
}
