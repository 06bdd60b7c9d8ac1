package crowd

// Requests that share a search: a request from the same start polygon to
// the same goal polygon with the same filter as one already queued,
// searching or finished (and not yet claimed) gets that search's corridor
// instead of a search of its own. A group of agents sent to one place
// from one place so costs one search. The corridor is planned between the
// first request's points; it joins the same polygons, which is all the
// crowd's corridors need (they string-pull from the agent's own position
// to its own target).

// share makes the new request in slot s follow an equal request's search,
// or take its finished corridor at once. It does nothing when there is
// no equal request.
func (pq *PathQueue) share(s *pathSlot) {
	for i := range pq.slots {
		l := &pq.slots[i]
		if l == s || l.startRef != s.startRef || l.endRef != s.endRef || l.filter != s.filter {
			continue
		}
		switch l.state {
		case slotQueued, slotSearching:
			s.state = slotFollowing
			s.leader = int32(i + 1)
			l.followers++
			return
		case slotDone:
			s.takeResult(l)
			return
		}
	}
}

// takeResult gives s the finished corridor of l.
func (s *pathSlot) takeResult(l *pathSlot) {
	s.goalRef, s.goalPos, s.outOfReach = l.goalRef, l.goalPos, l.outOfReach
	s.pathCount = copy(s.path, l.path[:l.pathCount])
	s.status = l.status
	s.state = slotDone
	s.keepAlive = 0
	s.leader = 0
}

// handOver gives the result of the finished search of slot index i to the
// requests following it.
func (pq *PathQueue) handOver(i int) {
	l := &pq.slots[i]
	if l.followers == 0 {
		return
	}
	leader := int32(i + 1)
	for k := range pq.slots {
		f := &pq.slots[k]
		if f.state != slotFollowing || f.leader != leader {
			continue
		}
		if l.state == slotFailed {
			f.err, f.state, f.keepAlive, f.leader = l.err, slotFailed, 0, 0
		} else {
			f.takeResult(l)
		}
	}
	l.followers = 0
}

// promoteFollower hands the search of slot l, whose request is being
// cancelled, to the first request following it: that request's id moves
// to l and its own slot is freed.
func (pq *PathQueue) promoteFollower(l *pathSlot) {
	leader := int32(pq.slotIndex(l) + 1)
	for k := range pq.slots {
		f := &pq.slots[k]
		if f.state != slotFollowing || f.leader != leader {
			continue
		}
		l.id = f.id
		l.followers--
		f.state, f.filter, f.leader = slotFree, nil, 0
		return
	}
}
