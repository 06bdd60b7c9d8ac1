package plugin

import (
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// traceHash is FNV-1a 64 over the positions of every agent after every tick
// (float32 bits, little-endian).
type traceHash uint64

func newTraceHash() traceHash { return 0xcbf29ce484222325 }

func (h *traceHash) add(positions []geom.Vec3) {
	for _, p := range positions {
		for _, f := range p {
			bits := math.Float32bits(f)
			for range 4 {
				*h ^= traceHash(bits & 0xff)
				*h *= 0x100000001b3
				bits >>= 8
			}
		}
	}
}

// TestCrowdTraceHashes: 600 ticks of the crowd in default and reference
// mode, among the 80 reference obstacles (moved at tick 300), and with two
// agent types, hashed tick by tick. The hashes were taken on amd64;
// .ci/crossarch.sh runs this test on arm64, 386, amd64 with GOAMD64=v3, where
// any fused multiply-add or architecture-dependent maths would change them
// (docs/determinism.md).
func TestCrowdTraceHashes(t *testing.T) {
	const ticks = 600
	tests := []struct {
		name string
		want traceHash
		run  func(t *testing.T) traceHash
	}{
		{"default", 0xa013a9cf2f36a08b, func(t *testing.T) traceHash {
			return hashCrowd(t, newCrowd(t, loadDungeon(t), 80, 31, Config{Workers: 2}), ticks)
		}},
		{"reference", 0x0993bac64ca7bb58, func(t *testing.T) traceHash {
			return hashCrowd(t, newCrowd(t, loadDungeon(t), 80, 32, Config{Reference: true}), ticks)
		}},
		{"obstacles", 0x4b150f58fc8f09ba, func(t *testing.T) traceHash {
			r := newObstacleRun(t, loadDungeonCache(t), 60, 33, Config{Workers: 2})
			defer r.plugin.Schedule().Finalize(r.world)
			r.apply(t, readObstacleState(t, dungeonObstaclesPath))
			h := newTraceHash()
			for tick := range ticks {
				if tick == ticks/2 {
					r.apply(t, readObstacleState(t, dungeonMovedObstaclePath))
				}
				require.NoError(t, r.plugin.Step(r.world, 1.0/60))
				h.add(r.positions(t))
			}
			return h
		}},
		{"agent types", 0x6da97cb70567afcb, func(t *testing.T) traceHash {
			small, large := loadDungeonTypes(t)
			f := newTypedCrowd(t, twoTypeConfig(small, large, 2, 100), []int{40, 20}, 34)
			return hashCrowd(t, &f.crowdFixture, ticks)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.run(t)
			assert.Equal(t, tt.want, got, "%#016x", uint64(got))
		})
	}
}

// hashCrowd steps f ticks times and hashes the positions after each tick.
func hashCrowd(t *testing.T, f *crowdFixture, ticks int) traceHash {
	defer f.plugin.Schedule().Finalize(f.world)
	h := newTraceHash()
	for range ticks {
		f.step(t, 1)
		h.add(f.positions(t))
	}
	return h
}
