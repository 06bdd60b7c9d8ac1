package crowd

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// TestCrowdPartsConcurrently runs one crowd tick's worth of work per
// goroutine, each with its own Query, Corridor, LocalBoundary,
// ObstacleAvoidance and ProximityGrid, on one shared mesh whose polygon
// flags another goroutine keeps changing. Run with -race. Every goroutine
// walks the same corridor, so each must end where a lone walker does.
func TestCrowdPartsConcurrently(t *testing.T) {
	f := newDungeonFixture(t)
	const walkers, steps = 4, 60

	walk := func(q *query.Query) (geom.Vec3, error) {
		c, err := NewCorridor(256)
		if err != nil {
			return geom.Vec3{}, err
		}
		c.Reset(f.startRef, f.start)
		if err := c.SetCorridor(f.end, f.path); err != nil {
			return geom.Vec3{}, err
		}
		boundary := NewLocalBoundary()
		avoidance, err := NewObstacleAvoidance(6, 8)
		if err != nil {
			return geom.Vec3{}, err
		}
		grid, err := NewProximityGrid(16, 1.8)
		if err != nil {
			return geom.Vec3{}, err
		}
		params := AvoidancePreset(AvoidanceHigh)
		corners := make([]query.StraightPathPoint, 4)
		neighbours := make([]uint32, 6)
		for step := 0; step < steps; step++ {
			n, err := c.FindCorners(q, corners)
			if err != nil || n == 0 {
				return geom.Vec3{}, err
			}
			pos := c.Position()
			if err := boundary.Update(c.FirstPoly(), pos, 7.2, q, f.filter); err != nil {
				return geom.Vec3{}, err
			}
			grid.Clear()
			if err := grid.Add(1, pos[0]-0.6, pos[2]-0.6, pos[0]+0.6, pos[2]+0.6); err != nil {
				return geom.Vec3{}, err
			}
			grid.QueryItems(pos[0]-7.2, pos[2]-7.2, pos[0]+7.2, pos[2]+7.2, neighbours)
			avoidance.Reset()
			for _, s := range boundary.Segments() {
				if err := avoidance.AddSegment(s.P, s.Q); err != nil {
					return geom.Vec3{}, err
				}
			}
			desired := geom.Scale(geom.Normalize(geom.Sub(corners[0].Pos, pos)), 0.1)
			desired[1] = 0
			if _, _, err := avoidance.SampleVelocityAdaptive(pos, 0.6, 3.5, geom.Vec3{}, desired, &params, nil); err != nil {
				return geom.Vec3{}, err
			}
			// Move along the desired velocity, not the sampled one, so
			// that every walker takes the same path.
			if err := c.MovePosition(geom.Add(pos, desired), q, f.filter); err != nil {
				return geom.Vec3{}, err
			}
		}
		return c.Position(), nil
	}

	alone, err := walk(f.query)
	require.NoError(t, err)

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // flips the flags of a polygon off every walker's path
		defer wg.Done()
		other := f.startRef&^navmesh.Ref(1<<navmesh.PolyBits-1) | 100
		for flags := uint16(1); ; flags ^= 2 {
			select {
			case <-stop:
				return
			default:
			}
			_ = f.mesh.SetPolyFlags(other, flags)
		}
	}()
	results := make([]geom.Vec3, walkers)
	errs := make([]error, walkers)
	var walkersDone sync.WaitGroup
	for i := 0; i < walkers; i++ {
		walkersDone.Add(1)
		go func(i int) {
			defer walkersDone.Done()
			q, err := query.New(f.mesh, 512)
			if err != nil {
				errs[i] = err
				return
			}
			results[i], errs[i] = walk(q)
		}(i)
	}
	walkersDone.Wait()
	close(stop)
	wg.Wait()
	for i := range results {
		require.NoError(t, errs[i])
		assert.Equal(t, alone, results[i], "walker %d", i)
	}
}
