package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/benchmarks/bigworld"
)

// obstacleOptions are the flags that write obstacle states for navtool
// crowd -tset ... -obstacles FILE -obstacles-at TICK.
type obstacleOptions struct {
	// count is the obstacles of each state, states the number of states.
	count, states int
	// dir is where the states go (state-00.csv, ...).
	dir string
	// period is the ticks between two states.
	period int
}

// Limits of the obstacle flags, so that a silly value gets an error.
const (
	maxObstacles      = 100_000
	maxObstacleStates = 1000
)

// check checks the obstacle flags.
func (o *obstacleOptions) check() error {
	switch {
	case o.count < 0 || o.count > maxObstacles:
		return fmt.Errorf("-obstacles %d: want 0..%d", o.count, maxObstacles)
	case o.count > 0 && o.dir == "":
		return fmt.Errorf("-obstacles needs -obstacle-dir")
	case o.states < 1 || o.states > maxObstacleStates:
		return fmt.Errorf("-obstacle-states %d: want 1..%d", o.states, maxObstacleStates)
	case o.period < 1:
		return fmt.Errorf("-obstacle-period %d: want >= 1", o.period)
	}
	return nil
}

// writeObstacleStates writes o.states obstacle state files for level p
// into o.dir and returns the navtool crowd flags that apply them, one
// state every o.period ticks from tick 0. Each state keeps half of the
// previous state's obstacles where they stood (the first half, by id) and
// puts the rest somewhere new, so obstacles come and go all over the
// level; they are upright cylinders of 1 to 3 m radius and 2 m height
// standing on the hills (inside a box they carve nothing).
func writeObstacleStates(p bigworld.Params, o obstacleOptions, seed uint64) ([]string, error) {
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x0b57ac1e))
	type cylinder struct {
		id      int
		x, z, r float64
	}
	place := func(id int) cylinder {
		r := 1 + product(2, rng.Float64())
		span := p.Size - product(2, r)
		return cylinder{id: id, x: r + product(span, rng.Float64()), z: r + product(span, rng.Float64()), r: r}
	}
	current := make([]cylinder, o.count)
	nextID := 0
	for i := range current {
		current[i] = place(nextID)
		nextID++
	}
	var flags []string
	for state := range o.states {
		if state > 0 {
			// The second half goes; as many new ones come.
			for i := o.count / 2; i < o.count; i++ {
				current[i] = place(nextID)
				nextID++
			}
		}
		path := filepath.Join(o.dir, fmt.Sprintf("state-%02d.csv", state))
		if err := writeCylinders(path, p, current, func(c cylinder) (int, float64, float64, float64) { return c.id, c.x, c.z, c.r }); err != nil {
			return nil, err
		}
		flags = append(flags, "-obstacles", path, "-obstacles-at", fmt.Sprint(state*o.period))
	}
	return flags, nil
}

// writeCylinders writes cylinders as an obstacle state file (id, type, x,
// y, z, x2, y2, z2, radius, height, yaw), each standing on the ground.
func writeCylinders[T any](path string, p bigworld.Params, cylinders []T, fields func(T) (id int, x, z, r float64)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "id,type,x,y,z,x2,y2,z2,radius,height,yaw")
	for _, c := range cylinders {
		id, x, z, r := fields(c)
		// The lowest ground under the footprint, less the jitter, so that
		// the cylinder stands on the floor everywhere under it.
		y := math.Inf(1)
		for _, d := range [5][2]float64{{0, 0}, {r, 0}, {-r, 0}, {0, r}, {0, -r}} {
			y = math.Min(y, p.Ground(x+d[0], z+d[1]))
		}
		y -= p.Jitter
		fmt.Fprintf(w, "o%d,cylinder,%.3f,%.3f,%.3f,0,0,0,%.3f,2,0\n", id, x, y, z, r)
	}
	err = w.Flush()
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	return err
}

// product returns a*b rounded, so that no sum it enters fuses with it into
// a multiply-add (a float64(a*b) conversion does not stop that: the
// compiler drops a conversion to the type an expression already has).
//
//go:noinline
func product(a, b float64) float64 { return a * b }
