package crowd

import "github.com/archenav/archenav/navcore/navmesh"

// The merge functions splice the polygons a local search visited into a
// corridor path. path is the whole buffer (its length is the most polygons it
// can hold), count how many of them are in use; each returns the new count.
// A count outside 0..len(path) is clamped to it.

// lastCommonPolygon finds the last polygon of path[:count] that visited also
// holds, and the first position at which visited holds it. ok is false when
// they share none.
func lastCommonPolygon(path []navmesh.Ref, count int, visited []navmesh.Ref) (pathIndex, visitedIndex int, ok bool) {
	for i := count - 1; i >= 0; i-- {
		for j := range visited {
			if path[i] == visited[j] {
				return i, j, true
			}
		}
	}
	return -1, -1, false
}

// firstCommonPolygon finds the first polygon of path[:count] that visited
// also holds, and the first position at which visited holds it.
func firstCommonPolygon(path []navmesh.Ref, count int, visited []navmesh.Ref) (pathIndex, visitedIndex int, ok bool) {
	for i := 0; i < count; i++ {
		for j := range visited {
			if path[i] == visited[j] {
				return i, j, true
			}
		}
	}
	return -1, -1, false
}

func clampCount(path []navmesh.Ref, count int) int {
	return max(0, min(count, len(path)))
}

// MergeCorridorStartMoved updates a corridor whose start moved along the
// polygons visited (oldest first, as a surface move returns them): the path
// now starts with the visited polygons after the last one it shares with
// them, newest first, followed by what lay beyond that shared polygon. It
// keeps the path when they share nothing (dtMergeCorridorStartMoved).
func MergeCorridorStartMoved(path []navmesh.Ref, count int, visited []navmesh.Ref) int {
	count = clampCount(path, count)
	furthestPath, furthestVisited, ok := lastCommonPolygon(path, count, visited)
	if !ok {
		return count
	}
	// Keep visited[furthestVisited:], reversed, in front of path[furthestPath+1:].
	required := len(visited) - furthestVisited
	orig := min(furthestPath+1, count)
	size := max(0, count-orig)
	if required+size > len(path) {
		size = len(path) - required
	}
	if size > 0 {
		copy(path[required:required+size], path[orig:orig+size])
	}
	for i, n := 0, min(required, len(path)); i < n; i++ {
		path[i] = visited[len(visited)-1-i]
	}
	return min(required+size, len(path))
}

// MergeCorridorEndMoved updates a corridor whose end moved along the polygons
// visited (oldest first): the path is cut after the first polygon it shares
// with them and continued with the visited polygons after that one
// (dtMergeCorridorEndMoved).
func MergeCorridorEndMoved(path []navmesh.Ref, count int, visited []navmesh.Ref) int {
	count = clampCount(path, count)
	furthestPath, furthestVisited, ok := firstCommonPolygon(path, count, visited)
	if !ok {
		return count
	}
	pathPos := furthestPath + 1
	visitedPos := furthestVisited + 1
	n := max(0, min(len(visited)-visitedPos, len(path)-pathPos))
	copy(path[pathPos:pathPos+n], visited[visitedPos:visitedPos+n])
	return pathPos + n
}

// MergeCorridorStartShortcut replaces the start of a corridor by a shortcut:
// visited is a run of polygons from the corridor's first polygon (a raycast
// or a short search); the path becomes visited up to the last polygon it
// shares with the path, followed by the path from that polygon on
// (dtMergeCorridorStartShortcut). Unlike the reference, a shortcut longer
// than the buffer is cut instead of written past its end.
func MergeCorridorStartShortcut(path []navmesh.Ref, count int, visited []navmesh.Ref) int {
	count = clampCount(path, count)
	furthestPath, furthestVisited, ok := lastCommonPolygon(path, count, visited)
	if !ok {
		return count
	}
	required := furthestVisited
	if required <= 0 {
		return count
	}
	orig := furthestPath
	size := max(0, count-orig)
	if required+size > len(path) {
		size = len(path) - required
	}
	if size > 0 {
		copy(path[required:required+size], path[orig:orig+size])
	}
	copy(path[:min(required, len(path))], visited[:required])
	return min(required+size, len(path))
}
