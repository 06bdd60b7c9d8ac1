package components

import (
	"reflect"
	"testing"
	"time"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fill sets every field of v, recursively, to a value of its own (counting
// up from *next): a field the codec forgot reads back as zero and fails
// the comparison.
func fill(v reflect.Value, next *int) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(ecs.Entity{}) {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), next)
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), next)
		}
	case reflect.Float32:
		*next++
		v.SetFloat(0.25 + float64(*next))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		*next++
		v.SetInt(int64(*next % 5))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		*next++
		v.SetUint(uint64(1 + *next%3))
	}
}

// filled returns a T with every field set by fill, then fix applied (for
// the fields whose values are limited).
func filled[T any](fix func(*T)) T {
	var v T
	next := 0
	fill(reflect.ValueOf(&v).Elem(), &next)
	if fix != nil {
		fix(&v)
	}
	return v
}

// TestComponentStatesRoundTrip: every field of every component and
// resource the crowd saves comes back from its state record, so a field
// added to a type without its codec fails here.
func TestComponentStatesRoundTrip(t *testing.T) {
	t.Run("AgentParams", func(t *testing.T) {
		want := filled(func(p *AgentParams) { p.UpdateFlags, p.Filter, p.Type, p.AvoidancePreset = AllUpdateFlags, 1, 1, 1 })
		var got AgentParams
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Position", func(t *testing.T) {
		want := filled[Position](nil)
		var got Position
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Velocity", func(t *testing.T) {
		want := filled[Velocity](nil)
		var got Velocity
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("AgentState", func(t *testing.T) {
		want := filled(func(s *AgentState) { s.Mode, s.Progress.TrailCount = AgentReturning, 2 })
		var got AgentState
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("MoveTarget", func(t *testing.T) {
		want := filled(func(m *MoveTarget) { m.State = TargetWaitingForPath })
		var got MoveTarget
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Neighbours", func(t *testing.T) {
		world := ecs.NewWorld()
		a, b := world.NewEntity(), world.NewEntity()
		want := filled(func(n *Neighbours) {
			n.Count = 2
			n.List[0].Entity, n.List[1].Entity = b, a
			n.List[2], n.List[3], n.List[4], n.List[5] = Neighbour{}, Neighbour{}, Neighbour{}, Neighbour{}
		})
		index := func(e ecs.Entity) (uint32, bool) { return e.ID(), e == a || e == b }
		entity := func(i uint32) (ecs.Entity, bool) {
			if i == a.ID() {
				return a, true
			}
			return b, i == b.ID()
		}
		var got Neighbours
		require.NoError(t, got.ReadState(want.AppendState(nil, index), entity))
		assert.Equal(t, want, got)
		require.ErrorIs(t, got.ReadState(want.AppendState(nil, index), func(uint32) (ecs.Entity, bool) { return ecs.Entity{}, false }), ErrBadState)
	})
	t.Run("Corners", func(t *testing.T) {
		want := filled(func(c *Corners) { c.Count = 3 })
		var got Corners
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("OffMeshAnimation", func(t *testing.T) {
		want := filled[OffMeshAnimation](nil)
		var got OffMeshAnimation
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Obstacle", func(t *testing.T) {
		want := filled(func(o *Obstacle) {
			o.Shape, o.PointCount = ObstaclePrism, 5
			for i := o.PointCount; i < MaxObstaclePoints; i++ {
				o.Points[i] = [2]float32{}
			}
		})
		var got Obstacle
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("ObstaclePose", func(t *testing.T) {
		want := filled[ObstaclePose](nil)
		var got ObstaclePose
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("ObstacleState", func(t *testing.T) {
		want := filled[ObstacleState](nil)
		var got ObstacleState
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Settings", func(t *testing.T) {
		want := filled(func(s *Settings) { s.ObstacleTimePerTick = 3 * time.Millisecond })
		var got Settings
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("TimeStep", func(t *testing.T) {
		want := filled[TimeStep](nil)
		var got TimeStep
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("AvoidancePresets", func(t *testing.T) {
		want := NewAvoidancePresets()
		want.List[5].ORCA.TimeHorizon = 3
		want.List[6].WeightSide = 0.75
		var got AvoidancePresets
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Filters", func(t *testing.T) {
		want := NewFilters()
		want.List[3].AreaCost[7], want.List[3].IncludeFlags, want.List[9].ExcludeFlags = 4.5, 0x7, 0x30
		got := NewFilters()
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
	t.Run("Stats", func(t *testing.T) {
		want := filled(func(s *Stats) { s.StageNames, s.StageDurations = nil, nil })
		want.VelocitySamples, want.ORCAInfeasible = 0, 0 // measurements, not read back
		want.PathWaits, want.OpenWaits = PathWaits{}, PathWaits{}
		for _, wait := range []float32{0, 0.5, 0.5, 7, 300} {
			want.PathWaits.Add(wait)
		}
		want.OpenWaits.Add(2)
		var got Stats
		require.NoError(t, got.ReadState(want.AppendState(nil)))
		assert.Equal(t, want, got)
	})
}

// TestComponentStatesRefuseDamage: every truncated record is refused with
// ErrBadState, and values outside their limits are refused.
func TestComponentStatesRefuseDamage(t *testing.T) {
	params := DefaultAgentParams()
	record := params.AppendState(nil)
	for n := range len(record) {
		require.ErrorIs(t, params.ReadState(record[:n]), ErrBadState, "truncated to %d", n)
	}
	bad := DefaultAgentParams()
	bad.Radius = -1
	require.ErrorIs(t, params.ReadState(bad.AppendState(nil)), ErrBadState)
	state := AgentState{Mode: AgentReturning + 1}
	require.ErrorIs(t, state.ReadState(state.AppendState(nil)), ErrBadState)
	target := MoveTarget{State: TargetVelocity + 1}
	require.ErrorIs(t, target.ReadState(target.AppendState(nil)), ErrBadState)
	var presets AvoidancePresets
	require.ErrorIs(t, presets.ReadState([]byte{1, 2, 3}), ErrBadState)
	waited := MoveTarget{PathWait: -1}
	require.ErrorIs(t, waited.ReadState(waited.AppendState(nil)), ErrBadState)
	var stats Stats
	stats.PathWaits.Add(1)
	stats.PathWaits.Count = 3 // the buckets hold one wait
	require.ErrorIs(t, stats.ReadState(stats.AppendState(nil)), ErrBadState)
	stats = Stats{}
	stats.PathWaits.Add(1)
	record = stats.AppendState(nil)
	// The waits came after the first files: a record may end before them,
	// not inside them.
	var empty Stats
	waitsFrom := len(empty.AppendState(nil)) - (8 + 4 + 8) - 2*(8+4+8+4)
	for n := waitsFrom + 1; n < len(record); n++ {
		require.ErrorIs(t, stats.ReadState(record[:n]), ErrBadState, "truncated to %d", n)
	}
	require.NoError(t, stats.ReadState(record[:waitsFrom]))
}

// FuzzComponentStates feeds arbitrary bytes to every component's and
// resource's ReadState: none may panic, and what one accepts must write
// itself back to bytes it accepts again.
func FuzzComponentStates(f *testing.F) {
	params := DefaultAgentParams()
	f.Add(params.AppendState(nil))
	obstacle := PrismObstacle([][2]float32{{0, 0}, {1, 0}, {0, 1}}, 2)
	f.Add(obstacle.AppendState(nil))
	corners := Corners{Count: 2}
	f.Add(corners.AppendState(nil))
	f.Add([]byte{7, 0, 0, 0, 0})
	link := Link{Start: geom.Vec3{1, 2, 3}, Capacity: 2, Traversal: LinkManual}
	linkState := LinkState{Added: link}
	f.Add(linkState.AppendState(nil))
	traffic := LinkTraffic{Rides: []LinkRide{{Phase: LinkHeld}}, Pending: []Event{{Kind: EventLinkCompleted}}}
	f.Add(traffic.AppendState(nil, func(ecs.Entity) (uint32, bool) { return 0, true }, func(ecs.Entity) (uint32, bool) { return 0, true }))
	entity := func(i uint32) (ecs.Entity, bool) { return ecs.Entity{}, i < 3 }
	index := func(ecs.Entity) (uint32, bool) { return 0, true }
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			p   AgentParams
			pos Position
			v   Velocity
			s   AgentState
			m   MoveTarget
			n   Neighbours
			c   Corners
			a   OffMeshAnimation
			o   Obstacle
			op  ObstaclePose
			os  ObstacleState
			st  Settings
			ts  TimeStep
			ap  AvoidancePresets
			st2 Stats
		)
		fl := NewFilters()
		roundTrip := func(read func([]byte) error, write func() []byte) {
			if read(data) == nil {
				require.NoError(t, read(write()))
			}
		}
		roundTrip(p.ReadState, func() []byte { return p.AppendState(nil) })
		roundTrip(pos.ReadState, func() []byte { return pos.AppendState(nil) })
		roundTrip(v.ReadState, func() []byte { return v.AppendState(nil) })
		roundTrip(s.ReadState, func() []byte { return s.AppendState(nil) })
		roundTrip(m.ReadState, func() []byte { return m.AppendState(nil) })
		roundTrip(func(b []byte) error { return n.ReadState(b, entity) }, func() []byte { return n.AppendState(nil, index) })
		roundTrip(c.ReadState, func() []byte { return c.AppendState(nil) })
		roundTrip(a.ReadState, func() []byte { return a.AppendState(nil) })
		roundTrip(o.ReadState, func() []byte { return o.AppendState(nil) })
		roundTrip(op.ReadState, func() []byte { return op.AppendState(nil) })
		roundTrip(os.ReadState, func() []byte { return os.AppendState(nil) })
		roundTrip(st.ReadState, func() []byte { return st.AppendState(nil) })
		roundTrip(ts.ReadState, func() []byte { return ts.AppendState(nil) })
		roundTrip(ap.ReadState, func() []byte { return ap.AppendState(nil) })
		roundTrip(fl.ReadState, func() []byte { return fl.AppendState(nil) })
		roundTrip(st2.ReadState, func() []byte { return st2.AppendState(nil) })
		var (
			l  Link
			ls LinkState
			lt LinkTraffic
			lo AgentLinkTraversal
		)
		roundTrip(l.ReadState, func() []byte { return l.AppendState(nil) })
		roundTrip(ls.ReadState, func() []byte { return ls.AppendState(nil) })
		roundTrip(func(b []byte) error { return lt.ReadState(b, entity, entity) }, func() []byte { return lt.AppendState(nil, index, index) })
		roundTrip(lo.ReadState, func() []byte { return lo.AppendState(nil) })
	})
}
