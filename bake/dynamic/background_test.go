package dynamic

import (
	"testing"
	"time"

	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBackgroundMatchesUpdate moves colliders while background workers
// build, publishing between moves with a tile budget: once the workers
// are done and everything published, the navmesh is what Update makes of
// the same final colliders, and every collider is up to date.
func TestBackgroundMatchesUpdate(t *testing.T) {
	poses := func(step int) []collider.Pose {
		var out []collider.Pose
		for i := range 5 {
			out = append(out, collider.Pose{
				Position: geom.Vec3{30 + 2*float32(i) + float32(0.3*float32(step)), 11.2, -4 + 2*float32(i)},
				Rotation: mgl32QuatY(0.1 * float32(step+i)),
			})
		}
		return out
	}
	shape := collider.NewOrientedBox(geom.Vec3{1.5, 1, 0.8})
	reference := newTestMesh(t, "dungeon", Options{})
	for _, pose := range poses(9) {
		_, err := reference.AddCollider(shape, pose)
		require.NoError(t, err)
	}
	update(t, reference)

	m := newTestMesh(t, "dungeon", Options{})
	require.NoError(t, m.StartBackground(2))
	assert.ErrorIs(t, m.StartBackground(1), ErrBackgroundRunning)
	var refs []collider.Ref
	for _, pose := range poses(0) {
		ref, err := m.AddCollider(shape, pose)
		require.NoError(t, err)
		refs = append(refs, ref)
	}
	for step := 1; step <= 9; step++ {
		for i, pose := range poses(step) {
			require.NoError(t, m.MoveCollider(refs[i], pose))
		}
		_, err := m.Update(tilecache.Budget{MaxTiles: 2})
		require.NoError(t, err)
		assert.Zero(t, m.LastUpdate().Build)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		done, err := m.Update(tilecache.Budget{})
		require.NoError(t, err)
		if done {
			break
		}
		require.True(t, time.Now().Before(deadline), "the background never finished")
		time.Sleep(time.Millisecond)
	}
	for _, ref := range refs {
		up, err := m.ColliderUpToDate(ref)
		require.NoError(t, err)
		assert.True(t, up)
	}
	assert.Equal(t, tileFingerprints(t, reference.NavMesh()), tileFingerprints(t, m.NavMesh()))
	m.Close()
	m.Close()
	// Without the workers, Update builds again.
	require.NoError(t, m.RemoveCollider(refs[0]))
	done, err := m.Update(tilecache.Budget{})
	require.NoError(t, err)
	assert.True(t, done)
	assert.Positive(t, m.LastUpdate().TilesBuilt)
}
