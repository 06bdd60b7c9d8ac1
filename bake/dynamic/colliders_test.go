package dynamic

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crate is a solid 2 m box on the dungeon's round room floor.
var crate = struct {
	shape collider.Shape
	pose  collider.Pose
}{collider.NewBox(geom.Vec3{1, 1, 1}), collider.Pose{Position: geom.Vec3{40.6, 11.2, 0.65}}}

func TestColliderRefs(t *testing.T) {
	m := newTestMesh(t, "dungeon", Options{MaxColliders: 2})
	a, err := m.AddCollider(crate.shape, crate.pose)
	require.NoError(t, err)
	assert.NotZero(t, a)
	assert.Equal(t, 2, m.Pending(), "the crate's field reaches two tiles")
	up, err := m.ColliderUpToDate(a)
	require.NoError(t, err)
	assert.False(t, up)
	update(t, m)
	up, err = m.ColliderUpToDate(a)
	require.NoError(t, err)
	assert.True(t, up)

	shape, pose, err := m.Collider(a)
	require.NoError(t, err)
	assert.Equal(t, crate.shape, shape)
	assert.Equal(t, crate.pose, pose)

	moved := collider.Pose{Position: geom.Add(crate.pose.Position, geom.Vec3{1, 0, 0})}
	require.NoError(t, m.MoveCollider(a, moved))
	_, pose, err = m.Collider(a)
	require.NoError(t, err)
	assert.Equal(t, moved, pose)
	up, _ = m.ColliderUpToDate(a)
	assert.False(t, up)

	b, err := m.AddCollider(collider.NewSphere(1), crate.pose)
	require.NoError(t, err)
	assert.Equal(t, []collider.Ref{a, b}, m.Colliders(nil))
	_, err = m.AddCollider(collider.NewSphere(1), crate.pose)
	assert.ErrorIs(t, err, ErrTooManyColliders)

	require.NoError(t, m.RemoveCollider(a))
	for _, err := range []error{
		m.RemoveCollider(a),
		m.MoveCollider(a, moved),
		m.SetCollider(a, crate.shape, moved),
		m.RemoveCollider(0),
		m.RemoveCollider(collider.Ref(1<<32 | 99)),
	} {
		assert.ErrorIs(t, err, ErrInvalidRef)
	}
	_, _, err = m.Collider(a)
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, err = m.ColliderUpToDate(a)
	assert.ErrorIs(t, err, ErrInvalidRef)
	// The slot comes back with another salt: the old ref stays invalid.
	c, err := m.AddCollider(crate.shape, crate.pose)
	require.NoError(t, err)
	assert.NotEqual(t, a, c)
	assert.Equal(t, uint64(a)&0xffffffff, uint64(c)&0xffffffff)
	assert.Equal(t, 2, m.ColliderCount())
}

func TestColliderErrorsChangeNothing(t *testing.T) {
	m := newTestMesh(t, "dungeon", Options{MaxColliderTiles: 40})
	ref, err := m.AddCollider(crate.shape, crate.pose)
	require.NoError(t, err)
	update(t, m)
	before := tileFingerprints(t, m.NavMesh())
	nan := float32(math.NaN())
	tests := []struct {
		name  string
		shape collider.Shape
		pose  collider.Pose
		want  error
	}{
		{"bad shape", collider.NewSphere(-1), crate.pose, collider.ErrInvalidShape},
		{"bad pose", crate.shape, collider.Pose{Position: geom.Vec3{nan, 0, 0}}, collider.ErrInvalidShape},
		{"far away", crate.shape, collider.Pose{Position: geom.Vec3{500, 0, 0}}, ErrOutsideGrid},
		{"below", crate.shape, collider.Pose{Position: geom.Vec3{0, -50, 0}}, ErrOutsideGrid},
		{"above the headroom", crate.shape, collider.Pose{Position: geom.Vec3{0, 200, 0}}, ErrOutsideGrid},
		{"too large", collider.NewBox(geom.Vec3{60, 1, 60}), crate.pose, ErrColliderTooLarge},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			_, err := m.AddCollider(test.shape, test.pose)
			assert.ErrorIs(t, err, test.want)
			assert.ErrorIs(t, m.SetCollider(ref, test.shape, test.pose), test.want)
			if test.shape == crate.shape {
				assert.ErrorIs(t, m.MoveCollider(ref, test.pose), test.want)
			}
			shape, pose, err := m.Collider(ref)
			require.NoError(t, err)
			assert.Equal(t, crate.shape, shape)
			assert.Equal(t, crate.pose, pose)
			assert.Zero(t, m.Pending())
			assert.Equal(t, 1, m.ColliderCount())
		})
	}
	assert.Equal(t, before, tileFingerprints(t, m.NavMesh()))
}

