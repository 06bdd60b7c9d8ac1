package query

// ClosedNodes returns how many nodes the last search that used the node
// pool closed: the polygons it explored in full (for FindPath and the
// sliced path search, the nodes an A* "visits"). FindPath from a polygon to
// itself searches nothing and leaves the count of the search before. It
// takes time in the nodes the search used and allocates nothing.
func (q *Query) ClosedNodes() int {
	closed := 0
	for i := range q.nodes.count {
		if q.nodes.nodes[i].flags&nodeClosed != 0 {
			closed++
		}
	}
	return closed
}
