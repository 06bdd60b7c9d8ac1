package systems

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFailedRequestKeepsItsTurn: an agent whose path queue request fails
// (here: dropped from the queue, as a search is when the navmesh changes
// under it) asks again, and by default keeps its place in the line, which
// serves the longest waits first; with the reference schedule it goes to
// the back, as in dtCrowd. Two agents earlier in the table, sent off just
// after the failure, compete with it for the one request a tick.
func TestFailedRequestKeepsItsTurn(t *testing.T) {
	for _, c := range []struct {
		name      string
		reference bool
		firstIsA  bool
	}{
		{"default", false, true},
		{"reference schedule", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newTestWorld(t, 8)
			config := crowd.DefaultPathQueueConfig()
			config.ReferenceSchedule = c.reference
			pq, err := crowd.NewPathQueue(w.mesh, config)
			require.NoError(t, err)
			queueRes := generic.NewResource[components.PathQueue](w.world)
			queueRes.Get().Queue = pq
			settings := w.settings()
			settings.MaxPathQueueRequestsPerTick = 1
			settings.PathQueueIterations = 1 // searches last many ticks

			// c1 and c2 come first in the table but get their targets last.
			c1 := w.spawn(t, hallB)
			c2 := w.spawn(t, hallB)
			a := w.spawn(t, hallA)
			w.target(t, a, far)
			sys := &PathRequest{}
			sys.Initialize(w.world)
			_, _, _, _, _, targetA, _, _, _, _ := w.get(a)
			for tick := 0; targetA.State != components.TargetWaitingForPath; tick++ {
				require.Less(t, tick, 10, "a's request never reached the queue")
				sys.Update(w.world)
			}
			require.True(t, pq.Cancel(targetA.Request))
			sys.Update(w.world) // a's request is gone: it asks again
			require.Equal(t, components.TargetRequesting, targetA.State)
			waited := targetA.ReplanTime

			w.target(t, c1, far)
			w.target(t, c2, far)
			sys.Update(w.world) // quick searches for all three, then one request
			_, _, _, _, _, target1, _, _, _, _ := w.get(c1)
			_, _, _, _, _, target2, _, _, _, _ := w.get(c2)
			assert.Equal(t, components.TargetWaitingForQueue, target2.State)
			if c.firstIsA {
				assert.Greater(t, targetA.ReplanTime, waited, "a's wait goes on")
				assert.Equal(t, components.TargetWaitingForPath, targetA.State)
				assert.Equal(t, components.TargetWaitingForQueue, target1.State)
			} else {
				assert.Zero(t, waited)
				assert.Equal(t, components.TargetWaitingForQueue, targetA.State)
				assert.Equal(t, components.TargetWaitingForPath, target1.State)
			}
			sys.Finalize(w.world)
		})
	}
}
