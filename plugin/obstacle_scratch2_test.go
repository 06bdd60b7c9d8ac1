package plugin

import (
	"testing"
	"github.com/archenav/archenav/components"
	"github.com/mlange-42/arche/ecs"
	"github.com/archenav/archenav/navcore/geom"
)

func TestScratchTrace(t *testing.T) {
	cache := loadDungeonCache(t)
	r := newObstacleRun(t, cache, 200, 1, Config{})
	first := readObstacleState(t, dungeonObstaclesPath)
	moved := readObstacleState(t, dungeonMovedObstaclePath)
	lost := map[ecs.Entity]int{}
	lostAt := map[ecs.Entity]geom.Vec3{}
	hist := map[int]int{}
	info, _ := r.plugin.State(r.world, r.agents[102])
	t.Logf("agent 102 start %v", info.Position)
	for tick := 0; tick < 900; tick++ {
		switch tick {
		case 120:
			r.apply(t, first)
		case 300:
			r.apply(t, moved)
		case 480:
			r.apply(t, nil)
		}
		r.step(t)
		if tick == 0 {
			info, _ := r.plugin.State(r.world, r.agents[102])
			t.Logf("agent 102 after %v", info.Position)
		}
		for _, ev := range r.plugin.Events(r.world) {
			switch ev.Kind {
			case components.EventGroundLost:
				lost[ev.Entity] = tick
				lostAt[ev.Entity] = ev.Position
			case components.EventGroundRegained:
				d := tick - lost[ev.Entity]
				hist[d/30]++
				if d > 60 {
					t.Logf("agent %v returned in %d ticks, %.2f m", ev.Entity, d, geom.Dist2D(lostAt[ev.Entity], ev.Position))
				}
				delete(lost, ev.Entity)
			}
		}
	}
	t.Logf("hist (half seconds) %v, still lost %d", hist, len(lost))
}
