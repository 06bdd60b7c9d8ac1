package hierarchy

import (
	"math"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// searchCrossing is a crossing as the searches inside a tile use it: the
// polygon it leaves from, its port and the middle of its portal.
type searchCrossing struct {
	poly uint32
	port uint32
	mid  geom.Vec3
}

// noGoal is the goal polygon of a tile search that has none.
const noGoal = math.MaxUint32

// tileSearch is a Dijkstra search inside one tile on the same steps as the
// A* of query.Query.FindPath: a polygon is entered at the middle of a
// portal, and moving on to the next portal (or to the goal) costs the
// distance times the polygon's area cost. A state is a polygon entered
// through one portal, so the search is exact for that cost. It gives the
// cost of leaving the tile through each port (ending at the port's
// representative point) and of reaching a goal polygon.
type tileSearch struct {
	tile      *navmesh.Tile
	model     *costModel
	crossings []searchCrossing
	ports     []port

	states    []tileState
	linkState []int32 // per link of the tile: its state's index+1, 0 for none yet
	heap      []int32
	portCost  []float32
	// portState and portCrossing hold, per port, the state and the
	// crossing (an index into crossings) of its cheapest way, -1 for none.
	portState    []int32
	portCrossing []int32
	goalCost     float32
	goalState    int32 // the state of the goal's cheapest way, -1 for none
	settled      int
}

type tileState struct {
	pos       geom.Vec3
	cost      float32
	poly      uint32
	heapIndex int32 // -1 off the heap, settledIndex once settled
	parent    int32 // the state it was reached from, -1 for a source
	link      int32 // the link of the parent's polygon it was entered through
}

const settledIndex = -2

// reserve sizes the working memory for a tile of up to links links (a
// search enters a polygon through each link at most once), with headroom
// for the tile versions obstacles and edits make later: a tile carved
// around an obstacle gains a few polygons and their links.
func (s *tileSearch) reserve(links int) {
	links += links/4 + 8
	if cap(s.states) < links+1 {
		s.states = make([]tileState, 0, links+1)
	}
	if cap(s.linkState) < links {
		s.linkState = make([]int32, 0, links)
	}
	if cap(s.heap) < links+1 {
		s.heap = make([]int32, 0, links+1)
	}
}

// release drops the search's tile and the version's ports, keeping the
// working memory.
func (s *tileSearch) release() {
	s.tile, s.model, s.ports = nil, nil, nil
	s.crossings = s.crossings[:0]
}

// reset prepares a search of tile under model, whose exits are crossings
// (grouped in ports).
func (s *tileSearch) reset(tile *navmesh.Tile, model *costModel, crossings []searchCrossing, ports []port) {
	s.tile, s.model, s.crossings, s.ports = tile, model, crossings, ports
	n := len(tile.Links)
	if cap(s.states) < n+1 {
		// A tile larger than any before: room for it with headroom, not
		// twice what was there.
		s.reserve(n)
	}
	s.states = s.states[:0]
	s.linkState = s.linkState[:n]
	clear(s.linkState)
	s.heap = s.heap[:0]
	s.portCost = slices.Grow(s.portCost[:0], len(ports))[:len(ports)]
	s.portState = slices.Grow(s.portState[:0], len(ports))[:len(ports)]
	s.portCrossing = slices.Grow(s.portCrossing[:0], len(ports))[:len(ports)]
	for i := range s.portCost {
		s.portCost[i] = float32(math.Inf(1))
		s.portState[i] = -1
		s.portCrossing[i] = -1
	}
	s.goalCost = float32(math.Inf(1))
	s.goalState = -1
	s.settled = 0
}

// addSource starts the search at pos in polygon poly with cost.
func (s *tileSearch) addSource(poly uint32, pos geom.Vec3, cost float32) {
	s.states = append(s.states, tileState{pos: pos, cost: cost, poly: poly, heapIndex: -1, parent: -1})
	s.push(int32(len(s.states) - 1))
}

// run searches until every state is settled, or, with stopAtGoal, until
// the goal's cost is known.
func (s *tileSearch) run(goalPoly uint32, goalPos geom.Vec3) {
	s.search(goalPoly, goalPos, false)
}

// runToGoal searches until the cost of reaching goalPos in goalPoly is
// known (s.goalCost, +Inf when it cannot be reached).
func (s *tileSearch) runToGoal(goalPoly uint32, goalPos geom.Vec3) {
	s.search(goalPoly, goalPos, true)
}

func (s *tileSearch) search(goalPoly uint32, goalPos geom.Vec3, stopAtGoal bool) {
	t, model := s.tile, s.model
	self := uint32(t.Index())
	base := t.PolyRefBase()
	n := uint32(len(t.Polys))
	for len(s.heap) > 0 {
		current := s.pop()
		st := s.states[current]
		if stopAtGoal && st.cost >= s.goalCost {
			return
		}
		s.states[current].heapIndex = settledIndex
		s.settled++
		poly := &t.Polys[st.poly]
		area := model.areaCostOf(t, poly)
		for k := range s.crossings {
			c := &s.crossings[k]
			if c.poly != st.poly {
				continue
			}
			cost := st.cost + float32((distance(&st.pos, &c.mid)+distance(&c.mid, &s.ports[c.port].rep))*area)
			if cost < s.portCost[c.port] {
				s.portCost[c.port] = cost
				s.portState[c.port] = current
				s.portCrossing[c.port] = int32(k)
			}
		}
		if st.poly == goalPoly {
			if cost := st.cost + float32(distance(&st.pos, &goalPos)*area); cost < s.goalCost {
				s.goalCost = cost
				s.goalState = current
			}
		}
		for l := poly.FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
			link := &t.Links[l]
			ref := link.Ref
			if ref == 0 || ref.TileIndex() != self || ref.PolyIndex() >= n {
				continue
			}
			next := &t.Polys[ref.PolyIndex()]
			if !model.passes(next) {
				continue
			}
			index := s.linkState[l] - 1
			if index < 0 {
				mid := portalMid(t, poly, link, base|navmesh.Ref(st.poly), t, next)
				s.states = append(s.states, tileState{pos: mid, cost: float32(math.Inf(1)), poly: ref.PolyIndex(), heapIndex: -1, parent: -1, link: int32(l)})
				index = int32(len(s.states) - 1)
				s.linkState[l] = index + 1
			}
			target := &s.states[index]
			if target.heapIndex == settledIndex {
				continue
			}
			if cost := st.cost + float32(distance(&st.pos, &target.pos)*area); cost < target.cost {
				target.cost = cost
				target.parent = current
				if target.heapIndex < 0 {
					s.push(index)
				} else {
					s.up(int(target.heapIndex))
				}
			}
		}
	}
}

