package query

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// slicedRun is what a sliced search did: the iterations of each step, and
// the corridor and status it ended with.
type slicedRun struct {
	steps  []int
	path   []navmesh.Ref
	status Status
}

// finishSliced runs q's sliced search in steps of step iterations to its
// end.
func finishSliced(t *testing.T, q *Query, step int) slicedRun {
	t.Helper()
	var run slicedRun
	for {
		n, status, err := q.UpdateSlicedFindPath(step)
		require.NoError(t, err)
		run.steps = append(run.steps, n)
		if !status.InProgress() {
			break
		}
		require.Less(t, len(run.steps), 100000)
	}
	path := make([]navmesh.Ref, 512)
	n, status, err := q.FinalizeSlicedFindPath(path)
	require.NoError(t, err)
	run.path, run.status = path[:n], status
	return run
}

// TestSearchStateContinuesTheSearch: a sliced search caught after a few
// steps, its state written, read back and restored into another Query on
// the mesh (a pool of another size, which must grow as the first did),
// goes on with the same steps to the same corridor as the original, on the
// nav_test tiles for 40 random trips.
func TestSearchStateContinuesTheSearch(t *testing.T) {
	mesh := tiledNavTest(t)
	filter := NewFilter()
	rng := rand.New(rand.NewPCG(5, 6))
	random := func() float32 { return rng.Float32() }
	probe, err := New(mesh, 2048)
	require.NoError(t, err)
	for trip := range 40 {
		a, err := probe.FindRandomPoint(filter, random)
		require.NoError(t, err)
		b, err := probe.FindRandomPoint(filter, random)
		require.NoError(t, err)
		original, err := New(mesh, 64)
		require.NoError(t, err)
		require.NoError(t, original.SetNodeLimit(4096))
		status, err := original.InitSlicedFindPath(a.Ref, b.Ref, a.Pos, b.Pos, filter, 0)
		require.NoError(t, err)
		if !status.InProgress() {
			continue
		}
		steps := 1 + trip%7
		for range steps {
			_, _, err := original.UpdateSlicedFindPath(13)
			require.NoError(t, err)
		}
		var state SearchState
		original.CaptureSearch(&state)
		if !state.Active() {
			continue
		}
		file, err := state.AppendBinary(nil)
		require.NoError(t, err)
		var read SearchState
		require.NoError(t, read.UnmarshalBinary(file))
		again, err := read.AppendBinary(nil)
		require.NoError(t, err)
		require.Equal(t, file, again)

		copied, err := New(mesh, 512)
		require.NoError(t, err)
		require.NoError(t, copied.RestoreSearch(&read, filter))
		assert.Equal(t, original.MaxNodes(), copied.MaxNodes(), "trip %d", trip)
		assert.Equal(t, finishSliced(t, original, 13), finishSliced(t, copied, 13), "trip %d", trip)
	}
}

// TestSearchStateRefusesDamage: every truncation is refused with
// ErrBadSearchState; a flipped bit is refused or gives a state that
// restores and runs to an end (or an error) without a panic.
func TestSearchStateRefusesDamage(t *testing.T) {
	q, filter, _, start, end := walkSetup(t, 2048)
	_, err := q.InitSlicedFindPath(start.Ref, end.Ref, start.Point, end.Point, filter, 0)
	require.NoError(t, err)
	_, _, err = q.UpdateSlicedFindPath(8)
	require.NoError(t, err)
	var state SearchState
	q.CaptureSearch(&state)
	require.True(t, state.Active())
	file, err := state.AppendBinary(nil)
	require.NoError(t, err)
	for n := range len(file) {
		var s SearchState
		require.ErrorIs(t, s.UnmarshalBinary(file[:n]), ErrBadSearchState, "truncated to %d", n)
	}
	damaged := make([]byte, len(file))
	for i := range file {
		copy(damaged, file)
		damaged[i] ^= 0x41
		var s SearchState
		if s.UnmarshalBinary(damaged) != nil {
			continue
		}
		target, err := New(q.Mesh(), 64)
		require.NoError(t, err)
		if target.RestoreSearch(&s, filter) != nil {
			continue
		}
		for range 1000 {
			_, status, err := target.UpdateSlicedFindPath(50)
			if err != nil || !status.InProgress() {
				break
			}
		}
		_, _, _ = target.FinalizeSlicedFindPath(make([]navmesh.Ref, 64))
	}
	var inactive SearchState
	q2, err := New(q.Mesh(), 16)
	require.NoError(t, err)
	q2.CaptureSearch(&inactive)
	assert.False(t, inactive.Active())
	require.NoError(t, q2.RestoreSearch(&inactive, nil))
}