// goRunner runs each range of a job on a goroutine of its own, the last
// range first.
type goRunner struct{ chunk int }

func (r goRunner) Run(workers, total int, job func(worker, begin, end int)) {
	var wg sync.WaitGroup
	ranges := make(chan [2]int, total)
	for end := total; end > 0; end -= r.chunk {
		ranges <- [2]int{max(0, end-r.chunk), end}
	}
	close(ranges)
	wg.Add(workers)
	for w := range workers {
		go func() {
			defer wg.Done()
			for rg := range ranges {
				job(w, rg[0], rg[1])
			}
		}()
	}
	wg.Wait()
}

// TestBudgetsGiveTheSameMesh: whatever the budget, the workers or the
// runner, the mesh comes out the same once up to date; a tile budget
// publishes at most that many tiles a call.
func TestBudgetsGiveTheSameMesh(t *testing.T) {
	place := func(m *Mesh) {
		for i := range 6 {
			p := geom.Vec3{-10 + float32(8*float32(i)), 12, -30 + float32(6*float32(i))}
			_, err := m.AddCollider(collider.NewOrientedBox(geom.Vec3{3, 0.3, 2}), collider.Pose{Position: p, Rotation: mgl32QuatY(float32(i))})
			if err != nil {
				require.ErrorIs(t, err, ErrOutsideGrid)
			}
		}
	}
	reference := newTestMesh(t, "dungeon", Options{Workers: 1})
	place(reference)
	update(t, reference)
	want := tileFingerprints(t, reference.NavMesh())
	tests := []struct {
		name    string
		budget  tilecache.Budget
		runner  tilecache.Runner
		workers int
	}{
		{"three tiles", tilecache.Budget{MaxTiles: 3}, nil, 2},
		{"a microsecond", tilecache.Budget{MaxDuration: time.Microsecond}, nil, 3},
		{"runner", tilecache.Budget{}, goRunner{chunk: 2}, 3},
		{"runner, a microsecond", tilecache.Budget{MaxDuration: time.Microsecond}, goRunner{chunk: 1}, 2},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			m := newTestMesh(t, "dungeon", Options{Workers: test.workers})
			place(m)
			for calls := 0; ; calls++ {
				require.Less(t, calls, 1000)
				pending := m.Pending()
				done, err := m.UpdateWith(test.budget, test.runner, test.workers)
				require.NoError(t, err)
				stats := m.LastUpdate()
				if test.budget.MaxTiles > 0 {
					assert.LessOrEqual(t, stats.TilesBuilt, test.budget.MaxTiles)
				}
				assert.Equal(t, pending-stats.TilesBuilt, stats.Pending)
				if done {
					break
				}
			}
			assert.Equal(t, want, tileFingerprints(t, m.NavMesh()))
		})
	}
}

// TestMovingPrimitivesAllocatesNothing: once warm, moving a primitive
// collider back and forth allocates nothing (the rebuilds aside).
func TestMovingPrimitivesAllocatesNothing(t *testing.T) {
	m := newTestMesh(t, "dungeon", Options{})
	ref, err := m.AddCollider(crate.shape, crate.pose)
	require.NoError(t, err)
	poses := [2]collider.Pose{crate.pose, {Position: geom.Add(crate.pose.Position, geom.Vec3{3, 0, 0}), Rotation: mgl32QuatY(0.4)}}
	for i := range 4 {
		require.NoError(t, m.MoveCollider(ref, poses[i%2]))
	}
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		i++
		if err := m.MoveCollider(ref, poses[i%2]); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}
