package plugin

import (
	"testing"
)

func TestScratchPushLimit(t *testing.T) {
	for _, limit := range []float32{0, 2, 4} {
		total := 0
		for seed := uint64(10); seed < 18; seed++ {
			cache := loadDungeonCache(t)
			r := newObstacleRun(t, cache, 200, seed, Config{})
			r.plugin.settings.Get().PushSpeedLimit = limit
			for tick := 0; tick < 1200; tick++ {
				r.step(t)
			}
			total += r.reached(t, 1)
			t.Logf("  seed %d reached %d maxStep %.3f", seed, r.reached(t, 1), r.maxStep)
		}
		t.Logf("limit %v: reached %d", limit, total)
	}
}
