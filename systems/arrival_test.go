package systems

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/stretchr/testify/assert"
)

// TestApproachDemand checks how much nearer its stopping point an agent
// must come in one stall time to count as getting nearer, against values
// worked out by hand from the rule (Settings.ArrivalStallTime): a
// centimetre (a tenth of its walk in the stall time, when less); within
// three quarters of its braking distance (the reach), half of the share
// k/(1+k) of its distance that an unhindered agent closes at least, k
// being its walk in the stall time over its braking distance; and for an
// agent pressed by others within the reach at least a quarter of its
// braking distance (a quarter of its walk, when less). The default agent
// brakes over two radii, 1.2 m, so it is jostled within 0.9 m and then
// asked 0.3 m; its k is 3.5/1.2, so free at 0.5 m it is asked
// 0.5 * 0.5 * (35/47) = 0.18617 m.
func TestApproachDemand(t *testing.T) {
	def := components.DefaultAgentParams()
	slow := components.DefaultAgentParams()
	slow.MaxSpeed = 0.5 // walks 0.5 m a stall time: asked a quarter of it, 0.125 m
	crawl := components.DefaultAgentParams()
	crawl.MaxSpeed = 0.05 // walks 5 cm: asked 5 mm, or 1.25 cm jostled
	long := components.DefaultAgentParams()
	long.BrakingDistance = 2                      // jostled within 1.5 m, asked 0.5 m
	small := components.AgentParamsForRadius(0.2) // brakes over 0.4 m: within 0.3 m, 0.1 m
	// reach is 3/4 of float32(1.2) in float32, exactly 15099495/2^24,
	// 0.90000004 (float32(0.9) is the float32 below it).
	const reach = float32(15099495.0 / (1 << 24))
	cases := []struct {
		name      string
		params    components.AgentParams
		stallTime float32
		nearest   float32
		pressed   bool
		want      float32
	}{
		{"free at the stopping point", def, 1, 0, false, 0.01},
		{"free inside the reach", def, 1, 0.5, false, 0.18617021},
		{"free just inside the reach", def, 1, 0.9, false, 0.33510638},
		{"free at the reach", def, 1, reach, false, 0.01},
		{"free far off", def, 1, 5, false, 0.01},
		{"pressed at the stopping point", def, 1, 0, true, 0.3},
		{"pressed inside the reach", def, 1, 0.5, true, 0.3},
		{"pressed just inside the reach", def, 1, 0.9, true, 0.33510638},
		{"pressed at the reach", def, 1, reach, true, 0.01},
		{"pressed outside the reach, inside the braking distance", def, 1, 1, true, 0.01},
		{"pressed at the braking distance", def, 1, 1.2, true, 0.01},
		{"pressed far off", def, 1, 5, true, 0.01},
		{"pressed, half the stall time", def, 0.5, 0.5, true, 0.3},
		{"pressed, a tenth of the stall time", def, 0.1, 0.5, true, 0.0875},
		{"slow, free", slow, 1, 0.5, false, 0.07352941},
		{"slow, pressed", slow, 1, 0.5, true, 0.125},
		{"crawling, free", crawl, 1, 0.5, false, 0.01},
		{"crawling, pressed", crawl, 1, 0.5, true, 0.0125},
		{"long braking, pressed inside the reach", long, 1, 1.4, true, 0.5},
		{"long braking, pressed outside the reach", long, 1, 1.6, true, 0.01},
		{"small, pressed inside the reach", small, 1, 0.25, true, 0.11217949},
		{"small, pressed outside the reach", small, 1, 0.35, true, 0.01},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.want, approachDemand(&c.params, c.nearest, c.pressed, c.stallTime), 1e-6)
		})
	}
	assert.Equal(t, reach, jostleReach(&def), "the default agent's reach")
}
