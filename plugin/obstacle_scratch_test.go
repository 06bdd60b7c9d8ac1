package plugin

import (
	"testing"
)

func TestScratchDungeonObstacles(t *testing.T) {
	for _, withObstacles := range []bool{false, true} {
		cache := loadDungeonCache(t)
		r := newObstacleRun(t, cache, 200, 1, Config{})
		first := readObstacleState(t, dungeonObstaclesPath)
		moved := readObstacleState(t, dungeonMovedObstaclePath)
		for tick := 0; tick < 900; tick++ {
			if withObstacles {
				switch tick {
				case 120:
					r.apply(t, first)
				case 300:
					r.apply(t, moved)
				case 480:
					r.apply(t, nil)
				}
			}
			r.step(t)
		}
		blocked := 0
		for _, b := range r.targetBlocked {
			if b {
				blocked++
			}
		}
		t.Logf("obstacles %v: offMesh %d wall %d obstacleAgentTicks %d invalid %d maxStep %.3f (agent %d tick %d) reached %d blocked %d events %d",
			withObstacles, r.offMesh, r.wallPenetrations, r.obstacleAgentTicks, r.invalid(t), r.maxStep, r.maxStepAgent, r.maxStepTick, r.reached(t, 1), blocked, r.events)
	}
}
