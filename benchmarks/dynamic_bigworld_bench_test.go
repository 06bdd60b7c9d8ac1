package benchmarks

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

var bigDynamic struct {
	once sync.Once
	mesh *dynamic.Mesh
	err  error
}

// bigDynamicMesh returns the dynamic mesh of the 1 km level (bigworld's
// Default, tile size 64: 53 × 53 tiles), made once per process.
func bigDynamicMesh(b *testing.B) *dynamic.Mesh {
	bigDynamic.once.Do(func() {
		g, err := bigworld.Default().Geometry()
		if err != nil {
			bigDynamic.err = err
			return
		}
		start := time.Now()
		bigDynamic.mesh, bigDynamic.err = dynamic.New(context.Background(), g, bigworld.Settings(), dynamic.Options{})
		b.Logf("1 km dynamic mesh made in %v", time.Since(start))
	})
	if bigDynamic.err != nil {
		b.Fatal(bigDynamic.err)
	}
	return bigDynamic.mesh
}

// Parameters of the moving crates of BenchmarkDynamicBigWorld.
const (
	bigWorldCrates = 100
	bigWorldFrames = 600
	// crateSpeed is how fast a crate moves along its circle
	// [Units: world units / s]
	crateSpeed = 1.5
	// crateRadius is the radius of a crate's circle [Units: world units]
	crateRadius = 6.0
	// crateCycle is how long a crate moves, then rests [Units: s]
	crateCycle = 2.0
	// crateResync is how far a crate moves before its collider is moved
	// (the plugin's ColliderSync MoveThreshold) [Units: world units]
	crateResync = 0.25
)

// frameTime is the length of a 60 Hz frame.
const frameTime = time.Second / 60

// BenchmarkDynamicBigWorld runs a game's frames at 60 Hz, paced in real
// time, on the 1 km level: 100 crates (solid 2 m boxes on the ground) each
// going round a circle of 6 m at 1.5 m/s for 2 s, then resting 2 s, their
// colliders moved whenever they have moved a quarter metre, and the
// dynamic mesh brought towards them every frame:
//
//   - sync-2ms: Update on the frame with a budget of 2 ms of tile builds
//     on the mesh's 2 workers (a build under way at the deadline
//     finishes);
//   - background: one background worker builds (StartBackground(1)), the
//     frame's Update only publishes what it finished.
//
// It reports the frame's navmesh work (the collider moves and Update) as
// frame-p50-ms, frame-p99-ms and frame-max-ms; the tiles published per
// second (tiles/s); and, for each crate that comes to rest, how long the
// navmesh takes to show it where it stopped (settle-p50-ms,
// settle-p99-ms; a crate still unsettled at the next start counts the
// time it rested).
func BenchmarkDynamicBigWorld(b *testing.B) {
	modes := []struct {
		name       string
		budget     tilecache.Budget
		background bool
	}{
		{"sync-2ms", tilecache.Budget{MaxDuration: 2 * time.Millisecond}, false},
		{"background", tilecache.Budget{}, true},
	}
	for _, mode := range modes {
		b.Run(mode.name, func(b *testing.B) {
			m := bigDynamicMesh(b)
			level := bigworld.Default()
			random := rand.New(rand.NewPCG(29, 60))
			type crate struct {
				center geom.Vec3
				phase  float64 // offset in its cycle [s]
				ref    collider.Ref
				synced geom.Vec3
				// stoppedAt is the frame it came to rest, 0 while moving,
				// -1 once settled.
				stoppedAt int
			}
			crates := make([]crate, bigWorldCrates)
			// at returns where a crate is after seconds, and whether it moves.
			at := func(c *crate, seconds float64) (geom.Vec3, bool) {
				t := seconds + c.phase
				cycles := math.Floor(t / (2 * crateCycle))
				moved := cycles*crateCycle + min(t-cycles*2*crateCycle, crateCycle)
				angle := moved * crateSpeed / crateRadius
				x := float64(c.center[0]) + float64(crateRadius*math.Cos(angle))
				z := float64(c.center[2]) + float64(crateRadius*math.Sin(angle))
				moving := t-cycles*2*crateCycle < crateCycle
				return geom.Vec3{float32(x), float32(level.Ground(x, z) + 1), float32(z)}, moving
			}
			shape := collider.NewBox(geom.Vec3{1, 1, 1})
			var frames, settles []time.Duration
			tiles := 0
			for range b.N {
				b.StopTimer()
				for i := range crates {
					c := &crates[i]
					c.center = geom.Vec3{float32(50 + float64(random.Float64()*900)), 0, float32(50 + float64(random.Float64()*900))}
					c.phase = float64(float64(random.Float64()) * 2 * crateCycle)
					c.synced, _ = at(c, 0)
					c.stoppedAt = 0
					var err error
					if c.ref, err = m.AddCollider(shape, collider.Pose{Position: c.synced}); err != nil {
						b.Fatal(err)
					}
				}
				upToDate(b, m)
				if mode.background {
					if err := m.StartBackground(1); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				next := time.Now()
				for frame := 1; frame <= bigWorldFrames; frame++ {
					start := time.Now()
					seconds := float64(frame) / 60
					for i := range crates {
						c := &crates[i]
						p, moving := at(c, seconds)
						if geom.Dist(p, c.synced) >= crateResync || (!moving && p != c.synced) {
							c.synced = p
							if err := m.MoveCollider(c.ref, collider.Pose{Position: p}); err != nil {
								b.Fatal(err)
							}
						}
						if moving {
							if c.stoppedAt > 0 { // never settled while it rested
								settles = append(settles, time.Duration(frame-c.stoppedAt)*frameTime)
							}
							c.stoppedAt = 0
						} else if c.stoppedAt == 0 && p == c.synced {
							c.stoppedAt = frame
						}
					}
					if _, err := m.Update(mode.budget); err != nil {
						b.Fatal(err)
					}
					frames = append(frames, time.Since(start))
					tiles += m.LastUpdate().TilesBuilt
					b.StopTimer()
					for i := range crates {
						c := &crates[i]
						if c.stoppedAt > 0 {
							if up, err := m.ColliderUpToDate(c.ref); err == nil && up {
								settles = append(settles, time.Duration(frame-c.stoppedAt)*frameTime)
								c.stoppedAt = -1
							}
						}
					}
					// The rest of the frame is the game's.
					next = next.Add(frameTime)
					time.Sleep(time.Until(next))
					b.StartTimer()
				}
				b.StopTimer()
				m.Close()
				for i := range crates {
					if err := m.RemoveCollider(crates[i].ref); err != nil {
						b.Fatal(err)
					}
				}
				upToDate(b, m)
				b.StartTimer()
			}
			report := func(name string, d []time.Duration) {
				if len(d) == 0 {
					return
				}
				slices.Sort(d)
				q := func(f float64) float64 { return float64(d[min(len(d)-1, int(f*float64(len(d))))].Nanoseconds()) / 1e6 }
				b.ReportMetric(q(0.5), name+"-p50-ms")
				b.ReportMetric(q(0.99), name+"-p99-ms")
				if name == "frame" {
					b.ReportMetric(float64(d[len(d)-1].Nanoseconds())/1e6, name+"-max-ms")
				}
			}
			report("frame", frames)
			report("settle", settles)
			b.ReportMetric(float64(tiles)/(float64(b.N)*bigWorldFrames/60), "tiles/s")
		})
	}
}

// upToDate brings m up to date.
func upToDate(b *testing.B, m *dynamic.Mesh) {
	for {
		done, err := m.Update(tilecache.Budget{})
		if err != nil {
			b.Fatal(err)
		}
		if done {
			return
		}
	}
}