func (s *tileSearch) push(i int32) {
	s.heap = append(s.heap, i)
	s.states[i].heapIndex = int32(len(s.heap) - 1)
	s.up(len(s.heap) - 1)
}

func (s *tileSearch) pop() int32 {
	top := s.heap[0]
	last := len(s.heap) - 1
	s.heap[0] = s.heap[last]
	s.states[s.heap[0]].heapIndex = 0
	s.heap = s.heap[:last]
	if last > 0 {
		s.down(0)
	}
	s.states[top].heapIndex = -1
	return top
}

func (s *tileSearch) up(i int) {
	h := s.heap
	item := h[i]
	cost := s.states[item].cost
	for i > 0 {
		parent := (i - 1) / 2
		if s.states[h[parent]].cost <= cost {
			break
		}
		h[i] = h[parent]
		s.states[h[i]].heapIndex = int32(i)
		i = parent
	}
	h[i] = item
	s.states[item].heapIndex = int32(i)
}

func (s *tileSearch) down(i int) {
	h := s.heap
	item := h[i]
	cost := s.states[item].cost
	for {
		child := 2*i + 1
		if child >= len(h) {
			break
		}
		if child+1 < len(h) && s.states[h[child+1]].cost < s.states[h[child]].cost {
			child++
		}
		if s.states[h[child]].cost >= cost {
			break
		}
		h[i] = h[child]
		s.states[h[i]].heapIndex = int32(i)
		i = child
	}
	h[i] = item
	s.states[item].heapIndex = int32(i)
}

// Tile paths: the polygons of a way through one tile, from a port's
// first crossing to another port, packed in 16 bits (tilePath): the number
// of steps (bits 0-2), then per step the rank, in its polygon's list of
// links, of the link it takes (3 bits each). A way that does not fit (more
// than tilePathSteps steps, a rank beyond tilePathRankMax, or a start
// from another crossing of the port) is absentPath, and searches find it
// again in the tile. On the 1 km level of benchmarks/bigworld 97 % of the
// ways fit.
type tilePath uint16

const (
	tilePathSteps   = 4
	tilePathRankMax = 7
	absentPath      = tilePath(7)
)

// tilePathWord packs the way to state (a state of a search whose
// sources are the crossings of one port, in their order), absentPath when
// it does not fit.
func (s *tileSearch) tilePathWord(state int32) tilePath {
	t := s.tile
	steps := 0
	for i := state; s.states[i].parent >= 0; i = s.states[i].parent {
		steps++
	}
	if steps > tilePathSteps {
		return absentPath
	}
	word := tilePath(steps)
	k := steps
	i := state
	for ; s.states[i].parent >= 0; i = s.states[i].parent {
		k--
		st := &s.states[i]
		rank := linkRank(t, &t.Polys[s.states[st.parent].poly], uint32(st.link))
		if rank < 0 || rank > tilePathRankMax {
			return absentPath
		}
		word |= tilePath(rank) << (3 + 3*k)
	}
	if i != 0 {
		return absentPath // the way starts from another crossing than the first
	}
	return word
}

// linkRank returns the place of link l in poly's list of links, -1 if
// it is not there.
func linkRank(t *navmesh.Tile, poly *navmesh.Poly, l uint32) int {
	rank := 0
	for k := poly.FirstLink; k != navmesh.NullLink; k = t.Links[k].Next {
		if k == l {
			return rank
		}
		rank++
	}
	return -1
}

// pathSteps returns the steps of a tile path, which starts from its
// port's first crossing; ok is false for absentPath.
func pathSteps(word tilePath) (steps int, ok bool) {
	if int(word&7) > tilePathSteps {
		return 0, false
	}
	return int(word & 7), true
}

// pathRank returns the rank of the link step k of a tile path takes.
func pathRank(word tilePath, k int) int { return int(word >> (3 + 3*k) & 7) }
