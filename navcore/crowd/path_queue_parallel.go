package crowd

// Runner runs job over the index range [0, total), cut into ranges
// [begin, end) spread over at most workers goroutines, and returns when
// every range is done; worker is the index of the goroutine running a
// range, in 0..workers-1. The crowd's worker pool (systems.Workers) is
// one, so that the path queue's searches share its goroutines.
type Runner interface {
	Run(workers, total int, job func(worker, begin, end int))
}

// queueTurn is one search's part of a round of UpdateWith: its slot, the
// iterations it may run and, after the round, the budget units it used.
type queueTurn struct {
	slot       int
	iterations int
	used       int
}

// UpdateWith is Update with the searches in progress run side by side by
// runner on at most workers goroutines (nil or one worker: in turn on the
// caller). Each search runs on its slot's own query, so the result is the
// same as Update's, whatever runner and workers: the budget is dealt out
// in rounds, each search in progress getting an equal share of what is
// left (the first ones from a cursor that moves one slot an Update, one
// iteration each when fewer iterations than searches are left), until the
// budget is spent or no search is left. With
// PathQueueConfig.ReferenceSchedule it is Update.
//
// maxIterations [Limit: >= 0]; workers [Limit: >= 1]
func (pq *PathQueue) UpdateWith(maxIterations int, runner Runner, workers int) {
	if pq.referenceSchedule {
		pq.updateReference(maxIterations)
		return
	}
	pq.readyHierarchy()
	for i := range pq.slots {
		s := &pq.slots[i]
		if s.state == slotDone || s.state == slotFailed {
			s.keepAlive++
			if s.keepAlive > PathQueueKeepAlive {
				pq.release(s)
			}
		}
	}

	n := len(pq.slots)
	budget := maxIterations
	for budget > 0 {
		active := 0
		for i := range pq.slots {
			if st := pq.slots[i].state; st == slotQueued || st == slotSearching {
				active++
			}
		}
		if active == 0 {
			break
		}
		share := max(1, budget/active)
		pq.turns = pq.turns[:0]
		for k := 0; k < n && len(pq.turns) < budget; k++ {
			i := (pq.cursor + k) % n
			if st := pq.slots[i].state; st == slotQueued || st == slotSearching {
				pq.turns = append(pq.turns, queueTurn{slot: i, iterations: share})
			}
		}
		if runner == nil || workers <= 1 || len(pq.turns) == 1 {
			pq.runTurns(0, 0, len(pq.turns))
		} else {
			runner.Run(workers, len(pq.turns), pq.turnJob)
		}
		for _, turn := range pq.turns {
			budget -= turn.used
			if st := pq.slots[turn.slot].state; st == slotDone || st == slotFailed {
				pq.handOver(turn.slot)
			}
		}
	}
	pq.cursor = (pq.cursor + 1) % n
}

// runTurns runs the turns [begin, end) of the round (a Runner job).
func (pq *PathQueue) runTurns(_, begin, end int) {
	for t := begin; t < end; t++ {
		turn := &pq.turns[t]
		turn.used = pq.step(&pq.slots[turn.slot], turn.iterations)
	}
}
